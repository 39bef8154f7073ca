"""Build the Axis & Allies Anniversary Edition world area map, ``aa_anniversary/world``.

Sources: ``maps/sources/aa_anniversary/`` (see `wartable.mapbuild.area_sources`).
Output: ``maps/aa_anniversary/world.json.gz`` (gzip JSON, deterministic bytes).

How the geometry is made (map units: see `area_geo.Projection`):

1. Islands first: each island territory takes the country pieces whose inside point lies
   within its `collect` radius; remote islands listed under [[drop]] are removed; regions
   (Petsamo, Western Thrace, ...) are cut out of their countries.
2. Countries are projected (Miller, cut at the 95 W seam, clipped to the board) and joined
   into territories: whole countries, and shared countries split by the Voronoi cells of
   the sharing territories' seeds (or island by island, for archipelagos); a territory's
   `bbox` drops outlying islands. Island territories get at least a small disk.
3. Overlaps go to the earlier territory (islands first, then the facts' order); straits
   (channels) are carved back into water.
4. Water is the board minus land minus the void areas (the Arctic coasts); sea zones are
   the Voronoi cells of their seeds within the water. Water cut off from a zone's seeds
   joins the zone it borders most; what borders none (lakes, the Caspian) belongs to no
   space. Specks of no space smaller than `SMALL_VOID` join their longest neighbour.
5. The whole set is cleaned and coverage-simplified together (shared borders stay
   shared) and rounded to the grid; label points lie inside each space.

The map's adjacency is *exactly* the facts' 407 connections (the engine uses it); the build
compares it with the geometry and reports the differences (`AdjacencyCheck`).

Entry points: `build_world(sources_dir)` -> `AreaMap`, `build_world_checked` (map and
check), `build_world_file(out_path)` (what ``wartable map build aa_anniversary/world``
calls), `build(map_id)`, and `main()` (``python -m wartable.mapbuild.area_world``).
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import shapely  # type: ignore[import-untyped,unused-ignore]
from shapely import ops  # type: ignore[import-untyped,unused-ignore]
from shapely.geometry import LineString, Point, Polygon, box  # type: ignore[import-untyped,unused-ignore]
from shapely.geometry.base import BaseGeometry  # type: ignore[import-untyped,unused-ignore]
from shapely.strtree import STRtree  # type: ignore[import-untyped,unused-ignore]

from wartable.core.errors import DataError
from wartable.core.frozen import FrozenMap
from wartable.mapbuild.area_geo import (
    Projection,
    empty,
    largest,
    parts,
    polygonal,
    seam_contacts,
    shared_borders,
    union,
    voronoi_cells,
)
from wartable.mapbuild.area_sources import TerritorySpec, WorldSources, load_world_sources
from wartable.mapbuild.sources import maps_dir
from wartable.maps.mapfile import dump_map
from wartable.maps.model import AreaMap, OffMapBox, Place, Space

MAP_ID = "aa_anniversary/world"
TITLE = "Axis & Allies Anniversary Edition — World"
VERSION = 1

# Found like every map's files (installed package data or the checkout's maps/).
SOURCES_DIR = maps_dir() / "sources" / "aa_anniversary"
OUT_PATH = maps_dir() / "aa_anniversary" / "world.json.gz"

# Map units are about a degree; these are in map units.
CONTACT_TOL = 0.02  # borders within this distance count as shared
CONTACT_MIN = 0.08  # and must be at least this long (a corner is no contact)
# Water that reaches no sea zone and is smaller than this (square units) joins the space it
# borders most: lagoons and fjords closed off by the coarse coastline, and land that no
# country holds (Abyei, the Golan). Larger bodies (the Caspian) belong to no space.
SMALL_VOID = 2.0
MIN_ISLET = 0.003  # land pieces smaller than this (square units) are left out

__all__ = [
    "MAP_ID",
    "OUT_PATH",
    "SOURCES_DIR",
    "AdjacencyCheck",
    "build",
    "build_world",
    "build_world_checked",
    "build_world_file",
    "main",
    "space_id",
]


def space_id(name: str) -> str:
    """The stable id of a facts space name: "Germany" -> "germany", "1 Sea Zone" -> "sz01"."""
    m = re.fullmatch(r"(\d+) Sea Zone", name)
    if m:
        return f"sz{int(m.group(1)):02d}"
    text = re.sub(r"[^a-z0-9]+", "_", name.replace(".", "").lower()).strip("_")
    if not text:
        raise ValueError(f"cannot make an id from {name!r}")
    return text


def display_name(name: str) -> str:
    """The name players read on the map, as the game's log and prompts say it: the facts'
    "5 Sea Zone" is "Sea Zone 5" (playtest: the map and the log named it two ways)."""
    m = re.fullmatch(r"(\d+) Sea Zone", name)
    return f"Sea Zone {int(m.group(1))}" if m else name


# --- the check -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Difference:
    a: str  # space ids, a < b
    b: str
    kind: str  # "land-land", "coast" (land-sea), "sea-sea"
    note: str  # "canal", "strait", "across the edge" (of a wrapping board), or ""
    length: float  # shared border length in map units (0 when they do not touch)


@dataclass(frozen=True, slots=True)
class AdjacencyCheck:
    """The facts' adjacency against the geometry's contacts."""

    facts: int
    geometric: int
    both: int
    facts_only: tuple[Difference, ...]  # adjacent in the facts, not touching on the map
    geometry_only: tuple[Difference, ...]  # touching on the map, not adjacent in the facts
    notes: tuple[str, ...] = ()  # other findings of the build (voided water, ...)

    def counts(self, which: tuple[Difference, ...]) -> dict[str, int]:
        out: dict[str, int] = {}
        for d in which:
            key = d.kind + (f" ({d.note})" if d.note else "")
            out[key] = out.get(key, 0) + 1
        return dict(sorted(out.items()))

    def summary(self) -> str:
        def fmt(which: tuple[Difference, ...]) -> str:
            c = self.counts(which)
            return ", ".join(f"{k} {v}" for k, v in c.items()) or "none"

        return (
            f"{self.facts} adjacencies in the facts, {self.geometric} contacts in the geometry, "
            f"{self.both} in both; facts only: {len(self.facts_only)} ({fmt(self.facts_only)}); "
            f"geometry only: {len(self.geometry_only)} ({fmt(self.geometry_only)})"
        )

    def text(self, names: dict[str, str] | None = None) -> str:
        def nm(s: str) -> str:
            return f"{s} ({names[s]})" if names and s in names and names[s] != s else s

        lines = ["Adjacency check: " + self.summary()]
        lines.append(
            f"Adjacent in the facts but not touching in the geometry ({len(self.facts_only)}):"
        )
        for d in self.facts_only:
            lines.append(
                f"  {d.kind:9} {nm(d.a)} - {nm(d.b)}" + (f"  [{d.note}]" if d.note else "")
            )
        lines.append(
            f"Touching in the geometry but not adjacent in the facts ({len(self.geometry_only)}):"
        )
        for d in self.geometry_only:
            extra = f"  [{d.note}]" if d.note else ""
            lines.append(f"  {d.kind:9} {nm(d.a)} - {nm(d.b)}  border {d.length:.2f}{extra}")
        lines.extend(self.notes)
        return "\n".join(lines)


# --- building --------------------------------------------------------------------------------


@dataclass
class _Work:
    """Intermediate state of one build (mutable, private)."""

    src: WorldSources
    proj: Projection
    notes: list[str]


def _lonlat_poly(points: Iterable[tuple[float, float]]) -> Polygon:
    poly = Polygon(list(points))
    if not poly.is_valid:
        poly = poly.buffer(0)
    return poly


def _claim_islands(w: _Work, countries: dict[str, BaseGeometry]) -> dict[str, BaseGeometry]:
    """Each island territory takes the country pieces whose inside point is near its centre."""
    out: dict[str, BaseGeometry] = {}
    for t in w.src.territories:
        if t.island is None:
            continue
        disk = Point(t.island.center).buffer(t.island.collect, quad_segs=16)
        got: list[BaseGeometry] = []
        for code in sorted(countries):
            g = countries[code]
            if g.is_empty or not g.intersects(disk):
                continue
            take = [p for p in parts(g) if disk.contains(p.representative_point())]
            if take:
                taken = union(take)
                got.append(taken)
                countries[code] = polygonal(g.difference(taken))
        out[t.name] = union(got)
    return out


def _cut_regions(w: _Work, countries: dict[str, BaseGeometry]) -> dict[str, list[BaseGeometry]]:
    out: dict[str, list[BaseGeometry]] = {}
    for reg in w.src.regions:
        poly = _lonlat_poly(reg.polygon)
        got = []
        for code in sorted(countries):
            if reg.countries and code not in reg.countries:
                continue
            g = countries[code]
            if g.intersects(poly):
                got.append(polygonal(g.intersection(poly)))
                countries[code] = polygonal(g.difference(poly))
        if not got:
            w.notes.append(f"note: region {reg.name!r} holds no land")
        out.setdefault(reg.territory, []).extend(got)
    return out


def _bbox_mask(proj: Projection, bbox: tuple[float, float, float, float]) -> Polygon:
    lon0, lat0, lon1, lat1 = bbox
    x0, x1 = proj.x_range(lon0, lon1)
    y0, y1 = proj.y(min(lat1, proj.top_lat)), proj.y(max(lat0, proj.bottom_lat))
    return box(x0, y0, min(x1, proj.width), y1)


def _assemble_land(w: _Work) -> dict[str, BaseGeometry]:
    src, proj = w.src, w.proj
    countries = dict(src.countries)
    islands = _claim_islands(w, countries)
    for d in src.layout.drops:
        poly = _lonlat_poly(d.polygon)
        for code in sorted(countries):
            if d.countries and code not in d.countries:
                continue
            if countries[code].intersects(poly):
                countries[code] = polygonal(countries[code].difference(poly))
    regions = _cut_regions(w, countries)
    projected: dict[str, BaseGeometry] = {}

    def pc(code: str) -> BaseGeometry:
        if code not in projected:
            projected[code] = proj.project(countries[code])
        return projected[code]

    pieces: dict[str, list[BaseGeometry]] = {t.name: [] for t in src.territories}
    sharers: dict[str, list[TerritorySpec]] = {}
    for t in src.territories:
        for code in t.countries:
            pieces[t.name].append(pc(code))
        for code in t.shares:
            sharers.setdefault(code, []).append(t)
    envelope = proj.strip().buffer(5.0, join_style="mitre")
    for code in sorted(sharers):
        ts = sharers[code]
        seeds = [(proj.point(*s), t.name) for t in ts for s in t.seeds_for(code)]
        g = pc(code)
        if src.split_mode.get(code, "voronoi") == "pieces":
            for piece in parts(g):
                best = min(seeds, key=lambda st: (piece.distance(Point(st[0])), st[1]))
                pieces[best[1]].append(piece)
        else:
            cells = voronoi_cells([p for p, _ in seeds], envelope)
            for (_, name), cell in zip(seeds, cells, strict=True):
                pieces[name].append(polygonal(g.intersection(cell)))
    land: dict[str, BaseGeometry] = {}
    for t in src.territories:
        g = union(pieces[t.name])
        if t.bbox is not None and not g.is_empty:
            g = polygonal(g.intersection(_bbox_mask(proj, t.bbox)))
        extra = [proj.project(r) for r in regions.get(t.name, [])]
        if extra:
            g = union([g, *extra])
        # Islets too small to see or click are no game space ("islands with no name label").
        keep = [p for p in parts(g) if p.area >= MIN_ISLET]
        land[t.name] = union(keep) if keep else g
    # Islands: the claimed land plus at least the minimum disk.
    for t in src.territories:
        if t.island is None:
            continue
        r = t.island.min_radius or src.layout.min_island_radius
        g = proj.project(islands[t.name]) if not islands[t.name].is_empty else empty()
        g = union([g, land[t.name]])
        if g.area < math.pi * r * r:
            c = proj.point(*t.island.center)
            g = union([g, Point(c).buffer(r, quad_segs=16)])
        land[t.name] = g
    return land


def _resolve_overlaps(w: _Work, land: dict[str, BaseGeometry]) -> dict[str, BaseGeometry]:
    """Islands first, then the facts' order: each territory loses what earlier ones hold."""
    order = [t.name for t in w.src.territories if t.island is not None]
    order += [t.name for t in w.src.territories if t.island is None]
    out: dict[str, BaseGeometry] = {}
    for n, name in enumerate(order):
        g = land[name]
        for prev in order[:n]:
            h = out[prev]
            if not h.is_empty and not g.is_empty and g.intersects(h):
                g = polygonal(g.difference(h))
        out[name] = g
    return out


def _best_neighbour(
    piece: BaseGeometry, shapes: dict[str, BaseGeometry], tree: STRtree, names: list[str]
) -> tuple[str | None, float]:
    grown = piece.buffer(CONTACT_TOL)
    best, best_len = None, 0.0
    for i in sorted(int(i) for i in tree.query(grown, predicate="intersects")):
        g = shapes[names[i]]
        length = g.boundary.intersection(grown).length
        if length > best_len:
            best, best_len = names[i], length
    return best, best_len


def _channels(w: _Work) -> BaseGeometry:
    polys = []
    for ch in w.src.layout.channels:
        line = w.proj.project_lines(LineString(list(ch.line)), segment=0.1)
        polys.append(line.buffer(ch.width / 2, cap_style="flat"))
    return union(polys)


def _sea_zones(w: _Work, land_union: BaseGeometry) -> tuple[dict[str, BaseGeometry], list[Polygon]]:
    """The sea zones, and the water that reaches none (lakes, cut-off bays)."""
    src, proj = w.src, w.proj
    voids = union(proj.project(_lonlat_poly(v.polygon)) for v in src.layout.voids)
    water = polygonal(proj.strip().difference(land_union).difference(voids))
    seeds: list[tuple[tuple[float, float], str]] = []
    for s in src.seas:
        for ll in s.seeds:
            seeds.append((proj.point(*ll), s.name))
    bad = []
    for pt, name in seeds:
        if not water.contains(Point(pt)):
            lon, lat = proj.lonlat(*pt)
            bad.append(f"{name} [{lon:.2f}, {lat:.2f}]")
    if bad:
        raise DataError("seas.toml", "", f"seeds not in open water (move them): {'; '.join(bad)}")
    cells = voronoi_cells([p for p, _ in seeds], proj.strip().buffer(5.0, join_style="mitre"))
    raw: dict[str, list[BaseGeometry]] = {s.name: [] for s in src.seas}
    for (_, name), cell in zip(seeds, cells, strict=True):
        raw[name].append(cell)
    zones: dict[str, BaseGeometry] = {}
    orphans: list[Polygon] = []
    for s in src.seas:
        g = polygonal(water.intersection(union(raw[s.name])))
        pts = [Point(proj.point(*ll)) for ll in s.seeds]
        keep: list[Polygon] = []
        lost: list[Polygon] = []
        for p in parts(g):
            (keep if any(p.buffer(1e-9).contains(q) for q in pts) else lost).append(p)
        zones[s.name] = union(keep)
        orphans.extend(lost)
    # Water cut off from its zone's seeds joins the zone it borders most.
    pending = sorted(orphans, key=lambda p: (-p.area, p.bounds))
    changed = True
    while pending and changed:
        changed = False
        rest = []
        for piece in pending:
            grown = piece.buffer(CONTACT_TOL)
            best, best_len = None, 0.0
            for name in sorted(zones):
                z = zones[name]
                if not z.intersects(grown):
                    continue
                length = z.boundary.intersection(grown).length
                if length > best_len:
                    best, best_len = name, length
            if best is None or best_len < CONTACT_MIN:
                rest.append(piece)
            else:
                zones[best] = union([zones[best], piece])
                changed = True
        pending = rest
    return zones, pending


def _fill_small_voids(
    shapes: dict[str, BaseGeometry], uncovered: list[Polygon]
) -> dict[str, BaseGeometry]:
    """Small areas that reach no sea zone join the space they border most (see SMALL_VOID)."""
    names = sorted(shapes)
    tree = STRtree([shapes[n] for n in names])
    extra: dict[str, list[BaseGeometry]] = {}
    for hole in uncovered:
        if hole.area >= SMALL_VOID:
            continue
        best, _ = _best_neighbour(hole, shapes, tree, names)
        if best is not None:
            extra.setdefault(best, []).append(hole)
    out = dict(shapes)
    for name, gs in extra.items():
        out[name] = union([out[name], *gs])
    return out


def _label_point(g: BaseGeometry, preferred: tuple[float, float]) -> tuple[float, float]:
    """The preferred point (a territory's first seed) if it is well inside the largest
    part of the shape, else the pole of inaccessibility of that part."""
    big = largest(g)
    p = Point(round(preferred[0], 3), round(preferred[1], 3))
    if big.contains(p) and big.exterior.distance(p) > 0.05:
        return (float(p.x), float(p.y))
    q = ops.polylabel(big, tolerance=0.01)
    q = Point(round(float(q.x), 3), round(float(q.y), 3))
    if not big.contains(q):
        q = big.representative_point()
    return (float(q.x), float(q.y))


def _finish(w: _Work, shapes: dict[str, BaseGeometry]) -> dict[str, BaseGeometry]:
    """Coverage-simplify and round every space together, so shared borders stay shared."""
    names = sorted(shapes)
    geoms = [polygonal(shapes[n]) for n in names]
    tol, grid = w.src.layout.simplify_tolerance, w.src.layout.grid
    # Make shared edges identical (snap), so the simplification below keeps them shared.
    # (coverage_clean needs shapely 2.2 / GEOS 3.14; the committed map was built with them.)
    if hasattr(shapely, "coverage_clean"):
        snap = max(grid / 2, 1e-6)
        geoms = list(shapely.coverage_clean(geoms, gap_width=0.01, snapping_distance=snap))
    if tol > 0:
        geoms = list(shapely.coverage_simplify(geoms, tol, simplify_boundary=True))
    if grid > 0:
        geoms = list(shapely.set_precision(geoms, grid))
    out = {}
    for n, g in zip(names, geoms, strict=True):
        g = polygonal(g)
        if not g.is_valid:
            g = polygonal(g.buffer(0))
        out[n] = shapely.normalize(g)
    return out


def _check(
    w: _Work, shapes: dict[str, BaseGeometry], ids: dict[str, str], kinds: dict[str, str]
) -> AdjacencyCheck:
    src, proj = w.src, w.proj
    by_id = {ids[n]: g for n, g in shapes.items()}
    inner = shared_borders(by_id, tol=CONTACT_TOL, min_length=CONTACT_MIN)
    across = seam_contacts(
        by_id, width=proj.width, height=proj.height, tol=CONTACT_TOL, min_length=CONTACT_MIN
    )
    touching = dict(inner)
    for pair, length in across.items():
        touching[pair] = max(touching.get(pair, 0.0), length)
    facts = {frozenset((ids[a], ids[b])) for a, b in src.facts.connections}
    canal_pairs = set()
    for _, seas, _land in src.facts.canals:
        if len(seas) == 2:
            canal_pairs.add(frozenset(ids[s] for s in seas))
    kind_of = {ids[n]: k for n, k in kinds.items()}
    straits = _channels(w)
    near_strait = {
        ids[n] for n, g in shapes.items() if not straits.is_empty and g.distance(straits) < 0.5
    }

    def diff(pair: frozenset[str], length: float) -> Difference:
        a, b = sorted(pair)
        ka, kb = kind_of[a], kind_of[b]
        kind = "land-land" if ka == kb == "land" else "sea-sea" if ka == kb == "sea" else "coast"
        note = ""
        if pair in canal_pairs:
            note = "canal"
        elif length and pair not in inner:
            note = "across the edge"
        elif not length and kind == "sea-sea" and pair <= near_strait:
            note = "strait"
        return Difference(a, b, kind, note, round(length, 3))

    geo = set(touching)
    facts_only = tuple(
        sorted((diff(p, 0.0) for p in facts - geo), key=lambda d: (d.kind, d.a, d.b))
    )
    geo_only = tuple(
        sorted((diff(p, touching[p]) for p in geo - facts), key=lambda d: (d.kind, d.a, d.b))
    )
    return AdjacencyCheck(
        len(facts), len(geo), len(facts & geo), facts_only, geo_only, tuple(w.notes)
    )


def build_world_checked(sources_dir: Path = SOURCES_DIR) -> tuple[AreaMap, AdjacencyCheck]:
    """The world map and its adjacency check, from the sources in `sources_dir`."""
    src = load_world_sources(Path(sources_dir))
    proj = src.layout.projection
    w = _Work(src, proj, [])
    land = _assemble_land(w)
    land = _resolve_overlaps(w, land)
    straits = _channels(w)
    if not straits.is_empty:
        land = {n: polygonal(g.difference(straits)) for n, g in land.items()}
    for t in src.territories:
        if land[t.name].is_empty:
            raise DataError(
                "territories.toml", f"territory {t.name!r}", "came out empty; check its countries"
            )
    land_union = union(land.values())
    seas, uncovered = _sea_zones(w, land_union)
    for s in src.seas:
        if seas[s.name].is_empty:
            raise DataError("seas.toml", f"sea {s.name!r}", "came out empty; check its seeds")
    shapes = {**land, **seas}
    shapes = _fill_small_voids(shapes, uncovered)
    shapes = _finish(w, shapes)
    lakes = [p for p in uncovered if p.area >= SMALL_VOID]
    if lakes:
        w.notes.append(
            f"note: {len(lakes)} water areas belong to no space (the Caspian Sea, the Gulf of "
            f"Mexico west of the seam): {sum(p.area for p in lakes):.1f} square units"
        )

    ids = {name: space_id(name) for name, _ in src.facts.spaces}
    if len(set(ids.values())) != len(ids):
        raise DataError("board_facts.json", "spaces", "two space names give the same id")
    kinds = {name: ("sea" if sea else "land") for name, sea in src.facts.spaces}
    preferred: dict[str, tuple[float, float]] = {}
    for t in src.territories:
        preferred[t.name] = proj.point(*t.seeds[0])
    for s in src.seas:
        preferred[s.name] = proj.point(*s.seeds[0])
    spaces = {}
    for name, _sea in src.facts.spaces:
        g = shapes[name]
        label = _label_point(g, preferred[name])
        spaces[ids[name]] = Space(ids[name], display_name(name), kinds[name], g,  # type: ignore[arg-type]
                                  label)

    for c in src.cities:
        if not shapes[c.territory].contains(Point(proj.point(*c.at))):
            w.notes.append(f"WARNING: {c.name} lies outside {c.territory}")
    check = _check(w, shapes, ids, kinds)

    adjacency = frozenset(frozenset((ids[a], ids[b])) for a, b in src.facts.connections)
    places = tuple(Place(c.name, c.kind, ids[c.territory]) for c in src.cities)  # type: ignore[arg-type]
    notes = _notes(src, check)
    boxes = []
    for bx in src.layout.boxes:
        x0, x1 = proj.x_range(bx.west, bx.east)
        y0, y1 = proj.y(bx.north), proj.y(bx.south)
        x, y, wd, ht = (round(v, 3) for v in (x0, y0, x1 - x0, y1 - y0))
        boxes.append(OffMapBox(bx.id, bx.name, x, y, wd, ht))
    area_map = AreaMap(
        id=MAP_ID,
        title=TITLE,
        version=VERSION,
        spaces=FrozenMap(spaces),
        adjacency=adjacency,
        boxes=tuple(boxes),
        places=places,
        extent=proj.extent(),
        provisional=False,
        notes=notes,
    )
    return area_map, check


def _notes(src: WorldSources, check: AdjacencyCheck) -> str:
    p = src.layout.projection
    ordinate = "Miller ordinate" if p.kind == "miller" else "latitude"
    seam = f"{abs(p.seam_lon):g}°{'W' if p.seam_lon < 0 else 'E'}"
    south = f"{abs(p.bottom_lat):g}°{'S' if p.bottom_lat < 0 else 'N'}"
    return (
        f"Projection: {p.kind} cylindrical cut at the {seam} meridian, {p.top_lat:g}°N to {south}. "
        "Map units: x is degrees of longitude east of the seam (0 to 360; the left and right "
        "edges are the same meridian and the board wraps there, as the printed board does), "
        f"y is the {ordinate} in degrees below the top edge (y grows south). "
        "Territories are unions and Voronoi splits of Natural Earth countries (public domain, "
        "naturalearthdata.com); sea zones are Voronoi cells of authored seeds over the water; "
        "lakes and the Arctic coasts belong to no space. The shapes approximate the printed "
        "board; the adjacency is the game's (the facts, from the TripleA transcription) and is "
        f"what the engine uses. Geometry check: {check.summary()}. "
        "Sources: maps/sources/aa_anniversary/."
    )


def build_world(sources_dir: Path = SOURCES_DIR) -> AreaMap:
    """The world area map built from the sources in `sources_dir`."""
    return build_world_checked(sources_dir)[0]


def _write(area_map: AreaMap, out_path: Path) -> int:
    data = dump_map(area_map, compress=True)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = out_path.with_name(out_path.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(out_path)
    return len(data)


def build_world_file(out_path: Path = OUT_PATH, sources_dir: Path = SOURCES_DIR) -> AdjacencyCheck:
    """Build the map and write it (gzip JSON, deterministic bytes) to `out_path`.

    This is what ``wartable map build aa_anniversary/world`` calls. Returns the adjacency
    check so a caller can print it (``check.text()``).
    """
    area_map, check = build_world_checked(sources_dir)
    _write(area_map, Path(out_path))
    return check


def build(map_id: str, out_path: Path | None = None) -> AdjacencyCheck:
    """Build a map this module knows by id (only ``aa_anniversary/world``)."""
    if map_id != MAP_ID:
        raise DataError("mapbuild", "", f"area_world builds {MAP_ID!r}, not {map_id!r}")
    return build_world_file(out_path or OUT_PATH)


def main(argv: list[str] | None = None) -> int:
    """Build ``maps/aa_anniversary/world.json.gz`` (or the path given) and print the check."""
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else OUT_PATH
    area_map, check = build_world_checked(SOURCES_DIR)
    size = _write(area_map, out)
    names = {sid: sp.name for sid, sp in area_map.spaces.items()}
    print(f"wrote {out} ({size:,} bytes): {len(area_map.spaces)} spaces")
    print(check.text(names))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
