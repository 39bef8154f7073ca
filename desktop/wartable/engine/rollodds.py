"""Chances of a roll, as players read them (Game > Hint at a dice prompt, issue 7).

A game says what an asked roll decides through `Rules.explain_roll`; these pure helpers turn
the dice it names into text: groups of dice that each succeed with a chance (battle dice
hitting on their number or less, research dice on a 6) and totals of dice (damage, IPCs).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class RollNotes:
    """What a game says of an asked roll: its lines, and whether the hint should also list
    each face's outcome (a table die, whose lines only explain the results' codes)."""

    lines: tuple[str, ...]
    with_faces: bool = False


@dataclass(frozen=True)
class DiceGroup:
    """`count` units that each succeed with chance `p`; `label` says how ("2 dice at 2")."""

    label: str
    count: int
    p: float


def pct(p: float) -> str:
    """A chance as players read it: "31%", "<1%" for a sliver, never "0%" for a chance."""
    if 0 < p < 0.005:
        return "<1%"
    if 0.995 < p < 1:
        return ">99%"
    return f"{100 * p:.0f}%"


def dice(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


def hit_chance(value: int, best_of: int = 1, sides: int = 6) -> float:
    """A unit hits when its best (lowest) of `best_of` dice is `value` or less."""
    return 1 - (1 - min(max(value, 0), sides) / sides) ** best_of


def at_value(value: int, count: int, best_of: int = 1, sides: int = 6,
             target: str = "") -> DiceGroup:
    """Battle dice: `count` units rolling at `value` ("3 dice at 2 (best of 2 each) at X")."""
    best = f" (best of {best_of} each)" if best_of > 1 else ""
    at = f" at {target}" if target else ""
    return DiceGroup(f"{dice(count * best_of)} at {value}{best}{at}", count,
                     hit_chance(value, best_of, sides))


def success_distribution(groups: Sequence[DiceGroup]) -> list[float]:
    """P(exactly k successes) for k = 0..n (binomials per group, added up)."""
    dist = [1.0]
    for g in groups:
        for _ in range(g.count):
            nxt = [0.0] * (len(dist) + 1)
            for k, q in enumerate(dist):
                nxt[k] += q * (1 - g.p)
                nxt[k + 1] += q * g.p
            dist = nxt
    return dist


def success_line(who: str, groups: Sequence[DiceGroup], rule_text: str,
                 noun: str = "hit", nouns: str = "hits") -> str:
    """"Attacker: 1 die at 1, 2 dice at 2 (a die hits on its number or less) — 81% at least
    one hit, 1.33 hits expected (hits 0: 19%, 1: 41%, ...)"."""
    dist = success_distribution(groups)
    expected = sum(k * q for k, q in enumerate(dist))
    spread = ", ".join(f"{k}: {pct(q)}" for k, q in enumerate(dist))
    how = f" ({rule_text})" if rule_text else ""
    return (f"{who}: {', '.join(g.label for g in groups)}{how} — "
            f"{pct(1 - dist[0])} at least one {noun}, {expected:.2f} {nouns} expected "
            f"({nouns} {spread})")


def best_of_faces(best_of: int, sides: int = 6) -> tuple[float, ...]:
    """P(face) of the higher of `best_of` dice (Heavy Bombers keep the better damage die)."""
    return tuple(((f / sides) ** best_of - ((f - 1) / sides) ** best_of)
                 for f in range(1, sides + 1))


def sum_distribution(count: int, faces: Sequence[float]) -> list[float]:
    """P(total = t) for t = 0..count*len(faces) of `count` dice whose face f+1 comes up with
    chance faces[f] (index t; totals below `count` have chance 0)."""
    dist = [1.0]
    for _ in range(count):
        nxt = [0.0] * (len(dist) + len(faces))
        for t, q in enumerate(dist):
            if q:
                for f, pf in enumerate(faces, 1):
                    nxt[t + f] += q * pf
        dist = nxt
    return dist


def total_line(what: str, count: int, sides: int = 6, best_of: int = 1,
               cap: int | None = None) -> str:
    """"Damage: 3d6, 3-18, 10.5 expected; at most 7 counts, so 6.6 expected (…)"."""
    dist = sum_distribution(count, best_of_faces(best_of, sides))
    expected = sum(t * q for t, q in enumerate(dist))
    best = f" (the better of {best_of} each)" if best_of > 1 else ""
    line = f"{what}: {count}d{sides}{best}, {count}-{count * sides}, {expected:.1f} expected"
    if cap is not None and cap < count * sides:
        capped = sum(min(t, cap) * q for t, q in enumerate(dist))
        line += (f"; at most {cap} counts, so {capped:.1f} expected"
                 f" ({pct(sum(q for t, q in enumerate(dist) if t >= cap))} to reach it)")
    return line
