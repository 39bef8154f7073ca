"""Geometry for area maps built from longitude/latitude sources.

- `Projection`: a cylindrical projection (Miller or equirectangular) cut at a *seam* meridian,
  for boards that wrap horizontally. Map x is degrees of longitude east of the seam (0..360),
  map y is the projected ordinate in degrees below the top edge (y grows south, like a Qt
  scene). A shape that crosses the seam is cut there: its two halves lie at the two edges.
- Voronoi splits (`voronoi_cells`), piece helpers (`parts`, `largest`), and
- the geometric adjacency of a set of spaces (`shared_borders`), including contacts across
  the seam of a wrapping board.

Pure shapely and the standard library; nothing here reads files.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import shapely  # type: ignore[import-untyped,unused-ignore]
import shapely.errors  # type: ignore[import-untyped,unused-ignore]
from shapely import ops  # type: ignore[import-untyped,unused-ignore]
from shapely.geometry import (  # type: ignore[import-untyped,unused-ignore]
    GeometryCollection,
    LineString,
    MultiPoint,
    MultiPolygon,
    Point,
    Polygon,
    box,
)
from shapely.geometry.base import BaseGeometry  # type: ignore[import-untyped,unused-ignore]
from shapely.strtree import STRtree  # type: ignore[import-untyped,unused-ignore]

ProjectionKind = Literal["miller", "equirectangular"]
PROJECTION_KINDS: tuple[ProjectionKind, ...] = ("miller", "equirectangular")
XY = tuple[float, float]

__all__ = [
    "PROJECTION_KINDS",
    "Projection",
    "empty",
    "largest",
    "parts",
    "polygonal",
    "seam_contacts",
    "shared_borders",
    "union",
    "voronoi_cells",
]


def _miller(lat: float) -> float:
    """Miller cylindrical ordinate of a latitude, in degrees (0 at the equator, north +)."""
    phi = math.radians(lat)
    return math.degrees(1.25 * math.log(math.tan(math.pi / 4 + 0.4 * phi)))


@dataclass(frozen=True, slots=True)
class Projection:
    """Longitude/latitude to map units for a board cut at `seam_lon`.

    x = (lon - seam_lon) mod 360, so the seam is both the left edge (x = 0) and the right
    edge (x = 360); y = f(top_lat) - f(lat) with f the projection's ordinate in degrees.
    """

    kind: ProjectionKind
    seam_lon: float
    top_lat: float
    bottom_lat: float

    def __post_init__(self) -> None:
        if self.kind not in PROJECTION_KINDS:
            raise ValueError(
                f"projection kind must be one of {PROJECTION_KINDS}, not {self.kind!r}"
            )
        if not -180.0 <= self.seam_lon <= 180.0:
            raise ValueError(f"seam_lon {self.seam_lon} is not a longitude")
        if not -85.0 <= self.bottom_lat < self.top_lat <= 85.0:
            raise ValueError(
                f"need -85 <= bottom_lat < top_lat <= 85, not {self.bottom_lat}..{self.top_lat}"
            )

    # --- points ------------------------------------------------------------------------

    def _f(self, lat: float) -> float:
        return _miller(lat) if self.kind == "miller" else lat

    @property
    def width(self) -> float:
        return 360.0

    @property
    def height(self) -> float:
        return self._f(self.top_lat) - self._f(self.bottom_lat)

    def extent(self) -> tuple[float, float, float, float]:
        return (0.0, 0.0, self.width, self.height)

    def strip(self) -> Polygon:
        """The playing area: the whole board rectangle."""
        return box(0.0, 0.0, self.width, self.height)

    def x(self, lon: float) -> float:
        """Map x of a longitude; the seam itself is x = 0 (the left edge)."""
        return (lon - self.seam_lon) % 360.0

    def y(self, lat: float) -> float:
        return self._f(self.top_lat) - self._f(lat)

    def point(self, lon: float, lat: float) -> XY:
        """Map coordinates of a longitude/latitude."""
        return (self.x(lon), self.y(lat))

    def lonlat(self, x: float, y: float) -> XY:
        """The inverse of `point` (for tools and tests)."""
        lon = (x + self.seam_lon + 180.0) % 360.0 - 180.0
        f = self._f(self.top_lat) - y
        if self.kind == "miller":
            lat = math.degrees(2.5 * math.atan(math.exp(math.radians(f) / 1.25)) - 0.625 * math.pi)
        else:
            lat = f
        return (lon, lat)

    def x_range(self, lon0: float, lon1: float) -> tuple[float, float]:
        """Map x interval of the longitudes lon0..lon1 (eastward); lon1 on the seam is 360."""
        x0 = self.x(lon0)
        x1 = self.x(lon1)
        if x1 <= x0:
            x1 += 360.0
        if x1 > 360.0 + 1e-9:
            raise ValueError(f"longitudes {lon0}..{lon1} cross the seam at {self.seam_lon}")
        return (x0, x1)

    # --- shapes ------------------------------------------------------------------------

    def project(self, geom: BaseGeometry, *, segment: float = 1.0) -> BaseGeometry:
        """A lon/lat shape in map coordinates: cut at the seam, clipped to the board.

        Edges longer than `segment` degrees are split first, so that straight lines in
        lon/lat follow the projection (a parallel stays straight, a diagonal bends).
        """
        if geom.is_empty:
            return GeometryCollection()
        geom = shapely.segmentize(geom, segment)
        s = self.seam_lon
        pieces: list[BaseGeometry] = []
        # East of the seam keeps lon - seam; west of it (which the antimeridian splits in
        # Natural Earth) goes to the right edge, lon - seam + 360.
        for lo, hi, shift in ((s, 180.0, -s), (-180.0, s, 360.0 - s)):
            if hi <= lo:
                continue
            part = geom.intersection(box(lo, -90.0, hi, 90.0))
            if part.is_empty:
                continue
            pieces.append(self._move(part, shift))
        out = ops.unary_union(pieces) if pieces else GeometryCollection()
        return polygonal(out.intersection(self.strip())) if _is_areal(geom) else out

    def project_lines(self, geom: BaseGeometry, *, segment: float = 1.0) -> BaseGeometry:
        """Like `project`, for lines (not clipped to areas)."""
        geom = shapely.segmentize(geom, segment)
        s = self.seam_lon
        pieces = []
        for lo, hi, shift in ((s, 180.0, -s), (-180.0, s, 360.0 - s)):
            part = geom.intersection(box(lo, -90.0, hi, 90.0))
            if not part.is_empty:
                pieces.append(self._move(part, shift))
        return ops.unary_union(pieces) if pieces else GeometryCollection()

    def _move(self, geom: BaseGeometry, shift: float) -> BaseGeometry:
        """Every vertex (lon, lat) to (lon + shift, projected y), in one call."""
        top = self._f(self.top_lat)
        f = self._f

        def move(xs: Iterable[float], ys: Iterable[float]) -> tuple[list[float], list[float]]:
            return (
                [float(v) + shift for v in xs],
                [top - f(min(89.0, max(-89.0, float(v)))) for v in ys],
            )

        return shapely.transform(geom, move, interleaved=False)


def _is_areal(g: BaseGeometry) -> bool:
    return isinstance(g, Polygon | MultiPolygon) or (
        isinstance(g, GeometryCollection) and any(_is_areal(p) for p in g.geoms)
    )


def empty() -> MultiPolygon:
    return MultiPolygon()


def polygonal(g: BaseGeometry) -> Polygon | MultiPolygon:
    """The areal part of a shape (drops points and lines that overlay ops leave behind)."""
    if isinstance(g, Polygon | MultiPolygon):
        return g if not g.is_empty else empty()
    polys: list[Polygon] = []
    if isinstance(g, GeometryCollection):
        for p in g.geoms:
            q = polygonal(p)
            polys.extend(parts(q))
    if not polys:
        return empty()
    return polys[0] if len(polys) == 1 else MultiPolygon(polys)


def parts(g: BaseGeometry) -> list[Polygon]:
    """The polygons of a shape, largest first (ties by position, so the order is stable)."""
    g = polygonal(g) if not isinstance(g, Polygon | MultiPolygon) else g
    if g.is_empty:
        return []
    ps = [g] if isinstance(g, Polygon) else list(g.geoms)
    return sorted(
        ps, key=lambda p: (-round(p.area, 9), round(p.bounds[0], 9), round(p.bounds[1], 9))
    )


def largest(g: BaseGeometry) -> Polygon:
    ps = parts(g)
    if not ps:
        raise ValueError("empty shape has no largest part")
    return ps[0]


def voronoi_cells(points: Sequence[XY], envelope: Polygon) -> list[Polygon]:
    """The Voronoi cell of each point (in the points' order), clipped to `envelope`.

    Points must be distinct. One point gets the whole envelope.
    """
    if len(set(points)) != len(points):
        dup = sorted({p for p in points if list(points).count(p) > 1})
        raise ValueError(f"duplicate Voronoi seeds {dup}")
    if not points:
        return []
    if len(points) == 1:
        return [envelope]
    try:
        coll = shapely.voronoi_polygons(MultiPoint(list(points)), extend_to=envelope, ordered=True)
    except (shapely.errors.UnsupportedGEOSVersionError, TypeError):  # GEOS < 3.12
        coll = shapely.voronoi_polygons(MultiPoint(list(points)), extend_to=envelope)
    cells = list(coll.geoms)
    if len(cells) != len(points):
        raise ValueError(f"Voronoi gave {len(cells)} cells for {len(points)} seeds")
    out: list[Polygon] = []
    for p, cell in zip(points, cells, strict=True):
        if not cell.buffer(1e-9).contains(Point(p)):
            # `ordered` is documented; check it anyway, a wrong order would be silent.
            match = [c for c in cells if c.buffer(1e-9).contains(Point(p))]
            if len(match) != 1:
                raise ValueError(f"cannot find the Voronoi cell of seed {p}")
            cell = match[0]
        out.append(polygonal(cell.intersection(envelope)))
    return out


def union(geoms: Iterable[BaseGeometry]) -> Polygon | MultiPolygon:
    gs = [g for g in geoms if not g.is_empty]
    if not gs:
        return empty()
    return polygonal(shapely.union_all(gs))


def shared_borders(
    shapes: Mapping[str, BaseGeometry], *, tol: float, min_length: float
) -> dict[frozenset[str], float]:
    """Pairs of shapes that share a border at least `min_length` long, with its length.

    Two borders count as shared where one shape's boundary runs within `tol` of the other
    shape (so a corner, or a strait narrower than `tol`, is no border).
    """
    ids = sorted(shapes)
    geoms = [shapes[i] for i in ids]
    tree = STRtree(geoms)
    out: dict[frozenset[str], float] = {}
    for n, a in enumerate(ids):
        ga = geoms[n]
        if ga.is_empty:
            continue
        grown = ga.buffer(tol)
        for m in tree.query(grown, predicate="intersects"):
            m = int(m)
            if m <= n:
                continue
            length = geoms[m].boundary.intersection(grown).length
            if length >= min_length:
                out[frozenset((a, ids[m]))] = float(length)
    return out


def seam_contacts(
    shapes: Mapping[str, BaseGeometry],
    *,
    width: float,
    height: float,
    tol: float,
    min_length: float,
) -> dict[frozenset[str], float]:
    """Pairs that meet across the seam of a board that wraps horizontally: a shape touching
    the left edge x = 0 and one touching the right edge x = `width`, where the parts of the
    edge they touch overlap by at least `min_length`."""
    ids = sorted(shapes)
    left = {i: _edge_intervals(shapes[i], 0.0, tol, height) for i in ids}
    right = {i: _edge_intervals(shapes[i], width, tol, height) for i in ids}
    out: dict[frozenset[str], float] = {}
    for a in ids:
        if not left[a]:
            continue
        for b in ids:
            if a == b or not right[b]:
                continue
            length = _overlap(left[a], right[b])
            if length >= min_length:
                key = frozenset((a, b))
                out[key] = max(out.get(key, 0.0), length)
    return out


def _edge_intervals(g: BaseGeometry, x: float, tol: float, height: float) -> list[XY]:
    if g.is_empty:
        return []
    band = box(x - tol, -1.0, x + tol, height + 1.0)
    if not g.intersects(band):
        return []
    hit = g.intersection(LineString([(x, -1.0), (x, height + 1.0)]).buffer(tol / 2))
    return [(p.bounds[1], p.bounds[3]) for p in parts(hit)]


def _overlap(a: list[XY], b: list[XY]) -> float:
    total = 0.0
    for a0, a1 in a:
        for b0, b1 in b:
            total += max(0.0, min(a1, b1) - max(a0, b0))
    return total
