"""File > Print… from the app: a preview rendered off the GUI thread, then the real file."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from uihelpers import open_game


def test_print_setup_preview_then_save(qtbot: QtBot, tmp_path: Path) -> None:
    win = open_game(qtbot, "skirmish", "meeting")
    dlg = win.print_dialog("setup")
    assert dlg is not None
    qtbot.waitUntil(lambda: getattr(dlg, "page_count", 0) > 0, timeout=60000)
    assert dlg.status.text().startswith("Preview of ")
    # Red only: one side's sheets.
    dlg.side.setCurrentIndex(dlg.side.findData("red"))
    qtbot.waitUntil(lambda: dlg._request is None and dlg.status.text().startswith("Preview"),
                    timeout=60000)
    out = tmp_path / "red-setup.pdf"
    dlg.save_to(out)
    qtbot.waitUntil(lambda: dlg.status.text().startswith("Wrote"), timeout=120000)
    assert out.read_bytes().startswith(b"%PDF-")
    assert dlg.last_output.pages >= 1
    dlg.close()
    win.close()


def test_cancel_a_map_export(qtbot: QtBot, tmp_path: Path) -> None:
    win = open_game(qtbot, "skirmish", "meeting")
    dlg = win.print_dialog("map")
    assert dlg is not None
    qtbot.waitUntil(lambda: dlg._request is None, timeout=60000)
    out = tmp_path / "map.pdf"
    dlg.save_to(out)
    dlg._cancel()
    qtbot.waitUntil(lambda: dlg._request is None, timeout=60000)
    assert dlg.status.text() == "Cancelled."
    assert not out.exists()  # a cancelled job leaves no file
    dlg.close()
    win.close()


def test_the_dialog_names_the_file_and_writes_png_pages(qtbot: QtBot, tmp_path: Path) -> None:
    """Issue 21: a file name from the game and the sheet, PDF or PNG, and one "Wrote"."""
    win = open_game(qtbot, "skirmish", "meeting")
    dlg = win.print_dialog("setup")
    assert dlg is not None
    qtbot.waitUntil(lambda: dlg._request is None, timeout=60000)
    dlg.side.setCurrentIndex(dlg.side.findData("red"))
    assert dlg.default_name() == "skirmish-at-the-ford-test-game-meeting-red-setup.pdf"
    dlg.format.setCurrentIndex(dlg.format.findData("png"))
    assert dlg.save.text() == "Save PNG…" and dlg.default_name().endswith("-red-setup.png")
    dlg.kind.setCurrentIndex(dlg.kind.findData("charts"))
    assert dlg.default_name() == "skirmish-at-the-ford-test-game-player-aids.png"
    qtbot.waitUntil(lambda: dlg._request is None and dlg.status.text().startswith("Preview"),
                    timeout=60000)
    preview_pages = dlg.page_count
    dlg.save_to(tmp_path / dlg.default_name())
    qtbot.waitUntil(lambda: dlg.status.text().startswith("Wrote"), timeout=120000)
    assert "Wrote Wrote" not in dlg.status.text()
    written = sorted(tmp_path.glob("*.png"))
    assert len(written) == dlg.last_output.pages == preview_pages  # the preview's pages
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in written)
    dlg.grab().save(str(tmp_path / "dialog.png"))
    dlg.close()
    win.close()


def test_a_print_job_the_player_cancels_or_replaces_raises_no_error_box(
        qtbot: QtBot, tmp_path: Path) -> None:
    """Playtest: File → Print starts a preview; choosing another sheet (or Cancel) cancels
    that job, which is no error: the dialog says "Cancelled.", the window shows no box."""
    from PySide6.QtWidgets import QMessageBox

    win = open_game(qtbot, "skirmish", "meeting")
    dlg = win.print_dialog("map")
    assert dlg is not None
    qtbot.waitUntil(lambda: dlg._request is None, timeout=60000)
    dlg.save_to(tmp_path / "map.pdf")
    dlg._cancel()
    qtbot.waitUntil(lambda: dlg._request is None, timeout=60000)
    assert dlg.status.text() == "Cancelled."
    qtbot.wait(200)
    assert win.last_error == ""
    assert not any(b.isVisible() for b in win.findChildren(QMessageBox))
    dlg.close()
    win.close()
