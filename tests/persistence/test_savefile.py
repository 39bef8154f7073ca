"""Save files: round trips, every bad-file case, migrations, atomic writes."""

from __future__ import annotations

import gzip
import json
import os
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from savetest_helpers import (
    SAVED_AT,
    base_doc,
    base_save,
    encode,
    expect_error,
    load_bytes,
    new_session,
    play_random,
    played_session,
)

from wartable import __version__
from wartable.core.errors import SaveFileError
from wartable.engine.actions import END_STEP
from wartable.model.serialize import state_hash
from wartable.persistence import savefile


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WARTABLE_HOME", str(tmp_path / "home"))


# --- round trips --------------------------------------------------------------------------

def test_the_played_game_is_real() -> None:
    s = played_session()
    assert len(s.log) >= 45
    assert any(a.verb == END_STEP for a in s.log)
    assert any(a.verb == "move" for a in s.log)
    assert any(a.verb == "attack" for a in s.log)  # dice were rolled: the rng is saved too
    assert s.state.turn > 1 or s.state.step_index > 0


@pytest.mark.parametrize("gz", [False, True])
def test_round_trip(gz: bool) -> None:
    s = played_session()
    data = savefile.dump_save(s, SAVED_AT, gz=gz)
    assert (data[:2] == savefile.GZIP_MAGIC) == gz
    loaded = savefile.load_save(data, "x")
    assert state_hash(loaded.state) == state_hash(s.state)
    assert loaded.state == s.state
    assert loaded.log == s.log
    assert len(loaded.events) == len(s.events)
    assert loaded.events == s.events
    assert (loaded.scenario, loaded.seed, loaded.dice_mode) == (s.scenario, s.seed, s.dice_mode)
    assert loaded.options == s.options


def test_round_trip_physical_dice_and_text_seed() -> None:
    import random

    s = play_random(new_session("ford", "physical"), 60, random.Random(3))
    loaded = savefile.load_save(savefile.dump_save(s, SAVED_AT), "x")
    assert loaded.state == s.state and loaded.log == s.log and loaded.seed == "ford"


def test_round_trip_of_a_fresh_game() -> None:
    s = new_session()
    loaded = savefile.load_save(savefile.dump_save(s, SAVED_AT), "x")
    assert loaded.state == s.state and loaded.log == ()


def test_document_layout_is_readable_and_deterministic() -> None:
    s = played_session()
    doc = savefile.session_to_save(s, SAVED_AT, title="Ford", note="turn 2")
    assert doc["format"] == "wartable-save"
    assert doc["format_version"] == savefile.FORMAT_VERSION == 1
    assert doc["app_version"] == __version__
    assert doc["game_id"] == "skirmish"
    assert doc["data_version"] == s.game.definition.data_version
    assert doc["saved_at"] == SAVED_AT
    assert doc["state_hash"] == state_hash(s.state)
    assert len(doc["actions"]) == len(s.log)
    assert (doc["title"], doc["note"]) == ("Ford", "turn 2")
    text = savefile.dump_save(s, SAVED_AT).decode("utf-8")
    assert text.startswith('{\n "actions": [')  # indent 1, sorted keys
    assert json.loads(text) == json.loads(savefile.dump_save(s, SAVED_AT))
    assert savefile.dump_save(s, SAVED_AT, gz=True) == savefile.dump_save(s, SAVED_AT, gz=True)
    assert gzip.decompress(savefile.dump_save(s, SAVED_AT, gz=True)).decode() == text
    assert "title" not in savefile.session_to_save(s, SAVED_AT)


def test_saved_at_accepts_datetime_and_rejects_garbage() -> None:
    from datetime import UTC, datetime

    doc = savefile.session_to_save(new_session(), datetime(2024, 5, 1, 12, 0, tzinfo=UTC))
    assert doc["saved_at"] == "2024-05-01T12:00:00+00:00"
    with pytest.raises(ValueError):
        savefile.session_to_save(new_session(), "yesterday")


def test_header_without_replay() -> None:
    h = savefile.read_save_header(savefile.dump_save(played_session(), SAVED_AT, title="T"), "x")
    assert (h.game_id, h.format_version, h.title, h.note) == ("skirmish", 1, "T", None)
    assert h.actions == len(played_session().log)
    assert h.turn == played_session().state.turn


def test_a_bom_from_a_hand_edit_is_harmless() -> None:
    assert load_bytes(b"\xef\xbb\xbf" + base_save()).state == played_session().state


# --- bad files: each on disk, each message checked, each file left as it was ---------------

def _mutated(change: Callable[[dict[str, Any]], Any]) -> bytes:
    doc = base_doc()
    change(doc)
    return encode(doc)


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], Any]:
    return lambda d: d.__setitem__(key, value)


def _half(data: bytes) -> bytes:
    return data[: len(data) // 2]


def _damaged_gzip() -> bytes:
    data = bytearray(base_save(gz=True))
    for i in range(40, 60):
        data[i] ^= 0x5A
    return bytes(data)


def _first_move(doc: dict[str, Any]) -> int:
    return next(i for i, a in enumerate(doc["actions"]) if a["verb"] == "move")


def _illegal_move(doc: dict[str, Any]) -> None:
    doc["actions"][_first_move(doc)]["args"]["to"] = "9999"


def _illegal_fragment() -> str:
    doc = base_doc()
    return f"action {_first_move(doc) + 1} of {len(doc['actions'])} (move) is illegal: "


def _move_a_piece(doc: dict[str, Any]) -> None:
    doc["state"]["pieces"][0]["location"] = "0101"


TAMPERED = ("the file was changed by hand or by another version: the replayed game does not "
            "match its saved position")

BAD_FILES: list[tuple[str, Callable[[], bytes], tuple[str, ...]]] = [
    ("empty", lambda: b"", ("the file is empty",)),
    ("blank", lambda: b" \n\t\n", ("the file is empty",)),
    ("binary", lambda: b"\x89PNG\r\n\x1a\n\x00\xff\xfe\x00" * 10,
     ("not a Wartable save", "neither gzip nor UTF-8")),
    ("prose", lambda: b"Dear diary, today I won at the ford.",
     ("not a Wartable save", "does not hold JSON")),
    ("latin-1", lambda: base_save().replace(b'"skirmish"', b'"skirmish\xe9"', 1),
     ("not UTF-8",)),
    ("truncated json", lambda: _half(base_save()), ("truncated", "autosave")),
    ("truncated gzip", lambda: _half(base_save(gz=True)), ("compressed file is truncated",)),
    ("damaged gzip", _damaged_gzip, ("compressed data is damaged",)),
    ("broken json", lambda: base_save().replace(b",", b";", 3),
     ("the JSON is broken at line",)),
    ("json list", lambda: b"[1, 2, 3]", ("not a Wartable save", "a list")),
    ("no format tag", lambda: _mutated(lambda d: d.pop("format")), ("no 'format' tag",)),
    ("wrong format tag", lambda: _mutated(_set("format", "vassal-save")),
     ("not a Wartable save file", "'vassal-save'")),
    ("newer format", lambda: _mutated(_set("format_version", 7)),
     ("made by a newer Wartable (format 7); update Wartable to open it",)),
    ("format as text", lambda: _mutated(_set("format_version", "1")),
     ("'format_version' should be a whole number, not text",)),
    ("old format without migration", lambda: _mutated(_set("format_version", 0)),
     ("save format 0", "can no longer read")),
    ("seed mistyped", lambda: _mutated(_set("seed", [7])),
     ("the field 'seed' should be a whole number or text, not a list",)),
    ("seed boolean", lambda: _mutated(_set("seed", True)), ("'seed'", "true/false")),
    ("actions mistyped", lambda: _mutated(_set("actions", {"0": 1})),
     ("the field 'actions' should be a list, not an object",)),
    ("title mistyped", lambda: _mutated(_set("title", 5)), ("the field 'title' should be text",)),
    ("dice mode", lambda: _mutated(_set("dice_mode", "loaded")), ("'dice_mode' is 'loaded'",)),
    ("unknown game", lambda: _mutated(_set("game_id", "chess")),
     ("this save is for game 'chess', which is not installed",)),
    ("data version", lambda: _mutated(_set("data_version", "0.9")),
     ("version '0.9' of the data", "no upgrade", __version__)),
    ("unknown scenario", lambda: _mutated(_set("scenario", "waterloo")),
     ("could not be set up", "waterloo")),
    ("malformed action", lambda: _mutated(lambda d: d["actions"].__setitem__(2, "move")),
     ("action 3 of", "is malformed")),
    ("illegal action", lambda: _mutated(_illegal_move), ("is illegal: ",)),
    ("hash edited", lambda: _mutated(_set("state_hash", "0" * 64)), (TAMPERED,)),
    ("state edited", lambda: _mutated(_move_a_piece), (TAMPERED,)),
    ("action removed", lambda: _mutated(lambda d: d["actions"].pop()), (TAMPERED,)),
    ("seed edited", lambda: _mutated(_set("seed", 8)), ()),  # illegal or tampered: both fine
]


@pytest.mark.parametrize(("make", "fragments"), [(m, f) for _, m, f in BAD_FILES],
                         ids=[n for n, _, _ in BAD_FILES])
def test_bad_file_is_rejected_clearly_and_left_alone(
        tmp_path: Path, make: Callable[[], bytes], fragments: tuple[str, ...]) -> None:
    path = tmp_path / "bad.wartable.json"
    path.write_bytes(make())
    os.utime(path, ns=(1_000_000_000, 1_000_000_000))
    before = path.read_bytes()
    with pytest.raises(SaveFileError) as err:
        savefile.load_from_path(path)
    msg = str(err.value)
    assert "\n" not in msg
    assert msg.startswith("Cannot open bad.wartable.json: ")
    for f in fragments:
        assert f in msg
    assert path.read_bytes() == before
    assert path.stat().st_mtime_ns == 1_000_000_000
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.wartable.json"]


def test_illegal_action_message_names_the_action() -> None:
    expect_error(_mutated(_illegal_move), _illegal_fragment(), "[S4]")


@pytest.mark.parametrize("key", [k for k, _, _ in savefile._REQUIRED])
def test_every_missing_field_is_named(key: str) -> None:
    expect_error(_mutated(lambda d: d.pop(key)), f"the field '{key}' is missing")


def test_too_large_raw(tmp_path: Path) -> None:
    expect_error(b" " * (savefile.MAX_FILE_BYTES + 1), "more than the 64 MB")
    path = tmp_path / "huge.wartable.json"
    with open(path, "wb") as f:
        f.truncate(savefile.MAX_FILE_BYTES + 1)  # sparse: refused by size before reading
    with pytest.raises(SaveFileError, match="more than the 64 MB"):
        savefile.load_from_path(path)


def _bomb(mib: int) -> bytes:
    c = zlib.compressobj(9, zlib.DEFLATED, 31)  # wbits 31: a gzip stream
    zeros = b"\0" * (1 << 20)
    return b"".join([c.compress(zeros) for _ in range(mib)] + [c.flush()])


def test_gzip_bomb_stops_at_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    unpacked = []

    class Counting(gzip.GzipFile):
        def read(self, size: int | None = -1) -> bytes:
            data = super().read(size)
            unpacked.append(len(data))
            return data

    monkeypatch.setattr(savefile, "MAX_JSON_BYTES", 4 << 20)
    monkeypatch.setattr(gzip, "GzipFile", Counting)
    bomb = _bomb(64)  # 64 MiB of zeros in ~64 kB
    assert len(bomb) < 100_000
    expect_error(bomb, "unpacks to more than 4 MB")
    assert sum(unpacked) <= (4 << 20) + savefile._CHUNK  # stopped early, not at 64 MiB


def test_unreadable_paths(tmp_path: Path) -> None:
    with pytest.raises(SaveFileError, match="could not be read") as err:
        savefile.load_from_path(tmp_path / "missing.wartable.json")
    assert "missing.wartable.json" in str(err.value)
    with pytest.raises(SaveFileError, match="not a regular file"):
        savefile.load_from_path(tmp_path)


def test_gzip_is_detected_by_content_not_name(tmp_path: Path) -> None:
    path = tmp_path / "plain-name.wartable.json"
    path.write_bytes(base_save(gz=True))
    assert savefile.load_from_path(path).state == played_session().state


# --- migrations ---------------------------------------------------------------------------

def _as_format_0() -> bytes:
    """A made-up version 0: the log was called "moves" and the tag "wartable"."""
    doc = base_doc()
    doc["format_version"] = 0
    doc["moves"] = doc.pop("actions")
    return encode(doc)


def _upgrade_0_to_1(doc: dict[str, Any]) -> dict[str, Any]:
    doc["actions"] = doc.pop("moves")
    return doc


def test_format_migration_chain(monkeypatch: pytest.MonkeyPatch) -> None:
    data = _as_format_0()
    expect_error(data, "save format 0", "can no longer read")
    monkeypatch.setitem(savefile.MIGRATIONS, 0, _upgrade_0_to_1)
    loaded = load_bytes(data)
    assert state_hash(loaded.state) == state_hash(played_session().state)
    assert loaded.log == played_session().log


def test_a_failing_migration_is_a_save_file_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(savefile.MIGRATIONS, 0, lambda d: d["no such key"])
    expect_error(_as_format_0(), "could not be upgraded from save format 0", "KeyError")


def _as_data_version(old: str) -> bytes:
    doc = base_doc()
    doc["data_version"] = old
    doc["state"]["data_version"] = old
    return encode(savefile.rehash_state(doc))


def test_data_migration(monkeypatch: pytest.MonkeyPatch) -> None:
    current = played_session().game.definition.data_version
    data = _as_data_version("0")
    expect_error(data, "version '0' of the data", f"has version '{current}'", "no upgrade")

    def upgrade(doc: dict[str, Any]) -> dict[str, Any]:
        doc["state"]["data_version"] = current
        return savefile.rehash_state(doc)

    monkeypatch.setitem(savefile.DATA_MIGRATIONS, ("skirmish", "0"), (current, upgrade))
    assert load_bytes(data).state == played_session().state


def test_a_data_migration_cycle_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(savefile.DATA_MIGRATIONS, ("skirmish", "a"), ("b", lambda d: d))
    monkeypatch.setitem(savefile.DATA_MIGRATIONS, ("skirmish", "b"), ("a", lambda d: d))
    expect_error(_as_data_version("a"), "no upgrade")


# --- writing files ------------------------------------------------------------------------

def test_save_and_load_paths(tmp_path: Path) -> None:
    s = played_session()
    for name in ("game.wartable.json", "game.wartable.json.gz"):
        path = savefile.save_to_path(s, tmp_path / name, SAVED_AT, title="t")
        assert (path.read_bytes()[:2] == savefile.GZIP_MAGIC) == name.endswith(".gz")
        assert savefile.load_from_path(path).state == s.state
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "game.wartable.json", "game.wartable.json.gz"]  # no temp files left


def test_save_into_a_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SaveFileError, match="Cannot save x.wartable.json: "):
        savefile.save_to_path(new_session(), tmp_path / "nope" / "x.wartable.json", SAVED_AT)


@pytest.mark.parametrize("failing", ["replace", "fsync"])
def test_failed_atomic_write_keeps_the_old_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: str) -> None:
    path = tmp_path / "keep.wartable.json"
    path.write_bytes(b"old contents")

    def boom(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, failing, boom)
    with pytest.raises(OSError, match="No space left"):
        savefile.write_atomic(path, b"new contents")
    with pytest.raises(SaveFileError, match="No space left on device"):
        savefile.save_to_path(new_session(), path, SAVED_AT)
    monkeypatch.undo()
    assert path.read_bytes() == b"old contents"
    assert [p.name for p in tmp_path.iterdir()] == ["keep.wartable.json"]


def test_atomic_write_replaces_and_keeps_the_mode(tmp_path: Path) -> None:
    path = tmp_path / "f.json"
    savefile.write_atomic(path, b"one")
    os.chmod(path, 0o640)
    savefile.write_atomic(path, b"two")
    assert path.read_bytes() == b"two"
    if os.name == "posix":
        assert path.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["f.json"]
