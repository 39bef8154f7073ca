"""Research & Development results (Phase 1: Research & Development): which developments each
power holds. The rest of the rules ask `has(state, power, dev)`; the R&D phase adds to it.

State: vars["developments"] = power -> tuple of development ids (sorted), absent = none;
vars["researchers"] = power -> researcher tokens held (kept until a breakthrough, Step 2).

The Breakthrough Charts and every number a development changes are data (research.toml),
read and checked by `parse_research`. The effects are small pure queries the other rules call:
  battle_catalog   unit values of one battle (attack, artillery support, dice per bomber,
                   AA hit number): combat values change only for the side that owns them
  movement         aircraft range (Long-Range Aircraft), infantry with tanks (Mechanized Inf.)
  unit_cost        Improved Shipyards prices
  factory_bonus    Increased Factory Production; repair_cost its half-price repairs
  aa_hit_max, bomber_dice, rocket_range, rocket_dice   for strategic bombing and rockets
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from wartable.core.errors import DataError
from wartable.core.frozen import FrozenMap
from wartable.engine.rules import Game
from wartable.games.aa_anniversary.combat import Catalog
from wartable.model.definition import UnitType
from wartable.model.parse import Reader
from wartable.model.state import GameState, Piece

V_DEVELOPMENTS = "developments"
V_RESEARCHERS = "researchers"
SOURCE = "wartable.games.aa_anniversary.data/research.toml"

# Breakthrough Chart 1 and Chart 2 (Phase 1: Research & Development), ids used in the data.
ADVANCED_ARTILLERY = "advanced_artillery"
ROCKETS = "rockets"
PARATROOPERS = "paratroopers"
INCREASED_FACTORY_PRODUCTION = "increased_factory_production"
WAR_BONDS = "war_bonds"
IMPROVED_MECHANIZED_INFANTRY = "improved_mechanized_infantry"  # the chart: "Mechanized Infantry"
SUPER_SUBMARINES = "super_submarines"
JET_FIGHTERS = "jet_fighters"
IMPROVED_SHIPYARDS = "improved_shipyards"
RADAR = "radar"
LONG_RANGE_AIRCRAFT = "long_range_aircraft"
HEAVY_BOMBERS = "heavy_bombers"
ALL = (ADVANCED_ARTILLERY, ROCKETS, PARATROOPERS, INCREASED_FACTORY_PRODUCTION, WAR_BONDS,
       IMPROVED_MECHANIZED_INFANTRY, SUPER_SUBMARINES, JET_FIGHTERS, IMPROVED_SHIPYARDS, RADAR,
       LONG_RANGE_AIRCRAFT, HEAVY_BOMBERS)
CHARTS = (1, 2)
SHIPYARD_KEY = "cost_improved_shipyards"  # units.toml: a sea unit's Improved Shipyards price

_UNIT_TABLES = ("attack", "support", "attack_dice", "aa_value", "movement")
_NUMBERS = ("extra_production", "min_ipc", "markers_per_ipc", "income_dice", "rocket_range",
            "rocket_dice")


def developments(state: GameState, power: str) -> frozenset[str]:
    held: FrozenMap[str, tuple[str, ...]] = state.var(V_DEVELOPMENTS, FrozenMap())
    return frozenset(held.get(power, ()))


def has(state: GameState, power: str, dev: str) -> bool:
    return dev in developments(state, power)


def with_development(state: GameState, power: str, dev: str) -> GameState:
    held: FrozenMap[str, tuple[str, ...]] = state.var(V_DEVELOPMENTS, FrozenMap())
    now = tuple(sorted(set(held.get(power, ())) | {dev}))
    return state.with_var(V_DEVELOPMENTS, held.set(power, now))


def researchers(state: GameState, power: str) -> int:
    return int(state.var(V_RESEARCHERS, FrozenMap()).get(power, 0))


def with_researchers(state: GameState, power: str, n: int) -> GameState:
    return state.with_var(V_RESEARCHERS, state.var(V_RESEARCHERS, FrozenMap()).set(power, n))


# --- the data ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Development:
    """One box of a Breakthrough Chart and the numbers it changes."""

    id: str
    name: str
    chart: int
    face: int
    rule: str
    effect: str
    attack: FrozenMap[str, int] = FrozenMap()
    support: FrozenMap[str, int] = FrozenMap()
    attack_dice: FrozenMap[str, int] = FrozenMap()
    aa_value: FrozenMap[str, int] = FrozenMap()
    movement: FrozenMap[str, int] = FrozenMap()
    carries: FrozenMap[str, str] = FrozenMap()
    numbers: FrozenMap[str, int] = FrozenMap()  # extra_production, income_dice...
    provisional: bool = False  # how we apply what the text leaves open: `note`
    note: str = ""


@dataclass(frozen=True)
class ResearchTable:
    researcher_cost: int
    success_face: int
    rule: str
    developments: tuple[Development, ...]

    def get(self, dev: str) -> Development:
        for d in self.developments:
            if d.id == dev:
                return d
        raise DataError(SOURCE, "developments", f"no development {dev!r}")

    def on_chart(self, chart: int, face: int) -> Development:
        for d in self.developments:
            if d.chart == chart and d.face == face:
                return d
        raise DataError(SOURCE, "developments", f"chart {chart} has no result {face}")

    def chart(self, chart: int) -> tuple[Development, ...]:
        return tuple(sorted((d for d in self.developments if d.chart == chart),
                            key=lambda d: d.face))

    def number(self, dev: str, key: str) -> int:
        return int(self.get(dev).numbers.get(key, 0))


def parse_research(table: Mapping[str, Any], unit_types: Mapping[str, UnitType],
                   source: str = SOURCE) -> ResearchTable:
    """Read `tables.research`: both charts complete (faces 1-6 once each), every id one of
    `ALL`, every unit id one of units.toml, every sea unit priced for Improved Shipyards."""
    r = Reader(table, source, "research")
    r.known("researcher_cost", "success_face", "rule", "developments")
    devs: list[Development] = []
    for item in r.items("developments"):
        item.known("id", "name", "chart", "face", "rule", "effect", "carries", "provisional",
                   "note", *_UNIT_TABLES, *_NUMBERS)
        dev_id = item.choice("id", ALL)
        units: dict[str, FrozenMap[str, int]] = {}
        for key in _UNIT_TABLES:
            sub = item.opt_sub(key)
            vals: dict[str, int] = {}
            if sub is not None:
                for u in sub.data:
                    if u not in unit_types:
                        raise sub.fail(u, f"is not a unit of units.toml ({', '.join(unit_types)})")
                    vals[u] = sub.integer(u, minimum=0)
            units[key] = FrozenMap(vals)
        carries: dict[str, str] = {}
        sub = item.opt_sub("carries")
        if sub is not None:
            for u in sub.data:
                carrier = sub.choice(u, tuple(unit_types))
                if u not in unit_types:
                    raise sub.fail(u, "is not a unit of units.toml")
                carries[u] = carrier
        numbers = {k: item.integer(k, minimum=0) for k in _NUMBERS if item.has(k)}
        chart = item.integer("chart", minimum=1)
        if chart not in CHARTS:
            raise item.fail("chart", f"must be 1 or 2 (Breakthrough Chart 1 or 2), not {chart}")
        devs.append(Development(
            id=dev_id, name=item.text("name", nonempty=True),
            chart=chart, face=item.integer("face", minimum=1),
            rule=item.text("rule", nonempty=True), effect=item.text("effect", nonempty=True),
            attack=units["attack"], support=units["support"], attack_dice=units["attack_dice"],
            aa_value=units["aa_value"], movement=units["movement"],
            carries=FrozenMap(carries), numbers=FrozenMap(numbers),
            provisional=item.opt_flag("provisional"), note=item.opt_text("note", "")))
        if devs[-1].provisional and not devs[-1].note:
            raise item.fail("note", "a provisional development says why in a note")
    ids = [d.id for d in devs]
    if sorted(ids) != sorted(ALL):
        missing = sorted(set(ALL) - set(ids)) or sorted({i for i in ids if ids.count(i) > 1})
        raise DataError(source, "research.developments",
                        f"each development must appear once; check {', '.join(missing)}")
    for chart in CHARTS:
        faces = sorted(d.face for d in devs if d.chart == chart)
        if faces != [1, 2, 3, 4, 5, 6]:
            raise DataError(source, "research.developments",
                            f"Breakthrough Chart {chart} must list results 1 to 6 once each, "
                            f"not {faces}")
    for uid, ut in unit_types.items():
        if ut.extra.get("is_sea") and not isinstance(ut.extra.get(SHIPYARD_KEY), int):
            raise DataError(source, "research.developments",
                            f"Improved Shipyards: units.toml gives {uid} no {SHIPYARD_KEY}")
    face = r.integer("success_face", minimum=1)
    if face > 6:
        raise r.fail("success_face", "must be a die face, 1 to 6")
    return ResearchTable(r.integer("researcher_cost", minimum=1), face,
                         r.text("rule", nonempty=True), tuple(devs))


def research_table(game: Game) -> ResearchTable:
    """The research chart, parsed once per game (held with it: Game.derived)."""
    return game.derived(_build_research_table)


def _build_research_table(game: Game) -> ResearchTable:
    t = game.definition.tables
    if "research" not in t:
        raise DataError(SOURCE, "research", "the game data has no research table")
    return parse_research(t["research"], game.definition.unit_types)


# --- combat values ---------------------------------------------------------------------------

@lru_cache(maxsize=4096)
def apply_developments(catalog: Catalog, table: ResearchTable, attacker: frozenset[str],
                       defender: frozenset[str]) -> Catalog:
    """The unit values of one battle. The attacker's developments change attack values,
    infantry support and dice per attacking unit (Advanced Artillery, Super Submarines, Jet
    Fighters, Heavy Bombers: all attack only, "on defense your bombers still roll only a
    single die"); the defender's change its AA guns' hit number (Radar). Attack values are
    read only for the attacking side and AA numbers only for the defender's guns, so one
    catalog serves both sides (combat.fire_groups, combat.aa_groups)."""
    units = dict(catalog.units)
    for dev in table.developments:
        if dev.id in attacker:
            for u, v in dev.attack.items():
                units[u] = replace(units[u], attack=v)
            for u, v in dev.support.items():
                units[u] = replace(units[u], support=v)
            for u, v in dev.attack_dice.items():
                units[u] = replace(units[u], attack_dice=v)
        if dev.id in defender:
            for u, v in dev.aa_value.items():
                units[u] = replace(units[u], aa=v)
    return Catalog(FrozenMap(units))


@dataclass(frozen=True)
class BattleDevelopments:
    """Both sides' developments for a battle off the map (the battle calculator)."""

    table: ResearchTable
    attacker: frozenset[str] = frozenset()
    defender: frozenset[str] = frozenset()

    def catalog(self, base: Catalog) -> Catalog:
        return apply_developments(base, self.table, self.attacker, self.defender)


def battle_catalog(game: Game, state: GameState, attacker: str, defender: str,
                   base: Catalog) -> Catalog:
    """`base` (world(game).catalog) with the attacking and defending powers' developments."""
    att, dfn = developments(state, attacker), developments(state, defender)
    if not att and not dfn:
        return base
    return apply_developments(base, research_table(game), att, dfn)


# --- movement, production, income ------------------------------------------------------------

def _unit_number(game: Game, state: GameState, power: str, field: str, unit: str,
                 default: int) -> int:
    held = developments(state, power)
    if not held:
        return default
    value = default
    for dev in research_table(game).developments:
        if dev.id in held:
            got: Mapping[str, int] = getattr(dev, field)
            value = got.get(unit, value)
    return value


def movement(game: Game, state: GameState, power: str, unit: str) -> int:
    """Movement allowance: Long-Range Aircraft (fighter 6, bomber 8). Mechanized Infantry's 2
    holds only for an infantry matched with a tank (`mechanized_movement`)."""
    base = game.definition.unit_types[unit].movement
    if not has(state, power, LONG_RANGE_AIRCRAFT):
        return base
    return int(research_table(game).get(LONG_RANGE_AIRCRAFT).movement.get(unit, base))


def mechanized_movement(game: Game, state: GameState, power: str, unit: str) -> tuple[int, str]:
    """(movement, carrier unit) for a unit that may move with a tank (Mechanized Infantry),
    else (its own movement, "")."""
    base = game.definition.unit_types[unit].movement
    if not has(state, power, IMPROVED_MECHANIZED_INFANTRY):
        return base, ""
    dev = research_table(game).get(IMPROVED_MECHANIZED_INFANTRY)
    if unit not in dev.carries:
        return base, ""
    return int(dev.movement.get(unit, base)), dev.carries[unit]


MECH_MARK = "mech"  # piece attr of an infantry: the tank it moved with (Mechanized Infantry)
PARA_MARK = "para"  # piece attr of an infantry: the bomber that carried it (Paratroopers)


def carrier_rule(game: Game, mark: str) -> str:
    dev = IMPROVED_MECHANIZED_INFANTRY if mark == MECH_MARK else PARATROOPERS
    return research_table(game).get(dev).rule


def carriers(game: Game, state: GameState, piece: Piece,
             combat: bool) -> dict[str, tuple[str, str]]:
    """Destination -> (mark, carrier id): where an infantry that has not moved yet may go
    with a carrier that moved from its territory in this phase and carries no one yet.
    Mechanized Infantry: a tank, in either move phase ("matched up with a tank can move two
    spaces along with the tank"). Paratroopers: a bomber, in Combat Move only ("both units
    must begin their movement in the same territory"). The carrier moves first, then the
    infantry follows it (movement.py checks the route)."""
    held = developments(state, piece.side)
    if not held or piece.attrs.get("mp") or piece.attrs.get("on"):
        return {}
    t = research_table(game)
    out: dict[str, tuple[str, str]] = {}
    for dev, mark in ((IMPROVED_MECHANIZED_INFANTRY, MECH_MARK), (PARATROOPERS, PARA_MARK)):
        carrier = t.get(dev).carries.get(piece.type)
        if dev not in held or not carrier or (mark == PARA_MARK and not combat):
            continue
        moved = "cm" if combat else "nm"
        taken = {str(p.attrs[mark]) for p in state.pieces.values() if p.attrs.get(mark)}
        for p in sorted(state.pieces.values(), key=lambda x: x.id):
            if (p.side == piece.side and p.type == carrier and p.attrs.get(moved)
                    and p.attrs.get("origin") == piece.location
                    and p.location != piece.location and p.id not in taken):
                out.setdefault(p.location, (mark, p.id))
    return out


def carried_paratrooper(state: GameState, bomber_id: str) -> bool:
    """Paratroopers: a bomber that carried an infantry this turn makes no strategic
    bombing run."""
    return any(p.attrs.get(PARA_MARK) == bomber_id for p in state.pieces.values())


def stranded_paratroopers(state: GameState, space: str) -> tuple[Piece, ...]:
    """Paratroopers in `space` whose bomber is gone: "if the bomber is hit, the infantry it
    carries is also destroyed" (asked right after AA fire, before the infantry drops)."""
    return tuple(p for p in state.pieces_at(space)
                 if p.attrs.get(PARA_MARK) and str(p.attrs[PARA_MARK]) not in state.pieces)


def unit_cost(game: Game, state: GameState, power: str, unit: str) -> int:
    """The price of a unit (Improved Shipyards: the sea units' revised costs)."""
    ut = game.definition.unit_types[unit]
    base = int(ut.extra.get("cost", 0))
    if has(state, power, IMPROVED_SHIPYARDS) and ut.extra.get("is_sea"):
        return int(ut.extra.get(SHIPYARD_KEY, base))
    return base


def factory_bonus(game: Game, state: GameState, power: str, ipc: int) -> int:
    """Extra units an industrial complex in a territory worth `ipc` produces (Increased
    Factory Production: 2 where the territory is worth 3 or more IPCs)."""
    if not has(state, power, INCREASED_FACTORY_PRODUCTION):
        return 0
    t = research_table(game)
    if ipc < t.number(INCREASED_FACTORY_PRODUCTION, "min_ipc"):
        return 0
    return t.number(INCREASED_FACTORY_PRODUCTION, "extra_production")


def repair_cost(game: Game, state: GameState, power: str, markers: int) -> int:
    """IPCs to remove `markers` damage markers: 1 each (Pay for Units & Repairs), or 1 per two
    with Increased Factory Production. An odd last marker costs a whole IPC (our reading:
    the rule prices pairs only)."""
    if not has(state, power, INCREASED_FACTORY_PRODUCTION):
        return markers
    per = research_table(game).number(INCREASED_FACTORY_PRODUCTION, "markers_per_ipc")
    return -(-markers // per)


def war_bonds_dice(game: Game, state: GameState, power: str) -> int:
    """Dice rolled for extra IPCs at Collect Income (War Bonds: 1d6), 0 without it."""
    if not has(state, power, WAR_BONDS):
        return 0
    return research_table(game).number(WAR_BONDS, "income_dice")


# --- strategic bombing and rockets (called by the strategic bombing rules) -------------------

def aa_hit_max(game: Game, state: GameState, power: str, unit: str = "aa_gun") -> int:
    """The highest roll with which `power`'s AA gun hits (1; Radar: 2)."""
    base = int(game.definition.unit_types[unit].extra.get("aa_value", 1))
    return _unit_number(game, state, power, "aa_value", unit, base)


def bomber_dice(game: Game, state: GameState, power: str, unit: str = "bomber") -> int:
    """Dice per attacking or raiding bomber, the best kept (1; Heavy Bombers: 2)."""
    return _unit_number(game, state, power, "attack_dice", unit, 1)


def rocket_range(game: Game, state: GameState, power: str) -> int:
    """How far (spaces) `power`'s AA guns fire rockets; 0 without Rockets."""
    if not has(state, power, ROCKETS):
        return 0
    return research_table(game).number(ROCKETS, "rocket_range")


def rocket_dice(game: Game, state: GameState, power: str) -> int:
    """Damage dice of one rocket attack (Rockets: 1d6); 0 without Rockets."""
    if not has(state, power, ROCKETS):
        return 0
    return research_table(game).number(ROCKETS, "rocket_dice")


def names(game: Game, devs: Iterable[str]) -> str:
    """The chart names, for the log and prompts."""
    t = research_table(game)
    return ", ".join(t.get(d).name for d in sorted(devs)) or "none"
