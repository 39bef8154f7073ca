"""The chances a dice hint quotes (engine/rollodds.py), against hand calculation."""

from __future__ import annotations

from fractions import Fraction

from wartable.engine.rollodds import (
    DiceGroup,
    at_value,
    best_of_faces,
    pct,
    success_distribution,
    success_line,
    sum_distribution,
    total_line,
)


def close(x: float, y: Fraction) -> bool:
    return abs(x - float(y)) < 1e-12


def test_two_dice_at_2_hit_0_1_2_times_16_16_4_in_36() -> None:
    """General Combat: a die hits on its number or less; two dice at 2 of a d6."""
    dist = success_distribution([at_value(2, 2)])
    assert [round(q * 36, 9) for q in dist] == [16, 16, 4]


def test_heavy_bomber_best_of_two_dice_at_4_hits_8_in_9() -> None:
    """Heavy Bombers (Breakthrough Chart 2): two dice at 4, the better counts:
    P(hit) = 1 - (2/6)^2 = 8/9."""
    assert close(success_distribution([at_value(4, 1, 2)])[1], Fraction(8, 9))
    assert at_value(4, 1, 2).label == "2 dice at 4 (best of 2 each)"


def test_mixed_groups_add_up() -> None:
    """One die at 1 and one at 3: P(0) = 5/6 * 3/6, P(2) = 1/6 * 3/6."""
    dist = success_distribution([at_value(1, 1), at_value(3, 1)])
    assert close(dist[0], Fraction(15, 36)) and close(dist[2], Fraction(3, 36))
    assert close(sum(dist), Fraction(1))


def test_sum_of_two_d6_is_the_triangle() -> None:
    dist = sum_distribution(2, best_of_faces(1))
    assert [round(q * 36, 9) for q in dist[2:]] == [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]
    assert dist[0] == dist[1] == 0


def test_better_of_two_d6_faces() -> None:
    """max of two d6 is k with (k^2 - (k-1)^2)/36: 1, 3, 5, 7, 9, 11 in 36."""
    assert [round(q * 36, 9) for q in best_of_faces(2)] == [1, 3, 5, 7, 9, 11]


def test_total_line_with_a_cap() -> None:
    """1d6 capped at 4: expected (1+2+3+4+4+4)/6 = 3.0, the cap reached on 4, 5, 6 (50%)."""
    line = total_line("Damage", 1, cap=4)
    assert line.startswith("Damage: 1d6, 1-6, 3.5 expected")
    assert "at most 4 counts, so 3.0 expected (50% to reach it)" in line


def test_success_line_names_the_noun_and_spread() -> None:
    line = success_line("Research dice", [DiceGroup("2 dice", 2, 1 / 6)], "",
                        "breakthrough", "breakthroughs")
    # P(at least one 6 in two dice) = 11/36 = 30.6%.
    assert line.startswith("Research dice: 2 dice — 31% at least one breakthrough")
    assert "(breakthroughs 0: 69%, 1: 28%, 2: 3%)" in line


def test_pct_never_says_0_for_a_chance() -> None:
    assert pct(0.001) == "<1%" and pct(0.999) == ">99%" and pct(0) == "0%" and pct(1) == "100%"
