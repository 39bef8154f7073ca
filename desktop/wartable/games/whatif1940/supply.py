"""Supply [6.1-6.12, 8.2, 12.4]: which units are in supply, and why (or why not).

Other parts ask only these questions:
  status(...)             is this unit in supply now, and why (or why not) [6.2-6.7]
  supplied(...)           the same, as a bool
  distance_to_supply(...) how many hexes from a hex to the nearest hex from which a unit of
                          that nationality would be in supply (retreat "toward supply")
  regular_supply(...)     in supply by a line, not by the coast alone: may mobile assault [10.17]

One flood fill per (supply group, map) per state answers every unit: a line is symmetric,
so filling outward from the sources finds every hex a line can reach them from. The results
are kept for the last few states by identity (states are immutable).

The groups and their sources (data: tables.supply):
  allied west    the French edge 1700-1011; North Sea coastal hexes (no line) [6.4]
  german west    any Ruhr city, lines only inside Germany [6.4, 6.7]
  german east    Greater Germany and its six-hex belt: any line to 4300-5200; elsewhere at
                 most six hexes to a Rollbahn hex, along it to 5005 and on [6.5]; Baltic
                 coastal hexes 5101-6017 (no line)
  soviet         the red row 4201-6028; Moscow and Leningrad for units inside while never
                 German-controlled [6.5]
Lines never enter enemy-occupied hexes nor enemy-controlled forts, cities or Ruhr cities,
nor all-sea hexes or hexsides; German east lines also avoid all-lake ones [6.7].
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from wartable.engine.rules import Game
from wartable.games.whatif1940 import units
from wartable.games.whatif1940.board import Board
from wartable.games.whatif1940.ids import (
    A_STEP,
    BELGIUM,
    EAST,
    FORMER_POLAND,
    GERMAN,
    GREATER_GERMANY,
    HOLLAND,
    LENINGRAD,
    MOSCOW,
    NAT_BELGIAN,
    NAT_DUTCH,
    NAT_GERMAN,
    NAT_SOVIET,
    V_AIR_SUPPRESSED,
    V_AIR_USED,
    V_BELGIUM,
    V_HOLLAND,
    WEST,
)
from wartable.games.whatif1940.steps import control
from wartable.model.parse import Reader
from wartable.model.state import GameState, Piece

SOURCE = "whatif1940 data/supply.toml"
FLIEGER = "ger_7th_flieger"
FORT_MARKER = "sov_fort"  # a semi-permanent fort [9.8] is a fortification for 6.7
FAR = 999  # distance_to_supply when no supplied hex can be reached at all

# The supply groups: who traces to which sources.
ALLIED_WEST = "allied_west"
GERMAN_WEST = "german_west"
GERMAN_EAST = "german_east"
SOVIET_EAST = "soviet"

ROLLBAHN = "rollbahn"  # German east: Rollbahn hexes open to 5005
ROLLBAHN_REACH = "rollbahn_reach"  # German east: within six hexes of those
ROLLBAHN_FAR = "rollbahn_far"  # German east: any distance from those (for the reasons)
SOVIET_NO_POLAND = "soviet_no_poland"  # Soviet lines that avoid Former Poland [6.12]
BASE_GROUP = {ROLLBAHN: GERMAN_EAST, ROLLBAHN_REACH: GERMAN_EAST, ROLLBAHN_FAR: GERMAN_EAST,
              SOVIET_NO_POLAND: SOVIET_EAST}

SOURCES_TEXT = {
    ALLIED_WEST: "the French map edge 1700–1011",
    GERMAN_WEST: "a Ruhr city",
    GERMAN_EAST: "the Greater Germany edge 4300–5200",
    SOVIET_EAST: "the red row 4201–6028",
}


@dataclass(frozen=True)
class SupplyStatus:
    supplied: bool
    coastal_only: bool = False  # in supply by the coast alone: no mobile assault [6.4, 6.5]
    reason: str = ""  # the source reached, or what cut the line, for the log and overlay
    # [6.12] Soviet, supplied, and every line runs through Former Poland (or starts there).
    via_former_poland: bool = False
    traced: bool = True  # False: needs no line (boxes, aircraft, Dutch at home...)


# --- the data ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Config:
    allied_sources: tuple[str, ...]
    german_east_sources: tuple[str, ...]
    belt: int
    reach: int
    terminus: str
    baltic: tuple[int, int]
    rollbahn: dict[str, tuple[str, ...]]  # Rollbahn hex -> its neighbours along a route
    routes: tuple[tuple[str, tuple[str, ...]], ...]  # (name, hexes), for the overlay


def read_config(tables: Mapping[str, Any], board: Board) -> Config:
    """tables.supply, checked against the built maps."""
    r = Reader(tables, SOURCE, "tables").sub("supply")
    r.known("rule", "anglo_french_sources", "german_east_sources", "greater_germany_belt",
            "rollbahn_reach", "rollbahn_terminus", "baltic_coast", "rollbahn")

    def labels(key: str, map_id: str) -> tuple[str, ...]:
        out = tuple(str(x) for x in r.seq(key, nonempty=True, of="text"))
        for h in out:
            if board.map_of(h) != map_id:
                raise r.fail(key, f"{h} is not a hex of {map_id}")
        return out

    af = labels("anglo_french_sources", WEST)
    ge = labels("german_east_sources", EAST)
    terminus = r.text("rollbahn_terminus")
    if board.map_of(terminus) != EAST:
        raise r.fail("rollbahn_terminus", f"{terminus} is not a hex of the east map")
    coast = r.seq("baltic_coast", of="text")
    if len(coast) != 2:
        raise r.fail("baltic_coast", "must be [first, last]")
    graph: dict[str, set[str]] = {}
    routes = []
    for item in r.items("rollbahn"):
        item.known("id", "name", "provisional", "note", "hexes")
        hexes = tuple(str(x) for x in item.seq("hexes", nonempty=True, of="text"))
        if hexes[0] != terminus:
            raise item.fail("hexes", f"must start at the terminus {terminus} [6.5]")
        for a, b in zip(hexes, hexes[1:], strict=False):
            if b not in board.neighbors.get(a, ()):
                raise item.fail("hexes", f"{a} and {b} are not adjacent")
            graph.setdefault(a, set()).add(b)
            graph.setdefault(b, set()).add(a)
        routes.append((item.text("name"), hexes))
    return Config(af, ge, r.integer("greater_germany_belt", minimum=0),
                  r.integer("rollbahn_reach", minimum=0), terminus,
                  (int(coast[0]), int(coast[1])),
                  {h: tuple(sorted(ns)) for h, ns in graph.items()}, tuple(routes))


@dataclass(frozen=True)
class Static:
    """What the maps and data fix once: source sets, coasts, the Greater Germany belt."""

    cfg: Config
    ruhr: tuple[str, ...]
    north_sea_coast: frozenset[str]
    baltic_coast: frozenset[str]
    belt: frozenset[str]  # east hexes in or within `belt` hexes of Greater Germany
    red_row: tuple[str, ...]
    former_poland: frozenset[str]


def _coastal(board: Board, label: str) -> bool:
    """A land hex touching all-sea (a hex or a hexside) [6.4, 6.5]."""
    if board.hex(label).terrain in ("sea", "lake"):
        return False
    return any(board.hex(n).terrain == "sea" or "sea" in board.side_features(label, n)
               for n in board.neighbors[label])


def static(game: Game, board: Board) -> Static:
    key = "supply"  # the board is the game's own (board_of: Game.derived)
    hit = board.memo.get(key)
    if hit is None:
        cfg = read_config(game.definition.tables, board)
        east = board.labels(EAST)
        west = board.labels(WEST)
        lo, hi = cfg.baltic
        gg = [h for h in east if board.hex(h).region == GREATER_GERMANY]
        hit = board.memo[key] = Static(
            cfg,
            tuple(h for h in west if board.hex(h).ruhr),
            frozenset(h for h in west if _coastal(board, h)),
            frozenset(h for h in east if lo <= int(h) <= hi and _coastal(board, h)),
            frozenset(board.distances(gg, cfg.belt)),
            tuple(h for h in east if board.hex(h).red_row),
            frozenset(h for h in east if board.hex(h).region == FORMER_POLAND))
    result: Static = hit
    return result


# --- one state's traces --------------------------------------------------------------------

Step = Callable[[str, str], bool]


Adjacency = dict[str, tuple[str, ...]]  # hex -> the neighbours a line may step to


def _adjacency(board: Board, step: Step) -> Adjacency:
    return {h: tuple(n for n in ns if step(h, n)) for h, ns in board.neighbors.items()}


def _flood(adj: Adjacency, sources: Iterable[str], blocked: frozenset[str],
           limit: int | None = None) -> dict[str, int]:
    """Hexes a line can reach the sources from, with its length in hexes."""
    dist = {s: 0 for s in sources if s not in blocked}
    queue = deque(dist)
    while queue:
        here = queue.popleft()
        d = dist[here] + 1
        if limit is not None and d > limit:
            continue
        for n in adj[here]:
            if n not in dist and n not in blocked:
                dist[n] = d
                queue.append(n)
    return dist


@dataclass
class Trace:
    """The supply of one state, filled in group by group as asked."""

    game: Game
    board: Board
    state: GameState
    fixed: Static
    blocked: dict[str, frozenset[str]] = field(default_factory=dict)  # camp -> hexes
    why_blocked: dict[str, dict[str, str]] = field(default_factory=dict)
    floods: dict[str, dict[str, int]] = field(default_factory=dict)
    statuses: dict[str, SupplyStatus] = field(default_factory=dict)
    distances: dict[Any, dict[str, int]] = field(default_factory=dict)
    air: dict[tuple[str, str], bool] = field(default_factory=dict)
    reasons: dict[tuple[str, str], str] = field(default_factory=dict)  # (group, hex) -> text

    # -- what blocks a line [6.3, 6.7] --
    def blocked_for(self, camp: str) -> frozenset[str]:
        got = self.blocked.get(camp)
        if got is None:
            why: dict[str, str] = {}
            forts: set[str] = set()
            for p in self.state.pieces.values():
                if not self.board.on_map(p.location):
                    continue
                if p.type == FORT_MARKER:
                    forts.add(p.location)
                elif units.camp(p.side) != camp and units.is_ground(self.game, p):
                    why[p.location] = f"{self.side_name(p.side)} units at {p.location}"
            for h in self.fortlike(forts):
                if h in why:
                    continue
                owner = control.controller(self.board, self.state, h)
                if owner is not None and units.camp(owner) != camp:
                    x = self.board.hex(h)
                    what = ("Ruhr city" if x.ruhr else "city" if x.city else "fort")
                    why[h] = f"{self.side_name(owner)}-controlled {what} {h}"
            got = self.blocked[camp] = frozenset(why)
            self.why_blocked[camp] = why
        return got

    def fortlike(self, forts: set[str]) -> list[str]:
        key = "supply_fortlike"
        fixed = self.board.memo.get(key)
        if fixed is None:
            fixed = self.board.memo[key] = tuple(
                h for h, x in self.board.hexes.items() if x.city or x.fortified)
        return list(fixed) + sorted(forts)

    def side_name(self, side: str) -> str:
        try:
            return self.game.definition.side(side).name
        except (KeyError, ValueError):
            return side

    # -- how a line may step, per group [6.7] --
    def adj(self, group: str) -> Adjacency:
        """[6.7] Where a line of the group may step: built once per map set and variant."""
        group = BASE_GROUP.get(group, group)
        barred = self.neutral_regions() if group == ALLIED_WEST else ()
        key = ("supply_adj", group, barred)
        got = self.board.memo.get(key)
        if got is None:
            got = self.board.memo[key] = _adjacency(self.board, self.step_of(group))
        result: Adjacency = got
        return result

    def step_of(self, group: str) -> Step:
        b = self.board
        if group == GERMAN_EAST:
            def step(a: str, n: str) -> bool:
                return b.hex(n).terrain not in ("sea", "lake") and b.hex(n).region != "Sweden" \
                    and not (b.side_features(a, n) & {"sea", "lake"})
            return step
        if group == GERMAN_WEST:
            def step_gw(a: str, n: str) -> bool:
                return b.hex(n).region == GREATER_GERMANY and b.hex(n).terrain != "sea" \
                    and "sea" not in b.side_features(a, n)
            return step_gw
        barred = self.neutral_regions() if group == ALLIED_WEST else ("Sweden",)

        def step_any(a: str, n: str) -> bool:
            return b.hex(n).terrain != "sea" and b.hex(n).region not in barred \
                and "sea" not in b.side_features(a, n)
        return step_any

    def neutral_regions(self) -> tuple[str, ...]:
        """Allied lines do not run through neutral countries (ours; NOTES.md)."""
        out = []
        if self.state.var(V_HOLLAND, "neutral") == "neutral":
            out.append(HOLLAND)
        if self.state.var(V_BELGIUM, "neutral") != "allied":
            out.append(BELGIUM)
        return tuple(out)

    def camp_of(self, group: str) -> str:
        group = BASE_GROUP.get(group, group)
        return GERMAN if group in (GERMAN_EAST, GERMAN_WEST) else "allied"

    # -- the floods --
    def flood(self, group: str) -> dict[str, int]:
        got = self.floods.get(group)
        if got is not None:
            return got
        fx = self.fixed
        blocked = self.blocked_for(self.camp_of(group))
        step = self.adj(group)
        if group == ALLIED_WEST:
            got = _flood(step, fx.cfg.allied_sources, blocked)
        elif group == GERMAN_WEST:
            got = _flood(step, fx.ruhr, blocked)
        elif group == SOVIET_EAST:
            got = _flood(step, fx.red_row, blocked)
        elif group == SOVIET_NO_POLAND:  # [6.12] lines that avoid Former Poland
            fp = blocked | fx.former_poland
            got = _flood(step, fx.red_row, fp)
        elif group == GERMAN_EAST:
            got = _flood(step, fx.cfg.german_east_sources, blocked)
        elif group == ROLLBAHN:
            got = self.rollbahn(blocked)
        elif group == ROLLBAHN_REACH:
            got = _flood(step, self.flood(ROLLBAHN), blocked, fx.cfg.reach)
        elif group == ROLLBAHN_FAR:
            got = _flood(step, self.flood(ROLLBAHN), blocked)
        else:
            raise KeyError(group)
        self.floods[group] = got
        return got

    def rollbahn(self, blocked: frozenset[str]) -> dict[str, int]:
        """[6.5] Rollbahn hexes with an open road to 5005, 5005 itself in supply."""
        cfg = self.fixed.cfg
        if cfg.terminus not in self.flood(GERMAN_EAST):
            return {}
        dist = {cfg.terminus: 0}
        queue = deque(dist)
        while queue:
            here = queue.popleft()
            for n in cfg.rollbahn.get(here, ()):
                if n not in dist and n not in blocked:
                    dist[n] = dist[here] + 1
                    queue.append(n)
        return dist

    def enemy_air(self, camp: str, map_id: str) -> bool:
        """[8.2] Is an unsuppressed enemy aircraft available on the map?"""
        key = (camp, map_id)
        got = self.air.get(key)
        if got is None:
            gone = set(self.state.var(V_AIR_SUPPRESSED, ()) or ()) | \
                set(self.state.var(V_AIR_USED, ()) or ())
            boxes = {"box:" + str(x["id"]): str(x.get("map", ""))
                     for x in self.game.definition.tables["boxes"]["list"]}
            got = False
            for p in self.state.pieces.values():
                if units.camp(p.side) == camp or units.mobility(self.game, p) != "air" \
                        or p.id in gone:
                    continue
                where = self.board.map_of(p.location) or \
                    ("whatif1940/" + boxes[p.location] if p.location in boxes else None)
                if where == map_id and p.location != "box:dead":
                    got = True
                    break
            self.air[key] = got
        return got


_TRACES: list[Trace] = []  # the last few states' traces, newest last


def trace(game: Game, board: Board, state: GameState) -> Trace:
    """The state's supply trace (kept while the state is among the last few asked)."""
    for t in _TRACES:
        if t.state is state and t.game is game:
            return t
    t = Trace(game, board, state, static(game, board))
    _TRACES.append(t)
    if len(_TRACES) > 4:
        del _TRACES[0]
    return t


# --- one unit ------------------------------------------------------------------------------

def group_of(game: Game, board: Board, piece: Piece) -> str | None:
    """The supply group a unit on the map traces with (None: it needs no line)."""
    nat = units.nation(game, piece)
    h = board.hex(piece.location)
    if nat == NAT_SOVIET:
        return SOVIET_EAST
    if nat == NAT_GERMAN:
        return GERMAN_EAST if h.map_id == EAST else GERMAN_WEST
    if nat == NAT_DUTCH:
        return None if h.region == HOLLAND else (GERMAN_WEST if piece.side == GERMAN else None)
    if nat == NAT_BELGIAN and h.region == BELGIUM:
        return None
    return ALLIED_WEST


def status(game: Game, board: Board, state: GameState, piece: Piece) -> SupplyStatus:
    t = trace(game, board, state)
    got = t.statuses.get(piece.id)
    if got is None or state.pieces.get(piece.id) is not piece:
        got = _status(t, piece)
        if state.pieces.get(piece.id) is piece:
            t.statuses[piece.id] = got
    return got


def _status(t: Trace, piece: Piece, explain: bool = True) -> SupplyStatus:
    """The unit's status; without `explain` an OOS reason is not worked out (probes)."""
    game, board, state = t.game, t.board, t.state
    mob = units.mobility(game, piece)
    if mob == "air":
        return SupplyStatus(True, reason="Aircraft need no supply [8.6].", traced=False)
    if mob == "marker":
        return SupplyStatus(True, reason="Markers need no supply.", traced=False)
    if not board.on_map(piece.location):
        if "romania" in piece.location:
            return SupplyStatus(True, reason="In Romania: always in supply [12.4, 12.8].",
                                traced=False)
        return SupplyStatus(True, reason="Off the maps (holding box or pool): not traced "
                            "(ours, NOTES.md).", traced=False)
    here = piece.location
    h = board.hex(here)
    nat = units.nation(game, piece)
    group = group_of(game, board, piece)
    if group is None:
        country = "Holland" if nat == NAT_DUTCH else "Belgium"
        return SupplyStatus(True, reason=f"In supply [6.4]: in {country}, its own country.",
                            traced=False)
    fx = t.fixed
    regular = _regular(t, group, here)
    if group == SOVIET_EAST and not regular and here in (MOSCOW, LENINGRAD):
        if not control.ever_german(board, state, here):
            city = "Moscow" if here == MOSCOW else "Leningrad"
            return SupplyStatus(True, reason=f"In supply [6.5]: inside {city}, never yet "
                                "German-controlled.")
    if regular is not None:
        fp = False
        if group == SOVIET_EAST:
            fp = h.region == FORMER_POLAND or _dist(t, SOVIET_NO_POLAND, here) is None
        return SupplyStatus(True, reason=regular, via_former_poland=fp)
    if group == ALLIED_WEST and here in fx.north_sea_coast:
        return SupplyStatus(True, True, "Coastal supply only [6.4]: a North Sea coastal hex "
                            "(no line to the French edge; no mobile assault [10.17]).")
    if group == GERMAN_EAST and here in fx.baltic_coast:
        return SupplyStatus(True, True, "Coastal supply only [6.5]: a Baltic coastal hex "
                            "5101–6017 (no regular line; no mobile assault [10.17]).")
    if piece.type == FLIEGER:
        if not t.enemy_air(t.camp_of(group), h.map_id):
            return SupplyStatus(True, reason="In supply [6.6]: the 7th Flieger Corps needs no "
                                "line while no unsuppressed enemy aircraft is on its map [8.2].")
        return SupplyStatus(False, reason="Out of supply [8.2]: the 7th Flieger Corps has no "
                            "regular line and unsuppressed enemy aircraft are on its map.")
    return SupplyStatus(False, reason=_why_cut(t, group, here) if explain else
                        "Out of supply [6.3].")


def _dist(t: Trace, group: str, here: str) -> int | None:
    """The length of the unit's line in the group's flood, or None."""
    flood = t.flood(group)
    d = flood.get(here)
    if d is not None or here not in t.blocked_for(t.camp_of(group)):
        return d
    # The unit's own hex never blocks its own line (say, a city it holds without control,
    # as Belgians do): the line steps out of it into a neighbour.
    adj = t.adj(group)
    ds = [flood[n] + 1 for n in t.board.neighbors[here] if n in flood and here in adj[n]]
    best = min(ds) if ds else None
    if group == ROLLBAHN_REACH and best is not None and best > t.fixed.cfg.reach:
        return None
    return best


def _regular(t: Trace, group: str, here: str) -> str | None:
    """The reason text when the hex has a line to its group's sources, else None."""
    if group != GERMAN_EAST:
        if _dist(t, group, here) is not None:
            return f"In supply [6.3]: a line to {SOURCES_TEXT[group]}."
        return None
    fx = t.fixed
    if here in fx.belt:
        if _dist(t, GERMAN_EAST, here) is not None:
            return "In supply [6.5]: in or within six hexes of Greater Germany, a line to " \
                "4300–5200."
        return None
    d = _dist(t, ROLLBAHN_REACH, here)
    if d is not None:
        return f"In supply [6.5]: {d} hex(es) to a Rollbahn, along it to 5005, on to 4300–5200."
    return None


def _why_cut(t: Trace, group: str, here: str) -> str:
    """[6.3, 6.7] What cuts the unit off, for the log and the overlay."""
    got = t.reasons.get((group, here))
    if got is None:
        got = t.reasons[(group, here)] = _cut_reason(t, group, here)
    return got


def _cut_reason(t: Trace, group: str, here: str) -> str:
    fx, b = t.fixed, t.board
    camp = t.camp_of(group)
    blocked = t.blocked_for(camp)
    step = t.adj(group)
    if group == GERMAN_EAST and here not in fx.belt and _dist(t, GERMAN_EAST, here) is not None:
        rb = t.flood(ROLLBAHN)
        if not rb:
            return "Out of supply [6.5]: 5005, where the Rollbahnen end, is cut off from " \
                "4300–5200."
        d = t.flood(ROLLBAHN_FAR).get(here)
        far = f"{d} hexes" if d is not None else "no open path"
        return f"Out of supply [6.5]: {far} to the nearest open Rollbahn hex (at most " \
            f"{fx.cfg.reach}), more than six hexes from Greater Germany."
    # The unit's pocket: the hexes its lines reach; what borders it is what cuts it.
    pocket = _flood(step, [here], frozenset(x for x in blocked if x != here))
    why = t.why_blocked.get(camp, {})
    near: dict[str, int] = {}
    for p, d in pocket.items():
        for n in b.neighbors[p]:
            if n in blocked and n != here and n in step[p]:
                near[n] = min(near.get(n, d + 1), d + 1)
    cutters = sorted(near, key=lambda n: (near[n], n))
    src = SOURCES_TEXT[group]
    if group == GERMAN_EAST and here not in fx.belt:
        src = "a Rollbahn within six hexes (then 5005 and 4300–5200)"
    if not cutters:
        return f"Out of supply [6.7]: no land path to {src}."
    shown = "; ".join(why.get(n, n) for n in cutters[:6])
    more = f" (and {len(cutters) - 6} more)" if len(cutters) > 6 else ""
    return f"Out of supply [6.3, 6.7]: line blocked by {shown}{more}; sources: {src}."


def _quick(game: Game, board: Board, state: GameState, piece: Piece) -> SupplyStatus:
    """The status without the reason for a cut line (cheap for probes at other hexes)."""
    t = trace(game, board, state)
    got = t.statuses.get(piece.id)
    if got is not None and state.pieces.get(piece.id) is piece:
        return got
    return _status(t, piece, explain=False)


def supplied(game: Game, board: Board, state: GameState, piece: Piece) -> bool:
    return _quick(game, board, state, piece).supplied


def regular_supply(game: Game, board: Board, state: GameState, piece: Piece) -> bool:
    """[10.17] In supply by a line (not the coast alone): may mobile assault."""
    s = _quick(game, board, state, piece)
    return s.supplied and not s.coastal_only


def _supply_key(game: Game, board: Board, piece: Piece) -> tuple[str | None, str, str]:
    group = group_of(game, board, piece) if board.on_map(piece.location) else None
    return group, units.nation(game, piece), piece.side


def supplied_hexes(game: Game, board: Board, state: GameState, piece: Piece) -> frozenset[str]:
    """Every hex where `piece` would be in supply now (coastal supply included)."""
    t = trace(game, board, state)
    key = ("hexes", *_supply_key(game, board, piece))
    got = t.distances.get(key)
    if got is None:
        group, nat, _ = key[1:]
        fx = t.fixed
        out: set[str] = set()
        if nat == NAT_DUTCH:
            out |= {h for h, x in board.hexes.items() if x.region == HOLLAND}
        if nat == NAT_BELGIAN:
            out |= {h for h, x in board.hexes.items() if x.region == BELGIUM}
        if group == ALLIED_WEST or nat == NAT_BELGIAN:
            out |= set(t.flood(ALLIED_WEST)) | fx.north_sea_coast
        elif group == GERMAN_WEST:
            out |= set(t.flood(GERMAN_WEST))
        elif group == GERMAN_EAST:
            out |= {h for h in t.flood(GERMAN_EAST) if h in fx.belt}
            out |= set(t.flood(ROLLBAHN_REACH)) | fx.baltic_coast
        elif group == SOVIET_EAST:
            out |= set(t.flood(SOVIET_EAST))
            out |= {c for c in (MOSCOW, LENINGRAD) if not control.ever_german(board, state, c)}
        got = t.distances[key] = {h: 0 for h in out}
    return frozenset(got)


def distance_to_supply(game: Game, board: Board, state: GameState, piece: Piece,
                       hex_id: str) -> int:
    """Hexes from hex_id to the nearest hex where `piece` would be in supply (0 = there)."""
    t = trace(game, board, state)
    key = ("dist", *_supply_key(game, board, piece))
    got = t.distances.get(key)
    if got is None:
        got = t.distances[key] = board.distances(
            supplied_hexes(game, board, state, piece), FAR)
    return got.get(hex_id, FAR)


def all_statuses(game: Game, board: Board, state: GameState) -> dict[str, SupplyStatus]:
    """Every ground unit on the maps, for the overlay, the invariants and the benchmark."""
    return {p.id: status(game, board, state, p) for p in state.pieces.values()
            if board.on_map(p.location) and units.is_ground(game, p)}


def problems(game: Game, board: Board, state: GameState) -> list[str]:
    """Invariants of the supply states, cheap enough to run after every action: every
    status is well formed, steps are valid, and (every 16th state) a fresh trace agrees
    with the cached one."""
    out: list[str] = []
    for p in state.pieces.values():
        step = p.attrs.get(A_STEP)
        if step is not None and (step != 2 or units.full_steps(game, p) != 2):
            out.append(f"{p.id}: invalid step marker {step!r} [2.11]")
    got = all_statuses(game, board, state)
    for pid, s in got.items():
        p = state.piece(pid)
        if not s.reason:
            out.append(f"{pid}: supply status without a reason")
        if s.coastal_only and not s.supplied:
            out.append(f"{pid}: coastal-only yet out of supply")
        if s.via_former_poland and (units.nation(game, p) != NAT_SOVIET or not s.supplied):
            out.append(f"{pid}: a Former Poland line on a non-Soviet or OOS unit [6.12]")
    for p in state.pieces.values():
        if not board.on_map(p.location) and status(game, board, state, p).traced:
            out.append(f"{p.id}: traced for supply while off the maps at {p.location}")
    if state.serial % 16 == 0:
        fresh = Trace(game, board, state, static(game, board))
        for pid, s in got.items():
            if _status(fresh, state.piece(pid)) != s:
                out.append(f"{pid}: supply status differs between two traces of one state")
    return out
