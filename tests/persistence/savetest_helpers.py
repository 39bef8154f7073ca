"""Shared helpers for the persistence tests: real sessions of the test game from random play.

Run as a script to regenerate the frozen save (only when the save format itself changes
on purpose, never to make a failing test pass):

    PYTHONPATH=desktop:tests python tests/persistence/savetest_helpers.py --write-frozen
"""

from __future__ import annotations

import functools
import json
import random
import sys
from pathlib import Path
from typing import Any

import testgame  # noqa: F401  (registers the "skirmish" test game)
from wartable.core.errors import IllegalAction, SaveFileError
from wartable.engine.actions import DICE, END_STEP, Action
from wartable.engine.session import Session
from wartable.persistence import savefile
from wartable.persistence.gamedata import load_game

SAVED_AT = "2024-05-01T12:00:00+00:00"
FROZEN_DIR = Path(__file__).parent / "frozen"
FROZEN_V1 = FROZEN_DIR / "skirmish-format1.wartable.json"


def new_session(seed: int | str = 7, dice_mode: str = "digital",
                scenario: str = "meeting") -> Session:
    return Session.start(load_game("skirmish"), scenario, None, seed, dice_mode)


def play_random(session: Session, n: int, rng: random.Random) -> Session:
    """Play up to n legal actions chosen by rng (moves, attacks, retreats, end_step, dice)."""
    game = session.game
    played = tries = 0
    while played < n and tries < n * 20:
        tries += 1
        p = session.prompt()
        if p.finished:
            break
        if p.dice is not None:
            values = tuple(rng.randint(1, p.dice.sides) for _ in range(p.dice.count))
            action = Action.make(DICE, p.side, values=values)
        else:
            cands = game.rules.candidate_actions(game, session.state, p)
            if not cands:
                break
            attacks = [a for a in cands if a.verb == "attack"]
            others = [a for a in cands if a.verb != END_STEP]
            ends = [a for a in cands if a.verb == END_STEP]
            # Mostly act, prefer fighting, sometimes end the step: turns advance, dice roll.
            if attacks and rng.random() < 0.8:
                pool = attacks
            elif others and (not ends or rng.random() < 0.75):
                pool = _towards_enemy(session, others) if rng.random() < 0.7 else others
            else:
                pool = ends
            action = rng.choice(pool)
        try:
            session = session.submit(action)
        except IllegalAction:
            continue  # a candidate may be illegal (random play is told so); try another
        played += 1
    return session


def _towards_enemy(session: Session, actions: list[Action]) -> list[Action]:
    """The moves ending nearest an enemy unit: random play that actually meets and fights."""
    labels = session.game.maps["skirmish/field"].labels  # type: ignore[attr-defined]
    state = session.state

    def distance(a: Action) -> int:
        to = a.args.get("to")
        if a.verb != "move" or not isinstance(to, str):
            return 1_000
        here = labels.parse(to)
        return min((here.distance(labels.parse(p.location)) for p in state.pieces.values()
                    if p.side != a.side and not p.location.startswith("box:")),
                   default=1_000)

    best = min(distance(a) for a in actions)
    return [a for a in actions if distance(a) == best]


@functools.cache
def played_session(seed: int = 7, n: int = 50, dice_mode: str = "digital") -> Session:
    """A session with ~n random legal actions (cached: sessions are immutable)."""
    return play_random(new_session(seed, dice_mode), n, random.Random(seed))


@functools.cache
def base_save(gz: bool = False) -> bytes:
    return savefile.dump_save(played_session(), SAVED_AT, gz=gz)


def base_doc() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(base_save())
    return doc


def encode(doc: dict[str, Any], gz: bool = False) -> bytes:
    return savefile.encode_save(doc, gz)


def load_bytes(data: bytes, name: str = "test.wartable.json") -> Session:
    return savefile.load_save(data, name)


def expect_error(data: bytes, *fragments: str) -> str:
    """Load must fail with a one-line SaveFileError containing every fragment."""
    try:
        load_bytes(data)
    except SaveFileError as e:
        msg = str(e)
    else:
        raise AssertionError("the load succeeded")
    assert "\n" not in msg, msg
    for f in fragments:
        assert f in msg, f"{f!r} not in {msg!r}"
    return msg


def write_frozen() -> None:
    FROZEN_DIR.mkdir(exist_ok=True)
    session = play_random(new_session(1940), 60, random.Random(1940))
    data = savefile.dump_save(session, SAVED_AT, title="Frozen format 1 save",
                              note="Keep loading me: tests/persistence/test_frozen_save.py")
    FROZEN_V1.write_bytes(data)
    print(f"wrote {FROZEN_V1} ({len(session.log)} actions)")


if __name__ == "__main__":
    if sys.argv[1:] == ["--write-frozen"]:
        write_frozen()
    else:
        print(__doc__)
