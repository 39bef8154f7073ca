"""Saves open at their saved position at once; the log replay check comes after (issue 20)."""

from __future__ import annotations

from pathlib import Path

import pytest
from savetest_helpers import base_doc, encode, played_session

from wartable.core.errors import SaveFileError
from wartable.model.serialize import state_hash
from wartable.persistence import savefile

TAMPERED = ("the file was changed by hand or by another version: the replayed game does not "
            "match its saved position")


def test_open_shows_the_saved_position_without_replaying() -> None:
    session = played_session(n=50)
    opened = savefile.open_save(encode(base_doc()), "g.wartable.json")
    quick = opened.session
    assert quick.state == session.state and state_hash(quick.state) == opened.state_hash
    assert quick.log == session.log and opened.actions == len(session.log) == 50
    assert quick.events == () and quick.undo_stack == ()  # nothing replayed yet
    assert quick.options == session.options


def test_check_replays_to_the_same_session_as_a_full_load() -> None:
    data = encode(base_doc())
    checked = savefile.check_replay(savefile.open_save(data, "g.wartable.json"))
    full = savefile.load_save(data, "g.wartable.json")
    assert checked == full
    assert checked.events and checked.state == played_session(n=50).state


def test_check_reports_progress_up_to_the_last_move() -> None:
    seen: list[tuple[int, int]] = []
    savefile.check_replay(savefile.open_save(encode(base_doc()), "g.wartable.json"),
                          lambda done, total: seen.append((done, total)))
    assert seen[-1] == (50, 50) and len(seen) == 50


def test_an_edited_position_with_its_hash_redone_opens_then_fails_the_check() -> None:
    doc = base_doc()
    doc["state"]["turn"] += 1
    savefile.rehash_state(doc)
    opened = savefile.open_save(encode(doc), "g.wartable.json")
    assert opened.session.state.turn == doc["state"]["turn"]
    with pytest.raises(SaveFileError) as err:
        savefile.check_replay(opened)
    assert str(err.value).startswith("Cannot open g.wartable.json: ")
    assert TAMPERED in str(err.value)


def test_a_position_that_fails_its_hash_does_not_even_open() -> None:
    doc = base_doc()
    doc["state"]["turn"] += 1  # hash left as it was
    with pytest.raises(SaveFileError) as err:
        savefile.open_save(encode(doc), "g.wartable.json")
    assert TAMPERED in str(err.value) and "\n" not in str(err.value)


def test_open_from_path_reads_the_file(tmp_path: Path) -> None:
    path = tmp_path / "g.wartable.json.gz"
    path.write_bytes(encode(base_doc(), gz=True))
    opened = savefile.open_from_path(path)
    assert opened.source == "g.wartable.json.gz" and opened.actions == 50
