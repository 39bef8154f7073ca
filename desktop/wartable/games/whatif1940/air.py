"""Airpower bookkeeping [8.4-8.6]: which aircraft may fly a mission now, marking them
used, and the return of every aircraft at the start of each game turn.

Each unsuppressed aircraft flies at most one mission per game turn [8.6]; air superiority
suppresses enemy aircraft for the rest of the game turn [8.1]. Theatres [8.4, 8.5]: the
Luftwaffe flies on both maps, attack and defence; the Anglo-French aircraft on the west map
only, attack and defence; the Soviet aircraft on the east map, attacks only.
(Air superiority, interdiction and the 7th Flieger build on these helpers.)
"""

from __future__ import annotations

from typing import Literal

from wartable.engine.rules import Game
from wartable.games.whatif1940 import units
from wartable.games.whatif1940.ids import (
    ANGLO_FRENCH,
    DEAD,
    EAST,
    GERMAN,
    SOVIET,
    V_AIR_SUPPRESSED,
    V_AIR_USED,
    WEST,
)
from wartable.model.state import GameState, Piece

Role = Literal["attack", "defense"]
V_AIR_TURN = "air_turn"  # the game turn the aircraft were last made ready [8.1, 8.6]

# side -> (maps it may fly over, roles it may fly) [8.4, 8.5]
THEATRES: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    GERMAN: (frozenset({WEST, EAST}), frozenset({"attack", "defense"})),
    ANGLO_FRENCH: (frozenset({WEST}), frozenset({"attack", "defense"})),
    SOVIET: (frozenset({EAST}), frozenset({"attack"})),
}


def aircraft(game: Game, state: GameState, side: str) -> list[Piece]:
    """The side's aircraft counters (never eliminated [8.6])."""
    return sorted((p for p in state.pieces.values()
                   if p.side == side and units.mobility(game, p) == "air"
                   and p.location != DEAD), key=lambda p: p.id)


def may_fly(side: str, map_id: str, role: Role) -> bool:
    maps, roles = THEATRES.get(side, (frozenset(), frozenset()))
    return map_id in maps and role in roles


def available(game: Game, state: GameState, side: str, map_id: str,
              role: Role) -> tuple[str, ...]:
    """Aircraft ids of `side` that may support a battle on `map_id` now [8.4, 8.6]."""
    if not may_fly(side, map_id, role):
        return ()
    used = set(state.var(V_AIR_USED, ())) | set(state.var(V_AIR_SUPPRESSED, ()))
    return tuple(p.id for p in aircraft(game, state, side) if p.id not in used)


def mark_used(state: GameState, ids: tuple[str, ...]) -> GameState:
    """These aircraft have flown their one mission this game turn [8.6]."""
    if not ids:
        return state
    used = tuple(sorted(set(state.var(V_AIR_USED, ())) | set(ids)))
    return state.with_var(V_AIR_USED, used)


def new_turn(state: GameState) -> GameState:
    """[8.1, 8.6] At the start of each game turn every aircraft is ready again: the used and
    the suppressed return. Called on entering any step; acts once per turn."""
    if state.var(V_AIR_TURN) == state.turn:
        return state
    state = state.with_var(V_AIR_TURN, state.turn)
    if state.var(V_AIR_USED, ()):
        state = state.with_var(V_AIR_USED, ())
    if state.var(V_AIR_SUPPRESSED, ()):
        state = state.with_var(V_AIR_SUPPRESSED, ())
    return state
