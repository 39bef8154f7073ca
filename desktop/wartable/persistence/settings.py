"""Preferences: ``config_dir()/settings.json``, read forgivingly, written atomically.

A damaged settings file must never stop the app or lose the user's file: load_settings
falls back to defaults (field by field where it can) and returns a warning to show; the
file stays as it is until the next explicit save, which first copies it to
``settings.json.bad``. Keys this version does not know (written by a newer Wartable)
are kept when saving.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from wartable.core.errors import WartableError
from wartable.persistence import boundedread
from wartable.persistence.locations import config_dir
from wartable.persistence.savefile import write_atomic

SETTINGS_NAME = "settings.json"
BAD_SUFFIX = ".bad"
PALETTES = ("standard", "colourblind")
DICE_MODES = ("digital", "physical")
MAX_RECENT = 10
MAX_PLAYERS = 12  # names remembered for the start screen's seats
MAX_NAME = 60
MAX_AUTOSAVE_KEEP = 100
MAX_SETTINGS_BYTES = 1024 * 1024  # settings are a few hundred bytes; more is not ours
_LIMITS = boundedread.Limits(MAX_SETTINGS_BYTES, max_nodes=10_000, max_depth=20)


@dataclass(frozen=True, slots=True)
class Settings:
    recent_files: tuple[str, ...] = ()  # absolute paths, most recent first, at most 10
    palette: str = "standard"  # "standard" | "colourblind" (counter and side colours)
    dice_mode: str = "digital"  # default for new games: "digital" | "physical"
    autosave_keep: int = 10  # autosaves kept by rotation
    zoom_preset: int = 100  # map zoom in percent at start
    window_geometry: str = ""  # base64 of the main window's saved geometry (Qt bytes)
    show_grid: bool = True
    show_labels: bool = True
    last_game: str = ""  # game id offered first in New Game
    player_names: tuple[str, ...] = ()  # the seats' names last typed, in seat order

    def __post_init__(self) -> None:
        # Catch programming errors at the source rather than in the file.
        if self.palette not in PALETTES:
            raise ValueError(f"palette must be one of {PALETTES}, not {self.palette!r}")
        if self.dice_mode not in DICE_MODES:
            raise ValueError(f"dice_mode must be one of {DICE_MODES}, not {self.dice_mode!r}")
        if not 1 <= self.autosave_keep <= MAX_AUTOSAVE_KEEP:
            raise ValueError(f"autosave_keep must be 1..{MAX_AUTOSAVE_KEEP}")
        if len(self.recent_files) > MAX_RECENT:
            raise ValueError(f"at most {MAX_RECENT} recent files")

    def geometry_bytes(self) -> bytes:
        return base64.b64decode(self.window_geometry) if self.window_geometry else b""

    def with_geometry(self, raw: bytes) -> Settings:
        return replace(self, window_geometry=base64.b64encode(raw).decode("ascii"))


DEFAULTS = Settings()


def settings_path() -> Path:
    return config_dir() / SETTINGS_NAME


# --- validation, field by field -----------------------------------------------------------

def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _recent(v: Any) -> tuple[str, ...] | None:
    if not isinstance(v, list) or not all(isinstance(x, str) and x for x in v):
        return None
    out: tuple[str, ...] = ()
    for path in reversed(v):  # re-adding oldest first leaves the newest at the front
        out = _push_recent(out, path)
    return out


def _base64(v: Any) -> str | None:
    if not isinstance(v, str):
        return None
    try:
        base64.b64decode(v, validate=True)
    except (binascii.Error, ValueError):
        return None
    return v


_CHECKS: dict[str, Callable[[Any], Any]] = {
    "recent_files": _recent,
    "palette": lambda v: v if v in PALETTES else None,
    "dice_mode": lambda v: v if v in DICE_MODES else None,
    "autosave_keep": lambda v: v if _is_int(v) and 1 <= v <= MAX_AUTOSAVE_KEEP else None,
    "zoom_preset": lambda v: v if _is_int(v) and v > 0 else None,
    "window_geometry": _base64,
    "show_grid": lambda v: v if isinstance(v, bool) else None,
    "show_labels": lambda v: v if isinstance(v, bool) else None,
    "last_game": lambda v: v if isinstance(v, str) else None,
    "player_names": lambda v: tuple(v) if isinstance(v, list) and len(v) <= MAX_PLAYERS
    and all(isinstance(x, str) and 0 < len(x) <= MAX_NAME for x in v) else None,
}


def settings_from_dict(d: dict[str, Any]) -> tuple[Settings, list[str]]:
    """Settings from a parsed file, and the names of fields that were invalid (defaulted)."""
    values: dict[str, Any] = {}
    bad: list[str] = []
    for f in fields(Settings):
        if f.name not in d:
            continue
        ok = _CHECKS[f.name](d[f.name])
        if ok is None:
            bad.append(f.name)
        else:
            values[f.name] = ok
    return Settings(**values), bad


def settings_to_dict(s: Settings) -> dict[str, Any]:
    d = asdict(s)
    d["recent_files"] = list(s.recent_files)
    return d


def _read(path: Path) -> tuple[dict[str, Any] | None, str | None]:
    """The file's JSON object (None when absent or unusable) and what is wrong with it."""
    try:  # bounded: a FIFO or /dev/zero here once hung the app (issue 15)
        d = boundedread.read_json(path, _LIMITS, "the defaults are used")
    except FileNotFoundError:
        return None, None
    except boundedread.InputFileError as e:
        if "more than" in e.problem and "MB" in e.problem:
            return None, "is too large to be a settings file"
        if "UTF-8" in e.problem or "binary" in e.problem:
            return None, f"is not UTF-8 text ({e.problem})"
        if "not valid JSON" in e.problem:
            return None, f"is not valid JSON ({e.problem[:100]})"
        return None, f"cannot be used: {e.problem}"
    if not isinstance(d, dict):
        return None, "does not hold a JSON object"
    return d, None


def load_settings() -> tuple[Settings, str | None]:
    """The saved settings and a warning to show (None when all is well). Never raises."""
    try:
        path = settings_path()
    except OSError as e:  # e.g. a read-only home folder
        return DEFAULTS, f"Settings folder unavailable ({e.strerror or e}); using defaults."
    d, problem = _read(path)
    if problem is not None:
        return DEFAULTS, (f"{path} {problem}; using default settings. The file is kept as "
                          f"{SETTINGS_NAME}{BAD_SUFFIX} when settings are next saved.")
    if d is None:
        return DEFAULTS, None
    s, bad = settings_from_dict(d)
    if bad:
        return s, (f"{path}: invalid {', '.join(bad)}; using the defaults for "
                   f"{'it' if len(bad) == 1 else 'them'}. The file is kept as "
                   f"{SETTINGS_NAME}{BAD_SUFFIX} when settings are next saved.")
    return s, None


def save_settings(s: Settings) -> Path:
    """Write settings atomically, keeping a damaged previous file as settings.json.bad."""
    try:
        path = settings_path()
        old, problem = _read(path)
        extra: dict[str, Any] = {}
        if old is not None:
            _, bad = settings_from_dict(old)
            if bad:
                problem = "has invalid fields"
            known = {f.name for f in fields(Settings)}
            extra = {k: v for k, v in old.items() if k not in known}  # a newer app's keys
        if problem is not None and path.is_file():  # moved, not read: it may be huge
            os.replace(path, path.with_name(SETTINGS_NAME + BAD_SUFFIX))
        doc = {**extra, **settings_to_dict(s)}
        text = json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
        write_atomic(path, text.encode("utf-8"))
    except OSError as e:
        raise WartableError(f"Cannot save settings: {e.strerror or e}; check that the "
                            "settings folder is writable.") from e
    return path


# --- recent files ------------------------------------------------------------------------

def _norm(path: str | os.PathLike[str]) -> str:
    return os.path.abspath(os.path.expanduser(os.fspath(path)))


def _push_recent(recent: tuple[str, ...], path: str) -> tuple[str, ...]:
    key = os.path.normcase(path)  # one entry per file on case-insensitive Windows
    rest = tuple(p for p in recent if os.path.normcase(p) != key)
    return ((path,) + rest)[:MAX_RECENT]


def add_recent(s: Settings, path: str | os.PathLike[str]) -> Settings:
    """Put `path` first in the recent list (absolute, no duplicates, at most 10)."""
    return replace(s, recent_files=_push_recent(s.recent_files, _norm(path)))


def remove_recent(s: Settings, path: str | os.PathLike[str]) -> Settings:
    """Drop `path` from the recent list (a file that no longer opens)."""
    key = os.path.normcase(_norm(path))
    return replace(s, recent_files=tuple(p for p in s.recent_files
                                         if os.path.normcase(p) != key))
