"""The assisted-play kit's generic panels driven by the mouse (issue 18): the status board,
the Tables panel, the counters tray and editor, secret chits behind the curtain. Kit Front
(tests/assistedgame) is the game; every check reads the game state after real input."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from uihelpers import open_game
from wartable.model.tracks import flag, track
from wartable.ui.mainwindow import MainWindow

SHOTS = Path("/tmp/kitui")
LEFT = Qt.MouseButton.LeftButton


def shot(w: QWidget, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    w.grab().save(str(SHOTS / f"{name}.png"))


@pytest.fixture
def win(qtbot: QtBot) -> Iterator[MainWindow]:
    w = open_game(qtbot, "kitgame", "opening", {"table.solitaire": True})
    yield w
    w.close()


def changed(win: MainWindow, qtbot: QtBot, do: object, timeout: int = 10000) -> None:
    """Do something with the mouse and wait for the engine's next snapshot."""
    with qtbot.waitSignal(win.client.snapshotReady, timeout=timeout):
        do()  # type: ignore[operator]


def state(win: MainWindow):  # type: ignore[no-untyped-def]
    assert win.snapshot is not None
    return win.snapshot.session.state


# --------------------------------------------------------------------------- status board


def test_k2_status_board_sets_a_track_and_a_flag_by_mouse(win: MainWindow, qtbot: QtBot) -> None:
    kit = win.kit
    assert kit is not None and kit.dock.isVisible()
    assert not win.side.free_play.isVisible()  # assisted moves are free already
    board = kit.status_board
    spin = board.editors[("econ", "axis")]
    assert spin.value() == 120  # the data's initial value [K2.1]
    spin.setFocus()
    spin.selectAll()
    QTest.keyClicks(spin, "95")
    changed(win, qtbot, lambda: QTest.keyClick(spin, Qt.Key.Key_Return))
    assert track(state(win), "econ", "axis") == 95
    combo = board.editors[("status", "norway")]
    combo.setFocus()
    changed(win, qtbot, lambda: QTest.keyClick(combo, Qt.Key.Key_Down))  # neutral → invaded
    assert track(state(win), "status", "norway") == "invaded"
    box = board.flags["sitzkrieg"]
    assert box.isChecked()
    changed(win, qtbot, lambda: QTest.mouseClick(box, LEFT, pos=QPoint(6, box.height() // 2)))
    assert flag(state(win), "sitzkrieg") is False
    assert "Sitzkrieg in effect: no" in win.snapshot.session.events[-1].text
    changed(win, qtbot, win.undo)  # the verbs are undoable
    assert flag(state(win), "sitzkrieg") is True and board.flags["sitzkrieg"].isChecked()
    kit.show_tab(board)
    shot(win, "status_board")
    assert "[K2.1] [K2.1]" not in " ".join(
        lab.text() for lab in board.findChildren(type(board.date)))
