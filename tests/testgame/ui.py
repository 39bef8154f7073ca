"""The test game's UI plug-in (issue 14): registered from tests/, with no edit under
wartable/ui. A dock that shows the turn and the last location clicked on the map."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from wartable.ui.plugin import GameUi, UiContext, register_ui
from wartable.worker.commands import Snapshot


class SkirmishUi(GameUi):
    def __init__(self, ctx: UiContext) -> None:
        super().__init__(ctx)
        self.label = QLabel()
        self.clicked = ""
        self.dock = self.add_dock("Ford report", self.label,
                                  Qt.DockWidgetArea.LeftDockWidgetArea, "dock_ford")

    def show_snapshot(self, snap: Snapshot) -> None:
        self.label.setText(f"Turn {snap.session.state.turn}; clicked {self.clicked or '-'}")
        self.dock.show()

    def on_location_clicked(self, location: str) -> None:
        self.clicked = location


register_ui("skirmish", SkirmishUi)
