"""Fighters and aircraft carriers at the end of a turn (Air Units, pg. 26; Aircraft
Carriers, pg. 27-28; Phase 5: Noncombat Move, pg. 21): landing on carriers still to be
mobilized and carriers that must move to pick up fighters.

A carrier bought this turn waits in the mobilization zone until Phase 6; a fighter may end
its move in a sea zone where such a carrier can be placed (next to a complex of its power
with production left, pg. 26 note), two fighters per carrier. The fighter is then safe at
the end of Noncombat Move, the carrier must be placed there (steps/mobilize.py), and
fighters still without a carrier when Mobilize ends are lost (`after_mobilize`). New sea
units may be placed even in a hostile sea zone (pg. 22); a fighter cannot fly into one in
Noncombat Move, but one still there after a battle may wait for a new carrier.

Carriers must move to pick up fighters (pg. 21, 26, 28): a fighter may end its Noncombat
Move in a sea zone that one of its power's carriers that moved in neither move phase can
still reach (`movement.carrier_reach`); then, if that zone is the fighter's only landing
zone, the carrier must go there before the step ends (`movement.noncombat_can_end`). Our
carriers move once per phase along one path, so "a carrier must end its move once a fighter
has landed on it" holds for a fighter landing after the carrier moved; a carrier that has not
moved yet and sails away from fighters that landed on it first moves no more
(`carrier_held`).

A carrier that a fighter's Combat Move counted on (pg. 26: "If it does include noncombat
moves by a carrier, then the carrier cannot move in the Combat Move phase"): once a fighter
has moved in Combat Move and can reach no landing space without that carrier, the carrier
may still move in Combat Move only to a sea zone within that fighter's remaining reach,
where it is still a landing space if the battle is won (`movement.carrier_pinned_zones`).
Which carrier a fighter counted on is not recorded: it is the one without which it has none.
Those three ask where units can move, so they live in steps/movement.py; this module counts
carrier places and the fighters lost without one.
"""

from __future__ import annotations

from wartable.engine.actions import Event, Outcome
from wartable.engine.rules import Game
from wartable.games.aa_anniversary.steps import mobilize
from wartable.games.aa_anniversary.steps.common import StateMemo, space_name, world
from wartable.model.state import GameState, Piece

R_NEW_CARRIER = mobilize.R_NEW_CARRIER

_memo = StateMemo()  # answers per recent state (steps/common.py)


def carrier_room(game: Game, state: GameState, loc: str, power: str) -> int:
    """Places left for fighters on the friendly carriers in `loc` now (two per carrier)."""
    return mobilize.deck_room(game, state, loc, power)


def pending_carrier_room(game: Game, state: GameState, loc: str, power: str) -> int:
    """Landing spaces in sea zone `loc` on carriers `power` will mobilize there (pg. 26):
    two for each carrier waiting in the mobilization zone that can still be placed in `loc`
    once the fighters already counting on new carriers in other zones have theirs."""
    memo = _memo(state)
    key = ("pending", power, loc)
    hit = memo.get(key)
    if isinstance(hit, int):
        return hit
    out = 0
    waiting = _waiting(game, state, power)
    if waiting and loc in world(game).sea and mobilize.sea_factories(game, state, power, loc):
        short = dict(fighter_shortfalls(game, state, power))
        short.pop(loc, None)
        need = mobilize.carriers_needed(game, state, power, short)
        cap = max(mobilize.carrier_capacity(game, p) for p in waiting)
        for k in range(len(waiting) - sum(need.values()), 0, -1):
            if mobilize.coverable(game, state, power, {**need, loc: k}):
                out = k * cap
                break
    memo[key] = out
    return out


def _waiting(game: Game, state: GameState, power: str) -> tuple[Piece, ...]:
    memo = _memo(state)
    key = ("waiting", power)
    hit = memo.get(key)
    if not isinstance(hit, tuple):
        hit = mobilize.new_carriers(game, state, power)
        memo[key] = hit
    return hit


def fighter_shortfalls(game: Game, state: GameState, power: str) -> dict[str, int]:
    """mobilize.shortfalls, kept for one state (the prompt asks it for every sea zone)."""
    memo = _memo(state)
    key = ("short", power)
    hit = memo.get(key)
    if not isinstance(hit, dict):
        hit = mobilize.shortfalls(game, state, power)
        memo[key] = hit
    return hit


def carrier_held(game: Game, state: GameState, piece: Piece) -> bool:
    """A carrier that a fighter of its power has landed on in this Noncombat Move (pg. 21:
    "An aircraft carrier must end its move once a fighter has landed on it"). Not yet called
    by movement.can_move (that function belongs to another part of the work)."""
    if mobilize.carrier_capacity(game, piece) <= 0:
        return False
    return any(p.side == piece.side and p.type == "fighter" and p.attrs.get("nm")
               for p in state.pieces_at(piece.location))


def lost_at_sea(game: Game, state: GameState, power: str,
                pending: bool) -> tuple[Piece, ...]:
    """`power`'s fighters at sea without a carrier place: the ones beyond the room on the
    carriers there (and, with `pending`, on carriers still to be mobilized, zones taken in
    order while carriers and production last). Which fighters go: the highest ids."""
    short = fighter_shortfalls(game, state, power)
    taken: dict[str, int] = {}
    lost: list[Piece] = []
    for zone in sorted(short):
        n = short[zone]
        if pending and _waiting(game, state, power):
            need = mobilize.carriers_needed(game, state, power, {zone: n})[zone]
            cap = max(mobilize.carrier_capacity(game, p) for p in _waiting(game, state, power))
            k = next((k for k in range(need, 0, -1)
                      if mobilize.coverable(game, state, power, {**taken, zone: k})), 0)
            if k:
                taken[zone] = k
            n = max(0, n - k * cap)
        if n:
            fighters = sorted((p for p in state.pieces_at(zone)
                               if p.side == power and p.type == "fighter"),
                              key=lambda p: p.id)
            lost.extend(fighters[-n:])
    return tuple(lost)


def after_mobilize(game: Game, state: GameState, power: str) -> Outcome:
    """End of Mobilize: fighters that counted on a new carrier and still have no place on a
    carrier are lost (Air Units, pg. 26: an eligible landing space "may include a sea zone
    in which a new carrier will be placed ... as long as there is a landing space on it")."""
    events = []
    lost = lost_at_sea(game, state, power, pending=False)
    for p in lost:
        state = state.without_piece(p.id)
        events.append(Event("combat", f"{game.rules.piece_name(game, p)} has no carrier in "
                            f"{space_name(game, p.location)} after mobilization and is lost",
                            power, R_NEW_CARRIER))
    if lost:
        state = state.with_var("lost_total", int(state.var("lost_total", 0)) + len(lost))
    return Outcome(state, tuple(events))


def mobilize_can_end(game: Game, state: GameState, power: str) -> str | None:
    """Why Mobilize cannot end yet: a carrier bought this turn can still be placed where
    fighters wait for it (pg. 26: "it must be mobilized in that sea zone"), or any bought
    unit can still be placed (Phase 6, pg. 21); None when it can."""
    return mobilize.cannot_end(game, state, power)
