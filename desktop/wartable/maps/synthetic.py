"""Deterministic synthetic hex maps for the test game, tests and benchmarks.

No `random`: every choice comes from a 64-bit integer mix of (seed_pattern, counter), so the
same arguments give the same map on every machine and Python version.
"""

from __future__ import annotations

import math

from wartable.core.frozen import FrozenMap
from wartable.core.hexgrid import (
    Hex,
    Hexside,
    LabelScheme,
    Layout,
    OffsetKind,
    Orientation,
    from_offset,
    to_offset,
)
from wartable.maps.model import (
    HexInfo,
    HexMap,
    OffMapBox,
    Place,
    PlaceKind,
    TerrainType,
    places_index,
)

_MASK = (1 << 64) - 1

TERRAIN_TYPES: tuple[TerrainType, ...] = (
    TerrainType("clear", "clear", "#e6dfb8"),
    TerrainType("forest", "forest", "#7fa36a", "trees"),
    TerrainType("hill", "hill", "#c8a878", "hills"),
    TerrainType("marsh", "marsh", "#a7c4b0", "marsh"),
    TerrainType("water", "water", "#8fb6dd"),
)
_BLOB_TERRAIN = ("forest", "hill", "marsh", "forest", "water", "hill")
_TOWN_NAMES = (
    "Altberg", "Brenholm", "Carsk", "Dovno", "Eskel", "Falun", "Gorodok", "Harwick",
    "Ilmen", "Jarow", "Kessel", "Lindau", "Mirov", "Norvik", "Ostrau", "Pelkin",
)  # fmt: skip
_PLACE_KINDS: tuple[PlaceKind, ...] = ("capital", "city", "town", "town", "port", "fortress")


def _mix(*values: int) -> int:
    """SplitMix64-style finaliser over several ints: a stable stand-in for a hash."""
    h = 0x9E3779B97F4A7C15
    for v in values:
        h = (h ^ (v & _MASK)) * 0xBF58476D1CE4E5B9 & _MASK
        h = (h ^ (h >> 27)) * 0x94D049BB133111EB & _MASK
        h ^= h >> 31
    return h


def rectangular_hex_map(
    map_id: str,
    cols: int,
    rows: int,
    *,
    orientation: Orientation = Orientation.FLAT,
    seed_pattern: int = 0,
) -> HexMap:
    """A cols x rows map with terrain blobs, rivers, a border, towns and one off-map box.

    Labels are "XXYY", columns first, both starting at 01 (odd-q on flat-top, odd-r on
    pointy-top); a part gets a third digit when the map needs it (100 columns -> "10050").
    Hex size is 1.0 map unit (circumradius), 10 miles; the top-left corner of the grid is at
    (0, 0). The west half is region "West", the east half "East", with "border" hexsides
    between them; water hexes are edged with "lake" hexsides.
    """
    if cols < 1 or rows < 1:
        raise ValueError(f"a map needs at least 1 column and 1 row, not {cols} x {rows}")
    kind = OffsetKind.ODD_Q if orientation is Orientation.FLAT else OffsetKind.ODD_R
    half = math.sqrt(3) / 2
    origin = (1.0, half) if orientation is Orientation.FLAT else (half, 1.0)
    layout = Layout(orientation, 1.0, 1.0, *origin)
    labels = LabelScheme(
        kind,
        col_digits=max(2, len(str(cols))),
        row_digits=max(2, len(str(rows))),
    )
    grid = [from_offset(c, r, kind) for c in range(cols) for r in range(rows)]
    on_map = set(grid)

    terrain = dict.fromkeys(grid, "clear")
    # Terrain cycles through the blob list so every type appears even on small maps.
    for k in range(max(len(_BLOB_TERRAIN), cols * rows // 40)):
        hv = _mix(seed_pattern, 1, k)
        centre = from_offset(hv % cols, (hv >> 16) % rows, kind)
        t = _BLOB_TERRAIN[(k + seed_pattern) % len(_BLOB_TERRAIN)]
        for h in centre.range(1 + (hv >> 40) % 2):
            if h in on_map:
                terrain[h] = t

    def region(h: Hex) -> str:
        return "West" if to_offset(h, kind).col < (cols + 1) // 2 else "East"

    side_feats: dict[Hexside, list[str]] = {}

    def mark(a: Hex, b: Hex, feature: str) -> None:
        feats = side_feats.setdefault(Hexside.between(a, b), [])
        if feature not in feats:
            feats.append(feature)

    for h in grid:
        for n in h.neighbors()[:3]:  # directions 0-2 visit each hexside once
            if n not in on_map:
                continue
            if region(h) != region(n):
                mark(h, n, "border")
            if (terrain[h] == "water") != (terrain[n] == "water"):
                mark(h, n, "lake")

    # Rivers run along the east side of a line of hexes (directions 0 and 1 on both
    # orientations), skipping water; the second one is a major river.
    rivers = [("river", _mix(seed_pattern, 2))]
    if cols >= 10 and rows >= 10:
        rivers.append(("major_river", _mix(seed_pattern, 3)))
    for feature, hv in rivers:
        start = from_offset(hv % cols, 0, kind)
        end = from_offset((hv >> 20) % cols, rows - 1, kind)
        line = start.line_to(end)
        on_line = set(line)
        for h in line:
            for d in (0, 1):
                n = h.neighbor(d)
                if n in on_map and n not in on_line and "water" not in (terrain[h], terrain[n]):
                    mark(h, n, feature)

    places: list[Place] = []
    used: set[Hex] = set()
    wanted = min(len(_TOWN_NAMES), max(3, cols * rows // 150), cols * rows)
    for k in range(wanted * 8):
        if len(places) == wanted:
            break
        hv = _mix(seed_pattern, 4, k)
        h = from_offset(hv % cols, (hv >> 16) % rows, kind)
        if h in used or terrain[h] == "water":
            continue
        used.add(h)
        i = len(places)
        places.append(Place(_TOWN_NAMES[i], _PLACE_KINDS[min(i, len(_PLACE_KINDS) - 1)],
                            labels.label(h)))  # fmt: skip

    names_at = places_index(tuple(places))
    hexes = {h: HexInfo(terrain[h], region(h), names_at.get(labels.label(h), ())) for h in grid}

    max_x = max(layout.hex_to_pixel(h)[0] for h in grid) + 1.0
    box = OffMapBox("eliminated", "Eliminated units", max_x + 1.0, 0.0, 6.0, 4.0)
    return HexMap(
        id=map_id,
        title=f"Synthetic {cols}x{rows} ({orientation.value}-top)",
        version=1,
        layout=layout,
        labels=labels,
        terrain_types=FrozenMap({t.id: t for t in TERRAIN_TYPES}),
        hexes=FrozenMap(hexes),
        hexsides=FrozenMap({s: tuple(f) for s, f in side_feats.items()}),
        places=tuple(places),
        boxes=(box,),
        hex_size_miles=10.0,
        provisional=True,
        notes=f"Generated by wartable.maps.synthetic (seed_pattern={seed_pattern}); "
        "not a real place.",
    )
