"""The strong bot's plan for Phase 6: Mobilize New Units (pg. 22); see
bot_strong/__init__.py."""

from __future__ import annotations

from wartable.engine.actions import Action, Prompt
from wartable.engine.bots import Budget
from wartable.engine.rules import Game
from wartable.games.aa_anniversary.bot_fast import (
    enemy_land,
    land_distances,
)
from wartable.games.aa_anniversary.bot_strong.common import (
    DEFEND_P,
    Planned,
    carrier_capacity,
    enemy_coast_distance,
    is_carrier,
    key_spaces,
    place_name,
    threat,
    within_budget,
)
from wartable.games.aa_anniversary.steps import mobilize, movement
from wartable.games.aa_anniversary.steps.common import (
    MOBILIZATION,
    stats,
    world,
)
from wartable.model.state import GameState


# --- mobilize ------------------------------------------------------------------------------
def plan_mobilize(game: Game, state: GameState, p: Prompt,
                   budget: Budget | None) -> list[Planned]:
    power = p.side
    placed: dict[str, int] = {}
    coast = enemy_coast_distance(game, state, power)
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
              if within_budget(budget) and any(k in d for d in dests_of.values())}
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
            fleet = {x: 0 if not is_carrier(game, q.type) else -sum(
                1 for y in state.pieces_at(x) if y.side == power and stats(game, y).sea)
                - 100 * max(0, -movement.carrier_room(game, state, x, power) - 2 * sum(
                    1 for c in out if c.action.args.get("to") == x
                    and is_carrier(game, state.pieces[str(c.action.args.get("piece"))].type)))
                for x in ds}
            d = min(ds, key=lambda x: (fleet[x], coast.get(x, 99), x))
            if is_carrier(game, q.type):
                decks.add(ds[d])
                aboard[d] = aboard.get(d, min(0, movement.carrier_room(
                    game, state, d, power))) + carrier_capacity(game, q.type)
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
                if within_budget(budget) and danger.get(d, 0.0) > DEFEND_P:
                    danger[d] = threat(game, state, power, d, extra=extra[d])
        placed[ds[d]] = placed.get(ds[d], 0) + 1
        out.append(Planned(Action.make("move", power, piece=q.id, to=d)))
    if out:
        where: dict[str, int] = {}
        for pl in out:
            to = str(pl.action.args.get("to"))
            where[to] = where.get(to, 0) + 1
        why = "Mobilize " + ", ".join(f"{n} in {place_name(game, s)}"
                                      for s, n in sorted(where.items()))
        out[0] = Planned(out[0].action, why)
    return out
