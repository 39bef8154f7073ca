"""Autosave rotation and the crash marker."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from savetest_helpers import new_session, played_session

from wartable.persistence import autosave as au
from wartable.persistence import savefile
from wartable.persistence.locations import autosave_dir, data_dir

T0 = datetime(2024, 5, 1, 12, 0, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("WARTABLE_HOME", str(tmp_path))
    return tmp_path


def _dead_pid() -> int:
    """The pid of a process that has exited and been reaped."""
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def test_autosave_name_and_contents() -> None:
    s = played_session()
    path = au.autosave(s, T0)
    assert path.parent == autosave_dir()
    assert path.name == f"autosave-skirmish-20240501T120000Z-{s.state.serial:06d}.wartable.json.gz"
    assert path.read_bytes()[:2] == savefile.GZIP_MAGIC
    assert savefile.load_from_path(path).state == s.state


def test_naive_and_text_times_are_accepted() -> None:
    assert au.autosave_name("skirmish", "2024-05-01T12:00:00+00:00", 3) == \
        "autosave-skirmish-20240501T120000Z-000003.wartable.json.gz"
    assert au.autosave_name("a b/c", T0, 1).startswith("autosave-a_b_c-")


def test_rotation_keeps_exactly_the_newest() -> None:
    s = new_session()
    written = [au.autosave(s, T0 + timedelta(minutes=i), keep=3) for i in range(7)]
    left = au.list_autosaves()
    assert left == list(reversed(written[-3:]))
    assert au.latest_autosave() == written[-1]
    (autosave_dir() / "notes.txt").write_text("mine")  # not ours: rotation leaves it
    au.autosave(s, T0 + timedelta(minutes=10), keep=2)
    assert len(au.list_autosaves()) == 2
    assert (autosave_dir() / "notes.txt").exists()


def test_rotation_orders_by_time_then_serial() -> None:
    s0, s1 = new_session(), played_session()
    a = au.autosave(s1, T0, keep=10)
    b = au.autosave(s0, T0 + timedelta(seconds=1), keep=10)  # a new game: later, lower serial
    c = au.autosave(s1, T0 + timedelta(seconds=1), keep=10)
    assert au.list_autosaves() == [c, b, a]


def test_keep_must_be_positive() -> None:
    with pytest.raises(ValueError):
        au.autosave(new_session(), T0, keep=0)


def test_no_autosave_yet() -> None:
    assert au.latest_autosave() is None


def test_clean_run_is_not_a_crash() -> None:
    assert au.crashed_last_time() is None
    au.autosave(new_session(), T0)
    assert au.mark_running()
    assert au.lock_path().read_text().strip() == str(os.getpid())
    assert au.crashed_last_time() is None  # our own lock
    au.mark_clean_exit()
    assert not au.lock_path().exists()
    assert au.crashed_last_time() is None
    au.mark_clean_exit()  # twice is harmless


def test_stale_lock_means_a_crash() -> None:
    path = au.autosave(new_session(), T0)
    au.lock_path().write_text(f"{_dead_pid()}\n")
    assert au.crashed_last_time() == path
    assert au.mark_running()  # we take over the stale lock
    assert au.crashed_last_time() is None


def test_garbage_lock_means_a_crash() -> None:
    path = au.autosave(new_session(), T0)
    au.lock_path().write_bytes(b"\xff\x00 not a pid")
    assert au.crashed_last_time() == path


def test_crash_without_autosave_offers_nothing() -> None:
    au.lock_path().write_text(f"{_dead_pid()}\n")
    assert au.crashed_last_time() is None


def test_another_running_instance_is_not_a_crash() -> None:
    au.autosave(new_session(), T0)
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        au.lock_path().write_text(f"{other.pid}\n")
        assert au.crashed_last_time() is None
        assert not au.mark_running()  # its lock stays
        au.mark_clean_exit()
        assert au.lock_path().read_text().strip() == str(other.pid)
    finally:
        other.kill()
        other.wait()


def test_pid_alive() -> None:
    assert au.pid_alive(os.getpid())
    assert not au.pid_alive(_dead_pid())
    assert not au.pid_alive(0) and not au.pid_alive(-1)


def test_lock_lives_in_the_data_dir(home: Path) -> None:
    assert au.lock_path() == data_dir() / "session.lock"
    assert data_dir() == home / "data"
