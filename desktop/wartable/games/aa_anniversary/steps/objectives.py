"""National Objectives & Bonus Income (optional rule, pg. 22-23), read from objectives.toml.

Each objective is a set of conditions (all must hold) in a small vocabulary, validated when
first read with errors naming the objective:
  controls_all                        the power's side controls every listed space
  controls_at_least {count, of}       the power's side controls at least `count` of them
  controls_originally_of              the side controls a territory originally that power's
  power_controls                      the power itself controls every listed space
  no_enemy_surface_warships_in        no enemy battleship/carrier/cruiser/destroyer there
  no_allied_units_in_own_territories  no other power of the side has units in a territory
                                      the power controls (industrial complexes do not count)
At Collect Income (Phase 7, pg. 22), with the option on, each met objective adds its bonus.
A power whose capital is enemy-held skips Collect Income, so it gets no bonus either.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from wartable.core.errors import DataError
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Event, Outcome
from wartable.engine.rules import Game
from wartable.games.aa_anniversary.steps.common import (
    capital_held,
    controller,
    ipcs,
    space_name,
    stats,
    with_ipcs,
    world,
)
from wartable.model.state import GameState

OPTION = "national_objectives"
SOURCE = "wartable.games.aa_anniversary.data/objectives.toml"
R_OBJECTIVES = "National Objectives & Bonus Income (pg. 22-23)"

_REQUIRED = ("id", "text", "bonus", "rule")
_CONDITIONS = ("controls_all", "controls_at_least", "controls_originally_of", "power_controls",
               "no_enemy_surface_warships_in", "no_allied_units_in_own_territories")


@dataclass(frozen=True)
class Objective:
    """One national objective of one power."""

    power: str
    id: str
    text: str
    bonus: int
    rule: str
    controls_all: tuple[str, ...] = ()
    at_least: int = 0  # controls_at_least: count ...
    at_least_of: tuple[str, ...] = ()  # ... of these spaces
    originally_of: str = ""
    power_controls: tuple[str, ...] = ()
    no_warships_in: tuple[str, ...] = ()
    no_allied_units: bool = False


# --- reading and validating the data -------------------------------------------------------

def _spaces(value: Any, where: str, key: str, allowed: frozenset[str], kind: str,
            source: str) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise DataError(source, where, f"{key} must be a list of {kind} ids")
    out = tuple(value)
    if not out:
        raise DataError(source, where, f"{key} lists no {kind}")
    for s in out:
        if not isinstance(s, str) or s not in allowed:
            raise DataError(source, where, f"{key}: {s!r} is not a {kind} id of "
                            f"territories.toml (neutral territories cannot be controlled)")
    if len(set(out)) != len(out):
        raise DataError(source, where, f"{key} lists a space twice")
    return out


def parse_objectives(table: Mapping[str, Any], *, land: frozenset[str], sea: frozenset[str],
                     powers: tuple[str, ...], source: str = SOURCE
                     ) -> FrozenMap[str, tuple[Objective, ...]]:
    """The objectives of each power from `tables.objectives` (power -> list of tables).
    `land`: the territories that can be controlled (not neutral); `sea`: the sea zones."""
    out: dict[str, tuple[Objective, ...]] = {}
    for power, items in table.items():
        if power not in powers:
            raise DataError(source, f"objectives.{power}",
                            f"is not a power; powers: {', '.join(powers)}")
        if isinstance(items, str | Mapping) or not isinstance(items, Iterable):
            raise DataError(source, f"objectives.{power}", "must be a list of objectives")
        seen: set[str] = set()
        objs: list[Objective] = []
        for n, item in enumerate(items, 1):
            objs.append(_parse_one(power, n, item, land, sea, powers, source))
            if objs[-1].id in seen:
                raise DataError(source, f"objective {power}.{objs[-1].id}", "id is used twice")
            seen.add(objs[-1].id)
        out[power] = tuple(objs)
    return FrozenMap(out)


def _parse_one(power: str, n: int, item: Any, land: frozenset[str], sea: frozenset[str],
               powers: tuple[str, ...], source: str) -> Objective:
    if not isinstance(item, Mapping):
        raise DataError(source, f"objective {power} #{n}", "must be a table")
    oid = item.get("id")
    where = f"objective {power}.{oid}" if isinstance(oid, str) and oid else \
        f"objective {power} #{n}"
    for key in _REQUIRED:
        if key not in item:
            raise DataError(source, where, f"has no {key}")
    unknown = sorted(set(item) - set(_REQUIRED) - set(_CONDITIONS))
    if unknown:
        raise DataError(source, where, f"unknown key {unknown[0]!r}; conditions: "
                        f"{', '.join(_CONDITIONS)}")
    for key in ("id", "text", "rule"):
        if not isinstance(item[key], str) or not item[key].strip():
            raise DataError(source, where, f"{key} must be a non-empty text")
    bonus = item["bonus"]
    if isinstance(bonus, bool) or not isinstance(bonus, int) or bonus <= 0:
        raise DataError(source, where, f"bonus must be a positive whole number of IPCs, "
                        f"not {bonus!r}")
    if not any(k in item for k in _CONDITIONS):
        raise DataError(source, where, f"has no condition; use one or more of "
                        f"{', '.join(_CONDITIONS)}")
    kw: dict[str, Any] = {}
    if "controls_all" in item:
        kw["controls_all"] = _spaces(item["controls_all"], where, "controls_all", land,
                                     "territory", source)
    if "controls_at_least" in item:
        spec = item["controls_at_least"]
        if not isinstance(spec, Mapping) or set(spec) != {"count", "of"}:
            raise DataError(source, where, "controls_at_least must be { count = N, of = [...] }")
        of = _spaces(spec["of"], where, "controls_at_least.of", land, "territory", source)
        count = spec["count"]
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= len(of):
            raise DataError(source, where, f"controls_at_least.count must be 1 to {len(of)}, "
                            f"not {count!r}")
        kw["at_least"], kw["at_least_of"] = count, of
    if "controls_originally_of" in item:
        orig = item["controls_originally_of"]
        if orig not in powers:
            raise DataError(source, where, f"controls_originally_of: {orig!r} is not a power")
        kw["originally_of"] = orig
    if "power_controls" in item:
        kw["power_controls"] = _spaces(item["power_controls"], where, "power_controls", land,
                                       "territory", source)
    if "no_enemy_surface_warships_in" in item:
        kw["no_warships_in"] = _spaces(item["no_enemy_surface_warships_in"], where,
                                       "no_enemy_surface_warships_in", sea, "sea zone", source)
    if "no_allied_units_in_own_territories" in item:
        if item["no_allied_units_in_own_territories"] is not True:
            raise DataError(source, where, "no_allied_units_in_own_territories must be true "
                            "(leave it out otherwise)")
        kw["no_allied_units"] = True
    return Objective(power=power, id=item["id"], text=item["text"].strip(), bonus=bonus,
                     rule=item["rule"], **kw)


def all_objectives(game: Game) -> FrozenMap[str, tuple[Objective, ...]]:
    """Every power's objectives, read and validated once per Game (DataError if invalid)."""
    return game.derived(_build_objectives)


def _build_objectives(game: Game) -> FrozenMap[str, tuple[Objective, ...]]:
    w = world(game)
    table = game.definition.tables.get("objectives", FrozenMap())
    return parse_objectives(table, land=w.land - w.neutral, sea=w.sea,
                            powers=game.definition.side_ids)


def objectives_for(game: Game, power: str) -> tuple[Objective, ...]:
    return all_objectives(game).get(power, ())


def enabled(state: GameState) -> bool:
    """Is the optional National Objectives rule on in this game?"""
    return bool(state.option(OPTION, False))


# --- evaluating -----------------------------------------------------------------------------

def _names(game: Game, spaces: Iterable[str]) -> str:
    return ", ".join(space_name(game, s) for s in spaces) or "none"


def _held_by(game: Game, state: GameState, space: str) -> str:
    c = controller(state, space)
    return game.definition.side(c).name if c else "no one"


def evaluate(game: Game, state: GameState, obj: Objective) -> tuple[bool, str]:
    """(met, why): every condition of the objective in turn; why names the spaces."""
    w = world(game)
    side = w.alliance.get(obj.power, "")
    label = {"axis": "the Axis", "allies": "the Allies"}.get(side, side)
    ours = {s for s in w.land if w.alliance.get(controller(state, s)) == side}
    met, why = True, []

    if obj.controls_all:
        lost = [s for s in obj.controls_all if s not in ours]
        if lost:
            met = False
            why.append(f"{label} hold {len(obj.controls_all) - len(lost)} of "
                       f"{len(obj.controls_all)}; not held: " + ", ".join(
                           f"{space_name(game, s)} ({_held_by(game, state, s)})" for s in lost))
        else:
            why.append(f"{label} hold all of {_names(game, obj.controls_all)}")
    if obj.at_least:
        held = [s for s in obj.at_least_of if s in ours]
        ok = len(held) >= obj.at_least
        met = met and ok
        why.append(f"{label} hold {len(held)} of {len(obj.at_least_of)}, "
                   f"{obj.at_least} needed" + (f": {_names(game, held)}" if held else ""))
    if obj.originally_of:
        orig = sorted(s for s in w.land if w.original.get(s) == obj.originally_of)
        held = [s for s in orig if s in ours]
        who = game.definition.side(obj.originally_of).name
        if held:
            why.append(f"{label} hold {_names(game, held)}, originally under {who}'s control")
        else:
            met = False
            why.append(f"{label} hold none of the territories originally under {who}'s "
                       f"control ({_names(game, orig)})")
    if obj.power_controls:
        name = game.definition.side(obj.power).name
        lost = [s for s in obj.power_controls if controller(state, s) != obj.power]
        if lost:
            met = False
            why.append(f"{name} does not control " + ", ".join(
                f"{space_name(game, s)} ({_held_by(game, state, s)})" for s in lost))
        else:
            why.append(f"{name} controls {_names(game, obj.power_controls)}")
    if obj.no_warships_in:
        found = []
        for sz in obj.no_warships_in:
            ships = sorted(
                f"{game.definition.side(p.side).name} {stats(game, p).name.lower()}"
                for p in state.pieces_at(sz)
                if w.alliance.get(p.side) != side and _surface_warship(game, p.type))
            if ships:
                found.append(f"{space_name(game, sz)} ({', '.join(ships)})")
        if found:
            met = False
            why.append("enemy surface warships in " + "; ".join(found))
        else:
            why.append(f"no enemy surface warships in {_names(game, obj.no_warships_in)}")
    if obj.no_allied_units:
        guests: dict[str, list[str]] = {}
        for p in state.pieces.values():
            if (p.side != obj.power and w.alliance.get(p.side) == side
                    and p.location in w.land and controller(state, p.location) == obj.power
                    and not stats(game, p).factory):
                guests.setdefault(p.location, []).append(
                    f"{game.definition.side(p.side).name} {stats(game, p).name.lower()}")
        name = game.definition.side(obj.power).name
        if guests:
            met = False
            why.append(f"other Allied units in territories {name} controls: " + "; ".join(
                f"{space_name(game, s)} ({', '.join(sorted(u))})"
                for s, u in sorted(guests.items())))
        else:
            why.append(f"no other Allied units in territories {name} controls")
    text = "; ".join(why)
    return met, text[:1].upper() + text[1:]


def _surface_warship(game: Game, unit: str) -> bool:
    """Battleships, carriers, cruisers and destroyers (Sea Units, pg. 28)."""
    s = world(game).catalog[unit]
    return s.sea and not s.sub and not s.transport


def objectives_status(game: Game, state: GameState, power: str
                      ) -> tuple[tuple[str, int, bool, str], ...]:
    """For a panel: (objective text, bonus IPCs, met, why) for each of the power's objectives,
    whether or not the option is on (see `enabled`). While the power's capital is enemy-held
    the why says the bonus is void (the power skips Collect Income)."""
    void = ""
    if not capital_held(game, state, power):
        cap = world(game).capital.get(power, "")
        void = f" (no bonus while {space_name(game, cap)} is enemy-held)"
    out = []
    for obj in objectives_for(game, power):
        met, why = evaluate(game, state, obj)
        out.append((obj.text, obj.bonus, met, why + void))
    return tuple(out)


def bonus_total(game: Game, state: GameState, power: str) -> int:
    """The bonus the power would collect now (0 with the option off or its capital lost)."""
    if not enabled(state) or not capital_held(game, state, power):
        return 0
    return sum(o.bonus for o in objectives_for(game, power) if evaluate(game, state, o)[0])


def collect_bonus(game: Game, state: GameState, power: str) -> Outcome:
    """Phase 7, National Objectives: add the bonus of each met objective, one event each."""
    if not enabled(state):
        return Outcome(state)
    name = game.definition.side(power).name
    evs: list[Event] = []
    total = 0
    for obj in objectives_for(game, power):
        met, why = evaluate(game, state, obj)
        if met:
            total += obj.bonus
            evs.append(Event("income", f"{name}: objective '{obj.text}' met: +{obj.bonus} "
                             f"IPCs ({why})", power, obj.rule))
        else:
            evs.append(Event("info", f"{name}: objective '{obj.text}' not met ({why})",
                             power, obj.rule))
    if total:
        state = with_ipcs(state, power, ipcs(state, power) + total)
        evs.append(Event("income", f"{name} collects {total} bonus IPCs ({ipcs(state, power)} "
                         f"in the treasury)", power, R_OBJECTIVES,
                         data=FrozenMap(bonus=total, treasury=ipcs(state, power))))
    return Outcome(state, tuple(evs))
