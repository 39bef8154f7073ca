"""engine/bots.play_ranked: how a bot level's proposals become one legal action (issue 7),
on a real Axis & Allies opening (Germany's Purchase Units)."""

from __future__ import annotations

import pytest

from wartable.core.errors import WartableError
from wartable.core.frozen import FrozenMap
from wartable.core.rng import Rng
from wartable.engine.actions import DICE, END_STEP, Action
from wartable.engine.bots import play_ranked
from wartable.engine.session import Session
from wartable.persistence.gamedata import load_game


def opening(dice: str = "digital") -> Session:
    return Session.start(load_game("aa_anniversary"), "1941", FrozenMap(), seed=1,
                         dice_mode=dice)


def test_the_first_proposal_the_engine_accepts_is_played_with_its_reason() -> None:
    s = opening()
    bad = Action.make("buy", "germany", unit="no_such_unit")  # refused by the rules
    good = Action.make("buy", "germany", unit="infantry")
    a, _rng, why = play_ranked(s, Rng.from_seed("t"), "fast",
                               lambda p: [(bad, "wrong"), (good, "an infantry for the east")])
    assert a == good and why == "an infantry for the east"


def test_with_no_legal_proposal_any_legal_candidate_is_played() -> None:
    s = opening()
    a, _rng, why = play_ranked(s, Rng.from_seed("t"), "strong", lambda p: [])
    s.submit(a)  # legal: it raises otherwise
    assert why == "" and a.side == "germany"


def test_the_bot_rolls_its_own_dice_when_a_roll_is_asked() -> None:
    s = opening("physical")
    s = s.submit(Action(END_STEP, "germany"))
    for pid in ("germany.infantry.16", "germany.infantry.17"):
        s = s.submit(Action.make("move", "germany", piece=pid, to="east_poland"))
    s = s.submit(Action(END_STEP, "germany"))
    s = s.submit(Action.make("fight", "germany", space="east_poland"))
    ask = s.prompt().dice
    assert ask is not None
    a, _rng, _why = play_ranked(s, Rng.from_seed("t"), "fast", lambda p: [])
    assert a.verb == DICE and len(a.args["values"]) == ask.count
    s.submit(a)


def test_an_unknown_level_is_a_clear_error() -> None:
    with pytest.raises(WartableError, match="Unknown bot level 'grand'"):
        play_ranked(opening(), Rng.from_seed("t"), "grand", lambda p: [])
