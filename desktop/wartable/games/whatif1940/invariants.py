"""What must always hold, for selfplay and fuzzing: stacking, maps and areas, and unit
conservation."""

from __future__ import annotations

from wartable.engine.rules import Game
from wartable.games.whatif1940 import fog, supply, units
from wartable.games.whatif1940.board import Board
from wartable.games.whatif1940.ids import (
    EAST,
    GERMAN,
    GREATER_GERMANY,
    HOLLAND,
    NAT_DUTCH,
    NAT_SOVIET,
    V_AIRBORNE,
    V_PIECE_IDS,
    WEST,
)
from wartable.games.whatif1940.steps import stacking
from wartable.model.state import GameState


def box_ids(game: Game) -> frozenset[str]:
    return frozenset("box:" + str(b["id"]) for b in game.definition.tables["boxes"]["list"])


def check(game: Game, board: Board, state: GameState) -> list[str]:
    out: list[str] = []
    boxes = box_ids(game)
    ids = state.var(V_PIECE_IDS)
    if ids is not None and tuple(sorted(state.pieces)) != tuple(ids):
        out.append(f"unit conservation: {len(state.pieces)} counters, {len(ids)} at the start")
    # [8.7] The landed 7th Flieger Corps shares its target hex with the enemy until its
    # airborne assault is resolved.
    landing = str(state.var(V_AIRBORNE, {}).get("target", ""))
    for p in state.pieces.values():
        if p.type not in game.definition.unit_types:
            out.append(f"{p.id}: unknown unit type {p.type}")
            continue
        if not board.on_map(p.location):
            if p.location not in boxes:
                out.append(f"{p.id}: at {p.location!r}, which is neither a hex nor a box")
            continue
        h = board.hex(p.location)
        nat = units.nation(game, p)
        if not units.is_ground(game, p) and units.mobility(game, p) != "marker":
            # Markers (semi-permanent forts [9.8]) sit on hexes; aircraft never do.
            out.append(f"{p.id}: a {units.mobility(game, p)} counter on the map at {h.label}")
        if units.mobility(game, p) == "marker" and sum(
                q.type == p.type for q in state.pieces_at(p.location)) > 1:
            out.append(f"{p.id}: more than one {p.type} marker at {h.label} [9.8]")
        if nat == NAT_SOVIET and h.map_id != EAST:
            out.append(f"{p.id}: a Soviet unit on the west map [3.9]")
        if nat not in (NAT_SOVIET, GERMAN) and h.map_id != WEST:
            out.append(f"{p.id}: a {nat} unit on the east map [3.9]")
        if nat == GERMAN and h.map_id == WEST and (h.region != GREATER_GERMANY
                                                   or units.is_mech(game, p)):
            out.append(f"{p.id}: German unit at {h.label} outside its west-map limits [3.9]")
        if nat == NAT_DUTCH and h.region != HOLLAND:
            out.append(f"{p.id}: Dutch unit outside Holland [3.6]")
        if units.is_ground(game, p) and h.label != landing and any(
                units.enemies(q.side, p.side) and units.is_ground(game, q)
                for q in state.pieces_at(p.location)):
            out.append(f"{p.id}: shares {h.label} with enemy units [10.7]")
    out.extend(supply.problems(game, board, state))  # [6.2-6.8] supply states
    if not state.frames:  # an open overstack frame is the owner's pending choice [7.2]
        for label, side, what in stacking.problems(game, board, state):
            out.append(f"stacking at {label} ({side}): {what}")
    out.extend(fog.problems(game, state))  # [7.3, 2.12] no hidden information leaks
    return out
