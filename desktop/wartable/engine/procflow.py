"""Running a die-roll procedure inside the game: computed modifiers from the state,
a confirmation frame for the ones players must agree on, the roll (digital or typed),
then the game's continuation with the full resolution.

    out = run_procedure(game, state, proc, predicates, side="german", purpose="Moscow Falls",
                        resume="moscow_falls", data=FrozenMap(...))

The game's `resume(game, state, resume, data, dice)` then calls `resolution(proc, data,
dice)` to get the Resolution: what was rolled, each modifier and the result, ready to
log ("roll 4, +1 Finland at war, +1 Leningrad German = 6 → Moscow falls").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Action, Button, Outcome, Prompt
from wartable.engine.loop import roll_then
from wartable.engine.procedures import (
    Answer,
    Predicate,
    Procedure,
    Resolution,
    applicable_modifiers,
    resolve,
)
from wartable.engine.rules import Game
from wartable.model.state import Frame, GameState

CONFIRM_FRAME = "confirm_modifiers"
CONFIRM = "confirm"  # action verb: args {"answers": {modifier id: bool}}


def run_procedure(game: Game, state: GameState, proc: Procedure,
                  predicates: Mapping[str, Predicate], *, side: str, purpose: str,
                  resume: str, data: FrozenMap[str, Any] | None = None) -> Outcome:
    """Evaluate computed modifiers now; ask `side` about the rest; then roll and resume."""
    checks = applicable_modifiers(proc, predicates)
    computed = {c.modifier.id: c.answer for c in checks if c.answer is not None}
    pending = tuple(c.modifier.id for c in checks if c.needs_confirmation)
    payload: FrozenMap[str, Any] = FrozenMap(
        proc=proc.id, purpose=purpose, resume=resume, data=data or FrozenMap(),
        answers=FrozenMap(computed), side=side)
    if pending:
        questions = tuple(f"{proc.modifier(m).text} ({proc.modifier(m).value:+d})"
                          for m in pending)
        frame = Frame(CONFIRM_FRAME, side,
                      f"{proc.title}: which of these apply? " + "; ".join(questions),
                      proc.rule, payload.set("pending", pending))
        return Outcome(state.push_frame(frame))
    return _roll(game, state, proc, payload)


def confirm_prompt(proc: Procedure, frame: Frame) -> Prompt:
    """Buttons for the typical cases; any combination can be sent with a CONFIRM action."""
    pending = tuple(frame.data["pending"])
    buttons = [Button(CONFIRM, "None of them apply", args=FrozenMap(
        answers=FrozenMap({m: False for m in pending})))]
    if len(pending) > 1:
        buttons.append(Button(CONFIRM, "All of them apply", args=FrozenMap(
            answers=FrozenMap({m: True for m in pending}))))
    for m in pending:
        mod = proc.modifier(m)
        buttons.append(Button(CONFIRM, f"Only: {mod.text} ({mod.value:+d})", rule=mod.rule,
                              args=FrozenMap(answers=FrozenMap(
                                  {x: x == m for x in pending}))))
    return Prompt(frame.side, frame.text, frame.rule, targets=FrozenMap(confirm=pending),
                  buttons=tuple(buttons))


def confirm_apply(game: Game, state: GameState, proc: Procedure, frame: Frame,
                  action: Action) -> Outcome:
    if action.verb != CONFIRM:
        raise IllegalAction(f"Answer first: {frame.text}")
    answers = action.args.get("answers")
    pending = tuple(frame.data["pending"])
    if not isinstance(answers, Mapping) or set(answers) != set(pending) or not all(
            isinstance(v, bool) for v in answers.values()):
        raise IllegalAction(f"Say yes or no for each of: {', '.join(pending)}.")
    _, state = state.pop_frame()
    merged = frame.data["answers"].update(answers)
    return _roll(game, state, proc, frame.data.remove("pending").set("answers", merged))


def _roll(game: Game, state: GameState, proc: Procedure, payload: FrozenMap[str, Any]) -> Outcome:
    return roll_then(game, state, count=proc.dice.count, sides=proc.dice.sides,
                     purpose=str(payload["purpose"]), side=str(payload["side"]),
                     resume=str(payload["resume"]), data=payload, rule=proc.rule)


def resolution(proc: Procedure, data: FrozenMap[str, Any], dice: tuple[int, ...]) -> Resolution:
    """In the game's resume(): the resolved roll with every modifier's stored answer."""
    answers: dict[str, Answer] = dict(data["answers"])
    return resolve(proc, dice, answers)


def user_data(data: FrozenMap[str, Any]) -> FrozenMap[str, Any]:
    """The caller's own data, as passed to run_procedure."""
    value: FrozenMap[str, Any] = data["data"]
    return value
