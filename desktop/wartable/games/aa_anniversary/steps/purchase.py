"""Phase 2: Purchase Units (pg. 12) and China's free infantry (China Rules, pg. 10).

A power buys any units its IPCs pay for, one "buy" at a time; they wait in the
mobilization zone until Phase 6. China buys nothing: as its purchase phase begins it sets
aside one infantry for every two Chinese territories not under Axis control.
Repairs of damaged industrial complexes are bought here too (steps/bombing.py).
"""

from __future__ import annotations

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Action, Button, Event, Outcome, Prompt
from wartable.engine.loop import end_step_button
from wartable.engine.rules import Game
from wartable.games.aa_anniversary import research
from wartable.games.aa_anniversary.steps import bombing
from wartable.games.aa_anniversary.steps.common import (
    MOBILIZATION,
    allied,
    controller,
    ipcs,
    with_ipcs,
    world,
)
from wartable.model.state import GameState, Piece

R_PURCHASE = "Phase 2: Purchase Units (pg. 12)"
R_CHINA = "China Rules (pg. 10)"


def cost(game: Game, unit: str) -> int:
    return world(game).catalog[unit].cost


def prompt(game: Game, state: GameState, power: str, text: str, rule: str) -> Prompt:
    if power == "china":
        return Prompt(power, "China buys nothing: its new infantry are set aside "
                      "[China Rules].", R_CHINA, buttons=(end_step_button(),))
    have = ipcs(state, power)
    buttons = []
    for uid in game.definition.unit_types:
        k = research.unit_cost(game, state, power, uid)  # Improved Shipyards
        buttons.append(Button("buy", f"{game.definition.unit_types[uid].name} ({k} IPCs)",
                              R_PURCHASE, enabled=k <= have,
                              reason="" if k <= have else f"{have} IPCs left",
                              args=FrozenMap(unit=uid)))
    return Prompt(power, f"{text} {have} IPCs left.", rule,
                  targets=FrozenMap(buy=tuple(game.definition.unit_types)),
                  buttons=(*buttons, *bombing.repair_buttons(game, state, power),
                           end_step_button()))


def new_piece(state: GameState, power: str, unit: str) -> tuple[GameState, Piece]:
    n = int(state.var("next_id", 1))
    p = Piece(f"{power}.{unit}.n{n}", unit, power, MOBILIZATION, FrozenMap(new=True))
    state = state.with_var("next_id", n + 1).with_piece(p)
    return state.with_var("bought_total", int(state.var("bought_total", 0)) + 1), p


def buy(game: Game, state: GameState, power: str, action: Action) -> Outcome:
    unit = action.args.get("unit")
    if power == "china":
        raise IllegalAction(f"China does not buy units [{R_CHINA}].")
    if not isinstance(unit, str) or unit not in game.definition.unit_types:
        raise IllegalAction(f"There is no unit type {unit!r}.")
    k = research.unit_cost(game, state, power, unit)  # Improved Shipyards
    have = ipcs(state, power)
    if k > have:
        raise IllegalAction(f"A {unit} costs {k} IPCs; you have {have} [{R_PURCHASE}].")
    state, p = new_piece(with_ipcs(state, power, have - k), power, unit)
    return Outcome(state, (Event("purchase", f"{game.definition.side(power).name} buys "
                                 f"{game.definition.unit_types[unit].name} ({k} IPCs, "
                                 f"{have - k} left)", power, R_PURCHASE,
                                 data=FrozenMap(bought=unit, cost=k, left=have - k)),))


def china_infantry(game: Game, state: GameState) -> Outcome:
    """One infantry per two Chinese territories not under Axis control (rounded down), China
    Rules (pg. 10); Kwangtung counts while China controls it."""
    w = world(game)
    free = sum(1 for s, o in w.original.items()
               if o == "china" and allied(game, controller(state, s) or "china", "china"))
    # Kwangtung held by China (while the U.K. capital is in Axis hands) counts too.
    free += controller(state, "kwangtung") == "china"
    n = free // 2
    for _ in range(n):
        state, _p = new_piece(state, "china", "infantry")
    return Outcome(state, (Event("purchase", f"China sets aside {n} infantry ({free} Chinese "
                                 f"territories free of the Axis)", "china", R_CHINA,
                                 data=FrozenMap(china_infantry=n, free=free)),))
