"""Retreat after combat and displacement [11.11, 11.12].

A retreating unit moves exactly one hex: never into enemy units or an enemy garrison's hex
[10.7, 11.21], across all-sea or all-lake hexsides [10.11], nor where its nationality may
never be [3.6, 3.7, 3.9, 10.10, 12.9]. Among the open hexes it must take one nearest its
supply (supply.distance_to_supply); its owner chooses between ties. When the only hexes are
full, it displaces a friendly unit there, which retreats in turn (a chain); if the displaced
unit could not retreat, the retreating unit is eliminated instead.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from wartable.engine.actions import Event
from wartable.engine.rules import Game
from wartable.games.whatif1940 import hidden, supply, units
from wartable.games.whatif1940.board import Board
from wartable.games.whatif1940.ids import SOVIET
from wartable.games.whatif1940.steps import control, movement, stacking
from wartable.model.state import GameState, Piece

MAX_CHAIN = 6  # displacement chains longer than this are treated as blocked


def _passable(game: Game, board: Board, a: str, b: str) -> bool:
    tec = game.definition.tables["terrain_effects"]
    if board.hex(b).terrain in set(tec["impassable"]):
        return False
    return not (board.side_features(a, b) & set(tec["hexside_impassable"]))


def legal(game: Game, board: Board, state: GameState, piece: Piece, origin: str,
          banned: Iterable[str] = ()) -> list[str]:
    """Hexes the unit may retreat into, full or not."""
    skip = set(banned)
    out = []
    for b in board.neighbors[origin]:
        if b in skip or not _passable(game, board, origin, b):
            continue
        if movement.hostile(game, board, state, b, piece):
            continue
        if movement.area_allowed(game, board, state, piece, b):
            continue
        if piece.side == SOVIET and board.hex(b).red_row and not board.hex(origin).red_row:
            continue  # [12.9] never moved back onto the red row
        here = stacking.friends(game, state, b, piece.side, (piece,))
        if any(not stacking.compatible(game, state, piece, o) for o in here):
            continue  # nationalities that never stack [7.4]: not a retreat hex
        out.append(b)
    return sorted(out)


def has_room(game: Game, board: Board, state: GameState, piece: Piece, label: str) -> bool:
    return stacking.can_enter(game, board, state, label, (piece,), stop=True)


def nearest(game: Game, board: Board, state: GameState, piece: Piece,
            hexes: Iterable[str]) -> list[str]:
    """The hexes nearest the unit's supply [11.11] (ties all returned, sorted)."""
    hs = sorted(set(hexes))
    if not hs:
        return []
    dist = {h: supply.distance_to_supply(game, board, state, piece, h) for h in hs}
    best = min(dist.values())
    return [h for h in hs if dist[h] == best]


def move(game: Game, board: Board, state: GameState, piece: Piece, to: str) -> GameState:
    """Put the unit in `to`; entering takes control [3.12]."""
    p = state.piece(piece.id)
    state = state.with_piece(replace(p, location=to))
    return control.enter(game, board, state, state.piece(p.id), (to,))


def displace(game: Game, board: Board, state: GameState, into: str, newcomer: Piece,
             banned: frozenset[str], depth: int = 0) -> tuple[GameState, list[Event]] | None:
    """[11.12] Make room in `into` for `newcomer` by displacing one friendly unit one hex
    (chains allowed). None when no unit there can go anywhere (the newcomer dies instead).
    Our simplification: the displaced unit is the first in id order that can leave, and ties
    in its retreat are taken in hex order."""
    if depth >= MAX_CHAIN:
        return None
    here = stacking.friends(game, state, into, newcomer.side, (newcomer,))
    for d in sorted(here, key=lambda p: p.id):
        options = legal(game, board, state, d, into, banned | {into})
        open_ = [h for h in options if has_room(game, board, state, d, h)]
        name = hidden.display_name(game, state, d)
        if open_:
            to = nearest(game, board, state, d, open_)[0]
            ev = Event("combat", f"{name} is displaced {into} → {to}", d.side, "11.12")
            return move(game, board, state, d, to), [ev]
        for full in nearest(game, board, state, d, options):
            chain = displace(game, board, state, full, d, banned | {into}, depth + 1)
            if chain is not None:
                st, evs = chain
                ev = Event("combat", f"{name} is displaced {into} → {full}", d.side, "11.12")
                return move(game, board, st, d, full), [*evs, ev]
    return None


def stack_units(game: Game, state: GameState, label: str, side: str) -> int:
    return sum(1 for p in state.pieces_at(label) if p.side == side and units.stacks(game, p))
