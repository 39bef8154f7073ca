"""The "strong" bot for Axis & Allies Anniversary (issue 7), built on the fast bot's pieces.

Each step of a power's turn is planned once, as it begins, into a list of actions with the
reasons a player reads in the turn summary; the list is replayed action by action and made
again whenever the state is not the one the plan expects (an undo, a human's move, a hint).
  purchase        a threatened capital first buys infantry until the enemy's best attack on
                  it wins at most DEFEND_P of the time (exact odds, `calculate`); a power whose
                  capital has no land route to the enemy (UK, USA, Japan) then buys transports
                  (up to TRANSPORTS, or MAX_TRANSPORTS while land units wait at its coastal
                  factories for a lift) with escorts against nearby enemy fleets, a carrier (up
                  to CARRIERS, with a fighter when it has few) when enemy ships or aircraft
                  are near its coast, and land units to ship; the others a land mix
                  (infantry, artillery, armour, a fighter)
  combat move     every target's attack gathers all units that reach it (land units from
                  several territories, aircraft, and seaborne units: cargo already aboard and
                  land units that board a transport next to them in this Combat Move, the
                  transports then sailing to a sea zone next to the target without enemy
                  warships: amphibious assaults, Transports pg. 15, pg. 17), then drops the
                  costliest units while the attack still wins SEND_P of the time; it is made
                  when it wins ATTACK_P of the time (CITY_ATTACK_P against a victory city)
                  and is worth its expected losses. The capital keeps the garrison that
                  holds it. Aircraft only take moves the engine offers, and only where they
                  reach a territory to land in afterwards or the carrier they took off from
                  (Air Units, pg. 26: the engine lets them count on any carrier that could
                  come, not on a place on it). Carriers stay (their fighters count on them).
  battles         the default casualty order; press while the attacker wins PRESS_P
  noncombat move  a carrier that has not moved sails to a fighter with nowhere else to
                  land (pg. 21); aircraft land where they defend a threatened capital,
                  victory city or factory (each where the enemy's attack then wins most
                  often, the odds counted again after each landing), else on a carrier with
                  a free place, else nearest the front; land units reinforce such places
                  until the enemy's best attack wins at most DEFEND_P, then move toward the
                  front; transports load land units and, where a threatened victory city or
                  factory (not the capital) is next to a zone they reach, sail there and
                  offload them into it (Phase 5, pg. 21: Japan's army, built in Japan,
                  holds Kiangsu and Kwangtung), else sail with their escorts and carriers
                  toward the enemy's coastal victory cities, else the nearest enemy coast,
                  the carriers' fighters flying along to land on them again (Aircraft
                  Carriers, pg. 27); empty transports sail back to the coastal factories
                  where land units wait for a lift
  mobilize        land units where the threat is, else at the factory nearest the front;
                  a new carrier where fighters wait for one, else with the own fleet, a new
                  fighter on board it (Mobilize New Units, pg. 22: new fighters may be
                  placed on a new carrier), else next to it; other ships in the sea zone
                  nearest the enemy's coasts
  Strategic Bombing Raids (pg. 17): bombers that came with an attack fight in it; bombers
                  alone over an enemy industrial complex raid it
Threats count enemy land units within their move of the space, aircraft within about half
their range (they must fly back), and cargo within a transport's move (bombardment and sea
units are left out). Every odds call passes both sides' developments to the calculator
(Phase 1: Research & Development; `bot.battle_developments`).
A plan's action that is not legal yet stays in the plan (a fighter landing where its carrier
sails to); when the end button is refused, `_unstick` offers the moves its reason asks for
(cargo loaded in Combat Move must assault; a carrier must pick up fighters; a new carrier
goes where fighters wait). Pure: no clock; the caller's `budget` callable is the time limit.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

from wartable.core.errors import IllegalAction
from wartable.engine.actions import END_STEP, Action, Prompt
from wartable.engine.bots import Budget
from wartable.engine.loop import deciding_side
from wartable.engine.rules import Game
from wartable.engine.session import Session
from wartable.games.aa_anniversary import research
from wartable.games.aa_anniversary.bot import (
    battle_developments,
    battle_odds,
    button,
    end_buttons,
    enemy_land,
    force_of,
    front,
    land_distances,
    press_or_retreat,
    raid_choice,
    step_kind,
)
from wartable.games.aa_anniversary.combat import Force
from wartable.games.aa_anniversary.steps import battle, mobilize, movement
from wartable.games.aa_anniversary.steps.common import (
    MOBILIZATION,
    allied,
    controller,
    enemy_blocking_ships,
    ipcs,
    space_name,
    stats,
    world,
)
from wartable.model.state import GameState, Piece

ATTACK_P = 0.75  # make an attack that wins (and captures) at least this often
CITY_ATTACK_P = 0.65  # ...or this often against a victory city (they decide the game)
SEND_P = 0.9  # ...dropping units while it still wins this often
DEFEND_P = 0.2  # a capital/victory city is safe when the enemy's best attack wins this often
THREAT_ROUNDS = 3  # the enemy's attack is judged over this many rounds (keeps it fast)
TRANSPORTS = 4  # a sea power buys transports up to this many
MAX_TRANSPORTS = 8  # ...or more, up to this many, while land units wait for a lift
CARRIERS = 2  # ...and carriers up to this many, when enemy ships or aircraft are near
MAX_EVALS_PER_TARGET = 8  # calculator runs spent trimming one attack


@dataclass(frozen=True)
class Planned:
    action: Action
    reason: str = ""


# (id(game), turn, step index, power) -> (the serial the head expects, the plan): a memo
# of the plan being played; a state with another serial makes a new plan.
_PLANS: dict[tuple[int, int, int, str], tuple[int, tuple[Planned, ...]]] = {}


def _ok(budget: Budget | None) -> bool:
    return budget is None or budget()


def eval_budget(count: int) -> Budget:
    """A budget of `count` costly evaluations (for tests and benchmarks without a clock)."""
    left = [count]

    def more() -> bool:
        left[0] -= 1
        return left[0] >= 0

    return more


# --- map and threat helpers ----------------------------------------------------------------
def _distances(game: Game, source: str) -> dict[str, int]:
    """Moves from `source` to every space, around neutrals."""
    return _all_distances(game, [source])


def _movement(game: Game, unit: str) -> int:
    return int(game.definition.unit_types[unit].movement)


def _threat_force(game: Game, state: GameState, power: str, target: str
                  ) -> tuple[Force, set[str]]:
    """The enemy units that could attack `target` on their next turn, and their powers."""
    w = world(game)
    land = land_distances(game, [target])
    anyd = _distances(game, target)
    units: list[str] = []
    sides: set[str] = set()
    for p in state.pieces.values():
        if p.location == MOBILIZATION or allied(game, p.side, power):
            continue
        s = stats(game, p)
        if not s.fights or s.sea:
            continue
        mv = _movement(game, p.type)
        if s.air:
            near = anyd.get(p.location, 99) <= (mv + 1) // 2 + 1
        elif p.attrs.get("on"):
            near = anyd.get(p.location, 99) <= 3  # a transport's move, then the landing
        else:
            near = p.location in w.land and land.get(p.location, 99) <= mv
        if near:
            units.append(p.type)
            sides.add(p.side)
    return force_of(units), sides


def _defence(game: Game, state: GameState, power: str, space: str,
             extra: Iterable[str] = (), less: Iterable[str] = ()) -> Force:
    gone = set(less)
    units = [
        p.type
        for p in state.pieces_at(space)
        if allied(game, p.side, power)
        and p.id not in gone
        and not stats(game, p).factory
        and not p.attrs.get("on")
    ]
    return force_of(units + list(extra))


def threat(game: Game, state: GameState, power: str, space: str,
           extra: Iterable[str] = (), less: Iterable[str] = ()) -> float:
    """P(the enemy's best next-turn attack on `space` takes it), with `extra` unit types
    added to its defenders and the pieces `less` gone."""
    att, sides = _threat_force(game, state, power, space)
    if not any(world(game).catalog[u].capture for u, _ in att.units):
        return 0.0
    # Both sides' developments change the odds (Phase 1: Research & Development).
    devs = battle_developments(game, state, sides, [power])
    return battle_odds(game, att, _defence(game, state, power, space, extra, less),
                       THREAT_ROUNDS, devs)[1]


def key_spaces(game: Game, state: GameState, power: str) -> list[str]:
    """The power's capital, victory cities and factory territories, most valuable first."""
    w = world(game)
    out: dict[str, int] = {}
    cap = w.capital.get(power)
    if cap and controller(state, cap) == power:
        out[cap] = 100
    for s in w.victory:
        if controller(state, s) == power:
            out.setdefault(s, 20 + w.ipc.get(s, 0))
    for f in mobilize.factories(game, state, power):
        out.setdefault(f, 10 + w.ipc.get(f, 0))
    return sorted(out, key=lambda s: (-out[s], s))


def _sea_power(game: Game, state: GameState, power: str) -> bool:
    """No land route from the capital to enemy land within three moves: it needs ships."""
    cap = world(game).capital.get(power)
    if cap is None:
        return False
    d = land_distances(game, enemy_land(game, state, power))
    return d.get(cap, 99) > 3


def _all_distances(game: Game, sources: Iterable[str]) -> dict[str, int]:
    """Moves over land and sea from the nearest source to every space, around neutrals."""
    w = world(game)
    dist = {z: 0 for z in sorted(set(sources))}
    q: deque[str] = deque(dist)
    while q:
        s = q.popleft()
        for n in w.neighbors[s]:
            if n not in dist and n not in w.neutral:
                dist[n] = dist[s] + 1
                q.append(n)
    return dist


def _sea_distances(game: Game, sources: Iterable[str]) -> dict[str, int]:
    """Sea moves from the nearest of the source zones to every sea zone."""
    w = world(game)
    dist = {z: 0 for z in sorted(set(sources)) if z in w.sea}
    q: deque[str] = deque(dist)
    while q:
        s = q.popleft()
        for n in w.neighbors[s]:
            if n in w.sea and n not in dist:
                dist[n] = dist[s] + 1
                q.append(n)
    return dist


def _enemy_coast_distance(game: Game, state: GameState, power: str,
                          victory_only: bool = False) -> dict[str, int]:
    """Sea zone -> sea moves to a zone next to enemy land (or to an enemy victory city)."""
    w = world(game)
    enemy = set(enemy_land(game, state, power))
    if victory_only:
        enemy &= w.victory
    return _sea_distances(game, (z for z in w.sea if any(n in enemy for n in w.neighbors[z])))


def _carrier_capacity(game: Game, unit: str) -> int:
    return int(game.definition.unit_types[unit].extra.get("carrier_capacity", 0))


def _carrier(game: Game, unit: str) -> bool:
    return _carrier_capacity(game, unit) > 0


def _name(game: Game, space: str) -> str:
    return space_name(game, space)


def _describe(game: Game, types: Iterable[str]) -> str:
    return force_of(types).describe(world(game).catalog)


# --- purchase ------------------------------------------------------------------------------
def plan_purchase(game: Game, state: GameState, p: Prompt,
                   budget: Budget | None) -> list[Planned]:
    w = world(game)
    power = p.side
    if power == "china":
        return []
    buys = {str(a.args.get("unit")) for a in button(p, "buy")} | {
        str(b.args.get("unit")) for b in p.buttons if b.id == "buy"
    }
    facs = mobilize.factories(game, state, power)
    cap_total = sum(max(0, mobilize.room(game, state, f)) for f in facs)
    have = ipcs(state, power)
    order: list[str] = []
    reasons: list[str] = []

    def cost(u: str) -> int:
        return w.catalog[u].cost

    def take(u: str) -> bool:
        nonlocal have
        if u not in buys or cost(u) > have or len(order) >= cap_total:
            return False
        order.append(u)
        have -= cost(u)
        return True

    cap = w.capital.get(power)
    if cap in facs and _ok(budget):
        p0 = pnow = threat(game, state, power, cap)
        n0 = len(order)
        room_cap = mobilize.room(game, state, cap)
        while pnow > DEFEND_P and len(order) < room_cap and _ok(budget):
            more = take("infantry") and take("infantry")
            pnow = threat(game, state, power, cap, extra=order)
            if not more:
                break  # out of IPCs or production
        if len(order) > n0:
            reasons.append(f"{len(order) - n0} Infantry to hold {_name(game, cap)} (the "
                           f"enemy's best attack wins {p0:.0%} -> {pnow:.0%})")
    coastal = [f for f in facs if any(n in w.sea for n in w.neighbors[f])]
    if _sea_power(game, state, power) and coastal:
        owned = sum(1 for q in state.pieces.values()
                    if q.side == power and stats(game, q).transport)
        near = set(z for f in coastal for z in w.neighbors[f] if z in w.sea)
        near_d = _sea_distances(game, near)
        enemy_ships = sum(
            1 for q in state.pieces.values()
            if not allied(game, q.side, power) and stats(game, q).sea
            and not stats(game, q).transport and near_d.get(q.location, 99) <= 2
        )
        own_ships = sum(
            1 for q in state.pieces.values()
            if q.side == power and q.location in near and stats(game, q).sea
            and not stats(game, q).transport
        )
        n0 = len(order)
        if enemy_ships > own_ships:
            take("destroyer")
        # A fleet that must survive enemy ships and aircraft near the coast gets a carrier
        # (two fighters' landing places, Aircraft Carriers pg. 27), bought with a fighter
        # when the power has few.
        anyd = _all_distances(game, near)
        enemy_air = sum(1 for q in state.pieces.values()
                        if not allied(game, q.side, power) and stats(game, q).air
                        and q.location != MOBILIZATION and anyd.get(q.location, 99) <= 4)
        carriers = sum(1 for q in state.pieces.values()
                       if q.side == power and _carrier(game, q.type))
        fighters = sum(1 for q in state.pieces.values()
                       if q.side == power and q.type == "fighter")
        if (enemy_ships or enemy_air) and carriers < CARRIERS \
                and have >= cost("carrier") + cost("transport") + 6:
            take("carrier")
            if fighters < 2 * (carriers + 1) and have >= cost("fighter") + cost("transport"):
                take("fighter")
        # More transports while land units wait at the coastal factories for a lift (two a
        # transport, Transports pg. 31: Japan's army is built in Japan), up to MAX_TRANSPORTS.
        waiting = sum(1 for f in coastal for q in state.pieces_at(f)
                      if q.side == power and stats(game, q).land and stats(game, q).fights)
        want = min(MAX_TRANSPORTS, max(TRANSPORTS, (waiting + 1) // 2))
        while owned < want and have >= cost("transport") + 8 and take("transport"):
            owned += 1
            take("infantry")
            take("armour")
        if len(order) > n0:
            reasons.append(f"{_describe(game, order[n0:])} to carry the war across the sea")
    n0 = len(order)
    cycle = ("infantry", "infantry", "artillery", "armour")
    fighter = have >= 30 and power != "china"
    if fighter:
        take("fighter")
    k = 0
    while have >= 3 and len(order) < cap_total:
        if not take(cycle[k % len(cycle)]) and not take("infantry"):
            break
        k += 1
    if len(order) > n0:
        reasons.append(f"{_describe(game, order[n0:])} for the land front")
    if not order:
        return []
    why = f"Buy {'; '.join(reasons)} ({sum(cost(u) for u in order)} IPCs)"
    return [Planned(Action.make("buy", power, unit=u), why if i == 0 else "")
            for i, u in enumerate(order)]


# --- combat move ---------------------------------------------------------------------------
def _garrison(game: Game, state: GameState, p: Prompt, budget: Budget | None) -> set[str]:
    """Land units that stay in the capital and the power's other victory cities so that
    they hold (victory cities decide the game, How to Win; aircraft fly back anyway)."""
    w = world(game)
    power = p.side
    cap = w.capital.get(power)
    places = [x for x in sorted(w.victory) if controller(state, x) == power and x != cap]
    if cap and controller(state, cap) == power:
        places.insert(0, cap)
    keep: set[str] = set()
    for place in places:
        keep |= _hold(game, state, p, place, budget)
    return keep


def _hold(game: Game, state: GameState, p: Prompt, place: str,
          budget: Budget | None) -> set[str]:
    power = p.side
    here = [q for q in state.pieces_at(place)
            if q.side == power and q.id in p.moves and stats(game, q).land]
    # Aircraft there may fly off to attack: the place must hold without them.
    flyers = [q.id for q in state.pieces_at(place)
              if q.side == power and q.id in p.moves and stats(game, q).air]
    if not here or not _ok(budget):
        return {q.id for q in here}
    if threat(game, state, power, place, less=flyers) > DEFEND_P:
        return {q.id for q in here}
    # Release the best attackers first while the place still holds.
    here.sort(key=lambda q: (-stats(game, q).attack, stats(game, q).cost, q.id))
    released: list[str] = []
    for q in here:
        if not _ok(budget):
            break
        if threat(game, state, power, place, less=flyers + released + [q.id]) > DEFEND_P:
            break
        released.append(q.id)
    return {q.id for q in here} - set(released)


def _target_value(game: Game, state: GameState, space: str, dfn: Force) -> float:
    w = world(game)
    if space in w.sea:
        return sum(w.catalog[u].cost * n for u, n in dfn.units) / 3.0
    # Victory cities decide the game (How to Win) and a stopped match; capitals also
    # take the loser's IPCs (Capturing Capitals, pg. 20).
    v = float(w.ipc.get(space, 0))
    if space in w.capital.values():
        v += 20
    if space in w.victory:
        v += 12
    if any(stats(game, q).factory for q in state.pieces_at(space)):
        v += 3
    return v


@dataclass
class _Lift:
    """Own transports in one sea zone that have not moved or unloaded this turn: they carry
    the cargo aboard and land units that board from the coast (a land unit moving into the
    zone boards, Transports pg. 15) to a sea zone `dests` next to hostile territories."""

    zone: str
    transports: list[str]  # lowest id first: the order boarding units fill them
    rooms: list[int]
    dests: dict[str, set[str]]  # sea zone -> the hostile territories next to it
    cargo: list[str]  # own land units already aboard that may move


def _lifts(game: Game, state: GameState, p: Prompt) -> dict[str, _Lift]:
    w = world(game)
    power = p.side
    out: dict[str, _Lift] = {}
    zones = sorted({q.location for q in state.pieces.values()
                    if q.side == power and q.location in w.sea and stats(game, q).transport})
    for z in zones:
        ts = sorted((q for q in state.pieces_at(z) if q.side == power
                     and stats(game, q).transport and not q.attrs.get("unloaded")
                     and not q.attrs.get("cm")), key=lambda q: q.id)
        if not ts:
            continue
        # Sea zones with enemy warships are left out: the cargo would wait for a sea battle
        # (Amphibious Assaults, pg. 17) and transports may not attack alone (pg. 31).
        # Where it may sail once loaded: an empty transport may not end its Combat Move in a
        # friendly zone, a loaded one may next to its target (Phase 3, pg. 14, instance 2),
        # so its reach is read before that rule (movement.reach).
        opts = set() if enemy_blocking_ships(game, state, z, power) else {z}
        common = set.intersection(*(set(movement.reach(game, state, t, True))
                                    for t in ts))
        opts |= {d for d in common if not enemy_blocking_ships(game, state, d, power)}
        dests = {d: {n for n in w.neighbors[d] if n in w.land and n not in w.neutral
                     and movement.hostile_land(game, state, n, power)} for d in sorted(opts)}
        dests = {d: ns for d, ns in dests.items() if ns}
        if not dests:
            continue
        cargo = [c.id for t in ts for c in movement.cargo(state, t)
                 if c.side == power and c.id in p.moves and stats(game, c).land]
        out[z] = _Lift(z, [t.id for t in ts], [movement.transport_room(game, state, t)
                                               for t in ts], dests, cargo)
    return out


def _transport_cost(game: Game, unit: str) -> int:
    return int(game.definition.unit_types[unit].extra.get("transport_cost", 0))


def _pack(game: Game, state: GameState, lift: _Lift, loaders: Iterable[str]) -> list[str]:
    """The loaders that fit, each into the first transport with room (as the engine seats
    them, movement.transport_for)."""
    rooms = list(lift.rooms)
    out: list[str] = []
    for pid in loaders:
        need = _transport_cost(game, state.pieces[pid].type)
        for i, r in enumerate(rooms):
            if 0 < need <= r:
                rooms[i] = r - need
                out.append(pid)
                break
    return out


def plan_combat(game: Game, state: GameState, p: Prompt, budget: Budget | None) -> list[Planned]:
    w = world(game)
    power = p.side
    keep = _garrison(game, state, p, budget)
    lifts = _lifts(game, state, p)
    lifted = {c for lf in lifts.values() if lf.zone in lf.dests for c in lf.cargo}
    movers: dict[str, tuple[str, ...]] = {}
    for pid, dests in p.moves.items():
        q = state.pieces[pid]
        s = stats(game, q)
        # Carriers stay: fighters count on them to land (the engine checked the landing
        # spaces as they are now, Air Units pg. 26); transports do not fight. Cargo of a
        # transport that may still sail is planned with it (`lifts`).
        if pid in keep or not s.fights or s.transport or _carrier(game, q.type) \
                or pid in lifted:
            continue
        movers[pid] = dests
    # Aircraft: the engine lets a fighter count on any carrier that could still come (Air
    # Units, pg. 26), not on a place on it; the bot sends one only where it reaches a
    # territory to land in afterwards, or the carrier it took off from (carriers stay).
    ashore = _all_distances(game, [x for x in w.land if x not in w.neutral and
                                   movement.air_may_end(game, state, x, power, "bomber")])

    far: dict[str, dict[str, int]] = {}  # memo of the map distances from a space

    def dist(a: str, b: str) -> int:
        if a not in far:
            far[a] = _distances(game, a)
        return far[a].get(b, 99)

    def air_ok(q: Piece, t: str) -> bool:
        left = _air_left(game, state, q) - dist(q.location, t)
        if ashore.get(t, 99) <= left:
            return True
        return (q.location in w.sea and movement.carrier_room(game, state, q.location, power)
                >= 0 and dist(q.location, t) <= left)

    targets: dict[str, list[str]] = {}
    for pid, dests in sorted(movers.items()):
        s = stats(game, state.pieces[pid])
        for d in dests:
            if d in w.neutral or (s.air and not air_ok(state.pieces[pid], d)):
                continue
            if d in w.sea:
                if (s.sea or s.air) and battle.defenders(game, state, d, power) and any(
                    stats(game, e).sea for e in battle.defenders(game, state, d, power)
                ):
                    targets.setdefault(d, []).append(pid)
            elif (s.land or s.air) and movement.hostile_land(game, state, d, power):
                targets.setdefault(d, []).append(pid)
    for lf in lifts.values():
        for ns in lf.dests.values():
            for t in ns:
                targets.setdefault(t, [])
    # Land units that may board a transport (Transports, pg. 15): by attack per place.
    boarders = sorted(
        (pid for pid, dests in p.moves.items()
         if pid not in keep and stats(game, state.pieces[pid]).land
         and stats(game, state.pieces[pid]).fights and not state.pieces[pid].attrs.get("on")
         and any(z in dests for z in lifts)),
        key=lambda x: (-stats(game, state.pieces[x]).attack
                       / max(1, _transport_cost(game, state.pieces[x].type)), x))
    scored = []
    for t in targets:
        dfn_pieces = battle.defenders(game, state, t, power)
        scored.append((-_target_value(game, state, t, battle.force(dfn_pieces)), t,
                       dfn_pieces))
    scored.sort(key=lambda x: (x[0], x[1]))
    used: set[str] = set()
    lifts_used: set[str] = set()
    out: list[Planned] = []
    for _neg, t, dfn_pieces in scored:
        if not _ok(budget):
            break
        dfn = battle.force(dfn_pieces)
        landing = t in w.land
        direct = [pid for pid in targets[t] if pid not in used]
        # Seaborne units: cargo aboard and units boarding from the coast, carried by the
        # transports of one zone to a zone next to `t` (one territory per transport a turn).
        sea_via: dict[str, tuple[str, str]] = {}  # piece -> (its lift's zone, sail to)
        boarding: set[str] = set()
        if landing:
            for z, lf in sorted(lifts.items()):
                if z in lifts_used or any(x in used for x in lf.transports):
                    continue
                ds = sorted((d for d, ns in lf.dests.items() if t in ns),
                            key=lambda d: (d != z, d))
                if not ds:
                    continue
                aboard = [c for c in lf.cargo if c not in used and c not in sea_via]
                cands = [x for x in boarders if x not in used and x not in direct
                         and x not in sea_via and z in p.moves[x]]
                packed = _pack(game, state, lf, cands)
                for x in aboard + packed:
                    sea_via[x] = (z, ds[0])
                boarding.update(packed)
        avail = direct + sorted(sea_via)
        lands = [pid for pid in avail if stats(game, state.pieces[pid]).land]
        if landing and not lands:
            continue
        here = [q.type for q in battle.attackers(game, state, t, power)]
        if not dfn.units:
            if here or not landing:
                continue
            pick = min(lands, key=lambda pid: (pid in boarding,
                                               stats(game, state.pieces[pid]).cost,
                                               bool(state.pieces[pid].attrs.get("on")), pid))
            out += _attack_moves(game, state, power, t, [pick], sea_via, lifts, used,
                                 lifts_used, f"Take undefended {_name(game, t)}")
            continue
        devs = battle_developments(game, state, [power], {q.side for q in dfn_pieces})

        def odds(pids: list[str], here: list[str] = here, dfn: Force = dfn,
                 devs: research.BattleDevelopments | None = devs
                 ) -> tuple[float, float, float, float]:
            att = force_of(here + [state.pieces[x].type for x in pids])
            return battle_odds(game, att, dfn, devs=devs)

        def win(o: tuple[float, float, float, float], landing: bool = landing) -> float:
            return o[1] if landing else o[0]

        best = odds(avail)
        if win(best) < (CITY_ATTACK_P if t in w.victory else ATTACK_P):
            continue
        chosen = list(avail)
        # Drop the costliest units while the attack still wins often enough (units that
        # would have to board first go before the others of the same cost).
        drop = sorted(chosen, key=lambda x: (-stats(game, state.pieces[x]).cost,
                                             x not in boarding, x))
        evals = 0
        for x in drop:
            if evals >= MAX_EVALS_PER_TARGET or not _ok(budget):
                break
            trial = [y for y in chosen if y != x]
            if landing and not any(stats(game, state.pieces[y]).land for y in trial):
                continue
            o = odds(trial)
            evals += 1
            if win(o) >= max(SEND_P, min(win(best), 0.97)) - 1e-9:
                chosen, best = trial, o
        value = _target_value(game, state, t, dfn)
        pw, _pc, att_loss, def_loss = best
        gain = win(best) * value * 3 + def_loss - att_loss
        if gain <= 0 and win(best) < 0.95:
            continue
        # A transport that sails to a friendly zone must land all its cargo to attack
        # (Phase 3, pg. 14, instance 2): the cargo left aboard comes along.
        for z, lf in lifts.items():
            if any(sea_via.get(x, ("", ""))[0] == z and sea_via[x][1] != z for x in chosen):
                chosen += [c for c in lf.cargo if c not in chosen]
        sea = sum(1 for x in chosen if x in sea_via)
        types = [state.pieces[x].type for x in chosen]
        why = (f"Attack {_name(game, t)}: {win(best):.0%} win, {len(chosen)} units "
               f"({_describe(game, types)}"
               + (f"; {sea} landing from transports" if sea else "") + ")")
        out += _attack_moves(game, state, power, t, chosen, sea_via, lifts, used, lifts_used,
                             why)
    return out


def _attack_moves(game: Game, state: GameState, power: str, t: str, chosen: list[str],
                  sea_via: dict[str, tuple[str, str]], lifts: dict[str, _Lift],
                  used: set[str], lifts_used: set[str], why: str) -> list[Planned]:
    """The moves of one attack, in an order the engine accepts: units board, their
    transports sail to the zone next to `t`, then land and seaborne units enter `t`
    (an amphibious assault, pg. 17), aircraft last (a land unit's move never depends on
    them, theirs may: landing spaces)."""
    acts: list[Action] = []
    sail: dict[str, str] = {}
    for x in sorted(chosen):
        if x in sea_via:
            z, d = sea_via[x]
            sail[z] = d
            if state.pieces[x].attrs.get("on") is None:
                acts.append(Action.make("move", power, piece=x, to=z))  # boards
    for z, d in sorted(sail.items()):
        lifts_used.add(z)
        used.update(lifts[z].transports)
        if d != z:
            acts += [Action.make("move", power, piece=tid, to=d) for tid in lifts[z].transports]
    order = sorted(chosen, key=lambda x: (stats(game, state.pieces[x]).air, x))
    acts += [Action.make("move", power, piece=x, to=t) for x in order]
    used.update(chosen)
    return [Planned(a, why if i == 0 else "") for i, a in enumerate(acts)]


# --- noncombat move ------------------------------------------------------------------------
def _air_left(game: Game, state: GameState, q: Piece) -> float:
    """The movement an aircraft has left this turn (Long-Range Aircraft counted)."""
    return float(research.movement(game, state, q.side, q.type)) - float(q.attrs.get("mp", 0))


def _flies_to(game: Game, state: GameState, q: Piece, to: str) -> bool:
    return _distances(game, q.location).get(to, 99) <= _air_left(game, state, q)


def _pickups(game: Game, state: GameState, p: Prompt, used: set[str],
             deck: dict[str, int], air_to: dict[str, str]) -> list[Planned]:
    """A fighter with no landing space planned (`air_to`) and none of its own: it flies to
    a carrier with a place left in reach (`deck`), else a carrier that has not moved sails
    to a sea zone the fighter reaches and the fighter lands on it (Air Units, pg. 26;
    Aircraft Carriers, pg. 27). Only carriers no other fighter counts on sail."""
    w = world(game)
    power = p.side
    out: list[Planned] = []
    fighters = sorted((q.id for q in state.pieces.values() if q.side == power
                       and q.type == "fighter" and q.location != MOBILIZATION),
                      key=lambda x: (_air_left(game, state, state.pieces[x]), x))
    for pid in fighters:  # one that cannot move any more is not in p.moves
        q = state.pieces[pid]
        if pid in used:
            continue
        if q.location in w.sea:
            if deck[q.location] >= 0 and not enemy_blocking_ships(game, state, q.location,
                                                                  power):
                continue
        elif movement.air_may_end(game, state, q.location, power, q.type):
            continue
        if any(d in w.land for d in p.moves.get(pid, ())):
            continue  # it has a landing space of its own
        decks = sorted((z for z, n in deck.items() if n > 0 and z != q.location
                        and not enemy_blocking_ships(game, state, z, power)
                        and _flies_to(game, state, q, z)),
                       key=lambda z: (_distances(game, q.location).get(z, 99), z))
        if decks:  # a carrier with room (one sailing there, too)
            used.add(pid)
            deck[decks[0]] -= 1
            if q.location in w.sea:
                deck[q.location] += 1
            air_to[pid] = decks[0]
            continue
        options: list[tuple[int, str, str]] = []
        for cid, cdests in sorted(p.moves.items()):
            c = state.pieces[cid]
            if cid in used or not _carrier(game, c.type) or c.side != power:
                continue
            if deck.get(c.location, 0) - _carrier_capacity(game, c.type) < 0:
                continue  # fighters sit on it where it is
            for z in (c.location, *cdests):
                if z in w.sea and not enemy_blocking_ships(game, state, z, power) \
                        and _flies_to(game, state, q, z):
                    options.append((int(z != c.location), z, cid))
        if not options:
            continue
        _far, z, cid = min(options)
        c = state.pieces[cid]
        used.update((cid, pid))
        cap = _carrier_capacity(game, c.type)
        deck[c.location] = deck.get(c.location, 0) - cap
        deck[z] = deck.get(z, 0) + cap
        if z != q.location:
            deck[z] -= 1
            if q.location in w.sea:
                deck[q.location] += 1
            air_to[pid] = z  # it lands once the carrier is there
        if z != c.location:
            out.append(Planned(Action.make("move", power, piece=cid, to=z),
                               f"A carrier sails to {_name(game, z)} to pick up a fighter "
                               "with nowhere else to land (Air Units, pg. 26)"))
    return out


def plan_noncombat(game: Game, state: GameState, p: Prompt,
                    budget: Budget | None) -> list[Planned]:
    w = world(game)
    power = p.side
    keys = key_spaces(game, state, power)
    danger: dict[str, float] = {}
    for k in keys:
        if _ok(budget):
            danger[k] = threat(game, state, power, k)
    fdist = land_distances(game, front(game, state, power))
    out: list[Planned] = []
    used: set[str] = set()
    extra: dict[str, list[str]] = {}

    deck: dict[str, int] = {}  # sea zone -> carrier places left for more fighters

    def room(z: str) -> int:
        if z not in deck:
            deck[z] = movement.carrier_room(game, state, z, power)
        return deck[z]

    for z in w.sea:
        room(z)
    air_to: dict[str, str] = {}
    # 0. Carriers pick up the fighters that have nowhere else to land, least fuel first.
    out += _pickups(game, state, p, used, deck, air_to)
    # 1. Aircraft land where they defend, else on a carrier with room (it defends the
    # fleet, Aircraft Carriers pg. 27), else nearest the front.
    landing: list[tuple[str, str]] = []  # (piece, where)

    def score(loc: str) -> float:
        if loc in w.sea:
            return 30.0 if room(loc) > 0 else -1000.0
        if danger.get(loc, 0.0) > DEFEND_P:  # the most threatened place first
            return 100.0 + 40.0 * danger[loc] + (50.0 if loc == w.capital.get(power) else 0.0)
        return -float(fdist.get(loc, 30))

    def may_stay(q: Piece) -> bool:
        here = q.location
        if here in w.land:
            return movement.air_may_end(game, state, here, power, q.type)
        return q.type == "fighter" and room(here) >= 0

    flyers = [pid for pid in p.moves if stats(game, state.pieces[pid]).air and pid not in used]
    flyers.sort(key=lambda x: (may_stay(state.pieces[x]), x))  # who must move, first
    for pid in flyers:
        q = state.pieces[pid]
        spots = [d for d in p.moves[pid] if d in w.land or room(d) > 0]
        if not spots:
            continue
        here = q.location
        stay_ok = may_stay(q)
        best = max(spots, key=lambda d: (score(d), d))
        stay = 30.0 if here in w.sea else score(here)
        if stay_ok and stay >= score(best):
            continue
        if best in w.sea:
            deck[best] = room(best) - 1
        if here in w.sea and q.type == "fighter":
            deck[here] = room(here) + 1  # its place on a carrier there is free again
        used.add(pid)
        extra.setdefault(best, []).append(q.type)
        if danger.get(best, 0.0) > DEFEND_P and _ok(budget):  # the next goes where needed
            danger[best] = threat(game, state, power, best, extra=extra[best])
        landing.append((pid, best))
    air_to.update(landing)
    out += _pickups(game, state, p, used, deck, air_to)  # those left without a place

    # 2. Land units reinforce threatened key spaces (without the aircraft that fly off).
    gone: dict[str, list[str]] = {}
    for pid, d in air_to.items():
        if d != state.pieces[pid].location:
            gone.setdefault(state.pieces[pid].location, []).append(pid)
    for k in keys:
        if k in gone and _ok(budget):
            danger[k] = threat(game, state, power, k, extra=extra.get(k, ()), less=gone[k])
    holders = {k for k, v in danger.items() if v > DEFEND_P}
    reinforce: list[Planned] = []
    for k in keys:
        if danger.get(k, 0.0) <= DEFEND_P or not _ok(budget):
            continue
        p0 = threat(game, state, power, k, extra=extra.get(k, ()), less=gone.get(k, ()))
        cands = [
            pid for pid, dests in sorted(p.moves.items())
            if pid not in used and k in dests and stats(game, state.pieces[pid]).land
            and state.pieces[pid].location not in holders
        ]
        cands.sort(key=lambda x: (-stats(game, state.pieces[x]).defense
                                  / max(1, stats(game, state.pieces[x]).cost), x))
        added: list[str] = []
        pnow = p0
        while cands and pnow > DEFEND_P and _ok(budget):
            added += cands[:2]
            cands = cands[2:]
            pnow = threat(game, state, power, k, extra=extra.get(k, []) + [
                state.pieces[x].type for x in added], less=gone.get(k, ()))
        if added and (pnow <= 0.5 or p0 - pnow >= 0.25):  # else the place cannot be held
            used.update(added)
            extra.setdefault(k, []).extend(state.pieces[x].type for x in added)
            why = (f"Reinforce {_name(game, k)}: enemy attack {p0:.0%} -> {pnow:.0%} "
                   f"(+{len(added)} units)")
            reinforce += [Planned(Action.make("move", power, piece=x, to=k),
                                  why if i == 0 else "") for i, x in enumerate(added)]

    # 3. Transports load and sail toward enemy coasts with their escorts and carriers (the
    # carriers' fighters fly along and land on them again).
    # Threatened key spaces the reinforcements above did not make safe: transports may
    # carry more there (load, sail and offload in Noncombat Move, Phase 5 pg. 21).
    guard = {k: (extra.get(k, []), gone.get(k, [])) for k in keys
             if danger.get(k, 0.0) > DEFEND_P and k != w.capital.get(power)}
    out += _ferry(game, state, p, used, holders, air_to, guard, budget)

    if air_to:
        where: dict[str, list[str]] = {}
        for pid, d in air_to.items():
            where.setdefault(d, []).append(state.pieces[pid].type)
        why = "Aircraft land: " + "; ".join(
            f"{_describe(game, ts)} in {_name(game, d)}" for d, ts in sorted(where.items()))
        # Those who must leave first (a place on a carrier may wait for them to go).
        flights = sorted((x for x in air_to if air_to[x] != state.pieces[x].location),
                         key=lambda x: (state.pieces[x].location in w.sea, x))
        out += [Planned(Action.make("move", power, piece=pid, to=air_to[pid]),
                        why if i == 0 else "") for i, pid in enumerate(flights)]
    out += reinforce

    # 4. The rest of the land units move toward the front.
    steps: list[tuple[int, str, str]] = []
    for pid, dests in sorted(p.moves.items()):
        q = state.pieces[pid]
        if pid in used or not stats(game, q).land or q.attrs.get("on"):
            continue
        if q.location in holders or q.location not in fdist or fdist[q.location] == 0:
            continue
        at = fdist[q.location]
        for d in dests:
            if d in fdist and fdist[d] < at and controller(state, d) \
                    and allied(game, controller(state, d), power):
                steps.append((fdist[d] - at, pid, d))
    steps.sort()
    moved: dict[str, str] = {}
    for _gain, pid, d in steps:
        moved.setdefault(pid, d)
    why = f"{len(moved)} land units move toward the front"
    out += [Planned(Action.make("move", power, piece=pid, to=d), why if i == 0 else "")
            for i, (pid, d) in enumerate(moved.items())]
    return out


def _ferry(game: Game, state: GameState, p: Prompt, used: set[str],
           holders: set[str], air_to: dict[str, str],
           guard: dict[str, tuple[list[str], list[str]]] | None = None,
           budget: Budget | None = None) -> list[Planned]:
    """Transports load land units and sail: to offload them into a threatened own key
    space next to a zone they reach (`guard`: key space -> (unit types already planned to
    come, pieces leaving)), else toward the enemy's coastal victory cities, else the nearest
    enemy coast; empty ones sail back to the coastal factories where land units wait."""
    power = p.side
    w = world(game)
    guard = dict(guard or {})
    # Where empty transports go: next to own coastal factories with land units waiting.
    pickup = _sea_distances(game, (
        z for f in mobilize.factories(game, state, power) if f not in holders
        for z in w.neighbors[f] if z in w.sea and any(
            q.side == power and q.id not in used and stats(game, q).land
            and stats(game, q).fights for q in state.pieces_at(f))))
    coast = _enemy_coast_distance(game, state, power)
    cities = _enemy_coast_distance(game, state, power, victory_only=True)
    out: list[Planned] = []
    zones = sorted({state.pieces[pid].location for pid in p.moves
                    if stats(game, state.pieces[pid]).transport})
    for z in zones:
        ships = [q for q in state.pieces_at(z) if q.side == power and q.id in p.moves
                 and q.id not in used and stats(game, q).sea and not q.attrs.get("on")]
        transports = [q for q in ships if stats(game, q).transport]
        if not transports:
            continue
        room = sum(movement.transport_room(game, state, t) for t in transports)
        loads: list[str] = []
        for pid, dests in sorted(p.moves.items(),
                                 key=lambda kv: (state.pieces[kv[0]].type != "armour", kv[0])):
            q = state.pieces[pid]
            if pid in used or z not in dests or not stats(game, q).land \
                    or not stats(game, q).fights:
                continue
            if q.location in holders:
                continue
            need = _transport_cost(game, q.type)
            if 0 < need <= room:
                room -= need
                loads.append(pid)
        cargo = loads or [c.id for t in transports for c in movement.cargo(state, t)]
        dests = p.moves[transports[0].id]
        if not cargo:
            # Empty transports sail back to where land units wait for a lift (their escorts
            # along; carriers stay with the fighters that count on them).
            home = min(dests, key=lambda d: (pickup.get(d, 99), d)) if dests else z
            if pickup.get(home, 99) < pickup.get(z, 99):
                group = [s for s in ships if home in p.moves.get(s.id, ())
                         and not _carrier(game, s.type)]
                used.update(s.id for s in group)
                out += [Planned(Action.make("move", power, piece=s.id, to=home),
                                f"Empty transports sail {_name(game, z)} -> "
                                f"{_name(game, home)} to pick up land units" if i == 0 else "")
                        for i, s in enumerate(group)]
            continue
        # A threatened own key space next to a zone they reach: the cargo goes ashore there.
        mine = [c for c in cargo if state.pieces[c].side == power]
        shore = _guard_landing(game, state, power, z, dests, mine, guard, budget)
        if shore is not None:
            d, k, p0, pnow = shore
            for pid in loads:
                used.add(pid)
            used.update(mine)
            what = _describe(game, [state.pieces[x].type for x in mine])
            why = (f"Transports carry {what} to {_name(game, k)}: enemy attack {p0:.0%} -> "
                   f"{pnow:.0%} (Noncombat Move, pg. 21)")
            acts = [Action.make("move", power, piece=x, to=z) for x in loads]
            if d != z:
                acts += [Action.make("move", power, piece=t.id, to=d) for t in transports]
                used.update(t.id for t in transports)
            acts += [Action.make("move", power, piece=x, to=k) for x in mine]
            out += [Planned(a, why if i == 0 else "") for i, a in enumerate(acts)]
            continue
        # Toward the enemy's victory cities first (they decide the game), then any coast.
        def aim(d: str) -> tuple[int, int]:
            return (cities.get(d, 99), coast.get(d, 99))

        best = min(dests, key=lambda d: (aim(d), d))
        go = aim(best) < aim(z)
        for pid in loads:
            used.add(pid)
        why = ""
        if loads:
            what = _describe(game, [state.pieces[x].type for x in loads])
            why = f"Load {what} in {_name(game, z)}"
        out += [Planned(Action.make("move", power, piece=x, to=z), why if i == 0 else "")
                for i, x in enumerate(loads)]
        if not go:
            continue
        # Carriers sail with the fleet they protect when every fighter that would stay on
        # them here reaches the new zone (Aircraft Carriers, pg. 27; Air Units, pg. 26).
        flock = [q.id for q in state.pieces_at(z) if q.side == power and q.type == "fighter"
                 and air_to.get(q.id, z) == z] + [f for f, d in air_to.items()
                                                   if d == z and state.pieces[f].location != z]
        carriers = [s for s in ships if _carrier(game, s.type) and best in p.moves[s.id]]
        staying = sum(_carrier_capacity(game, q.type) for q in state.pieces_at(z)
                      if allied(game, q.side, power) and q.id not in {c.id for c in carriers})
        guests = sum(1 for q in state.pieces_at(z) if q.type == "fighter" and q.side != power
                     and allied(game, q.side, power))
        movers = flock[max(0, staying - guests):]  # the others keep their places here
        if carriers and not all(
                f in p.moves and _flies_to(game, state, state.pieces[f], best) for f in movers):
            carriers = []
        why = f"Transports sail {_name(game, z)} -> {_name(game, best)}" + (
            f" with {len(carriers)} carrier(s)" if carriers else "")
        first = True
        for s in ships:
            if best in p.moves.get(s.id, ()) and (not _carrier(game, s.type) or s in carriers):
                used.add(s.id)
                out.append(Planned(Action.make("move", power, piece=s.id, to=best),
                                   why if first else ""))
                first = False
        if carriers:
            for f in movers:
                air_to[f] = best
    return out


def _guard_landing(game: Game, state: GameState, power: str, z: str, dests: Iterable[str],
                   cargo: list[str], guard: dict[str, tuple[list[str], list[str]]],
                   budget: Budget | None) -> tuple[str, str, float, float] | None:
    """(zone to sail to, key space, enemy's odds before, after) for the first threatened key
    space in `guard` that transports in `z` reach with `cargo` and that it makes safer (as
    land reinforcements must: at most half the enemy's attacks win, or a quarter fewer).
    Noncombat Move never offloads in a zone holding enemy units (Phase 5, pg. 21)."""
    w = world(game)
    if not cargo:
        return None
    types = [state.pieces[x].type for x in cargo]
    zones = [z, *sorted(d for d in dests if d != z)]
    for k, (extra, less) in list(guard.items()):
        near = [d for d in zones if k in w.neighbors[d]
                and not any(not allied(game, q.side, power) for q in state.pieces_at(d))]
        if not near or not _ok(budget):
            continue
        p0 = threat(game, state, power, k, extra=extra, less=less)
        if p0 <= DEFEND_P:
            continue
        pnow = threat(game, state, power, k, extra=extra + types, less=less)
        if pnow <= 0.5 or p0 - pnow >= 0.25:
            guard[k] = (extra + types, less)
            return near[0], k, p0, pnow
    return None


# --- mobilize ------------------------------------------------------------------------------
def plan_mobilize(game: Game, state: GameState, p: Prompt,
                   budget: Budget | None) -> list[Planned]:
    power = p.side
    placed: dict[str, int] = {}
    coast = _enemy_coast_distance(game, state, power)
    fdist = land_distances(game, enemy_land(game, state, power))
    keys = [k for k in key_spaces(game, state, power)]
    out: list[Planned] = []
    extra: dict[str, list[str]] = {}
    decks: set[str] = set()  # factories next to the sea zones new carriers go to
    aboard: dict[str, int] = {}  # sea zone -> places left on the new carriers there

    def free(f: str) -> int:
        if power == "china":  # at most three Chinese units a territory (China Rules, pg. 10)
            have = sum(1 for x in state.pieces_at(f) if x.side == "china")
            return 3 - have - placed.get(f, 0)
        return mobilize.room(game, state, f) - placed.get(f, 0)

    # Ships first: they need a coastal factory's room, land units can use any factory.
    new = sorted((q for q in state.pieces_at(MOBILIZATION) if q.id in p.moves),
                 key=lambda q: (not stats(game, q).sea, -stats(game, q).defense, q.id))
    dests_of: dict[str, dict[str, str]] = {}
    for q in new:
        dests_of[q.id] = mobilize.destinations(game, state, q) if power != "china" else {
            d: d for d in p.moves[q.id]}
    danger = {k: threat(game, state, power, k) for k in keys
              if _ok(budget) and any(k in d for d in dests_of.values())}
    for q in new:
        ds = {d: f for d, f in dests_of[q.id].items() if d in p.moves[q.id]}
        ds = {d: f for d, f in ds.items() if free(f) > 0}
        if not ds:
            continue
        s = stats(game, q)
        if s.sea:
            # A carrier joins the fleet it protects (the most own warships and transports),
            # the other ships go nearest the enemy's coasts.
            # Fighters waiting there for a new carrier come first (Air Units, pg. 26).
            fleet = {x: 0 if not _carrier(game, q.type) else -sum(
                1 for y in state.pieces_at(x) if y.side == power and stats(game, y).sea)
                - 100 * max(0, -movement.carrier_room(game, state, x, power) - 2 * sum(
                    1 for c in out if c.action.args.get("to") == x
                    and _carrier(game, state.pieces[str(c.action.args.get("piece"))].type)))
                for x in ds}
            d = min(ds, key=lambda x: (fleet[x], coast.get(x, 99), x))
            if _carrier(game, q.type):
                decks.add(ds[d])
                aboard[d] = aboard.get(d, min(0, movement.carrier_room(
                    game, state, d, power))) + _carrier_capacity(game, q.type)
        else:
            hot = [k for k in keys if k in ds and danger.get(k, 0.0) > DEFEND_P]
            # A new fighter goes on board a new carrier (Mobilize New Units, pg. 22: "on an
            # aircraft carrier owned by your power in a sea zone adjacent to a territory with
            # such an industrial complex ... either a new one or an existing one"); the
            # place is offered once the carrier is placed, so the plan keeps it till then.
            ship = [(x, f) for x in sorted(aboard) if aboard[x] > 0 and q.type == "fighter"
                    for f in mobilize.factories(game, state, power)
                    if x in world(game).neighbors[f] and free(f) > 0]
            if not hot and ship:
                x, f = ship[0]
                aboard[x] -= 1
                placed[f] = placed.get(f, 0) + 1
                out.append(Planned(Action.make("move", power, piece=q.id, to=x)))
                continue
            # Else a new fighter next to a new carrier: it flies on board next turn (pg. 27).
            deck = [x for x in ds if q.type == "fighter" and x in decks]
            d = hot[0] if hot else deck[0] if deck else min(
                ds, key=lambda x: (fdist.get(x, 99), x))
            if hot:
                extra.setdefault(d, []).append(q.type)
                if _ok(budget) and danger.get(d, 0.0) > DEFEND_P:
                    danger[d] = threat(game, state, power, d, extra=extra[d])
        placed[ds[d]] = placed.get(ds[d], 0) + 1
        out.append(Planned(Action.make("move", power, piece=q.id, to=d)))
    if out:
        where: dict[str, int] = {}
        for pl in out:
            to = str(pl.action.args.get("to"))
            where[to] = where.get(to, 0) + 1
        why = "Mobilize " + ", ".join(f"{n} in {_name(game, s)}" for s, n in sorted(where.items()))
        out[0] = Planned(out[0].action, why)
    return out


# --- the plan per step ---------------------------------------------------------------------
_BUILDERS = {
    "purchase": plan_purchase,
    "combat_move": plan_combat,
    "noncombat_move": plan_noncombat,
    "mobilize": plan_mobilize,
}


def _still_legal(p: Prompt, a: Action) -> bool:
    if a.verb == "move":
        return str(a.args.get("to")) in p.moves.get(str(a.args.get("piece")), ())
    if a.verb == "buy":
        return any(b.id == "buy" and b.enabled and b.args == a.args for b in p.buttons)
    return True


def ranked(session: Session, budget: Budget | None = None,
           prompt: Prompt | None = None) -> list[tuple[Action, str]]:
    """The strong bot's candidates for the deciding side, best first, with reasons
    (`prompt`: the deciding side's prompt when the caller has it: it is costly to make)."""
    game, state = session.game, session.state
    side = deciding_side(state)
    p = prompt if prompt is not None and prompt.side == side else session.prompt(side)
    ids = {b.id for b in p.buttons if b.enabled}
    if "casualties" in ids:
        return [(a, "") for a in button(p, "casualties")]
    if "press" in ids:
        return [(a, "") for a in press_or_retreat(game, state, p)]
    if state.frames:
        return [(a, "") for a in game.rules.candidate_actions(game, state, p)]
    kind = step_kind(game, state)
    if kind == "conduct_combat":
        return raid_choice(game, state, p) + [(a, "") for a in button(p, "fight")
                                              + end_buttons(p)]
    build = _BUILDERS.get(kind)
    if build is None:
        rest = end_buttons(p) + list(game.rules.candidate_actions(game, state, p))
        return [(a, "") for a in rest]
    key = (id(game), state.turn, state.step_index, side)
    hit = _PLANS.get(key)
    if hit is not None and hit[0] == state.serial:
        plan = hit[1]
    else:
        plan = tuple(build(game, state, p, budget))
    # An action not legal yet may become so after the ones before it (a fighter lands where
    # its carrier sails to, cargo lands once its transport sailed): it is kept for later.
    legal = [x for x in plan if _still_legal(p, x.action)]
    later = plan[plan.index(legal[0]) + 1:] if legal else ()
    if len(_PLANS) > 64:
        _PLANS.clear()
    _PLANS[key] = (state.serial + 1, later)
    return ([(x.action, x.reason) for x in legal] + _unstick(game, state, p, kind)
            + [(a, "") for a in end_buttons(p)])


def _unstick(game: Game, state: GameState, p: Prompt, kind: str) -> list[tuple[Action, str]]:
    """When the step may not end (the end button's reason), the moves that let it end:
    units loaded in Combat Move assault a hostile territory (Transports, pg. 15), their
    transport sails where they can; in Noncombat Move a carrier moves to the fighters
    that count on it (Air Units, pg. 26), the one the reason names first."""
    end = [b for b in p.buttons if b.id == END_STEP]
    if not end or end[0].enabled:
        return []
    power = p.side
    out: list[tuple[Action, str]] = []
    if kind == "combat_move":
        for pid, dests in sorted(p.moves.items()):
            q = state.pieces[pid]
            if q.attrs.get("on") and stats(game, q).land:  # in Combat Move it lands to attack
                to = min(dests, key=lambda d: (len(battle.defenders(game, state, d, power)), d))
            elif stats(game, q).transport and movement.carries_combat_cargo(state, q):
                to = dests[0]
            else:
                continue
            out.append((Action.make("move", power, piece=pid, to=to),
                        "Units loaded in Combat Move must assault (Transports, pg. 15)"))
    elif kind == "noncombat_move":
        reason = end[0].reason
        w = world(game)
        short = {z for z in w.sea if movement.carrier_room(game, state, z, power) < 0}
        carriers = sorted((pid for pid in p.moves if _carrier(game, state.pieces[pid].type)),
                          key=lambda x: (game.rules.piece_name(game, state.pieces[x])
                                         not in reason, x))
        for pid in carriers:
            dests = p.moves[pid]
            named = [d for d in dests if f" {_name(game, d)} " in reason]
            for d in named + sorted(d for d in dests if d in short and d not in named):
                out.append((Action.make("move", power, piece=pid, to=d),
                            f"A carrier moves to pick up fighters in {_name(game, d)} "
                            "(Air Units, pg. 26)"))
    elif kind == "mobilize":  # a new carrier goes where fighters wait for it (pg. 26)
        reason = end[0].reason
        w = world(game)
        for pid, dests in sorted(p.moves.items()):
            if not _carrier(game, state.pieces[pid].type):
                continue
            for d in sorted(dests, key=lambda d: (f" {_name(game, d)} " not in reason,
                                                  movement.carrier_room(game, state, d, power),
                                                  d)):
                if d in w.sea:
                    out.append((Action.make("move", power, piece=pid, to=d), ""))
    return out


def hint(session: Session, budget: Budget | None = None) -> tuple[Action, str] | None:
    """The strong bot's next action for the deciding side and why (not played)."""
    for a, why in ranked(session, budget):
        try:
            session.submit(a)
        except IllegalAction:
            continue
        return a, why
    return None

