"""The strong bot's plan for Phase 2: Purchase Units (pg. 12-13); see bot_strong/__init__.py."""

from __future__ import annotations

from wartable.engine.actions import Action, Prompt
from wartable.engine.bots import Budget
from wartable.engine.rules import Game
from wartable.games.aa_anniversary.bot_fast import (
    button,
    enemy_land,
    land_distances,
)
from wartable.games.aa_anniversary.bot_strong.common import (
    DEFEND_P,
    Planned,
    all_distances,
    describe_units,
    is_carrier,
    place_name,
    sea_distances,
    threat,
    within_budget,
)
from wartable.games.aa_anniversary.steps import mobilize
from wartable.games.aa_anniversary.steps.common import (
    MOBILIZATION,
    allied,
    ipcs,
    stats,
    world,
)
from wartable.model.state import GameState

TRANSPORTS = 4  # a sea power buys transports up to this many
MAX_TRANSPORTS = 8  # ...or more, up to this many, while land units wait for a lift
CARRIERS = 2  # ...and carriers up to this many, when enemy ships or aircraft are near


def _sea_power(game: Game, state: GameState, power: str) -> bool:
    """No land route from the capital to enemy land within three moves: it needs ships."""
    cap = world(game).capital.get(power)
    if cap is None:
        return False
    d = land_distances(game, enemy_land(game, state, power))
    return d.get(cap, 99) > 3


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
    if cap in facs and within_budget(budget):
        p0 = pnow = threat(game, state, power, cap)
        n0 = len(order)
        room_cap = mobilize.room(game, state, cap)
        while pnow > DEFEND_P and len(order) < room_cap and within_budget(budget):
            more = take("infantry") and take("infantry")
            pnow = threat(game, state, power, cap, extra=order)
            if not more:
                break  # out of IPCs or production
        if len(order) > n0:
            reasons.append(f"{len(order) - n0} Infantry to hold {place_name(game, cap)} (the "
                           f"enemy's best attack wins {p0:.0%} -> {pnow:.0%})")
    coastal = [f for f in facs if any(n in w.sea for n in w.neighbors[f])]
    if _sea_power(game, state, power) and coastal:
        owned = sum(1 for q in state.pieces.values()
                    if q.side == power and stats(game, q).transport)
        near = set(z for f in coastal for z in w.neighbors[f] if z in w.sea)
        near_d = sea_distances(game, near)
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
        anyd = all_distances(game, near)
        enemy_air = sum(1 for q in state.pieces.values()
                        if not allied(game, q.side, power) and stats(game, q).air
                        and q.location != MOBILIZATION and anyd.get(q.location, 99) <= 4)
        carriers = sum(1 for q in state.pieces.values()
                       if q.side == power and is_carrier(game, q.type))
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
            reasons.append(f"{describe_units(game, order[n0:])} to carry the war across the sea")
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
        reasons.append(f"{describe_units(game, order[n0:])} for the land front")
    if not order:
        return []
    why = f"Buy {'; '.join(reasons)} ({sum(cost(u) for u in order)} IPCs)"
    return [Planned(Action.make("buy", power, unit=u), why if i == 0 else "")
            for i, u in enumerate(order)]
