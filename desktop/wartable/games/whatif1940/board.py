"""The two hex maps as the rules read them: per-hex facts looked up once, by printed label.

The west map labels run 1000-2919 and the east map 4200-6028 [2.2], so a label names
its map. Everything here is static: control, units and flags live in the state.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from wartable.core.errors import DataError
from wartable.engine.rules import Game
from wartable.games.whatif1940.ids import EAST, WEST
from wartable.maps.model import HexMap

CITY_KINDS = frozenset({"city", "capital"})


@dataclass(frozen=True, slots=True)
class Hex:
    label: str
    map_id: str
    terrain: str
    region: str | None
    features: frozenset[str]
    city: bool  # a city or Ruhr city [10.14]
    town: bool
    fortified: bool  # a printed fortification [10.13]

    @property
    def ruhr(self) -> bool:
        return "ruhr_city" in self.features

    @property
    def red_row(self) -> bool:
        return "red_row" in self.features

    @property
    def west(self) -> bool:
        return self.map_id == WEST


@dataclass(frozen=True)
class Board:
    hexes: dict[str, Hex]
    neighbors: dict[str, tuple[str, ...]]
    sides: dict[tuple[str, str], frozenset[str]]  # hexside features, both orders
    # Derived per-hex tables the rules build once (initial control, garrisons...).
    memo: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    def hex(self, label: str) -> Hex:
        return self.hexes[label]

    def side_features(self, a: str, b: str) -> frozenset[str]:
        return self.sides.get((a, b), frozenset())

    def on_map(self, location: str) -> bool:
        return location in self.hexes

    def map_of(self, location: str) -> str | None:
        h = self.hexes.get(location)
        return h.map_id if h else None

    def labels(self, map_id: str | None = None) -> tuple[str, ...]:
        return tuple(sorted(k for k, h in self.hexes.items() if map_id in (None, h.map_id)))

    def distances(self, sources: Iterable[str], limit: int = 99) -> dict[str, int]:
        """Hex steps from the nearest source (over every hex, water too), up to `limit`."""
        dist = {s: 0 for s in sources}
        queue = deque(dist)
        while queue:
            here = queue.popleft()
            if dist[here] >= limit:
                continue
            for n in self.neighbors[here]:
                if n not in dist:
                    dist[n] = dist[here] + 1
                    queue.append(n)
        return dist


def build_board(game: Game) -> Board:
    hexes: dict[str, Hex] = {}
    neighbors: dict[str, tuple[str, ...]] = {}
    sides: dict[tuple[str, str], frozenset[str]] = {}
    for map_id in (WEST, EAST):
        m = game.maps.get(map_id)
        if not isinstance(m, HexMap):
            raise DataError(game.definition.id, "maps", f"map {map_id} is missing or not a hex map")
        kinds: dict[str, set[str]] = {}
        for p in m.places:
            kinds.setdefault(p.hex_or_space, set()).add(p.kind)
        for label in m.location_ids():
            if label in hexes:
                raise DataError(map_id, label, "hex label is on both maps")
            info = m.info(label)
            k = kinds.get(label, set())
            feats = frozenset(info.features)
            hexes[label] = Hex(label, map_id, info.terrain, info.region, feats,
                               city=bool(k & CITY_KINDS) or "ruhr_city" in feats,
                               town="town" in k,
                               fortified="fortified" in feats or "fortress" in k)
            neighbors[label] = m.neighbors(label)
            for n in neighbors[label]:
                fs = m.hexside_features(label, n)
                if fs:
                    sides[(label, n)] = frozenset(fs)
    return Board(hexes, neighbors, sides)


def board_of(game: Game) -> Board:
    """The game's board, built once per loaded game (held with it: Game.derived)."""
    return game.derived(build_board)
