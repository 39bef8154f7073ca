"""The record of an Axis & Allies battle, read from the engine's log and state.

The battle board shows each roll with its hits: the dice of a "dice" event are split into
the fire groups the engine rolled them for (combat.fire_groups and friends, from the forces
and the round plan in the state), and checked against the engine's own count of the round's
hits (the round event's data) so a roll is never shown wrongly marked. Everything is read
from the events' data (Event.data), never from their wording.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Event
from wartable.engine.rules import Game
from wartable.games.aa_anniversary import combat as c
from wartable.games.aa_anniversary import rollhint
from wartable.games.aa_anniversary.steps.battle import casualties, forces
from wartable.games.aa_anniversary.steps.common import space_name
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


# The continuations of AA guns' dice (Antiaircraft Guns, pg. 25): before a battle's first
# round, and against a strategic bombing raid (steps/bombing.py).
AA_RESUMES = frozenset({"aa", "sbr_aa"})


def event_dice(e: Event) -> tuple[int, ...]:
    """The values of a dice event (its data, engine/loop.roll_then)."""
    return tuple(int(x) for x in e.data.get("dice", ()))


def battle_start(events: tuple[Event, ...]) -> int:
    """Index of the last event that began a battle (Conduct Combat), or -1."""
    for i in range(len(events) - 1, -1, -1):
        e = events[i]
        if e.kind == "combat" and e.data.get("battle") == "start":
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


def battle_result_text(game: Game, d: FrozenMap[str, Any]) -> str:
    """How a battle ended ("Battle in Ukraine won"), from its end event's data."""
    name = space_name(game, d["space"])
    result = d["result"]
    if result == "won":
        return f"Battle in {name} won"
    if result == "retreats":
        return f"The attack on {name} retreats"
    if result == "no_land_unit":
        return f"Battle in {name}: no land unit survives to take it"
    if result == "no_attacker":
        return f"No unit left to attack {name}"
    return f"Battle in {name} ends: {d['outcome']}"


def checked(roll: Roll, attacker_hits: int, defender_hits: int) -> Roll:
    """The roll with the engine's count of its hits: when the dice were matched to groups
    from a later position (a game loaded mid-battle) and the hits disagree with the
    engine's, the dice are shown unmatched rather than wrongly marked."""
    summary = f"attacker scores {attacker_hits}, defender {defender_hits}"
    sides = {g.side for g in roll.groups}
    if sides <= {"attacker", "defender"}:
        got = tuple(sum(g.hits for g in roll.groups if g.side == who)
                    for who in ("attacker", "defender"))
        if got != (attacker_hits, defender_hits):
            dice = tuple(d for g in roll.groups for d in g.dice)
            return Roll(roll.title, (DiceGroup("unmatched", 0, dice),), summary)
    return Roll(roll.title, roll.groups, summary)


def aa_value(game: Game, state: GameState) -> int:
    """An AA gun's hit number in this battle (Antiaircraft Guns, pg. 25: hits on 1; Radar
    raises it, research.battle_catalog)."""
    return max((s.aa for s in forces.battle_values(game, state).units.values()), default=1)
