"""Odds and differential ladders: the column side of a hex game's combat results table.

A ladder turns attack and defense strengths into a raw column, then applies column shifts
(terrain, air support, ...), an optional cap on the net shift, and the clamp to the printed
columns. ``OddsLadder`` (attack : defense) and ``DifferentialLadder`` (attack - defense) share
that machinery through ``_resolve``; they differ only in how strengths become a raw column.

Conventions every game relies on:

- Raw columns round in the defender's favour: the raw column is the rightmost column whose
  requirement the attack meets. Column "a-b" needs attack/defense >= a/b, so "1-2" needs
  attack >= defense/2 (5 vs 11 is 1-3, since 1-2 would need 5.5), and 11 vs 4 = 2.75 is 2-1.
  A differential column c needs attack - defense >= c. Comparisons are exact (Fraction).
- Shifts are counted in columns, positive = right (toward the attacker).
- ``shift_from = "column"``: the raw odds are first clamped to the printed columns and the
  shifts move from there; a raw result below the ladder with ``below = "none"`` fails
  whatever the shifts.
- ``shift_from = "virtual"``: the shifts move along the ladder extended without end (... 1-4,
  1-3 ... 5-1, 6-1, 7-1 ...) and only the final column is clamped. 1940: What If? works this
  way [11.14]: 13:1 with two left shifts is 11-1, then 5-1.
- ``below = "lowest"`` treats anything left of the first column as the first column;
  ``below = "none"`` makes it a "below the ladder" result (the game decides what that means,
  e.g. an automatic AL1 below 1:3 in 1940: What If? [11.14]). Right of the last column is
  always the last column.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal, Protocol, TypeAlias

from wartable.model.parse import Reader

Below: TypeAlias = Literal["lowest", "none"]
ShiftFrom: TypeAlias = Literal["column", "virtual"]

_RATIO_RE = re.compile(r"^\s*(\d+)\s*[-:]\s*(\d+)\s*$")
_BELOW: tuple[Below, ...] = ("lowest", "none")
_SHIFT_FROM: tuple[ShiftFrom, ...] = ("column", "virtual")


# --------------------------------------------------------------------------- shifts


@dataclass(frozen=True, slots=True)
class Shift:
    """A column shift: amount > 0 moves right (toward the attacker), < 0 left."""

    amount: int
    reason: str
    rule: str = ""

    def text(self) -> str:
        rule = self.rule.strip().removeprefix("[").removesuffix("]").strip()
        return f"{self.amount:+d} {self.reason}" + (f" [{rule}]" if rule else "")


@dataclass(frozen=True, slots=True)
class ShiftCaps:
    """Caps on the net shift: at most max_right columns right, max_left columns left.

    Both are given as non-negative column counts; None means uncapped.
    """

    max_right: int | None = None
    max_left: int | None = None

    def __post_init__(self) -> None:
        for name, v in (("max_right", self.max_right), ("max_left", self.max_left)):
            if v is not None and v < 0:
                raise ValueError(f"{name} is a number of columns and cannot be negative")

    def apply(self, net: int) -> int:
        if self.max_right is not None and net > self.max_right:
            return self.max_right
        if self.max_left is not None and net < -self.max_left:
            return -self.max_left
        return net


NO_CAPS = ShiftCaps()


# --------------------------------------------------------------------------- result


@dataclass(frozen=True, slots=True)
class OddsResult:
    """The whole column computation of one combat, for the CRT and for the players to read.

    ``raw_index`` is on the extended ladder: < 0 is left of the first printed column and
    > last index right of the last. ``final_index`` is on the printed ladder, or None when
    the result is below the ladder (``below = "none"``).
    """

    attack: float
    defense: float
    raw_text: str  # "11:4 = 2.75" or "11 - 4 = +7"
    raw_index: int
    # Label the shifts start from: the printed column in "column" mode, the extended one
    # ("7-1", "1-4") in "virtual" mode or when the raw odds fall below the ladder.
    raw_column: str
    shifts: tuple[Shift, ...]
    shift_total: int  # the plain sum of the shifts
    net_shift: int  # after the caps
    final_index: int | None
    final_column: str | None
    columns: tuple[str, ...]
    target_column: str  # where the shifts landed before the final clamp

    @property
    def below_ladder(self) -> bool:
        return self.final_index is None

    @property
    def capped(self) -> bool:
        return self.net_shift != self.shift_total

    def explain(self) -> str:
        """E.g. "11 vs 4 → 2-1; +1 air support [11.7]; -1 river [10.12] → 2-1 (net 0)"."""
        out = f"{_num(self.attack)} vs {_num(self.defense)} → {self.raw_column}"
        for s in self.shifts:
            out += f"; {s.text()}"
        final = self.final_column if self.final_column is not None else f"below {self.columns[0]}"
        notes: list[str] = []
        if self.shifts:
            notes.append(f"net {_net(self.net_shift)}")
            if self.capped:
                notes[-1] += f", capped from {_net(self.shift_total)}"
        if self.shifts and self.final_column is not None and self.target_column != final:
            # Say why a shift past the end of the printed ladder moved less than its net.
            notes.append(f"{self.target_column} counts as {final}")
        if self.shifts or final != self.raw_column:
            out += f" → {final}" + (f" ({'; '.join(notes)})" if notes else "")
        return out


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def _net(n: int) -> str:
    return "0" if n == 0 else f"{n:+d}"


def _check_strengths(attack: float, defense: float) -> tuple[Fraction, Fraction]:
    for name, v in (("attack", attack), ("defense", defense)):
        if not math.isfinite(v) or v <= 0:
            raise ValueError(f"{name} strength must be a positive number, got {v!r}")
    return Fraction(attack), Fraction(defense)


# --------------------------------------------------------------------------- shared machinery


class _Ladder(Protocol):
    @property
    def labels(self) -> tuple[str, ...]: ...
    @property
    def below(self) -> Below: ...
    @property
    def shift_from(self) -> ShiftFrom: ...
    @property
    def caps(self) -> ShiftCaps: ...
    def virtual_column(self, attack: float, defense: float) -> int: ...
    def virtual_label(self, index: int) -> str: ...
    def raw_text(self, attack: float, defense: float) -> str: ...


def _raw_column(ladder: _Ladder, attack: float, defense: float) -> int | None:
    v = ladder.virtual_column(attack, defense)
    last = len(ladder.labels) - 1
    if v < 0:
        return 0 if ladder.below == "lowest" else None
    return min(v, last)


def _resolve(
    ladder: _Ladder,
    attack: float,
    defense: float,
    shifts: Sequence[Shift],
    caps: ShiftCaps | None,
) -> OddsResult:
    last = len(ladder.labels) - 1
    raw = ladder.virtual_column(attack, defense)
    total = sum(s.amount for s in shifts)
    net = (caps if caps is not None else ladder.caps).apply(total)
    final: int | None
    if ladder.shift_from == "virtual":
        target = raw + net
    elif raw < 0 and ladder.below == "none":
        target = raw  # raw odds under the ladder fail before any shift counts
    else:
        target = min(max(raw, 0), last) + net
    if target > last:
        final = last
    elif target < 0:
        final = 0 if ladder.below == "lowest" else None
    else:
        final = target
    shown = raw
    if ladder.shift_from == "column" and not (raw < 0 and ladder.below == "none"):
        shown = min(max(raw, 0), last)  # show the column the shifts actually start from
    return OddsResult(
        attack=attack,
        defense=defense,
        raw_text=ladder.raw_text(attack, defense),
        raw_index=raw,
        raw_column=ladder.virtual_label(shown),
        shifts=tuple(shifts),
        shift_total=total,
        net_shift=net,
        final_index=final,
        final_column=None if final is None else ladder.labels[final],
        columns=ladder.labels,
        target_column=ladder.virtual_label(target),
    )


def _parse_common(
    d: Mapping[str, Any], source: str, kind: str
) -> tuple[Reader, Sequence[Any], Below, ShiftFrom, ShiftCaps]:
    r = Reader(d, source)
    r.known("kind", "columns", "below", "shift_from", "max_right", "max_left")
    r.opt_choice("kind", (kind,), kind)
    cols = r.seq("columns", nonempty=True)
    below = r.opt_choice("below", _BELOW, "lowest")
    shift_from = r.opt_choice("shift_from", _SHIFT_FROM, "column")
    caps = ShiftCaps(r.opt_integer("max_right", minimum=0), r.opt_integer("max_left", minimum=0))
    return r, cols, below, shift_from, caps


# --------------------------------------------------------------------------- odds


def _parse_ratio(label: str) -> tuple[int, int]:
    m = _RATIO_RE.match(label) if isinstance(label, str) else None
    if m is None:
        raise ValueError(f"{label!r} is not an odds column; write it like '1-2' or '3-1'")
    a, b = int(m.group(1)), int(m.group(2))
    if a == 0 or b == 0:
        raise ValueError(f"{label!r}: both sides of an odds column must be 1 or more")
    return a, b


def _parse_ratios(columns: Sequence[str]) -> tuple[tuple[int, int], ...]:
    if not columns:
        raise ValueError("a ladder needs at least one column")
    out = tuple(_parse_ratio(c) for c in columns)
    for (prev, pc), (cur, cc) in zip(
        zip(out, columns, strict=True), zip(out[1:], columns[1:], strict=True), strict=False
    ):
        if Fraction(cur[0], cur[1]) <= Fraction(prev[0], prev[1]):
            raise ValueError(f"odds columns must rise left to right: {cc!r} follows {pc!r}")
    return out


@dataclass(frozen=True, slots=True)
class OddsLadder:
    """Columns of attack:defense ratios, lowest first, e.g. ("1-3", "1-2", "1-1", "2-1")."""

    columns: tuple[str, ...]
    below: Below = "lowest"
    shift_from: ShiftFrom = "column"
    caps: ShiftCaps = NO_CAPS
    _ratios: tuple[tuple[int, int], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "columns", tuple(self.columns))
        object.__setattr__(self, "_ratios", _parse_ratios(self.columns))
        if self.below not in _BELOW or self.shift_from not in _SHIFT_FROM:
            raise ValueError(f"bad below {self.below!r} or shift_from {self.shift_from!r}")

    @property
    def labels(self) -> tuple[str, ...]:
        return self.columns

    @staticmethod
    def from_dict(d: Mapping[str, Any], source: str) -> OddsLadder:
        """E.g. {"columns": ["1-3", ..., "5-1"], "below": "none", "shift_from": "virtual",
        "max_right": 3, "max_left": 3}; ``kind = "odds"`` is accepted."""
        r, cols, below, shift_from, caps = _parse_common(d, source, "odds")
        for i, c in enumerate(cols):
            try:
                _parse_ratio(c)
            except ValueError as e:
                raise r.fail(f"columns[{i}]", str(e)) from None
        try:
            return OddsLadder(tuple(cols), below, shift_from, caps)
        except ValueError as e:
            raise r.fail("columns", str(e)) from None

    def virtual_column(self, attack: float, defense: float) -> int:
        """The raw column on the ladder extended past both ends (may be < 0 or > last).

        A ladder extends by whole steps only past an end of the form "n-1" (right) or "1-n"
        (left); past any other end it saturates at one step beyond.
        """
        a, d = _check_strengths(attack, defense)
        r = self._ratios
        last = len(r) - 1
        if a * r[last][1] >= d * r[last][0]:
            top_a, top_b = r[last]
            if top_b != 1:
                return last
            return last + int(a // d) - top_a
        if a * r[0][1] < d * r[0][0]:
            low_a, low_b = r[0]
            if low_a != 1:
                return -1
            # 1-m needs a >= d/m, so the best m is ceil(d/a); 1-(n+k) is k steps left of 1-n.
            return low_b - math.ceil(d / a)
        best = 0
        for i, (ra, rb) in enumerate(r):
            if a * rb >= d * ra:
                best = i
        return best

    def virtual_label(self, index: int) -> str:
        last = len(self.columns) - 1
        if 0 <= index <= last:
            return self.columns[index]
        if index > last:
            a, b = self._ratios[last]
            return f"{a + index - last}-1" if b == 1 else self.columns[last]
        a, b = self._ratios[0]
        return f"1-{b - index}" if a == 1 else f"below {self.columns[0]}"

    def raw_text(self, attack: float, defense: float) -> str:
        a, d = _check_strengths(attack, defense)
        ratio = math.floor(a / d * 100) / 100  # truncated: never shows better odds than true
        return f"{_num(attack)}:{_num(defense)} = {_num(ratio)}"

    def raw_column(self, attack: float, defense: float) -> int | None:
        """Index of the raw column, rounded in the defender's favour; above the ladder is the
        last column; below it is column 0 (below="lowest") or None (below="none")."""
        return _raw_column(self, attack, defense)

    def resolve(
        self,
        attack: float,
        defense: float,
        shifts: Sequence[Shift] = (),
        caps: ShiftCaps | None = None,
    ) -> OddsResult:
        """Raw column, shifts, caps (the ladder's unless given) and clamp, itemised."""
        return _resolve(self, attack, defense, shifts, caps)


# --------------------------------------------------------------------------- differential


def _diff_label(c: int) -> str:
    return "0" if c == 0 else f"{c:+d}"


@dataclass(frozen=True, slots=True)
class DifferentialLadder:
    """Columns of attack minus defense, lowest first, e.g. (-3, -2, ..., +6)."""

    columns: tuple[int, ...]
    below: Below = "lowest"
    shift_from: ShiftFrom = "column"
    caps: ShiftCaps = NO_CAPS

    def __post_init__(self) -> None:
        cols = tuple(self.columns)
        object.__setattr__(self, "columns", cols)
        if not cols:
            raise ValueError("a ladder needs at least one column")
        for prev, cur in zip(cols, cols[1:], strict=False):
            if cur <= prev:
                raise ValueError(
                    f"differential columns must rise left to right: {cur} follows {prev}"
                )
        if self.below not in _BELOW or self.shift_from not in _SHIFT_FROM:
            raise ValueError(f"bad below {self.below!r} or shift_from {self.shift_from!r}")

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(_diff_label(c) for c in self.columns)

    @staticmethod
    def from_dict(d: Mapping[str, Any], source: str) -> DifferentialLadder:
        """E.g. {"columns": [-3, -2, -1, 0, 1, 2, 3, 4, 5, 6], "below": "lowest"}; columns
        may also be written as text ("+3"); ``kind = "differential"`` is accepted."""
        r, cols, below, shift_from, caps = _parse_common(d, source, "differential")
        values: list[int] = []
        for i, c in enumerate(cols):
            if isinstance(c, int) and not isinstance(c, bool):
                values.append(c)
            elif isinstance(c, str) and re.fullmatch(r"\s*[+-]?\d+\s*", c):
                values.append(int(c))
            else:
                raise r.fail(f"columns[{i}]", f"{c!r} is not a whole-number column")
        try:
            return DifferentialLadder(tuple(values), below, shift_from, caps)
        except ValueError as e:
            raise r.fail("columns", str(e)) from None

    def virtual_column(self, attack: float, defense: float) -> int:
        """The raw column extended by steps of 1 past both ends (may be < 0 or > last)."""
        a, d = _check_strengths(attack, defense)
        diff = a - d
        cols = self.columns
        last = len(cols) - 1
        if diff >= cols[last]:
            return last + math.floor(diff) - cols[last]
        if diff < cols[0]:
            return math.floor(diff) - cols[0]
        best = 0
        for i, c in enumerate(cols):
            if diff >= c:
                best = i
        return best

    def virtual_label(self, index: int) -> str:
        last = len(self.columns) - 1
        if index > last:
            return _diff_label(self.columns[last] + index - last)
        if index < 0:
            return _diff_label(self.columns[0] + index)
        return _diff_label(self.columns[index])

    def raw_text(self, attack: float, defense: float) -> str:
        a, d = _check_strengths(attack, defense)
        diff = a - d
        shown = _diff_label(int(diff)) if diff.denominator == 1 else f"{float(diff):+g}"
        return f"{_num(attack)} - {_num(defense)} = {shown}"

    def raw_column(self, attack: float, defense: float) -> int | None:
        """Index of the raw column (greatest column <= attack - defense); as OddsLadder."""
        return _raw_column(self, attack, defense)

    def resolve(
        self,
        attack: float,
        defense: float,
        shifts: Sequence[Shift] = (),
        caps: ShiftCaps | None = None,
    ) -> OddsResult:
        return _resolve(self, attack, defense, shifts, caps)


Ladder: TypeAlias = OddsLadder | DifferentialLadder
_LOADERS: Mapping[str, Callable[[Mapping[str, Any], str], Ladder]] = {
    "odds": OddsLadder.from_dict,
    "differential": DifferentialLadder.from_dict,
}


def ladder_from_dict(d: Mapping[str, Any], source: str) -> Ladder:
    """Either ladder, chosen by ``kind = "odds" | "differential"`` in the data."""
    kind = Reader(d, source).choice("kind", tuple(_LOADERS))
    return _LOADERS[kind](d, source)
