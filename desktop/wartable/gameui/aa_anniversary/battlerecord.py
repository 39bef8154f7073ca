"""The record of an Axis & Allies battle, read from the engine's log and state.

The battle board shows each roll with its hits: the dice of a "dice" event are split into
the fire groups the engine rolled them for (combat.fire_groups and friends, from the forces
and the round plan in the state), and checked against the engine's own count of the round's
hits ("attacker scores a, defender d") so a roll is never shown wrongly marked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from wartable.engine.actions import Event
from wartable.engine.rules import Game
from wartable.games.aa_anniversary import combat as c
from wartable.games.aa_anniversary import rollhint
from wartable.games.aa_anniversary.steps.battle import casualties, forces
from wartable.model.state import GameState


@dataclass(frozen=True)
class DiceGroup:
    """Dice of one value for one side: `value` 0 when the dice could not be matched."""

    side: str  # "attacker" | "defender" | "aa"
    value: int
    dice: tuple[int, ...]
    hits: int = 0  # as the engine counts them (combat.group_hits: best of n for Heavy Bombers)


@dataclass(frozen=True)
class Roll:
    title: str  # "Round 2", "Submarine Surprise Strike", "AA fire"
    groups: tuple[DiceGroup, ...]
    summary: str = ""  # the engine's "attacker scores n, defender m"


def parse_dice(text: str) -> tuple[int, ...]:
    """The values of a dice event ("…: rolled 4+1+6 = 11", "…: rolled 3 (physical dice)")."""
    _, _, tail = text.rpartition("rolled ")
    tail = tail.split(" =")[0].split(" (")[0].strip()
    try:
        return tuple(int(x) for x in tail.split("+"))
    except ValueError:
        return ()


def battle_start(events: tuple[Event, ...]) -> int:
    """Index of the last "Battle in X: … attack …" event (Conduct Combat), or -1."""
    for i in range(len(events) - 1, -1, -1):
        e = events[i]
        if e.kind == "combat" and e.text.startswith("Battle in ") and " attack " in e.text:
            return i
    return -1


def split_dice(dice: tuple[int, ...], groups: tuple[tuple[c.FireGroup, ...], ...],
               sides: tuple[str, ...]) -> tuple[DiceGroup, ...] | None:
    """Dice in the engine's order (attacker's groups, then defender's, each by value);
    None when the count does not match (the forces changed since the roll)."""
    if sum(c.dice_count(gs) for gs in groups) != len(dice):
        return None
    out, i = [], 0
    for side, gs in zip(sides, groups, strict=True):
        for g in gs:
            mine = dice[i:i + g.dice]
            out.append(DiceGroup(side, g.value, mine, c.group_hits((g,), mine)[0]))
            i += g.dice
    return tuple(out)


# The game's own readings: a roll's fire groups, a casualties frame's hits, and the units
# that may take them.
round_groups = rollhint.round_groups
frame_hits = casualties.frame_hits
role_pieces = forces.role_pieces


_SCORES = re.compile(r"attacker scores (\d+), defender (\d+)")


def checked(roll: Roll, summary: str) -> Roll:
    """The roll with the engine's "attacker scores a, defender d": when the dice were matched
    to groups from a later position (a game loaded mid-battle) and the hits disagree with
    the engine's, the dice are shown unmatched rather than wrongly marked."""
    m = _SCORES.search(summary)
    sides = {g.side for g in roll.groups}
    if m and sides <= {"attacker", "defender"}:
        got = tuple(sum(g.hits for g in roll.groups if g.side == who)
                    for who in ("attacker", "defender"))
        if got != (int(m[1]), int(m[2])):
            dice = tuple(d for g in roll.groups for d in g.dice)
            return Roll(roll.title, (DiceGroup("unmatched", 0, dice),), summary)
    return Roll(roll.title, roll.groups, summary)


def aa_value(game: Game, state: GameState) -> int:
    """An AA gun's hit number in this battle (Antiaircraft Guns, pg. 25: hits on 1; Radar
    raises it, research.battle_catalog)."""
    return max((s.aa for s in forces.battle_values(game, state).units.values()), default=1)
