"""Shared setup of the Anniversary Edition rule tests: the game on the world map, a new
1941/1942 game with physical dice, a state positioned at a power's step, a hand-built table,
and one-line actions and checks. Each test file imports what it needs from here."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Action
from wartable.engine.loop import apply, new_game, prompt
from wartable.engine.rules import Game
from wartable.games.aa_anniversary.rules import AARules
from wartable.maps.mapfile import load_map
from wartable.model.state import GameState, Piece
from wartable.persistence.gamedata import load_definition

ROOT = Path(__file__).resolve().parents[3]


@lru_cache(maxsize=1)
def game() -> Game:
    d = load_definition("wartable.games.aa_anniversary.data")
    m = load_map((ROOT / "maps/aa_anniversary/world.json.gz").read_bytes(), "world")
    return Game(d, AARules(), FrozenMap({"aa_anniversary/world": m}))


def start(scenario: str = "1941", dice: str = "physical") -> GameState:
    """A new game of `scenario`, no options; physical dice so each test says what was rolled."""
    return new_game(game(), scenario, seed=1, dice_mode=dice)[0]


def at(state: GameState, power: str, kind: str) -> GameState:
    """The state positioned at `power`'s step of `kind` (1941 order: slot = power)."""
    g = game()
    for pos in g.positions:
        if pos.side == power and pos.step.kind == kind:
            st = replace(state, step_index=pos.index, active_side=power, frames=())
            return g.rules.enter_step(g, st, pos).state
    raise AssertionError(kind)


def board(state: GameState, *units: tuple[str, str, str]) -> GameState:
    """Only these units on the table: (id, type, location); the side is the id's prefix."""
    pieces = {pid: Piece(pid, t, pid.split(".")[0], loc) for pid, t, loc in units}
    return replace(state, pieces=FrozenMap(pieces)).with_var("initial_units", len(pieces))


def act(state: GameState, verb: str, side: str, **args: object) -> GameState:
    return apply(game(), state, Action.make(verb, side, **args)).state


def moves(state: GameState, pid: str) -> tuple[str, ...]:
    return prompt(game(), state).moves.get(pid, ())


def dice_asked(state: GameState) -> int:
    """How many dice the current prompt asks for (fails if it asks for none)."""
    ask = prompt(game(), state).dice
    assert ask is not None, prompt(game(), state).text
    return ask.count


def no_problems(state: GameState) -> None:
    assert game().rules.invariants(game(), state) == []


def escorted_raid() -> GameState:
    """Conduct Combat, Germany: a bomber and an escort over the U.K.'s complex, two British
    fighters there, with Fighter Escorts and Interceptors (pg. 24) on."""
    st = board(start(), ("germany.bomber.1", "bomber", "united_kingdom"),
               ("germany.fighter.1", "fighter", "united_kingdom"),
               ("uk.factory.1", "factory", "united_kingdom"),
               ("uk.fighter.1", "fighter", "united_kingdom"),
               ("uk.fighter.2", "fighter", "united_kingdom"))
    st = replace(st, options=st.options.set("escorts_interceptors", True))
    return at(st, "germany", "conduct_combat")
