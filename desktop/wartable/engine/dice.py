"""Rolling dice inside a procedure: from the state's PRNG, or typed by the players.

`roll_then` rolls now in digital mode, or pushes a DICE_FRAME asking a side to type its
physical roll; either way the game's `rules.resume(game, state, resume, data, dice)`
continues with the dice (engine/loop.py answers the frame). Kept apart from the loop so
the kit's steps (engine/kitsteps.py), which the rules base class uses, can roll too.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Event, Outcome
from wartable.model.state import Frame, GameState

if TYPE_CHECKING:
    from wartable.engine.rules import Game

DICE_FRAME = "dice"


def roll_then(game: Game, state: GameState, *, count: int, sides: int, purpose: str,
              side: str, resume: str, data: FrozenMap[str, Any] | None = None,
              rule: str = "") -> Outcome:
    """Roll `count`d`sides` for `purpose`, then call rules.resume with the dice.

    Digital mode rolls from the state's PRNG now; physical mode pushes a frame that
    asks `side` to type the roll, and resumes when the DICE action answers it.
    """
    data = data or FrozenMap()
    if state.dice_mode == "physical":
        frame = Frame(DICE_FRAME, side, f"Roll {count}d{sides} for {purpose} and type the result.",
                      rule, FrozenMap(count=count, sides=sides, purpose=purpose, resume=resume,
                                      data=data))
        return Outcome(state.push_frame(frame))
    dice, rng = state.rng.roll_many(count, sides)
    state = replace(state, rng=rng)
    ev = Event("dice", f"{purpose}: rolled {dice_text(dice, game.rules.dice_summed)}", side, rule,
               data=FrozenMap(dice=tuple(dice), resume=resume))
    return Outcome(state, (ev,)).then(game.rules.resume(game, state, resume, data, dice))


def dice_text(dice: tuple[int, ...], summed: bool = True) -> str:
    """"3+4 = 7", or "6, 6, 5" where each die counts on its own (Rules.dice_summed)."""
    if len(dice) == 1:
        return str(dice[0])
    return "+".join(map(str, dice)) + f" = {sum(dice)}" if summed else ", ".join(map(str, dice))
