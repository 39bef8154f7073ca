"""Help: the keyboard and mouse page read from the window's menus, and each game's
how-to-play page from its data (issue 16)."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from uihelpers import open_game, open_window


def test_keyboard_page_lists_every_menu_shortcut(qtbot: QtBot) -> None:
    win = open_window(qtbot)
    dlg = win.show_shortcuts()
    from PySide6.QtWidgets import QTextBrowser

    text = dlg.findChild(QTextBrowser, "helpText")
    assert text is not None
    page = text.toPlainText()
    assert "Ctrl+Z" in page and "Undo" in page
    assert "Ctrl+Return" in page and "End Step" in page
    assert "F10" in page and "Table Mode" in page
    dlg.close()
    win.close()


def test_how_to_play_shows_the_open_games_page(qtbot: QtBot) -> None:
    win = open_game(qtbot, "whatif1940", "standard", {"table.solitaire": True})
    dlg = win.how_to_play()
    assert "1940: What If?" in dlg.windowTitle()
    from PySide6.QtWidgets import QTextBrowser

    text = dlg.findChild(QTextBrowser, "helpText")
    assert text is not None and "Prepared assault" in text.toPlainText()
    dlg.close()
    win.close()


def test_a_game_without_a_page_says_so(qtbot: QtBot) -> None:
    win = open_game(qtbot, "skirmish", "meeting")
    dlg = win.how_to_play()
    from PySide6.QtWidgets import QTextBrowser

    text = dlg.findChild(QTextBrowser, "helpText")
    assert text is not None and "no how-to-play page yet" in text.toPlainText()
    dlg.close()
    win.close()


def test_keyboard_page_names_undo_and_redo_not_the_move_they_take_back(qtbot: QtBot) -> None:
    """Playtest: after a move, Edit → Undo's text names it ("Undo Turn 1: ..."); the
    shortcut page lists the entry, not today's move."""
    from PySide6.QtWidgets import QTextBrowser

    from uihelpers import act
    from wartable.engine.actions import Action

    win = open_game(qtbot, "aa_anniversary", "1941", {"table.solitaire": True})
    act(win, qtbot, Action("end_step", "germany"))
    act(win, qtbot, Action("end_step", "germany"))
    win.undo()
    qtbot.waitUntil(lambda: win.act_redo.text() != "&Redo", timeout=20000)
    assert win.act_undo.text().startswith("&Undo ") and win.act_redo.text().startswith("&Redo ")
    dlg = win.show_shortcuts()
    text = dlg.findChild(QTextBrowser, "helpText")
    assert text is not None
    edit = [line.split("|")[2].strip() for line in text.toMarkdown().splitlines()
            if "Edit →" in line]
    assert "Edit → Undo" in edit and "Edit → Redo" in edit  # keys differ by platform
    assert not any("Turn 1" in e for e in edit), edit
    dlg.close()
    win.close()


def test_how_to_play_points_to_the_placement_tray(qtbot: QtBot) -> None:
    """Playtest: the A&A page said to drag new units "from the mobilization zone" and the
    1940 page "from their set-up boxes beside the map"; both now wait in the tray."""
    from wartable.persistence import gamedata

    for gid in ("aa_anniversary", "whatif1940"):
        page = gamedata.how_to_play(gid)
        assert page is not None and "*Units to place* tray" in page, gid
        assert "Ctrl+click" in page, gid
