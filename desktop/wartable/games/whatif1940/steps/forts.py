"""Semi-permanent Soviet forts lost to the Germans [9.8]: "whenever the German player takes
control of a hex containing a fortification counter" the marker goes back to the Soviet
pool, to be built again on a later roll. Called wherever German units take hexes (movement
here; the combat part's advances should call it too) and as II.E and I.F start."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from wartable.engine.actions import Event, Outcome
from wartable.engine.rules import Game
from wartable.games.whatif1940.board import Board
from wartable.games.whatif1940.ids import GERMAN, SOVIET, SOVIET_FORTS
from wartable.games.whatif1940.steps import control
from wartable.model.state import GameState

FORT = "sov_fort"


def return_lost(game: Game, board: Board, state: GameState,
                hexes: Iterable[str] | None = None) -> Outcome:
    """Every fort in a German-controlled hex (of `hexes`, or anywhere) back to the Soviet
    pool [9.8]."""
    events = []
    pieces = state.pieces.values() if hexes is None else \
        [p for h in hexes for p in state.pieces_at(h)]
    for p in sorted(pieces, key=lambda p: p.id):
        if p.type == FORT and board.on_map(p.location) and \
                control.controller(board, state, p.location) == GERMAN:
            events.append(Event("info", f"The fort at {p.location} is lost to the Germans and "
                                "returns to the Soviet pool", SOVIET, "9.8"))
            state = state.with_piece(replace(p, location=SOVIET_FORTS))
    return Outcome(state, tuple(events))
