"""What every game's bot shares: its levels, the time-limit callable, the entry a game
registers so the app can play it and ask it for hints, and the way a level's ranked
proposals become one legal action (issue 7)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from wartable.core.errors import IllegalAction, WartableError
from wartable.core.rng import Rng
from wartable.engine.actions import DICE, Action, Prompt
from wartable.engine.loop import deciding_side
from wartable.engine.randomplay import random_action
from wartable.engine.session import Session

LEVELS = ("strong", "fast", "random")
Budget = Callable[[], bool]  # True while the bot may keep thinking (a time limit per turn)
Ranked = Iterable[tuple[Action, str]]  # proposals, best first, each with its reason


@dataclass(frozen=True)
class Bot:
    """A game's bot. `play`: the deciding side's next action at a level, with the reason a
    player reads ("" when there is none). `hint`: the strong level's suggestion for a
    human's next decision (None: nothing to suggest; rolls are hinted by the app)."""

    play: Callable[[Session, Rng, str, Budget], tuple[Action, Rng, str]]
    hint: Callable[[Session, Budget], tuple[Action, str] | None]


def play_ranked(session: Session, rng: Rng, level: str,
                ranked: Callable[[Prompt], Ranked]) -> tuple[Action, Rng, str]:
    """The deciding side's action at `level`: "random" plays any legal candidate; a bot
    rolls its own dice (digital); otherwise the first of `ranked(prompt)` the engine
    accepts, else any legal candidate (a proposal may turn out illegal)."""
    if level == "random":
        a, rng = random_action(session, rng)
        return a, rng, ""
    if level not in LEVELS:
        raise WartableError(f"Unknown bot level {level!r} (one of {', '.join(LEVELS)}).")
    side = deciding_side(session.state)
    p = session.prompt(side)
    if p.dice is not None:
        vals, rng = rng.roll_many(p.dice.count, p.dice.sides)
        return Action.make(DICE, side, values=vals), rng, ""
    for a, why in ranked(p):
        try:
            session.submit(a)
        except IllegalAction:
            continue
        return a, rng, why
    a, rng = random_action(session, rng)
    return a, rng, ""
