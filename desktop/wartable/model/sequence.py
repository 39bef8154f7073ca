"""The sequence of play as data: phases and steps, named as in the rulebook.

A `[[phases]]` entry may set `for_each_side = true` to repeat it once per side in
turn order (Axis & Allies: each power plays the same seven phases).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from wartable.model.parse import Reader


@dataclass(frozen=True, slots=True)
class ChecklistItem:
    """What the rules require at a step, ticked off by the players (assisted play)."""

    text: str
    rule: str = ""


ENFORCEMENTS = ("enforced", "assisted", "free")


@dataclass(frozen=True, slots=True)
class Step:
    id: str
    name: str
    kind: str  # the handler kind the game's rules dispatch on
    rule: str = ""
    prompt: str = ""  # what to do now, shown in the side panel
    condition: str | None = None  # predicate name; the step is skipped when false
    side: str | None = None  # overrides the phase's side
    # Assisted play (issue 18): the step's enforcement (None: the game's), the die-roll
    # table a "procedure" step rolls and the side rolling it, the step's checklist.
    enforcement: str | None = None
    table: str | None = None
    roll_by: str | None = None
    checklist: tuple[ChecklistItem, ...] = ()


@dataclass(frozen=True, slots=True)
class Phase:
    id: str
    name: str
    side: str  # the side that acts ("*" = no particular side)
    steps: tuple[Step, ...]
    rule: str = ""
    condition: str | None = None


@dataclass(frozen=True, slots=True)
class Position:
    """One entry of the flattened sequence."""

    index: int
    phase: Phase
    step: Step

    @property
    def side(self) -> str:
        return self.step.side or self.phase.side

    @property
    def label(self) -> str:
        rule = f" [{self.step.rule}]" if self.step.rule else ""
        return f"{self.phase.name} — {self.step.name}{rule}"


@dataclass(frozen=True, slots=True)
class Sequence:
    phases: tuple[Phase, ...]

    @property
    def positions(self) -> tuple[Position, ...]:
        out: list[Position] = []
        for ph in self.phases:
            for st in ph.steps:
                out.append(Position(len(out), ph, st))
        return tuple(out)

    @staticmethod
    def from_dict(data: Any, sides: tuple[str, ...], source: str,
                  names: Mapping[str, str] | None = None) -> Sequence:
        r = Reader(data, source, "sequence")
        phases: list[Phase] = []
        for pr in r.opt_items("phases"):
            each = pr.opt_flag("for_each_side")
            for side in sides if each else (pr.opt_choice("side", ("*", *sides), "*"),):
                steps = [
                    Step(
                        id=sr.text("id"),
                        name=sr.text("name"),
                        kind=sr.text("kind"),
                        rule=sr.opt_text("rule", ""),
                        prompt=sr.opt_text("prompt", ""),
                        condition=sr.opt_text("condition"),
                        side=sr.opt_text("side"),
                        enforcement=(sr.choice("enforcement", ENFORCEMENTS)
                                     if sr.has("enforcement") else None),
                        table=sr.opt_text("table"),
                        roll_by=_roll_by(sr, sides),
                        checklist=tuple(_item(ir) for ir in sr.opt_items("checklist")),
                    )
                    for sr in pr.opt_items("steps")
                ]
                if not steps:
                    raise pr.fail("steps", "a phase needs at least one step")
                pid = pr.text("id")
                name = pr.text("name")
                if each:
                    pid = f"{side}.{pid}"
                    name = name.replace("{side}", (names or {}).get(side, side))
                phases.append(
                    Phase(pid, name, side, tuple(steps), pr.opt_text("rule", ""),
                          pr.opt_text("condition"))
                )
        if not phases:
            raise r.fail("phases", "the sequence of play has no phases")
        ids = [p.id for p in phases]
        dup = {i for i in ids if ids.count(i) > 1}
        if dup:
            raise r.fail("phases", f"duplicate phase id {sorted(dup)[0]!r}")
        return Sequence(tuple(phases))


def _roll_by(r: Reader, sides: tuple[str, ...]) -> str | None:
    return r.choice("roll_by", sides) if r.has("roll_by") else None


def _item(r: Reader) -> ChecklistItem:
    r.known("text", "rule")
    rule = r.opt_text("rule", "").strip().removeprefix("[").removesuffix("]").strip()
    return ChecklistItem(r.text("text", nonempty=True), rule)
