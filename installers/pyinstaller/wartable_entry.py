"""Entry point of the frozen (PyInstaller) Wartable: the same program as the `wartable`
script, plus two things only a bundle needs.

- WARTABLE_EXTRA_PATH (dirs separated by os.pathsep): a developer and testing aid. A
  frozen app ignores PYTHONPATH, so these dirs are added to sys.path before the CLI
  imports WARTABLE_GAME_MODULES; plain .py packages there (tests/testgame) then load.
  They are appended, not prepended: a folder on the list can add games but never
  shadow a module that the bundle ships.
- `wartable FILE` (how a desktop's file association, Windows' "Open with" and macOS's
  argv emulation start the app on a save) opens the GUI with that save. The CLI itself
  only takes subcommands; this shim goes once it accepts a file (see installers/README.md).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def add_extra_path(environ: dict[str, str] | os._Environ[str] = os.environ) -> list[str]:
    extra = [p for p in environ.get("WARTABLE_EXTRA_PATH", "").split(os.pathsep) if p]
    for p in extra:
        if p not in sys.path:
            sys.path.append(p)
    return extra


def file_to_open(argv: list[str]) -> Path | None:
    """The save to open when the app was started as `wartable FILE`, else None."""
    if len(argv) != 2 or argv[1].startswith("-"):
        return None
    from wartable.cli import build_parser

    commands: set[str] = set()
    for action in build_parser()._actions:  # argparse has no public way to list them
        choices = getattr(action, "choices", None)
        if isinstance(choices, dict):
            commands.update(choices)
    if argv[1] in commands:
        return None
    path = Path(argv[1])
    return path if path.is_file() else None


def open_in_gui(path: Path) -> int:
    from PySide6.QtCore import QTimer

    from wartable import app as wapp
    from wartable.cli import load_extra_games
    from wartable.core.errors import WartableError
    from wartable.ui.mainwindow import MainWindow

    try:
        load_extra_games()
    except WartableError as e:
        print(f"wartable: error: {str(e).splitlines()[0]}", file=sys.stderr)
        return 1
    qapp = wapp._app()  # the QApplication run_gui will use

    def open_it() -> None:
        for w in qapp.topLevelWidgets():
            if isinstance(w, MainWindow):
                w.open_path(path.resolve())
                return

    QTimer.singleShot(0, open_it)
    return wapp.run_gui()


def main() -> int:
    add_extra_path()
    path = file_to_open(sys.argv)
    if path is not None:
        return open_in_gui(path)
    from wartable.cli import main as cli_main

    return cli_main()


if __name__ == "__main__":
    sys.exit(main())
