"""Entry point of the frozen (PyInstaller) Wartable: the same program as the `wartable`
script, plus what only a bundle needs.

- WARTABLE_EXTRA_PATH (dirs separated by os.pathsep): a developer and testing aid. A
  frozen app ignores PYTHONPATH, so these dirs are added to sys.path before the CLI
  imports WARTABLE_GAME_MODULES; plain .py packages there (tests/testgame) then load.
  They are appended, not prepended: a folder on the list can add games but never
  shadow a module that the bundle ships.
"""

from __future__ import annotations

import os
import sys


def add_extra_path(environ: dict[str, str] | os._Environ[str] = os.environ) -> list[str]:
    extra = [p for p in environ.get("WARTABLE_EXTRA_PATH", "").split(os.pathsep) if p]
    for p in extra:
        if p not in sys.path:
            sys.path.append(p)
    return extra


def main() -> int:
    add_extra_path()
    from wartable.cli import main as cli_main

    return cli_main()  # `wartable FILE` opens the save: the CLI handles it


if __name__ == "__main__":
    sys.exit(main())
