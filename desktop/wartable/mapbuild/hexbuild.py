"""Build a hex map from geography: fit the printed grid, then fill every hex and hexside.

Steps (each deterministic; the same sources and spec give the same bytes):

1. **Fit.** Project each control place (Lambert conformal conic, `projection.py`) and fit the
   similarity that carries projected km onto the centres of the rulebook's hexes (`fit.py`).
   Area facts ("4300–5200 lie inside Greater Germany") refine the fit as penalties: the
   distance, in hexes, by which a hex centre misses its region. Every grid alternative in the
   spec (flat/pointy, odd/even) is fitted the same way and reported, so the choice is visible.
2. **Hexes.** Each hex polygon (in map units) is intersected with land, lakes and sea; a hex
   is water when water covers more than `water_majority` of it, else it takes the land
   terrain covering the largest share (terrain regions; clear for the rest). Its region is
   the 1939–40 region covering most of its land. Named places go in the hex under their
   point; cities and Ruhr cities are clear [1940: What If? 10.14]; a named place is never in
   a water hex.
3. **Hexsides.** A river class marks the hexside between two land hexes when one of its
   rivers crosses the segment joining their centres an *odd* number of times: a bend that
   crosses and comes back separates nothing. Before that, river lines are simplified
   (Douglas–Peucker, `simplify_hexes` of a hex) and chains shorter than `min_length_hexes`
   dropped, so wiggles at the map's scale do not make rivers. Land–water hexsides are "sea"
   or "lake"; a hexside between two land hexes that lies mostly in water is too ("all-sea
   hexside"). Land hexes of different regions get "border".
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import shapely  # type: ignore[import-untyped,unused-ignore]
from shapely.geometry import (  # type: ignore[import-untyped,unused-ignore]
    GeometryCollection,
    LineString,
    MultiLineString,
    MultiPoint,
    MultiPolygon,
    Point,
    Polygon,
    box,
)
from shapely.ops import linemerge, unary_union  # type: ignore[import-untyped,unused-ignore]
from shapely.prepared import prep  # type: ignore[import-untyped,unused-ignore]
from shapely.strtree import STRtree  # type: ignore[import-untyped,unused-ignore]
from shapely.validation import make_valid  # type: ignore[import-untyped,unused-ignore]

from wartable.core.errors import DataError
from wartable.core.frozen import FrozenMap
from wartable.core.hexgrid import (
    Hex,
    Hexside,
    LabelScheme,
    Layout,
    OffsetKind,
    Orientation,
    hexside_endpoints,
)
from wartable.mapbuild.fit import Similarity, fit_similarity, refine
from wartable.mapbuild.projection import LambertConformalConic
from wartable.mapbuild.report import (
    BuildReport,
    CandidateResult,
    ConstraintResult,
    ControlResult,
)
from wartable.mapbuild.sources import GeoLayers
from wartable.mapbuild.sources import Place as GeoPlace
from wartable.mapbuild.spec import PLACE_ROLES, GridSpec, HexMapSpec
from wartable.mapbuild.warp import ThinPlateSpline, fit_tps
from wartable.maps.model import HexInfo, HexMap, OffMapBox, Place

__all__ = ["BuildResult", "Georef", "build_hex_map", "fit_grid", "map_coords",
           "prepare_rivers", "river_crossings", "terrain_by_majority"]

KM_PER_MILE = 1.609344
SQRT3 = math.sqrt(3.0)


# --- georeference ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Georef:
    """Longitude/latitude ↔ map units: the projection, the fitted similarity, and the
    spec's optional local warp (`warp.py`) after it."""

    projection: LambertConformalConic
    transform: Similarity  # projected km (x east, y south) -> map units
    warp: ThinPlateSpline | None = None  # map units -> map units

    def to_map(self, lon: float, lat: float) -> tuple[float, float]:
        x, y = self.projection.forward(lon, lat)
        u, v = self.transform.apply(x, -y)
        return self.warp.apply(u, v) if self.warp else (u, v)

    def to_lonlat(self, x: float, y: float) -> tuple[float, float]:
        if self.warp:
            x, y = self.warp.invert(x, y)
        kx, ky = self.transform.invert(x, y)
        return self.projection.inverse(kx, -ky)

    def km(self, lon: float, lat: float) -> tuple[float, float]:
        x, y = self.projection.forward(lon, lat)
        return (x, -y)

    def to_dict(self) -> dict[str, Any]:
        p, t = self.projection, self.transform
        out: dict[str, Any] = {
            "projection": {"type": "lambert_conformal_conic", "lat0": p.lat0, "lon0": p.lon0,
                           "lat1": p.lat1, "lat2": p.lat2},
            "similarity": {"a": _r(t.a), "b": _r(t.b), "tx": _r(t.tx), "ty": _r(t.ty)},
            "note": "map (x, y) = similarity applied to the projection's (x km east, "
                    "-y km north); map units are miles at the printed scale",
        }
        if self.warp:
            out["warp"] = self.warp.to_dict()
            out["note"] += "; then the thin-plate spline 'warp' (map units to map units)"
        return out

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Georef:
        p, s = d["projection"], d["similarity"]
        w = d.get("warp")
        return Georef(LambertConformalConic(p["lat0"], p["lon0"], p["lat1"], p["lat2"]),
                      Similarity(s["a"], s["b"], s["tx"], s["ty"]),
                      ThinPlateSpline.from_dict(w) if w else None)


def with_spec_points(layers: GeoLayers, spec: HexMapSpec) -> GeoLayers:
    """The layers with the spec's own [[point]] places added (places.geojson wins)."""
    have = {p.name for p in layers.places}
    extra = tuple(GeoPlace(p.name, p.kind, p.lon, p.lat, None, p.source)
                  for p in spec.points if p.name not in have)
    return replace(layers, places=layers.places + extra) if extra else layers


def _r(v: float) -> float:
    """Round to 12 significant digits: the bytes then survive last-bit float differences."""
    return float(f"{v:.12g}")


def map_layout(spec_miles: float, orientation: Orientation) -> Layout:
    """Map units are miles: adjacent hex centres are `spec_miles` apart (origin at 0, 0)."""
    size = _r(spec_miles / SQRT3)
    return Layout(orientation, size, size)


def _origin_layout(lay: Layout, hexes: Iterable[Hex]) -> Layout:
    """`lay` moved so the grid's bounding box starts at (0, 0)."""
    xs, ys = [], []
    for h in hexes:
        x, y = lay.hex_to_pixel(h)
        xs.append(x)
        ys.append(y)
    offs = lay.corner_offsets()
    ox = -min(xs) - min(o[0] for o in offs)
    oy = -min(ys) - min(o[1] for o in offs)
    return Layout(lay.orientation, lay.size_x, lay.size_y, _r(ox), _r(oy))


def _grid_variant(spec: HexMapSpec, orient: Orientation, kind: OffsetKind) -> GridSpec:
    lab = spec.grid.labels
    labels = LabelScheme(kind, lab.column_first, lab.col_start, lab.row_start, lab.col_dir,
                         lab.row_dir, lab.col_digits, lab.row_digits, lab.prefix, lab.separator)
    return GridSpec(orient, kind, spec.grid.rows, spec.grid.cols, labels)


# --- fitting ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FitResult:
    grid: GridSpec
    layout: Layout
    georef: Georef
    controls: tuple[ControlResult, ...]
    area_penalty: float
    point_only: Similarity


class _FitProblem:
    """Control points and area penalties of one spec, in projected km."""

    def __init__(self, spec: HexMapSpec, layers: GeoLayers,
                 proj: LambertConformalConic, clip: Any) -> None:
        self.spec = spec
        self.proj = proj
        self.points: list[tuple[str, tuple[float, float], str, float, str]] = []
        for cp in spec.controls:
            pl = layers.place(cp.place)
            x, y = proj.forward(pl.lon, pl.lat)
            self.points.append((cp.place, (x, -y), cp.label, cp.weight, cp.rule))
        self.region_km: dict[str, Any] = {}
        self.coast_km: Any = None
        self.line_km: dict[str, Any] = {}
        for c in spec.constraints:
            if not c.fit:
                continue
            if c.kind in ("in_region", "not_in_region") and c.region not in self.region_km:
                g = _fit_region(layers, spec, str(c.region)).intersection(clip)
                # Simplified by 1 km: a fit penalty needs no finer outline, and it is fast.
                self.region_km[str(c.region)] = _project(
                    g, lambda lo, la: _km(proj, lo, la)).simplify(1.0)
            if c.kind == "on_line" and str(c.line) not in self.line_km:
                g = unary_union([g for n, g in layers.fortified_lines if n == c.line])
                if g.is_empty:
                    raise DataError(spec.path, str(c.line), "no such line in "
                                    "fortifications.geojson")
                self.line_km[str(c.line)] = _project(g.intersection(clip),
                                                     lambda lo, la: _km(proj, lo, la))
            if c.kind == "coastal" and self.coast_km is None:
                land = layers.land.intersection(clip)
                for lg in layers.lagoons:
                    land = land.difference(lg)
                self.coast_km = _project(land.boundary.intersection(clip.buffer(-1e-6)),
                                         lambda lo, la: _km(proj, lo, la)).simplify(1.0)
        self.prepared = {k: prep(v) for k, v in self.region_km.items()}
        # For the smooth area penalty: each region's outline, and a band around it beyond
        # which a sample point is simply in or out (its smooth step has saturated).
        band = 1.0 * spec.hex_size_miles * KM_PER_MILE
        self.outline = {k: v.boundary for k, v in self.region_km.items()}
        self.band = {k: v.buffer(band) for k, v in self.outline.items()}
        for g in (*self.region_km.values(), *self.band.values()):
            shapely.prepare(g)
        self._samples: dict[tuple[GridSpec, Layout],
                            list[tuple[Any, list[tuple[float, float]]]]] = {}

    def cost(self, grid: GridSpec, lay: Layout, t: Similarity, *, areas: bool = True) -> float:
        step = SQRT3 * lay.size_x
        total = 0.0
        for _, src, label, w, _ in self.points:
            u, v = t.apply(*src)
            tu, tv = lay.hex_to_pixel(grid.parse(label))
            total += w * ((u - tu) ** 2 + (v - tv) ** 2) / (step * step)
        if areas:
            total += self.spec.area_weight * self.area_penalty(grid, lay, t)
        nominal = 1.0 / KM_PER_MILE  # map units (miles) per km at the printed scale
        if self.spec.scale_prior:
            total += self.spec.scale_prior * math.log(t.scale / nominal) ** 2 * 100
        if self.spec.rotation_prior:
            total += self.spec.rotation_prior * (t.rotation_deg / 10.0) ** 2
        return total

    def area_penalty(self, grid: GridSpec, lay: Layout, t: Similarity) -> float:
        """How far the constrained hexes are from lying *mostly* right.

        Each hex is sampled at seven points (its centre and six points halfway to its corners);
        a point's "wrongness" is a smooth step of its signed distance to the region (0 well
        inside, 1 well outside, ½ on the boundary; width a tenth of a hex), so the mean is a
        smooth stand-in for the share of the hex on the wrong side. A hex costs nothing while
        that share stays under the spec's `tolerated_wrong_share` (default 0.35), then
        100 × the square of the excess: the fit moves freely inside the allowed set and is
        pushed hard out of the rest.
        Coastal hexes: the centre must be within half a hex of the coastline; so must an
        on_line hex's centre be of its fortified line.
        """
        km_per_hex = SQRT3 * lay.size_x / t.scale
        width = 0.1 * km_per_hex
        tolerated = self.spec.area_margin
        total = 0.0
        for c, pts in self._sample_points(grid, lay):
            if c.kind in ("coastal", "on_line"):
                target = self.coast_km if c.kind == "coastal" else self.line_km[str(c.line)]
                for cx, cy in pts:
                    pt = Point(*t.invert(cx, cy))
                    d = max(0.0, target.distance(pt) - 0.5 * km_per_hex)
                    total += (d / km_per_hex) ** 2
                continue
            key = str(c.region)
            region, outline, band = self.region_km[key], self.outline[key], self.band[key]
            sign = 1.0 if c.kind == "in_region" else -1.0
            for k in range(0, len(pts), 7):
                wrong = 0.0
                for cx, cy in pts[k:k + 7]:
                    x, y = t.invert(cx, cy)
                    inside = bool(shapely.contains_xy(region, x, y))
                    if shapely.contains_xy(band, x, y):
                        d = outline.distance(Point(x, y))
                        sd = sign * (-d if inside else d)  # > 0: on the wrong side
                        wrong += 1.0 / (1.0 + math.exp(max(-60.0, min(60.0, -sd / width))))
                    else:
                        wrong += 1.0 if inside != (sign > 0) else 0.0
                share = wrong / 7.0
                total += max(0.0, share - tolerated) ** 2 * 100.0
        return total

    def _sample_points(self, grid: GridSpec, lay: Layout
                       ) -> list[tuple[Any, list[tuple[float, float]]]]:
        """Per fitted constraint, its hexes' sample points in map units (7 per hex; the
        centre only for coastal hexes), cached per grid variant."""
        key = (grid, lay)
        if key not in self._samples:
            offs = [(0.0, 0.0)] + [(0.5 * dx, 0.5 * dy) for dx, dy in lay.corner_offsets()]
            out = []
            for c in self.spec.constraints:
                if not c.fit or c.kind == "distance":
                    continue
                pts = []
                for label in c.labels:
                    cx, cy = lay.hex_to_pixel(grid.parse(label))
                    if c.kind in ("coastal", "on_line"):
                        pts.append((cx, cy))
                    else:
                        pts += [(cx + dx, cy + dy) for dx, dy in offs]
                out.append((c, pts))
            self._samples[key] = out
        return self._samples[key]


def _fit_region(layers: GeoLayers, spec: HexMapSpec, name: str) -> Any:
    """A region by name: a 1940 region or area, else the map's dated region renamed so
    ("West Poland" is "West Poland (1 September 1939)" on a 1939 map)."""
    try:
        return layers.region(name)
    except DataError:
        for d, n, _, g in layers.dated_regions:
            if d == spec.regions_date and spec.regions_rename.get(n, n) == name:
                return g
        raise


def _named_places(hm: HexMap, report: BuildReport, roles: dict[str, str],
                  insets: set[str]) -> list[tuple[bool, str]]:
    """Each named place of the built map with its result, sorted by hex (issue 19)."""
    controls = {c.place: c for c in report.controls}
    out = []
    for p in sorted(hm.places, key=lambda p: (p.hex_or_space, p.name)):
        info = hm.info(p.hex_or_space)
        c = controls.get(p.name)
        how = ("by geography" if c is None else
               f"an inset on the rulebook's hex {c.rule}" if p.name in insets else
               f"KNOWN rulebook inconsistency, by geography {c.rule}" if c.inconsistent else
               f"the rulebook's hex {c.rule}")
        role = roles.get(p.name, p.kind)
        # a water place (the IJsselmeer) stands on water; a city, port or fort may not
        out.append((p.kind == "other" or info.terrain not in ("sea", "lake"),
                    f"{p.hex_or_space} {p.name} ({role}): {info.terrain}, "
                    f"{info.region or 'no region'}; {how}"))
    return out


def _km(proj: LambertConformalConic, lon: float, lat: float) -> tuple[float, float]:
    x, y = proj.forward(lon, lat)
    return (x, -y)


def map_coords(g: Any, f: Callable[[float, float], tuple[float, float]]) -> Any:
    """The geometry with every coordinate passed through f (pure Python, any geometry)."""
    kind = g.geom_type
    if g.is_empty:
        return g
    if kind == "Point":
        return Point(*f(float(g.x), float(g.y)))
    if kind in ("LineString", "LinearRing"):
        return type(g)([f(float(x), float(y)) for x, y, *_ in g.coords])
    if kind == "Polygon":
        def ring(r: Any) -> list[tuple[float, float]]:
            return [f(float(x), float(y)) for x, y, *_ in r.coords]
        return Polygon(ring(g.exterior), [ring(i) for i in g.interiors])
    if kind == "MultiPolygon":
        return MultiPolygon([map_coords(p, f) for p in g.geoms])
    if kind == "MultiLineString":
        return MultiLineString([map_coords(p, f) for p in g.geoms])
    if kind == "MultiPoint":
        return MultiPoint([map_coords(p, f) for p in g.geoms])
    return GeometryCollection([map_coords(p, f) for p in g.geoms])


def _project(g: Any, f: Callable[[float, float], tuple[float, float]]) -> Any:
    if g.is_empty:
        return g
    out = map_coords(g, f)
    if not out.is_valid:  # a curved transform can make touching rings cross by a hair
        out = _polygonal(make_valid(out)) if "Polygon" in g.geom_type else make_valid(out)
    return out


def _polygonal(g: Any) -> Any:
    """The polygons of a geometry (make_valid may add stray lines or points)."""
    if g.geom_type in ("Polygon", "MultiPolygon"):
        return g
    parts = []
    for p in getattr(g, "geoms", []):
        if p.geom_type == "Polygon":
            parts.append(p)
        elif p.geom_type == "MultiPolygon":
            parts.extend(p.geoms)
    return MultiPolygon(parts)


def fit_grid(spec: HexMapSpec, layers: GeoLayers, grid: GridSpec | None = None,
             problem: _FitProblem | None = None) -> FitResult:
    """Fit one grid variant (default: the spec's) to the control points and constraints."""
    grid = grid or spec.grid
    layers = with_spec_points(layers, spec)
    proj = LambertConformalConic(**spec.projection_args())
    if problem is None:
        problem = _FitProblem(spec, layers, proj, box(*spec.clip))
    lay0 = map_layout(spec.hex_size_miles, grid.orientation)
    lay = _origin_layout(lay0, grid.label_hexes())
    # Weight 0 (a known inconsistency, or a point the warp alone places) stays out of the fit.
    weighted = [p for p in problem.points if p[3] > 0]
    src = [p[1] for p in weighted]
    dst = [lay.hex_to_pixel(grid.parse(p[2])) for p in weighted]
    weights = [p[3] for p in weighted]
    nominal = 1.0 / KM_PER_MILE
    if len(src) >= 2:
        t0 = fit_similarity(src, dst, weights)
    elif len(src) == 1:
        x, y = src[0]
        t0 = Similarity(nominal, 0.0, dst[0][0] - nominal * x, dst[0][1] - nominal * y)
    else:
        raise DataError(spec.path, "control", "a map needs at least one control point")
    t = t0
    has_areas = any(c.fit and c.kind != "distance" for c in spec.constraints)
    if has_areas or len(src) < 2:
        t, _ = refine(t0, lambda s: problem.cost(grid, lay, s), shift=spec.hex_size_miles / 2)
    georef = Georef(proj, Similarity(_r(t.a), _r(t.b), _r(t.tx), _r(t.ty)))
    step = SQRT3 * lay.size_x
    results = []
    for (name, s, label, _, rule) in problem.points:
        u, v = georef.transform.apply(*s)
        tu, tv = lay.hex_to_pixel(grid.parse(label))
        h = lay.hex_at(u, v)
        try:
            fitted = grid.labels.label(h)
        except ValueError:
            fitted = "off map"
        bad = next((c.inconsistent for c in spec.controls
                    if c.place == name and c.label == label), "")
        results.append(ControlResult(name, rule, label, fitted,
                                     math.hypot(u - tu, v - tv) / step, inconsistent=bad))
    return FitResult(grid, lay, georef, tuple(results),
                     problem.area_penalty(grid, lay, georef.transform), t0)


# --- geometry helpers ---------------------------------------------------------------------------


def terrain_by_majority(areas: dict[str, float], total: float, water_majority: float = 0.5,
                        land_order: Sequence[str] = ()) -> str:
    """The terrain of one hex from the area each kind covers in it.

    `areas` holds "sea" and "lake" (water) and land terrain ids (including "clear"). Water
    wins when it covers more than `water_majority` of `total`; otherwise the land terrain with
    the largest area (ties: `land_order`, then name).
    """
    water = areas.get("sea", 0.0) + areas.get("lake", 0.0)
    if total > 0 and water > water_majority * total:
        return "sea" if areas.get("sea", 0.0) >= areas.get("lake", 0.0) else "lake"
    rank = {t: i for i, t in enumerate(land_order)}
    land = [(a, -rank.get(t, len(rank)), t) for t, a in areas.items() if t not in ("sea", "lake")]
    if not land:
        return "clear"
    best = max(land, key=lambda x: (x[0], x[1], [-ord(ch) for ch in x[2]]))
    return best[2] if best[0] > 0 else "clear"


def river_crossings(segment: LineString, chains: Sequence[Any],
                    tree: STRtree | None = None) -> bool:
    """True when some river chain crosses `segment` an odd number of times."""
    idx: Iterable[int] = range(len(chains)) if tree is None else sorted(
        int(i) for i in tree.query(segment))
    for i in idx:
        chain = chains[i]
        inter = segment.intersection(chain)
        if inter.is_empty:
            continue
        n = _count_points(inter)
        if n % 2 == 1:
            return True
    return False


def _count_points(g: Any) -> int:
    kind = g.geom_type
    if kind == "Point":
        return 1
    if kind in ("LineString", "LinearRing"):
        return 1  # runs along the segment: treat as one crossing
    return sum(_count_points(p) for p in g.geoms)


def prepare_rivers(lines: Sequence[Any], tolerance: float, min_length: float) -> list[Any]:
    """Merge river pieces into chains, simplify them, drop the short ones (map units)."""
    flat: list[Any] = []
    for g in lines:
        if g.is_empty:
            continue
        if isinstance(g, LineString):
            flat.append(g)
        else:
            flat.extend(p for p in getattr(g, "geoms", []) if isinstance(p, LineString))
    if not flat:
        return []
    merged = linemerge(MultiLineString(flat))
    chains = [merged] if isinstance(merged, LineString) else list(merged.geoms)
    out = []
    for c in chains:
        s = c.simplify(tolerance, preserve_topology=False)
        if s.length >= min_length:
            out.append(s)
    out.sort(key=lambda g: (round(g.coords[0][0], 6), round(g.coords[0][1], 6), g.length))
    return out


# --- the build -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BuildResult:
    map: HexMap
    georef: Georef
    report: BuildReport
    geometry: dict[str, Any]  # map-unit layers for overlays: land, lakes, rivers_major, ...


def build_hex_map(spec: HexMapSpec, layers: GeoLayers) -> BuildResult:
    """Fit the grid and fill every hex and hexside. See the module docstring."""
    layers = with_spec_points(layers, spec)
    proj_args = spec.projection_args()
    proj = LambertConformalConic(**proj_args)
    clip = box(*spec.clip)
    problem = _FitProblem(spec, layers, proj, clip)
    report = BuildReport(spec.id, spec.path, nominal_miles=spec.hex_size_miles)

    # 1. Fit: every alternative grid for the report, then the spec's.
    chosen = fit_grid(spec, layers, spec.grid, problem)
    for orient, okind in spec.candidates or ((spec.grid.orientation, spec.grid.offset),):
        variant = _grid_variant(spec, orient, okind)
        fr = chosen if (orient, okind) == (spec.grid.orientation, spec.grid.offset) else \
            fit_grid(spec, layers, variant, problem)
        res = [c.residual_hexes for c in fr.controls if not c.inconsistent]
        rms = math.sqrt(sum(r * r for r in res) / len(res)) if res else 0.0
        broken = sum(1 for c in _constraint_centres(spec, fr, layers, problem) if not c.ok)
        report.candidates.append(CandidateResult(
            f"{orient.value} {okind.value}", rms, max(res, default=0.0),
            sum(1 for c in fr.controls if not c.ok), fr.area_penalty, broken,
            SQRT3 * fr.layout.size_x / fr.georef.transform.scale,
            fr.georef.transform.rotation_deg, fr is chosen))
    grid, lay, geo = chosen.grid, chosen.layout, chosen.georef
    report.grid = (f"{grid.orientation.value}-top, {grid.offset.value} "
                   f"(rows {grid.rows[0]}-{grid.rows[1]}, columns "
                   f"{grid.cols[0]:02d}-{grid.cols[1]:02d}); {_stagger(grid, lay)}")
    report.km_per_hex = SQRT3 * lay.size_x / geo.transform.scale
    report.rotation_deg = geo.transform.rotation_deg
    report.controls = list(chosen.controls)
    if spec.warp is not None:
        geo, report.controls = _warp_fit(spec, chosen, problem, report)

    # 2. Layers in map units, clipped to the map (plus a margin of two hexes).
    hexes = grid.label_hexes()
    step = SQRT3 * lay.size_x

    def to_map(lon: float, lat: float) -> tuple[float, float]:
        return geo.to_map(lon, lat)

    x0, y0, x1, y1 = _bounds(lay, hexes)
    frame = box(x0 - 2 * step, y0 - 2 * step, x1 + 2 * step, y1 + 2 * step)

    def m(g: Any) -> Any:
        return _project(g.intersection(clip), to_map).intersection(frame)

    lagoons = unary_union([m(g) for g in layers.lagoons]) if layers.lagoons else Polygon()
    lakes = unary_union([m(g) for g in layers.lakes])
    land = m(layers.land).difference(lakes).difference(lagoons)
    water = frame.difference(land)
    regions = [(spec.regions_rename.get(n, n), m(g))
               for n, g in layers.regions_on(spec.regions_date, spec.regions_date_skip)]
    regions = [(n, g) for n, g in regions if not g.is_empty]
    areas = {n: m(g) for n, g in layers.areas}
    terrain_geo: dict[str, Any] = {}
    for _, tkind, g in layers.terrain:
        tid = spec.terrain_from.get(tkind)
        if tid is None:
            continue
        terrain_geo.setdefault(tid, []).append(m(g))
    terrain_union = {t: unary_union(gs).intersection(land) for t, gs in sorted(terrain_geo.items())}
    forts_all = [m(g) for _, g in layers.fortified_lines]
    forts = list(forts_all)
    forts = [g for g in forts if not g.is_empty]

    # 3. Hexes: areas, terrain, region.
    land_order = [t.id for t in spec.terrain_types if t.id not in ("sea", "lake")]
    polys = {h: Polygon(lay.corners(h)) for h in hexes}
    terrain: dict[Hex, str] = {}
    region: dict[Hex, str | None] = {}
    land_share: dict[Hex, dict[str, float]] = {}
    prep_land = prep(land)
    for h in hexes:
        poly = polys[h]
        total = poly.area
        la = poly.intersection(land).area if prep_land.intersects(poly) else 0.0
        lk = poly.intersection(lakes).area if not lakes.is_empty else 0.0
        sea = max(0.0, total - la - lk)
        amounts: dict[str, float] = {"sea": sea, "lake": lk}
        covered = 0.0
        for t, g in terrain_union.items():
            a = poly.intersection(g).area if not g.is_empty else 0.0
            amounts[t] = amounts.get(t, 0.0) + a
            covered += a
        amounts["clear"] = amounts.get("clear", 0.0) + max(0.0, la - covered)
        land_share[h] = amounts
        terrain[h] = terrain_by_majority(amounts, total, spec.water_majority, land_order)
        if terrain[h] in ("sea", "lake"):
            region[h] = None
        else:
            best, best_a = None, 0.0
            for n, g in regions:
                a = poly.intersection(g).area
                if a > best_a + 1e-12:
                    best, best_a = n, a
            region[h] = best

    on_map = set(hexes)
    # Text facts the printed map shows whatever the geography says (enforced in_region).
    for c in spec.constraints:
        if not c.enforce:
            continue
        for lab in c.labels:
            h = grid.parse(lab)
            was = f"{terrain[h]}, {region[h] or 'no region'}"
            if terrain[h] in ("sea", "lake"):
                terrain[h] = terrain_by_majority({k: v for k, v in land_share[h].items()
                                                  if k not in ("sea", "lake")}, 1.0, 1.0,
                                                 land_order)
            if region[h] != c.region:
                region[h] = c.region
            now = f"{terrain[h]}, {region[h]}"
            if now != was:
                report.changes.append(f"{lab}: {was} -> {now}; {c.rule}")

    # The sea as a majority of water would have it: the coast rules must not close it.
    sea_before = {h for h in hexes if terrain[h] == "sea" or land_share[h]["sea"] > 0.5 *
                  polys[h].area}
    strait_sides, strait_hexes = _coast_land(spec, layers, lay, grid, to_map, land, regions,
                                             polys, on_map, terrain, region, land_share,
                                             land_order, report)

    # Named places.
    features: dict[Hex, set[str]] = {h: set() for h in hexes}
    for h in _sea_passages(sea_before, terrain, strait_hexes):
        if terrain[h] not in ("sea", "lake"):
            features[h].add("strait")
    places: list[Place] = []
    placed: dict[str, Hex] = {}
    city_alias: dict[str, str] = {}
    insets = {c.place: grid.labels.parse(c.label) for c in spec.controls if c.inset}
    for name, role in spec.places:
        pl = layers.place(name)
        h = insets.get(name) or lay.hex_at(*to_map(pl.lon, pl.lat))
        if name in insets:
            features[h].add("inset")
        if h not in on_map:
            report.off_map.append(name)
            continue
        pkind, feat = PLACE_ROLES[role]
        label = grid.labels.label(h)
        places.append(Place(pl.name, pkind, label))  # type: ignore[arg-type]
        placed[pl.name] = h
        if pl.name != name:
            city_alias[name] = pl.name
        if feat:
            features[h].add(feat)
    roles = dict(spec.places)

    def _role(name: str) -> str:
        return roles.get(name) or roles.get(next((a for a, b in city_alias.items()
                                                  if b == name), ""), "other")

    for p in places:
        h = grid.parse(p.hex_or_space)
        role = _role(p.name)
        if terrain[h] in ("sea", "lake") and role != "other":
            amounts = land_share[h]
            new = terrain_by_majority({k: v for k, v in amounts.items()
                                       if k not in ("sea", "lake")}, 1.0, 1.0, land_order)
            report.changes.append(f"{p.hex_or_space} ({p.name}): {terrain[h]} -> {new}; a "
                                  "named place stands on land")
            terrain[h] = new
            if region[h] is None:
                best, best_a = None, 0.0
                for n, g in regions:
                    a = polys[h].intersection(g).area
                    if a > best_a:
                        best, best_a = n, a
                region[h] = best
    city_roles = {city_alias.get(n, n) for n, role in spec.places
                  if role in ("capital", "city", "ruhr_city")}
    for h in hexes:
        here = [p for p in places if placed[p.name] == h]
        if any(p.name in city_roles for p in here) and terrain[h] != "clear":
            what = ", ".join(p.name for p in here)
            report.changes.append(f"{grid.labels.label(h)} ({what}): {terrain[h]} -> clear; "
                                  "cities and Ruhr cities are in clear terrain [10.14]")
            terrain[h] = "clear"
    # A city's or town's hex belongs to the country the city is in (Aachen 1905 is German
    # even where the hex is mostly Belgian land); the most important place decides.
    prio = {"capital": 0, "city": 1, "ruhr_city": 1, "port": 2, "town": 3}
    done: set[Hex] = set()
    for p in sorted(places, key=lambda p: (prio.get(_role(p.name), 9), p.name)):
        role = _role(p.name)
        h = placed[p.name]
        if role not in prio or h in done:
            continue
        done.add(h)
        pl = layers.place(p.name)
        pt = Point(*to_map(pl.lon, pl.lat))
        home = next((n for n, g in regions if g.contains(pt)), None)
        if home and home != region[h]:
            report.changes.append(f"{p.hex_or_space} ({p.name}): region {region[h]} -> {home}; "
                                  f"a {role.replace('_', ' ')}'s hex belongs to its country")
            region[h] = home
    # Fortified lines: the hexes they run through for at least a quarter of a hex.
    for g in forts:
        for h in hexes:
            if polys[h].intersects(g) and polys[h].intersection(g).length >= 0.25 * step:
                if terrain[h] not in ("sea", "lake"):
                    features[h].add("fortified")
    # Hexes mostly inside a named terrain region (the Hunsruck [12.2]).
    for arule in spec.area_features:
        named = [g for n, _, g in layers.terrain if n == arule.terrain_region]
        if not named:
            raise DataError(spec.path, arule.feature,
                            f"no terrain region named {arule.terrain_region!r}")
        g = unary_union([m(x) for x in named])
        for h in hexes:
            if terrain[h] not in ("sea", "lake") and \
                    polys[h].intersection(g).area > 0.5 * polys[h].area:
                features[h].add(arule.feature)
    # Hex features the rulebook lists by number.
    for rule in spec.hex_features:
        for label in rule.labels:
            features[grid.parse(label)].add(rule.feature)

    # 4. Hexsides.
    sides: dict[Hexside, set[str]] = {}
    tol = spec.river_simplify_hexes * step
    min_len = spec.river_min_length_hexes * step
    major = prepare_rivers([m(g) for lv, g in layers.rivers if lv in spec.major_levels],
                           tol, min_len)
    minor = prepare_rivers([m(g) for lv, g in layers.rivers if lv in spec.minor_levels],
                           tol, min_len)
    t_major, t_minor = STRtree(major), STRtree(minor)
    prep_water = prep(water)
    for h in hexes:
        for d in (0, 1, 2):
            nb = h.neighbor(d)
            if nb not in on_map:
                continue
            s = Hexside.between(h, nb)
            wa, wb = terrain[h] in ("sea", "lake"), terrain[nb] in ("sea", "lake")
            f: set[str] = set()
            if wa and wb:
                continue
            if wa or wb:
                f.add(terrain[h] if wa else terrain[nb])
            else:
                a, b = hexside_endpoints(lay, s)
                edge = LineString([a, b])
                if prep_water.intersects(edge):
                    wet = edge.intersection(water).length / edge.length
                    if wet >= 0.6:
                        sea_part = edge.intersection(lakes).length < 0.5 * edge.length
                        f.add("sea" if sea_part else "lake")
                if not f:
                    seg = LineString([lay.hex_to_pixel(h), lay.hex_to_pixel(nb)])
                    if river_crossings(seg, major, t_major):
                        f.add("major_river")
                    elif river_crossings(seg, minor, t_minor):
                        f.add("river")
                if region[h] and region[nb] and region[h] != region[nb]:
                    f.add("border")
            if f:
                sides[s] = f
    # Straits the rules cross: the hexside joins its two shores, whatever water it spans.
    for s in strait_sides:
        sides[s] = (sides.get(s, set()) - {"sea", "lake"}) | {"strait"}
    # Hexside features the rulebook names by number ([General (6)(D)] of ETO's revisions).
    for srule in spec.hexside_features:
        for a_lab, b_lab in srule.hexsides:
            s = Hexside.between(grid.parse(a_lab), grid.parse(b_lab))
            had = ", ".join(sorted(sides.get(s, ()))) or "nothing"
            if srule.feature not in sides.get(s, ()):
                report.changes.append(f"{a_lab}/{b_lab}: hexside + {srule.feature} "
                                      f"(before this rule: {had}) {srule.rule}")
            sides.setdefault(s, set()).add(srule.feature)

    # 5. Assemble.
    names_at: dict[str, list[str]] = {}
    for p in places:
        names_at.setdefault(p.hex_or_space, []).append(p.name)
    infos = {}
    for h in hexes:
        label = grid.labels.label(h)
        infos[h] = HexInfo(terrain[h], region[h], tuple(names_at.get(label, ())),
                           tuple(sorted(features[h])))
    fit_note = (f"Grid fitted by least squares to {len(chosen.controls)} control point(s) and "
                f"{sum(len(c.labels) for c in spec.constraints if c.fit)} area-constrained "
                f"hex(es): {grid.orientation.value}-top, {grid.offset.value}; "
                f"{report.km_per_hex / KM_PER_MILE:.1f} miles per hex on the ground; true "
                f"north points {report.rotation_deg:+.1f} degrees clockwise from the map's top "
                f"at longitude {spec.projection['lon0']:g}. Geography: Natural Earth (public "
                "domain), GSHHG rivers (LGPL-3) and Wartable's authored 1939-40 layers "
                "(maps/sources).")
    if report.warp:
        fit_note += (" Then a local warp carries the named places onto their printed hexes: "
                     f"{report.warp}.")
    hm = HexMap(
        id=spec.id,
        title=spec.title,
        version=spec.version,
        layout=lay,
        labels=grid.labels,
        terrain_types=FrozenMap({t.id: t for t in spec.terrain_types}),
        hexes=FrozenMap(infos),
        hexsides=FrozenMap({s: tuple(sorted(f)) for s, f in sorted(sides.items())}),
        places=tuple(places),
        hex_size_miles=spec.hex_size_miles,
        provisional=spec.provisional,
        notes=(spec.notes + "\n\n" + fit_note).strip(),
        boxes=_box_column(spec.boxes, lay, hexes),
    )

    # 6. Checks and counts.
    if spec.regions_expected:
        stray: dict[str, list[str]] = {}
        for h in hexes:
            if region[h] and region[h] not in spec.regions_expected:
                stray.setdefault(str(region[h]), []).append(grid.labels.label(h))
        for name, labels in sorted(stray.items()):
            report.warnings.append(
                f"{len(labels)} land hex(es) of {name} ({', '.join(sorted(labels))}): the "
                "rulebook names no such country on this map; the printed map probably shows "
                "sea or blank there")
    for rule in spec.hex_features:
        if not rule.compare_area:
            continue
        area = areas.get(rule.compare_area)
        if area is None:
            raise DataError(spec.path, rule.feature, f"no area named {rule.compare_area!r} "
                            "in borders_1939.geojson")
        geo_set = {grid.labels.label(h) for h in hexes
                   if polys[h].intersection(area).area > 0.5 * polys[h].area}
        listed = set(rule.labels)
        if geo_set != listed:
            extra = ", ".join(sorted(geo_set - listed)) or "none"
            missing = ", ".join(sorted(listed - geo_set)) or "none"
            report.warnings.append(
                f"{rule.feature} {rule.rule}: the rulebook lists {len(listed)} hexes; the real "
                f"{rule.compare_area} covers most of {len(geo_set)}. Also in it here: {extra}; "
                f"listed but mostly outside it: {missing}. The map follows the rulebook's list "
                "(the printed map simplified the area).")
    lines = {n: unary_union([g for k, g in zip(layers.fortified_lines, forts_all, strict=True)
                             if k[0] == n]) for n, _ in layers.fortified_lines}
    report.constraints = _constraint_checks(spec, hm, areas, problem, lines)
    report.named = _named_places(hm, report, dict(spec.places),
                                 {c.place for c in spec.controls if c.inset})
    report.hexes = len(hexes)
    report.places = len(places)
    report.terrain = Counter(i.terrain for i in infos.values())
    report.regions = Counter(i.region or "(water)" for i in infos.values())
    for feats in hm.hexsides.values():
        report.hexsides.update(feats)
    report.rivers = (f"{len(major)} major-river chains (GSHHG levels "
                     f"{','.join(map(str, spec.major_levels))}) and {len(minor)} river chains "
                     f"(levels {','.join(map(str, spec.minor_levels))}) after simplifying by "
                     f"{spec.river_simplify_hexes:g} hex and dropping chains under "
                     f"{spec.river_min_length_hexes:g} hex")
    geometry = {"land": land, "lakes": lakes, "water": water, "rivers_major": major,
                "rivers_minor": minor, "regions": regions, "forts": forts,
                "terrain": terrain_union, "areas": areas}
    return BuildResult(hm, geo, report, geometry)


def _coast_land(spec: HexMapSpec, layers: GeoLayers, lay: Layout, grid: GridSpec,
                to_map: Callable[[float, float], tuple[float, float]], land: Any,
                regions: Sequence[tuple[str, Any]], polys: dict[Hex, Any], on_map: set[Hex],
                terrain: dict[Hex, str], region: dict[Hex, str | None],
                land_share: dict[Hex, dict[str, float]], land_order: Sequence[str],
                report: BuildReport) -> tuple[dict[Hexside, str], set[Hex]]:
    """Land where a printed map shows land, though water covers most of the hex: islands
    covering `island_min_share` of a hex, the ports and islands of coast.geojson, and both
    shores of its straits; returns the strait hexsides (side -> strait name) and the hexes of
    the straits' shores.

    Each such hex takes the land terrain with the most area (clear when the simplified
    coastline leaves none) and the region with the most area there, else the nearest."""
    label = grid.labels.label

    def make_land(h: Hex, at: tuple[float, float]) -> bool:
        if terrain[h] not in ("sea", "lake"):
            return False
        terrain[h] = terrain_by_majority({k: v for k, v in land_share[h].items()
                                          if k not in ("sea", "lake")}, 1.0, 1.0, land_order)
        best, best_a = None, 0.0
        for n, g in regions:
            a = polys[h].intersection(g).area
            if a > best_a + 1e-12:
                best, best_a = n, a
        if best is None:
            pt = Point(*at)
            near = min(regions, key=lambda r: (r[1].distance(pt), r[0]), default=None)
            best = near[0] if near else None
        region[h] = best
        return True

    parts = list(getattr(land, "geoms", [land]))
    hex_area = next(iter(polys.values())).area
    step = SQRT3 * lay.size_x
    if spec.island_min_share > 0:
        tree = STRtree([polys[h] for h in sorted(on_map)])
        order = sorted(on_map)
        made = []
        for part in parts:
            if part.area < spec.island_min_share * hex_area:
                continue
            share = sorted(((polys[order[int(i)]].intersection(part).area, order[int(i)])
                            for i in tree.query(part)), key=lambda x: (-x[0], x[1]))
            if not share or any(terrain[h] not in ("sea", "lake") for _, h in share):
                continue
            h = share[0][1]
            c = part.representative_point()
            if make_land(h, (float(c.x), float(c.y))):
                made.append(label(h))
        if made:
            report.changes.append(
                f"{len(made)} island(s) of at least {spec.island_min_share:g} hex made land in "
                f"the hex holding most of each: {', '.join(sorted(made))}")
    if not spec.coast:
        return {}, set()
    for p in layers.coast_places:
        at = to_map(p.lon, p.lat)
        h = lay.hex_at(*at)
        if h not in on_map:
            continue
        was = terrain[h]
        if p.kind == "island" and was in ("sea", "lake"):
            # An island this map's scale shows: at least island_min_share of a hex.
            pt = Point(*at)
            size = max((g.area for g in parts if g.distance(pt) < 0.3 * step), default=0.0)
            if size < spec.island_min_share * hex_area:
                report.coast.append(f"{label(h)} {p.name} (island): {was}; the island is "
                                    f"{size / hex_area:.2f} hex, too small for this scale")
                continue
        if make_land(h, at):
            report.coast.append(f"{label(h)} {p.name} ({p.kind}): {was} -> {terrain[h]}, "
                                f"{region[h]}")
        else:
            report.coast.append(f"{label(h)} {p.name} ({p.kind}): {terrain[h]}, {region[h]}")
    sides: dict[Hexside, str] = {}
    shores: set[Hex] = set()
    for name, a, b, _ in layers.straits:
        pa, pb = to_map(*a), to_map(*b)
        ha, hb = lay.hex_at(*pa), lay.hex_at(*pb)
        if ha not in on_map or hb not in on_map:
            continue
        make_land(ha, pa)
        make_land(hb, pb)
        shores |= {ha, hb}
        if ha == hb:
            report.coast.append(f"{label(ha)} {name} (strait): within one land hex")
        elif ha.distance(hb) == 1:
            sides[Hexside.between(ha, hb)] = name
            report.coast.append(f"{label(ha)}/{label(hb)} {name} (strait): a crossable "
                                "hexside")
        else:
            report.warnings.append(f"{name}: its shores {label(ha)} and {label(hb)} are "
                                   f"{ha.distance(hb)} hexes apart; no hexside crosses it")
    for name, g in layers.sea_lanes:
        lane = _project(g, to_map)
        passed = sorted(h for h in on_map if terrain[h] not in ("sea", "lake")
                        and polys[h].intersects(lane))
        if passed:
            shores |= set(passed)
            report.coast.append(f"{', '.join(label(h) for h in passed)} {name}: ships pass "
                                "through these land hexes (feature strait)")
    return sides, shores


def _sea_passages(sea_before: set[Hex], terrain: dict[Hex, str],
                  strait_hexes: set[Hex]) -> list[Hex]:
    """The land hexes ships pass through: both shores of each strait, and the fewest hexes
    that water covers mostly but the coast rules made land which keep open every sea joined
    before them (Helsinki's hex would close the Gulf of Finland at 53 miles a hex)."""
    out = set(strait_hexes)
    sea_before = sea_before | out  # a strait joins the seas on either side of it

    def components(cells: set[Hex]) -> dict[Hex, int]:
        comp: dict[Hex, int] = {}
        for start in sorted(cells):
            if start in comp:
                continue
            comp[start] = len(comp)
            todo = [start]
            while todo:
                h = todo.pop()
                for n in h.neighbors():
                    if n in cells and n not in comp:
                        comp[n] = comp[start]
                        todo.append(n)
        return comp

    before = components(sea_before)
    while True:
        passable = {h for h, t in terrain.items() if t == "sea"} | out
        after = components(passable)
        split: dict[int, set[int]] = {}
        for h in sea_before & passable:
            split.setdefault(before[h], set()).add(after[h])
        todo_b = sorted(b for b, parts in split.items() if len(parts) > 1)
        if not todo_b:
            return sorted(out)
        # Join one piece to the rest of its old sea by the shortest way through that sea.
        b = todo_b[0]
        first = min(after[h] for h in sea_before & passable if before[h] == b)
        starts = sorted(h for h in passable if after.get(h) == first)
        prev: dict[Hex, Hex | None] = {h: None for h in starts}
        queue, k, end = list(starts), 0, None
        while k < len(queue) and end is None:
            h = queue[k]
            k += 1
            for n in h.neighbors():
                if n in prev or n not in sea_before:
                    continue
                prev[n] = h
                if n in passable and after[n] != first:
                    end = n
                    break
                queue.append(n)
        if end is None:
            return sorted(out)
        step: Hex | None = prev[end]
        while step is not None and after.get(step) != first:
            out.add(step)
            step = prev[step]


def _warp_fit(spec: HexMapSpec, chosen: FitResult, problem: _FitProblem,
              report: BuildReport) -> tuple[Georef, list[ControlResult]]:
    """The spec's local warp: a thin-plate spline carrying each consistent control point
    from where the similarity puts it to its hex centre; each point's residual after it."""
    assert spec.warp is not None
    grid, lay, geo = chosen.grid, chosen.layout, chosen.georef
    step = SQRT3 * lay.size_x
    bad = {(c.place, c.label) for c in spec.controls if c.inconsistent}
    src, dst = [], []
    for name, s, label, _, _ in problem.points:
        if (name, label) in bad:
            continue
        src.append(geo.transform.apply(*s))
        dst.append(lay.hex_to_pixel(grid.parse(label)))
    for label in spec.warp.anchors:  # held in place: zero displacement
        centre = lay.hex_to_pixel(grid.parse(label))
        src.append(centre)
        dst.append(centre)
    tps = fit_tps(src, dst, spec.warp.smoothing, scale=step).rounded()
    warped = Georef(geo.projection, geo.transform, tps)
    out = []
    for c, (_, s, label, _, _) in zip(chosen.controls, problem.points, strict=True):
        u, v = tps.apply(*geo.transform.apply(*s))
        tu, tv = lay.hex_to_pixel(grid.parse(label))
        try:
            fitted = grid.labels.label(lay.hex_at(u, v))
        except ValueError:
            fitted = "off map"
        out.append(replace(c, warped=fitted,
                           warped_residual=math.hypot(u - tu, v - tv) / step))
    x0, y0, x1, y1 = _bounds(lay, grid.label_hexes())
    held = f" and {len(spec.warp.anchors)} anchored hex(es)" if spec.warp.anchors else ""
    report.warp = (f"thin-plate spline through {len(src) - len(spec.warp.anchors)} control "
                   f"point(s){held}, smoothing "
                   f"{spec.warp.smoothing:g} hex^2 {spec.warp.rule}".rstrip())
    report.warp_min_jacobian = tps.min_jacobian((x0, y0, x1, y1), step)
    if report.warp_min_jacobian <= 0.0:
        report.warnings.append("the warp folds the map over itself somewhere (Jacobian "
                               f"{report.warp_min_jacobian:.2f}); raise [warp] smoothing")
    return warped, out


def _box_column(boxes: tuple[tuple[str, str], ...], lay: Layout,
                hexes: Sequence[Hex]) -> tuple[OffMapBox, ...]:
    """Off-map boxes in columns to the right of the hexes, top to bottom, each wide enough
    for a row of four counters and tall enough for two rows (the printed holding boxes'
    places; ids are the game's, positions are ours)."""
    if not boxes:
        return ()
    x0, y0, x1, y1 = _bounds(lay, hexes)
    size = lay.size_x
    w, h, gap = 7.0 * size, 3.6 * size, 0.6 * size
    per_col = max(1, int((y1 - y0 + gap) // (h + gap)))
    out = []
    for i, (box_id, name) in enumerate(boxes):
        col, row = divmod(i, per_col)
        out.append(OffMapBox(box_id, name, round(x1 + 2 * gap + col * (w + gap), 6),
                             round(y0 + row * (h + gap), 6), round(w, 6), round(h, 6)))
    return tuple(out)


def _stagger(grid: GridSpec, lay: Layout) -> str:
    """Which printed rows (or columns) sit half a hex off, in words."""
    r, c = grid.rows[0], grid.cols[0]
    a = lay.hex_to_pixel(grid.parse(grid.text(r, c)))
    if grid.orientation is Orientation.POINTY:
        b = lay.hex_to_pixel(grid.parse(grid.text(r + 1, c)))
        shifted = r if a[0] > b[0] else r + 1
        return f"{'odd' if shifted % 2 else 'even'}-numbered rows sit half a hex east"
    b = lay.hex_to_pixel(grid.parse(grid.text(r, c + 1)))
    shifted = c if a[1] > b[1] else c + 1
    return f"{'odd' if shifted % 2 else 'even'}-numbered columns sit half a hex south"


def _bounds(lay: Layout, hexes: Sequence[Hex]) -> tuple[float, float, float, float]:
    xs, ys = [], []
    for h in hexes:
        for x, y in lay.corners(h):
            xs.append(x)
            ys.append(y)
    return min(xs), min(ys), max(xs), max(ys)


def _constraint_centres(spec: HexMapSpec, fr: FitResult, layers: GeoLayers,
                        problem: _FitProblem) -> list[ConstraintResult]:
    """Quick checks for a candidate grid: hex centres only (no full build)."""
    out = []
    t, lay, grid = fr.georef.transform, fr.layout, fr.grid
    for c in spec.constraints:
        failed = []
        if c.kind == "distance":
            a, b = (grid.parse(x) for x in c.labels)
            if a.distance(b) != c.hexes:
                failed.append(f"{c.labels[0]}-{c.labels[1]} are {a.distance(b)} apart")
        elif c.kind in ("in_region", "not_in_region") and str(c.region) in problem.region_km:
            pr = problem.prepared[str(c.region)]
            for label in c.labels:
                inside = pr.contains(Point(*t.invert(*lay.hex_to_pixel(grid.parse(label)))))
                if inside != (c.kind == "in_region"):
                    failed.append(label)
        out.append(ConstraintResult(c.kind, c.rule, "", len(c.labels), tuple(failed)))
    return out


def _constraint_checks(spec: HexMapSpec, hm: HexMap, areas: dict[str, Any],
                       problem: _FitProblem, lines: dict[str, Any]) -> list[ConstraintResult]:
    """Each constraint checked on the built map (hex majority, not just the centre)."""
    out = []
    for c in spec.constraints:
        failed: list[str] = []
        what = ""
        if c.kind == "distance":
            a, b = (hm.hex_of(x) for x in c.labels)
            what = f"{c.labels[0]} is {c.hexes} hexes from {c.labels[1]}"
            if a.distance(b) != c.hexes:
                failed.append(f"{a.distance(b)} hexes apart")
        elif c.kind in ("in_region", "not_in_region"):
            region = str(c.region)
            want = c.kind == "in_region"
            what = ("in " if want else "not in ") + region
            area = areas.get(region)
            for label in c.labels:
                info = hm.info(label)
                if area is not None:  # an area (the Polish Boundary Revision): majority of land
                    poly = Polygon(hm.outline(label))
                    inside = poly.intersection(area).area > 0.5 * poly.area
                    got = f"{'in' if inside else 'outside'} the area"
                else:
                    inside = info.region == region
                    got = info.region or info.terrain
                if inside != want:
                    failed.append(f"{label} ({got})")
        elif c.kind == "on_line":
            what = f"crossed by the {c.line} for a quarter hex or more"
            step = SQRT3 * hm.layout.size_x
            for label in c.labels:
                run = Polygon(hm.outline(label)).intersection(lines[str(c.line)]).length
                if run < 0.25 * step:
                    failed.append(f"{label} ({run / step:.2f} hex of it)")
        elif c.kind == "coastal":
            what = "coastal (land with a sea hexside)"
            for label in c.labels:
                h = hm.hex_of(label)
                info = hm.hexes[h]
                coast = any("sea" in hm.hexsides.get(Hexside.between(h, n), ())
                            for n in h.neighbors() if n in hm.hexes)
                if info.terrain in ("sea", "lake") or not coast:
                    failed.append(f"{label} ({info.terrain}, "
                                  f"{'coast' if coast else 'no sea hexside'})")
        out.append(ConstraintResult(c.kind, c.rule, what, len(c.labels), tuple(failed), c.note))
    return out
