"""Where built map files live: the installed `wartable.mapdata` package, or the top-level
`maps/` folder of a source checkout (run with PYTHONPATH=desktop, nothing installed), or
$WARTABLE_MAPS_DIR when set (tests and map authors building elsewhere)."""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

MAPS_ENV = "WARTABLE_MAPS_DIR"
PACKAGE = "wartable.mapdata"


def maps_dir() -> Path:
    """The folder holding built maps (one folder per game) and `sources/`."""
    env = os.environ.get(MAPS_ENV)
    if env:
        return Path(env)
    try:
        root = resources.files(PACKAGE)
    except ModuleNotFoundError:  # a source checkout: desktop/wartable/maps/files.py
        return Path(__file__).resolve().parents[3] / "maps"
    return Path(str(root))


def package_dir(package: str) -> Path | None:
    """The folder of a map package named like "wartable.mapdata.whatif1940", found the same
    way; None when the package name is not under wartable.mapdata."""
    if package != PACKAGE and not package.startswith(PACKAGE + "."):
        return None
    return maps_dir().joinpath(*package.split(".")[2:])
