"""A die-roll procedure run inside a game: computed modifiers, players' confirmation,
digital and physical dice, and the resolved breakdown in the log."""

from __future__ import annotations

from typing import Any

import pytest

from testgame.rules import SkirmishRules
from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine import procflow
from wartable.engine.actions import DICE, Action, Event, Outcome, Prompt
from wartable.engine.loop import apply, new_game, prompt
from wartable.engine.procedures import Procedure
from wartable.engine.rules import Game
from wartable.model.sequence import Position
from wartable.model.state import Frame, GameState
from wartable.persistence.gamedata import load_game

# A Moscow-Falls-style table (1940: What If? [4.3]); values are ours, for the test.
TABLE = Procedure.from_dict({
    "id": "falls", "title": "Capital Falls Table", "rule": "4.3", "dice": "1d6",
    "provisional": True,
    "bands": [{"roll": "5 or less", "result": "holds", "text": "the capital holds"},
              {"roll": "6+", "result": "falls", "text": "the capital falls"}],
    "modifiers": [
        {"id": "ally", "text": "ally at war", "value": 1, "kind": "computed",
         "condition": "ally_at_war"},
        {"id": "mud", "text": "mud", "value": -2, "kind": "confirm"},
    ],
}, "test")


class CapitalRules(SkirmishRules):
    """Skirmish plus a 'check' verb during Movement that runs the table."""

    def step_apply(self, game: Game, state: GameState, pos: Position, action: Action) -> Outcome:
        if action.verb == "check":
            return procflow.run_procedure(
                game, state, TABLE, {"ally_at_war": lambda: bool(state.var("ally", False))},
                side=action.side, purpose="Capital check", resume="falls")
        return super().step_apply(game, state, pos, action)

    def frame_prompt(self, game: Game, state: GameState, frame: Frame) -> Prompt:
        if frame.kind == procflow.CONFIRM_FRAME:
            return procflow.confirm_prompt(TABLE, frame)
        return super().frame_prompt(game, state, frame)

    def frame_apply(self, game: Game, state: GameState, frame: Frame, action: Action) -> Outcome:
        if frame.kind == procflow.CONFIRM_FRAME:
            return procflow.confirm_apply(game, state, TABLE, frame, action)
        return super().frame_apply(game, state, frame, action)

    def resume(self, game: Game, state: GameState, resume: str, data: FrozenMap[str, Any],
               dice: tuple[int, ...]) -> Outcome:
        if resume == "falls":
            res = procflow.resolution(TABLE, data, dice)
            st = state.with_var("capital", res.result)
            return Outcome(st, (Event("procedure", f"{res.title}: {res.text()}", rule="4.3"),))
        return super().resume(game, state, resume, data, dice)


@pytest.fixture(scope="module")
def game() -> Game:
    g = load_game("skirmish")
    return Game(g.definition, CapitalRules(), g.maps)


def begin(game: Game, ally: bool, mode: str = "physical") -> GameState:
    s, _ = new_game(game, "meeting", dice_mode=mode)
    return s.with_var("ally", ally)


def test_confirm_frame_asks_only_about_confirm_modifiers(game: Game) -> None:
    s = apply(game, begin(game, ally=True), Action("check", "blue")).state
    p = prompt(game, s, "blue")
    assert p.text == "Capital Falls Table: which of these apply? mud (-2)"
    assert p.targets["confirm"] == ("mud",)
    assert [b.label for b in p.buttons] == ["None of them apply", "Only: mud (-2)"]


def test_computed_and_confirmed_modifiers_reach_the_breakdown(game: Game) -> None:
    s = apply(game, begin(game, ally=True), Action("check", "blue")).state
    s = apply(game, s, Action.make(procflow.CONFIRM, "blue", answers={"mud": True})).state
    assert prompt(game, s, "blue").dice is not None  # physical dice: type the roll
    out = apply(game, s, Action.make(DICE, "blue", values=(6,)))
    assert out.events[-1].text == \
        "Capital Falls Table: roll 6, +1 ally at war, -2 mud = 5 → the capital holds"
    assert out.state.var("capital") == "holds" and not out.state.frames


def test_no_mud_and_no_ally(game: Game) -> None:
    s = apply(game, begin(game, ally=False), Action("check", "blue")).state
    s = apply(game, s, Action.make(procflow.CONFIRM, "blue", answers={"mud": False})).state
    out = apply(game, s, Action.make(DICE, "blue", values=(6,)))
    assert out.events[-1].text == "Capital Falls Table: roll 6 → the capital falls"


def test_partial_answers_are_refused(game: Game) -> None:
    s = apply(game, begin(game, ally=True), Action("check", "blue")).state
    with pytest.raises(IllegalAction, match="Say yes or no for each of: mud"):
        apply(game, s, Action.make(procflow.CONFIRM, "blue", answers={}))


def test_digital_dice_roll_at_once_after_confirmation(game: Game) -> None:
    s = apply(game, begin(game, ally=True, mode="digital"), Action("check", "blue")).state
    out = apply(game, s, Action.make(procflow.CONFIRM, "blue", answers={"mud": False}))
    assert out.events[-1].text.startswith("Capital Falls Table: roll ")
    assert out.state.var("capital") in ("holds", "falls") and out.state.rng != s.rng
