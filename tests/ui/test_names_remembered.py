"""The start screen remembers the players' names across a restart (issue 16: a new user
typed the same names again each time)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from uihelpers import open_window, select_game


def test_names_typed_for_a_split_come_back_after_a_restart(qtbot: QtBot) -> None:
    win = open_window(qtbot)
    s = win.start
    select_game(s, "aa_anniversary")
    s.split_editor.set_split(2)
    for edit, name in zip(s.split_editor.seat_edits, ("Anna", "Boris"), strict=True):
        edit.clear()
        QTest.keyClicks(edit, name)
    with qtbot.waitSignal(win.client.snapshotReady, timeout=20000):
        QTest.mouseClick(s.start, Qt.MouseButton.LeftButton)
    assert win.snapshot is not None
    assert dict(win.snapshot.session.options["table.seats"])["germany"] == "Anna"
    win.close()  # the settings are written as the window closes

    again = open_window(qtbot)
    select_game(again.start, "aa_anniversary")
    again.start.split_editor.set_split(2)
    assert [e.text() for e in again.start.split_editor.seat_edits] == ["Anna", "Boris"]
    # One name per side too: the first seats take the remembered names.
    again.start.split_editor.set_split(0)
    assert list(again.start.player_edits.values())[0].text() == "Anna"
    again.close()
