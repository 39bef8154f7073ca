"""The bot seats are saved with the game (issue 7): the seats the bot plays now, which may
differ from those the game started with, go in the save's "bots" field; the save's
`options` keep the starting seats so the replay matches; saves without the field load as
before. Autosaves are written by the same dump_save, so crash recovery keeps them too."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from savetest_helpers import FROZEN_V1

from wartable.core.errors import SaveFileError
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import END_STEP, Action
from wartable.engine.session import Session
from wartable.model.values import freeze
from wartable.persistence import autosave, savefile
from wartable.persistence.gamedata import load_game

WHEN = "2026-01-01T00:00:00+00:00"


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WARTABLE_HOME", str(tmp_path))


def _aa(bots: dict[str, str] | None = None) -> Session:
    """A 1941 game, Germany past its purchase (one action in the log)."""
    opts = {"table.bots": bots} if bots is not None else {}
    s = Session.start(load_game("aa_anniversary"), "1941", freeze(opts), seed=1)
    return s.submit(Action(END_STEP, "germany"))


def _seated(s: Session, bots: dict[str, str]) -> Session:
    """As the worker's SetTable does: the seats change, the game does not."""
    return replace(s, options=s.options.update({"table.bots": freeze(bots)}))


def test_seats_set_during_play_are_saved_and_restored() -> None:
    s = _seated(_aa(), {"ussr": "fast", "uk": "strong"})
    doc = savefile.session_to_save(s, WHEN)
    assert doc["bots"] == {"ussr": "fast", "uk": "strong"}
    assert "table.bots" not in doc["options"]  # the game did not start with them
    loaded = savefile.load_save(savefile.encode_save(doc), "g.wartable.json")
    assert dict(loaded.options["table.bots"]) == {"ussr": "fast", "uk": "strong"}
    assert loaded.log == s.log and loaded.state == s.state


def test_a_seat_taken_back_from_the_bot_stays_human_after_loading() -> None:
    """Started with the Soviet Union played by the bot, then taken back by a person."""
    s = _seated(_aa({"ussr": "strong"}), {})
    doc = savefile.session_to_save(s, WHEN)
    assert doc["options"]["table.bots"] == {"ussr": "strong"}  # replayed as it started
    assert doc["bots"] == {}
    loaded = savefile.load_save(savefile.encode_save(doc), "g.wartable.json")
    assert dict(loaded.options["table.bots"]) == {}
    assert loaded.state.options["table.bots"] == FrozenMap({"ussr": "strong"})


def test_autosave_keeps_the_bot_seats(tmp_path: Path) -> None:
    path = autosave.autosave(_seated(_aa(), {"japan": "fast"}), WHEN)
    loaded = savefile.load_from_path(path)
    assert dict(loaded.options["table.bots"]) == {"japan": "fast"}


def test_a_game_without_bots_writes_no_bots_field() -> None:
    assert "bots" not in savefile.session_to_save(_aa(), WHEN)


def test_an_older_save_without_the_field_loads_with_no_bots() -> None:
    doc = json.loads(FROZEN_V1.read_bytes())
    assert "bots" not in doc
    loaded = savefile.load_from_path(FROZEN_V1)
    assert "table.bots" not in loaded.options


def test_a_bot_level_that_is_not_text_is_refused() -> None:
    doc = savefile.session_to_save(_seated(_aa(), {"ussr": "fast"}), WHEN)
    doc["bots"] = {"ussr": 3}
    with pytest.raises(SaveFileError, match="bot level of 'ussr' should be text"):
        savefile.load_save(savefile.encode_save(doc), "g.wartable.json")
