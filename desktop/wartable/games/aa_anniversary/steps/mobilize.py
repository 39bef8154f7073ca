"""Phase 6: Mobilize New Units (pg. 21-22) and China Rules (pg. 10).

Units bought this turn move from the mobilization zone to a territory with an industrial
complex the power controlled since the start of its turn (one captured this turn does not
produce; a friendly power's complex never: its pieces are that power's, and a complex you
took back for an ally whose capital is in enemy hands is yours, conclude.capture), at most as
many units per complex as the territory's IPC value (sea units are placed in a sea zone next
to such a territory and count against it). Fighters go to such a territory or onto a carrier
of their own power (new or already there) in a sea zone next to it (pg. 22). A new
industrial complex goes to a territory worth at least 1 IPC that the power controlled since
the start of its turn and that has no complex. China places its new units in
Chinese-controlled territories that held fewer than three Chinese units when mobilization
began (any number each). Units that cannot be placed wait in the mobilization zone.

A fighter that ended its Noncombat Move in a sea zone counting on a carrier bought this
turn (Air Units, pg. 26) holds that carrier to the zone: while such fighters wait, no
placement may leave too few carriers or too little production next to their zones
(`promises_kept`), and the step does not end while a carrier can still go to them
(steps/landing.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Action, Event, Outcome, Prompt
from wartable.engine.loop import end_step_button
from wartable.engine.rules import Game
from wartable.games.aa_anniversary import research
from wartable.games.aa_anniversary.steps import bombing
from wartable.games.aa_anniversary.steps.common import (
    MOBILIZATION,
    allied,
    controller,
    space_name,
    stats,
    world,
)
from wartable.model.state import GameState, Piece

R_MOBILIZE = "Phase 6: Mobilize New Units (pg. 21)"
R_CHINA = "China Rules (pg. 10)"
R_FIGHTER = "Phase 6: Mobilize New Units, fighters on carriers (pg. 22)"
R_NEW_CARRIER = "Unit Profiles: Fighters, a carrier to be mobilized (pg. 26)"


def factories(game: Game, state: GameState, power: str) -> tuple[str, ...]:
    captured = set(state.var("captured", ()))
    return tuple(
        sorted(
            {
                p.location
                for p in state.pieces.values()
                if p.side == power
                and stats(game, p).factory
                and controller(state, p.location) == power
                and p.location not in captured
            }
        )
    )


def room(game: Game, state: GameState, space: str) -> int:
    ipc = world(game).ipc.get(space, 0)
    bonus = research.factory_bonus(game, state, controller(state, space), ipc)  # Increased FP
    # Each damage marker is one unit less (Industrial Complexes, Damaged Factories, pg. 25).
    dmg = bombing.damage(game, state, space)
    return ipc + bonus - dmg - int(state.var("placed", FrozenMap()).get(space, 0))


def carrier_capacity(game: Game, piece: Piece) -> int:
    return int(game.definition.unit_types[piece.type].extra.get("carrier_capacity", 0))


def deck_room(game: Game, state: GameState, zone: str, power: str) -> int:
    """Places left for fighters on the friendly carriers in `zone` (two per carrier,
    Aircraft Carriers, pg. 27); negative when fighters there lack a carrier."""
    here = [p for p in state.pieces_at(zone) if allied(game, p.side, power)]
    return sum(carrier_capacity(game, p) for p in here) - sum(
        1 for p in here if p.type == "fighter")


def own_deck_room(game: Game, state: GameState, zone: str, power: str) -> int:
    """Places on `power`'s own carriers in `zone`: a new fighter may not be placed on a
    friendly power's carrier (pg. 22). Which carrier a fighter sits on is not tracked (a
    choice of ours): a power's fighters fill its own carriers first, other powers' fighters
    the other powers' carriers first."""
    here = [p for p in state.pieces_at(zone) if allied(game, p.side, power)]
    own = sum(carrier_capacity(game, p) for p in here if p.side == power)
    others = sum(carrier_capacity(game, p) for p in here if p.side != power)
    mine = sum(1 for p in here if p.type == "fighter" and p.side == power)
    guests = sum(1 for p in here if p.type == "fighter" and p.side != power)
    return min(own - mine - max(0, guests - others), deck_room(game, state, zone, power))


def new_carriers(game: Game, state: GameState, power: str) -> tuple[Piece, ...]:
    """`power`'s carriers bought and still waiting in the mobilization zone."""
    return tuple(sorted((p for p in state.pieces_at(MOBILIZATION)
                         if p.side == power and carrier_capacity(game, p) > 0),
                        key=lambda p: p.id))


def shortfalls(game: Game, state: GameState, power: str) -> dict[str, int]:
    """Sea zones where fighters of `power` lack a place on a carrier there -> how many."""
    w = world(game)
    out: dict[str, int] = {}
    for z in sorted({p.location for p in state.pieces.values()
                     if p.side == power and p.type == "fighter" and p.location in w.sea}):
        own = sum(1 for p in state.pieces_at(z) if p.side == power and p.type == "fighter")
        short = min(own, -deck_room(game, state, z, power))
        if short > 0:
            out[z] = short
    return out


def sea_factories(game: Game, state: GameState, power: str, zone: str) -> tuple[str, ...]:
    """The complexes whose production a new sea unit placed in `zone` would use."""
    w = world(game)
    if zone not in w.sea:
        return ()
    return tuple(f for f in factories(game, state, power) if zone in w.neighbors[f])


def coverable(game: Game, state: GameState, power: str, needs: Mapping[str, int]) -> bool:
    """Can `power` still place needs[zone] of its waiting carriers in each zone (enough
    carriers, and production left at complexes next to each zone)?"""
    items = [z for z, n in sorted(needs.items()) for _ in range(n)]
    if not items:
        return True
    if len(items) > len(new_carriers(game, state, power)):
        return False
    rooms = {f: room(game, state, f) for f in factories(game, state, power)}
    options = {z: sea_factories(game, state, power, z) for z in set(items)}

    def fit(i: int) -> bool:  # a small search: a few carriers and complexes at most
        if i == len(items):
            return True
        for f in options[items[i]]:
            if rooms[f] > 0:
                rooms[f] -= 1
                if fit(i + 1):
                    return True
                rooms[f] += 1
        return False

    return fit(0)


def carriers_needed(game: Game, state: GameState, power: str,
                    short: Mapping[str, int]) -> dict[str, int]:
    """Carriers to place for each zone's fighters without a place (two fighters each)."""
    cap = max((carrier_capacity(game, p) for p in new_carriers(game, state, power)), default=0)
    if cap <= 0:
        return {z: 1 for z in short} if short else {}
    return {z: -(-n // cap) for z, n in short.items()}


def promises_kept(game: Game, state: GameState, power: str) -> bool:
    """Every fighter of `power` waiting at sea for a new carrier can still get one (pg. 26:
    "it must be mobilized in that sea zone")."""
    need = carriers_needed(game, state, power, shortfalls(game, state, power))
    return coverable(game, state, power, need)


def destinations(game: Game, state: GameState, piece: Piece) -> dict[str, str]:
    """Destination -> the territory whose production the unit uses. While fighters wait at
    sea for a carrier bought this turn, only placements that keep it possible (pg. 26)."""
    out = _destinations(game, state, piece)
    if piece.side == "china" or not out or not shortfalls(game, state, piece.side):
        return out
    if not promises_kept(game, state, piece.side):
        return out  # nothing can be kept any more: no restriction (fighters lost at the end)
    kept: dict[str, str] = {}
    for to, first in out.items():
        # A sea zone may touch several complexes: use one whose production is not needed.
        for f in dict.fromkeys((first, *sea_factories(game, state, piece.side, to))):
            if room(game, state, f) > 0 and promises_kept(
                    game, _placed(game, state, piece, to, f), piece.side):
                kept[to] = f
                break
    return kept


def _destinations(game: Game, state: GameState, piece: Piece) -> dict[str, str]:
    w = world(game)
    power = piece.side
    s = stats(game, piece)
    out: dict[str, str] = {}
    if power == "china":
        # China Rules (pg. 10): Chinese-controlled territories (captured this turn too) that
        # held fewer than three Chinese units before this mobilization; any number each.
        placed = state.var("placed", FrozenMap())
        for sp in sorted(w.land):
            if controller(state, sp) == "china" and sum(
                    1 for p in state.pieces_at(sp) if p.side == "china"
            ) - int(placed.get(sp, 0)) < 3:
                out[sp] = sp
        return out
    captured = set(state.var("captured", ()))
    if s.factory:
        for sp in w.land:
            if (
                controller(state, sp) == power
                and w.ipc.get(sp, 0) >= 1
                and sp not in captured
                and not any(stats(game, p).factory for p in state.pieces_at(sp))
            ):
                out[sp] = sp
        return out
    for f in factories(game, state, power):
        if room(game, state, f) <= 0:
            continue
        if s.sea:
            for sz in w.neighbors[f]:
                # "New sea units can enter play even in a hostile sea zone" (pg. 22).
                if sz in w.sea:
                    out.setdefault(sz, f)
        else:
            out[f] = f
        if s.air and piece.type == "fighter":
            # pg. 22: onto an own carrier (new or already there) next to the complex, even
            # in a hostile sea zone.
            for sz in w.neighbors[f]:
                if sz in w.sea and own_deck_room(game, state, sz, power) > 0:
                    out.setdefault(sz, f)
    return out


def _placed(game: Game, state: GameState, piece: Piece, to: str, f: str) -> GameState:
    """The state after `piece` is mobilized in `to` using complex `f`'s production."""
    if not stats(game, piece).factory:
        placed = state.var("placed", FrozenMap())
        state = state.with_var("placed", placed.set(f, int(placed.get(f, 0)) + 1))
    return state.with_piece(replace(piece, location=to, attrs=piece.attrs.remove("new")))


def prompt(game: Game, state: GameState, power: str, text: str, rule: str) -> Prompt:
    moves: dict[str, tuple[str, ...]] = {}
    cache: dict[str, dict[str, str]] = {}
    for p in state.pieces_at(MOBILIZATION):
        if p.side != power:
            continue
        if p.type not in cache:
            cache[p.type] = destinations(game, state, p)
        if cache[p.type]:
            moves[p.id] = tuple(sorted(cache[p.type]))
    return Prompt(power, text, rule, moves=FrozenMap(moves),
                  buttons=(end_step_button(cannot_end(game, state, power)),))


def cannot_end(game: Game, state: GameState, power: str) -> str | None:
    """Why Mobilize cannot end yet, or None: Phase 6 moves every purchased unit out of the
    mobilization zone; only units that production limits (or the lack of a place) keep
    out wait there. A carrier owed to waiting fighters comes first (pg. 26)."""
    owed = carriers_owed(game, state, power)
    if owed:
        return owed
    seen: set[str] = set()
    for p in sorted(state.pieces_at(MOBILIZATION), key=lambda x: x.id):
        if p.side != power or p.type in seen:
            continue
        seen.add(p.type)
        dests = destinations(game, state, p)
        if dests:
            where = ", ".join(space_name(game, d) for d in sorted(dests)[:3])
            more = " …" if len(dests) > 3 else ""
            return (f"{game.rules.piece_name(game, p)} can still be mobilized ({where}{more}): "
                    f"every purchased unit that can be placed must be [{R_MOBILIZE}].")
    return None


def carriers_owed(game: Game, state: GameState, power: str) -> str | None:
    """Why Mobilize cannot end yet: a carrier bought this turn can still be placed where
    fighters of `power` wait for it (Air Units, pg. 26), or None."""
    short = shortfalls(game, state, power)
    waiting = new_carriers(game, state, power)
    if not short or not waiting:
        return None
    dests = destinations(game, state, waiting[0])  # only when it can go there now
    for z in sorted(short):
        if z in dests:
            return (f"{game.rules.piece_name(game, waiting[0])} must be mobilized in "
                    f"{space_name(game, z)}, where {short[z]} fighter(s) landed counting on "
                    f"a new carrier [{R_NEW_CARRIER}].")
    return None


def place(game: Game, state: GameState, power: str, action: Action) -> Outcome:
    pid, to = action.args.get("piece"), action.args.get("to")
    if not isinstance(pid, str) or pid not in state.pieces:
        raise IllegalAction(f"There is no unit {pid!r}.")
    p = state.piece(pid)
    if p.side != power or p.location != MOBILIZATION:
        raise IllegalAction(f"{pid} is not one of your new units [{R_MOBILIZE}].")
    dests = destinations(game, state, p)
    if not isinstance(to, str) or to not in dests:
        why = R_MOBILIZE
        if power == "china":
            why = R_CHINA
        elif isinstance(to, str) and to in _destinations(game, state, p):
            why = R_NEW_CARRIER  # allowed but for the fighters waiting for a new carrier
        raise IllegalAction(
            f"{game.rules.piece_name(game, p)} cannot be mobilized in {space_name(game, to)} "
            f"[{why}]."
        )
    state = _placed(game, state, p, to, dests[to])
    return Outcome(
        state,
        (
            Event(
                "move",
                f"{game.rules.piece_name(game, p)} mobilized in {space_name(game, to)}",
                power,
                R_FIGHTER if p.type == "fighter" and to in world(game).sea else R_MOBILIZE,
            ),
        ),
    )
