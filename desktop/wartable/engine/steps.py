"""Step dispatch: a game registers its handlers in one `RuleTable`; the engine dispatches.

A step kind of the sequence (`kind = "combat"`) has a `StepHandler`, a frame kind (a question
pushed mid-step: casualties, a retreat) a `FrameHandler`, a dice continuation a `Resume`, a
sequence condition (`condition = "capital_held"`) a `Condition`, and a die-roll table the
code runs (engine/procedures.py) a `ProcedureUse` naming the conditions its code evaluates.
`Rules` (engine/rules.py) looks each up in its game's table, so a rules class does not grow a
branch per kind, and `RuleTable.check` proves at load that every name the data uses has its
handler: a misspelt step kind is a DataError naming the file and the entry, not a step that
silently shows "End step".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeAlias

from wartable.core.errors import DataError
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import END_STEP, Action, Button, Outcome, Prompt
from wartable.engine.conditions import check_condition, is_kit_condition
from wartable.engine.effects import parse_effects
from wartable.engine.procedures import Procedure, check_predicates
from wartable.model.definition import GameDefinition
from wartable.model.sequence import Position
from wartable.model.state import Frame, GameState

if TYPE_CHECKING:
    from wartable.engine.rules import Game

# The conditions the engine itself answers (engine/loop.py); "option:<id>" and a leading
# "!" too.
BUILTIN_CONDITIONS = frozenset({"first_turn", "not_first_turn"})


class StepHandler:
    """A step kind's hooks. The defaults: nothing on entry or exit, the step's prompt with an
    End step button, no verbs of its own."""

    def enter(self, game: Game, state: GameState, pos: Position) -> Outcome:
        return Outcome(state)

    def exit(self, game: Game, state: GameState, pos: Position) -> Outcome:
        return Outcome(state)

    def can_end(self, game: Game, state: GameState, pos: Position) -> str | None:
        """Why the step may not end yet, or None."""
        return None

    def prompt(self, game: Game, state: GameState, pos: Position) -> Prompt:
        return Prompt(
            side=pos.side if pos.side != "*" else state.active_side,
            text=pos.step.prompt or pos.step.name,
            rule=pos.step.rule,
            buttons=(Button(END_STEP, "End step"),),
        )

    def apply(self, game: Game, state: GameState, pos: Position,
              action: Action) -> Outcome | None:
        """The outcome of one of this kind's verbs, or None when the verb is not ours."""
        return None

    def candidates(self, game: Game, state: GameState, pos: Position,
                   prompt: Prompt) -> tuple[Action, ...] | None:
        """Legal actions for random play and bots, or None for the generic ones (the prompt's
        moves and enabled buttons)."""
        return None


class FrameHandler:
    """A frame kind's hooks: the question it asks and the answer it takes."""

    def prompt(self, game: Game, state: GameState, frame: Frame) -> Prompt:
        raise NotImplementedError

    def apply(self, game: Game, state: GameState, frame: Frame, action: Action) -> Outcome:
        raise NotImplementedError

    def candidates(self, game: Game, state: GameState, frame: Frame,
                   prompt: Prompt) -> tuple[Action, ...] | None:
        return None


@dataclass(frozen=True)
class FunctionFrame(FrameHandler):
    """A frame kind whose question and answer are two functions of a step module."""

    ask: Callable[[Game, GameState, Frame], Prompt]
    answer: Callable[[Game, GameState, Frame, Action], Outcome]

    def prompt(self, game: Game, state: GameState, frame: Frame) -> Prompt:
        return self.ask(game, state, frame)

    def apply(self, game: Game, state: GameState, frame: Frame, action: Action) -> Outcome:
        return self.answer(game, state, frame, action)


# A dice continuation: (game, state, data, dice) -> outcome (engine/loop.py, roll_then).
Resume: TypeAlias = Callable[["Game", GameState, FrozenMap[str, Any], tuple[int, ...]], Outcome]
# A sequence condition: is the phase or step played now?
Condition: TypeAlias = Callable[["Game", GameState], bool]
# A `code` effect of the data (engine/effects.py): (game, state, acting side) -> outcome.
EffectCode: TypeAlias = Callable[["Game", GameState, str], Outcome]


@dataclass(frozen=True)
class ProcedureUse:
    """A die-roll table of the data (`tables.<id>`, engine/procedures.py) that the code runs:
    the conditions its code evaluates for computed modifiers, and the resume that reads the
    roll ("" when the caller resolves the roll itself)."""

    conditions: frozenset[str] = frozenset()
    resume: str = ""


def _frozen(m: Mapping[str, Any]) -> FrozenMap[str, Any]:
    return m if isinstance(m, FrozenMap) else FrozenMap(m)


@dataclass(frozen=True)
class RuleTable:
    """Every handler of a game, by the name the data or the code gives it."""

    steps: Mapping[str, StepHandler] = field(default_factory=FrozenMap)
    frames: Mapping[str, FrameHandler] = field(default_factory=FrozenMap)
    resumes: Mapping[str, Resume] = field(default_factory=FrozenMap)
    conditions: Mapping[str, Condition] = field(default_factory=FrozenMap)
    procedures: Mapping[str, ProcedureUse] = field(default_factory=FrozenMap)
    effects: Mapping[str, EffectCode] = field(default_factory=FrozenMap)

    def __post_init__(self) -> None:
        for name in ("steps", "frames", "resumes", "conditions", "procedures", "effects"):
            object.__setattr__(self, name, _frozen(getattr(self, name)))

    def merged(self, other: RuleTable) -> RuleTable:
        """This table with `other`'s handlers added (other's win on a clash)."""
        return RuleTable(
            steps={**self.steps, **other.steps}, frames={**self.frames, **other.frames},
            resumes={**self.resumes, **other.resumes},
            conditions={**self.conditions, **other.conditions},
            procedures={**self.procedures, **other.procedures},
            effects={**self.effects, **other.effects})

    def check(self, definition: GameDefinition) -> None:
        """DataError, naming the data file and the entry, for the first name the data uses
        that has no handler: a step kind, a phase or step condition, a die-roll table (its
        conditions and resume). Called once when a game is loaded (persistence/gamedata)."""
        source = definition.source_of("sequence")
        options = {o.id for o in definition.options}
        for phase in definition.sequence.phases:
            pid = phase.id.removeprefix(f"{phase.side}.")  # as written (for_each_side)
            if phase.condition:
                self._check_condition(phase.condition, options, source,
                                      f"sequence.phases.{pid}.condition")
            for step in phase.steps:
                where = f"sequence.phases.{pid}.steps.{step.id}"
                if step.kind not in self.steps:
                    raise DataError(source, f"{where}.kind",
                                    f"no rules handle the step kind {step.kind!r}; known "
                                    f"kinds: {', '.join(sorted(self.steps)) or 'none'}")
                if step.condition:
                    self._check_condition(step.condition, options, source, f"{where}.condition",
                                          definition)
                if step.kind == "procedure":
                    if not step.table:
                        raise DataError(source, f"{where}.table",
                                        "a procedure step names the die-roll table it rolls")
                    if not _is_procedure(definition.tables.get(step.table)):
                        raise DataError(source, f"{where}.table",
                                        f"no die-roll table {step.table!r} in the data")
                elif step.table:
                    raise DataError(source, f"{where}.table",
                                    "only a step of kind 'procedure' rolls a table")
        self.check_procedures(definition)
        self.check_kit(definition)

    def check_kit(self, definition: GameDefinition) -> None:
        """The assisted-play data (issue 18): every die-roll table's band effects and data
        conditions, every date trigger's effects, named things that exist."""
        code = frozenset(self.effects)
        for key, value in sorted(definition.tables.items()):
            if not _is_procedure(value):
                continue
            source = definition.source_of(f"tables.{key}")
            proc = Procedure.from_dict(value, f"{source}: tables.{key}")
            for i, band in enumerate(proc.bands):
                parse_effects(band.effects, definition, source,
                              f"tables.{key}.bands[{i}].effects", code)
            for m in proc.modifiers:
                if m.kind == "computed" and is_kit_condition(m.condition):
                    self._check_kit_condition(m.condition, definition, source,
                                              f"tables.{key}.modifiers[{m.id}].condition")
        for t in definition.triggers:
            source = definition.source_of("triggers")
            parse_effects(t.effects, definition, source, f"triggers[{t.index}].effects", code)

    def check_procedures(self, definition: GameDefinition) -> None:
        """Each die-roll table the code runs: present, valid, every computed modifier's
        condition evaluated by the code, its resume registered; and no die-roll table in the
        data that no rule runs (a misspelt table id)."""
        for key, use in sorted(self.procedures.items()):
            source = definition.source_of(f"tables.{key}")
            if key not in definition.tables:
                raise DataError(source, f"tables.{key}", "the rules roll on this table, "
                                "which the data does not define")
            proc = Procedure.from_dict(definition.tables[key], f"{source}: tables.{key}")
            check_predicates(proc, use.conditions)
            if use.resume and use.resume not in self.resumes:
                raise DataError(source, f"tables.{key}",
                                f"no rules continue its roll: no resume {use.resume!r}")
        by_data = rolled_by_data(definition)
        for key, value in sorted(definition.tables.items()):
            if _is_procedure(value) and key not in self.procedures and key not in by_data:
                raise DataError(definition.source_of(f"tables.{key}"), f"tables.{key}",
                                "is a die-roll table that no rule rolls on (known: "
                                f"{', '.join(sorted(self.procedures)) or 'none'})")

    def _check_condition(self, cond: str, options: set[str], source: str, where: str,
                         definition: GameDefinition | None = None) -> None:
        name = cond.removeprefix("!")
        if definition is not None and is_kit_condition(cond):
            self._check_kit_condition(cond, definition, source, where)
        elif name.startswith("option:"):
            if name[7:] not in options:
                raise DataError(source, where, f"{cond!r} names no option of the game")
        elif name not in BUILTIN_CONDITIONS and name not in self.conditions:
            raise DataError(source, where, f"no rules evaluate the condition {cond!r}")


    @staticmethod
    def _check_kit_condition(cond: str, definition: GameDefinition, source: str,
                             where: str) -> None:
        try:
            check_condition(cond, definition.tracks, frozenset(definition.flags),
                            has_calendar=not definition.calendar.empty)
        except ValueError as e:
            raise DataError(source, where, str(e)) from e


def rolled_by_data(definition: GameDefinition) -> frozenset[str]:
    """The die-roll tables the data itself rolls: every table of a game played assisted or
    free anywhere (rolled on demand, issue 18), and those of its procedure steps."""
    steps = [p.step for p in definition.sequence.positions]
    if definition.enforcement != "enforced" or any(
            s.enforcement not in (None, "enforced") for s in steps):
        return frozenset(k for k, v in definition.tables.items() if _is_procedure(v))
    return frozenset(s.table for s in steps if s.kind == "procedure" and s.table)


def _is_procedure(value: object) -> bool:
    """A table shaped like a die-roll procedure: dice and result bands."""
    return isinstance(value, Mapping) and "dice" in value and "bands" in value
