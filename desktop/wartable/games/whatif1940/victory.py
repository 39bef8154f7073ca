"""How to win [4.1-4.4]. Enforced here: the Allied sudden-death Ruhr victory [4.2] and the
end-of-game default victory or draw [4.4], and the German win on the Moscow Falls Table
[4.3] (rolled by steps/moscow.py, which records the result in V_GERMAN_WIN)."""

from __future__ import annotations

from wartable.engine.rules import Game
from wartable.games.whatif1940 import units
from wartable.games.whatif1940.board import Board
from wartable.games.whatif1940.ids import (
    ALLIED_SIDES,
    DEAD,
    NAT_BELGIAN,
    NAT_BRITISH,
    NAT_FRENCH,
    V_GERMAN_WIN,
)
from wartable.model.state import GameState


def sudden_death(game: Game, board: Board, state: GameState) -> str | None:
    """[4.2] Play stops the instant any Allied unit is in a Ruhr city hex, however it got
    there and whatever its supply. [4.3] A "Moscow falls" roll wins for the Germans."""
    german: str | None = state.var(V_GERMAN_WIN)
    if german:
        return german
    for p in state.pieces.values():
        if p.side in ALLIED_SIDES and board.on_map(p.location) and \
                board.hex(p.location).ruhr and units.is_ground(game, p):
            return (f"The Allies win: an Allied unit has entered the Ruhr city hex "
                    f"{p.location} [4.2].")
    return None


def default_result(game: Game, state: GameState) -> str:
    """[4.4] After turn 11 the Allies win, unless an Anglo-French or Belgian corps is in the
    dead pile: then the game is drawn."""
    for p in state.pieces.values():
        if p.location == DEAD and units.nation(game, p) in (NAT_BRITISH, NAT_FRENCH,
                                                              NAT_BELGIAN):
            return "Draw: the Germans did not win, but Anglo-French or Belgian corps died [4.4]."
    return "The Allies win: the Germans have not won by the end of turn 11 (Nov II) [4.4]."
