"""Autosaves (rotated, in autosave_dir) and the crash marker that offers them after a crash.

File names: ``autosave-<game>-<YYYYMMDDTHHMMSSZ>-<serial>.wartable.json.gz`` where the time is
the caller's saved_at in UTC and serial is the state's action count (zero-padded), so names
sort by age and say which game and how far it got. Rotation only touches names of that shape.

Crash marker: ``data_dir()/session.lock`` holds the pid of the running app. Start-up order:
``crashed_last_time()`` (offer the autosave it returns), then ``mark_running()``; on a clean
exit ``mark_clean_exit()``. A lock whose pid is alive and not ours is another Wartable
running, not a crash.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
from datetime import UTC, datetime
from pathlib import Path

from wartable.core.errors import SaveFileError
from wartable.engine.session import Session
from wartable.persistence.locations import autosave_dir, data_dir
from wartable.persistence.savefile import (
    SAVE_SUFFIX_GZ,
    dump_save,
    remove_stale_temps,
    write_atomic,
)

LOCK_NAME = "session.lock"
DEFAULT_KEEP = 10
STALE_TEMP_SECONDS = 60.0
_NAME_RE = re.compile(
    r"^autosave-(?P<game>[A-Za-z0-9_]+)-(?P<ts>\d{8}T\d{6}Z)-(?P<serial>\d+)"
    + re.escape(SAVE_SUFFIX_GZ) + "$"
)


def _utc_stamp(saved_at: datetime | str) -> str:
    dt = datetime.fromisoformat(saved_at) if isinstance(saved_at, str) else saved_at
    # One zone for every name so they sort by age; a naive time is taken as local time.
    return dt.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def autosave_name(game_id: str, saved_at: datetime | str, serial: int) -> str:
    safe = re.sub(r"[^A-Za-z0-9_]", "_", game_id) or "game"
    return f"autosave-{safe}-{_utc_stamp(saved_at)}-{serial:06d}{SAVE_SUFFIX_GZ}"


def _sort_key(path: Path) -> tuple[str, int, int, str]:
    m = _NAME_RE.match(path.name)
    assert m is not None
    try:
        mtime = path.stat().st_mtime_ns  # breaks ties within one second
    except OSError:
        mtime = 0
    return m["ts"], int(m["serial"]), mtime, path.name


def list_autosaves() -> list[Path]:
    """Every autosave, newest first."""
    found = [p for p in autosave_dir().iterdir() if _NAME_RE.match(p.name) and p.is_file()]
    return sorted(found, key=_sort_key, reverse=True)


def latest_autosave() -> Path | None:
    saves = list_autosaves()
    return saves[0] if saves else None


def rotate(keep: int = DEFAULT_KEEP) -> list[Path]:
    """Delete all but the newest `keep` autosaves; returns what was deleted."""
    removed = []
    for p in list_autosaves()[max(keep, 1):]:
        with contextlib.suppress(OSError):  # a file held open elsewhere goes next time
            p.unlink()
            removed.append(p)
    return removed


def autosave(session: Session, saved_at: datetime | str, keep: int = DEFAULT_KEEP) -> Path:
    """Write an autosave atomically and rotate; SaveFileError when the disk refuses."""
    if keep < 1:
        raise ValueError(f"keep must be at least 1, not {keep}")
    path = autosave_dir() / autosave_name(session.game.definition.id, saved_at,
                                          session.state.serial)
    data = dump_save(session, saved_at, gz=True)
    try:
        write_atomic(path, data)
    except OSError as e:
        raise SaveFileError(f"Autosave failed: {e.strerror or e}; free some disk space. "
                            "The game is still open.") from e
    rotate(keep)
    # Another Wartable may be writing one right now: only those a minute old are stale.
    remove_stale_temps(autosave_dir(), None, older_than=STALE_TEMP_SECONDS)
    return path


# --- crash marker -------------------------------------------------------------------------

def lock_path() -> Path:
    return data_dir() / LOCK_NAME


def _read_pid(lock: Path) -> int | None:
    """The pid in the lock, or None when it is missing, unreadable or garbage."""
    try:
        with open(lock, "rb") as f:
            return int(f.read(64).decode("ascii").strip())
    except (OSError, ValueError):  # UnicodeDecodeError is a ValueError
        return None


def pid_alive(pid: int) -> bool:
    """Whether a process with this pid exists now (a reused pid counts as alive)."""
    if pid <= 0:
        return False  # os.kill(0, ...) would address our own process group
    if sys.platform == "win32":
        return _win_pid_alive(pid)
    try:
        os.kill(pid, 0)  # signal 0: existence and permission check only
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # exists, owned by someone else
    except OSError:
        return False
    return True


if sys.platform == "win32":
    import ctypes
    from ctypes import wintypes

    def _win_pid_alive(pid: int) -> bool:
        # os.kill(pid, 0) on Windows would terminate the process: ask the kernel instead.
        kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
        handle = kernel32.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
        if not handle:
            return ctypes.get_last_error() == 5  # ERROR_ACCESS_DENIED: it exists
        try:
            code = wintypes.DWORD()
            if not kernel32.GetExitCodeProcess(handle, ctypes.byref(code)):
                return True
            return bool(code.value == 259)  # STILL_ACTIVE
        finally:
            kernel32.CloseHandle(handle)
else:
    def _win_pid_alive(pid: int) -> bool:
        raise NotImplementedError


def _held_by_other(pid: int | None) -> bool:
    return pid is not None and pid != os.getpid() and pid_alive(pid)


def mark_running() -> bool:
    """Write our pid to the lock; False (lock left alone) when another live Wartable holds it."""
    lock = lock_path()
    if _held_by_other(_read_pid(lock)):
        return False
    write_atomic(lock, f"{os.getpid()}\n".encode("ascii"))
    remove_stale_temps(autosave_dir())  # ours alone now: what killed saves left (issue 15)
    return True


def mark_clean_exit() -> None:
    """Remove the lock unless another live Wartable holds it."""
    lock = lock_path()
    if _held_by_other(_read_pid(lock)):
        return
    with contextlib.suppress(FileNotFoundError):
        lock.unlink()


def crashed_last_time() -> Path | None:
    """The latest autosave when the previous run did not exit cleanly, else None."""
    lock = lock_path()
    if not lock.exists():
        return None
    pid = _read_pid(lock)
    if pid is not None and (pid == os.getpid() or pid_alive(pid)):
        return None  # we hold it, or another instance is running
    return latest_autosave()
