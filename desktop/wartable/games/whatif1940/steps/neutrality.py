"""Belgian and Dutch neutrality [3.6] and Luxembourg [3.7].

Only the Anglo-French may violate a neutral, by announcing it (here: a button in their
movement phase) before moving in. Holland: the Dutch pass at once and for good to the
German west commander. Belgium: one roll per game; frozen in place, or a pro-Allied
coup. The text's ranges overlap ("two through six" frozen, "six" coup); by default a 1
is the coup, option belgian_coup_on_six reads it as 1-5 frozen, 6 coup (NOTES.md).
Luxembourg needs no announcement; the movement step notes the first entry.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Action, Button, Event, Outcome
from wartable.engine.loop import roll_then
from wartable.engine.rules import Game
from wartable.games.whatif1940 import units
from wartable.games.whatif1940.ids import (
    ANGLO_FRENCH,
    GERMAN,
    NAT_DUTCH,
    V_BELGIUM,
    V_HOLLAND,
)
from wartable.model.state import GameState

VERB = "violate_neutrality"
RESUME = "belgian_coup"


def buttons(game: Game, state: GameState) -> tuple[Button, ...]:
    out = []
    if state.var(V_HOLLAND, "neutral") == "neutral":
        out.append(Button(VERB, "Violate Dutch neutrality", "3.6",
                          args=FrozenMap(country="holland")))
    if state.var(V_BELGIUM, "neutral") == "neutral":
        out.append(Button(VERB, "Violate Belgian neutrality (roll for a coup)", "3.6",
                          args=FrozenMap(country="belgium")))
    return tuple(out)


def apply(game: Game, state: GameState, action: Action) -> Outcome:
    country = action.args.get("country")
    if action.side != ANGLO_FRENCH:
        raise IllegalAction("Only the Anglo-French may violate a neutral [3.6].")
    if country == "holland":
        if state.var(V_HOLLAND, "neutral") != "neutral":
            raise IllegalAction("Dutch neutrality has already been violated [3.6].")
        state = state.with_var(V_HOLLAND, "violated")
        for p in sorted(state.pieces.values(), key=lambda p: p.id):
            if units.nation(game, p) == NAT_DUTCH:
                state = state.with_piece(replace(p, side=GERMAN))
        return Outcome(state, (Event("info", "The Anglo-French violate Dutch neutrality: the "
                                     "Dutch join the German west commander for good",
                                     ANGLO_FRENCH, "3.6"),))
    if country == "belgium":
        if state.var(V_BELGIUM, "neutral") != "neutral":
            raise IllegalAction("Belgian neutrality has already been violated [3.6].")
        return roll_then(game, state, count=1, sides=6, purpose="Belgian coup roll",
                         side=ANGLO_FRENCH, resume=RESUME, rule="3.6")
    raise IllegalAction("Name the country: holland or belgium [3.6].")


def resume(game: Game, state: GameState, data: FrozenMap[str, Any],
           dice: tuple[int, ...]) -> Outcome:
    coup_on = 6 if state.option("belgian_coup_on_six", False) else 1
    if dice[0] == coup_on:
        state = state.with_var(V_BELGIUM, "allied")
        text = "Pro-Allied coup in Belgium: the Belgians join the Allies for good"
    else:
        state = state.with_var(V_BELGIUM, "frozen")
        text = ("The Belgians stay frozen in their set-up hexes for the rest of the game; "
                "no one may attack them")
    return Outcome(state, (Event("info", text, ANGLO_FRENCH, "3.6"),))
