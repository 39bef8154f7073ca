"""The map builder's inputs: where they live and how they are read.

``maps/`` is installed as the package ``wartable.mapdata``; in a source checkout it is the
top-level ``maps/`` folder. Built maps are ``<maps>/<game>/<name>.json.gz``; geography and
our authored layers are in ``<maps>/sources`` (see its README for each file's origin and
licence); build specs are ``<maps>/sources/specs/*.toml``.

Layers are read once per process and cached (they are immutable shapely geometries in
longitude/latitude). Every problem is a one-line `DataError` naming the file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from shapely.geometry import Point, shape  # type: ignore[import-untyped,unused-ignore]
from shapely.ops import unary_union  # type: ignore[import-untyped,unused-ignore]
from shapely.validation import make_valid  # type: ignore[import-untyped,unused-ignore]

from wartable.core.errors import DataError
from wartable.maps.files import maps_dir

__all__ = [
    "GeoLayers",
    "Place",
    "load_layers",
    "maps_dir",
    "sources_dir",
]

def sources_dir() -> Path:
    return maps_dir() / "sources"


@dataclass(frozen=True, slots=True)
class Place:
    """A named point of places.geojson (longitude, latitude in degrees)."""

    name: str
    kind: str
    lon: float
    lat: float
    aka: str | None
    source: str


@dataclass(frozen=True, slots=True)
class GeoLayers:
    """Every source layer, in longitude/latitude, ready to clip and project."""

    land: Any  # (Multi)Polygon: all countries
    lakes: tuple[Any, ...]  # lake polygons of 1940 (reservoirs not yet filled removed)
    lagoons: tuple[Any, ...]  # water Natural Earth lists as lakes but that are sea
    rivers: tuple[tuple[int, Any], ...]  # (GSHHG level, LineString)
    regions: tuple[tuple[str, Any], ...]  # 1939-40 political regions
    areas: tuple[tuple[str, Any], ...]  # other named areas (the Polish Boundary Revision)
    terrain: tuple[tuple[str, str, Any], ...]  # (name, terrain kind, polygon)
    places: tuple[Place, ...]
    fortified_lines: tuple[tuple[str, Any], ...]
    # Dated regions (kind "region_1939"): (date, name, names of the regions replaced, polygon)
    dated_regions: tuple[tuple[str, str, tuple[str, ...], Any], ...] = ()
    # coast.geojson: ports and islands whose hex stands on land wherever a map shows them,
    # straits as (name, one shore, the other shore, source), each shore (lon, lat), and the
    # sea lanes ships take through straits as (name, LineString).
    coast_places: tuple[Place, ...] = ()
    straits: tuple[tuple[str, tuple[float, float], tuple[float, float], str], ...] = ()
    sea_lanes: tuple[tuple[str, Any], ...] = ()

    def place(self, name: str) -> Place:
        for p in self.places:
            if p.name == name or p.aka == name:
                return p
        raise DataError("maps/sources/places.geojson", name,
                        "no such place; add it (name, kind, point, source) or fix the spelling")

    def regions_on(self, date: str | None,
                   skip: tuple[str, ...] = ()) -> tuple[tuple[str, Any], ...]:
        """The regions of `date`: its dated regions (less those named in `skip`) first, so
        they win ties, then the 1940 regions they do not replace; None: the 1940 regions."""
        if date is None:
            return self.regions
        every = [(n, r, g) for d, n, r, g in self.dated_regions if d == date]
        if not every:
            known = ", ".join(sorted({d for d, *_ in self.dated_regions})) or "none"
            raise DataError("maps/sources/borders_1939.geojson", date,
                            f"no regions dated {date} (dates: {known})")
        for name in skip:
            if name not in {n for n, _, _ in every}:
                raise DataError("maps/sources/borders_1939.geojson", name,
                                f"no region of {date} by that name to skip")
        dated = [(n, r, g) for n, r, g in every if n not in skip]
        gone = {x for _, r, _ in dated for x in r}
        return (*((n, g) for n, _, g in dated),
                *((n, g) for n, g in self.regions if n not in gone))

    def region(self, name: str) -> Any:
        for n, g in (*self.regions, *self.areas):
            if n == name:
                return g
        known = ", ".join(sorted({n for n, _ in (*self.regions, *self.areas)}))
        raise DataError("maps/sources/borders_1939.geojson", name,
                        f"no such region or area (known: {known})")


def _read(path: Path) -> list[dict[str, Any]]:
    where = f"maps/sources/{path.name}"
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise DataError(where, "", f"cannot read the file ({e.strerror or e})") from e
    except json.JSONDecodeError as e:
        raise DataError(where, f"line {e.lineno}", f"not valid JSON: {e.msg}") from e
    feats = doc.get("features") if isinstance(doc, dict) else None
    if not isinstance(feats, list):
        raise DataError(where, "", "not a GeoJSON FeatureCollection")
    return feats


def _geom(f: dict[str, Any], where: str, i: int) -> Any:
    try:
        g = shape(f["geometry"])
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise DataError(where, f"feature {i}", f"bad geometry ({e})") from e
    if not g.is_valid:
        g = make_valid(g)
    return g


def _props(f: dict[str, Any], where: str, i: int, *keys: str) -> dict[str, Any]:
    p = f.get("properties")
    if not isinstance(p, dict):
        raise DataError(where, f"feature {i}", "has no properties")
    for k in keys:
        if not isinstance(p.get(k), str) or not p[k]:
            raise DataError(where, f"feature {i}", f"missing text property '{k}'")
    return p


@lru_cache(maxsize=4)
def load_layers(folder: str | None = None) -> GeoLayers:
    """Read every layer in `folder` (default: `sources_dir()`), once per process."""
    src = Path(folder) if folder else sources_dir()
    if not src.is_dir():
        raise DataError(str(src), "", "the map sources folder is missing; build maps from a "
                        "source checkout (or set WARTABLE_MAPS_DIR)")

    land_parts = []
    for i, f in enumerate(_read(src / "countries_ne10m.geojson")):
        land_parts.append(_geom(f, "countries_ne10m.geojson", i))
    land = unary_union(land_parts)

    edits = _read(src / "water_1940.geojson")
    removed, to_sea, added = [], [], []
    for i, f in enumerate(edits):
        p = _props(f, "water_1940.geojson", i, "name", "op", "source")
        g = _geom(f, "water_1940.geojson", i)
        if p["op"] == "remove_lake":
            removed.append(g)
        elif p["op"] == "lake_is_sea":
            to_sea.append(g)
        elif p["op"] == "add_lake":
            added.append(g)
        else:
            raise DataError("maps/sources/water_1940.geojson", p["name"],
                            f"unknown op {p['op']!r} (add_lake, remove_lake, lake_is_sea)")
    lakes: list[Any] = []
    lagoons: list[Any] = []
    for i, f in enumerate(_read(src / "lakes_ne10m.geojson")):
        g = _geom(f, "lakes_ne10m.geojson", i)
        if any(g.contains(pt) for pt in removed):
            continue
        (lagoons if any(g.contains(pt) for pt in to_sea) else lakes).append(g)
    # An added lake merges with the lake it touches (the IJsselmeer of 1940).
    for g in added:
        touching = [k for k, lk in enumerate(lakes) if lk.intersects(g)]
        merged = unary_union([g, *(lakes[k] for k in touching)])
        lakes = [lk for k, lk in enumerate(lakes) if k not in touching] + [merged]

    rivers = []
    for i, f in enumerate(_read(src / "rivers_gshhg_europe.geojson")):
        p = f.get("properties") or {}
        level = p.get("level")
        if level not in (1, 2, 3):
            raise DataError("maps/sources/rivers_gshhg_europe.geojson", f"feature {i}",
                            f"river level must be 1, 2 or 3, not {level!r}")
        rivers.append((int(level), _geom(f, "rivers_gshhg_europe.geojson", i)))

    regions, areas, dated = [], [], []
    for i, f in enumerate(_read(src / "borders_1939.geojson")):
        p = _props(f, "borders_1939.geojson", i, "name", "kind", "source")
        if p["kind"] == "region":
            regions.append((p["name"], _geom(f, "borders_1939.geojson", i)))
        elif p["kind"] == "revision":
            areas.append((p["name"], _geom(f, "borders_1939.geojson", i)))
        elif p["kind"] == "region_1939":
            p = _props(f, "borders_1939.geojson", i, "date")
            rep = p.get("replaces")
            if not isinstance(rep, list) or not all(isinstance(x, str) for x in rep):
                raise DataError("maps/sources/borders_1939.geojson", p["name"],
                                "a region_1939 needs 'replaces', a list of region names")
            dated.append((p["date"], p["name"], tuple(rep), _geom(f, "borders_1939.geojson", i)))

    terrain = []
    for i, f in enumerate(_read(src / "terrain_regions.geojson")):
        p = _props(f, "terrain_regions.geojson", i, "name", "terrain", "source")
        terrain.append((p["name"], p["terrain"], _geom(f, "terrain_regions.geojson", i)))

    places = []
    for i, f in enumerate(_read(src / "places.geojson")):
        p = _props(f, "places.geojson", i, "name", "kind", "source")
        g = _geom(f, "places.geojson", i)
        if not isinstance(g, Point):
            raise DataError("maps/sources/places.geojson", p["name"], "must be a Point")
        places.append(Place(p["name"], p["kind"], float(g.x), float(g.y), p.get("aka"),
                            p["source"]))

    forts = []
    for i, f in enumerate(_read(src / "fortifications.geojson")):
        p = _props(f, "fortifications.geojson", i, "name", "kind", "source")
        forts.append((p["name"], _geom(f, "fortifications.geojson", i)))

    coast, straits, lanes = _coast(src / "coast.geojson")
    return GeoLayers(land, tuple(lakes), tuple(lagoons), tuple(rivers), tuple(regions),
                     tuple(areas), tuple(terrain), tuple(places), tuple(forts), tuple(dated),
                     coast, straits, lanes)


def _coast(path: Path) -> tuple[tuple[Place, ...],
                                tuple[tuple[str, tuple[float, float], tuple[float, float],
                                            str], ...],
                                tuple[tuple[str, Any], ...]]:
    """coast.geojson: Points of kind port or island, two-point LineStrings of kind strait
    (shore to shore), LineStrings of kind sea_lane (the ships' way through a strait)."""
    where = "maps/sources/coast.geojson"
    places, straits, lanes = [], [], []
    for i, f in enumerate(_read(path)):
        p = _props(f, "coast.geojson", i, "name", "kind", "source")
        g = _geom(f, "coast.geojson", i)
        if p["kind"] in ("port", "island") and isinstance(g, Point):
            places.append(Place(p["name"], p["kind"], float(g.x), float(g.y), None, p["source"]))
        elif p["kind"] == "strait" and g.geom_type == "LineString" and len(g.coords) == 2:
            (ax, ay), (bx, by) = ((float(c[0]), float(c[1])) for c in g.coords)
            straits.append((p["name"], (ax, ay), (bx, by), p["source"]))
        elif p["kind"] == "sea_lane" and g.geom_type == "LineString":
            lanes.append((p["name"], g))
        else:
            raise DataError(where, p["name"], "must be a port or island Point, a strait "
                            "LineString from one shore to the other, or a sea_lane LineString")
    return tuple(places), tuple(straits), tuple(lanes)

