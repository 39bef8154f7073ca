"""I.A German Airpower & Strategic Transfer Phase: the strategic transfer half [12.1-12.4].

Air superiority [8.1] comes first in the phase; it is the airpower part's (its handler
should run before `StrategicTransfer.enter` moves the box, e.g. by wrapping this class).

1. As the phase starts, GSRHB "Just Arrived" units move to "Eligible to Leave" [12.1].
2. Supplied German infantry corps on either map (never panzers, never the 7th Flieger
   once in play) may go into "Just Arrived"; so may infantry In Romania [12.4].
3. "Eligible to Leave" units may be placed on the maps or sent to Romania [12.4], or stay.
   West [12.2]: a Greater Germany edge hex 1014-2909 free of enemy units, or a supplied
   Greater Germany town, city or Ruhr city with no enemy unit adjacent. East [12.3]: a
   Greater Germany edge hex 4300-5200 free of enemy units, or a German-controlled supplied
   city or town with no Soviet unit adjacent; outside Greater Germany it must be on a
   Rollbahn hex (the supply part's tables.supply.rollbahn). Stacking holds.
No unit may both go into and come out of the GSRHB in one game turn [12.1]: a unit that
went in or came out this turn is marked with the turn (A_GSRHB_TURN).
The 7th Flieger leaves the box only by an airdrop [8.7] (the airpower part) or to Romania.
"""

from __future__ import annotations

from dataclasses import replace

from wartable.engine.actions import Event, Outcome
from wartable.engine.rules import Game
from wartable.games.whatif1940 import supply, units
from wartable.games.whatif1940.board import Board
from wartable.games.whatif1940.ids import (
    A_GSRHB_TURN,
    EAST,
    GERMAN,
    GREATER_GERMANY,
    GSRHB_ELIGIBLE,
    GSRHB_JUST_ARRIVED,
    SSWFHB_ROMANIA,
    WEST,
)
from wartable.games.whatif1940.steps import control, movement, stacking
from wartable.games.whatif1940.steps.offmap import MoveStep, relocate
from wartable.model.sequence import Position
from wartable.model.state import GameState, Piece

SEVENTH = "ger_7th_flieger"
INFANTRY = ("ger_infantry", "ger_mountain")


def west_edge(label: str) -> bool:
    """[12.2] The Greater Germany map edge from 1014 round to 2909."""
    col, row = int(label[:2]), int(label[2:])
    return (col == 10 and row >= 14) or row == 19 or (col == 29 and row >= 9)


def east_edge(label: str) -> bool:
    """[12.3] The Greater Germany map edge 4300 through 5200."""
    col, row = int(label[:2]), int(label[2:])
    return row == 0 and 43 <= col <= 52


def _enemy_adjacent(game: Game, board: Board, state: GameState, label: str) -> bool:
    return any(units.is_ground(game, q) and units.enemies(q.side, GERMAN)
               for n in board.neighbors[label] for q in state.pieces_at(n))


def _edge_hex(board: Board, label: str) -> bool:
    return len(board.neighbors[label]) < 6


def entry_why_not(game: Game, board: Board, state: GameState, piece: Piece, label: str) -> str:
    """Why an Eligible to Leave unit may not be placed at `label` ("" when it may)."""
    h = board.hex(label)
    if movement.hostile(game, board, state, label, piece):
        return f"{label} holds enemy units [12.2, 12.3]"
    edge = h.region == GREATER_GERMANY and _edge_hex(board, label) and \
        (west_edge(label) if h.west else east_edge(label))
    if not edge:
        if not (h.city or h.town):
            return f"{label} is neither an entry edge hex nor a town or city [12.2, 12.3]"
        if h.region != GREATER_GERMANY and (h.west or label not in rollbahn(game, board)):
            return f"{label} lies outside Greater Germany and off the Rollbahnen [12.2, 12.3]"
        if control.controller(board, state, label) != GERMAN:
            return f"{label} is not German-controlled [12.3]"
        if _enemy_adjacent(game, board, state, label):
            return f"an enemy unit is adjacent to {label} [12.2, 12.3]"
        if not supply.supplied(game, board, state, replace(piece, location=label)):
            return f"{label} is not in supply [12.2, 12.3]"
    reason = movement.area_allowed(game, board, state, piece, label)
    if reason:
        return reason
    return stacking.why_not(game, board, state, label, (piece,), stop=True)


def rollbahn(game: Game, board: Board) -> frozenset[str]:
    """The Rollbahn hexes (the supply part's data, tables.supply.rollbahn)."""
    return frozenset(supply.static(game, board).cfg.rollbahn)


def entry_hexes(game: Game, board: Board, state: GameState, piece: Piece) -> list[str]:
    out = []
    roads = rollbahn(game, board)
    for map_id in (WEST, EAST):
        for label in board.labels(map_id):
            h = board.hex(label)
            if h.region != GREATER_GERMANY and label not in roads:
                continue
            if not (h.city or h.town or _edge_hex(board, label)):
                continue
            if not entry_why_not(game, board, state, piece, label):
                out.append(label)
    return out


class StrategicTransfer(MoveStep):
    rule = "12.1"

    def enter(self, game: Game, board: Board, state: GameState, pos: Position) -> Outcome:
        # [8.1] Air superiority comes first in this phase (the airpower part).
        moved = sorted(state.pieces_at(GSRHB_JUST_ARRIVED), key=lambda p: p.id)
        for p in moved:
            state = state.with_piece(replace(p, location=GSRHB_ELIGIBLE))
        evs = (Event("info", f"{len(moved)} units move from Just Arrived to Eligible to Leave "
                     "in the GSRHB", GERMAN, "12.1"),) if moved else ()
        return Outcome(state, evs)

    def movers(self, game: Game, board: Board, state: GameState, pos: Position) -> list[Piece]:
        out = []
        for p in state.pieces.values():
            if p.side != GERMAN or p.attrs.get(A_GSRHB_TURN) == state.turn:
                continue
            if p.location == GSRHB_ELIGIBLE:
                out.append(p)
            elif p.type in INFANTRY and (board.on_map(p.location) or
                                         p.location == SSWFHB_ROMANIA):
                out.append(p)
        return sorted(out, key=lambda p: p.id)

    def destinations(self, game: Game, board: Board, state: GameState, pos: Position,
                     piece: Piece) -> list[str]:
        if piece.location == GSRHB_ELIGIBLE:
            if piece.type == SEVENTH:
                return [SSWFHB_ROMANIA]  # otherwise only by airdrop [8.7, 12.2, 12.3]
            return [SSWFHB_ROMANIA, *entry_hexes(game, board, state, piece)]
        if piece.location == SSWFHB_ROMANIA:
            return [GSRHB_JUST_ARRIVED]  # infantry may withdraw [12.4]
        if supply.supplied(game, board, state, piece):
            return [GSRHB_JUST_ARRIVED]
        return []

    def all_moves(self, game: Game, board: Board, state: GameState,
                  pos: Position) -> dict[str, tuple[str, ...]]:
        out: dict[str, tuple[str, ...]] = {}
        shared: tuple[str, ...] | None = None
        for p in self.movers(game, board, state, pos):
            if p.location == GSRHB_ELIGIBLE and p.type in INFANTRY:
                if shared is None:  # every infantry corps in the box has the same places
                    shared = tuple(self.destinations(game, board, state, pos, p))
                dests = shared
            else:
                dests = tuple(self.destinations(game, board, state, pos, p))
            if dests:
                out[p.id] = dests
        return out

    def moved(self, game: Game, board: Board, state: GameState, pos: Position, piece: Piece,
              to: str) -> Outcome:
        rule = "12.4" if SSWFHB_ROMANIA in (to, piece.location) else \
            "12.1" if to == GSRHB_JUST_ARRIVED else "12.2" if board.map_of(to) == WEST \
            else "12.3"
        # Both going in and coming out mark the turn: never both in one game turn [12.1].
        out = relocate(game, state, piece, to, rule, **{A_GSRHB_TURN: state.turn})
        if board.on_map(to):
            st = control.enter(game, board, out.state, out.state.piece(piece.id), (to,))
            out = Outcome(st, out.events)
        return out
