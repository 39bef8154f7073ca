"""III.A Anglo-French Armor Doctrine Phase. Enforced so far: the Ardennes roll [10.10]
("at the start of his player turn" from turn 2: a 1 opens the Ardennes, which are then
forest for the rest of the game). The tank corps and Tank Army rolls [9.2-9.4] are a
later part."""

from __future__ import annotations

from typing import Any

from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Event, Outcome
from wartable.engine.loop import roll_then
from wartable.engine.rules import Game
from wartable.games.whatif1940.ids import ANGLO_FRENCH, V_ARDENNES_OPEN
from wartable.model.state import GameState

RESUME = "ardennes"


def enter(game: Game, state: GameState) -> Outcome:
    if state.var(V_ARDENNES_OPEN, False):
        return Outcome(state)
    return roll_then(game, state, count=1, sides=6, purpose="Ardennes roll",
                     side=ANGLO_FRENCH, resume=RESUME, rule="10.10")


def resume(state: GameState, data: FrozenMap[str, Any], dice: tuple[int, ...]) -> Outcome:
    if dice[0] == 1:
        ev = Event("info", "The Ardennes are open: forest for the rest of the game",
                   ANGLO_FRENCH, "10.10")
        return Outcome(state.with_var(V_ARDENNES_OPEN, True), (ev,))
    return Outcome(state, (Event("info", "The Ardennes stay closed", ANGLO_FRENCH, "10.10"),))
