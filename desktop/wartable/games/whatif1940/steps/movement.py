"""Movement [10.1-10.14, 2.10, 3.6-3.9, 12.9].

- Movement factors by class, nationality, map and turn [2.10] (units.movement_factor).
- Costs from the provisional Terrain Effects Chart (tables.terrain_effects): in-hex terrain,
  city and Ruhr city 1 [10.14], river and major-river hexsides [10.11] negated around
  cities (not major rivers), forts free [10.13]; all-sea/all-lake hexes and hexsides are
  impassable [10.11]. Soviets pay 1 per hex plus the river cost [10.2].
- Minimum move: one hex for the whole MF, if otherwise legal [10.3].
- Stacks: units that began the phase together may move together at the pace of the
  slowest [10.4, 10.6]; a force finishes before another parent stack starts [10.2, 10.5].
- No entry into enemy-occupied hexes [10.7] (mobile assaults: steps/mobile_assault.py) nor hexes an
  enemy intrinsic garrison holds [11.21].
- Where each nationality may go [3.6, 3.7, 3.9, 10.10, 12.9].
- Control changes along the path [3.12].
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from wartable.core.errors import IllegalAction
from wartable.engine.actions import Action, Event, Outcome
from wartable.engine.paths import reachable
from wartable.engine.rules import Game
from wartable.games.whatif1940 import hidden, supply, units
from wartable.games.whatif1940.board import Board, board_of
from wartable.games.whatif1940.ids import (
    A_DONE,
    A_MA_DONE,
    A_MOVED,
    A_MP_USED,
    A_OOS_MOVE,
    A_PHASE_HEX,
    ANGLO_FRENCH,
    BELGIUM,
    EAST,
    GERMAN,
    GREATER_GERMANY,
    HOLLAND,
    LUXEMBOURG,
    NAT_BELGIAN,
    NAT_BRITISH,
    NAT_DUTCH,
    NAT_FRENCH,
    NAT_GERMAN,
    NAT_SOVIET,
    SOVIET,
    V_ARDENNES_OPEN,
    V_BELGIUM,
    V_HOLLAND,
    V_LUXEMBOURG,
    V_MOVING_PARENT,
    WEST,
)
from wartable.games.whatif1940.steps import control, forts, interdiction, stacking
from wartable.model.state import GameState, Piece

# Movement step id -> (side, map) of the units that move in it [5.2, 5.3].
STEP_MOVERS: dict[str, tuple[str, str]] = {
    "german_west_move": (GERMAN, WEST),
    "german_east_move_d": (GERMAN, EAST),
    "german_east_move_e": (GERMAN, EAST),
    "soviet_move": (SOVIET, EAST),
    "af_move": (ANGLO_FRENCH, WEST),
}
Costs = dict[tuple[str, str], float | None]


# --- the static part of the Terrain Effects Chart, per cost class --------------------------

def cost_class(game: Game, state: GameState, piece: Piece) -> str:
    if units.nation(game, piece) == NAT_SOVIET:
        return "soviet2" if state.option("soviet_major_river_plus_two", False) else "soviet"
    return "mech" if units.is_mech(game, piece) else "nonmech"


def _edge_costs(game: Game, board: Board, klass: str) -> Costs:
    """(from, to) -> MP to enter `to` across that hexside; None when impassable [10.8-10.14]."""
    tec = game.definition.tables["terrain_effects"]
    impassable = set(tec["impassable"])
    side_impassable = set(tec["hexside_impassable"])
    soviet = klass.startswith("soviet")
    hex_costs = tec["nonmech" if klass == "nonmech" else "mech"]
    side_costs = tec["hexside_nonmech" if klass == "nonmech" else "hexside_mech"]
    out: Costs = {}
    for a, ns in board.neighbors.items():
        for b in ns:
            hb = board.hex(b)
            feats = board.side_features(a, b)
            if hb.terrain in impassable or feats & side_impassable:
                out[(a, b)] = None
                continue
            # [10.11] a city or Ruhr city negates the (minor) rivers around it.
            river = "river" in feats and not (hb.city or board.hex(a).city)
            major = "major_river" in feats
            if soviet:  # [10.2] one MP per enterable hex, plus the river cost
                cost = float(tec["soviet_hex"])
                cost += float(tec["soviet_river"]) if river else 0.0
                if major:
                    cost += 2.0 if klass == "soviet2" else float(tec["soviet_major_river"])
            else:
                cost = float(tec["city_cost"]) if hb.city else float(hex_costs[hb.terrain])
                cost += float(side_costs["river"]) if river else 0.0
                cost += float(side_costs["major_river"]) if major else 0.0
            out[(a, b)] = cost
    return out


def edge_costs(game: Game, board: Board, klass: str) -> Costs:
    """The cost of each hexside for a movement class, built once per game and class."""
    tables = game.derived(_edge_tables)
    costs = tables.get(klass)
    if costs is None:
        costs = tables[klass] = _edge_costs(game, board, klass)
    return costs


def _edge_tables(game: Game) -> dict[str, Costs]:
    """The game's hexside costs by movement class, filled as edge_costs() asks for each."""
    return {}


# --- where a unit may go ------------------------------------------------------------------

def area_allowed(game: Game, board: Board, state: GameState, piece: Piece, label: str) -> str:
    """Why `piece` may never be in `label` now ("" when it may) [3.6, 3.7, 3.9, 10.10]."""
    h = board.hex(label)
    nat = units.nation(game, piece)
    if nat == NAT_GERMAN:
        if h.region in (HOLLAND, LUXEMBOURG):
            return f"German units may never enter {h.region} [3.6, 3.7]"
        if h.west and h.region != GREATER_GERMANY:
            return "German units on the west map stay in Greater Germany [3.9]"
        if h.red_row:
            return "German units may never enter red row hexes [12.9]"
        if h.west and units.is_mech(game, piece):
            return "Panzer corps never operate on the west map [3.9]"
    elif nat == NAT_DUTCH and h.region != HOLLAND:
        return "Dutch units stay in Holland [3.6]"
    elif nat == NAT_BELGIAN and h.region not in (BELGIUM, GREATER_GERMANY):
        return "Belgian units act only in Belgium and Germany [3.6]"
    elif nat in (NAT_BRITISH, NAT_FRENCH):
        if h.region == HOLLAND and state.var(V_HOLLAND, "neutral") == "neutral":
            return "Holland is neutral: announce the violation first [3.6]"
        if h.region == BELGIUM and state.var(V_BELGIUM, "neutral") == "neutral":
            return "Belgium is neutral: announce the violation first [3.6]"
    if (nat == NAT_SOVIET and h.map_id != EAST) or (nat != NAT_GERMAN and nat != NAT_SOVIET
                                                    and h.map_id == EAST):
        return "Soviet units never leave the east map, nor west-map Allies the west [3.9]"
    if h.terrain == "ardennes" and not state.var(V_ARDENNES_OPEN, False):
        cav = units.is_cavalry(game, piece) and nat in (NAT_FRENCH, NAT_BELGIAN)
        if not cav and (nat != NAT_GERMAN or state.option("ardennes_binds_germans", True)):
            return "Only French and Belgian cavalry may enter the Ardennes until it opens [10.10]"
    return ""


def hostile(game: Game, board: Board, state: GameState, label: str, piece: Piece) -> bool:
    """An enemy unit or enemy intrinsic garrison holds the hex [10.7, 11.21]."""
    for q in state.pieces_at(label):
        if units.is_ground(game, q) and units.enemies(q.side, piece.side):
            return True
    return control.garrison_blocks(game, board, state, label, piece)


@dataclass(frozen=True)
class Reach:
    """Where a force may end its move, what it costs, and the path taken there."""

    costs: dict[str, float]
    prev: dict[str, str]
    start: str = ""

    def path(self, to: str) -> tuple[str, ...]:
        out = [to]
        while out[-1] != self.start:
            out.append(self.prev[out[-1]])
        return tuple(reversed(out))


Memo = dict[str, bool]


def force_reach(game: Game, board: Board, state: GameState, force: tuple[Piece, ...],
                budget: float, allow_minimum: bool,
                memos: tuple[Memo, Memo] | None = None) -> Reach:
    """[10.2-10.7] Every hex the force may stop in with its remaining MP (`budget`).

    `memos` (may pass, may stop, per hex) may be shared by single units alike in side,
    nationality and class: a unit never counts against itself outside its own hex."""
    start = force[0].location
    lead = force[0]
    tables = [edge_costs(game, board, k)
              for k in sorted({cost_class(game, state, p) for p in force})]
    soviet = units.nation(game, lead) == NAT_SOVIET
    memo, stops = memos if memos is not None else ({}, {})
    here = {p.location for p in force}  # where the movers stand: never shared

    def can_stop(b: str) -> bool:
        ok = stops.get(b)
        if ok is None:
            ok = stacking.can_enter(game, board, state, b, force, stop=True)
            if b not in here:
                stops[b] = ok
        return ok

    def enterable(b: str) -> bool:
        ok = memo.get(b) if b not in here else None
        if ok is None:
            ok = not hostile(game, board, state, b, lead) and all(
                not area_allowed(game, board, state, p, b) for p in force
            ) and stacking.can_enter(game, board, state, b, force, stop=False)
            if b not in here:
                memo[b] = ok
        return ok

    only = tables[0] if len(tables) == 1 else None
    red = {h for h, x in board.hexes.items() if x.red_row} if soviet else set()
    zone = interdiction.zone(board, state, lead.side)  # [8.3] doubled costs

    def step(a: str, b: str) -> float | None:
        if only is not None:
            worst = only.get((a, b))
            if worst is None:
                return None
        else:
            worst = 0.0
            for t in tables:
                c = t.get((a, b))
                if c is None:
                    return None
                worst = max(worst, c)
        # [12.9] a Soviet unit off the red row may not move back onto it.
        if b in red and a not in red:
            return None
        if zone:
            worst *= interdiction.factor(zone, a, b)
        return worst if enterable(b) else None

    r = reachable(start, budget, board.neighbors.__getitem__, step)
    costs: dict[str, float] = {}
    prev = dict(r.prev)
    for label, c in r.cost.items():
        if label != start and can_stop(label):
            costs[label] = c
    if allow_minimum:  # [10.3] one hex for the whole MF, whatever it costs
        for b in board.neighbors[start]:
            if b not in costs and step_legal(step, start, b) and can_stop(b):
                costs[b] = budget
                prev[b] = start
    return Reach(costs, prev, start)


def step_legal(step: Callable[[str, str], float | None], a: str, b: str) -> bool:
    return step(a, b) is not None


# --- the movement step -------------------------------------------------------------------

def movers(game: Game, board: Board, state: GameState, step_id: str) -> list[Piece]:
    side, map_id = STEP_MOVERS[step_id]
    out = []
    for p in state.pieces.values():
        if p.side != side or board.map_of(p.location) != map_id:
            continue
        if not units.stacks(game, p):
            continue  # static units never move [2.10, 10.4]
        if units.nation(game, p) == NAT_BELGIAN and state.var(V_BELGIUM) != "allied":
            continue  # neutral or frozen Belgians stay put [3.4, 3.6]
        if units.nation(game, p) == NAT_DUTCH and p.side != GERMAN:
            continue  # neutral Dutch never move [3.4]
        out.append(p)
    return sorted(out, key=lambda p: p.id)


def mp_left(game: Game, state: GameState, piece: Piece, map_id: str) -> float:
    used = float(piece.attrs.get(A_MP_USED, 0.0))
    mf = units.movement_factor(game, state, piece, map_id)
    if oos_at_start(game, state, piece):
        mf = (mf + 1) // 2  # [6.7] halved for the phase, rounded up
    return mf - used


def oos_at_start(game: Game, state: GameState, piece: Piece) -> bool:
    """[6.7] Out of supply at the start of its movement: judged now until it moves."""
    if float(piece.attrs.get(A_MP_USED, 0.0)) > 0:
        return bool(piece.attrs.get(A_OOS_MOVE, False))
    return not supply.supplied(game, board_of(game), state, piece)


def enter_step(game: Game, board: Board, state: GameState, step_id: str) -> Outcome:
    """Start of a movement phase: note each unit's parent stack [10.4]."""
    for p in movers(game, board, state, step_id):
        attrs = p.attrs.set(A_PHASE_HEX, p.location).set(A_MP_USED, 0.0)
        state = state.with_piece(replace(p, attrs=attrs.remove(A_DONE) if A_DONE in attrs
                                         else attrs))
    return Outcome(state.with_var(V_MOVING_PARENT, ""))


PHASE_ATTRS = (A_MP_USED, A_PHASE_HEX, A_DONE, A_MOVED, A_OOS_MOVE, A_MA_DONE)


def exit_step(state: GameState) -> Outcome:
    for p in state.pieces.values():
        if any(k in p.attrs for k in PHASE_ATTRS):
            attrs = p.attrs
            for k in PHASE_ATTRS:
                if k in attrs:
                    attrs = attrs.remove(k)
            state = state.with_piece(replace(p, attrs=attrs))
    if V_MOVING_PARENT in state.vars:
        state = replace(state, vars=state.vars.remove(V_MOVING_PARENT))
    return Outcome(interdiction.clear(state))  # [8.3] interdictors leave


def parent(piece: Piece) -> str:
    return str(piece.attrs.get(A_PHASE_HEX, piece.location))


def may_move(state: GameState, piece: Piece) -> bool:
    """Not finished: a force stops for good once another parent stack moves [10.2, 10.5]."""
    return not piece.attrs.get(A_DONE, False)


def reach_of(game: Game, board: Board, state: GameState, force: tuple[Piece, ...],
             map_id: str, memos: tuple[Memo, Memo] | None = None) -> Reach:
    budget = min(mp_left(game, state, p, map_id) for p in force)
    fresh = all(float(p.attrs.get(A_MP_USED, 0.0)) == 0.0 for p in force)
    if budget <= 0:
        return Reach({}, {}, force[0].location)
    return force_reach(game, board, state, force, budget, fresh, memos)


def force_of(game: Game, board: Board, state: GameState, action: Action,
             step_id: str) -> tuple[Piece, ...]:
    """The unit or stack an action moves, checked against 10.4."""
    ids = action.args.get("pieces")
    if ids is None:
        ids = (action.args.get("piece"),)
    if not isinstance(ids, tuple) or not ids or len(set(ids)) != len(ids):
        raise IllegalAction("Name the unit (piece) or the units (pieces) to move.")
    legal = {p.id: p for p in movers(game, board, state, step_id)}
    force = []
    for pid in ids:
        if not isinstance(pid, str) or pid not in state.pieces:
            raise IllegalAction(f"There is no unit {pid!r}.")
        p = state.piece(pid)
        if pid not in legal:
            what = hidden.display_name(game, state, p)
            raise IllegalAction(f"{what} may not move in this phase [5.2, 10.1].")
        if not may_move(state, p):
            raise IllegalAction(f"{hidden.display_name(game, state, p)} has finished moving: "
                                "another stack has moved since [10.2, 10.5].")
        force.append(p)
    if len({p.location for p in force}) > 1 or len({parent(p) for p in force}) > 1:
        raise IllegalAction("Units move together only if they began the phase stacked "
                            "together and are still together [10.4].")
    return tuple(force)


def apply_move(game: Game, board: Board, state: GameState, action: Action, step_id: str,
               name: Callable[[Piece], str]) -> Outcome:
    force = force_of(game, board, state, action, step_id)
    to = action.args.get("to")
    _, map_id = STEP_MOVERS[step_id]
    if not isinstance(to, str) or not board.on_map(to):
        raise IllegalAction(f"{to!r} is not a hex of the map.")
    r = reach_of(game, board, state, force, map_id)
    if to not in r.costs:
        raise IllegalAction(why_not(game, board, state, force, to, map_id))
    cost = r.costs[to]
    path = r.path(to)
    oos = {p.id for p in force if oos_at_start(game, state, p)}  # [6.7] before moving
    events: list[Event] = []
    # [10.2, 10.5] Starting another parent stack ends the earlier one's movement.
    was = str(state.var(V_MOVING_PARENT, ""))
    now = parent(force[0])
    if was and was != now:
        for p in state.pieces.values():
            if parent(p) == was and p.attrs.get(A_MOVED) and A_PHASE_HEX in p.attrs:
                state = state.with_piece(p.with_attr(A_DONE, True))
    state = state.with_var(V_MOVING_PARENT, now)
    for p in force:
        p = state.piece(p.id)
        used = float(p.attrs.get(A_MP_USED, 0.0)) + cost
        attrs = p.attrs.set(A_OOS_MOVE, True) if p.id in oos else p.attrs
        state = state.with_piece(replace(p, location=to, attrs=attrs.set(A_MP_USED, used)
                                         .set(A_MOVED, True)))
    for p in force:
        state = control.enter(game, board, state, p, path[1:])
    lost = forts.return_lost(game, board, state, path[1:])  # [9.8] forts the Germans took
    state = lost.state
    events.extend(lost.events)
    who = ", ".join(name(p) for p in force)
    route = " → ".join(path)
    events.append(Event("move", f"{who}: {route} ({cost:g} MP)", force[0].side, "10.2"))
    if any(board.hex(h).region == LUXEMBOURG for h in path[1:]) and \
            not state.var(V_LUXEMBOURG, False):
        state = state.with_var(V_LUXEMBOURG, True)
        events.append(Event("info", "The Anglo-French enter Luxembourg [3.7]",
                            force[0].side, "3.7"))
    return Outcome(state, tuple(events))


def why_not(game: Game, board: Board, state: GameState, force: tuple[Piece, ...], to: str,
            map_id: str) -> str:
    """The reason a destination is illegal, in words for the player."""
    for p in force:
        reason = area_allowed(game, board, state, p, to)
        if reason:
            return reason + "."
    if hostile(game, board, state, to, force[0]):
        return f"{to} is held by the enemy: units may not enter it [10.7, 11.21]."
    reason = stacking.why_not(game, board, state, to, force, stop=True)
    if reason:
        return reason + "."
    left = min(mp_left(game, state, p, map_id) for p in force)
    return f"{to} is out of reach: {left:g} MP left and no legal path [10.2, 10.3]."
