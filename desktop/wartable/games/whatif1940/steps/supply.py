"""Terminal Supply Check Phases I.H, II.D and III.D [6.8].

Every unit of the phasing player's side on the maps found out of supply loses one step: a
two-step unit at full strength is reduced, a reduced or one-step unit is eliminated. Units in
holding boxes are not checked (ours, NOTES.md). All units are judged on the phase's opening
position, then the losses are taken, so the order of the losses changes nothing [6.8].
The step resolves itself (no choices) and ends at once.
"""

from __future__ import annotations

from dataclasses import replace

from wartable.engine.actions import Event, Outcome
from wartable.engine.rules import Game
from wartable.games.whatif1940 import fog, hidden, supply, units
from wartable.games.whatif1940.board import Board
from wartable.games.whatif1940.handlers import StepHandler
from wartable.games.whatif1940.ids import A_STEP
from wartable.games.whatif1940.steps import losses
from wartable.model.sequence import Position
from wartable.model.state import GameState, Piece

KIND = "terminal_supply"


def checked(game: Game, board: Board, state: GameState, side: str) -> list[Piece]:
    """[6.8] The units the phase checks: the side's ground units on the maps."""
    return sorted((p for p in state.pieces.values()
                   if p.side == side and board.on_map(p.location) and units.is_ground(game, p)),
                  key=lambda p: p.id)


def lose_step(game: Game, state: GameState, piece: Piece, why: str) -> Outcome:
    """[2.11, 6.8] One step lost: flip a full two-step unit, else eliminate it.

    A unit the enemy may not see (beneath the top of its stack [7.3]) is named to its
    owner only; the enemy reads that a hidden unit there lost a step, which the map shows
    him anyway when the stack shrinks (issue 15: "V French Corps is reduced" was public)."""
    secret = _hidden_from_enemy(game, state, piece)
    name = hidden.display_name(game, state, piece)
    if units.steps_left(game, piece) >= 2:
        state = state.with_piece(replace(piece, attrs=piece.attrs.set(A_STEP, 2)))
        out = Outcome(state, (Event("loss", f"{name} is reduced: {why}", piece.side, "6.8"),))
        what = "is reduced"
    else:
        out = losses.eliminate(game, state, piece, "6.8")
        note = Event("loss", f"{name} loses its last step: {why}", piece.side, "6.8")
        out = Outcome(out.state, (note,) + out.events)
        what = "loses its last step"
    if not secret:
        return out
    public = Event("loss", f"A {game.definition.side(piece.side).name} unit beneath the top "
                   f"of the stack at {piece.location} {what}: out of supply", piece.side,
                   "6.8, 7.3")
    return Outcome(out.state, tuple(replace(e, private_to=e.private_to or piece.side)
                                    for e in out.events) + (public,))


def _hidden_from_enemy(game: Game, state: GameState, piece: Piece) -> bool:
    """Is `piece` beneath the top of its stack for some enemy side now [7.3]?"""
    for side in game.definition.side_ids:
        if units.camp(side) == units.camp(piece.side):
            continue
        if any(p.id == piece.id for p in fog.hidden_from(game, state, side).get(
                piece.location, ())):
            return True
    return False


def check(game: Game, board: Board, state: GameState, side: str) -> Outcome:
    victims = [(p, supply.status(game, board, state, p)) for p in checked(game, board, state,
                                                                          side)]
    victims = [(p, s) for p, s in victims if not s.supplied]
    out = Outcome(state)
    for p, s in victims:
        out = out.then(lose_step(game, out.state, out.state.piece(p.id), s.reason))
    if not victims:
        name = game.definition.side(side).name
        out = Outcome(state, (Event("info", f"Terminal supply check: every {name} unit is in "
                                    "supply", side, "6.8"),))
    return out


class TerminalSupply(StepHandler):
    def enter(self, game: Game, board: Board, state: GameState, pos: Position) -> Outcome:
        out = check(game, board, state, pos.side)
        return replace(out, auto_end=True)
