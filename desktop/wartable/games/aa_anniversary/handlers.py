"""Axis & Allies Anniversary: each step kind, frame kind, dice resumption and sequence
condition registered in the game's RuleTable (engine/steps.py). The rules themselves stay in
steps/: a handler says which function of which step module answers which hook.

Every step handler reads the power whose turn it is from `state.active_side` (rules.py makes
the scenario's Order of Play power active on entering each step, pg. 11).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Action, Outcome, Prompt
from wartable.engine.rules import Game
from wartable.engine.steps import FunctionFrame, Resume, RuleTable, StepHandler
from wartable.games.aa_anniversary.steps import (
    battle,
    bombing,
    income,
    landing,
    mobilize,
    movement,
    purchase,
)
from wartable.games.aa_anniversary.steps import research as research_step
from wartable.games.aa_anniversary.steps.battle import conclude, forces
from wartable.games.aa_anniversary.steps.common import capital_held, turn_power
from wartable.model.sequence import Position
from wartable.model.state import GameState

_TURN_ATTRS = ("origin", "via", "mp", "cm", "nm", "captured_aa", "landed", "unloaded", "amphibious",
               "raided", "bombarded", "assault", "mech", "para")  # mech, para: research.carriers


def _text(pos: Position) -> str:
    return pos.step.prompt or pos.step.name


class Research(StepHandler):
    """Phase 1: Research & Development (pg. 12)."""

    def enter(self, game: Game, state: GameState, pos: Position) -> Outcome:
        return research_step.enter(game, state, turn_power(game, state))

    def can_end(self, game: Game, state: GameState, pos: Position) -> str | None:
        return research_step.can_end(state, state.active_side)

    def prompt(self, game: Game, state: GameState, pos: Position) -> Prompt:
        return research_step.prompt(game, state, state.active_side, _text(pos), pos.step.rule)

    def apply(self, game: Game, state: GameState, pos: Position,
              action: Action) -> Outcome | None:
        return research_step.apply(game, state, state.active_side, action)


class Purchase(StepHandler):
    """Phase 2: Purchase Units and repair industrial complexes (pg. 13, 26)."""

    def enter(self, game: Game, state: GameState, pos: Position) -> Outcome:
        if turn_power(game, state) == "china":
            return purchase.china_infantry(game, state)
        return Outcome(state)

    def prompt(self, game: Game, state: GameState, pos: Position) -> Prompt:
        return purchase.prompt(game, state, state.active_side, _text(pos), pos.step.rule)

    def apply(self, game: Game, state: GameState, pos: Position,
              action: Action) -> Outcome | None:
        if action.verb == "buy":
            return purchase.buy(game, state, state.active_side, action)
        if action.verb == "repair":
            return bombing.repair(game, state, state.active_side, action)
        return None


class Move(StepHandler):
    """Phase 3: Combat Move (pg. 14) and Phase 5: Noncombat Move (pg. 21)."""

    def __init__(self, combat: bool) -> None:
        self.combat = combat

    def enter(self, game: Game, state: GameState, pos: Position) -> Outcome:
        if not self.combat:
            return Outcome(state)
        return Outcome(movement.start_turn(game, new_turn(state, turn_power(game, state))))

    def exit(self, game: Game, state: GameState, pos: Position) -> Outcome:
        if self.combat:
            return Outcome(state)
        return movement.land_aircraft(game, state, state.active_side)

    def can_end(self, game: Game, state: GameState, pos: Position) -> str | None:
        if self.combat:  # Transports (pg. 15): cargo loaded must assault
            return movement.combat_move_can_end(game, state, state.active_side)
        # carriers must move to their fighters (pg. 21)
        return movement.noncombat_can_end(game, state, state.active_side)

    def prompt(self, game: Game, state: GameState, pos: Position) -> Prompt:
        return movement.prompt(game, state, state.active_side, self.combat, _text(pos),
                               pos.step.rule)

    def apply(self, game: Game, state: GameState, pos: Position,
              action: Action) -> Outcome | None:
        if action.verb != "move":
            return None
        return movement.move(game, state, state.active_side, action, self.combat)


class ConductCombat(StepHandler):
    """Phase 4: Conduct Combat (pg. 17), strategic bombing raids and rockets (pg. 26)."""

    def enter(self, game: Game, state: GameState, pos: Position) -> Outcome:
        return Outcome(state.with_var("resolved", ()).with_var("battle", None))

    def exit(self, game: Game, state: GameState, pos: Position) -> Outcome:
        state = conclude.repair(game, state)  # interceptors land after all the combats
        return bombing.land_interceptors(game, state)

    def can_end(self, game: Game, state: GameState, pos: Position) -> str | None:
        todo = forces.battles(game, state, state.active_side)
        if todo:
            return f"Resolve every battle first: {', '.join(todo)} [{forces.R_PHASE}]."
        return None

    def prompt(self, game: Game, state: GameState, pos: Position) -> Prompt:
        return battle.prompt(game, state, state.active_side, _text(pos), pos.step.rule)

    def apply(self, game: Game, state: GameState, pos: Position,
              action: Action) -> Outcome | None:
        power = state.active_side
        if action.verb == "ignore":
            if state.var("battle") or state.var("raid"):
                raise IllegalAction("Finish the battle in progress first.")
            return battle.ignore(game, state, power, action)
        if action.verb in ("raid", "no_raid", "rocket"):
            if state.var("battle") or state.var("raid"):
                raise IllegalAction("Finish the battle in progress first.")
            return {"raid": bombing.raid, "no_raid": bombing.no_raid,
                    "rocket": bombing.rocket}[action.verb](game, state, power, action)
        if action.verb == "fight":
            if state.var("battle"):
                raise IllegalAction("Finish the battle in progress first.")
            return battle.fight(game, state, power, action)
        return None


class Mobilize(StepHandler):
    """Phase 6: Mobilize New Units (pg. 22); fighters waiting for a new carrier (pg. 26)."""

    def enter(self, game: Game, state: GameState, pos: Position) -> Outcome:
        return Outcome(state.with_var("placed", FrozenMap()))

    def exit(self, game: Game, state: GameState, pos: Position) -> Outcome:
        return landing.after_mobilize(game, state, state.active_side)

    def can_end(self, game: Game, state: GameState, pos: Position) -> str | None:
        return landing.mobilize_can_end(game, state, state.active_side)

    def prompt(self, game: Game, state: GameState, pos: Position) -> Prompt:
        return mobilize.prompt(game, state, state.active_side, _text(pos), pos.step.rule)

    def apply(self, game: Game, state: GameState, pos: Position,
              action: Action) -> Outcome | None:
        if action.verb != "move":
            return None
        return mobilize.place(game, state, state.active_side, action)


class CollectIncome(StepHandler):
    """Phase 7: Collect Income (pg. 23)."""

    def enter(self, game: Game, state: GameState, pos: Position) -> Outcome:
        return income.collect(game, state, turn_power(game, state))


class VictoryCheck(StepHandler):
    """How to Win (pg. 7): checked at the end of each round."""

    def enter(self, game: Game, state: GameState, pos: Position) -> Outcome:
        return income.check(game, state)


def new_turn(state: GameState, power: str) -> GameState:
    """A power's units start each turn with full movement (Combat Move, pg. 14)."""
    state = state.with_var("captured", ())
    for p in state.pieces.values():
        if p.side == power and any(k in p.attrs for k in _TURN_ATTRS):
            attrs = p.attrs
            for k in _TURN_ATTRS:
                attrs = attrs.remove(k) if k in attrs else attrs
            state = state.with_piece(replace(p, attrs=attrs))
    return state


def _battle_resume(name: str) -> Resume:
    def resume(game: Game, state: GameState, data: FrozenMap[str, Any],
               dice: tuple[int, ...]) -> Outcome:
        return battle.resume(game, state, name, dice)
    return resume


def _named_resume(fn: Callable[[Game, GameState, str, FrozenMap[str, Any], tuple[int, ...]],
                                Outcome], name: str) -> Resume:
    """A step module's resume(game, state, name, data, dice), for one name."""
    def resume(game: Game, state: GameState, data: FrozenMap[str, Any],
               dice: tuple[int, ...]) -> Outcome:
        return fn(game, state, name, data, dice)
    return resume


def _capital_held(game: Game, state: GameState) -> bool:
    return capital_held(game, state, turn_power(game, state))


_BATTLE = FunctionFrame(battle.frame_prompt, battle.frame_apply)
_BOMBING = FunctionFrame(bombing.frame_prompt, bombing.frame_apply)

TABLE = RuleTable(
    steps={
        "research": Research(),
        "purchase": Purchase(),
        "combat_move": Move(combat=True),
        "conduct_combat": ConductCombat(),
        "noncombat_move": Move(combat=False),
        "mobilize": Mobilize(),
        "collect_income": CollectIncome(),
        "victory_check": VictoryCheck(),
    },
    frames={
        research_step.FRAME_CHART: FunctionFrame(research_step.frame_prompt,
                                                 research_step.frame_apply),
        **{kind: _BATTLE for kind in battle.FRAMES},
        "intercept": _BOMBING,
        "sbr_casualties": _BOMBING,
        bombing.LAND_FRAME: FunctionFrame(bombing.land_prompt, bombing.land_apply),
    },
    resumes={
        **{name: _battle_resume(name) for name in ("aa", "strike", "round", "bombard")},
        **{name: _named_resume(research_step.resume, name) for name in research_step.RESUMES},
        **{name: _named_resume(bombing.resume, name)
           for name in ("sbr_aa", "sbr_air", "sbr_damage", "rocket")},
    },
    conditions={"capital_held": _capital_held},
)
