"""Issue 15, finding 1 (a game lost at exit): answering "Save" on close saves the game, on
disk, before anything else can fail; a settings write that fails is reported and never
aborts; a save that fails keeps the window (and the game) open. New and Open ask too."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox
from pytestqt.qtbot import QtBot

from wartable.persistence import savefile
from wartable.persistence import settings as settings_mod
from wartable.ui.mainwindow import MainWindow
from wartable.worker.commands import NewGame

Button = QMessageBox.StandardButton


def _window(qtbot: QtBot) -> MainWindow:
    w = MainWindow(autosave=False, confirm_close=True)
    qtbot.addWidget(w)
    w.show()
    with qtbot.waitSignal(w.client.snapshotReady, timeout=20000):
        w.client.send(NewGame("skirmish", "meeting", seed="1"))
    assert w.snapshot is not None and w.snapshot.dirty
    return w


def _answer(monkeypatch: pytest.MonkeyPatch, button: Button, save_as: Path | None,
            warnings: list[str]) -> None:
    """The player's answers: the Save question, the file dialog, warning boxes read."""
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: button)
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *a, **k: (str(save_as) if save_as else "", ""))
    monkeypatch.setattr(QMessageBox, "warning",
                        lambda _parent, _title, text, *a, **k: warnings.append(text))


def test_issue15_finding1_unwritable_settings_on_close_saves_the_game_and_reports(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    w = _window(qtbot)
    target = tmp_path / "kept.wartable.json"
    warnings: list[str] = []
    _answer(monkeypatch, Button.Save, target, warnings)
    # The settings file has turned into a folder: every settings write fails.
    path = settings_mod.settings_path()
    if path.exists():
        path.unlink()
    path.mkdir(parents=True)
    (path / "x").write_text("in the way")

    assert w.close()  # no abort, no exception out of closeEvent

    assert savefile.load_from_path(target).state == w.snapshot.session.state
    assert "Settings were not saved" in w.last_error
    assert any("Settings were not saved" in t for t in warnings)
    shutil.rmtree(path)


def test_issue15_finding1_a_failing_save_on_close_keeps_the_window_open(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    w = _window(qtbot)
    target = tmp_path / "readonly.wartable.json"
    target.write_bytes(b"{}")
    os.chmod(target, 0o444)
    warnings: list[str] = []
    _answer(monkeypatch, Button.Save, target, warnings)

    assert not w.close()  # the game would be lost: stay open
    assert w.isVisible()
    assert "read-only" in w.last_error and warnings
    assert target.read_bytes() == b"{}"  # the read-only file was not replaced
    w.confirm_close = False
    w.close()


def test_issue15_finding1_cancelling_the_file_dialog_keeps_the_window_open(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    w = _window(qtbot)
    _answer(monkeypatch, Button.Save, None, [])
    assert not w.close()
    w.confirm_close = False
    w.close()


def test_issue15_finding1_new_game_saves_the_changed_one_first(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    w = _window(qtbot)
    first = w.snapshot.session
    target = tmp_path / "first.wartable.json"
    _answer(monkeypatch, Button.Save, target, [])
    with qtbot.waitSignal(w.client.snapshotReady, timeout=20000):
        w.new_game("skirmish", "meeting", seed="2")
    assert savefile.load_from_path(target).state == first.state
    w.confirm_close = False
    w.close()


def test_issue15_finding1_open_cancelled_keeps_the_game(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    w = _window(qtbot)
    before = w.snapshot
    _answer(monkeypatch, Button.Cancel, None, [])
    w.open_path(tmp_path / "other.wartable.json")
    qtbot.wait(200)
    assert w.snapshot is before
    w.confirm_close = False
    w.close()
