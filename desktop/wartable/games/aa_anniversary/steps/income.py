"""Phase 7: Collect Income (pg. 22) and How to Win (victory cities, pg. 6).

War Bonds (Breakthrough Chart 1) adds 1d6 IPCs after the income (steps/research.py)."""

from __future__ import annotations

from dataclasses import replace

from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Event, Outcome
from wartable.engine.rules import Game
from wartable.games.aa_anniversary.steps import objectives, research
from wartable.games.aa_anniversary.steps.common import controller, ipcs, with_ipcs, world
from wartable.model.state import GameState

R_INCOME = "Phase 7: Collect Income (pg. 22)"
R_WIN = "How to Win (pg. 6)"


def production(game: Game, state: GameState, power: str) -> int:
    """The IPC value of every territory the power controls (China earns none: China Rules)."""
    if power == "china":
        return 0
    return sum(v for s, v in world(game).ipc.items() if controller(state, s) == power)


def collect(game: Game, state: GameState, power: str) -> Outcome:
    """The production level, then the bonus of each met national objective (if the option
    is on; steps/objectives.py)."""
    n = production(game, state, power)
    state = with_ipcs(state, power, ipcs(state, power) + n)
    out = Outcome(state, (Event("income", f"{game.definition.side(power).name} collects {n} "
                                f"IPCs ({ipcs(state, power)} in the treasury)", power,
                                R_INCOME, data=FrozenMap(income=n, treasury=ipcs(state, power))),
                          )).then(
        replace(objectives.collect_bonus(game, state, power), auto_end=True))
    return out.then(research.war_bonds(game, out.state, power))  # War Bonds: 1d6 more IPCs


def victory_cities(game: Game, state: GameState, alliance: str) -> int:
    w = world(game)
    return sum(1 for s in w.victory if w.alliance.get(controller(state, s)) == alliance)


def check(game: Game, state: GameState) -> Outcome:
    goal = int(state.option("victory_cities", 15))
    evs = []
    for alliance, name in (("axis", "The Axis"), ("allies", "The Allies")):
        n = victory_cities(game, state, alliance)
        evs.append(Event("info", f"{name} hold {n} victory cities (goal {goal})", "", R_WIN))
        if n >= goal and state.result is None:
            res = f"{name} win: {n} victory cities held at the end of the round [{R_WIN}]."
            state = replace(state, result=res)
            evs.append(Event("victory", res, "", R_WIN))
    return Outcome(state, tuple(evs), auto_end=True)
