"""The strong bot's plan for Phase 3: Combat Move (pg. 14-17): which targets to attack
with which units, amphibious assaults included; see bot_strong/__init__.py."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from wartable.engine.actions import Action, Prompt
from wartable.engine.bots import Budget
from wartable.engine.rules import Game
from wartable.games.aa_anniversary import research
from wartable.games.aa_anniversary.bot_fast import (
    battle_developments,
    battle_odds,
    force_of,
)
from wartable.games.aa_anniversary.bot_strong.common import (
    DEFEND_P,
    Planned,
    air_left,
    all_distances,
    describe_units,
    distances,
    is_carrier,
    place_name,
    threat,
    transport_cost,
    within_budget,
)
from wartable.games.aa_anniversary.combat import Force
from wartable.games.aa_anniversary.steps import movement
from wartable.games.aa_anniversary.steps.battle import forces
from wartable.games.aa_anniversary.steps.common import (
    controller,
    enemy_blocking_ships,
    stats,
    world,
)
from wartable.model.state import GameState, Piece

ATTACK_P = 0.75  # make an attack that wins (and captures) at least this often
CITY_ATTACK_P = 0.65  # ...or this often against a victory city (they decide the game)
SEND_P = 0.9  # ...dropping units while it still wins this often
MAX_EVALS_PER_TARGET = 8  # calculator runs spent trimming one attack


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
    if not here or not within_budget(budget):
        return {q.id for q in here}
    if threat(game, state, power, place, less=flyers) > DEFEND_P:
        return {q.id for q in here}
    # Release the best attackers first while the place still holds.
    here.sort(key=lambda q: (-stats(game, q).attack, stats(game, q).cost, q.id))
    released: list[str] = []
    for q in here:
        if not within_budget(budget):
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


def _pack(game: Game, state: GameState, lift: _Lift, loaders: Iterable[str]) -> list[str]:
    """The loaders that fit, each into the first transport with room (as the engine seats
    them, movement.transport_for)."""
    rooms = list(lift.rooms)
    out: list[str] = []
    for pid in loaders:
        need = transport_cost(game, state.pieces[pid].type)
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
        if pid in keep or not s.fights or s.transport or is_carrier(game, q.type) \
                or pid in lifted:
            continue
        movers[pid] = dests
    # Aircraft: the engine lets a fighter count on any carrier that could still come (Air
    # Units, pg. 26), not on a place on it; the bot sends one only where it reaches a
    # territory to land in afterwards, or the carrier it took off from (carriers stay).
    ashore = all_distances(game, [x for x in w.land if x not in w.neutral and
                                   movement.air_may_end(game, state, x, power, "bomber")])

    far: dict[str, dict[str, int]] = {}  # memo of the map distances from a space

    def dist(a: str, b: str) -> int:
        if a not in far:
            far[a] = distances(game, a)
        return far[a].get(b, 99)

    def air_ok(q: Piece, t: str) -> bool:
        left = air_left(game, state, q) - dist(q.location, t)
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
                if (s.sea or s.air) and forces.defenders(game, state, d, power) and any(
                    stats(game, e).sea for e in forces.defenders(game, state, d, power)
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
                       / max(1, transport_cost(game, state.pieces[x].type)), x))
    scored = []
    for t in targets:
        dfn_pieces = forces.defenders(game, state, t, power)
        scored.append((-_target_value(game, state, t, forces.force(dfn_pieces)), t,
                       dfn_pieces))
    scored.sort(key=lambda x: (x[0], x[1]))
    used: set[str] = set()
    lifts_used: set[str] = set()
    out: list[Planned] = []
    for _neg, t, dfn_pieces in scored:
        if not within_budget(budget):
            break
        dfn = forces.force(dfn_pieces)
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
        here = [q.type for q in forces.attackers(game, state, t, power)]
        if not dfn.units:
            if here or not landing:
                continue
            pick = min(lands, key=lambda pid: (pid in boarding,
                                               stats(game, state.pieces[pid]).cost,
                                               bool(state.pieces[pid].attrs.get("on")), pid))
            out += _attack_moves(game, state, power, t, [pick], sea_via, lifts, used,
                                 lifts_used, f"Take undefended {place_name(game, t)}")
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
            if evals >= MAX_EVALS_PER_TARGET or not within_budget(budget):
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
        why = (f"Attack {place_name(game, t)}: {win(best):.0%} win, {len(chosen)} units "
               f"({describe_units(game, types)}"
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
