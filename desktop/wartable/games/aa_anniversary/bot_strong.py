"""The "strong" bot for Axis & Allies Anniversary (issue 7), built on the fast bot's pieces.

Each step of a power's turn is planned once, as it begins, into a list of actions with the
reasons a player reads in the turn summary; the list is replayed action by action and made
again whenever the state is not the one the plan expects (an undo, a human's move, a hint).
  purchase        a threatened capital first buys infantry until the enemy's best attack on
                  it wins at most DEFEND_P of the time (exact odds, `calculate`); a power whose
                  capital has no land route to the enemy (UK, USA, Japan) then buys transports
                  (up to TRANSPORTS) with escorts against nearby enemy fleets, and land units
                  to ship; the others a land mix (infantry, artillery, armour, a fighter)
  combat move     every target's attack gathers all units that reach it (land units from
                  several territories, aircraft, cargo landing from transports: amphibious
                  assaults), then drops the costliest units while the attack still wins
                  SEND_P of the time; it is made when it wins ATTACK_P of the time
                  (CITY_ATTACK_P against a victory city) and is worth its expected
                  losses. The capital keeps the garrison that holds it.
                  Aircraft only take moves the engine offers, which keep a landing space in
                  reach (Air Units, pg. 26).
  battles         the default casualty order; press while the attacker wins PRESS_P
  noncombat move  aircraft land where they defend a threatened capital, victory city or
                  factory, else nearest the front; land units reinforce such places until
                  the enemy's best attack wins at most DEFEND_P, then move toward the front;
                  transports load land units and sail with their escorts toward the
                  enemy's coastal victory cities, else the nearest enemy coast
  mobilize        land units where the threat is, else at the factory nearest the front;
                  ships in the sea zone nearest the enemy's coasts
  Strategic Bombing Raids (pg. 17): bombers that came with an attack fight in it; bombers
                  alone over an enemy industrial complex raid it
Threats count enemy land units within their move of the space, aircraft within about half
their range (they must fly back), and cargo within a transport's move (bombardment and sea
units are left out). Pure: no clock; the caller's `budget` callable is the time limit.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

from wartable.core.errors import IllegalAction
from wartable.engine.actions import Action, Prompt
from wartable.engine.loop import deciding_side
from wartable.engine.rules import Game
from wartable.engine.session import Session
from wartable.games.aa_anniversary.bot import (
    Budget,
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
    w = world(game)
    dist = {source: 0}
    q: deque[str] = deque([source])
    while q:
        s = q.popleft()
        for n in w.neighbors[s]:
            if n in dist or n in w.neutral:
                continue
            dist[n] = dist[s] + 1
            q.append(n)
    return dist


def _movement(game: Game, unit: str) -> int:
    return int(game.definition.unit_types[unit].movement)


def _threat_force(game: Game, state: GameState, power: str, target: str) -> Force:
    """The enemy units that could attack `target` on their next turn."""
    w = world(game)
    land = land_distances(game, [target])
    anyd = _distances(game, target)
    units: list[str] = []
    for p in state.pieces.values():
        if p.location == MOBILIZATION or allied(game, p.side, power):
            continue
        s = stats(game, p)
        if not s.fights or s.sea:
            continue
        mv = _movement(game, p.type)
        if s.air:
            if anyd.get(p.location, 99) <= (mv + 1) // 2 + 1:
                units.append(p.type)
        elif p.attrs.get("on"):
            if anyd.get(p.location, 99) <= 3:  # a transport's move, then the landing
                units.append(p.type)
        elif p.location in w.land and land.get(p.location, 99) <= mv:
            units.append(p.type)
    return force_of(units)


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
    att = _threat_force(game, state, power, space)
    if not any(world(game).catalog[u].capture for u, _ in att.units):
        return 0.0
    return battle_odds(game, att, _defence(game, state, power, space, extra, less),
                       THREAT_ROUNDS)[1]


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


def _carrier(game: Game, unit: str) -> bool:
    return int(game.definition.unit_types[unit].extra.get("carrier_capacity", 0)) > 0


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
        while owned < TRANSPORTS and have >= cost("transport") + 8 and take("transport"):
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
    """Pieces that stay in the capital so that it holds (only land units; aircraft fly back)."""
    w = world(game)
    power = p.side
    cap = w.capital.get(power)
    if not cap or controller(state, cap) != power:
        return set()
    here = [q for q in state.pieces_at(cap)
            if q.side == power and q.id in p.moves and stats(game, q).land]
    if not here or not _ok(budget):
        return {q.id for q in here}
    if threat(game, state, power, cap) > DEFEND_P:
        return {q.id for q in here}
    # Release the best attackers first while the capital still holds.
    here.sort(key=lambda q: (-stats(game, q).attack, stats(game, q).cost, q.id))
    released: list[str] = []
    for q in here:
        if not _ok(budget):
            break
        if threat(game, state, power, cap, less=released + [q.id]) > DEFEND_P:
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


def plan_combat(game: Game, state: GameState, p: Prompt, budget: Budget | None) -> list[Planned]:
    w = world(game)
    power = p.side
    keep = _garrison(game, state, p, budget)
    movers: dict[str, tuple[str, ...]] = {}
    for pid, dests in p.moves.items():
        q = state.pieces[pid]
        s = stats(game, q)
        # Carriers stay: fighters count on them to land (the engine checked the landing
        # spaces as they are now, Air Units pg. 26); transports do not fight.
        if pid in keep or not s.fights or s.transport or _carrier(game, q.type):
            continue
        movers[pid] = dests
    targets: dict[str, list[str]] = {}
    for pid, dests in sorted(movers.items()):
        s = stats(game, state.pieces[pid])
        for d in dests:
            if d in w.neutral:
                continue
            if d in w.sea:
                if (s.sea or s.air) and battle.defenders(game, state, d, power) and any(
                    stats(game, e).sea for e in battle.defenders(game, state, d, power)
                ):
                    targets.setdefault(d, []).append(pid)
            elif (s.land or s.air) and movement.hostile_land(game, state, d, power):
                targets.setdefault(d, []).append(pid)
    scored = []
    for t in targets:
        dfn = battle.force(battle.defenders(game, state, t, power))
        scored.append((-_target_value(game, state, t, dfn), t, dfn))
    scored.sort(key=lambda x: (x[0], x[1]))
    used: set[str] = set()
    out: list[Planned] = []
    for _neg, t, dfn in scored:
        if not _ok(budget):
            break
        avail = [pid for pid in targets[t] if pid not in used]
        landing = t in w.land
        lands = [pid for pid in avail if stats(game, state.pieces[pid]).land]
        if landing and not lands:
            continue
        here = [q.type for q in battle.attackers(game, state, t, power)]
        if not dfn.units:
            if here or not landing:
                continue
            pick = min(lands, key=lambda pid: (stats(game, state.pieces[pid]).cost,
                                               bool(state.pieces[pid].attrs.get("on")), pid))
            used.add(pick)
            out.append(Planned(Action.make("move", power, piece=pick, to=t),
                               f"Take undefended {_name(game, t)}"))
            continue

        def odds(pids: list[str], here: list[str] = here, dfn: Force = dfn
                 ) -> tuple[float, float, float, float]:
            att = force_of(here + [state.pieces[x].type for x in pids])
            return battle_odds(game, att, dfn)

        def win(o: tuple[float, float, float, float], landing: bool = landing) -> float:
            return o[1] if landing else o[0]

        best = odds(avail)
        if win(best) < (CITY_ATTACK_P if t in w.victory else ATTACK_P):
            continue
        chosen = list(avail)
        # Drop the costliest units while the attack still wins often enough.
        drop = sorted(chosen, key=lambda x: (-stats(game, state.pieces[x]).cost, x))
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
        used.update(chosen)
        sea = sum(1 for x in chosen if state.pieces[x].attrs.get("on"))
        types = [state.pieces[x].type for x in chosen]
        why = (f"Attack {_name(game, t)}: {win(best):.0%} win, {len(chosen)} units "
               f"({_describe(game, types)}"
               + (f"; {sea} landing from transports" if sea else "") + ")")
        # Aircraft last: a land unit's move never depends on them, theirs may (landing).
        chosen.sort(key=lambda x: (stats(game, state.pieces[x]).air, x))
        for i, x in enumerate(chosen):
            out.append(Planned(Action.make("move", power, piece=x, to=t), why if i == 0 else ""))
    return out


# --- noncombat move ------------------------------------------------------------------------
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

    # 1. Aircraft land where they defend, else nearest the front.
    landing: list[tuple[str, str, bool]] = []  # (piece, where, must move)
    deck: dict[str, int] = {}  # sea zone -> carrier places left for more fighters

    def room(z: str) -> int:
        if z not in deck:
            deck[z] = movement.carrier_room(game, state, z, power)
        return deck[z]

    def score(loc: str) -> float:
        if loc in w.sea:
            return -20.0 if room(loc) > 0 else -1000.0
        if danger.get(loc, 0.0) > DEFEND_P:
            return 100.0 + (50.0 if loc == w.capital.get(power) else 0.0)
        return -float(fdist.get(loc, 30))

    def may_stay(q: Piece) -> bool:
        here = q.location
        if here in w.land:
            return movement.air_may_end(game, state, here, power, q.type)
        return q.type == "fighter" and room(here) >= 0

    flyers = [pid for pid in p.moves if stats(game, state.pieces[pid]).air]
    flyers.sort(key=lambda x: (may_stay(state.pieces[x]), x))  # who must move, first
    for pid in flyers:
        q = state.pieces[pid]
        dests = p.moves[pid]
        here = q.location
        stay_ok = may_stay(q)
        best = max(dests, key=lambda d: (score(d), d))
        if stay_ok and score(here) >= score(best) and here in w.land:
            continue
        if stay_ok and here in w.sea and score(best) <= -20.0:
            continue  # on its carrier, with no better place
        if best in w.sea:
            deck[best] = room(best) - 1
        if here in w.sea and q.type == "fighter":
            deck[here] = room(here) + 1  # its place on a carrier there is free again
        used.add(pid)
        extra.setdefault(best, []).append(q.type)
        landing.append((pid, best, not stay_ok))
    if landing:
        where: dict[str, list[str]] = {}
        for pid, d, _must in landing:
            where.setdefault(d, []).append(state.pieces[pid].type)
        why = "Aircraft land: " + "; ".join(
            f"{_describe(game, ts)} in {_name(game, d)}" for d, ts in sorted(where.items()))
        out += [Planned(Action.make("move", power, piece=pid, to=d), why if i == 0 else "")
                for i, (pid, d, _must) in enumerate(landing)]

    # 2. Land units reinforce threatened key spaces.
    holders = {k for k, v in danger.items() if v > DEFEND_P}
    for k in keys:
        if danger.get(k, 0.0) <= DEFEND_P or not _ok(budget):
            continue
        p0 = threat(game, state, power, k, extra=extra.get(k, ()))
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
                state.pieces[x].type for x in added])
        if added and (pnow <= 0.5 or p0 - pnow >= 0.25):  # else the place cannot be held
            used.update(added)
            extra.setdefault(k, []).extend(state.pieces[x].type for x in added)
            why = (f"Reinforce {_name(game, k)}: enemy attack {p0:.0%} -> {pnow:.0%} "
                   f"(+{len(added)} units)")
            out += [Planned(Action.make("move", power, piece=x, to=k), why if i == 0 else "")
                    for i, x in enumerate(added)]

    # 3. Transports load and sail toward enemy coasts with their escorts.
    out += _ferry(game, state, p, used, holders)

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
           holders: set[str]) -> list[Planned]:
    power = p.side
    coast = _enemy_coast_distance(game, state, power)
    cities = _enemy_coast_distance(game, state, power, victory_only=True)
    out: list[Planned] = []
    zones = sorted({state.pieces[pid].location for pid in p.moves
                    if stats(game, state.pieces[pid]).transport})
    for z in zones:
        ships = [q for q in state.pieces_at(z) if q.side == power and q.id in p.moves]
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
            need = int(game.definition.unit_types[q.type].extra.get("transport_cost", 0))
            if 0 < need <= room:
                room -= need
                loads.append(pid)
        cargo = loads or [c.id for t in transports for c in movement.cargo(state, t)]
        if not cargo:
            continue
        dests = p.moves[transports[0].id]
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
        if go:
            why = f"Transports sail {_name(game, z)} -> {_name(game, best)}"
            for i, s in enumerate(ships):
                if best in p.moves.get(s.id, ()) and not _carrier(game, s.type):
                    used.add(s.id)
                    out.append(Planned(Action.make("move", power, piece=s.id, to=best),
                                       why if i == 0 else ""))
    return out


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
            d = min(ds, key=lambda x: (coast.get(x, 99), x))
        else:
            hot = [k for k in keys if k in ds and danger.get(k, 0.0) > DEFEND_P]
            d = hot[0] if hot else min(ds, key=lambda x: (fdist.get(x, 99), x))
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


def ranked(session: Session, budget: Budget | None = None) -> list[tuple[Action, str]]:
    """The strong bot's candidates for the deciding side, best first, with reasons."""
    game, state = session.game, session.state
    side = deciding_side(state)
    p = session.prompt(side)
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
    plan = tuple(x for x in plan if _still_legal(p, x.action))
    if len(_PLANS) > 64:
        _PLANS.clear()
    _PLANS[key] = (state.serial + 1, plan[1:])
    return [(x.action, x.reason) for x in plan] + [(a, "") for a in end_buttons(p)]


def hint(session: Session, budget: Budget | None = None) -> tuple[Action, str] | None:
    """The strong bot's next action for the deciding side and why (not played)."""
    for a, why in ranked(session, budget):
        try:
            session.submit(a)
        except IllegalAction:
            continue
        return a, why
    return None

