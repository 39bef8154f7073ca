"""Shared by the window tests: open a main window, pick and start a game on the start screen,
submit actions and wait for the result, sit down behind the privacy curtain."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from wartable.engine.actions import Action
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


def start_game(win: MainWindow, qtbot: QtBot, game_id: str, scenario: str,
               options: dict[str, bool], players: dict[str, str], solitaire: bool,
               timeout_ms: int) -> None:
    """Start a game from the start screen: `options` ticked or not, `players` named per side."""
    s = win.start
    select_game(s, game_id)
    s.scenario.setCurrentIndex(s.scenario.findData(scenario))
    for option, on in options.items():
        s.option_checks[option].setChecked(on)
    for side, name in players.items():
        s.player_edits[side].setText(name)
    s.solitaire.setChecked(solitaire)
    with qtbot.waitSignal(win.client.snapshotReady, timeout=timeout_ms):
        qtbot.mouseClick(s.start, Qt.MouseButton.LeftButton)


def act(win: MainWindow, qtbot: QtBot, action: Action, timeout_ms: int = 30000) -> None:
    """Submit `action` and wait for the worker's next snapshot."""
    with qtbot.waitSignal(win.client.snapshotReady, timeout=timeout_ms):
        win.submit(action)


def sit(win: MainWindow, qtbot: QtBot, player: str) -> None:
    """The curtain asks for `player`, who clicks through to the map."""
    assert win.stack.currentWidget() is win.curtain
    assert win.curtain.title.text() == f"Pass the screen to {player}"
    qtbot.mouseClick(win.curtain.button, Qt.MouseButton.LeftButton)
    assert win.stack.currentWidget() is win.map_tabs


def set_up(win: MainWindow, qtbot: QtBot, side: str) -> None:
    """`side` takes the automatic set-up and ends its set-up step."""
    act(win, qtbot, Action("auto_setup", side))
    act(win, qtbot, Action("end_step", side))
