"""Battles of Axis & Allies Anniversary Edition as pure functions over frozen values.

Rulebook ("Phase 4: Conduct Combat" and the Unit Profiles), by section:

- General Combat (pg. 18), the sequence of a round:
  Step 2 Submarine Surprise Strike or Submerge (sea battles only), Step 3 Attacking Units
  Fire, Step 4 Defending Units Fire (the defender's casualties of step 3 still fire), Step 5
  Remove Defender's Casualties, Step 6 Press Attack or Retreat (Condition A: one or both sides
  destroyed; Condition B: the attacker retreats; Defenseless Transports).
- Unit Profiles: Antiaircraft Guns, "Shoot Down Air Units" (pg. 25): before the first round
  one gun rolls one die per attacking aircraft and hits on a 1.
- Amphibious Assaults, Step 2 Battleship & Cruiser Bombardment (pg. 17): one roll per ship
  before the land combat; the defender's casualties go to the casualty zone and still defend
  in the first round.
- Unit Profiles: Infantry "Supported by Artillery" (pg. 24), Air Units (pg. 26: air hits
  submarines only with a friendly destroyer in the battle, checked as each round starts),
  Battleships "Two Hits to Destroy" (pg. 28), Destroyers "Anti-sub Vessel" (pg. 29),
  Submarines (pg. 30: Surprise Strike, Submersible, Cannot Hit Air Units, Cannot Be Hit by
  Air Units), Transports "Chosen Last" and "No Combat Value".

Dice come in two shapes so the same rules serve the game, the Monte Carlo check and the exact
calculator: `fire_groups` and friends say which dice to roll (`FireGroup`: count dice hitting
on value or less, whose hits may go only to some targets), `group_hits` reads real dice, and
`calculator.py` turns the same groups into binomial distributions. Casualties are chosen by
the owning player (`casualty_options`, `check_casualties`); `select_casualties` applies a
`CasualtyOrder`, and `default_casualty_order` gives a sensible one.

Not modelled here (callers' business): which units may join a battle (movement, carrier
fighters, cargo, allied units), the choice to submerge (subs always make a Surprise Strike
when they may), retreat destinations, SBR and the optional escort/interceptor air battle.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from wartable.core.errors import WartableError
from wartable.core.frozen import FrozenMap
from wartable.core.rng import Rng
from wartable.model.definition import UnitType

ATTACK = "attack"
DEFENSE = "defense"

# What hits of a group may be assigned to (General Combat Step 3: "as many hits as possible").
GENERAL = "general"  # any unit
AIR = "air"  # scored by air units: not submarines, unless the firer has a destroyer (pg. 26)
SUB = "sub"  # scored by submarines: sea units only ("Cannot Hit Air Units", pg. 30)

# Results of a battle (General Combat Step 6 and Step 7).
ATTACKER_WINS = "attacker"  # the defender has no units left; the attacker has
DEFENDER_WINS = "defender"  # the attacker has no units left; the defender has
DRAW = "draw"  # both sides destroyed
RETREAT = "retreat"  # the attacker retreated (Condition B) with units on both sides
STALEMATE = "stalemate"  # neither side can hit the other (e.g. submarines and aircraft)

R_GENERAL = "General Combat (pg. 18)"
R_STEP2 = "General Combat, Step 2: Submarine Surprise Strike or Submerge (pg. 18)"
R_STEP3 = "General Combat, Step 3: Attacking Units Fire (pg. 18)"
R_STEP4 = "General Combat, Step 4: Defending Units Fire (pg. 18)"
R_STEP5 = "General Combat, Step 5: Remove Defender's Casualties (pg. 18)"
R_STEP6 = "General Combat, Step 6: Press Attack or Retreat (pg. 18)"
R_DEFENSELESS = "General Combat, Step 6: Defenseless Transports (pg. 18)"
R_AA = "Unit Profiles: Antiaircraft Guns, Shoot Down Air Units (pg. 25)"
R_BOMBARD = "Amphibious Assaults, Step 2: Battleship & Cruiser Bombardment (pg. 17)"
R_ARTILLERY = "Unit Profiles: Infantry, Supported by Artillery (pg. 24)"
R_AIR_VS_SUBS = "Unit Profiles: Air Units (pg. 26); Submarines, Cannot Be Hit by Air Units (pg. 30)"
R_BATTLESHIP = "Unit Profiles: Battleships, Two Hits to Destroy (pg. 28)"
R_DESTROYER = "Unit Profiles: Destroyers, Anti-sub Vessel (pg. 29)"
R_SUBMARINE = "Unit Profiles: Submarines, Surprise Strike (pg. 30)"
R_TRANSPORT = "Unit Profiles: Transports, Chosen Last"

# Hit classes of target units: which hits may be assigned to them.
_C_SUB, _C_SURFACE, _C_OTHER = 0, 1, 2


# ---------------------------------------------------------------------------------------
# Unit statistics


@dataclass(frozen=True, slots=True)
class UnitStats:
    """The combat values of a unit type, read from units.toml (Unit Profiles, pg. 24-)."""

    id: str
    name: str
    cost: int
    attack: int = 0
    defense: int = 0
    hits: int = 1  # battleships 2 (Two Hits to Destroy)
    land: bool = False
    air: bool = False
    sea: bool = False
    sub: bool = False
    destroyer: bool = False
    transport: bool = False
    aa: int = 0  # an AA gun hits aircraft on this or less; 0 = not an AA gun
    bombard: bool = False
    infantry: bool = False  # supported by artillery on attack
    support: int = 0  # infantry this unit supports on attack (artillery: 1)
    attack_dice: int = 1  # dice per attacking unit, the best kept (research: Heavy Bombers)
    capture: bool = False  # may take control of a territory (Conclude Combat)
    factory: bool = False

    @property
    def fights(self) -> bool:
        """Placed on the battle board and able to be a casualty (not AA guns, not factories)."""
        return not self.factory and not self.aa

    @property
    def hit_class(self) -> int:
        if self.sub:
            return _C_SUB
        return _C_SURFACE if self.sea else _C_OTHER

    def value(self, role: str) -> int:
        return self.attack if role == ATTACK else self.defense


@dataclass(frozen=True)
class Catalog:
    """The unit types of the game, by id."""

    units: FrozenMap[str, UnitStats]

    def __getitem__(self, unit: str) -> UnitStats:
        try:
            return self.units[unit]
        except KeyError:
            raise WartableError(
                f"Unknown unit {unit!r}. Valid units: {', '.join(sorted(self.units))}."
            ) from None

    def __contains__(self, unit: object) -> bool:
        return unit in self.units

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(self.units)

    @staticmethod
    def from_unit_types(unit_types: Mapping[str, UnitType]) -> Catalog:
        """Read the combat keys every unit of units.toml carries."""
        out: dict[str, UnitStats] = {}
        for uid, ut in unit_types.items():
            x: Mapping[str, Any] = ut.extra
            out[uid] = UnitStats(
                id=uid, name=ut.name, cost=int(x.get("cost", 0)),
                attack=int(x.get("attack", 0)), defense=int(x.get("defense", 0)),
                hits=int(x.get("hits", 1)), land=bool(x.get("is_land", False)),
                air=bool(x.get("is_air", False)), sea=bool(x.get("is_sea", False)),
                sub=bool(x.get("is_sub", False)), destroyer=bool(x.get("is_destroyer", False)),
                transport=bool(x.get("is_transport", False)), aa=int(x.get("aa_value", 0)),
                bombard=bool(x.get("can_bombard", False)),
                infantry=bool(x.get("is_infantry", False)),
                support=int(x.get("supports_infantry", 0)),
                capture=bool(x.get("can_capture", False)),
                factory=bool(x.get("is_factory", False)),
            )
        return Catalog(FrozenMap(out))


# ---------------------------------------------------------------------------------------
# Forces, hits, casualties


def _pairs(m: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted((k, int(v)) for k, v in m.items() if v > 0))


@dataclass(frozen=True, slots=True)
class Force:
    """One side's units in a battle: counts by type, and two-hit units that took one hit."""

    units: tuple[tuple[str, int], ...] = ()  # (type, count), sorted by type, counts > 0
    damaged: tuple[tuple[str, int], ...] = ()  # (type, count) of battleships turned on their side

    @staticmethod
    def of(units: Mapping[str, int] | None = None, damaged: Mapping[str, int] | None = None,
           **counts: int) -> Force:
        u = dict(units or {})
        for k, v in counts.items():
            u[k] = u.get(k, 0) + v
        if any(v < 0 for v in u.values()):
            raise WartableError("A unit count cannot be negative.")
        d = dict(damaged or {})
        for k, v in d.items():
            if v < 0 or v > u.get(k, 0):
                raise WartableError(f"{v} damaged {k} but only {u.get(k, 0)} in the force.")
        return Force(_pairs(u), _pairs(d))

    def count(self, unit: str) -> int:
        for k, v in self.units:
            if k == unit:
                return v
        return 0

    def damaged_count(self, unit: str) -> int:
        for k, v in self.damaged:
            if k == unit:
                return v
        return 0

    def as_dict(self) -> dict[str, int]:
        return dict(self.units)

    @property
    def size(self) -> int:
        return sum(v for _, v in self.units)

    def __bool__(self) -> bool:
        return bool(self.units)

    def plus(self, other: Force) -> Force:
        u = dict(self.units)
        for k, v in other.units:
            u[k] = u.get(k, 0) + v
        d = dict(self.damaged)
        for k, v in other.damaged:
            d[k] = d.get(k, 0) + v
        return Force(_pairs(u), _pairs(d))

    def only(self, keep: Iterable[str]) -> Force:
        ks = set(keep)
        return Force(tuple(p for p in self.units if p[0] in ks),
                     tuple(p for p in self.damaged if p[0] in ks))

    def describe(self, catalog: Catalog) -> str:
        if not self.units:
            return "nothing"
        parts = []
        for k, v in self.units:
            name = catalog[k].name if k in catalog else k
            d = self.damaged_count(k)
            parts.append(f"{v} {name}" + (f" ({d} damaged)" if d else ""))
        return ", ".join(parts)


EMPTY = Force()


@lru_cache(maxsize=100_000)
def fighting(force: Force, catalog: Catalog) -> Force:
    """The units placed on the battle board: not AA guns or industrial complexes."""
    return force.only(k for k, _ in force.units if catalog[k].fights)


def hit_points(force: Force, catalog: Catalog) -> int:
    """Hits still needed to destroy every fighting unit."""
    return sum(n * catalog[k].hits for k, n in force.units if catalog[k].fights) \
        - sum(n for _, n in force.damaged)


def ipc_value(force: Force, catalog: Catalog) -> int:
    """Cost of the fighting units (a damaged battleship is repaired free after combat)."""
    return sum(n * catalog[k].cost for k, n in force.units if catalog[k].fights)


@dataclass(frozen=True, slots=True)
class Hits:
    """Hits scored by one volley, by what they may be assigned to."""

    general: int = 0
    air: int = 0  # by air units (not onto submarines without the firer's destroyer)
    sub: int = 0  # by submarines (sea units only)

    @property
    def total(self) -> int:
        return self.general + self.air + self.sub


NO_HITS = Hits()


@dataclass(frozen=True, slots=True)
class Casualties:
    """The owning player's choice for a volley: units lost, and two-hit units newly damaged."""

    lost: tuple[tuple[str, int], ...] = ()
    damaged: tuple[tuple[str, int], ...] = ()  # undamaged battleships that take one hit and stay

    @staticmethod
    def of(lost: Mapping[str, int] | None = None,
           damaged: Mapping[str, int] | None = None) -> Casualties:
        return Casualties(_pairs(lost or {}), _pairs(damaged or {}))

    def lost_count(self, unit: str) -> int:
        return dict(self.lost).get(unit, 0)

    def describe(self, catalog: Catalog) -> str:
        parts = [f"{v} {catalog[k].name}" for k, v in self.lost]
        parts += [f"{v} {catalog[k].name} damaged" for k, v in self.damaged]
        return ", ".join(parts) or "no casualties"


def _class_hits(force: Force, cas: Casualties, catalog: Catalog) -> list[int] | None:
    """Hits the choice takes, by target class; None if the force cannot take it."""
    k = [0, 0, 0]
    dmg = dict(force.damaged)
    lost = dict(cas.lost)
    for unit, n in cas.lost:
        have = force.count(unit)
        if n > have:
            return None
        s = catalog[unit]
        if not s.fights:
            return None
        from_damaged = min(n, dmg.get(unit, 0))
        k[s.hit_class] += from_damaged + (n - from_damaged) * s.hits
    for unit, n in cas.damaged:
        s = catalog[unit]
        undamaged_left = force.count(unit) - dmg.get(unit, 0) - max(
            0, lost.get(unit, 0) - dmg.get(unit, 0))
        if s.hits < 2 or n > undamaged_left:
            return None
        k[s.hit_class] += n
    return k


@lru_cache(maxsize=100_000)
def apply_casualties(force: Force, cas: Casualties) -> Force:
    """Remove the lost units (damaged battleships sink first) and turn the newly damaged."""
    u = dict(force.units)
    d = dict(force.damaged)
    for unit, n in cas.lost:
        if n > u.get(unit, 0):
            raise WartableError(f"Cannot lose {n} {unit}: only {u.get(unit, 0)} in the battle.")
        u[unit] -= n
        d[unit] = max(0, d.get(unit, 0) - n)
    for unit, n in cas.damaged:
        d[unit] = d.get(unit, 0) + n
        if d[unit] > u.get(unit, 0):
            raise WartableError(f"Cannot damage {n} more {unit}: not enough undamaged ones.")
    return Force(_pairs(u), _pairs(d))


# ---------------------------------------------------------------------------------------
# Assigning hits: "as many hits as possible must be assigned" (Step 3), subs hit only sea
# units, air hits no sub without its own destroyer. Targets fall in three classes (subs,
# other sea units, land and air units); the hit kinds reach: SUB -> subs and sea units,
# AIR -> land/air and sea units (and subs when the firer has a destroyer), GENERAL -> all.


def _matched(k_sub: int, k_surf: int, k_oth: int, hits: Hits, air_hits_subs: bool) -> int:
    """The most of these target slots the hits can cover (a small bipartite matching).

    Restricted hits go first to the targets only they and general hits can reach, then to
    the shared sea units; general hits cover what is left. Tests check it against brute force.
    """
    s, a = hits.sub, hits.air
    x = min(s, k_sub)
    r_sub, s = k_sub - x, s - x
    y = min(s, k_surf)
    r_surf = k_surf - y
    used = x + y
    x2 = min(a, k_oth)
    r_oth, a = k_oth - x2, a - x2
    used += x2
    if air_hits_subs:
        z = min(a, r_sub)
        r_sub, a = r_sub - z, a - z
        used += z
    y2 = min(a, r_surf)
    r_surf -= y2
    used += y2
    return used + min(hits.general, r_sub + r_surf + r_oth)


def _feasible(k: list[int], hits: Hits, air_hits_subs: bool) -> bool:
    return _matched(k[0], k[1], k[2], hits, air_hits_subs) == k[0] + k[1] + k[2]


def _capacity(force: Force, catalog: Catalog) -> list[int]:
    k = [0, 0, 0]
    for unit, n in force.units:
        s = catalog[unit]
        if s.fights:
            k[s.hit_class] += n * s.hits
    for unit, n in force.damaged:
        k[catalog[unit].hit_class] -= n
    return k


def max_assignable(force: Force, hits: Hits, catalog: Catalog, *, air_hits_subs: bool) -> int:
    """How many of the hits must be assigned to this force (Step 3: as many as possible)."""
    k = _capacity(force, catalog)
    return _matched(k[0], k[1], k[2], hits, air_hits_subs)


def check_casualties(force: Force, hits: Hits, cas: Casualties, catalog: Catalog, *,
                     air_hits_subs: bool) -> str | None:
    """None if the choice is legal for these hits, else the reason (with the rule)."""
    k = _class_hits(force, cas, catalog)
    if k is None:
        return "Those units are not all in the battle (AA guns and factories are never casualties)."
    need = max_assignable(force, hits, catalog, air_hits_subs=air_hits_subs)
    if sum(k) != need:
        return (f"Assign exactly {need} hit(s): as many hits as possible must be assigned "
                f"[{R_STEP3}].")
    if not _feasible(k, hits, air_hits_subs):
        return (f"Those hits cannot all go there: submarines hit only sea units, and air units "
                f"hit submarines only with their own destroyer in the battle [{R_AIR_VS_SUBS}].")
    n_tp = sum(n for u, n in cas.lost if catalog[u].transport)
    if n_tp:
        after = apply_casualties(force, cas)
        spare = _capacity(after.only(u for u, _ in after.units if not catalog[u].transport),
                          catalog)
        for c in (_C_SUB, _C_SURFACE, _C_OTHER):
            if spare[c] > 0:
                alt = list(k)
                alt[_C_SURFACE] -= 1
                alt[c] += 1
                if _feasible(alt, hits, air_hits_subs):
                    return f"Transports are chosen last, while other units can take hits " \
                           f"[{R_TRANSPORT}]."
    return None


def casualty_options(force: Force, hits: Hits, catalog: Catalog, *,
                     air_hits_subs: bool) -> tuple[Casualties, ...]:
    """Every legal casualty choice for a volley, cheapest loss first.

    Enumerates counts per type (for battleships: how many sink and how many are newly
    damaged), keeping those `check_casualties` accepts.
    """
    need = max_assignable(force, hits, catalog, air_hits_subs=air_hits_subs)
    if need == 0:
        return (Casualties(),)
    types = [(u, n) for u, n in force.units if catalog[u].fights]
    out: list[Casualties] = []

    def rec(i: int, budget: int, lost: dict[str, int], dmg: dict[str, int]) -> None:
        if i == len(types):
            if budget == 0:
                c = Casualties.of(lost, dmg)
                if check_casualties(force, hits, c, catalog, air_hits_subs=air_hits_subs) is None:
                    out.append(c)
            return
        unit, n = types[i]
        s = catalog[unit]
        if s.hits < 2:
            for m in range(min(n, budget) + 1):
                rec(i + 1, budget - m, {**lost, unit: m}, dmg)
            return
        d0 = force.damaged_count(unit)
        for sunk in range(n + 1):
            from_damaged = min(sunk, d0)
            cost_sunk = from_damaged + 2 * (sunk - from_damaged)
            undamaged_left = n - d0 - (sunk - from_damaged)
            for new in range(undamaged_left + 1):
                used = cost_sunk + new
                if used <= budget:
                    rec(i + 1, budget - used, {**lost, unit: sunk}, {**dmg, unit: new})

    rec(0, need, {}, {})
    return tuple(sorted(out, key=lambda c: (sum(catalog[u].cost * n for u, n in c.lost),
                                            c.lost, c.damaged)))


@dataclass(frozen=True, slots=True)
class OrderEntry:
    """One line of a casualty order: lose units of this type until `keep` are left.

    With `damage_only`, the entry instead turns undamaged battleships on their side, one hit
    each, and sinks none (Two Hits to Destroy). A plain battleship entry damages then sinks.
    """

    unit: str
    keep: int = 0
    damage_only: bool = False

    @property
    def text(self) -> str:
        if self.damage_only:
            return f"damage:{self.unit}"
        return f"{self.unit}@{self.keep}" if self.keep else self.unit


CasualtyOrder = tuple[OrderEntry, ...]


@dataclass(frozen=True, slots=True)
class Orders:
    """Each side's casualty order for a battle."""

    attacker: CasualtyOrder
    defender: CasualtyOrder


def _cost_key(catalog: Catalog, role: str) -> Any:
    def key(unit: str) -> tuple[int, int, int, str]:
        s = catalog[unit]
        return (1 if s.transport else 0, s.cost, s.value(role), unit)
    return key


def default_casualty_order(force: Force, catalog: Catalog, *, attacking: bool) -> CasualtyOrder:
    """A sensible order when the owner has not given one.

    1. Damage battleships first: a battleship absorbs its first hit and is repaired after the
       combat for free (Two Hits to Destroy, pg. 28).
    2. Then the cheapest units first (ties: the weaker in this role first), so the force
       keeps the most IPCs.
    3. Attacking with land units and aircraft, one land unit is kept until every aircraft is
       gone, so that a won battle can still take the territory (Step 7: only land units
       capture). The unit kept is of the land type with the best attack.
    4. Transports always last (Transports, Chosen Last).
    """
    role = ATTACK if attacking else DEFENSE
    types = sorted((u for u, _ in force.units if catalog[u].fights), key=_cost_key(catalog, role))
    entries: list[OrderEntry] = [OrderEntry(u, damage_only=True) for u in types
                                 if catalog[u].hits >= 2]
    keep_unit = ""
    if attacking and any(not catalog[u].land for u in types):
        capturers = [u for u in types if catalog[u].capture]
        if capturers:
            keep_unit = max(capturers, key=lambda u: (catalog[u].attack, -catalog[u].cost, u))
    for u in types:
        if keep_unit and catalog[u].transport:
            entries.append(OrderEntry(keep_unit))
            keep_unit = ""
        entries.append(OrderEntry(u, keep=1 if u == keep_unit else 0))
    if keep_unit:
        entries.append(OrderEntry(keep_unit))
    return tuple(entries)


def parse_casualty_order(text: str, catalog: Catalog) -> CasualtyOrder:
    """Read "damage:battleship, infantry, armour@1, fighter, armour" into an order.

    "unit" loses all of them, "unit@N" stops while N are left, "damage:unit" only damages
    two-hit units. Units left out follow, cheapest first; transports always come last.
    """
    out: list[OrderEntry] = []
    for raw in text.split(","):
        tok = raw.strip()
        if not tok:
            continue
        damage = tok.startswith("damage:")
        if damage:
            tok = tok[len("damage:"):].strip()
        keep = 0
        if "@" in tok:
            tok, _, k = tok.partition("@")
            tok = tok.strip()
            if not k.strip().isdigit():
                raise WartableError(f"In the casualty order, {raw.strip()!r}: write unit@N "
                                    f"with N a whole number.")
            keep = int(k)
        s = catalog[tok]  # names the bad unit and lists the valid ones
        if damage and s.hits < 2:
            raise WartableError(f"In the casualty order, {raw.strip()!r}: only units that take "
                                f"two hits can be damaged.")
        out.append(OrderEntry(tok, keep, damage))
    return tuple(out)


@lru_cache(maxsize=4096)
def _normalise(order: CasualtyOrder, catalog: Catalog) -> CasualtyOrder:
    # Every type appears at the end with keep 0 so any order is complete; transports are
    # moved behind everything else (Chosen Last).
    tail = sorted((u for u in catalog.ids if catalog[u].fights), key=_cost_key(catalog, DEFENSE))
    head = [e for e in order if not catalog[e.unit].transport]
    return tuple(head + [OrderEntry(u) for u in tail if not catalog[u].transport]
                 + [OrderEntry(u) for u in tail if catalog[u].transport])


@lru_cache(maxsize=200_000)
def select_casualties(force: Force, hits: Hits, order: CasualtyOrder, catalog: Catalog, *,
                      air_hits_subs: bool) -> Casualties:
    """The casualties the order picks: legal, and the owner's preference among legal choices.

    Greedy over the order's hit slots, keeping a slot only while all kept slots can still be
    covered by the hits; the sets of coverable slots form a matroid, so this yields the
    best legal choice in the order's preference.
    """
    cap = _capacity(force, catalog)
    need = _matched(cap[0], cap[1], cap[2], hits, air_hits_subs)
    if need == 0:
        return Casualties()
    left = dict(force.units)
    dmg = dict(force.damaged)
    chosen = [0, 0, 0]
    taken = 0
    for e in _normalise(order, catalog):
        s = catalog[e.unit]
        if not s.fights:
            continue
        cls = s.hit_class
        while taken < need:
            alive = left.get(e.unit, 0)
            damaged = dmg.get(e.unit, 0)
            if e.damage_only:
                if s.hits < 2 or alive - damaged <= 0:
                    break
                sink = False
            else:
                if alive <= e.keep:
                    break
                sink = s.hits < 2 or damaged > 0
            chosen[cls] += 1
            if not _feasible(chosen, hits, air_hits_subs):
                chosen[cls] -= 1
                break
            taken += 1
            if sink:
                left[e.unit] = alive - 1
                if damaged:
                    dmg[e.unit] = damaged - 1
            else:
                dmg[e.unit] = damaged + 1
        if taken == need:
            break
    lost = {u: n - left.get(u, 0) for u, n in force.units}
    newly = {u: dmg.get(u, 0) - max(0, force.damaged_count(u) - lost.get(u, 0))
             for u in dmg}
    return Casualties.of(lost, newly)


def take_hits(force: Force, hits: Hits, order: CasualtyOrder, catalog: Catalog, *,
              air_hits_subs: bool) -> Force:
    """The force after losing the casualties its order picks for these hits."""
    if hits.total == 0:
        return force
    return apply_casualties(force, select_casualties(force, hits, order, catalog,
                                                     air_hits_subs=air_hits_subs))


# ---------------------------------------------------------------------------------------
# Dice


@dataclass(frozen=True, slots=True)
class FireGroup:
    """`count` dice that hit on `value` or less; `kind` says what their hits may go to.

    For AA fire the kind is the aircraft type the dice are rolled at (Antiaircraft Guns:
    "you must assign specific dice rolls to specific aircraft").
    """

    value: int
    count: int
    kind: str = GENERAL
    best_of: int = 1  # dice rolled per unit, the best kept (research: Heavy Bombers)

    @property
    def dice(self) -> int:
        return self.count * self.best_of


@lru_cache(maxsize=100_000)
def fire_groups(force: Force, role: str, catalog: Catalog, *,
                skip_subs: bool = False) -> tuple[FireGroup, ...]:
    """The dice of Step 3 (role ATTACK) or Step 4 (role DEFENSE) for the units of `force`.

    Units with value 0 do not roll (Transports: No Combat Value; AA guns fire only before
    the first round). Attacking infantry matched one-for-one with artillery attack at 2
    (Supported by Artillery, pg. 24). `skip_subs`: the subs already fired in Step 2.
    """
    support = sum(catalog[u].support * n for u, n in force.units) if role == ATTACK else 0
    acc: dict[tuple[int, str, int], int] = {}
    for unit, n in force.units:
        s = catalog[unit]
        if not s.fights or (skip_subs and s.sub):
            continue
        v = s.value(role)
        kind = SUB if s.sub else AIR if s.air else GENERAL
        best = s.attack_dice if role == ATTACK else 1
        if role == ATTACK and s.infantry and support > 0:
            boosted = min(n, support)
            support -= boosted
            key = (min(6, v + 1), kind, best)
            acc[key] = acc.get(key, 0) + boosted
            n -= boosted
        if v > 0 and n > 0:
            acc[(v, kind, best)] = acc.get((v, kind, best), 0) + n
    return tuple(FireGroup(v, n, k, b) for (v, k, b), n in sorted(acc.items())
                 if v > 0 and n > 0)


@lru_cache(maxsize=100_000)
def strike_groups(force: Force, role: str, catalog: Catalog) -> tuple[FireGroup, ...]:
    """The dice of the submarines making a Surprise Strike in Step 2 (pg. 18, 30)."""
    subs = force.only(u for u, _ in force.units if catalog[u].sub)
    return fire_groups(subs, role, catalog)


@lru_cache(maxsize=100_000)
def aa_groups(attacker: Force, defender: Force, catalog: Catalog) -> tuple[FireGroup, ...]:
    """AA fire before the first round: one die per attacking aircraft (pg. 25).

    Only one gun fires however many are present; it fires only when there is a battle (a
    territory holding only AA guns and factories is taken without combat, General Combat:
    "skip to step 7"; the rulebook does not say, for that case, that aircraft are fired on).
    """
    guns = [catalog[u].aa for u, _ in defender.units if catalog[u].aa]
    if not guns or not fighting(defender, catalog):
        return ()
    value = max(guns)
    return tuple(FireGroup(value, n, u) for u, n in attacker.units if catalog[u].air)


def bombard_groups(bombard: Force, catalog: Catalog) -> tuple[FireGroup, ...]:
    """One die per bombarding battleship or cruiser at its attack value (pg. 17)."""
    for u, _ in bombard.units:
        if not catalog[u].bombard:
            raise WartableError(f"{catalog[u].name} cannot bombard: only battleships and "
                                f"cruisers do [{R_BOMBARD}].")
    return fire_groups(bombard, ATTACK, catalog)


def dice_count(groups: Iterable[FireGroup]) -> int:
    """Dice to roll for these groups (`best_of` per unit)."""
    return sum(g.dice for g in groups)


def group_hits(groups: tuple[FireGroup, ...], dice: tuple[int, ...]) -> tuple[int, ...]:
    """Hits per group from dice given in group order (a die hits on its value or less); a
    unit rolling `best_of` dice takes consecutive ones and hits if its best (lowest) does."""
    need = dice_count(groups)
    if len(dice) != need:
        raise WartableError(f"Expected {need} dice, got {len(dice)}.")
    out = []
    i = 0
    for g in groups:
        b = g.best_of
        out.append(sum(1 for k in range(g.count) if min(dice[i + k * b:i + k * b + b]) <= g.value))
        i += g.dice
    return tuple(out)


def hits_of(groups: tuple[FireGroup, ...], per_group: tuple[int, ...]) -> Hits:
    acc = {GENERAL: 0, AIR: 0, SUB: 0}
    for g, h in zip(groups, per_group, strict=True):
        acc[g.kind] += h
    return Hits(acc[GENERAL], acc[AIR], acc[SUB])


def roll_groups(groups: tuple[FireGroup, ...], rng: Rng) -> tuple[tuple[int, ...], Rng]:
    dice, rng = rng.roll_many(dice_count(groups))
    return group_hits(groups, dice), rng


def aa_losses(groups: tuple[FireGroup, ...], per_group: tuple[int, ...]) -> Casualties:
    """Each AA hit destroys the aircraft its die was rolled at (pg. 25)."""
    return Casualties.of({g.kind: h for g, h in zip(groups, per_group, strict=True)})


# ---------------------------------------------------------------------------------------
# The battle


@dataclass(frozen=True, slots=True)
class RoundPlan:
    """What holds for this round, fixed as the round starts (Step 2; Air Units, pg. 26)."""

    attacker_strikes: bool  # attacking subs make a Surprise Strike: no defending destroyer
    defender_strikes: bool  # defending subs make a Surprise Strike: no attacking destroyer
    attacker_air_hits_subs: bool  # the attacker has a destroyer in the battle
    defender_air_hits_subs: bool  # the defender has a destroyer in the battle


def _has(force: Force, catalog: Catalog, what: str) -> bool:
    return any(getattr(catalog[u], what) for u, _ in force.units)


@lru_cache(maxsize=100_000)
def round_plan(attacker: Force, defender: Force, catalog: Catalog) -> RoundPlan:
    """Destroyers cancel enemy subs' Surprise Strike and Cannot Be Hit by Air (pg. 29)."""
    att_dd, def_dd = _has(attacker, catalog, "destroyer"), _has(defender, catalog, "destroyer")
    return RoundPlan(
        attacker_strikes=_has(attacker, catalog, "sub") and not def_dd,
        defender_strikes=_has(defender, catalog, "sub") and not att_dd,
        attacker_air_hits_subs=att_dd,
        defender_air_hits_subs=def_dd,
    )


@dataclass(frozen=True, slots=True)
class BattleState:
    """A battle between rounds. `pending` holds defender casualties of bombardment, which
    still defend in the first round before they are removed (pg. 17)."""

    attacker: Force
    defender: Force
    pending: Force = field(default=EMPTY)
    round: int = 0


def check_battle(attacker: Force, defender: Force, catalog: Catalog,
                 bombard: Force = EMPTY) -> None:
    """Reject forces that cannot meet in one battle, with the reason."""
    everything = attacker.plus(defender)
    for u, _ in everything.units:
        catalog[u]
    if any(catalog[u].factory for u, _ in everything.units):
        raise WartableError("Industrial complexes never go on the battle board "
                            "(Unit Profiles: Industrial Complexes).")
    if any(catalog[u].aa for u, _ in attacker.units):
        raise WartableError(f"Antiaircraft guns cannot attack: they fire only at aircraft "
                            f"attacking their territory [{R_AA}].")
    sea = any(catalog[u].sea for u, _ in everything.units)
    land = any(catalog[u].land for u, _ in everything.units)
    if sea and land:
        raise WartableError("A battle is fought either at sea or on land: sea units cannot "
                            "fight in a territory (bombard instead), land units cannot fight "
                            "at sea (they are cargo).")
    if any(catalog[u].transport for u, _ in attacker.units) and not any(
            catalog[u].attack > 0 for u, _ in attacker.units):
        raise WartableError("Transports may not attack in a sea battle without at least one "
                            "unit with an attack value (Transports: No Combat Value).")
    if bombard and sea:
        raise WartableError(f"Bombardment supports a landing, not a sea battle [{R_BOMBARD}].")
    if bombard:
        bombard_groups(bombard, catalog)
        landers = sum(n for u, n in attacker.units if catalog[u].land)
        if bombard.size > landers:  # each ship needs a seaborne land unit, an attacker
            raise WartableError(f"{bombard.size} ships cannot bombard for {landers} attacking land "
                                f"units: at most one ship per land unit offloaded "
                                f"[{R_BOMBARD}].")


def open_battle(attacker: Force, defender: Force, orders: Orders, catalog: Catalog, rng: Rng,
                bombard: Force = EMPTY) -> tuple[BattleState, Rng]:
    """Before the first round: bombardment (pg. 17), then AA fire (pg. 25)."""
    pending = EMPTY
    if bombard:
        groups = bombard_groups(bombard, catalog)
        per, rng = roll_groups(groups, rng)
        cas = select_casualties(defender, hits_of(groups, per), orders.defender, catalog,
                                air_hits_subs=False)
        after = apply_casualties(defender, cas)
        pending = Force.of({u: n for u, n in cas.lost})
        defender = after
    groups = aa_groups(attacker, defender.plus(pending), catalog)
    if groups:
        per, rng = roll_groups(groups, rng)
        attacker = apply_casualties(attacker, aa_losses(groups, per))
    return BattleState(attacker, defender, pending, 0), rng


def fight_round(state: BattleState, orders: Orders, catalog: Catalog,
                rng: Rng) -> tuple[BattleState, Rng]:
    """One round, Steps 2-5 of General Combat (pg. 18), each side's casualties by its order."""
    att, dfn = state.attacker, state.defender
    plan = round_plan(att, dfn, catalog)
    # Step 2: all striking subs roll before anyone takes casualties; the defender's step-2
    # casualties leave at the end of the step, so they never fire in Step 4 (pg. 30).
    if plan.attacker_strikes or plan.defender_strikes:
        ga = strike_groups(att, ATTACK, catalog) if plan.attacker_strikes else ()
        gd = strike_groups(dfn, DEFENSE, catalog) if plan.defender_strikes else ()
        pa, rng = roll_groups(ga, rng)
        pd, rng = roll_groups(gd, rng)
        dfn = take_hits(dfn, hits_of(ga, pa), orders.defender, catalog, air_hits_subs=False)
        att = take_hits(att, hits_of(gd, pd), orders.attacker, catalog, air_hits_subs=False)
    # Step 3: the defender's casualties go to the casualty zone and fire back in Step 4.
    ga = fire_groups(att, ATTACK, catalog, skip_subs=plan.attacker_strikes)
    pa, rng = roll_groups(ga, rng)
    def_cas = select_casualties(dfn, hits_of(ga, pa), orders.defender, catalog,
                                air_hits_subs=plan.attacker_air_hits_subs)
    # Step 4: every defender that did not fire in Step 2 rolls, casualty zone included.
    firing = dfn.plus(state.pending) if state.pending else dfn
    gd = fire_groups(firing, DEFENSE, catalog, skip_subs=plan.defender_strikes)
    pd, rng = roll_groups(gd, rng)
    att = take_hits(att, hits_of(gd, pd), orders.attacker, catalog,
                    air_hits_subs=plan.defender_air_hits_subs)
    # Step 5: remove the defender's casualties.
    dfn = apply_casualties(dfn, def_cas)
    return BattleState(att, dfn, EMPTY, state.round + 1), rng


@lru_cache(maxsize=100_000)
def can_hit(firer: Force, role: str, targets: Force, catalog: Catalog) -> bool:
    """Can any unit of `firer` roll at a target it may hit (Step 6, Condition A)?"""
    tk = _capacity(targets, catalog)
    if sum(tk) == 0:
        return False
    has_dd = _has(firer, catalog, "destroyer")
    for g in fire_groups(firer, role, catalog):
        if g.kind == GENERAL:
            return True
        if g.kind == SUB and tk[_C_SUB] + tk[_C_SURFACE] > 0:
            return True
        if g.kind == AIR and (has_dd or tk[_C_OTHER] + tk[_C_SURFACE] > 0):
            return True
    return False


def _without_transports(force: Force, catalog: Catalog) -> Force:
    return force.only(u for u, _ in force.units if not catalog[u].transport)


@lru_cache(maxsize=100_000)
def conclude(state: BattleState, catalog: Catalog, *,
             attacker_can_retreat: bool = True) -> tuple[BattleState, str | None]:
    """Step 6 after a round (or before the first): the result, or None to fight a round.

    Condition A: the battle ends when one or both sides have no units left. Defenseless
    Transports: when the defender's only units the attacker can still hit are transports
    (nothing left can fire back), they are all destroyed at once; attacking transports in
    that position retreat if `attacker_can_retreat`, else they too are destroyed. When no
    unit on either side can hit the other (subs against aircraft), the battle stops.
    """
    if state.pending and state.attacker:
        return state, None  # bombardment casualties still defend in the first round (pg. 17)
    att, dfn = state.attacker, fighting(state.defender, catalog)
    aa_guns = state.defender.only(u for u, _ in state.defender.units if catalog[u].aa)
    while True:
        if not att and not dfn:
            return BattleState(att, aa_guns, EMPTY, state.round), DRAW
        if not dfn:
            return BattleState(att, aa_guns, EMPTY, state.round), ATTACKER_WINS
        if not att:
            return BattleState(att, dfn.plus(aa_guns), EMPTY, state.round), DEFENDER_WINS
        a_fire = can_hit(att, ATTACK, dfn, catalog)
        d_fire = can_hit(dfn, DEFENSE, att, catalog)
        if a_fire and d_fire:
            return BattleState(att, dfn.plus(aa_guns), EMPTY, state.round), None
        done = BattleState(att, dfn.plus(aa_guns), EMPTY, state.round)
        if a_fire:
            bare = _without_transports(dfn, catalog)
            if bare == dfn:  # one-sided fire at units that are not transports: fight on
                return done, None
            dfn = bare  # Defenseless Transports: all destroyed at once
        elif d_fire:
            bare = _without_transports(att, catalog)
            if bare == att:
                return done, None
            if attacker_can_retreat:
                return done, RETREAT
            att = bare
        else:
            return done, STALEMATE


def default_orders(attacker: Force, defender: Force, catalog: Catalog) -> Orders:
    """Both sides' default casualty orders (`default_casualty_order`)."""
    return Orders(default_casualty_order(attacker, catalog, attacking=True),
                  default_casualty_order(defender, catalog, attacking=False))
