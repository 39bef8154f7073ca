"""The layout at 1280x720 (issue 16): the map keeps most of the width, the window fits the
screen, and End step never scrolls out of sight (A&A's purchase lists thirteen units)."""

from __future__ import annotations

from PySide6.QtWidgets import QScrollArea
from pytestqt.qtbot import QtBot

from wartable.core.frozen import FrozenMap
from wartable.ui.mainwindow import MainWindow
from wartable.worker.commands import NewGame


def test_a_and_a_purchase_at_1280x720_shows_the_map_and_end_step(qtbot: QtBot) -> None:
    win = MainWindow(autosave=False, confirm_close=False)
    qtbot.addWidget(win)
    win.resize(1280, 720)
    win.show()
    qtbot.waitExposed(win)
    with qtbot.waitSignal(win.client.snapshotReady, timeout=20000):
        win.client.send(NewGame("aa_anniversary", "1941", FrozenMap({"table.solitaire": True})))
    qtbot.wait(50)
    assert win.height() <= 720  # no dock's minimum pushes the window off the screen
    assert win.map.viewport().width() >= 0.65 * win.width()
    end = win.side.button_for("end_step")
    assert end is not None and end.isVisible()
    # In front, not on a tab behind the game's Purchase dock (isVisible alone says True there).
    assert not end.visibleRegion().isEmpty()
    # Pinned: no scroll area holds it, so no amount of choices hides it.
    parent = end.parentWidget()
    while parent is not None:
        assert not isinstance(parent, QScrollArea)
        parent = parent.parentWidget()
    win.close()
