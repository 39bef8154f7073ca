"""Small helpers for the kit's tests: start a game, act, read the events."""

from __future__ import annotations

from typing import Any

from wartable.engine.actions import END_STEP, Action, Outcome
from wartable.engine.loop import apply, new_game
from wartable.engine.rules import Game
from wartable.model.state import GameState


def start(game: Game, **kw: Any) -> GameState:
    state, _ = new_game(game, "opening", **kw)
    return state


def act(game: Game, state: GameState, verb: str, side: str = "axis", **args: Any) -> Outcome:
    return apply(game, state, Action.make(verb, side, **args))


def texts(out: Outcome, kind: str | None = None) -> list[str]:
    return [e.text for e in out.events if kind is None or e.kind == kind]


def end_step(game: Game, state: GameState) -> Outcome:
    return apply(game, state, Action(END_STEP, state.active_side))
