"""Hex control with its history [3.12] and the intrinsic garrisons [11.21].

Control is kept as a difference from the start of play (`V_CONTROL`: hex -> side), so the
state stays small; `V_EVER_GERMAN` remembers hexes not German at the start that have been
German-controlled since, even briefly (Moscow and Leningrad supply [6.5], Soviet
reinforcement cities [9.5]).
"""

from __future__ import annotations

from collections.abc import Iterable

from wartable.core.frozen import FrozenMap
from wartable.engine.rules import Game
from wartable.games.whatif1940 import units
from wartable.games.whatif1940.board import Board
from wartable.games.whatif1940.ids import (
    ANGLO_FRENCH,
    EAST,
    ESTONIA,
    FORMER_POLAND,
    FRANCE,
    GERMAN,
    GREATER_GERMANY,
    HOLLAND,
    LATVIA,
    LITHUANIA,
    MOSCOW,
    NAT_DUTCH,
    SOVIET,
    USSR,
    V_CONTROL,
    V_EVER_GERMAN,
    WEST,
)
from wartable.model.state import GameState, Piece

_START = {GREATER_GERMANY: GERMAN, LITHUANIA: GERMAN, FRANCE: ANGLO_FRENCH, USSR: SOVIET,
          ESTONIA: SOVIET, FORMER_POLAND: SOVIET, LATVIA: SOVIET}
GARRISONS_LOST = "garrisons_lost"  # hexes whose intrinsic garrison is gone for good [11.21]


def variant(state: GameState) -> bool:
    return bool(state.option("variant_lithuania", False))


def _initial(board: Board, label: str, lithuania_lost: bool) -> str | None:
    h = board.hex(label)
    if lithuania_lost:  # [3.10] too late to keep Lithuania
        if "polish_revision" in h.features:
            return GERMAN
        if h.region == LITHUANIA:
            return SOVIET
    return _START.get(h.region or "")


def initial_controller(board: Board, state: GameState, label: str) -> str | None:
    """[3.12] Who controls a hex at the start of play; None for neutral or no one's."""
    key = ("initial", variant(state))
    table = board.memo.get(key)
    if table is None:
        table = board.memo[key] = {h: _initial(board, h, key[1]) for h in board.hexes}
    result: str | None = table[label]
    return result


def controller(board: Board, state: GameState, label: str) -> str | None:
    changed: FrozenMap[str, str] = state.var(V_CONTROL, FrozenMap())
    if label in changed:
        return changed[label]
    return initial_controller(board, state, label)


def ever_german(board: Board, state: GameState, label: str) -> bool:
    """Has the hex been German-controlled at any time (at the start included)?"""
    return initial_controller(board, state, label) == GERMAN or \
        label in state.var(V_EVER_GERMAN, ())


def enter(game: Game, board: Board, state: GameState, piece: Piece,
          path: Iterable[str]) -> GameState:
    """[3.12] Control changes the instant a unit of the other side enters a hex.

    Belgian and Dutch units never take control: they only act in their own countries
    (our reading, NOTES.md)."""
    if units.is_neutral_nation(game, piece):
        return state
    changed: FrozenMap[str, str] = state.var(V_CONTROL, FrozenMap())
    ever = set(state.var(V_EVER_GERMAN, ()))
    for label in path:
        if label not in board.hexes:
            continue
        now = changed.get(label, initial_controller(board, state, label))
        if now is not None and not units.enemies(now, piece.side):
            continue
        start = initial_controller(board, state, label)
        changed = changed.remove(label) if start == piece.side else changed.set(label, piece.side)
        if piece.side == GERMAN and start != GERMAN:
            ever.add(label)
    state = state.with_var(V_CONTROL, changed)
    return state.with_var(V_EVER_GERMAN, tuple(sorted(ever)))


def garrison_nation(board: Board, state: GameState, label: str) -> str | None:
    """[11.21] The nation of the hex's intrinsic garrison (None: no garrison, or it is lost).

    Soviet: east-map cities that began Soviet-controlled (not Moscow) and printed Soviet
    forts. German: Ruhr cities, Greater Germany cities on both maps, printed west-map
    German forts. Dutch: cities and printed forts in Holland."""
    key = ("garrisons", variant(state))
    table = board.memo.get(key)
    if table is None:
        table = board.memo[key] = {h: _garrison(board, state, h) for h in board.hexes}
    found: str | None = table[label]
    if found is not None and label in state.var(GARRISONS_LOST, ()):
        return None
    return found


def _garrison(board: Board, state: GameState, label: str) -> str | None:
    h = board.hex(label)
    start = initial_controller(board, state, label)
    if h.map_id == EAST and start == SOVIET and (h.city or h.fortified) and label != MOSCOW:
        return SOVIET
    if h.region == GREATER_GERMANY and (h.ruhr or h.city or (h.map_id == WEST and h.fortified)):
        return GERMAN
    if h.region == HOLLAND and (h.city or h.fortified):
        return NAT_DUTCH
    return None


def garrison_blocks(game: Game, board: Board, state: GameState, label: str,
                    piece: Piece) -> bool:
    """An intrinsic garrison holds its hex against enemy movement: it must be assaulted
    (our reading of 10.7 with 8.7 and 11.21; NOTES.md)."""
    g = garrison_nation(board, state, label)
    if g is None:
        return False
    if g == NAT_DUTCH:
        return units.nation(game, piece) != NAT_DUTCH
    return units.enemies(g, piece.side)
