"""Shared helpers for the 1940: What If? tests: the game, a ready position, and ways to
put exactly the units a rule needs where it needs them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Action, Outcome
from wartable.engine.loop import apply, new_game
from wartable.engine.rules import Game
from wartable.games.whatif1940.board import Board, board_of
from wartable.model.state import GameState, Piece
from wartable.persistence.gamedata import load_game

ROOT = Path(__file__).resolve().parents[3]
DATA = "wartable.games.whatif1940.data"

@cache
def game() -> Game:
    """The installed game as the app loads it (its data and both built maps)."""
    return load_game("whatif1940")


def board() -> Board:
    return board_of(game())


def start(seed: int = 1, **options: Any) -> GameState:
    state, _ = new_game(game(), "standard", FrozenMap(options), seed)
    return state


def act(state: GameState, verb: str, side: str, **args: Any) -> GameState:
    return do(state, verb, side, **args).state


def do(state: GameState, verb: str, side: str, **args: Any) -> Outcome:
    return apply(game(), state, Action.make(verb, side, **args))


def ready(seed: int = 1, **options: Any) -> GameState:
    """Turn 1, after every side has set up automatically."""
    state = start(seed, **options)
    for side in ("soviet", "german", "german", "anglo_french"):
        state = act(state, "auto_setup", side)
        state = act(state, "end_step", side)
    return state


def step_id(state: GameState) -> str:
    return game().position(state).step.id


def goto(state: GameState, step: str, turn: int | None = None) -> GameState:
    """Jump to a step of the sequence (entering it as the engine would)."""
    g = game()
    pos = next(p for p in g.positions if p.step.id == step)
    st = replace(state, step_index=pos.index, turn=turn or state.turn, frames=(),
                 active_side=pos.side if pos.side != "*" else state.active_side)
    return g.rules.enter_step(g, st, pos).state


def clear(state: GameState) -> GameState:
    """Every counter off the maps (to the dead pile), for a clean test position."""
    b = board()
    for p in state.pieces.values():
        if b.on_map(p.location):
            state = state.with_piece(replace(p, location="box:dead"))
    return state


@cache
def ready_default() -> GameState:
    """`ready()` with the default seed and options, made once per test session."""
    return ready()


def base() -> GameState:
    """Turn 1 after set-up with every counter off the maps."""
    return clear(ready_default())


def plain(h: str) -> bool:
    """A clear hex with no red row, city, town or fortification (no terrain shift)."""
    x = board().hex(h)
    return x.terrain == "clear" and not (x.red_row or x.city or x.town or x.fortified)


# Every aircraft of the counter mix: tests move them off the map or use them in order.
AIR = ("german.ger_aircraft.1", "german.ger_aircraft.2", "german.ger_aircraft.3",
       "german.ger_aircraft.4", "anglo_french.brit_aircraft.1", "anglo_french.fr_aircraft.1",
       "soviet.sov_aircraft.1")


def put(state: GameState, piece_id: str, location: str, **attrs: Any) -> GameState:
    p = state.piece(piece_id)
    a = p.attrs
    for k, v in attrs.items():
        a = a.set(k, v)
    return state.with_piece(replace(p, location=location, attrs=a))


def ids(state: GameState, type_: str, n: int) -> list[str]:
    """n piece ids of a unit type (lowest ids first)."""
    found = sorted(p.id for p in state.pieces.values() if p.type == type_)
    assert len(found) >= n, (type_, len(found))
    return found[:n]


def pair(pred: Callable[[str, str], bool], map_id: str | None = None) -> tuple[str, str]:
    """The first pair of adjacent hexes (a, b) for which pred holds."""
    b = board()
    for a in b.labels(map_id):
        for n in b.neighbors[a]:
            if pred(a, n):
                return a, n
    raise AssertionError("no such pair of hexes on the maps")


def piece_at(state: GameState, location: str) -> list[Piece]:
    return list(state.pieces_at(location))


def moves(state: GameState, piece_id: str) -> dict[str, float]:
    """Legal destinations with their MP costs, as the prompt offers them."""
    from wartable.engine.loop import prompt

    p = prompt(game(), state)
    return dict(p.costs.get(piece_id, {}))
