"""The composition root: starts the GUI, offers crash recovery, renders screenshots."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from wartable import __version__
from wartable.core.errors import WartableError
from wartable.persistence import autosave
from wartable.ui.mainwindow import MainWindow
from wartable.worker.commands import Snapshot


def _app() -> QApplication:
    app = QApplication.instance()
    if app is None:
        app = QApplication(sys.argv[:1])
        app.setApplicationName("Wartable")
        app.setApplicationVersion(__version__)
        app.setOrganizationName("Wartable")
        app.setDesktopFileName("wartable")
        icon = Path(__file__).parent / "assets" / "icons" / "wartable.png"
        if icon.is_file():
            app.setWindowIcon(QIcon(str(icon)))
    assert isinstance(app, QApplication)
    return app


def run_gui(open_path: Path | None = None) -> int:
    """The app; with `open_path` (`wartable FILE`, a file association) that save opens."""
    app = _app()
    crashed = autosave.crashed_last_time()
    autosave.mark_running()
    win = MainWindow()
    win.show()
    if open_path is not None:
        win.open_path(open_path.resolve())
    elif crashed is not None:
        win.offer_recovery(crashed)
    code = app.exec()
    autosave.mark_clean_exit()
    return int(code)


def wait_for(win: MainWindow, timeout_ms: int = 20000, *, checked: bool = False) -> None:
    """Block (with the event loop running) until the worker has answered; with `checked`,
    until an opened save's log is checked too (its second snapshot, issue 20)."""
    loop = QEventLoop()
    done = {"ok": False}

    def finish(*args: object) -> None:
        if checked and args and isinstance(args[0], Snapshot) and not args[0].fresh:
            return
        done["ok"] = True
        loop.quit()

    win.client.snapshotReady.connect(finish)
    win.client.failed.connect(finish)
    QTimer.singleShot(timeout_ms, loop.quit)
    loop.exec()
    win.client.snapshotReady.disconnect(finish)
    win.client.failed.disconnect(finish)
    if not done["ok"]:
        raise WartableError("The engine did not answer in time.")


def screenshot(save: Path | None, out: Path, size: tuple[int, int], game: str | None = None,
               scenario: str | None = None) -> None:
    """Render the main window offscreen (with a save or a new game open, or the start
    screen) into a PNG, then exit. Serves the README, the tests and display-less checks."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    app = _app()
    win = MainWindow(autosave=False, confirm_close=False)
    win.resize(*size)
    win.show()
    try:
        if save is not None or game is not None:
            errors: list[str] = []
            win.client.failed.connect(lambda f: errors.append(f.message.splitlines()[0]))
            if save is not None:
                win.open_path(save)
            else:
                from wartable.persistence.gamedata import load_game

                d = load_game(game or "").definition
                win.new_game(d.id, scenario or next(iter(d.scenarios)))
            wait_for(win, checked=save is not None)
            if errors:
                raise WartableError(errors[0])
        for _ in range(5):
            app.processEvents()
        out.parent.mkdir(parents=True, exist_ok=True)
        if not win.grab().save(str(out), "PNG"):
            raise WartableError(f"Cannot write {out}")
    finally:
        win.close()
        app.processEvents()
