"""Generic panels of assisted play (issue 18), for any game whose data declares the kit's
parts (tracks, flags, die-roll tables, cups, a counter mix, checklists): a status board,
the Tables panel, a counters tray, secret chits, the step's checklist, and the set-up tools
(save as scenario, orders of battle from CSV). Driven purely by the game's data: nothing
here names a game. The main window makes one `KitPanels` when such a game opens.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow, QTabWidget

from wartable.model.definition import GameDefinition
from wartable.ui.generic.base import Act, KitView, Panel
from wartable.ui.generic.status import StatusBoard
from wartable.ui.widgets import scrolled

__all__ = ["Act", "KitPanels", "KitView", "Panel", "uses_kit"]


def uses_kit(d: GameDefinition) -> bool:
    """Does the game's data declare any part of the assisted-play kit?"""
    return d.assisted or bool(d.tracks or d.flags or d.cups or d.counter_mix)


WIDTH = 290  # the panels' editors and names fit; the map keeps the rest


class KitPanels:
    """The kit's panels in one dock of tabs ("Assisted play"), beside the map."""

    def __init__(self, window: QMainWindow, act: Act,
                 place_dock: Callable[[QDockWidget, Qt.DockWidgetArea], None]) -> None:
        self.window = window
        self.tabs = QTabWidget()
        self.tabs.setObjectName("kitTabs")
        self.tabs.setUsesScrollButtons(True)
        self.tabs.setDocumentMode(True)
        self.tabs.setMinimumWidth(WIDTH - 30)
        self.status_board = StatusBoard(act)
        self.panels: list[Panel] = [self.status_board]
        self.tabs.addTab(scrolled(self.status_board), "Status")
        self.dock = QDockWidget("Assisted play", window)
        self.dock.setObjectName("kitDock")
        self.dock.setWidget(self.tabs)
        window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.dock)
        place_dock(self.dock, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.dock.show()
        if window.dockWidgetArea(self.dock) == Qt.DockWidgetArea.LeftDockWidgetArea:
            window.resizeDocks([self.dock], [WIDTH], Qt.Orientation.Horizontal)

    def show_tab(self, panel: Panel) -> None:
        for i in range(self.tabs.count()):
            w = self.tabs.widget(i)
            if w is not None and (w is panel or w.isAncestorOf(panel)):
                self.tabs.setCurrentIndex(i)
                self.dock.show()
                self.dock.raise_()

    def refresh(self, view: KitView) -> None:
        for p in self.panels:
            p.refresh(view)

    def location_clicked(self, location: str) -> bool:
        """A click on the map; True when a panel used it (a counter placed)."""
        return False

    def close(self) -> None:
        self.window.removeDockWidget(self.dock)
        self.dock.deleteLater()
