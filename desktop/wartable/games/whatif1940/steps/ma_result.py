"""How a mobile assault's battle ends [10.19, 10.20], applied when its combat ends
(steps/combat.py); the declaration and who may assault: steps/mobile_assault.py."""

from __future__ import annotations

from dataclasses import replace

from wartable.engine.actions import Event, Outcome
from wartable.engine.rules import Game
from wartable.games.whatif1940 import hidden
from wartable.games.whatif1940.board import Board
from wartable.games.whatif1940.ids import A_DONE, A_MP_USED
from wartable.games.whatif1940.steps import control
from wartable.model.state import GameState


def succeed(game: Game, board: Board, state: GameState, ids: tuple[str, ...], target: str,
            mp_cost: float) -> Outcome:
    """[10.20] The cleared hex is entered; the force may move on with the MP left."""
    events = []
    for pid in ids:
        p = state.piece(pid)
        if not board.on_map(p.location):
            continue
        used = float(p.attrs.get(A_MP_USED, 0.0)) + mp_cost
        state = state.with_piece(replace(p, location=target,
                                         attrs=p.attrs.set(A_MP_USED, used)))
        state = control.enter(game, board, state, state.piece(pid), (target,))
        events.append(Event("move", f"{hidden.display_name(game, state, p)}: mobile assault "
                            f"{p.location} → {target} ({mp_cost:g} MP)", p.side, "10.20"))
    return Outcome(state, tuple(events))


def fail(game: Game, board: Board, state: GameState, ids: tuple[str, ...]) -> Outcome:
    """[10.19] Survivors stay in the launch hex and stop for the phase."""
    names = []
    for pid in ids:
        p = state.piece(pid)
        if board.on_map(p.location):
            state = state.with_piece(p.with_attr(A_DONE, True))
            names.append(hidden.display_name(game, state, p))
    if not names:
        return Outcome(state)
    return Outcome(state, (Event("combat", f"The mobile assault failed: {', '.join(names)} "
                                 "stay in the launch hex and stop [10.19]", state.piece(
                                     ids[0]).side, "10.19"),))
