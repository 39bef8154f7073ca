"""Where eliminated units go [2.11, 9.6, 9.10]."""

from __future__ import annotations

from dataclasses import replace

from wartable.engine.actions import Event, Outcome
from wartable.engine.rules import Game
from wartable.games.whatif1940 import hidden
from wartable.games.whatif1940.ids import A_STEP, DEAD, box
from wartable.model.state import GameState, Piece

SOVIET_REPLACEMENTS = box("soviet_replacements")
SOVIET_SET_ASIDE = box("soviet_set_aside")


def eliminate(game: Game, state: GameState, piece: Piece, rule: str) -> Outcome:
    """Remove a unit to its dead pile.

    Soviet regulars go untried side up to the replacement pile [9.10]. A Juggernaut leaves
    the game and its red-dot regular counterpart (same army number) joins that pile [9.6].
    Everything else goes to the dead pile [2.11]."""
    name = hidden.display_name(game, state, piece)
    events = [Event("loss", f"{name} is eliminated", piece.side, rule)]
    attrs = piece.attrs.remove(A_STEP) if A_STEP in piece.attrs else piece.attrs
    if piece.type == "sov_regular":
        state = hidden.hide(state, replace(piece, location=SOVIET_REPLACEMENTS, attrs=attrs))
    else:
        state = state.with_piece(replace(piece, location=DEAD, attrs=attrs))
    if piece.type == "sov_juggernaut":
        army = hidden.true_name(state, piece)
        for q in state.pieces_at(SOVIET_SET_ASIDE):
            if q.attrs.get("red_dot") and hidden.true_name(state, q) == army:
                state = hidden.hide(state, replace(q, location=SOVIET_REPLACEMENTS))
                events.append(Event("info", "Its red-dot regular counterpart enters the "
                                    "Soviet replacement pile", piece.side, "9.6"))
                break
    return Outcome(state, tuple(events))
