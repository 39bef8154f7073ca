"""The boundary between the main window and a game's own widgets (issue 14).

The main window knows this module and no game: when a game opens, `ui_for` imports the
plug-in module its registry entry names (`GameModule.ui_module`, e.g. a package under
`wartable.gameui`) and builds the plug-in registered for its id; a game without one gets
`GameUi`, the generic plug-in with no panels of its own. When another game or the start
screen opens, the window closes the plug-in, and every dock, dialog and menu entry it added
goes with it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDockWidget, QMainWindow, QWidget

from wartable.core.errors import WartableError
from wartable.engine.actions import Button
from wartable.games import registry
from wartable.worker.commands import Snapshot
from wartable.worker.engine_thread import EngineClient


@dataclass(frozen=True)
class UiContext:
    """What a plug-in may use of the window: nothing else of it is its business."""

    window: QMainWindow
    client: EngineClient
    submit: Callable[[Button], None]  # the side panel's own path to the engine
    may_read: Callable[[str], bool]  # may the seated player read this side (hidden info)
    selected_location: Callable[[], str]  # the stack the player last clicked, or ""
    status: Callable[[str], None]  # a line in the status bar
    # Where a new dock goes: a right-hand one joins the overview's tabs; on a small screen
    # a left-hand one becomes a tab of the sequence-of-play column, so the map keeps most
    # of the width (issue 16).
    place_dock: Callable[[QDockWidget, Qt.DockWidgetArea], None]


class GameUi:
    """A game's widgets in the main window. This base is the generic plug-in: a game with
    no bespoke widgets gets it as it is (its data drives the generic panels)."""

    def __init__(self, ctx: UiContext) -> None:
        self.ctx = ctx
        self._docks: list[QDockWidget] = []
        self._windows: list[QWidget] = []
        self._actions: list[QAction] = []

    # --- what a plug-in offers the window ---------------------------------------------
    def view_actions(self) -> list[QAction]:
        """Entries for the View menu (the plug-in's docks and windows)."""
        return [d.toggleViewAction() for d in self._docks]

    def game_actions(self) -> list[QAction]:
        """Entries for the Game menu (a calculator...)."""
        return []

    def show_snapshot(self, snap: Snapshot) -> None:
        """Every new snapshot of the game, after the map and side panel are drawn."""

    def on_location_clicked(self, location: str) -> None:
        """The player clicked a hex, area or box on the map."""

    # --- helpers for plug-ins ---------------------------------------------------------
    def add_dock(self, title: str, widget: QWidget, area: Qt.DockWidgetArea,
                 name: str = "", tab_with: QDockWidget | None = None) -> QDockWidget:
        """A dock of this plug-in, hidden until the plug-in shows it; removed at close."""
        win = self.ctx.window
        d = QDockWidget(title, win)
        d.setObjectName(name or f"dock_{title}")
        d.setWidget(widget)
        win.addDockWidget(area, d)
        if tab_with is not None and win.dockWidgetArea(tab_with) == area:
            win.tabifyDockWidget(tab_with, d)
        else:
            self.ctx.place_dock(d, area)
        d.hide()
        self._docks.append(d)
        return d

    def add_window(self, w: QWidget) -> QWidget:
        """A top-level window of this plug-in (a battle board), closed with it."""
        self._windows.append(w)
        return w

    def action(self, text: str, slot: Callable[[], object], name: str,
               shortcut: str = "") -> QAction:
        a = QAction(text, self.ctx.window)
        a.setObjectName(name)
        if shortcut:
            a.setShortcut(shortcut)
        a.triggered.connect(lambda _checked=False: slot())
        self._actions.append(a)
        return a

    def close(self) -> None:
        """Another game or the start screen opens: everything this plug-in added goes."""
        win = self.ctx.window
        for a in [*self._actions, *(d.toggleViewAction() for d in self._docks)]:
            for holder in a.associatedObjects():  # out of the menus now, not at deletion
                if isinstance(holder, QWidget):
                    holder.removeAction(a)
        for d in self._docks:
            win.removeDockWidget(d)
            d.deleteLater()
        for w in self._windows:
            w.close()
            w.deleteLater()
        for a in self._actions:
            a.deleteLater()
        self._docks, self._windows, self._actions = [], [], []


UiFactory = Callable[[UiContext], GameUi]
_factories: dict[str, UiFactory] = {}


def register_ui(game_id: str, factory: UiFactory) -> None:
    """A game's plug-in module calls this on import."""
    _factories[game_id] = factory


def ui_for(game_id: str, ctx: UiContext) -> GameUi:
    """The plug-in of the game: its registered one, else the generic one."""
    module = registry.get(game_id)
    if module.ui_module and game_id not in _factories:
        try:
            importlib.import_module(module.ui_module)
        except ImportError as e:
            raise WartableError(f"Cannot load the widgets of {module.title} "
                                f"({module.ui_module}): {e}. Reinstall Wartable.") from e
    return _factories.get(game_id, GameUi)(ctx)
