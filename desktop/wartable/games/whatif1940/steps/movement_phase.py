"""A movement phase's prompt [5.2, 5.3]: the moves of every unit that may move [10.1-10.14],
the neutrality buttons [12.9], mobile assaults [10.15] and the 7th Flieger's airdrop [8.7].
The moves' rules: steps/movement.py; the other verbs live in their own modules, which build
on movement (so this prompt sits above all of them)."""

from __future__ import annotations

from typing import Any

from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Prompt
from wartable.engine.loop import end_step_button
from wartable.engine.rules import Game
from wartable.games.whatif1940 import units
from wartable.games.whatif1940.board import Board
from wartable.games.whatif1940.ids import A_MP_USED, ANGLO_FRENCH
from wartable.games.whatif1940.steps import flieger, mobile_assault, neutrality
from wartable.games.whatif1940.steps.movement import (
    STEP_MOVERS,
    Memo,
    Reach,
    cost_class,
    may_move,
    movers,
    mp_left,
    reach_of,
)
from wartable.model.state import GameState


def prompt(game: Game, board: Board, state: GameState, step_id: str, text: str,
           rule: str) -> Prompt:
    side, map_id = STEP_MOVERS[step_id]
    moves: dict[str, tuple[str, ...]] = {}
    costs: dict[str, FrozenMap[str, float]] = {}
    shared: dict[tuple[Any, ...], Reach] = {}
    memos: dict[tuple[Any, ...], tuple[Memo, Memo]] = {}
    for p in movers(game, board, state, step_id):
        if not may_move(state, p):
            continue
        # Units alike in place, class, MP and nationality reach alike: compute once.
        kind = (cost_class(game, state, p), units.nation(game, p), units.is_cavalry(game, p),
                units.is_mech(game, p), units.is_top_rung(game, p))
        key = (p.location, mp_left(game, state, p, map_id),
               float(p.attrs.get(A_MP_USED, 0.0)) == 0.0, *kind)
        r = shared.get(key)
        if r is None:
            m = memos.setdefault(kind, ({}, {}))
            r = shared[key] = reach_of(game, board, state, (p,), map_id, m)
        if r.costs:
            moves[p.id] = tuple(sorted(r.costs))
            costs[p.id] = FrozenMap(r.costs)
    buttons = neutrality.buttons(game, state) if side == ANGLO_FRENCH else ()
    buttons += mobile_assault.buttons(game, board, state, step_id)  # [10.15]
    buttons += flieger.buttons(game, board, state, step_id)  # [8.7] the 7th's airdrop
    return Prompt(side, text, rule, moves=FrozenMap(moves), costs=FrozenMap(costs),
                  buttons=buttons + (end_step_button(),))
