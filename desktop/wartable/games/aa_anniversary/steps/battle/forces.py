"""General Combat, Step 1: Place Units on Battle Board (pg. 18): which battles the power
has to fight, which units attack and defend in the battle under way, who decides for the
defender, and the unit values both sides fight with (their developments included).

The battle under way is the state's var `battle` (its space); the attacker is the active
power. The other steps: amphibious.py (Amphibious Assaults, pg. 17), submarines.py (Step 2),
fire.py (Steps 3-4), casualties.py (Step 5), retreat.py (Step 6), conclude.py (Step 7);
__init__.py runs them in sequence.
"""

from __future__ import annotations

from typing import Any

from wartable.core.frozen import FrozenMap
from wartable.engine.rules import Game
from wartable.games.aa_anniversary import combat as c
from wartable.games.aa_anniversary import research
from wartable.games.aa_anniversary.steps.common import (
    allied,
    controller,
    enemy_units,
    stats,
    world,
)
from wartable.model.state import GameState, Piece

R_PHASE = "Phase 4: Conduct Combat (pg. 16)"
MAX_OPTIONS = 12  # casualty and bombardment choices offered as buttons besides the default


def battles(game: Game, state: GameState, power: str) -> tuple[str, ...]:
    """Spaces where the power's units face enemy units or stand in enemy territory."""
    w = world(game)
    done = set(state.var("resolved", ()))
    out = set()
    for p in state.pieces.values():
        target = p.attrs.get("assault")
        if p.side == power and isinstance(target, str) and target not in done:
            out.add(target)  # cargo announced for an amphibious assault there
            continue
        if p.side != power or p.location in done or p.location not in w.neighbors \
                or "ignored:" + p.location in done:
            continue
        s = stats(game, p)
        if not s.fights or p.attrs.get("on") or p.attrs.get("raided"):
            continue
        loc = p.location
        if loc in w.sea:
            # A sea battle needs a unit that can attack, and enemy units that are not cargo.
            if any(
                stats(game, q).attack > 0 and q.side == power and not q.attrs.get("on")
                for q in state.pieces_at(loc)
            ) and any(not q.attrs.get("on") for q in enemy_units(game, state, loc, power)):
                out.add(loc)
        elif enemy_units(game, state, loc, power):
            out.add(loc)
        elif loc in w.land:
            ctl = controller(state, loc)
            if ctl and not allied(game, ctl, power):
                out.add(loc)
    return tuple(sorted(out))


def attackers(game: Game, state: GameState, space: str, power: str) -> tuple[Piece, ...]:
    # "withdrawn": aircraft that retreated while seaborne units fight on (Amphibious Assaults).
    out = set(state.var("withdrawn", ()))
    return tuple(
        sorted(
            (
                p
                for p in state.pieces_at(space)
                if p.side == power and stats(game, p).fights and not p.attrs.get("on")
                and not p.attrs.get("raided") and not p.attrs.get("submerged")
                and p.id not in out
            ),
            key=lambda p: p.id,
        )
    )


def defenders(game: Game, state: GameState, space: str, power: str) -> tuple[Piece, ...]:
    return tuple(
        sorted(
            (
                p
                for p in enemy_units(game, state, space, power)
                if not stats(game, p).factory and not p.attrs.get("on")
                and not p.attrs.get("intercepting") and not p.attrs.get("submerged")
            ),
            key=lambda p: p.id,
        )
    )


def force(pieces: tuple[Piece, ...]) -> c.Force:
    units: dict[str, int] = {}
    dmg: dict[str, int] = {}
    for p in pieces:
        units[p.type] = units.get(p.type, 0) + 1
        if p.attrs.get("damaged"):
            dmg[p.type] = dmg.get(p.type, 0) + 1
    return c.Force.of(units, dmg)


def defending_power(game: Game, state: GameState, space: str, power: str) -> str:
    """The territory's controller decides if it has units there, else the first defender."""
    defs = defenders(game, state, space, power)
    ctl = controller(state, space)
    if any(p.side == ctl for p in defs):
        return ctl
    if defs:
        return defs[0].side
    # Every defender fell in this round (both sides fire before casualties are removed,
    # General Combat Steps 3-5): the power that defended when the battle began.
    return ctl or str(state.var("battle_defender", "") or "")


def battle_values(game: Game, state: GameState) -> c.Catalog:
    """Unit values in the battle under way, with the attacking and defending powers'
    developments (Phase 1: Research & Development; research.battle_catalog)."""
    space, power = str(state.var("battle")), state.active_side
    return research.battle_catalog(game, state, power, defending_power(game, state, space, power),
                                   world(game).catalog)


def role_pieces(game: Game, state: GameState, role: str) -> tuple[Piece, ...]:
    space = str(state.var("battle"))
    power = state.active_side
    if role == "attacker":
        return attackers(game, state, space, power)
    # Units already in the casualty zone (bombardment) cannot be chosen again.
    return tuple(p for p in defenders(game, state, space, power) if not p.attrs.get("pending"))


def pending(game: Game, state: GameState) -> tuple[Piece, ...]:
    """Defenders in the casualty zone: hit by bombardment, they still defend in the first
    round and are removed with its casualties (Amphibious Assaults, Step 2)."""
    space, power = str(state.var("battle")), state.active_side
    return tuple(p for p in defenders(game, state, space, power) if p.attrs.get("pending"))


def force_data(f: c.Force) -> FrozenMap[str, Any]:
    """A force as an event's data (Event.data): counts and damaged counts by unit type."""
    return FrozenMap(units=FrozenMap(dict(f.units)), damaged=FrozenMap(dict(f.damaged)))


def force_from_data(data: FrozenMap[str, Any]) -> c.Force:
    """The force `force_data` wrote."""
    return c.Force.of(dict(data["units"]), dict(data["damaged"]))


def round_plan(state: GameState) -> c.RoundPlan:
    """What holds for the whole round, fixed as it starts (Step 2; Air Units, pg. 26)."""
    a, d, aa, da = state.var("battle_plan", (False, False, False, False))
    return c.RoundPlan(bool(a), bool(d), bool(aa), bool(da))


def sides(game: Game, state: GameState) -> tuple[c.Force, c.Force, c.Catalog, c.RoundPlan]:
    """The battle's attacking and defending forces now, the catalog, and the round's plan."""
    space, power = str(state.var("battle")), state.active_side
    return (force(attackers(game, state, space, power)),
            force(defenders(game, state, space, power)), battle_values(game, state),
            round_plan(state))
