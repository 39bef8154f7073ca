"""The strong bot's plan for Phase 5: Noncombat Move (pg. 21): carriers to their
fighters, aircraft landing, land units to threatened places, transports ferrying armies;
see bot_strong/__init__.py."""

from __future__ import annotations

from collections.abc import Iterable

from wartable.engine.actions import Action, Prompt
from wartable.engine.bots import Budget
from wartable.engine.rules import Game
from wartable.games.aa_anniversary.bot_fast import (
    front,
    land_distances,
)
from wartable.games.aa_anniversary.bot_strong.common import (
    DEFEND_P,
    Planned,
    air_left,
    carrier_capacity,
    describe_units,
    distances,
    enemy_coast_distance,
    flies_to,
    is_carrier,
    key_spaces,
    place_name,
    sea_distances,
    threat,
    transport_cost,
    within_budget,
)
from wartable.games.aa_anniversary.steps import mobilize, movement
from wartable.games.aa_anniversary.steps.common import (
    MOBILIZATION,
    allied,
    controller,
    enemy_blocking_ships,
    stats,
    world,
)
from wartable.model.state import GameState, Piece


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
                      key=lambda x: (air_left(game, state, state.pieces[x]), x))
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
                        and flies_to(game, state, q, z)),
                       key=lambda z: (distances(game, q.location).get(z, 99), z))
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
            if cid in used or not is_carrier(game, c.type) or c.side != power:
                continue
            if deck.get(c.location, 0) - carrier_capacity(game, c.type) < 0:
                continue  # fighters sit on it where it is
            for z in (c.location, *cdests):
                if z in w.sea and not enemy_blocking_ships(game, state, z, power) \
                        and flies_to(game, state, q, z):
                    options.append((int(z != c.location), z, cid))
        if not options:
            continue
        _far, z, cid = min(options)
        c = state.pieces[cid]
        used.update((cid, pid))
        cap = carrier_capacity(game, c.type)
        deck[c.location] = deck.get(c.location, 0) - cap
        deck[z] = deck.get(z, 0) + cap
        if z != q.location:
            deck[z] -= 1
            if q.location in w.sea:
                deck[q.location] += 1
            air_to[pid] = z  # it lands once the carrier is there
        if z != c.location:
            out.append(Planned(Action.make("move", power, piece=cid, to=z),
                               f"A carrier sails to {place_name(game, z)} to pick up a fighter "
                               "with nowhere else to land (Air Units, pg. 26)"))
    return out


def plan_noncombat(game: Game, state: GameState, p: Prompt,
                    budget: Budget | None) -> list[Planned]:
    w = world(game)
    power = p.side
    keys = key_spaces(game, state, power)
    danger: dict[str, float] = {}
    for k in keys:
        if within_budget(budget):
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
        if danger.get(best, 0.0) > DEFEND_P and within_budget(budget):  # the next goes where needed
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
        if k in gone and within_budget(budget):
            danger[k] = threat(game, state, power, k, extra=extra.get(k, ()), less=gone[k])
    holders = {k for k, v in danger.items() if v > DEFEND_P}
    reinforce: list[Planned] = []
    for k in keys:
        if danger.get(k, 0.0) <= DEFEND_P or not within_budget(budget):
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
        while cands and pnow > DEFEND_P and within_budget(budget):
            added += cands[:2]
            cands = cands[2:]
            pnow = threat(game, state, power, k, extra=extra.get(k, []) + [
                state.pieces[x].type for x in added], less=gone.get(k, ()))
        if added and (pnow <= 0.5 or p0 - pnow >= 0.25):  # else the place cannot be held
            used.update(added)
            extra.setdefault(k, []).extend(state.pieces[x].type for x in added)
            why = (f"Reinforce {place_name(game, k)}: enemy attack {p0:.0%} -> {pnow:.0%} "
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
            f"{describe_units(game, ts)} in {place_name(game, d)}"
            for d, ts in sorted(where.items()))
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
    pickup = sea_distances(game, (
        z for f in mobilize.factories(game, state, power) if f not in holders
        for z in w.neighbors[f] if z in w.sea and any(
            q.side == power and q.id not in used and stats(game, q).land
            and stats(game, q).fights for q in state.pieces_at(f))))
    coast = enemy_coast_distance(game, state, power)
    cities = enemy_coast_distance(game, state, power, victory_only=True)
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
            need = transport_cost(game, q.type)
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
                         and not is_carrier(game, s.type)]
                used.update(s.id for s in group)
                out += [Planned(Action.make("move", power, piece=s.id, to=home),
                                f"Empty transports sail {place_name(game, z)} -> "
                                f"{place_name(game, home)} to pick up land units" if i == 0 else "")
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
            what = describe_units(game, [state.pieces[x].type for x in mine])
            why = (f"Transports carry {what} to {place_name(game, k)}: enemy attack {p0:.0%} -> "
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
            what = describe_units(game, [state.pieces[x].type for x in loads])
            why = f"Load {what} in {place_name(game, z)}"
        out += [Planned(Action.make("move", power, piece=x, to=z), why if i == 0 else "")
                for i, x in enumerate(loads)]
        if not go:
            continue
        # Carriers sail with the fleet they protect when every fighter that would stay on
        # them here reaches the new zone (Aircraft Carriers, pg. 27; Air Units, pg. 26).
        flock = [q.id for q in state.pieces_at(z) if q.side == power and q.type == "fighter"
                 and air_to.get(q.id, z) == z] + [f for f, d in air_to.items()
                                                   if d == z and state.pieces[f].location != z]
        carriers = [s for s in ships if is_carrier(game, s.type) and best in p.moves[s.id]]
        staying = sum(carrier_capacity(game, q.type) for q in state.pieces_at(z)
                      if allied(game, q.side, power) and q.id not in {c.id for c in carriers})
        guests = sum(1 for q in state.pieces_at(z) if q.type == "fighter" and q.side != power
                     and allied(game, q.side, power))
        movers = flock[max(0, staying - guests):]  # the others keep their places here
        if carriers and not all(
                f in p.moves and flies_to(game, state, state.pieces[f], best) for f in movers):
            carriers = []
        why = f"Transports sail {place_name(game, z)} -> {place_name(game, best)}" + (
            f" with {len(carriers)} carrier(s)" if carriers else "")
        first = True
        for s in ships:
            if best in p.moves.get(s.id, ()) and (not is_carrier(game, s.type) or s in carriers):
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
        if not near or not within_budget(budget):
            continue
        p0 = threat(game, state, power, k, extra=extra, less=less)
        if p0 <= DEFEND_P:
            continue
        pnow = threat(game, state, power, k, extra=extra + types, less=less)
        if pnow <= 0.5 or p0 - pnow >= 0.25:
            guard[k] = (extra + types, less)
            return near[0], k, p0, pnow
    return None
