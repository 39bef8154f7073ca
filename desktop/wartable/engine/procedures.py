"""Die-roll procedures as data: a table the players roll on, with its modifiers.

A procedure is what a rulebook prints as "roll a die, add the DRMs listed under the table,
read the result": the Moscow Falls Table of 1940: What If? [4.3], the political and conquest
tables of AETO parts 9-11 ([9.2], [9.11], [9.15]...). Games keep them in TOML; this module
takes the parsed dict, validates it on load, and resolves rolls. It never reads files.

Flow for a step handler:

1. On load: ``Procedure.from_dict(d, source)`` then ``check_predicates(proc, game_names)``
   so a misspelt condition fails when the game loads, not in the middle of a game.
2. At the step: ``applicable_modifiers(proc, predicates)`` computes what the state decides
   and lists what the players must confirm; ``modifier_answers(checks, confirmed)`` merges
   the two once the players have answered.
3. ``roll(proc, rng)`` (or dice typed in by the players) then ``resolve(proc, dice, answers)``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from wartable.core.errors import DataError, IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.core.rng import Rng
from wartable.engine.conditions import is_kit_condition
from wartable.model.parse import Reader
from wartable.model.values import freeze

ModifierKind: TypeAlias = Literal["computed", "confirm"]
# An answer is bool for an applies-or-not modifier, a count for a "per ..." modifier.
Answer: TypeAlias = bool | int
Predicate: TypeAlias = Callable[[], Answer]

_KINDS: tuple[ModifierKind, ...] = ("computed", "confirm")
_DICE_RE = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*$")
_RANGE_RE = re.compile(r"^\s*(-?\d+)\s*(?:-|–|to)\s*(-?\d+)\s*$")
_ONE_RE = re.compile(r"^\s*(-?\d+)\s*$")
_OPEN_UP_RE = re.compile(r"^\s*(-?\d+)\s*(?:\+|or more)\s*$")
_OPEN_DOWN_RE = re.compile(r"^\s*(?:≤\s*(-?\d+)|(-?\d+)\s*or less)\s*$")
_MAX_DICE = 100
_MAX_SIDES = 1000
_COUNT_WORDS = ("no dice", "one die", "two dice", "three dice", "four dice", "five dice")


def _rule(ref: str) -> str:
    """Rule references are stored bare ("4.3"); the brackets are added when shown."""
    return ref.strip().removeprefix("[").removesuffix("]").strip()


def _signed(n: int) -> str:
    return f"{n:+d}"


# --------------------------------------------------------------------------- dice


@dataclass(frozen=True, slots=True)
class DiceSpec:
    """How many dice of how many sides are rolled and summed: 1d6, 2d6, 1d10."""

    count: int
    sides: int

    def __post_init__(self) -> None:
        if not 1 <= self.count <= _MAX_DICE or not 2 <= self.sides <= _MAX_SIDES:
            raise ValueError(f"no such dice: {self.count}d{self.sides}")

    @staticmethod
    def parse(text: str, source: str = "dice", where: str = "dice") -> DiceSpec:
        m = _DICE_RE.match(text) if isinstance(text, str) else None
        if m is None:
            raise DataError(
                source, where, f"{text!r} is not a dice spec; write it like '1d6' or '2d6'"
            )
        count = int(m.group(1)) if m.group(1) else 1
        sides = int(m.group(2))
        if not 1 <= count <= _MAX_DICE:
            raise DataError(source, where, f"{text!r}: roll between 1 and {_MAX_DICE} dice")
        if not 2 <= sides <= _MAX_SIDES:
            raise DataError(source, where, f"{text!r}: a die needs 2 to {_MAX_SIDES} sides")
        return DiceSpec(count, sides)

    @property
    def lowest(self) -> int:
        return self.count

    @property
    def highest(self) -> int:
        return self.count * self.sides

    def validate(self, dice: Sequence[int]) -> tuple[int, ...]:
        """The dice as a tuple, or IllegalAction saying what a legal roll looks like."""
        ok = len(dice) == self.count and all(
            isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= self.sides for d in dice
        )
        if not ok:
            words = (
                _COUNT_WORDS[self.count] if self.count < len(_COUNT_WORDS) else f"{self.count} dice"
            )
            got = ", ".join(str(d) for d in dice) or "nothing"
            raise IllegalAction(f"a {self} roll must be {words} from 1 to {self.sides}, got {got}")
        return tuple(dice)

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}"


# --------------------------------------------------------------------------- parts


@dataclass(frozen=True, slots=True)
class Band:
    """Modified totals low..high (inclusive; None = open at that end) give one result."""

    low: int | None
    high: int | None
    result: str
    text: str
    provisional: bool = False
    # What the result does, as raw effect tables (engine/effects.py parses and checks them
    # at load; assisted play applies them, issue 18).
    effects: tuple[FrozenMap[str, Any], ...] = ()

    def contains(self, total: int) -> bool:
        return (self.low is None or total >= self.low) and (self.high is None or total <= self.high)

    def range_text(self) -> str:
        if self.low is None and self.high is None:
            return "any"
        if self.low is None:
            return f"{self.high} or less"
        if self.high is None:
            return f"{self.low}+"
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"


@dataclass(frozen=True, slots=True)
class Modifier:
    """A die-roll modifier (DRM).

    ``computed``: the game decides from the state through the predicate named ``condition``.
    ``confirm``: the players say whether it applies (weather, a choice the state cannot see).
    ``counted``: "+1 per unit ...": the answer is a count and the DRM is value x count.
    """

    id: str
    text: str
    value: int
    kind: ModifierKind
    rule: str = ""
    condition: str = ""
    counted: bool = False
    max_count: int | None = None
    provisional: bool = False

    def extremes(self) -> tuple[float, float]:
        """The lowest and highest DRM this modifier can add (inf if its count is unbounded)."""
        most: float = (
            1 if not self.counted else (math.inf if self.max_count is None else self.max_count)
        )
        reach = self.value * most if self.value else 0
        return (min(0.0, reach), max(0.0, reach))


@dataclass(frozen=True, slots=True)
class ModifierCheck:
    """One modifier at one roll: what the state says, or that the players must say.

    ``applies`` is None when the players must confirm; ``count`` is the computed count of a
    counted modifier (1 or 0 for a plain one).
    """

    modifier: Modifier
    applies: bool | None
    count: int = 0

    @property
    def needs_confirmation(self) -> bool:
        return self.applies is None

    @property
    def answer(self) -> Answer | None:
        if self.applies is None:
            return None
        return self.count if self.modifier.counted else self.applies


@dataclass(frozen=True, slots=True)
class AppliedModifier:
    """A modifier as it entered a roll: its total contribution is value (per-item x count)."""

    id: str
    text: str
    value: int
    count: int = 1
    counted: bool = False

    def describe(self) -> str:
        if self.counted:
            per = self.value // self.count if self.count else 0
            return f"{_signed(self.value)} {self.text} ({self.count} × {_signed(per)})"
        return f"{_signed(self.value)} {self.text}"


# --------------------------------------------------------------------------- procedure


@dataclass(frozen=True, slots=True)
class Procedure:
    """A die-roll table with its modifiers, validated so every reachable total has a result.

    ``cumulative_min``/``cumulative_max`` cap the net modifier ("DRMs never exceed +2");
    ``clamp_min``/``clamp_max`` clamp the modified total ("treat above 6 as 6").
    ``provisional`` marks a table whose values are ours because the rulebook omits them.
    """

    id: str
    title: str
    dice: DiceSpec
    bands: tuple[Band, ...]
    modifiers: tuple[Modifier, ...] = ()
    rule: str = ""
    cumulative_min: int | None = None
    cumulative_max: int | None = None
    clamp_min: int | None = None
    clamp_max: int | None = None
    provisional: bool = False
    note: str = ""  # shown beside the table, e.g. where our provisional values come from
    source: str = ""

    def __post_init__(self) -> None:
        _validate(self)

    @property
    def modifier_ids(self) -> tuple[str, ...]:
        return tuple(m.id for m in self.modifiers)

    def modifier(self, modifier_id: str) -> Modifier:
        for m in self.modifiers:
            if m.id == modifier_id:
                return m
        raise KeyError(modifier_id)

    def reachable(self) -> tuple[float, float]:
        """The lowest and highest modified total (after caps and clamp); may be infinite."""
        lo = sum((m.extremes()[0] for m in self.modifiers), 0.0)
        hi = sum((m.extremes()[1] for m in self.modifiers), 0.0)
        lo, hi = (
            _cap(lo, self.cumulative_min, self.cumulative_max),
            _cap(hi, self.cumulative_min, self.cumulative_max),
        )
        lo, hi = lo + self.dice.lowest, hi + self.dice.highest
        return (
            _cap(lo, self.clamp_min, self.clamp_max),
            _cap(hi, self.clamp_min, self.clamp_max),
        )

    def band_for(self, total: int) -> Band:
        for band in self.bands:
            if band.contains(total):
                return band
        # Unreachable for a validated procedure and legal answers; kept as a clear message.
        raise IllegalAction(f"{self.title}: no result for a modified total of {total}")

    @staticmethod
    def from_dict(d: Mapping[str, Any], source: str) -> Procedure:
        """Parse and validate the TOML/JSON-shaped dict of one procedure.

        Example (a TOML table parses to this)::

            {
                "id": "moscow_falls",
                "title": "Moscow Falls Table",
                "rule": "4.3",
                "dice": "1d6",
                "provisional": True,          # our values: the rulebook omits the table
                "note": "Results not printed; ours.",
                "bands": [
                    {"roll": "5 or less", "result": "holds", "text": "Moscow holds"},
                    {"min": 6, "result": "falls", "text": "Moscow falls"},
                ],
                "modifiers": [
                    {"id": "finland", "text": "Finland at war", "value": 1, "rule": "4.3",
                     "kind": "computed", "condition": "finland_at_war"},
                    {"id": "mud", "text": "mud", "value": -2, "kind": "confirm"},
                    {"id": "units", "text": "Allied unit in the nation", "value": 1,
                     "kind": "computed", "condition": "allied_units", "per": True,
                     "max_count": 6},
                ],
                "cumulative": {"min": -2, "max": 2},   # optional cap on the net DRM
                "clamp": {"min": 1, "max": 6},         # optional clamp of the total
            }

        A band gives its range either as ``min``/``max`` (omit ``min`` on the lowest band to
        leave it open below, ``max`` on the highest to leave it open above) or as ``roll``:
        "4", "1-3", "6+", "6 or more", "0 or less". Unknown fields are errors, so typos
        surface on load.
        """
        p = Reader(d, source)
        p.known(
            "id",
            "title",
            "rule",
            "dice",
            "bands",
            "modifiers",
            "cumulative",
            "clamp",
            "provisional",
            "note",
        )
        dice = DiceSpec.parse(p.text("dice", nonempty=True), source, "dice")
        bands = tuple(_band_from(b) for b in p.items("bands"))
        modifiers = tuple(_modifier_from(m) for m in p.opt_items("modifiers"))
        cum_min, cum_max = _min_max(p.opt_sub("cumulative"))
        clamp_min, clamp_max = _min_max(p.opt_sub("clamp"))
        return Procedure(
            id=p.text("id", nonempty=True),
            title=p.text("title", nonempty=True),
            dice=dice,
            bands=bands,
            modifiers=modifiers,
            rule=_rule(p.opt_text("rule", "", nonempty=True)),
            cumulative_min=cum_min,
            cumulative_max=cum_max,
            clamp_min=clamp_min,
            clamp_max=clamp_max,
            provisional=p.opt_flag("provisional"),
            note=p.opt_text("note", "", nonempty=True),
            source=source,
        )


def _cap(x: float, lo: int | None, hi: int | None) -> float:
    if lo is not None and x < lo:
        x = lo
    if hi is not None and x > hi:
        x = hi
    return x


def _clip(x: int, lo: int | None, hi: int | None) -> int:
    return int(_cap(x, lo, hi))


def _validate(p: Procedure) -> None:
    """Load-time checks: unique modifiers, sane caps, bands cover every reachable total."""
    src = p.source or p.id or "procedure"

    def fail(where: str, what: str) -> DataError:
        return DataError(src, where, what)

    if not p.bands:
        raise fail("bands", "a table needs at least one result band")
    seen: set[str] = set()
    for i, m in enumerate(p.modifiers):
        where = f"modifiers[{i}]"
        if m.id in seen:
            raise fail(where, f"modifier id {m.id!r} appears twice; ids must be unique")
        seen.add(m.id)
        if m.kind not in _KINDS:
            raise fail(where + ".kind", f"unknown kind {m.kind!r}; use 'computed' or 'confirm'")
        if m.kind == "computed" and not m.condition:
            raise fail(
                where + ".condition", "a computed modifier needs a condition (a predicate name)"
            )
        if m.kind == "confirm" and m.condition:
            raise fail(
                where + ".condition",
                "a confirm modifier is asked of the players; drop condition or make it computed",
            )
        if m.max_count is not None and (not m.counted or m.max_count < 0):
            raise fail(where + ".max_count", "max_count needs per = true and a count of 0 or more")
    for lo, hi, name in (
        (p.cumulative_min, p.cumulative_max, "cumulative"),
        (p.clamp_min, p.clamp_max, "clamp"),
    ):
        if lo is not None and hi is not None and lo > hi:
            raise fail(name, f"min {lo} is above max {hi}")

    # Sorting lets authors list bands in any order; gaps and overlaps are judged on the line.
    def low_key(b: Band) -> float:
        return -math.inf if b.low is None else b.low

    for i, b in enumerate(p.bands):
        if b.low is not None and b.high is not None and b.low > b.high:
            raise fail(f"bands[{i}]", f"band {b.low}-{b.high} runs backwards")
    ordered = sorted(p.bands, key=low_key)
    for a, b in zip(ordered, ordered[1:], strict=False):
        if a.high is None or b.low is None or b.low <= a.high:
            raise fail(
                "bands",
                f"bands {a.range_text()} ({a.text}) and {b.range_text()} ({b.text}) overlap",
            )
        if b.low > a.high + 1:
            gap = str(a.high + 1) if b.low == a.high + 2 else f"{a.high + 1}-{b.low - 1}"
            raise fail(
                "bands", f"no band covers {gap} between {a.range_text()} and {b.range_text()}"
            )
    reach_lo, reach_hi = p.reachable()
    first, last = ordered[0], ordered[-1]
    if first.low is not None and first.low > reach_lo:
        reach = "any low total" if reach_lo == -math.inf else f"{int(reach_lo)}"
        raise fail(
            "bands",
            f"the lowest band starts at {first.low} but the roll can reach {reach}; "
            "extend it or leave its min out (open below)",
        )
    if last.high is not None and last.high < reach_hi:
        reach = "any high total" if reach_hi == math.inf else f"{int(reach_hi)}"
        raise fail(
            "bands",
            f"the highest band ends at {last.high} but the roll can reach {reach}; "
            "extend it or leave its max out (open above)",
        )


# --------------------------------------------------------------------------- parsing


def _min_max(r: Reader | None) -> tuple[int | None, int | None]:
    """The optional {min, max} of a cumulative cap or a clamp."""
    if r is None:
        return None, None
    r.known("min", "max")
    return r.opt_integer("min"), r.opt_integer("max")


def _band_from(f: Reader) -> Band:
    f.known("min", "max", "roll", "result", "text", "provisional", "effects")
    if f.has("roll"):
        if f.has("min") or f.has("max"):
            raise f.fail("roll", "give either roll or min/max, not both")
        low, high = _parse_roll(f.text("roll", nonempty=True), f)
    else:
        low, high = f.opt_integer("min"), f.opt_integer("max")
        if low is None and high is None:
            raise f.fail("min", "is missing; a band needs min, max or roll (only one may be open)")
    result = f.text("result", nonempty=True)
    text = f.opt_text("text", "", nonempty=True) or result
    effects = tuple(FrozenMap(freeze(dict(e.data))) for e in f.opt_items("effects"))
    return Band(low, high, result, text, f.opt_flag("provisional"), effects)


def _parse_roll(text: str, f: Reader) -> tuple[int | None, int | None]:
    if m := _ONE_RE.match(text):
        return int(m.group(1)), int(m.group(1))
    if m := _RANGE_RE.match(text):
        return int(m.group(1)), int(m.group(2))
    if m := _OPEN_UP_RE.match(text):
        return int(m.group(1)), None
    if m := _OPEN_DOWN_RE.match(text):
        return None, int(m.group(1) or m.group(2))
    raise f.fail("roll", f"{text!r} is not a roll range; write '4', '1-3', '6+' or '0 or less'")


def _modifier_from(f: Reader) -> Modifier:
    f.known("id", "text", "value", "rule", "kind", "condition", "per", "max_count", "provisional")
    mid = f.text("id", nonempty=True)
    f = f.at(f"modifiers[{mid}]")  # name errors by id from here on
    kind = f.choice("kind", _KINDS)
    return Modifier(
        id=mid,
        text=f.text("text", nonempty=True),
        value=f.integer("value"),
        kind=kind,
        rule=_rule(f.opt_text("rule", "", nonempty=True)),
        condition=f.opt_text("condition", "", nonempty=True),
        counted=f.opt_flag("per"),
        max_count=f.opt_integer("max_count"),
        provisional=f.opt_flag("provisional"),
    )


# --------------------------------------------------------------------------- modifiers


def check_predicates(proc: Procedure, names: Collection[str]) -> None:
    """DataError unless the game provides every condition the procedure's modifiers name.

    Call when binding a game's predicates to its procedures (at load), so a misspelt
    condition is a data error on start-up rather than a crash at the roll.
    """
    # A condition in the data's own language (flag:, track:...) is checked against the
    # game's tracks and flags instead (engine/steps.py, RuleTable.check).
    missing = sorted({m.condition for m in proc.modifiers if m.kind == "computed"
                      and not is_kit_condition(m.condition)} - set(names))
    if missing:
        ids = [m.id for m in proc.modifiers if m.condition in missing]
        raise DataError(
            proc.source or proc.id,
            f"modifiers {', '.join(ids)}",
            f"{proc.title}: the game provides no condition named {', '.join(missing)}",
        )


def applicable_modifiers(
    proc: Procedure, predicates: Mapping[str, Predicate]
) -> tuple[ModifierCheck, ...]:
    """Every modifier of proc: computed ones evaluated now, confirm ones left to the players."""
    check_predicates(proc, predicates.keys())
    out: list[ModifierCheck] = []
    for m in proc.modifiers:
        if m.kind == "confirm":
            out.append(ModifierCheck(m, None))
            continue
        got = predicates[m.condition]()
        if m.counted:
            n = _count(m, got, proc)
            out.append(ModifierCheck(m, n > 0, n))
        else:
            applies = bool(got)
            out.append(ModifierCheck(m, applies, int(applies)))
    return tuple(out)


def modifier_answers(
    checks: Sequence[ModifierCheck], confirmed: Mapping[str, Answer]
) -> FrozenMap[str, Answer]:
    """The answers for ``resolve``: computed results plus the players' confirmations.

    IllegalAction if a modifier that needs confirmation has no answer, so no DRM is silently
    dropped because a dialog was skipped.
    """
    out: dict[str, Answer] = {}
    for c in checks:
        answer = c.answer
        if answer is None:
            if c.modifier.id not in confirmed:
                raise IllegalAction(f"say whether '{c.modifier.text}' applies before rolling")
            answer = confirmed[c.modifier.id]
        out[c.modifier.id] = answer
    return FrozenMap(out)


def _count(m: Modifier, got: object, proc: Procedure) -> int:
    if not isinstance(got, int) or got < 0:
        raise IllegalAction(f"{proc.title}: '{m.text}' needs a count of 0 or more, got {got!r}")
    if m.max_count is not None and got > m.max_count:
        raise IllegalAction(f"{proc.title}: '{m.text}' counts at most {m.max_count}, got {got}")
    return int(got)


# --------------------------------------------------------------------------- resolving


@dataclass(frozen=True, slots=True)
class Resolution:
    """One resolved roll: everything needed to show, log and act on it."""

    procedure: str
    title: str
    dice_spec: DiceSpec
    dice: tuple[int, ...]
    natural: int
    applied: tuple[AppliedModifier, ...]
    modifier_sum: int  # before the cumulative cap
    modifier_total: int  # after it
    unclamped: int  # natural + modifier_total, before the table clamp
    total: int
    band: Band

    @property
    def result(self) -> str:
        return self.band.result

    @property
    def result_text(self) -> str:
        return self.band.text

    def text(self) -> str:
        """E.g. "roll 4, +1 Finland at war, +1 Leningrad German = 6 → Moscow falls"."""
        if len(self.dice) == 1:
            parts = [f"roll {self.natural}"]
        else:
            parts = [f"roll {'+'.join(str(d) for d in self.dice)}={self.natural}"]
        parts.extend(a.describe() for a in self.applied)
        if self.modifier_total != self.modifier_sum:
            parts.append(f"capped at {_signed(self.modifier_total)}")
        out = ", ".join(parts)
        if self.applied:
            out += f" = {self.unclamped}"
        if self.total != self.unclamped:
            limit = "max" if self.total < self.unclamped else "min"
            out += f" (table {limit} {self.total})"
        return f"{out} → {self.band.text}"


def resolve(proc: Procedure, dice: Sequence[int], modifiers: Mapping[str, Answer]) -> Resolution:
    """Resolve a roll. ``modifiers`` gives, by id, whether each modifier applies (a count for a
    "per" modifier); absent ids do not apply. IllegalAction for illegal dice or answers."""
    rolled = proc.dice.validate(dice)
    known = set(proc.modifier_ids)
    unknown = sorted(set(modifiers) - known)
    if unknown:
        raise IllegalAction(
            f"{proc.title} has no modifier {', '.join(unknown)}; "
            f"its modifiers are {', '.join(sorted(known)) or 'none'}"
        )
    applied: list[AppliedModifier] = []
    for m in proc.modifiers:
        if m.id not in modifiers:
            continue
        answer = modifiers[m.id]
        if m.counted:
            n = _count(m, answer, proc)
            if n:
                applied.append(AppliedModifier(m.id, m.text, m.value * n, n, True))
        else:
            if not isinstance(answer, bool):
                raise IllegalAction(
                    f"{proc.title}: '{m.text}' either applies or not; answer true or false"
                )
            if answer:
                applied.append(AppliedModifier(m.id, m.text, m.value))
    natural = sum(rolled)
    mod_sum = sum(a.value for a in applied)
    mod_total = _clip(mod_sum, proc.cumulative_min, proc.cumulative_max)
    unclamped = natural + mod_total
    total = _clip(unclamped, proc.clamp_min, proc.clamp_max)
    return Resolution(
        procedure=proc.id,
        title=proc.title,
        dice_spec=proc.dice,
        dice=rolled,
        natural=natural,
        applied=tuple(applied),
        modifier_sum=mod_sum,
        modifier_total=mod_total,
        unclamped=unclamped,
        total=total,
        band=proc.band_for(total),
    )


def roll(proc: Procedure, rng: Rng) -> tuple[tuple[int, ...], Rng]:
    """Roll the procedure's dice from the game's Rng; returns the dice and the next Rng."""
    return rng.roll_many(proc.dice.count, proc.dice.sides)
