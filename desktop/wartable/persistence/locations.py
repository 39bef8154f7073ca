"""Where Wartable keeps its files: platformdirs folders, or one root under WARTABLE_HOME.

WARTABLE_HOME (tests, CI, portable installs) replaces every folder with a fixed layout
under one root, so a run never touches the user's real settings or autosaves:

    $WARTABLE_HOME/data/            data_dir()
    $WARTABLE_HOME/data/autosave/   autosave_dir()
    $WARTABLE_HOME/config/          config_dir()
    $WARTABLE_HOME/saves/           saves_dir()

Every function reads the environment when called (so monkeypatching works) and creates
its folder on demand.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "Wartable"
HOME_ENV = "WARTABLE_HOME"


def home_override() -> Path | None:
    """The WARTABLE_HOME root, or None when unset or empty."""
    raw = os.environ.get(HOME_ENV, "").strip()
    if not raw:
        return None
    # Absolute, so a later chdir cannot move the folders under us.
    return Path(os.path.abspath(os.path.expanduser(raw)))


def _ensure(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    return path


def data_dir() -> Path:
    """Autosaves, the crash marker and other files the user does not pick."""
    root = home_override()
    if root is not None:
        return _ensure(root / "data")
    # appauthor=False: no "Wartable/Wartable" nesting on Windows.
    return _ensure(Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)))


def config_dir() -> Path:
    """settings.json."""
    root = home_override()
    if root is not None:
        return _ensure(root / "config")
    return _ensure(Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)))


def autosave_dir() -> Path:
    """Rotated autosaves; nothing else lives here, so rotation can own the folder."""
    return _ensure(data_dir() / "autosave")


def saves_dir() -> Path:
    """Default folder of the Save dialog: Documents/Wartable, where people look for files."""
    root = home_override()
    if root is not None:
        return _ensure(root / "saves")
    return _ensure(Path(platformdirs.user_documents_dir()) / APP_NAME)
