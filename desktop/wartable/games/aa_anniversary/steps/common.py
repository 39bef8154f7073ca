"""Shared queries of the A&A turn: powers, alliances, control, the world graph, unit stats.

State kept in `GameState.vars` (all plain values):
  ipcs      power -> IPCs in its treasury (never negative)
  control   land territory -> controlling power (neutral territories are absent)
  captured  territories captured this turn (aircraft may not land there, Noncombat Move)
  placed    territory -> units mobilized there this turn (Phase 6 limits)
Piece attrs: origin (where the unit began this turn's move), mp (movement used this turn),
cm (moved in Combat Move), nm (moved in Noncombat Move), damaged (battleship, one hit),
new (bought, waiting in the mobilization zone).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from wartable.core.frozen import FrozenMap
from wartable.engine.rules import Game
from wartable.games.aa_anniversary.combat import Catalog, UnitStats
from wartable.model.state import GameState, Piece

MOBILIZATION = "box:mobilization"


@dataclass(frozen=True)
class World:
    """The game's static facts, built once per Game."""

    catalog: Catalog
    sea: frozenset[str]
    land: frozenset[str]
    neutral: frozenset[str]
    ipc: FrozenMap[str, int]
    victory: frozenset[str]
    capital: FrozenMap[str, str]  # power -> capital territory
    original: FrozenMap[str, str]  # territory -> original owner
    neighbors: FrozenMap[str, tuple[str, ...]]
    canals: tuple[tuple[frozenset[str], tuple[str, ...]], ...]  # (sea zone pair, controllers)
    alliance: dict[str, str]  # power -> "axis" | "allies" (a dict: read very often)
    names: FrozenMap[str, str]  # space id -> the board's name, for the log


def world(game: Game) -> World:
    """The board's spaces, adjacency and alliances, built once per game (Game.derived)."""
    return game.derived(_build_world)


def _build_world(game: Game) -> World:
    t = game.definition.tables
    spaces: Mapping[str, Any] = t["spaces"]
    nb: dict[str, list[str]] = {s: [] for s in spaces}
    for a, b in t["adjacency"]:
        nb[a].append(b)
        nb[b].append(a)
    alliance = {p: a for a, ps in t["alliances"].items() for p in ps}
    return World(
        catalog=Catalog.from_unit_types(game.definition.unit_types),
        sea=frozenset(s for s, v in spaces.items() if v["sea"]),
        land=frozenset(s for s, v in spaces.items() if not v["sea"]),
        neutral=frozenset(s for s, v in spaces.items() if v.get("neutral", False)),
        ipc=FrozenMap({s: int(v.get("ipc", 0)) for s, v in spaces.items()}),
        victory=frozenset(s for s, v in spaces.items() if v.get("victory_city")),
        capital=FrozenMap({v["capital_of"]: s for s, v in spaces.items()
                            if v.get("capital_of")}),
        original=FrozenMap({s: str(v.get("original_owner", "")) for s, v in spaces.items()}),
        neighbors=FrozenMap({s: tuple(sorted(v)) for s, v in nb.items()}),
        canals=tuple((frozenset(c["sea_zones"]), tuple(c["controlled_by"]))
                     for c in t["canals"].values()),
        alliance=alliance,
        names=FrozenMap({s: str(v.get("name", s)) for s, v in spaces.items()}),
    )


class StateMemo:
    """Answers worked out for the few most recent states, kept with the state object (an
    answer holds only while the state is the very same object). A few, not one: the rules
    also look at variants of the prompted state (the board without one carrier, pg. 26)."""

    def __init__(self, size: int = 4) -> None:
        self.size = size
        self._entries: dict[int, tuple[GameState, dict[Any, object]]] = {}

    def __call__(self, state: GameState) -> dict[Any, object]:
        key = id(state)
        entry = self._entries.pop(key, None)
        if entry is None or entry[0] is not state:
            entry = (state, {})
            while len(self._entries) >= self.size:
                del self._entries[next(iter(self._entries))]  # the least recently used
        self._entries[key] = entry
        return entry[1]


def space_name(game: Game, space: object) -> str:
    """The board's name of a space ("Kazakh S.S.R."), as players read it in the log; any
    other value as itself (an illegal action may name no space at all)."""
    return world(game).names.get(space, str(space)) if isinstance(space, str) else repr(space)


def stats(game: Game, piece: Piece) -> UnitStats:
    return world(game).catalog[piece.type]


def turn_power(game: Game, state: GameState, index: int | None = None) -> str:
    pos = game.positions[state.step_index if index is None else index]
    if pos.side == "*":
        return ""
    order = state.var("turn_order") or tuple(s.id for s in game.definition.sides)
    k = game.definition.side_ids.index(pos.side)
    return str(order[k])


def allied(game: Game, a: str, b: str) -> bool:
    if a == b:
        return True
    al = world(game).alliance
    return al.get(a) == al.get(b)


def controller(state: GameState, space: str) -> str:
    return str(state.var("control", FrozenMap()).get(space, ""))


def friendly_space(game: Game, state: GameState, space: str, power: str) -> bool:
    """A land territory controlled by the power or an ally."""
    c = controller(state, space)
    return bool(c) and allied(game, c, power)


def enemy_units(game: Game, state: GameState, space: str, power: str) -> tuple[Piece, ...]:
    return tuple(p for p in state.pieces_at(space) if not allied(game, p.side, power))


def enemy_blocking_ships(game: Game, state: GameState, space: str, power: str) -> bool:
    """Enemy sea units other than submarines and transports stop movement (Sea Units:
    Submarines and Transports do not block, pg. 30, 31)."""
    for p in enemy_units(game, state, space, power):
        s = stats(game, p)
        if s.sea and not s.sub and not s.transport:
            return True
    return False


def ipcs(state: GameState, power: str) -> int:
    return int(state.var("ipcs", FrozenMap()).get(power, 0))


def with_ipcs(state: GameState, power: str, value: int) -> GameState:
    return state.with_var("ipcs", state.var("ipcs", FrozenMap()).set(power, max(0, value)))


def set_control(state: GameState, space: str, power: str) -> GameState:
    return state.with_var("control", state.var("control", FrozenMap()).set(space, power))


def capital_held(game: Game, state: GameState, power: str) -> bool:
    """Capturing and Liberating Capitals: China has no capital (always true)."""
    cap = world(game).capital.get(power)
    return cap is None or controller(state, cap) == power
