"""Phase 3: Combat Move and Phase 5: Noncombat Move (pg. 14-16, 21), land, air and sea units.

A unit moves along its cheapest path (one move action, the whole path), and may move again
in the same phase while movement is left and its move has not stopped in a hostile space
(`goes_on`: split moves, loading along a transport's route, pg. 15 and 31); each leg is one
action, so undo takes back one leg.
Enforced: movement allowances; neutral territories are impassable to every unit (Game Board:
neutral territories); land units stop on entering a hostile territory, except armour blitzing
through an empty enemy territory, which is captured as it passes (Blitzing, pg. 15); sea units
stop on entering a sea zone with enemy warships (submarines and transports do not block,
pg. 30-31); canals need both sides of Suez / Panama friendly at the time (Canals);
Noncombat Move enters no hostile space, and land and sea units that moved in Combat Move do
not move again; aircraft keep the rest of their movement for landing, and at the end of
Noncombat Move an aircraft not in a friendly territory held since the start of the turn or on
a friendly carrier (two fighters each) is lost (Air Units: landing, pg. 26). China Rules
(pg. 10): Chinese units stay in Chinese territories and Kwangtung. AA guns and factories do
not move in Combat Move (they cannot attack).

Transports (Unit Profiles: Transports, pg. 31): a land unit loads by moving from a coastal
territory into a sea zone holding one of its power's transports with room (capacity 5:
infantry take 2, other land units 3, so two infantry or one infantry and one other unit);
its cargo moves with the transport; a unit at sea unloads into an adjacent territory (in
Combat Move a hostile one: an amphibious assault) and then moves no more, and the transport
that unloaded moves no more. Chinese units never board (China Rules). A unit may board a
friendly power's transport on its own turn, is carried on the transport owner's turn, and
offloads on a later turn of its own (Transports: Loading and Offloading).
In Combat Move a transport may end its move in a sea zone with enemy warships where a unit
of its power with an attack value already is (a sea battle follows; Transports, pg. 15, 31),
and its cargo may be announced for an amphibious assault from
there (attr `assault` = the territory): it stays aboard and lands when the land battle is
fought, if the sea battle cleared the zone of enemy surface warships (Amphibious Assaults,
Step 3; steps/battle/). Noncombat Move never offloads in a zone holding enemy units.
Units loaded in Combat Move offload only to attack, their transport ends its move in a sea
zone next to a hostile territory, and Combat Move cannot end while such cargo could still
assault (Transports, pg. 15; `unfinished_assaults`).

Phase 3: Combat Move (pg. 14): "units cannot end their move in friendly spaces during the
Combat Move phase except in four instances". `move_costs` offers in Combat Move only the
spaces a unit may end in (so prompts and both bots comply), and `move` refuses any other
with the rule's words. How the rule maps onto our one-move-per-unit model:
- A hostile space is an enemy-controlled territory or one holding enemy units, or a sea
  zone with enemy surface warships (submarines and transports are ignored, Transports:
  "for purposes of determining the status of a sea zone"). Land and air units end in one.
- Land units may also board a transport in a friendly sea zone (never a hostile one, pg. 14
  and 31; they must then offload to attack); cargo offloads in Combat Move only into a
  hostile territory (an amphibious assault).
- Instance 1, "tanks that have blitzed through an unoccupied hostile space": a tank may end
  in a friendly territory when its path passes through an unoccupied hostile territory. The
  path blitzes through one when the tank ends in a friendly territory, or in a hostile one
  that no shorter path reaches (the highest IPC value, then the first by id: the player does
  not pick the blitz path, a limitation of one move per unit). An infantry moving
  with such a tank (Mechanized Infantry) may end with it there (our reading: it blitzed
  along with the tank).
- Instance 2, "sea units that will be participating in an amphibious assault from an
  uncontested sea zone": a transport carrying land units of its power may end in a friendly
  sea zone next to a hostile territory, and its cargo must then offload to attack (End step
  refused while it still can); a battleship or cruiser may end in a friendly sea zone from
  which land units of its power have already offloaded to attack this turn (move the
  assault first, then the ships that support it, as escorts go first for transports).
- Instance 3, "units moving from an enemy-occupied sea zone to escape combat": a unit that
  starts its Combat Move in a sea zone with enemy surface warships may end anywhere it can
  reach (Sea Units Starting in Enemy-Occupied Sea Zones, pg. 14: leave, or stay and fight).
  A zone holding only enemy submarines/transports is not "hostile" ("the normal rules for
  combat movement apply"): units leaving it get no exception. "Leave ..., load units, and
  return to the same sea zone" cannot be played: a unit moves once (a limitation).
- Instance 4, "units moving into a sea zone containing only enemy submarines and/or
  transports in order to attack those units": sea and air units may end there; a transport
  only where a unit of its power with an attack value already is (Transports: no attack
  alone).
Air units likewise end in a hostile space (a territory, or a sea zone holding enemy units
they attack). Units that fought in Conduct Combat do not move in Noncombat Move (pg. 21,
and "once these sea units have moved and/or participated in combat", pg. 14).

Submarines (Unit Profiles: Submarines, Sub Movement, pg. 30): they treat hostile sea zones
as friendly for movement and pass through them; entering a zone with an enemy destroyer ends
their move. In Noncombat Move they may pass through hostile zones ("Only aircraft and
submarines may move through hostile spaces", pg. 21) but not end in one (our reading: a
noncombat move creates no combat), nor enter a zone with an enemy destroyer (they would
have to stop there). A warship that sinks an unescorted transport ends its move in that
zone (Transports, pg. 16): a zone is fought only where units end their move, and they move
once, so passing through never sinks anything. Canals (pg. 7): a ship passes a canal only
if its side controlled the canal at the start of the turn (var `canal_control`, recorded by
`start_turn` when the Combat Move step begins); air units ignore canals.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Action, Event, Outcome, Prompt
from wartable.engine.loop import end_step_button
from wartable.engine.paths import reachable
from wartable.engine.rules import Game
from wartable.games.aa_anniversary import research
from wartable.games.aa_anniversary.steps import landing, mobilize, straits
from wartable.games.aa_anniversary.steps.common import (
    MOBILIZATION,
    StateMemo,
    allied,
    controller,
    enemy_blocking_ships,
    enemy_units,
    friendly_space,
    set_control,
    space_name,
    stats,
    world,
)
from wartable.model.state import GameState, Piece

R_COMBAT_MOVE = "Phase 3: Combat Move (pg. 14)"
R_NONCOMBAT = "Phase 5: Noncombat Move (pg. 21)"
R_BLITZ = "Phase 3: Combat Move, Blitzing (pg. 15)"
R_CHINA = "China Rules (pg. 10)"
R_LANDING = "Unit Profiles: Air Units, landing (pg. 26)"
R_TRANSPORT_CM = "Phase 3: Combat Move, Transports (pg. 15)"
R_END_FRIENDLY = "Phase 3: Combat Move (pg. 14): units cannot end their move in friendly spaces"
R_SUB_MOVE = "Unit Profiles: Submarines, Sub Movement (pg. 30)"
R_FOUGHT = "Phase 5: Noncombat Move (pg. 21): units that took part in combat do not move"
END_FRIENDLY_TEXT = ("Units cannot end their move in friendly spaces during the Combat Move "
                     "phase except in four instances: tanks that have blitzed through an "
                     "unoccupied hostile space, sea units that will be participating in an "
                     "amphibious assault from an uncontested sea zone, units moving from an "
                     "enemy-occupied sea zone to escape combat, and units moving into a sea "
                     "zone containing only enemy submarines and/or transports in order to "
                     "attack those units")
CANAL_VAR = "canal_control"  # canal territory -> its controller at the start of the turn
CHINA_EXTRA = frozenset({"kwangtung"})


def hostile_land(game: Game, state: GameState, space: str, power: str) -> bool:
    """An enemy-controlled territory or one holding enemy units."""
    key = (power, space)
    memo = _memo(state)
    if key not in memo:
        memo[key] = _hostile(game, state, space, power)
    return bool(memo[key])


# One state's answers (the prompt asks the same spaces for many units); kept with the
# state object itself so a new state never reads another's answers.
_memo = StateMemo()  # answers per recent state (steps/common.py)


def _hostile(game: Game, state: GameState, space: str, power: str) -> bool:
    c = controller(state, space)
    return (bool(c) and not allied(game, c, power)) or bool(enemy_units(game, state, space, power))


def china_may_enter(game: Game, space: str) -> bool:
    return world(game).original.get(space) == "china" or space in CHINA_EXTRA


def cargo(state: GameState, transport: Piece) -> tuple[Piece, ...]:
    return tuple(
        p for p in state.pieces_at(transport.location) if p.attrs.get("on") == transport.id
    )


def transport_room(game: Game, state: GameState, transport: Piece) -> int:
    cap = int(game.definition.unit_types[transport.type].extra.get("transport_capacity", 0))
    used = sum(
        int(game.definition.unit_types[p.type].extra.get("transport_cost", 0))
        for p in cargo(state, transport)
    )
    return cap - used


def transport_for(game: Game, state: GameState, piece: Piece, sea: str,
                  combat: bool = True) -> Piece | None:
    """A transport of the unit's power, else of a friendly power (Transports: Carry Land
    Units), in `sea` with room for it, lowest id first; in Noncombat Move not one that
    moved in Combat Move or fought (`busy_transport`)."""
    need = int(game.definition.unit_types[piece.type].extra.get("transport_cost", 0))
    if need <= 0 or piece.side == "china":
        return None
    for t in sorted(state.pieces_at(sea), key=lambda x: (x.side != piece.side, x.id)):
        if (
            allied(game, t.side, piece.side)
            and stats(game, t).transport
            and not t.attrs.get("unloaded")
            and (combat or not busy_transport(game, state, t))
            and transport_room(game, state, t) >= need
        ):
            return t
    return None


def escorted(game: Game, state: GameState, sea: str, power: str) -> bool:
    """Transports: No Combat Value (pg. 31): a transport enters a sea zone with enemy
    warships in Combat Move only where a unit of its power with an attack value is already
    there (move the escort first), since transports may not attack alone."""
    return any(q.side == power and stats(game, q).attack > 0 and not q.attrs.get("on")
               for q in state.pieces_at(sea))


def hostile_sea(game: Game, state: GameState, sea: str, power: str) -> bool:
    """A hostile sea zone: one with enemy surface warships (Transports, pg. 31: "for purposes
    of determining the status of a sea zone, submarines and transports are ignored")."""
    return enemy_blocking_ships(game, state, sea, power)


def sea_targets(game: Game, state: GameState, sea: str, power: str) -> bool:
    """Enemy units in the sea zone that can be attacked there (cargo cannot)."""
    return any(not p.attrs.get("on") for p in enemy_units(game, state, sea, power))


def enemy_destroyer(game: Game, state: GameState, sea: str, power: str) -> bool:
    """An enemy destroyer ends a submarine's move (Sub Movement, pg. 30)."""
    return any(stats(game, p).destroyer for p in enemy_units(game, state, sea, power))


def escaping(game: Game, state: GameState, piece: Piece) -> bool:
    """Instance 3 of Phase 3 (pg. 14): the unit began its Combat Move in a sea zone with enemy
    surface warships, so it may leave to escape combat (Sea Units Starting in Enemy-Occupied
    Sea Zones). Enemy units do not move in our turn: the zone is as it was at the start."""
    start = str(piece.attrs.get("origin", piece.location))
    return start in world(game).sea and hostile_sea(game, state, start, piece.side)


def fought(game: Game, state: GameState, piece: Piece) -> bool:
    """A land or sea unit in a space where a battle was fought this turn took part in combat
    and does not move in Noncombat Move (pg. 21; Sea Units Starting in Enemy-Occupied Sea
    Zones: "once these sea units have moved and/or participated in combat")."""
    return not stats(game, piece).air and piece.location in state.var("resolved", ())


def supports_assault(state: GameState, sea: str, power: str) -> bool:
    """Land units of the power have offloaded from `sea` to attack this turn (or are
    announced to land from it): battleships and cruisers may join them there (instance 2)."""
    return any(p.side == power and ((p.attrs.get("amphibious") and p.attrs.get("via") == sea)
                                     or (p.attrs.get("assault") and p.location == sea))
               for p in state.pieces.values())


def blitz_paths(game: Game, state: GameState, piece: Piece) -> dict[str, tuple[str, ...]]:
    """Tanks and Blitzing (pg. 15): for a unit that can blitz, a path to each space it can
    reach by passing through at least one unoccupied hostile territory (captured on the way).
    Of several, the fewest spaces, then the most IPCs captured, then the first by id."""
    if not game.definition.unit_types[piece.type].extra.get("can_blitz", False) \
            or piece.attrs.get("on") or not stats(game, piece).land:
        return {}
    w = world(game)
    power = piece.side
    budget = research.movement(game, state, power, piece.type) - int(piece.attrs.get("mp", 0))
    best: dict[str, tuple[tuple[int, int, tuple[str, ...]], tuple[str, ...]]] = {}

    def empty_hostile(loc: str) -> bool:
        return hostile_land(game, state, loc, power) and not state.pieces_at(loc)

    def walk(path: tuple[str, ...]) -> None:
        gained = [loc for loc in path[1:-1] if empty_hostile(loc)]
        if gained:
            key = (len(path), -sum(w.ipc.get(loc, 0) for loc in gained), path)
            if path[-1] not in best or key < best[path[-1]][0]:
                best[path[-1]] = (key, path)
        here = path[-1]
        if len(path) > budget or (len(path) > 1 and hostile_land(game, state, here, power)
                                  and not empty_hostile(here)):
            return
        for n in w.neighbors[here]:
            if n in w.land and n not in w.neutral and n not in path and (
                    power != "china" or china_may_enter(game, n)):
                walk((*path, n))

    walk((piece.location,))
    return {dest: path for dest, (_, path) in best.items()}


R_ROUTE = "The route a unit takes: Combat Move (pg. 14-15), Noncombat Move (pg. 21)"
R_LOAD_MOVE = "Unit Profiles: Transports, loading and offloading is a land unit's entire move"


def chosen_route(game: Game, state: GameState, piece: Piece, to: str, via: object,
                 combat: bool) -> tuple[str, ...]:
    """The route the player chose through `via` (waypoints, in order) to `to`, checked
    step by step: adjacent spaces (canals and straits open for ships), no space twice, no
    more spaces than the movement left, and every space before the last one passable: no
    neutral; for a land unit no hostile territory but, in Combat Move, an empty one a tank
    blitzes through (pg. 15); for a ship no zone with enemy warships (a submarine: no enemy
    destroyer, pg. 30); aircraft fly over anything (pg. 21) and keep their landing reserve
    (pg. 14, 26). A unit aboard a transport or boarding one takes no route: loading and
    offloading are its whole move. () when `via` names no waypoint."""
    if via is None or via == ():
        return ()
    if not isinstance(via, tuple | list) or not all(isinstance(x, str) for x in via):
        raise IllegalAction("A route is a list of spaces to pass through, in order.")
    w = world(game)
    s = stats(game, piece)
    power, name = piece.side, game.rules.piece_name(game, piece)
    if piece.attrs.get("on") or (s.land and to in w.sea):
        raise IllegalAction(f"{name} boards or leaves a transport as its whole move: no "
                            f"route [{R_LOAD_MOVE}].")
    path = (piece.location, *via, to)
    if len(set(path)) != len(path):
        raise IllegalAction(f"A route passes each space once [{R_ROUTE}].")
    left = float(research.movement(game, state, power, piece.type)) - float(
        piece.attrs.get("mp", 0))
    if len(path) - 1 > left:
        raise IllegalAction(f"{name} has {left:g} moves left; that route takes "
                            f"{len(path) - 1} [{R_ROUTE}].")
    for a, b in zip(path, path[1:], strict=False):
        if b not in w.neighbors.get(a, ()):
            raise IllegalAction(f"{space_name(game, b)} is not next to {space_name(game, a)} "
                                f"[{R_ROUTE}].")
        if s.sea and (not canal_open(game, state, a, b, power) or straits.blocked(
                game, state, a, b)):
            raise IllegalAction(f"{name} cannot pass from {space_name(game, a)} to "
                                f"{space_name(game, b)} [{R_ROUTE}].")
    blitz = bool(game.definition.unit_types[piece.type].extra.get("can_blitz", False))
    for loc in via:
        if s.air:
            passable = loc not in w.neutral and (power != "china" or china_may_enter(game, loc))
        elif s.sea:
            passable = loc in w.sea and not (
                enemy_destroyer(game, state, loc, power) if s.sub
                else enemy_blocking_ships(game, state, loc, power))
        else:
            passable = loc in w.land and loc not in w.neutral and (
                power != "china" or china_may_enter(game, loc))
            if passable and hostile_land(game, state, loc, power):
                passable = combat and blitz and not state.pieces_at(loc)
        if not passable:
            raise IllegalAction(f"{name} cannot pass through {space_name(game, loc)} "
                                f"[{R_ROUTE}].")
    if s.air and combat and len(path) - 1 + landing_distance(
            game, state, power, piece.type).get(to, 99.0) > left:
        raise IllegalAction(f"{name} would have no movement left to reach a landing space "
                            f"after that route [{R_LANDING}].")
    return path


def may_end_combat(game: Game, state: GameState, piece: Piece, dest: str) -> bool:
    """Phase 3: Combat Move (pg. 14): may the unit end its Combat Move in `dest`? A hostile
    space, or a friendly one in the four instances (see the module docstring)."""
    w = world(game)
    s = stats(game, piece)
    power = piece.side
    if dest in w.land:
        if hostile_land(game, state, dest, power):
            return True
        if piece.attrs.get("on"):
            return False  # offloading in Combat Move is an amphibious assault
        # Instance 1: a tank that blitzed; an infantry moving with it (Mechanized Infantry)
        # or dropped by a bomber in a territory hostile at the start of the turn.
        return dest in blitz_paths(game, state, piece) or dest in research.carriers(
            game, state, piece, True)
    if escaping(game, state, piece):
        return True  # instance 3
    if s.land:
        return True  # boards a transport: it must then offload to attack
    targets = sea_targets(game, state, dest, power)
    if s.transport:
        if any(q.side == power for q in cargo(state, piece)) and assault_zone(
                game, state, dest, power):
            return True  # instance 2: its cargo will assault from there
        return targets and escorted(game, state, dest, power)  # transports do not attack alone
    if targets:
        return True  # a hostile zone, or instance 4 (only enemy submarines / transports)
    return s.bombard and supports_assault(state, dest, power)  # instance 2


def can_move(game: Game, state: GameState, piece: Piece, combat: bool) -> bool:
    s = stats(game, piece)
    if piece.location == MOBILIZATION or s.factory or piece.attrs.get("landed"):
        return False
    if piece.attrs.get("on"):
        return True  # cargo may unload
    if s.transport and piece.attrs.get("unloaded"):
        return False
    if combat:
        if s.aa:
            return False
        # A carrier that moved in Combat Move stays where fighters may count on it (pg. 26).
        return not piece.attrs.get("cm") or (
            goes_on(game, state, piece) and mobilize.carrier_capacity(game, piece) == 0)
    if piece.attrs.get("captured_aa"):
        return False
    if piece.attrs.get("nm"):
        return goes_on(game, state, piece)
    return s.air or not piece.attrs.get("cm")


def goes_on(game: Game, state: GameState, piece: Piece) -> bool:
    """A unit that has moved in this phase may move again within its movement allowance
    (pg. 31: a transport "can pick up cargo, move one sea zone, pick up more cargo, move one
    more sea zone, and offload"; pg. 15: it loads "in any friendly sea zone along its
    route"), unless its move has stopped: it entered a hostile territory or a sea zone with
    enemy units (Combat Move, pg. 14-15: it fights there; a warship that sinks an
    unescorted transport "must end its move in that sea zone")."""
    left = float(research.movement(game, state, piece.side, piece.type)) - float(
        piece.attrs.get("mp", 0))
    if left <= 0 or piece.attrs.get("assault"):
        return False
    loc, power = piece.location, piece.side
    if loc in world(game).land:
        return not hostile_land(game, state, loc, power)
    return not enemy_units(game, state, loc, power)


def loaded_in_combat(state: GameState, piece: Piece) -> bool:
    """A land unit that boarded one of its own power's transports in this Combat Move and is
    still aboard, not yet announced for an assault (boarding sets `cm`; cargo carried from an
    earlier turn has no `cm` until it moves)."""
    t = state.pieces.get(str(piece.attrs.get("on", "")))
    return (t is not None and t.side == piece.side and bool(piece.attrs.get("cm"))
            and not piece.attrs.get("assault"))


def carries_combat_cargo(state: GameState, transport: Piece) -> bool:
    return any(loaded_in_combat(state, q) for q in cargo(state, transport))


def assault_zone(game: Game, state: GameState, sea: str, power: str) -> bool:
    """A sea zone next to a hostile territory: where a transport loaded in Combat Move may
    end its move (Transports, pg. 15: "must end its movement in a ... sea zone from which it
    can conduct the assault")."""
    w = world(game)
    return any(n in w.land and n not in w.neutral and hostile_land(game, state, n, power)
               for n in w.neighbors[sea])


def unfinished_assaults(game: Game, state: GameState, power: str) -> str | None:
    """Why Combat Move may not end yet: units loaded in this Combat Move still aboard that
    can still offload into a hostile territory (Transports, pg. 15; Unit Profiles:
    Transports, pg. 31), or whose transport can still sail to a sea zone to assault from.
    A unit left with neither (its target was blitzed into friendly hands, or it boarded a
    transport that already moved) is not held against the player: it stays aboard (a
    decision of ours; the rulebook does not foresee it, and a stuck turn helps no one)."""
    def can_still(p: Piece) -> bool:
        t = state.pieces.get(str(p.attrs.get("on", "")))
        return bool(move_costs(game, state, p, True)) or (
            t is not None and bool(move_costs(game, state, t, True)))

    stuck = sorted(game.rules.piece_name(game, p) for p in state.pieces.values()
                   if p.side == power and stats(game, p).land and loaded_in_combat(state, p)
                   and can_still(p))
    if stuck:
        return (f"Units loaded during Combat Move must offload to attack a hostile territory "
                f"as part of an amphibious assault: {', '.join(stuck)} still aboard "
                f"[{R_TRANSPORT_CM}].")
    # Instance 2 (pg. 14): a transport that ended in a friendly sea zone did so to take part
    # in an amphibious assault from it; its cargo must land to attack while it still can.
    idle = sorted(game.rules.piece_name(game, p) for p in state.pieces.values()
                  if p.side == power and stats(game, p).land and _assault_owed(game, state, p)
                  and move_costs(game, state, p, True))
    if idle:
        return (f"A transport that ends its Combat Move in a friendly sea zone must take part "
                f"in an amphibious assault from it: offload {', '.join(idle)} into a hostile "
                f"territory [{R_END_FRIENDLY}].")
    return None


def _assault_owed(game: Game, state: GameState, piece: Piece) -> bool:
    """Cargo of the transport's power aboard a transport that moved in this Combat Move into a
    friendly sea zone (not escaping one with enemy warships) and has not offloaded yet."""
    t = state.pieces.get(str(piece.attrs.get("on", "")))
    return (t is not None and t.side == piece.side and bool(t.attrs.get("cm"))
            and not t.attrs.get("unloaded") and not piece.attrs.get("assault")
            and not sea_targets(game, state, t.location, t.side)
            and not escaping(game, state, t))


def busy_transport(game: Game, state: GameState, transport: Piece) -> bool:
    """Phase 5 (pg. 21): "Transports can move to friendly coastal territories and load or
    offload cargo, unless they loaded, moved, or offloaded, or were involved in combat during
    the Combat Move or Conduct Combat phase"."""
    return bool(transport.attrs.get("cm")) or fought(game, state, transport)


def combat_move_can_end(game: Game, state: GameState, power: str) -> str | None:
    """Why Combat Move cannot end yet, or None (Phase 3: Combat Move, pg. 14-15)."""
    return unfinished_assaults(game, state, power)


def move_costs(game: Game, state: GameState, piece: Piece, combat: bool) -> dict[str, float]:
    """Every space the unit may end this move in, with the movement it costs."""
    out = _move_costs(game, state, piece, combat)
    if combat and out:  # Phase 3 (pg. 14): hostile spaces, or the four instances
        out = {z: v for z, v in out.items() if may_end_combat(game, state, piece, z)}
    if combat and out and _carrier_capacity(game, piece) > 0:
        pinned = carrier_pinned_zones(game, state, piece)
        if pinned is not None:  # a fighter counts on it for landing (Air Units, pg. 26)
            out = {z: v for z, v in out.items() if z in pinned}
    if combat and out and stats(game, piece).transport and carries_combat_cargo(state, piece):
        # Transports (pg. 15): it ends its move where it can conduct the assault.
        out = {z: v for z, v in out.items() if assault_zone(game, state, z, piece.side)}
    return out


def reach(game: Game, state: GameState, piece: Piece, combat: bool) -> dict[str, float]:
    """Every space the unit could move to, before the rules on where a move may end (for a
    planner: an empty transport's reach before it carries an assault)."""
    return _move_costs(game, state, piece, combat)


def _move_costs(game: Game, state: GameState, piece: Piece, combat: bool) -> dict[str, float]:
    if not can_move(game, state, piece, combat) or (not combat and fought(game, state, piece)):
        return {}
    if not combat and landing.carrier_held(game, state, piece):
        return {}  # "must end its move once a fighter has landed on it" (pg. 21)
    w = world(game)
    s = stats(game, piece)
    power = piece.side
    if piece.attrs.get("on"):
        if piece.attrs.get("assault"):
            return {}  # announced for an amphibious assault: lands in Conduct Combat
        boat = state.pieces.get(str(piece.attrs["on"]))
        if boat is not None and boat.side != power and (
                piece.attrs.get("cm") or piece.attrs.get("nm")):
            return {}  # on a friendly power's transport: offloads on a later turn of its own
        # Hostile: enemy surface warships; submarines and transports are ignored (Transports).
        contested = enemy_blocking_ships(game, state, piece.location, power)
        if contested and not combat:
            return {}
        if not combat and boat is not None and busy_transport(game, state, boat):
            return {}  # its transport moved or fought this turn: no offloading now (pg. 21)
        # "A transport cannot offload in two territories during a single turn."
        only = boat.attrs.get("unloaded") if boat is not None else None
        if combat and loaded_in_combat(state, piece):
            contested = True  # Transports (pg. 15): loaded in Combat Move, lands only to attack
        return {
            t: 0.0
            for t in w.neighbors[piece.location]
            if t in w.land
            and (not isinstance(only, str) or t == only)
            and t not in w.neutral
            and (hostile_land(game, state, t, power) if contested
                 else combat or not hostile_land(game, state, t, power))
        }
    # Long-Range Aircraft (Breakthrough Chart 2) lengthens the range.
    budget = float(research.movement(game, state, power, piece.type)) - float(
        piece.attrs.get("mp", 0)
    )
    if budget <= 0:
        return {}

    def neighbours(loc: str) -> tuple[str, ...]:
        return w.neighbors[loc]

    if s.air:

        def air_cost(a: str, b: str) -> float | None:
            if power == "china" and not china_may_enter(game, b):
                return None  # Flying Tigers: part of the Chinese forces, never leave China
            return None if b in w.neutral else 1.0

        reach = reachable(piece.location, budget, neighbours, air_cost)
        land_in = landing_distance(game, state, power, piece.type) if combat else {}
        out = {}
        for loc, c in reach.cost.items():
            if loc == piece.location:
                continue
            if not combat and (not air_may_end(game, state, loc, power, piece.type)
                               or enemy_blocking_ships(game, state, loc, power)):
                continue  # Noncombat Move enters no hostile space (pg. 21)
            # Combat Move: an aircraft keeps enough movement to reach a landing space
            # afterwards (Air Units, pg. 26; no suicide attacks).
            if combat and c + land_in.get(loc, 99.0) > budget:
                continue
            out[loc] = c
        return out

    if s.sea:

        def sea_cost(a: str, b: str) -> float | None:
            if b not in w.sea:
                return None
            if not canal_open(game, state, a, b, power):
                return None
            if straits.blocked(game, state, a, b):  # Dardanelles closed (optional rule)
                return None
            if s.sub:  # Sub Movement: hostile zones count as friendly; a destroyer stops it
                return None if not combat and enemy_destroyer(game, state, b, power) else 1.0
            if enemy_blocking_ships(game, state, b, power) and (not combat or (
                    s.transport and not escorted(game, state, b, power))):
                return None
            return 1.0

        def sea_stop(loc: str) -> bool:
            if s.sub:
                return enemy_destroyer(game, state, loc, power)
            return enemy_blocking_ships(game, state, loc, power)

        reach = reachable(piece.location, budget, neighbours, sea_cost, sea_stop)
        # Noncombat Move: a submarine passes hostile zones but does not end in one.
        return {loc: c for loc, c in reach.cost.items() if loc != piece.location
                and (combat or not hostile_sea(game, state, loc, power))}

    blitz = bool(game.definition.unit_types[piece.type].extra.get("can_blitz", False))

    def land_cost(a: str, b: str) -> float | None:
        if b not in w.land or b in w.neutral:
            return None
        if power == "china" and not china_may_enter(game, b):
            return None
        if hostile_land(game, state, b, power) and not combat:
            return None
        return 1.0

    def land_stop(loc: str) -> bool:
        if not hostile_land(game, state, loc, power):
            return False
        # Blitzing: armour passes through an enemy territory that holds no units at all.
        return not (blitz and not state.pieces_at(loc))

    reach = reachable(piece.location, budget, neighbours, land_cost, land_stop)
    out = {loc: c for loc, c in reach.cost.items() if loc != piece.location}
    for loc, c in _with_carrier(game, state, piece, combat, land_cost, land_stop).items():
        out.setdefault(loc, c)
    # Loading: a unit in a coastal territory boards a transport in an adjacent sea zone, a
    # friendly one ("you can only load units in friendly sea zones", pg. 14; Transports:
    # "cannot load or offload while in a hostile sea zone", pg. 31).
    # Loading is a land unit's whole move (Transports): only a unit that has not moved.
    for sz in w.neighbors[piece.location] if not piece.attrs.get("mp") else ():
        if sz in w.sea and transport_for(game, state, piece, sz, combat) is not None \
                and not hostile_sea(game, state, sz, power):
            out[sz] = budget
    return out


def _with_carrier(game: Game, state: GameState, piece: Piece, combat: bool,
                  land_cost: Callable[[str, str], float | None],
                  land_stop: Callable[[str], bool]) -> dict[str, float]:
    """Breakthrough Chart 1: an infantry goes two spaces along with a tank (Mechanized
    Infantry) or is flown by a bomber that stopped in the first territory it entered that was
    hostile at the start of the turn (Paratroopers); see research.carriers."""
    w = world(game)
    out: dict[str, float] = {}
    captured = set(state.var("captured", ()))

    def hostile_then(s: str) -> bool:
        return s in w.land and (s in captured or hostile_land(game, state, s, piece.side))

    for dest, (mark, cid) in research.carriers(game, state, piece, combat).items():
        if mark == research.MECH_MARK:
            far = research.mechanized_movement(game, state, piece.side, piece.type)[0]
            reach = reachable(piece.location, float(far), w.neighbors.__getitem__, land_cost,
                              land_stop)
        elif hostile_then(dest):
            rng = research.movement(game, state, piece.side, state.piece(cid).type)
            reach = reachable(piece.location, float(rng), w.neighbors.__getitem__,
                              lambda a, b: None if b in w.neutral else 1.0, hostile_then)
        else:
            continue
        if dest in reach.cost:
            out[dest] = reach.cost[dest]
    return out


def landing_distance(game: Game, state: GameState, power: str, unit: str) -> dict[str, float]:
    """Air moves from each space to the nearest space the aircraft could land in now
    (a breadth-first search outward from every landing space; neutrals are not flown over)."""
    key = ("landing", power + ":" + unit)
    memo = _memo(state)
    cached = memo.get(key)
    if isinstance(cached, dict):
        return cached
    w = world(game)
    dist: dict[str, float] = {}
    # Air Units (pg. 15, 26): a fighter may count on a carrier that has not moved in Combat
    # Move reaching a sea zone in Noncombat Move (or a new carrier: air_may_end).
    deck = carrier_reach(game, state, power, True) if unit == "fighter" else frozenset()
    frontier = [
        s for s in w.neighbors
        if s not in w.neutral and (power != "china" or china_may_enter(game, s))
        and (s in deck or air_may_end(game, state, s, power, unit))
    ]
    for s in frontier:
        dist[s] = 0.0
    d = 0.0
    while frontier:
        d += 1.0
        nxt = []
        for s in frontier:
            for n in w.neighbors[s]:
                if n not in dist and n not in w.neutral and (
                        power != "china" or china_may_enter(game, n)):
                    dist[n] = d
                    nxt.append(n)
        frontier = nxt
    memo[key] = dist
    return dist


def start_turn(game: Game, state: GameState) -> GameState:
    """Canals (pg. 7): "your side ... must control it at the start of your turn (that is, you
    cannot use it the turn you capture it)": record who holds each canal's territories when
    the power's turn begins (called as its Combat Move step begins; nothing before it in the
    turn changes control)."""
    held = sorted({h for _, holders in world(game).canals for h in holders})
    return state.with_var(CANAL_VAR, FrozenMap({h: controller(state, h) for h in held}))


def canal_open(game: Game, state: GameState, a: str, b: str, power: str) -> bool:
    """Sea units pass a canal only if their side held it at the start of the turn (a state
    from before `start_turn` existed reads today's control). Air units ignore canals."""
    snap = state.var(CANAL_VAR, None)
    for pair, holders in world(game).canals:
        if pair == frozenset((a, b)):
            if snap is None:
                return all(friendly_space(game, state, h, power) for h in holders)
            return all(bool(snap.get(h)) and allied(game, str(snap.get(h)), power)
                       for h in holders)
    return True


def air_may_end(game: Game, state: GameState, loc: str, power: str, unit: str) -> bool:
    """A friendly territory not captured this turn, or (fighters) a place on a friendly
    carrier there, on a carrier bought this turn that can be mobilized there (Air Units,
    pg. 26 note), or where a carrier of its power that has not moved can still come (pg. 21:
    it must then come; noncombat_can_end)."""
    w = world(game)
    if loc in w.land:
        return (
            friendly_space(game, state, loc, power)
            and loc not in state.var("captured", ())
            and not enemy_units(game, state, loc, power)
        )
    if unit != "fighter":
        return False
    if enemy_blocking_ships(game, state, loc, power):
        # "New sea units can enter play even in a hostile sea zone" (pg. 22): a fighter
        # still there after a battle may wait for a new carrier (pg. 26 note).
        return landing.pending_carrier_room(game, state, loc, power) > 0
    return (carrier_room(game, state, loc, power)
            + landing.pending_carrier_room(game, state, loc, power) > 0
            or loc in carrier_reach(game, state, power, False))


def carrier_room(game: Game, state: GameState, loc: str, power: str) -> int:
    """Places left on the friendly carriers in `loc` now (negative: fighters without one)."""
    return landing.carrier_room(game, state, loc, power)


# --- carriers that fighters count on (Air Units, pg. 26; Phase 5, pg. 21) ----------------
# Here, not in landing.py: where a fighter may land depends on where carriers can still
# move, and where a carrier may move on where the fighters that count on it can land.
R_PICK_UP = "Phase 5: Noncombat Move, aircraft carriers must move to pick up fighters (pg. 21)"


def carrier_reach(game: Game, state: GameState, power: str, combat: bool) -> frozenset[str]:
    """Sea zones one of `power`'s carriers that moved in neither move phase could still
    come to in Noncombat Move (its own zone counts as carrier room there). During Combat
    Move also the sea zones it could enter to fight, as if every battle were won (Air Units,
    pg. 26: "you may assume that all of your attacking rolls will be hits"). Every fighter
    may count on the same carrier (one move per unit: we do not record which fighter
    counts on which carrier)."""
    memo = _memo(state)
    key = ("reach", power, str(combat))
    hit = memo.get(key)
    if isinstance(hit, frozenset):
        return hit
    out: set[str] = set()
    for p in state.pieces.values():
        if (p.side == power and mobilize.carrier_capacity(game, p) > 0
                and p.location != MOBILIZATION and not p.attrs.get("cm")
                and not p.attrs.get("nm")):
            out.update(move_costs(game, state, p, False))
            if combat:  # or where it could go to fight (Combat Move ends only in hostile zones)
                out.update(move_costs(game, state, p, True))
    reach = frozenset(out)
    memo[key] = reach
    return reach


def _lands_now(game: Game, state: GameState, loc: str, power: str) -> bool:
    """A sea zone with a place on a carrier there or on one still to be mobilized there."""
    return landing.carrier_room(game, state, loc, power) + landing.pending_carrier_room(
        game, state, loc, power) > 0


def noncombat_can_end(game: Game, state: GameState, power: str) -> str | None:
    """Why Noncombat Move cannot end yet (a carrier must still move to its fighters), or None.

    pg. 21: carriers "must move there, range permitting, if they did not move in the Combat
    Move phase and the friendly sea zone is the only valid landing zone for the fighters".
    A fighter's only landing zone: it can fly to no territory and no carrier place (now or
    on a new carrier) elsewhere."""
    short = landing.fighter_shortfalls(game, state, power)
    for zone in sorted(short):
        if landing.carrier_room(game, state, zone, power) + landing.pending_carrier_room(
                game, state, zone, power) >= 0:
            continue  # a new carrier will take them (pg. 26 note)
        fighters = sorted((p for p in state.pieces_at(zone)
                           if p.side == power and p.type == "fighter"), key=lambda p: p.id)
        # A fighter that flew there in this Noncombat Move has ended its move there, even
        # with movement left for another leg (the player chose that zone); one that did not
        # move is stuck only if it can reach no landing space.
        stuck = [f for f in fighters if f.attrs.get("nm") or not any(
            d in world(game).land or _lands_now(game, state, d, power)
            for d in move_costs(game, state, f, False))]
        if not stuck:
            continue
        for c in sorted(state.pieces.values(), key=lambda p: p.id):
            if (c.side == power and mobilize.carrier_capacity(game, c) > 0
                    and c.location != zone
                    and zone in move_costs(game, state, c, False)):
                return (f"{game.rules.piece_name(game, c)} must move to "
                        f"{space_name(game, zone)} to pick up "
                        f"{game.rules.piece_name(game, stuck[0])}: it is the fighter's only "
                        f"landing zone [{R_PICK_UP}].")
    return None


def carrier_pinned_zones(game: Game, state: GameState, carrier: Piece) -> frozenset[str] | None:
    """In Combat Move: None when the carrier is free to move; else the only sea zones it may
    move to, because a fighter that moved in this Combat Move has no landing space without
    it (pg. 26). Checked on the board without this carrier."""
    power = carrier.side
    if (mobilize.carrier_capacity(game, carrier) <= 0 or carrier.attrs.get("cm")
            or carrier.location == MOBILIZATION):
        return None
    fighters = [p for p in state.pieces.values() if p.side == power and p.type == "fighter"
                and p.attrs.get("cm") and p.location != MOBILIZATION]
    if not fighters:
        return None
    w = world(game)
    without = state.without_piece(carrier.id)
    decks = carrier_reach(game, without, power, True)
    allowed: frozenset[str] | None = None
    for f in fighters:
        budget = float(research.movement(game, state, power, f.type)) - float(
            f.attrs.get("mp", 0))
        zones = reachable(f.location, max(budget, 0.0), w.neighbors.__getitem__,
                          lambda a, b: None if b in w.neutral else 1.0).cost
        if any(z in decks or air_may_end(game, without, z, power, f.type)
               for z in zones):
            continue
        here = frozenset(z for z in zones if z in w.sea)
        allowed = here if allowed is None else allowed & here
    return allowed


def prompt(game: Game, state: GameState, power: str, combat: bool, text: str, rule: str) -> Prompt:
    moves: dict[str, tuple[str, ...]] = {}
    costs: dict[str, FrozenMap[str, float]] = {}
    cache: dict[tuple[object, ...], dict[str, float]] = {}
    for p in state.pieces.values():
        if p.side != power:
            continue
        key = (
            p.type,
            p.location,
            p.attrs.get("mp", 0),
            p.attrs.get("cm"),
            p.attrs.get("nm"),
            p.attrs.get("captured_aa"),
            p.attrs.get("on"),
            p.attrs.get("landed"),
            p.attrs.get("unloaded"),
            combat and carries_combat_cargo(state, p),
            p.attrs.get("assault"),
            # Instance 2 (pg. 14): a transport with cargo of its power may end by a target.
            combat and stats(game, p).transport and any(q.side == power
                                                        for q in cargo(state, p)),
        )
        if key not in cache:
            cache[key] = move_costs(game, state, p, combat)
        mc = cache[key]
        if mc:
            moves[p.id] = tuple(sorted(mc))
            costs[p.id] = FrozenMap(mc)
    return Prompt(
        power,
        text,
        rule,
        moves=FrozenMap(moves),
        costs=FrozenMap(costs),
        buttons=(end_step_button(combat_move_can_end(game, state, power) if combat
                                 else noncombat_can_end(game, state, power)),),
    )


def move(game: Game, state: GameState, power: str, action: Action, combat: bool) -> Outcome:
    rule = R_COMBAT_MOVE if combat else R_NONCOMBAT
    pid, to = action.args.get("piece"), action.args.get("to")
    if not isinstance(pid, str) or pid not in state.pieces:
        raise IllegalAction(f"There is no unit {pid!r}.")
    p = state.piece(pid)
    name = game.rules.piece_name(game, p)
    if p.side != power:
        raise IllegalAction(f"{name} is not yours to move [{rule}].")
    if not can_move(game, state, p, combat):
        raise IllegalAction(f"{name} may not move now [{rule}].")
    if not combat and fought(game, state, p):
        raise IllegalAction(f"{name} took part in combat this turn and may not move [{R_FOUGHT}].")
    mc = move_costs(game, state, p, combat)
    raw = _move_costs(game, state, p, combat)  # before the end-of-move rules: for `via`
    if not isinstance(to, str) or to not in mc:
        if combat and isinstance(to, str) and to in raw \
                and not may_end_combat(game, state, p, to):
            raise IllegalAction(f"{name} cannot end its move in {space_name(game, to)}: "
                                f"{END_FRIENDLY_TEXT} [{R_END_FRIENDLY}].")
        raise IllegalAction(f"{name} cannot reach {space_name(game, to)} in this phase [{rule}].")
    events = [
        Event(
            "move",
            f"{name} moves {space_name(game, p.location)} → {space_name(game, to)}",
            power,
            rule,
        )
    ]
    # The player's route (waypoints), else the engine's: for a blitz, the path that
    # captures most; empty enemy territories on the path are captured as it passes.
    route = chosen_route(game, state, p, to, action.args.get("via"), combat)
    path = route
    if not route:
        path = blitz_paths(game, state, p).get(to, ()) if combat else ()
        if path and hostile_land(game, state, to, power) and len(path) - 1 > raw[to]:
            path = ()  # a shorter way into the hostile space: no detour to blitz
    if len(path) > 2 or len(route) > 2:
        shown = route or path
        events[0] = Event("move", f"{name} moves "
                          f"{' → '.join(space_name(game, x) for x in shown)}"
                          + ("" if route else " (the route the rules chose)"), power, rule)
    # Only a tank (a unit that can blitz) on land captures as it passes (pg. 15).
    blitzer = bool(game.definition.unit_types[p.type].extra.get("can_blitz", False)) \
        and stats(game, p).land and not p.attrs.get("on")
    if path and blitzer and combat:
        blitzed = [loc for loc in path[1:-1]
                   if hostile_land(game, state, loc, power) and not state.pieces_at(loc)]
        for loc in blitzed:
            state = set_control(state, loc, power)
            state = state.with_var("captured", tuple(state.var("captured", ())) + (loc,))
            events.append(Event("combat", f"{name} blitzes through {space_name(game, loc)}, "
                                f"captured", power, R_BLITZ))
    spent = float(len(path) - 1) if path else mc[to]  # a blitz path may be the longer one
    attrs = p.attrs.set("mp", float(p.attrs.get("mp", 0)) + spent).set(
        "cm" if combat else "nm", True
    )
    if "origin" not in attrs:
        attrs = attrs.set("origin", p.location)
    carrier = research.carriers(game, state, p, combat).get(to)
    # The move needs its carrier beyond a one-space move, or (Combat Move) to end in a
    # friendly territory with a tank that blitzed there (Mechanized Infantry).
    if carrier and (to not in world(game).neighbors[p.location]
                    or (combat and not hostile_land(game, state, to, power))):
        attrs = attrs.set(carrier[0], carrier[1])
        events.append(Event("move", f"{name} moves with "
                            f"{game.rules.piece_name(game, state.piece(carrier[1]))}", power,
                            research.carrier_rule(game, carrier[0])))
    w = world(game)
    # The space it entered the destination from: where an attack may retreat to (Step 6).
    via = [path[-2]] if path else [
        n
        for n in w.neighbors[to]
        if n == p.location
        or (raw.get(n, -1.0) == raw[to] - 1 and not hostile_land(game, state, n, power))
    ]
    attrs = attrs.set("via", via[0]) if via else attrs
    if p.attrs.get("on") and combat and enemy_blocking_ships(game, state, p.location, power):
        # Amphibious Assaults: the sea battle comes first; the unit stays aboard until then.
        t = state.pieces.get(str(p.attrs["on"]))
        if t is not None:
            state = state.with_piece(t.with_attr("unloaded", to))  # one territory a turn
        attrs = p.attrs.set("cm", True).set("assault", to).set("via", p.location)
        events[0] = Event(
            "move",
            f"{name} will land in {space_name(game, to)} from {space_name(game, p.location)} "
            f"once the sea battle there is won",
            power,
            "Amphibious Assaults (pg. 17)",
        )
        return Outcome(state.with_piece(replace(p, attrs=attrs)), tuple(events))
    if p.attrs.get("on"):  # unloading: the unit and its transport move no more
        t = state.pieces.get(str(p.attrs["on"]))
        # via = the sea zone it landed from (bombardment limits, Amphibious Assaults).
        attrs = attrs.remove("on").set("landed", True).set("via", p.location)
        if combat and hostile_land(game, state, to, power):
            attrs = attrs.set("amphibious", True)
        if t is not None:
            state = state.with_piece(t.with_attr("unloaded", to))  # one territory a turn
        events[0] = Event(
            "move",
            f"{name} unloads {space_name(game, p.location)} → {space_name(game, to)}",
            power,
            rule,
        )
    elif stats(game, p).land and to in w.sea:
        t = transport_for(game, state, p, to, combat)
        assert t is not None  # move_costs offered `to` only with a transport there
        attrs = attrs.set("on", t.id)
        events[0] = Event(
            "move", f"{name} boards a transport in {space_name(game, to)}", power, rule
        )
    elif stats(game, p).transport:
        for cg in cargo(state, p):
            state = state.with_piece(replace(cg, location=to))
    elif _carrier_capacity(game, p) > 0:
        for g in guests(game, state, p):
            state = state.with_piece(replace(g, location=to, attrs=g.attrs.set("on", p.id)))
    state = state.with_piece(replace(p, location=to, attrs=attrs))
    return Outcome(state, tuple(events))


def _carrier_capacity(game: Game, piece: Piece) -> int:
    return int(game.definition.unit_types[piece.type].extra.get("carrier_capacity", 0))


def guests(game: Game, state: GameState, carrier: Piece) -> tuple[Piece, ...]:
    """Guest fighters that move with a carrier as cargo (Special Combat Movement: Aircraft
    Carriers, pg. 15: "Guest fighters belonging to a friendly power on board another power's
    carrier must remain on board as cargo if the carrier moves"): those already aboard, then
    the friendly powers' fighters in its zone that the other carriers staying there cannot
    hold (which carrier a guest sits on is not tracked otherwise: a choice of ours)."""
    here = state.pieces_at(carrier.location)
    aboard = [q for q in here if q.attrs.get("on") == carrier.id]
    free = sorted((q for q in here if q.type == "fighter" and q.side != carrier.side
                   and allied(game, q.side, carrier.side) and not q.attrs.get("on")),
                  key=lambda q: q.id)
    others = sum(_carrier_capacity(game, q) for q in here
                 if q.id != carrier.id and allied(game, q.side, carrier.side))
    take = min(max(0, len(free) - others), _carrier_capacity(game, carrier) - len(aboard))
    return (*aboard, *free[:max(0, take)])


def land_aircraft(game: Game, state: GameState, power: str) -> Outcome:
    """End of Noncombat Move: aircraft that could not land are lost (pg. 26): at sea, the
    fighters beyond two per carrier there, counting the carriers still to be mobilized there
    (pg. 26 note; landing.lost_at_sea). Guest fighters carried as cargo this turn are cargo
    no longer (they defend with the carrier)."""
    events = []
    lost = 0
    for p in list(state.pieces.values()):
        if p.attrs.get("on") and stats(game, p).air:
            state = state.with_piece(replace(p, attrs=p.attrs.remove("on")))
    no_deck = {q.id for q in landing.lost_at_sea(game, state, power, pending=True)}
    for p in sorted(state.pieces.values(), key=lambda x: x.id):
        if p.side != power or not stats(game, p).air or p.location == MOBILIZATION:
            continue
        if p.location in world(game).sea:
            ok = (
                p.type == "fighter"
                and p.id not in no_deck
                and (not enemy_blocking_ships(game, state, p.location, power)
                     or landing.pending_carrier_room(game, state, p.location, power) > 0)
            )
        else:
            ok = air_may_end(game, state, p.location, power, p.type)
        if not ok:
            state = state.without_piece(p.id)
            lost += 1
            events.append(
                Event(
                    "combat",
                    f"{game.rules.piece_name(game, p)} cannot land in "
                    f"{space_name(game, p.location)} and is lost",
                    power,
                    R_LANDING,
                )
            )
    if lost:
        state = state.with_var("lost_total", int(state.var("lost_total", 0)) + lost)
    return Outcome(state, tuple(events))
