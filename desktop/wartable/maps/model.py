"""The map model: immutable hex maps and area maps behind one read-only interface.

Coordinates. Everything is in *map units*: x grows right (east), y grows down (south), the
same as a Qt scene. A hex map's units are whatever its `Layout` says (synthetic maps use a hex
circumradius of 1.0; built maps may use miles); area maps use the units of their polygons.
Off-map boxes are rectangles in the same units.

Locations. A counter's location is a string: a hex map's printed label ("4624", "E 0230"),
an area map's space id ("germany"), or ``"box:<id>"`` for an off-map box. Every `BoardMap`
method that takes a location accepts all three and raises `KeyError` for an unknown one.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, Protocol, TypeAlias, runtime_checkable

from wartable.core.frozen import FrozenMap
from wartable.core.hexgrid import Hex, Hexside, LabelScheme, Layout, hexsides_of
from wartable.core.words import plural

if TYPE_CHECKING:  # shapely (and numpy under it) loads with the first area map, not before:
    # hex-map games and the start screen never need it (issue 20: start-up)
    from shapely.geometry import (  # type: ignore[import-untyped,unused-ignore]
        MultiPolygon,
        Polygon,
    )
    from shapely.strtree import STRtree  # type: ignore[import-untyped,unused-ignore]

XY: TypeAlias = tuple[float, float]
Bounds: TypeAlias = tuple[float, float, float, float]
PlaceKind: TypeAlias = Literal["city", "town", "port", "fortress", "capital", "other"]
SpaceKind: TypeAlias = Literal["land", "sea"]

PLACE_KINDS: tuple[PlaceKind, ...] = ("city", "town", "port", "fortress", "capital", "other")
SPACE_KINDS: tuple[SpaceKind, ...] = ("land", "sea")
# The hexside features map builders produce; files may use others (games add their own).
HEXSIDE_FEATURES: tuple[str, ...] = ("river", "major_river", "sea", "lake", "border", "mountain")
BOX_PREFIX = "box:"

_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


def box_location(box_id: str) -> str:
    """The location string of an off-map box."""
    return BOX_PREFIX + box_id


def is_colour(text: str) -> bool:
    """True for "#rrggbb"."""
    return _COLOUR.fullmatch(text) is not None


@dataclass(frozen=True, slots=True)
class TerrainType:
    id: str
    name: str
    fill: str  # "#rrggbb"
    pattern: str | None = None  # a renderer pattern name ("trees", "hatch"); None = flat fill

    def __post_init__(self) -> None:
        if not is_colour(self.fill):
            raise ValueError(f"terrain {self.id!r}: fill {self.fill!r} is not a colour '#rrggbb'")


@dataclass(frozen=True, slots=True)
class Place:
    """A named place; `hex_or_space` is a hex label or a space id."""

    name: str
    kind: PlaceKind
    hex_or_space: str


@dataclass(frozen=True, slots=True)
class OffMapBox:
    """A holding box, track or dead pile: a rectangle (top-left x, y; width, height)."""

    id: str
    name: str
    x: float
    y: float
    w: float
    h: float

    def contains(self, x: float, y: float) -> bool:
        return self.x <= x <= self.x + self.w and self.y <= y <= self.y + self.h

    def center(self) -> XY:
        return (self.x + self.w / 2, self.y + self.h / 2)

    def outline(self) -> list[XY]:
        x0, y0, x1, y1 = self.x, self.y, self.x + self.w, self.y + self.h
        return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


@dataclass(frozen=True, slots=True)
class HexInfo:
    """What one hex holds. `places` are the names of the `Place`s in it, in map order."""

    terrain: str
    region: str | None = None
    places: tuple[str, ...] = ()
    features: tuple[str, ...] = ()


@runtime_checkable
class BoardMap(Protocol):
    """What the engine, the UI and printing may ask of any map."""

    @property
    def id(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def version(self) -> int: ...
    @property
    def boxes(self) -> tuple[OffMapBox, ...]: ...
    @property
    def places(self) -> tuple[Place, ...]: ...
    @property
    def kind(self) -> Literal["hex", "area"]: ...

    def location_ids(self) -> tuple[str, ...]:
        """Hex labels or space ids (not boxes), in a stable order."""
        ...

    def center(self, loc: str) -> XY: ...
    def outline(self, loc: str) -> list[XY]: ...

    def location_at(self, x: float, y: float) -> str | None:
        """The box, hex or space under a point (boxes first: they are drawn on top)."""
        ...

    def neighbors(self, loc: str) -> tuple[str, ...]: ...
    def bounds(self) -> Bounds: ...
    def describe(self, loc: str) -> str: ...

    def box_at(self, x: float, y: float) -> str | None:
        """``"box:<id>"`` of the box under a point, if any."""
        ...


def _box_index(boxes: tuple[OffMapBox, ...]) -> dict[str, OffMapBox]:
    out: dict[str, OffMapBox] = {}
    for b in boxes:
        loc = BOX_PREFIX + b.id
        if loc in out:
            raise ValueError(f"duplicate box id {b.id!r}")
        out[loc] = b
    return out


def _box_at(boxes: tuple[OffMapBox, ...], x: float, y: float) -> str | None:
    # Later boxes are drawn over earlier ones, so search from the end.
    for b in reversed(boxes):
        if b.contains(x, y):
            return BOX_PREFIX + b.id
    return None


def _union_bounds(a: Bounds | None, b: Bounds) -> Bounds:
    if a is None:
        return b
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


@dataclass(frozen=True, slots=True)
class HexMap:
    """A hex map. Hexes are keyed by axial `Hex`; locations are their printed labels.

    Lookups (label <-> hex, neighbors, point -> hex) are dict/arithmetic only, built once in
    __post_init__, so a 5,000-hex map answers in microseconds.
    """

    id: str
    title: str
    version: int
    layout: Layout
    labels: LabelScheme
    terrain_types: FrozenMap[str, TerrainType]
    hexes: FrozenMap[Hex, HexInfo]
    hexsides: FrozenMap[Hexside, tuple[str, ...]] = field(default_factory=FrozenMap)
    places: tuple[Place, ...] = ()
    boxes: tuple[OffMapBox, ...] = ()
    hex_size_miles: float | None = None
    provisional: bool = False
    notes: str = ""
    # Derived indexes; not part of equality or the file.
    _by_label: dict[str, Hex] = field(init=False, repr=False, compare=False, hash=False)
    _label_of: dict[Hex, str] = field(init=False, repr=False, compare=False, hash=False)
    _boxes_by_loc: dict[str, OffMapBox] = field(init=False, repr=False, compare=False, hash=False)
    _bounds: Bounds = field(init=False, repr=False, compare=False, hash=False)
    # label -> neighbour labels, and (label, label) -> hexside features (both orders):
    # movement and supply searches ask these hundreds of thousands of times a turn.
    _nbrs: dict[str, tuple[str, ...]] = field(init=False, repr=False, compare=False, hash=False)
    _side_feats: dict[tuple[str, str], tuple[str, ...]] = field(
        init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        by_label: dict[str, Hex] = {}
        label_of: dict[Hex, str] = {}
        for h, info in self.hexes.items():
            if info.terrain not in self.terrain_types:
                raise ValueError(f"{h}: unknown terrain {info.terrain!r}")
            text = self.labels.label(h)
            by_label[text] = h
            label_of[h] = text
        for side in self.hexsides:
            for h in side.hexes():
                if h not in self.hexes:
                    raise ValueError(f"hexside {side} names {h}, which is not on the map")
        for p in self.places:
            if p.hex_or_space not in by_label:
                raise ValueError(f"place {p.name!r} is at {p.hex_or_space!r}, not on the map")
        # HexInfo.places is an index of `places`; keep the two from drifting apart.
        expected = places_index(self.places)
        for h, info in self.hexes.items():
            want = expected.get(label_of[h], ())
            if info.places != want:
                raise ValueError(
                    f"hex {label_of[h]}: HexInfo.places {info.places} does not match the "
                    f"places list {want}"
                )
        object.__setattr__(self, "_by_label", by_label)
        object.__setattr__(self, "_label_of", label_of)
        object.__setattr__(self, "_boxes_by_loc", _box_index(self.boxes))
        object.__setattr__(self, "_bounds", self._compute_bounds())
        nbrs = {text: tuple(label_of[n] for n in h.neighbors() if n in label_of)
                for text, h in by_label.items()}
        feats: dict[tuple[str, str], tuple[str, ...]] = {}
        for side, fs in self.hexsides.items():
            a, b = (label_of[h] for h in side.hexes())
            feats[(a, b)] = feats[(b, a)] = fs
        object.__setattr__(self, "_nbrs", nbrs)
        object.__setattr__(self, "_side_feats", feats)

    def _compute_bounds(self) -> Bounds:
        out: Bounds | None = None
        if self.hexes:
            xs, ys = zip(*(self.layout.hex_to_pixel(h) for h in self.hexes), strict=True)
            offs = self.layout.corner_offsets()
            dx = [o[0] for o in offs]
            dy = [o[1] for o in offs]
            out = (min(xs) + min(dx), min(ys) + min(dy), max(xs) + max(dx), max(ys) + max(dy))
        for b in self.boxes:
            out = _union_bounds(out, (b.x, b.y, b.x + b.w, b.y + b.h))
        return out if out is not None else (0.0, 0.0, 0.0, 0.0)

    # --- hex-specific helpers ------------------------------------------------------------

    @property
    def kind(self) -> Literal["hex", "area"]:
        return "hex"

    def hex_of(self, label: str) -> Hex:
        """The hex a label names (exact label, or any spelling `LabelScheme.parse` accepts)."""
        h = self._by_label.get(label)
        if h is None:
            try:
                h = self.labels.parse(label)
            except ValueError:
                raise KeyError(f"{label!r} is not a hex on map {self.id}") from None
            if h not in self.hexes:
                raise KeyError(f"hex {label!r} is not on map {self.id}")
        return h

    def label_of(self, h: Hex) -> str:
        """The printed label of a hex on this map."""
        try:
            return self._label_of[h]
        except KeyError:
            raise KeyError(f"{h} is not on map {self.id}") from None

    def info(self, loc: str) -> HexInfo:
        return self.hexes[self.hex_of(loc)]

    def hexside_features(self, a: str, b: str) -> tuple[str, ...]:
        """Features of the hexside between two labelled hexes (() if none or not adjacent)."""
        if a in self._by_label and b in self._by_label:  # printed labels: one dict lookup
            return self._side_feats.get((a, b), ())
        ha, hb = self.hex_of(a), self.hex_of(b)
        if ha.distance(hb) != 1:
            return ()
        return self.hexsides.get(Hexside.between(ha, hb), ())

    # --- BoardMap ------------------------------------------------------------------------

    def location_ids(self) -> tuple[str, ...]:
        return tuple(sorted(self._by_label))

    def center(self, loc: str) -> XY:
        box = self._boxes_by_loc.get(loc)
        if box is not None:
            return box.center()
        return self.layout.hex_to_pixel(self.hex_of(loc))

    def outline(self, loc: str) -> list[XY]:
        box = self._boxes_by_loc.get(loc)
        if box is not None:
            return box.outline()
        return list(self.layout.corners(self.hex_of(loc)))

    def location_at(self, x: float, y: float) -> str | None:
        box = _box_at(self.boxes, x, y)
        if box is not None:
            return box
        return self._label_of.get(self.layout.hex_at(x, y))

    def box_at(self, x: float, y: float) -> str | None:
        return _box_at(self.boxes, x, y)

    def neighbors(self, loc: str) -> tuple[str, ...]:
        found = self._nbrs.get(loc)
        if found is not None:
            return found
        if loc in self._boxes_by_loc:
            return ()
        return self._nbrs[self._label_of[self.hex_of(loc)]]

    def bounds(self) -> Bounds:
        return self._bounds

    def describe(self, loc: str) -> str:
        """E.g. "4624 Moscow — clear, capital (USSR); river on 2 hexsides"."""
        box = self._boxes_by_loc.get(loc)
        if box is not None:
            return f"{box.name} (box)"
        h = self.hex_of(loc)
        info = self.hexes[h]
        head = " ".join([self._label_of[h], *info.places])
        label = self._label_of[h]
        kinds = [p.kind for p in self.places if p.hex_or_space == label and p.kind != "other"]
        what = ", ".join([self.terrain_types[info.terrain].name, *kinds, *info.features])
        if info.region:
            what += f" ({info.region})"
        counts: Counter[str] = Counter()
        for side in hexsides_of(h):
            counts.update(self.hexsides.get(side, ()))
        sides = [f"{f} on {plural(n, 'hexside')}" for f, n in sorted(counts.items())]
        return "; ".join([f"{head} — {what}", *sides])


@dataclass(frozen=True, slots=True)
class Space:
    """An area-map territory or sea zone. `polygon` is a shapely Polygon or MultiPolygon."""

    id: str
    name: str
    kind: SpaceKind
    polygon: Polygon | MultiPolygon
    label_point: XY

    def largest_polygon(self) -> Polygon:
        from shapely.geometry import MultiPolygon  # type: ignore[import-untyped,unused-ignore]

        if isinstance(self.polygon, MultiPolygon):
            return max(self.polygon.geoms, key=lambda g: g.area)
        return self.polygon


@dataclass(frozen=True, slots=True)
class AreaMap:
    """An area map: spaces (polygons) and their adjacency (from the game data)."""

    id: str
    title: str
    version: int
    spaces: FrozenMap[str, Space]
    adjacency: frozenset[frozenset[str]]
    boxes: tuple[OffMapBox, ...] = ()
    places: tuple[Place, ...] = ()
    extent: Bounds | None = None  # the printed map's edges; None = fit spaces and boxes
    provisional: bool = False
    notes: str = ""
    _neighbors: dict[str, tuple[str, ...]] = field(
        init=False, repr=False, compare=False, hash=False
    )
    _order: tuple[str, ...] = field(init=False, repr=False, compare=False, hash=False)
    _tree: STRtree = field(init=False, repr=False, compare=False, hash=False)
    _boxes_by_loc: dict[str, OffMapBox] = field(init=False, repr=False, compare=False, hash=False)
    _bounds: Bounds = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        nbrs: dict[str, set[str]] = {sid: set() for sid in self.spaces}
        for pair in self.adjacency:
            if len(pair) != 2:
                raise ValueError(f"adjacency {sorted(pair)} must name two different spaces")
            a, b = sorted(pair)
            for s in (a, b):
                if s not in self.spaces:
                    raise ValueError(f"adjacency {a}-{b} names unknown space {s!r}")
            nbrs[a].add(b)
            nbrs[b].add(a)
        for p in self.places:
            if p.hex_or_space not in self.spaces:
                raise ValueError(f"place {p.name!r} is in unknown space {p.hex_or_space!r}")
        order = tuple(sorted(self.spaces))
        object.__setattr__(self, "_order", order)
        object.__setattr__(self, "_neighbors", {k: tuple(sorted(v)) for k, v in nbrs.items()})
        from shapely.strtree import STRtree  # type: ignore[import-untyped,unused-ignore]

        object.__setattr__(self, "_tree", STRtree([self.spaces[s].polygon for s in order]))
        object.__setattr__(self, "_boxes_by_loc", _box_index(self.boxes))
        bounds: Bounds | None = self.extent
        if bounds is None:
            for s in order:
                bounds = _union_bounds(bounds, tuple(self.spaces[s].polygon.bounds))
            for box in self.boxes:
                bounds = _union_bounds(bounds, (box.x, box.y, box.x + box.w, box.y + box.h))
        object.__setattr__(self, "_bounds", bounds if bounds is not None else (0.0, 0.0, 0.0, 0.0))

    @property
    def kind(self) -> Literal["hex", "area"]:
        return "area"

    def space(self, loc: str) -> Space:
        try:
            return self.spaces[loc]
        except KeyError:
            raise KeyError(f"{loc!r} is not a space on map {self.id}") from None

    def location_ids(self) -> tuple[str, ...]:
        return self._order

    def center(self, loc: str) -> XY:
        box = self._boxes_by_loc.get(loc)
        if box is not None:
            return box.center()
        return self.space(loc).label_point

    def outline(self, loc: str) -> list[XY]:
        """The exterior ring of the space's largest polygon, without the closing point."""
        box = self._boxes_by_loc.get(loc)
        if box is not None:
            return box.outline()
        ring = self.space(loc).largest_polygon().exterior.coords
        return [(float(x), float(y)) for x, y in list(ring)[:-1]]

    def location_at(self, x: float, y: float) -> str | None:
        box = _box_at(self.boxes, x, y)
        if box is not None:
            return box
        from shapely.geometry import Point  # type: ignore[import-untyped,unused-ignore]

        hits = self._tree.query(Point(x, y), predicate="intersects")
        if len(hits) == 0:
            return None
        # On a shared border, or an island drawn over a sea zone: the smallest space wins.
        ids = [self._order[int(i)] for i in hits]
        return min(ids, key=lambda s: (float(self.spaces[s].polygon.area), s))

    def box_at(self, x: float, y: float) -> str | None:
        return _box_at(self.boxes, x, y)

    def neighbors(self, loc: str) -> tuple[str, ...]:
        if loc in self._boxes_by_loc:
            return ()
        self.space(loc)
        return self._neighbors[loc]

    def bounds(self) -> Bounds:
        return self._bounds

    def describe(self, loc: str) -> str:
        """E.g. "Germany (land)", or "Germany (land) — Berlin" with places."""
        box = self._boxes_by_loc.get(loc)
        if box is not None:
            return f"{box.name} (box)"
        sp = self.space(loc)
        text = f"{sp.name} ({sp.kind})"
        names = [p.name for p in self.places if p.hex_or_space == loc]
        return f"{text} — {', '.join(names)}" if names else text


def places_index(places: tuple[Place, ...]) -> Mapping[str, tuple[str, ...]]:
    """Place names per location, in list order (what HexInfo.places must hold)."""
    out: dict[str, list[str]] = {}
    for p in places:
        out.setdefault(p.hex_or_space, []).append(p.name)
    return {k: tuple(v) for k, v in out.items()}
