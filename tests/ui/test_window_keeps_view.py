"""The map keeps the player's zoom and centre across undo and redo, the Stack dock follows
every change, and the calculator and plug-ins take the space last clicked (issue 16)."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from uihelpers import open_game
from wartable.engine.actions import Action
from wartable.ui.mainwindow import MainWindow


def click(win: MainWindow, label: str) -> None:
    v = win.map
    assert v.board is not None
    pos = v.viewportTransform().map(QPointF(*v.board.center(label))).toPoint()
    QTest.mouseClick(v.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     pos)


def first_move(win: MainWindow) -> tuple[str, str]:
    snap = win.snapshot
    assert snap is not None
    pid, dests = next((p, d) for p, d in snap.prompt.moves.items() if d)
    return pid, dests[0]


def test_undo_and_redo_keep_the_zoom_and_centre(qtbot: QtBot) -> None:
    win = open_game(qtbot, "skirmish", "meeting")
    win.map.set_zoom(250)
    win.map.center_on_location("1206")
    centre = win.map.mapToScene(win.map.viewport().rect().center())
    pid, to = first_move(win)
    with qtbot.waitSignal(win.client.snapshotReady, timeout=20000):
        win.submit(Action.make("move", win.snapshot.prompt.side, piece=pid, to=to))
    with qtbot.waitSignal(win.client.snapshotReady, timeout=20000):
        QTest.keyClick(win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert win.snapshot is not None and win.snapshot.session.state.piece(pid).location != to
    assert abs(win.map.zoom_percent() - 250) < 0.5
    after = win.map.mapToScene(win.map.viewport().rect().center())
    assert (after - centre).manhattanLength() < 2
    win.close()


def test_the_stack_dock_follows_a_piece_that_leaves(qtbot: QtBot) -> None:
    win = open_game(qtbot, "skirmish", "meeting")
    pid, to = first_move(win)
    where = win.snapshot.session.state.piece(pid).location  # type: ignore[union-attr]
    click(win, where)
    assert win.inspector.location == where
    assert pid in win.inspector.piece_ids()
    with qtbot.waitSignal(win.client.snapshotReady, timeout=20000):
        win.submit(Action.make("move", win.snapshot.prompt.side, piece=pid, to=to))
    assert pid not in win.inspector.piece_ids()  # it left: no longer listed
    win.close()


def test_a_click_on_an_empty_space_is_the_space_plug_ins_take(qtbot: QtBot) -> None:
    win = open_game(qtbot, "skirmish", "meeting")
    click(win, "1206")
    assert win.clicked_location == "1206"
    assert win.game_ui is not None and win.game_ui.ctx.selected_location() == "1206"
    win.close()
