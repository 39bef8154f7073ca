"""The Kit Front's only code: one `code` effect its data names [K6.3]."""

from __future__ import annotations

from wartable.engine.actions import Event, Outcome
from wartable.engine.rules import Game, Rules
from wartable.engine.steps import RuleTable
from wartable.model.state import GameState
from wartable.model.tracks import track, with_track


def count_losses(game: Game, state: GameState, side: str) -> Outcome:
    """K6.3: the Allies lose the garrison of a conquered Norway: one loss for them."""
    n = (track(state, "losses", "allies") or 0) + 1
    return Outcome(with_track(state, "losses", "allies", n),
                   (Event("track", f"Allied losses: {n} [K6.3]", side, "K6.3"),))


class KitRules(Rules):
    table = RuleTable(effects={"count_losses": count_losses})
