"""The German east map sequence [5.3, 6.10]: declared at the start of each German player
turn, move/fight or fight/move (fight/move: +1 column to every east prepared assault, a
combat-step effect). West-map Germans and everyone else always move then fight [5.3, 3.9];
after Ploesti falls the Germans must use move/fight in the east [6.10]."""

from __future__ import annotations

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Action, Button, Event, Outcome, Prompt
from wartable.games.whatif1940.ids import FIGHT_MOVE, GERMAN, MOVE_FIGHT, V_EAST_ORDER, V_PLOESTI
from wartable.model.state import GameState

VERB = "declare_order"
LABELS = {MOVE_FIGHT: "Move, then fight", FIGHT_MOVE: "Fight, then move (+1 column)"}


def enter(state: GameState) -> Outcome:
    """Every turn starts at move/fight; after Ploesti there is nothing to declare."""
    state = state.with_var(V_EAST_ORDER, MOVE_FIGHT)
    if state.var(V_PLOESTI, False):
        ev = Event("info", "Ploesti has fallen: the east map uses move/fight [6.10]",
                   GERMAN, "6.10")
        return Outcome(state, (ev,), auto_end=True)
    return Outcome(state)


def prompt(state: GameState, text: str, rule: str) -> Prompt:
    buttons = tuple(Button(VERB, label, rule, args=FrozenMap(order=o))
                    for o, label in LABELS.items())
    return Prompt(GERMAN, text, rule, buttons=buttons)


def apply(state: GameState, action: Action) -> Outcome:
    order = action.args.get("order")
    if order not in LABELS:
        raise IllegalAction("Declare 'move_fight' or 'fight_move' [5.3].")
    if order == FIGHT_MOVE and state.var(V_PLOESTI, False):
        raise IllegalAction("After Ploesti falls the east map uses move/fight [6.10].")
    state = state.with_var(V_EAST_ORDER, order)
    ev = Event("info", f"German east map sequence this turn: {LABELS[order].lower()}", GERMAN,
               "5.3")
    return Outcome(state, (ev,))


def move_first(state: GameState) -> bool:
    return bool(state.var(V_EAST_ORDER, MOVE_FIGHT) != FIGHT_MOVE)
