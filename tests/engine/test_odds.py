"""Odds and differential ladders: defender-favour rounding, shifts, caps, clamps, text."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wartable.core.errors import DataError
from wartable.engine.odds import (
    DifferentialLadder,
    OddsLadder,
    Shift,
    ShiftCaps,
    ladder_from_dict,
)

COLUMNS = ("1-3", "1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1")
LADDER = OddsLadder(COLUMNS)
STRICT = OddsLadder(COLUMNS, below="none")


def col(ladder: OddsLadder, attack: float, defense: float) -> str | None:
    i = ladder.raw_column(attack, defense)
    return None if i is None else ladder.columns[i]


# --------------------------------------------------------------------------- raw odds


@pytest.mark.parametrize(
    ("attack", "defense", "column"),
    [
        (3, 1, "3-1"),  # exact boundary counts
        (2.99, 1, "2-1"),  # just short rounds down, toward the defender
        (11, 4, "2-1"),  # 2.75
        (13, 4, "3-1"),  # the 1940 example [11.14]: 3.25 → 3:1
        (1, 1, "1-1"),
        (1, 2, "1-2"),  # exactly half
        (1, 2.01, "1-3"),  # 1-2 would need 1.005
        (5, 11, "1-3"),  # 1-2 would need 5.5
        (5.5, 11, "1-2"),
        (6, 1, "6-1"),
        (60, 1, "6-1"),  # above the ladder is the last column
        (1, 3, "1-3"),
        (1, 10, "1-3"),  # below the ladder, below="lowest"
    ],
)
def test_raw_column_rounds_for_the_defender(attack: float, defense: float, column: str) -> None:
    assert col(LADDER, attack, defense) == column


def test_below_ladder() -> None:
    assert STRICT.raw_column(1, 3) == 0
    assert STRICT.raw_column(1, 3.01) is None
    assert STRICT.raw_column(1, 10) is None
    assert LADDER.raw_column(1, 10) == 0


def test_float_boundaries_are_exact() -> None:
    # Halved strengths (x.5) are exact in binary; comparisons use Fraction, never a/d floats.
    assert col(LADDER, 6, 2) == "3-1"
    assert col(LADDER, 1.5, 3) == "1-2"
    assert col(LADDER, 7.5, 2.5) == "3-1"


def test_general_ratio_columns() -> None:
    ladder = OddsLadder(("1-2", "1-1", "3-2", "2-1", "3-1"))
    assert ladder.columns[ladder.raw_column(3, 2) or 0] == "3-2"
    assert ladder.columns[ladder.raw_column(2.9, 2) or 0] == "1-1"
    assert ladder.virtual_label(ladder.virtual_column(10, 1)) == "10-1"


def test_virtual_columns_past_the_ends() -> None:
    assert LADDER.virtual_column(13, 1) == 7 + 7  # 13-1 is seven steps right of 6-1
    assert LADDER.virtual_label(14) == "13-1"
    assert LADDER.virtual_column(1, 5) == -2  # 1-5
    assert LADDER.virtual_label(-2) == "1-5"
    assert LADDER.virtual_column(1, 3.5) == -1  # 1-4: attack >= 3.5/4


def test_strengths_must_be_positive() -> None:
    with pytest.raises(ValueError, match="defense"):
        LADDER.resolve(3, 0)
    with pytest.raises(ValueError, match="attack"):
        LADDER.resolve(-1, 3)


# --------------------------------------------------------------------------- shifts


AIR = Shift(1, "air support", "11.7")
RIVER = Shift(-1, "river", "[10.12]")
HILL = Shift(-2, "hill", "11.8")


def test_shifts_and_explain() -> None:
    r = LADDER.resolve(11, 4, (AIR, RIVER))
    assert r.raw_column == "2-1" and r.final_column == "2-1" and r.net_shift == 0
    assert r.explain() == "11 vs 4 → 2-1; +1 air support [11.7]; -1 river [10.12] → 2-1 (net 0)"
    assert r.raw_text == "11:4 = 2.75"
    r = LADDER.resolve(11, 4, (AIR, AIR))
    assert r.final_column == "4-1"
    assert (
        r.explain() == "11 vs 4 → 2-1; +1 air support [11.7]; +1 air support [11.7] → 4-1 (net +2)"
    )
    assert LADDER.resolve(11, 4).explain() == "11 vs 4 → 2-1"


def test_caps() -> None:
    capped = OddsLadder(COLUMNS, caps=ShiftCaps(max_right=2, max_left=1))
    r = capped.resolve(2, 2, (AIR, AIR, AIR))
    assert r.shift_total == 3 and r.net_shift == 2 and r.final_column == "3-1"
    assert r.explain() == (
        "2 vs 2 → 1-1; +1 air support [11.7]; +1 air support [11.7]; +1 air support [11.7]"
        " → 3-1 (net +2, capped from +3)"
    )
    r = capped.resolve(2, 2, (HILL, RIVER))
    assert r.net_shift == -1 and r.final_column == "1-2"
    # Caps given per call replace the ladder's.
    assert capped.resolve(2, 2, (HILL, RIVER), ShiftCaps()).final_column == "1-3"
    with pytest.raises(ValueError):
        ShiftCaps(max_left=-1)


def test_clamp_at_both_ends() -> None:
    r = LADDER.resolve(5, 1, (AIR, AIR, AIR))
    assert r.final_column == "6-1" and r.final_index == 7
    assert r.explain().endswith("→ 6-1 (net +3; 8-1 counts as 6-1)")
    r = LADDER.resolve(1, 2, (HILL, HILL))
    assert r.final_column == "1-3"
    r = STRICT.resolve(1, 2, (HILL,))
    assert r.below_ladder and r.final_column is None
    assert r.explain() == "1 vs 2 → 1-2; -2 hill [11.8] → below 1-3 (net -2)"


def test_column_mode_shifts_from_the_printed_column() -> None:
    r = LADDER.resolve(13, 1, (HILL,))
    assert r.raw_column == "6-1" and r.final_column == "4-1"
    assert r.explain() == "13 vs 1 → 6-1; -2 hill [11.8] → 4-1 (net -2)"
    # Raw odds under a strict ladder fail whatever the shifts.
    r = STRICT.resolve(1, 5, (AIR, AIR))
    assert r.below_ladder and r.raw_column == "1-5"


def test_virtual_mode_1940_11_14() -> None:
    # 1940: What If? [11.14]: shifts move on an unbounded ladder, then above 5:1 is 5:1 and
    # below 1:3 an automatic AL1 (our "below the ladder").
    ladder = OddsLadder(("1-3", "1-2", "1-1", "2-1", "3-1", "4-1", "5-1"), "none", "virtual")
    r = ladder.resolve(13, 1, (HILL,))
    assert r.raw_column == "13-1" and r.final_column == "5-1"
    assert r.explain() == "13 vs 1 → 13-1; -2 hill [11.8] → 5-1 (net -2; 11-1 counts as 5-1)"
    assert ladder.resolve(7, 1, (Shift(-3, "GAST", "6.11"),)).final_column == "4-1"
    r = ladder.resolve(1, 5, (AIR, AIR))  # 1-5 shifted twice right is 1-3
    assert r.final_column == "1-3"
    assert (
        r.explain() == "1 vs 5 → 1-5; +1 air support [11.7]; +1 air support [11.7] → 1-3 (net +2)"
    )
    r = ladder.resolve(1, 4)
    assert r.below_ladder and r.explain() == "1 vs 4 → 1-4 → below 1-3"


# --------------------------------------------------------------------------- differential


DIFF = DifferentialLadder(tuple(range(-3, 7)))


def test_differential_columns() -> None:
    assert DIFF.labels[0] == "-3" and DIFF.labels[3] == "0" and DIFF.labels[-1] == "+6"
    assert DIFF.labels[DIFF.raw_column(11, 4) or 0] == "+6"
    assert DIFF.labels[DIFF.raw_column(7, 4) or 0] == "+3"
    assert DIFF.labels[DIFF.raw_column(4, 4.5) or 0] == "-1"  # -0.5 rounds to the defender
    assert DIFF.raw_column(1, 10) == 0
    r = DIFF.resolve(7, 4, (AIR, RIVER, RIVER))
    assert r.raw_text == "7 - 4 = +3" and r.final_column == "+2"
    assert (
        r.explain()
        == "7 vs 4 → +3; +1 air support [11.7]; -1 river [10.12]; -1 river [10.12] → +2 (net -1)"
    )


def test_differential_shares_caps_and_modes() -> None:
    capped = DifferentialLadder((-1, 0, 1, 2), below="none", caps=ShiftCaps(max_left=1))
    r = capped.resolve(3, 3, (HILL,))
    assert r.net_shift == -1 and r.final_column == "-1"
    assert capped.resolve(1, 5).below_ladder
    virtual = DifferentialLadder((-1, 0, 1, 2), shift_from="virtual")
    r = virtual.resolve(9, 1, (HILL,))
    assert r.raw_column == "+8" and r.final_column == "+2"


# --------------------------------------------------------------------------- parsing


def test_from_dict() -> None:
    d: dict[str, Any] = {
        "kind": "odds",
        "columns": list(COLUMNS),
        "below": "none",
        "shift_from": "virtual",
        "max_right": 3,
        "max_left": 2,
    }
    ladder = OddsLadder.from_dict(d, "crt.toml")
    assert ladder == OddsLadder(COLUMNS, "none", "virtual", ShiftCaps(3, 2))
    assert ladder_from_dict(d, "crt.toml") == ladder
    dd = DifferentialLadder.from_dict({"columns": [-1, "0", "+1"]}, "crt.toml")
    assert dd.columns == (-1, 0, 1)
    assert isinstance(
        ladder_from_dict({"kind": "differential", "columns": [0, 1]}, "x"), DifferentialLadder
    )


@pytest.mark.parametrize(
    ("d", "where", "fragment"),
    [
        ({"columns": ["1-2", "3-0"]}, "columns[1]", "1 or more"),
        ({"columns": ["1-2", "two-1"]}, "columns[1]", "not an odds column"),
        ({"columns": ["2-1", "1-1"]}, "columns", "must rise"),
        ({"columns": ["1-1", "2-2"]}, "columns", "must rise"),
        ({"columns": []}, "columns", "must not be empty"),
        ({}, "columns", "missing"),
        ({"columns": ["1-1"], "below": "auto"}, "below", "'auto'"),
        ({"columns": ["1-1"], "shift_from": "raw"}, "shift_from", "'raw'"),
        ({"columns": ["1-1"], "max_left": -1}, "max_left", "must be at least 0, not -1"),
        ({"columns": ["1-1"], "colums": []}, "colums", "unknown field"),
        ({"columns": ["1-1"], "kind": "differential"}, "kind", "'odds'"),
    ],
)
def test_odds_parse_errors(d: dict[str, Any], where: str, fragment: str) -> None:
    with pytest.raises(DataError) as e:
        OddsLadder.from_dict(d, "crt.toml")
    assert e.value.where == where and fragment in e.value.what
    assert str(e.value).startswith("crt.toml: ")


@pytest.mark.parametrize(
    ("d", "where"),
    [
        ({"columns": [0, 2, 1]}, "columns"),
        ({"columns": [0, 0]}, "columns"),
        ({"columns": [0, 1.5]}, "columns[1]"),
        ({"columns": [0, True]}, "columns[1]"),
        ({"columns": ["+x"]}, "columns[0]"),
    ],
)
def test_differential_parse_errors(d: dict[str, Any], where: str) -> None:
    with pytest.raises(DataError) as e:
        DifferentialLadder.from_dict(d, "crt.toml")
    assert e.value.where == where


def test_ladder_from_dict_needs_kind() -> None:
    with pytest.raises(DataError) as e:
        ladder_from_dict({"columns": ["1-1"]}, "crt.toml")
    assert e.value.where == "kind"


def test_direct_construction_validates() -> None:
    with pytest.raises(ValueError):
        OddsLadder(("3-1", "1-1"))
    with pytest.raises(ValueError):
        DifferentialLadder(())


# --------------------------------------------------------------------------- properties


strength = st.floats(min_value=0.1, max_value=200, allow_nan=False, allow_infinity=False)
ladders = st.sampled_from(
    [
        LADDER,
        STRICT,
        OddsLadder(("1-2", "1-1", "3-2", "2-1")),
        OddsLadder(("2-3", "3-2")),
    ]
)


@given(ladders, strength, strength, st.floats(min_value=0, max_value=50))
def test_more_attack_never_lowers_the_column(
    ladder: OddsLadder, attack: float, defense: float, extra: float
) -> None:
    assert ladder.virtual_column(attack + extra, defense) >= ladder.virtual_column(attack, defense)
    lo, hi = ladder.raw_column(attack, defense), ladder.raw_column(attack + extra, defense)
    assert (-1 if hi is None else hi) >= (-1 if lo is None else lo)


@given(ladders, strength, strength, st.floats(min_value=0, max_value=50))
def test_more_defense_never_raises_the_column(
    ladder: OddsLadder, attack: float, defense: float, extra: float
) -> None:
    assert ladder.virtual_column(attack, defense + extra) <= ladder.virtual_column(attack, defense)
    lo, hi = ladder.raw_column(attack, defense + extra), ladder.raw_column(attack, defense)
    assert (-1 if hi is None else hi) >= (-1 if lo is None else lo)


@given(ladders, strength, strength)
def test_raw_column_is_met_and_next_is_not(
    ladder: OddsLadder, attack: float, defense: float
) -> None:
    # Defender's favour, stated directly: the column's ratio is met, the next one's is not.
    ratio = Fraction(attack) / Fraction(defense)
    i = ladder.raw_column(attack, defense)
    v = ladder.virtual_column(attack, defense)
    if i is not None and v >= 0:
        assert ratio >= _ratio(ladder.columns[i])
    if i is not None and i + 1 < len(ladder.columns):
        assert ratio < _ratio(ladder.columns[i + 1])


def _ratio(label: str) -> Fraction:
    a, b = label.split("-")
    return Fraction(int(a), int(b))


@given(strength, strength, st.floats(min_value=0, max_value=50))
def test_differential_monotonic(attack: float, defense: float, extra: float) -> None:
    assert DIFF.virtual_column(attack + extra, defense) >= DIFF.virtual_column(attack, defense)
    assert DIFF.virtual_column(attack, defense + extra) <= DIFF.virtual_column(attack, defense)
