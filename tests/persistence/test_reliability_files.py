"""Issue 15: every file the app reads goes through one bounded reader; each finding of the
reliability probe about files, reproduced. Hang cases run in a thread with a deadline so a
regression fails instead of hanging the suite."""

from __future__ import annotations

import gzip
import json
import os
import threading
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from savetest_helpers import base_doc, encode, expect_error, played_session

from wartable.core.errors import DataError, SaveFileError
from wartable.persistence import (
    autosave,
    boundedread,
    gamedata,
    savefile,
    scramble,
    tables,
    underlays,
)
from wartable.persistence import settings as st
from wartable.persistence.boundedread import InputFileError, Limits

SAVED_AT = "2026-01-01T00:00:00+00:00"


def reliability_deep(n: int) -> Any:
    v: Any = 1
    for _ in range(n):
        v = [v]
    return v


def within(seconds: float, fn: Callable[[], Any]) -> Any:
    """fn() or its exception, failing the test if it takes longer than `seconds`."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = fn()
        except BaseException as e:  # noqa: BLE001 - handed back to the test
            box["error"] = e

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), f"still running after {seconds} s (it hangs)"
    if "error" in box:
        raise box["error"]
    return box.get("value")


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    p = tmp_path / "pipe"
    os.mkfifo(p)
    return p


# --- the reader itself ------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["fifo", "dev_zero", "folder"])
def test_issue15_reader_refuses_special_files_at_once(kind: str, fifo: Path,
                                                      tmp_path: Path) -> None:
    path = {"fifo": fifo, "dev_zero": Path("/dev/zero"), "folder": tmp_path}[kind]
    with pytest.raises(InputFileError, match="not a regular file") as err:
        within(5, lambda: boundedread.read_bytes(path, Limits(1 << 20), "choose a file"))
    assert str(err.value).startswith(f"{path}: ") and "\n" not in str(err.value)
    assert str(err.value).endswith("; choose a file.")


def test_issue15_reader_caps_size_unpacked_size_nesting_values_and_digits(
        tmp_path: Path) -> None:
    p = tmp_path / "f.json"
    lim = Limits(1000, max_unpacked=5000, max_nodes=100, max_depth=5, max_digits=10)
    p.write_bytes(b" " * 1001)
    with pytest.raises(InputFileError, match="more than the 1000 B|more than the 1 KB"):
        boundedread.read_bytes(p, lim, "x")
    p.write_bytes(gzip.compress(b"0" * 6000))
    with pytest.raises(InputFileError, match="unpacks to more than"):
        boundedread.read_bytes(p, lim, "x")
    p.write_bytes(b"[[[[[[1]]]]]]")
    with pytest.raises(InputFileError, match="nested more than 5 levels"):
        boundedread.read_json(p, lim, "x")
    p.write_bytes(b"[" + b"1," * 300 + b"1]")
    with pytest.raises(InputFileError, match="more than 100 values"):
        boundedread.read_json(p, lim, "x")
    p.write_bytes(b"[12345678901]")
    with pytest.raises(InputFileError, match="11 digits"):
        boundedread.read_json(p, lim, "x")
    p.write_bytes(b'["[[[[[[[[["]')  # brackets inside a string are text, not nesting
    assert boundedread.read_json(p, lim, "x") == ["[[[[[[[[["]


@pytest.mark.parametrize(("data", "fragment"), [
    ("é".encode("utf-16"), "UTF-16"), (b"\x00\x00\xff\x01", "binary data"),
    (b"caf\xe9", "not UTF-8"), (gzip.compress(b"x"), "gzip-compressed"),
])
def test_issue15_reader_names_the_encoding(tmp_path: Path, data: bytes, fragment: str) -> None:
    p = tmp_path / "t.toml"
    p.write_bytes(data)
    with pytest.raises(InputFileError, match=fragment):
        boundedread.read_toml(p, Limits(1 << 20), "fix it")


# --- finding 3: unbounded memory and time opening a save ------------------------------------

def test_issue15_finding3_format_version_minus_2_to_63_is_refused_at_once() -> None:
    doc = base_doc()
    doc["format_version"] = -(2**63)
    t = time.perf_counter()
    msg = within(10, lambda: expect_error(encode(doc), "save format -9223372036854775808"))
    assert time.perf_counter() - t < 2, msg


def test_issue15_finding3_a_small_gzip_save_cannot_take_gigabytes() -> None:
    bomb = gzip.compress(b"[" + b"0," * 30_000_000 + b"0]", 9)  # 60 MB of JSON
    assert len(bomb) < 300_000
    tracemalloc.start()
    try:
        with pytest.raises(SaveFileError, match="more than 4,000,000 values"):
            savefile.load_save(bomb, "bomb.wartable.json")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 400 * 1024 * 1024, f"peak {peak / 2**20:.0f} MB"  # was 6.7 GB


@pytest.mark.parametrize(("value", "fragment"), [
    (list(range(200_000)), "more than 10,000 values"),
    (reliability_deep(20), "nest more than 16"),
])
def test_issue15_finding3_huge_action_arguments_are_refused_quickly(
        value: Any, fragment: str) -> None:
    doc = base_doc()
    doc["actions"][0]["args"]["piece"] = value
    data = encode(doc)
    t = time.process_time()  # CPU time: the shared test machine's load does not count
    expect_error(data, "action 1 of", "is malformed", fragment)
    assert time.process_time() - t < 4  # was up to 20 s


def test_issue15_finding3_deep_nesting_in_a_save_is_one_line() -> None:
    data = b'{"format": "wartable-save", "state": ' + b"[" * 900 + b"]" * 900 + b"}"
    expect_error(data, "nested more than 100 levels")


def test_issue15_finding6_a_5000_digit_number_in_a_save_is_one_line() -> None:
    data = b'{"format": "wartable-save", "format_version": ' + b"9" * 5000 + b"}"
    expect_error(data, "5,000 digits")


def test_issue15_finding4_a_fifo_save_is_refused_at_once(fifo: Path) -> None:
    with pytest.raises(SaveFileError, match="not a regular file"):
        within(5, lambda: savefile.load_from_path(fifo))


# --- finding 4: settings, underlays as special files ---------------------------------------

@pytest.mark.parametrize("kind", ["fifo", "dev_zero", "folder"])
def test_issue15_finding4_special_settings_file_gives_defaults_without_hanging(
        kind: str) -> None:
    path = st.settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev_zero":
        path.symlink_to("/dev/zero")
    else:
        path.mkdir()
    s, warning = within(5, st.load_settings)
    assert s == st.Settings()
    assert warning is not None and "not a regular file" in warning and "default" in warning


def test_issue15_finding1_a_failing_settings_write_is_a_wartable_error() -> None:
    path = st.settings_path()
    path.mkdir(parents=True)  # the settings file turned into a folder
    (path / "x").write_text("in the way")
    with pytest.raises(st.WartableError, match="Cannot save settings"):
        st.save_settings(st.Settings())


def test_issue15_finding4_a_fifo_underlay_is_refused_at_once() -> None:
    path = underlays.underlay_path("skirmish/field")
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    with pytest.raises(underlays.UnderlayError, match="not a regular file"):
        within(5, lambda: underlays.load_underlay("skirmish/field"))


# --- finding 6: overrides and game data ---------------------------------------------------

def test_issue15_finding6_a_damaged_map_corrections_file_is_set_aside_not_fatal() -> None:
    game = gamedata.load_game("skirmish")
    board = next(iter(game.maps.values()))
    path = gamedata.user_corrections_path(board.id)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\xff\xfe not json at all")
    gamedata.forget("skirmish")
    try:
        again = gamedata.load_game("skirmish")  # no "reinstall Wartable": the game opens
    finally:
        gamedata.forget("skirmish")
    assert again.maps[board.id].location_ids() == board.location_ids()
    assert not path.exists()
    assert path.with_name(path.name + ".bad").read_bytes() == b"\xff\xfe not json at all"
    (notice,) = gamedata.take_notices()
    assert "were not used" in notice and ".bad" in notice and "without them" in notice
    assert gamedata.take_notices() == []  # told once


@pytest.mark.parametrize(("data", "fragment", "moved"), [
    (b"[tables]\nx = " + b"[" * 500 + b"]" * 500, "nested more than", True),
    ("[tables]".encode("utf-16"), "UTF-16", True),
    (b"\x00\x01binary", "binary data", True),
    (b"[tables]\nx = " + b"9" * 5000, "impossible value", False),  # an editor mends it
])
def test_issue15_finding6_a_damaged_table_overrides_file_is_one_line(
        data: bytes, fragment: str, moved: bool) -> None:
    path = tables.overrides_path("whatif1940")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    mine = tables.player_tables("whatif1940")
    assert mine.problem is not None and fragment in mine.problem, mine.problem
    assert "\n" not in mine.problem and "shipped values" in mine.problem
    bad = path.with_name(path.name + ".bad")
    if moved:  # the player's own damaged file: moved aside, said so, defaults used
        assert f"it was moved to {bad}" in mine.problem
        assert bad.read_bytes() == data and not path.exists()
    else:
        assert path.read_bytes() == data and not bad.exists()


def test_issue15_finding6_a_fifo_table_overrides_file_does_not_hang() -> None:
    path = tables.overrides_path("whatif1940")
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    mine = within(10, lambda: tables.player_tables("whatif1940"))
    assert mine.problem is not None and "not a regular file" in mine.problem


@pytest.mark.parametrize(("text", "fragment"), [
    ("x = " + "[" * 800 + "]" * 800, "nested more than"),
    ("x = " + "9" * 5000, "impossible value"),
    ("x = 1." + "5" * 200, "digits"),
])
def test_issue15_finding6_bad_game_data_toml_is_a_data_error(text: str, fragment: str) -> None:
    with pytest.raises(DataError, match=fragment) as err:
        gamedata.merge_data_files([("pkg/units.toml", text)])
    assert str(err.value).startswith("pkg/units.toml: ") and "\n" not in str(err.value)


def test_issue15_finding6_non_utf8_game_data_is_a_data_error(tmp_path: Path) -> None:
    p = tmp_path / "units.toml"
    p.write_bytes("x = 1".encode("utf-16"))
    with pytest.raises(DataError, match="UTF-16"):
        gamedata._data_text(p, "pkg/units.toml")


# --- finding 7: temp files, read-only and special save targets ------------------------------

def test_issue15_finding7_stale_temp_files_go_on_the_next_save(tmp_path: Path) -> None:
    target = tmp_path / "g.wartable.json"
    stale = [tmp_path / f".g.wartable.json.{n:012x}.tmp" for n in (1, 2)]
    other = tmp_path / ".other.wartable.json.000000000003.tmp"  # another file's: kept
    for p in (*stale, other):
        p.write_bytes(b"half a save")
    savefile.save_to_path(played_session(), target, SAVED_AT)
    assert not any(p.exists() for p in stale) and other.exists()
    assert savefile.load_from_path(target).state == played_session().state


def test_issue15_finding7_stale_autosave_temps_go_at_start() -> None:
    folder = autosave.autosave_dir()
    folder.mkdir(parents=True, exist_ok=True)
    stale = folder / ".skirmish-x.wartable.json.gz.0123456789ab.tmp"
    stale.write_bytes(b"half")
    assert autosave.mark_running()
    assert not stale.exists()
    autosave.mark_clean_exit()


def test_issue15_finding7_a_read_only_save_is_refused_not_overwritten(tmp_path: Path) -> None:
    target = tmp_path / "ro.wartable.json"
    target.write_bytes(b"the player's own file")
    os.chmod(target, 0o444)
    with pytest.raises(SaveFileError, match="the file is read-only; save under another name"):
        savefile.save_to_path(played_session(), target, SAVED_AT)
    assert target.read_bytes() == b"the player's own file"


def test_issue15_finding7_a_fifo_save_target_is_not_replaced(fifo: Path) -> None:
    with pytest.raises(SaveFileError, match="not a regular file"):
        savefile.save_to_path(played_session(), fifo, SAVED_AT)
    assert fifo.exists() and not fifo.is_file()


# --- finding 5: secrets in saves --------------------------------------------------------------

def test_issue15_finding5_a_save_keeps_untried_fronts_scrambled_and_loads() -> None:
    from wartable.engine.session import Session
    from wartable.games.whatif1940 import hidden

    g = gamedata.load_game("whatif1940")
    s = Session.start(g, sorted(g.definition.scenarios)[0], seed=1)
    fronts = hidden.secrets(s.state)
    assert fronts  # the Soviet fronts start untried [2.12]
    data = savefile.dump_save(s, SAVED_AT)
    text = data.decode("utf-8")
    for front in fronts.values():
        assert json.dumps(front["name"]) not in text
    doc = json.loads(text)
    assert doc[scramble.NOTE_KEY] == scramble.SECRETS_NOTE
    assert "peeking, not against cheating" in doc[scramble.NOTE_KEY]
    loaded = savefile.load_save(data, "w40.wartable.json")
    assert loaded.state == s.state and hidden.secrets(loaded.state) == fronts
    # A damaged scrambled value is a damaged file, in one line.
    (key,) = [k for k, v in doc["state"]["vars"].items() if scramble.is_scrambled(v)]
    doc["state"]["vars"][key] = {scramble.MARK: "not base64!"}
    expect_error(encode(doc), "a scrambled value is damaged")


def test_issue15_finding5_a_game_without_secrets_saves_in_plain_text() -> None:
    doc = savefile.session_to_save(played_session(), SAVED_AT)
    assert scramble.NOTE_KEY not in doc
    assert not any(scramble.is_scrambled(v) for v in doc["state"]["vars"].values())
