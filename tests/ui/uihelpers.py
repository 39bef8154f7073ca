"""Shared by the window tests: open a main window, pick a game on the start screen."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from wartable.ui.mainwindow import MainWindow


def open_window(qtbot: QtBot) -> MainWindow:
    w = MainWindow(autosave=False, confirm_close=False)
    qtbot.addWidget(w)
    w.resize(1400, 900)
    w.show()
    qtbot.waitExposed(w)
    return w


def select_game(start_screen: object, game_id: str) -> None:
    """Pick a game on the start screen by id (the list is sorted by title)."""
    games = start_screen.games  # type: ignore[attr-defined]
    for i in range(games.count()):
        if games.item(i).data(Qt.ItemDataRole.UserRole) == game_id:
            games.setCurrentRow(i)
            return
    raise AssertionError(f"{game_id} is not on the start screen")


def open_game(qtbot: QtBot, game_id: str, scenario: str,
              options: dict[str, object] | None = None) -> MainWindow:
    """A window with a new game of `game_id` open (started through the worker); `options`:
    rule and table options (e.g. {"table.solitaire": True}: open information, no curtain)."""
    from wartable.core.frozen import FrozenMap
    from wartable.worker.commands import NewGame

    w = open_window(qtbot)
    with qtbot.waitSignal(w.client.snapshotReady, timeout=20000):
        w.client.send(NewGame(game_id, scenario, FrozenMap(options or {})))
    return w
