"""Fighters and aircraft carriers at the end of a turn (Air Units, pg. 26; Aircraft
Carriers, pg. 27-28; Phase 5: Noncombat Move, pg. 21): landing on carriers still to be
mobilized and carriers that must move to pick up fighters."""

from __future__ import annotations

from wartable.engine.rules import Game
from wartable.model.state import GameState


def pending_carrier_room(game: Game, state: GameState, loc: str, power: str) -> int:
    """Landing spaces in sea zone `loc` on carriers `power` will mobilize there (pg. 26)."""
    return 0


def noncombat_can_end(game: Game, state: GameState, power: str) -> str | None:
    """Why Noncombat Move cannot end yet (a carrier must still move to its fighters), or None."""
    return None
