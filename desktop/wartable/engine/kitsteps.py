"""The assisted-play kit's handlers (issue 18): rolling any die-roll table of the data with
its band's effects, the `procedure` and `assisted` step kinds, their confirmation frame and
dice continuation, date triggers and checklists.

Every game has them: `Rules` (engine/rules.py) looks a step kind, frame kind or resume up in
the game's own RuleTable first, then in `KIT_TABLE`, so a data-only game needs no code.

Rolling a table (`start_roll`): computed modifiers are read from the state (a data
condition, engine/conditions.py, or a condition the game's RuleTable answers); confirm
modifiers take the players' answers, asked in a frame when not given; the dice are typed
(given), rolled from the state's PRNG, or asked for in physical mode; then the result is
logged with every modifier and the band's effects are applied (or only proposed).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import END_STEP, Action, Button, Event, Outcome, Prompt
from wartable.engine.conditions import eval_condition, is_kit_condition
from wartable.engine.dice import DICE_FRAME, dice_text
from wartable.engine.effects import Effect, apply_effects, parse_effects
from wartable.engine.procedures import (
    Answer,
    Procedure,
    Resolution,
    resolve,
)
from wartable.engine.steps import FrameHandler, RuleTable, StepHandler
from wartable.model.sequence import Position
from wartable.model.state import Frame, GameState
from wartable.model.tracks import checked

if TYPE_CHECKING:
    from wartable.engine.rules import Game

CONFIRM_FRAME = "kit.confirm"
CONFIRM = "confirm"  # the verb answering it (as engine/procflow.py): args {answers: {...}}
ROLL_RESUME = "kit.roll"
ROLL_EVENT = "roll"  # the event kind of a resolved table roll; data: table, result...


# --------------------------------------------------------------------------- tables


def procedures(game: Game) -> Mapping[str, Procedure]:
    """Every die-roll table of the game's data, parsed once per Game."""
    return game.derived(_build_procedures)


def _build_procedures(game: Game) -> dict[str, Procedure]:
    d = game.definition
    out: dict[str, Procedure] = {}
    for key, value in d.tables.items():
        if isinstance(value, Mapping) and "dice" in value and "bands" in value:
            out[key] = Procedure.from_dict(value, f"{d.source_of(f'tables.{key}')}: tables.{key}")
    return out


def procedure(game: Game, table: Any) -> Procedure:
    procs = procedures(game)
    if not isinstance(table, str) or table not in procs:
        raise IllegalAction(f"There is no die-roll table {table!r}; this game's tables: "
                            f"{', '.join(sorted(procs)) or 'none'}.")
    return procs[table]


def band_effects(game: Game, table: str, result: str) -> tuple[Effect, ...]:
    """The parsed effects of a table's result (checked at load, so they parse)."""
    proc = procedure(game, table)
    for i, band in enumerate(proc.bands):
        if band.result == result:
            return parse_effects(band.effects, game.definition, game.definition.id,
                                 f"tables.{table}.bands[{i}].effects",
                                 frozenset(game.rules.table.effects))
    raise IllegalAction(f"{proc.title} has no result {result!r}.")


def computed_answers(game: Game, state: GameState, proc: Procedure) -> dict[str, Answer]:
    """The computed modifiers' answers now: data conditions read from the state, others from
    the conditions the game's RuleTable registers."""
    out: dict[str, Answer] = {}
    for m in proc.modifiers:
        if m.kind != "computed":
            continue
        if is_kit_condition(m.condition):
            out[m.id] = eval_condition(game, state, m.condition)
            continue
        cond = game.rules.table.conditions.get(m.condition)
        if cond is None:
            raise IllegalAction(f"{proc.title}: no rules evaluate {m.condition!r}; "
                                "answer that modifier yourself.")
        out[m.id] = cond(game, state)
    return out


def start_roll(game: Game, state: GameState, table: str, *, side: str,
               answers: Mapping[str, Any] | None = None, dice: tuple[int, ...] | None = None,
               apply: bool = True, step: str = "") -> Outcome:
    """Roll `table` for `side`: answers given override the computed ones; confirm modifiers
    not answered are asked in a frame; dice given are used as typed."""
    proc = procedure(game, table)
    given = dict(answers or {})
    unknown = sorted(set(given) - set(proc.modifier_ids))
    if unknown:
        raise IllegalAction(f"{proc.title} has no modifier {unknown[0]!r}; its modifiers: "
                            f"{', '.join(proc.modifier_ids) or 'none'}.")
    merged: dict[str, Any] = {**computed_answers(game, state, proc), **given}
    pending = tuple(m.id for m in proc.modifiers if m.kind == "confirm" and m.id not in merged)
    payload: FrozenMap[str, Any] = FrozenMap(
        table=table, side=side, answers=FrozenMap(merged), apply=apply, step=step,
        dice=tuple(dice) if dice is not None else None)
    if pending:
        questions = "; ".join(f"{proc.modifier(m).text} ({proc.modifier(m).value:+d})"
                              for m in pending)
        return Outcome(state.push_frame(Frame(
            CONFIRM_FRAME, side, f"{proc.title}: which of these apply? {questions}",
            proc.rule, payload.set("pending", pending))))
    return _roll(game, state, proc, payload)


def _roll(game: Game, state: GameState, proc: Procedure, payload: FrozenMap[str, Any]) -> Outcome:
    dice = payload.get("dice")
    if dice is not None:
        return finish_roll(game, state, payload, proc.dice.validate(tuple(dice)), physical=True)
    side = str(payload["side"])
    if state.dice_mode == "physical":
        c, s = proc.dice.count, proc.dice.sides
        return Outcome(state.push_frame(Frame(
            DICE_FRAME, side, f"Roll {c}d{s} for the {proc.title} and type the result.",
            proc.rule, FrozenMap(count=c, sides=s, purpose=proc.title, resume=ROLL_RESUME,
                                 data=payload))))
    rolled, rng = state.rng.roll_many(proc.dice.count, proc.dice.sides)
    return finish_roll(game, replace(state, rng=rng), payload, rolled)


def _resume_roll(game: Game, state: GameState, data: FrozenMap[str, Any],
                 dice: tuple[int, ...]) -> Outcome:
    return finish_roll(game, state, data, dice, physical=True, logged=True)


def finish_roll(game: Game, state: GameState, payload: FrozenMap[str, Any],
                dice: tuple[int, ...], *, physical: bool = False,
                logged: bool = False) -> Outcome:
    """Resolve, log and apply (or propose) the band's effects."""
    table = str(payload["table"])
    proc = procedure(game, table)
    try:
        res = resolve(proc, dice, dict(payload["answers"]))
    except IllegalAction as e:
        raise IllegalAction(f"{proc.title}: {e}") from e
    side = str(payload["side"])
    effects = band_effects(game, table, res.result)
    apply = bool(payload.get("apply", True))
    ev = roll_event(proc, res, side, effects, applied=apply, physical=physical)
    out = Outcome(state, (ev,))
    if effects and apply:
        out = out.then(apply_effects(game, state, effects, side=side, rule=proc.rule))
    elif effects:
        out = Outcome(state, out.events + (Event(
            "info", "Effects proposed (not applied): "
            + "; ".join(e.describe() for e in effects), side, proc.rule,
            data=FrozenMap(table=table, result=res.result)),))
    return out


def roll_event(proc: Procedure, res: Resolution, side: str, effects: tuple[Effect, ...],
               *, applied: bool, physical: bool = False) -> Event:
    how = " (physical dice)" if physical else ""
    prov = " (provisional table)" if proc.provisional or res.band.provisional else ""
    return Event(ROLL_EVENT, f"{proc.title}: {res.text()}{how}{prov}", side, proc.rule,
                 data=FrozenMap(
                     table=proc.id, dice=res.dice, natural=res.natural, total=res.total,
                     modifiers=tuple(FrozenMap(id=a.id, text=a.text, value=a.value)
                                     for a in res.applied),
                     result=res.result, result_text=res.result_text,
                     effects=tuple(e.describe() for e in effects), applied=applied,
                     dice_text=dice_text(res.dice)))


class _ConfirmFrame(FrameHandler):
    def prompt(self, game: Game, state: GameState, frame: Frame) -> Prompt:
        proc = procedure(game, frame.data["table"])
        pending = tuple(frame.data["pending"])
        buttons = [Button(CONFIRM, "None of them apply", args=FrozenMap(
            answers=FrozenMap({m: False for m in pending})))]
        if len(pending) > 1:
            buttons.append(Button(CONFIRM, "All of them apply", args=FrozenMap(
                answers=FrozenMap({m: True for m in pending}))))
        for m in pending:
            mod = proc.modifier(m)
            buttons.append(Button(CONFIRM, f"Only: {mod.text} ({mod.value:+d})", rule=mod.rule,
                                  args=FrozenMap(answers=FrozenMap({x: x == m
                                                                    for x in pending}))))
        return Prompt(frame.side, frame.text, frame.rule, targets=FrozenMap(confirm=pending),
                      buttons=tuple(buttons))

    def apply(self, game: Game, state: GameState, frame: Frame, action: Action) -> Outcome:
        if action.verb != CONFIRM:
            raise IllegalAction(f"Answer first: {frame.text}")
        answers = action.args.get("answers")
        pending = tuple(frame.data["pending"])
        if not isinstance(answers, Mapping) or set(answers) != set(pending) or not all(
                isinstance(v, bool | int) for v in answers.values()):
            raise IllegalAction(f"Say yes or no for each of: {', '.join(pending)}.")
        _, state = state.pop_frame()
        proc = procedure(game, frame.data["table"])
        merged = frame.data["answers"].update(answers)
        return _roll(game, state, proc, frame.data.remove("pending").set("answers", merged))


# --------------------------------------------------------------------------- step kinds


def rolling_side(game: Game, state: GameState, pos: Position) -> str:
    if pos.step.roll_by:
        return pos.step.roll_by
    return pos.side if pos.side != "*" else state.active_side


class ProcedureStep(StepHandler):
    """`kind = "procedure"`, `table = "<id>"`: the table is rolled on entering the step
    (computed modifiers from the state, the others confirmed) and its band's effects
    applied; the players then end the step."""

    def enter(self, game: Game, state: GameState, pos: Position) -> Outcome:
        assert pos.step.table is not None  # checked at load (RuleTable.check)
        return start_roll(game, state, pos.step.table, side=rolling_side(game, state, pos),
                          step=pos.step.id)

    def prompt(self, game: Game, state: GameState, pos: Position) -> Prompt:
        proc = procedure(game, pos.step.table)
        text = pos.step.prompt or f"The {proc.title} is rolled; read the result and go on."
        return Prompt(rolling_side(game, state, pos), text, pos.step.rule or proc.rule,
                      targets=_kit_targets(game, state, pos),
                      buttons=(Button(END_STEP, "End step"),))


class AssistedStep(StepHandler):
    """`kind = "assisted"`: a free step; the kit's verbs are offered, End step always
    allowed, moves on the map are normal moves (engine/assisted.py)."""

    def prompt(self, game: Game, state: GameState, pos: Position) -> Prompt:
        side = pos.side if pos.side != "*" else state.active_side
        return Prompt(side, pos.step.prompt or pos.step.name, pos.step.rule,
                      targets=_kit_targets(game, state, pos),
                      buttons=(Button(END_STEP, "End step"),))


def _kit_targets(game: Game, state: GameState, pos: Position) -> FrozenMap[str, tuple[str, ...]]:
    """What the kit's panels may offer now: the tables to roll, the cups to draw from."""
    side = pos.side if pos.side != "*" else state.active_side
    cups = tuple(c.id for c in game.definition.cups.values()
                 if not c.drawn_by or side in c.drawn_by)
    return FrozenMap({"assist.roll": tuple(sorted(procedures(game))), "assist.draw": cups})


KIT_TABLE = RuleTable(
    steps={"procedure": ProcedureStep(), "assisted": AssistedStep()},
    frames={CONFIRM_FRAME: _ConfirmFrame()},
    resumes={ROLL_RESUME: _resume_roll},
)


def with_kit(table: RuleTable) -> RuleTable:
    """A game's RuleTable with the kit's handlers under it (the game's win on a clash)."""
    return KIT_TABLE.merged(table)


# --------------------------------------------------------------------------- triggers


def fire_triggers(game: Game, state: GameState) -> Outcome:
    """The date triggers of the state's turn (at its start): reminders and effects."""
    d = game.definition
    out = Outcome(state)
    for t in d.triggers:
        turn = t.turn
        if turn is None and t.date is not None:
            turn = d.calendar.turn_of(*t.date)
        if turn != state.turn:
            continue
        label = d.calendar.label(state.turn)
        when = f"{label} (turn {state.turn})" if label else f"turn {state.turn}"
        if t.remind:
            out = out.then(Outcome(out.state, (Event(
                "remind", f"Reminder, {when}: {t.remind}", "", t.rule,
                data=FrozenMap(trigger=t.index)),)))
        if t.effects:
            out = out.then(apply_effects(game, out.state, t.effects, rule=t.rule))
    return out


def unticked(game: Game, state: GameState, pos: Position) -> Event | None:
    """A warning when a step with a checklist ends with items not ticked."""
    items = pos.step.checklist
    if not items:
        return None
    done = set(checked(state, pos.step.id))
    left = [it for i, it in enumerate(items) if i not in done]
    if not left:
        return None
    text = "; ".join(f"{it.text}" + (f" [{it.rule}]" if it.rule else "") for it in left)
    return Event("warning", f"Checklist of {pos.step.name} not ticked: {text}",
                 pos.side if pos.side != "*" else "", pos.step.rule,
                 data=FrozenMap(step=pos.step.id, items=tuple(
                     i for i in range(len(items)) if i not in done)))
