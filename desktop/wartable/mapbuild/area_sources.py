"""Reading the authored sources of an area map (TOML, GeoJSON, JSON) into checked records.

The sources of `aa_anniversary/world` live in ``maps/sources/aa_anniversary/``:

- ``layout.toml``: projection, minimum island size, simplification, void water, channels;
- ``territories.toml``: each land territory as countries, shared countries with seeds,
  islands, and regions carved out of a country;
- ``seas.toml``: each sea zone's seed points;
- ``cities.toml``: named cities (victory cities, capitals) with their territory;
- ``board_facts.json``: the spaces and the canonical adjacency of the game;
- ``ne_countries.geojson``: Natural Earth admin-0 countries (public domain).

Every problem raises `DataError` naming the file, the entry and what to fix.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shapely.geometry import shape  # type: ignore[import-untyped,unused-ignore]
from shapely.geometry.base import BaseGeometry  # type: ignore[import-untyped,unused-ignore]

from wartable.core.errors import DataError
from wartable.mapbuild.area_geo import PROJECTION_KINDS, Projection

LonLat = tuple[float, float]

__all__ = [
    "BoardFacts",
    "BoxSpec",
    "ChannelSpec",
    "CitySpec",
    "IslandSpec",
    "LayoutSpec",
    "RegionSpec",
    "SeaSpec",
    "TerritorySpec",
    "VoidSpec",
    "WorldSources",
    "load_world_sources",
]

SPLIT_MODES = ("voronoi", "pieces")
CITY_KINDS = ("city", "capital", "port", "town", "fortress", "other")


@dataclass(frozen=True, slots=True)
class IslandSpec:
    center: LonLat
    collect: float  # degrees: land of any country this close to the centre is the island's
    min_radius: float | None = None  # map units; None = the layout's minimum


@dataclass(frozen=True, slots=True)
class TerritorySpec:
    name: str
    countries: tuple[str, ...]
    shares: tuple[str, ...]
    seeds: tuple[LonLat, ...]
    bbox: tuple[float, float, float, float] | None
    island: IslandSpec | None
    source: str
    # Extra seeds used only when splitting one shared country (adm0_a3 -> points).
    country_seeds: tuple[tuple[str, tuple[LonLat, ...]], ...] = ()

    def seeds_for(self, code: str) -> tuple[LonLat, ...]:
        return self.seeds + dict(self.country_seeds).get(code, ())


@dataclass(frozen=True, slots=True)
class RegionSpec:
    territory: str
    name: str
    polygon: tuple[LonLat, ...]
    source: str
    countries: tuple[str, ...] = ()  # cut only from these countries; () = from any


@dataclass(frozen=True, slots=True)
class SeaSpec:
    name: str
    seeds: tuple[LonLat, ...]
    source: str


@dataclass(frozen=True, slots=True)
class VoidSpec:
    name: str
    polygon: tuple[LonLat, ...]
    source: str
    countries: tuple[str, ...] = ()  # for drops: only from these countries; () = any


@dataclass(frozen=True, slots=True)
class ChannelSpec:
    name: str
    line: tuple[LonLat, ...]
    width: float
    source: str


@dataclass(frozen=True, slots=True)
class CitySpec:
    name: str
    territory: str
    kind: str
    at: LonLat


@dataclass(frozen=True, slots=True)
class BoxSpec:
    """An off-map box (a holding area printed on the board): its corners in lon/lat."""

    id: str
    name: str
    west: float
    north: float
    east: float
    south: float
    source: str


@dataclass(frozen=True, slots=True)
class LayoutSpec:
    projection: Projection
    min_island_radius: float
    simplify_tolerance: float
    grid: float
    voids: tuple[VoidSpec, ...]
    channels: tuple[ChannelSpec, ...]
    drops: tuple[VoidSpec, ...] = ()  # land removed before anything (islands not on the board)
    boxes: tuple[BoxSpec, ...] = ()


@dataclass(frozen=True, slots=True)
class BoardFacts:
    """The game's spaces (name, is it sea) and adjacency: the engine's canonical graph."""

    spaces: tuple[tuple[str, bool], ...]
    connections: tuple[tuple[str, str], ...]
    canals: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]  # name, sea zones, land


@dataclass(frozen=True, slots=True)
class WorldSources:
    layout: LayoutSpec
    territories: tuple[TerritorySpec, ...]
    regions: tuple[RegionSpec, ...]
    split_mode: dict[str, str]
    seas: tuple[SeaSpec, ...]
    cities: tuple[CitySpec, ...]
    facts: BoardFacts
    countries: dict[str, BaseGeometry] = field(repr=False)  # adm0_a3 -> lon/lat shape
    country_names: dict[str, str] = field(repr=False)


# --- readers ---------------------------------------------------------------------------------


class _Reader:
    """Field access on one TOML table that names the file and entry in every error."""

    def __init__(self, source: str, where: str, d: Any) -> None:
        if not isinstance(d, dict):
            raise DataError(source, where, "must be a table")
        self.source, self.where, self.d = source, where, d

    def fail(self, what: str) -> DataError:
        return DataError(self.source, self.where, what)

    def only(self, *keys: str) -> None:
        extra = sorted(set(self.d) - set(keys))
        if extra:
            raise self.fail(f"unknown field {extra[0]!r} (expected: {', '.join(sorted(keys))})")

    def text(self, key: str, default: str | None = None) -> str:
        v = self.d.get(key, default)
        if not isinstance(v, str) or (default is None and not v):
            raise self.fail(f"field {key!r} must be a non-empty string")
        return v

    def num(self, key: str, default: float | None = None) -> float:
        v = self.d.get(key, default)
        if isinstance(v, bool) or not isinstance(v, int | float):
            raise self.fail(f"field {key!r} must be a number")
        return float(v)

    def strs(self, key: str) -> tuple[str, ...]:
        v = self.d.get(key, [])
        if not isinstance(v, list) or not all(isinstance(s, str) and s for s in v):
            raise self.fail(f"field {key!r} must be a list of strings")
        if len(set(v)) != len(v):
            raise self.fail(f"field {key!r} lists an entry twice")
        return tuple(v)

    def lonlat(self, v: Any, what: str) -> LonLat:
        if not (
            isinstance(v, list)
            and len(v) == 2
            and all(isinstance(c, int | float) and not isinstance(c, bool) for c in v)
        ):
            raise self.fail(f"{what} must be [lon, lat], not {v!r}")
        lon, lat = float(v[0]), float(v[1])
        if not (-180.0 <= lon <= 180.0 and -90.0 <= lat <= 90.0):
            raise self.fail(f"{what} {v!r} is not a longitude, latitude")
        return (lon, lat)

    def points(self, key: str, *, at_least: int) -> tuple[LonLat, ...]:
        v = self.d.get(key)
        if not isinstance(v, list) or len(v) < at_least:
            raise self.fail(
                f"field {key!r} must be a list of at least {at_least} [lon, lat] points"
            )
        return tuple(self.lonlat(p, f"{key}[{i}]") for i, p in enumerate(v))


def _toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise DataError(str(path), "", "file not found") from None
    except tomllib.TOMLDecodeError as e:
        raise DataError(str(path), "", f"not valid TOML: {e}") from None


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataError(str(path), "", "file not found") from None
    except json.JSONDecodeError as e:
        raise DataError(str(path), "", f"not valid JSON: {e}") from None


def _tables(doc: dict[str, Any], key: str, source: str) -> list[Any]:
    v = doc.get(key, [])
    if not isinstance(v, list):
        raise DataError(source, key, "must be an array of tables ([[...]])")
    return v


def _layout(path: Path) -> LayoutSpec:
    src = str(path)
    doc = _toml(path)
    top = _Reader(src, "", doc)
    top.only("projection", "islands", "simplify", "void", "channel", "drop", "box")
    p = _Reader(src, "projection", doc.get("projection"))
    p.only("kind", "seam_lon", "top_lat", "bottom_lat", "source")
    kind = p.text("kind")
    if kind not in PROJECTION_KINDS:
        raise p.fail(f"kind must be one of {', '.join(PROJECTION_KINDS)}, not {kind!r}")
    try:
        proj = Projection(
            "miller" if kind == "miller" else "equirectangular",
            p.num("seam_lon"),
            p.num("top_lat"),
            p.num("bottom_lat"),
        )
    except ValueError as e:
        raise p.fail(str(e)) from None
    isl = _Reader(src, "islands", doc.get("islands", {}))
    isl.only("min_radius")
    simp = _Reader(src, "simplify", doc.get("simplify", {}))
    simp.only("tolerance", "grid")
    voids = []
    for i, item in enumerate(_tables(doc, "void", src)):
        r = _Reader(src, f"void[{i}]", item)
        r.only("name", "polygon", "source")
        voids.append(VoidSpec(r.text("name"), r.points("polygon", at_least=3), r.text("source")))
    drops = []
    for i, item in enumerate(_tables(doc, "drop", src)):
        r = _Reader(src, f"drop[{i}]", item)
        r.only("name", "polygon", "countries", "source")
        drops.append(
            VoidSpec(
                r.text("name"),
                r.points("polygon", at_least=3),
                r.text("source"),
                r.strs("countries"),
            )
        )
    boxes = []
    for i, item in enumerate(_tables(doc, "box", src)):
        r = _Reader(src, f"box[{i}]", item)
        r.only("id", "name", "northwest", "southeast", "source")
        west, north = r.lonlat(item.get("northwest"), "northwest")
        east, south = r.lonlat(item.get("southeast"), "southeast")
        if not (west < east and south < north):
            raise r.fail("northwest must be west of and north of southeast")
        boxes.append(
            BoxSpec(r.text("id"), r.text("name"), west, north, east, south, r.text("source"))
        )
    channels = []
    for i, item in enumerate(_tables(doc, "channel", src)):
        r = _Reader(src, f"channel[{i}]", item)
        r.only("name", "line", "width", "source")
        width = r.num("width")
        if width <= 0:
            raise r.fail("width must be positive")
        channels.append(
            ChannelSpec(r.text("name"), r.points("line", at_least=2), width, r.text("source"))
        )
    min_radius = isl.num("min_radius", 0.7)
    tolerance = simp.num("tolerance", 0.0)
    grid = simp.num("grid", 0.0)
    if min_radius <= 0 or tolerance < 0 or grid < 0:
        raise top.fail("min_radius must be positive; tolerance and grid not negative")
    return LayoutSpec(
        proj, min_radius, tolerance, grid, tuple(voids), tuple(channels), tuple(drops), tuple(boxes)
    )


def _territories(
    path: Path,
) -> tuple[tuple[TerritorySpec, ...], tuple[RegionSpec, ...], dict[str, str]]:
    src = str(path)
    doc = _toml(path)
    _Reader(src, "", doc).only("split_mode", "territory", "region")
    modes_raw = doc.get("split_mode", {})
    if not isinstance(modes_raw, dict):
        raise DataError(src, "split_mode", "must be a table of country = mode")
    modes: dict[str, str] = {}
    for code, mode in sorted(modes_raw.items()):
        if mode not in SPLIT_MODES:
            raise DataError(
                src, f"split_mode.{code}", f"must be one of {SPLIT_MODES}, not {mode!r}"
            )
        modes[code] = mode
    out: list[TerritorySpec] = []
    seen: set[str] = set()
    for i, item in enumerate(_tables(doc, "territory", src)):
        r = _Reader(src, f"territory[{i}]", item)
        r.only("name", "countries", "shares", "seeds", "country_seeds", "bbox", "island", "source")
        name = r.text("name")
        r.where = f"territory {name!r}"
        if name in seen:
            raise r.fail("listed twice")
        seen.add(name)
        bbox = None
        if "bbox" in item:
            b = item["bbox"]
            if not (
                isinstance(b, list) and len(b) == 4 and all(isinstance(v, int | float) for v in b)
            ):
                raise r.fail("bbox must be [lon0, lat0, lon1, lat1]")
            if not b[1] < b[3]:
                raise r.fail("bbox: lat0 must be below lat1")
            bbox = (float(b[0]), float(b[1]), float(b[2]), float(b[3]))
        island = None
        if "island" in item:
            ir = _Reader(src, f"territory {name!r} island", item["island"])
            ir.only("center", "collect", "min_radius")
            mr = ir.num("min_radius") if "min_radius" in item["island"] else None
            island = IslandSpec(
                ir.lonlat(item["island"].get("center"), "center"), ir.num("collect"), mr
            )
        countries, shares = r.strs("countries"), r.strs("shares")
        both = set(countries) & set(shares)
        if both:
            raise r.fail(f"{sorted(both)[0]} is both in 'countries' and 'shares'")
        if not countries and not shares and island is None:
            raise r.fail("needs countries, shares or an island")
        cs_raw = item.get("country_seeds", {})
        if not isinstance(cs_raw, dict):
            raise r.fail("country_seeds must be a table of country = [[lon, lat], ...]")
        cseeds = []
        for code, pts in sorted(cs_raw.items()):
            if code not in shares:
                raise r.fail(f"country_seeds names {code}, which is not in 'shares'")
            cr = _Reader(src, f"territory {name!r} country_seeds", {"p": pts})
            cseeds.append((code, cr.points("p", at_least=1)))
        out.append(
            TerritorySpec(
                name,
                countries,
                shares,
                r.points("seeds", at_least=1),
                bbox,
                island,
                r.text("source"),
                tuple(cseeds),
            )
        )
    regions = []
    for i, item in enumerate(_tables(doc, "region", src)):
        r = _Reader(src, f"region[{i}]", item)
        r.only("territory", "name", "polygon", "countries", "source")
        regions.append(
            RegionSpec(
                r.text("territory"),
                r.text("name"),
                r.points("polygon", at_least=3),
                r.text("source"),
                r.strs("countries"),
            )
        )
    return tuple(out), tuple(regions), modes


def _seas(path: Path) -> tuple[SeaSpec, ...]:
    src = str(path)
    doc = _toml(path)
    _Reader(src, "", doc).only("sea")
    out, seen = [], set()
    for i, item in enumerate(_tables(doc, "sea", src)):
        r = _Reader(src, f"sea[{i}]", item)
        r.only("name", "seeds", "source")
        name = r.text("name")
        if name in seen:
            raise r.fail(f"sea zone {name!r} listed twice")
        seen.add(name)
        out.append(SeaSpec(name, r.points("seeds", at_least=1), r.text("source")))
    return tuple(out)


def _cities(path: Path) -> tuple[CitySpec, ...]:
    src = str(path)
    doc = _toml(path)
    _Reader(src, "", doc).only("city")
    out = []
    for i, item in enumerate(_tables(doc, "city", src)):
        r = _Reader(src, f"city[{i}]", item)
        r.only("name", "territory", "kind", "at")
        kind = r.text("kind")
        if kind not in CITY_KINDS:
            raise r.fail(f"kind must be one of {', '.join(CITY_KINDS)}, not {kind!r}")
        out.append(
            CitySpec(r.text("name"), r.text("territory"), kind, r.lonlat(item.get("at"), "at"))
        )
    return tuple(out)


def _facts(path: Path) -> BoardFacts:
    src = str(path)
    doc = _json(path)
    if not isinstance(doc, dict):
        raise DataError(src, "", "must be a JSON object")
    spaces = []
    for i, s in enumerate(doc.get("spaces", [])):
        if not (
            isinstance(s, dict)
            and isinstance(s.get("name"), str)
            and isinstance(s.get("sea"), bool)
        ):
            raise DataError(src, f"spaces[{i}]", 'must be {"name": "...", "sea": true|false}')
        spaces.append((s["name"], s["sea"]))
    names = {n for n, _ in spaces}
    if len(names) != len(spaces):
        raise DataError(src, "spaces", "a space is listed twice")
    conns = []
    for i, c in enumerate(doc.get("connections", [])):
        if not (
            isinstance(c, list) and len(c) == 2 and all(v in names for v in c) and c[0] != c[1]
        ):
            raise DataError(src, f"connections[{i}]", f"must name two different spaces, not {c!r}")
        conns.append((c[0], c[1]))
    canals = []
    for cname, c in sorted(doc.get("canals", {}).items()):
        seas, land = tuple(c.get("sea_zones", [])), tuple(c.get("land", []))
        if not all(v in names for v in seas + land):
            raise DataError(src, f"canals.{cname}", "names an unknown space")
        canals.append((cname, seas, land))
    return BoardFacts(tuple(spaces), tuple(conns), tuple(canals))


def _countries(path: Path) -> tuple[dict[str, BaseGeometry], dict[str, str]]:
    src = str(path)
    doc = _json(path)
    geoms: dict[str, BaseGeometry] = {}
    names: dict[str, str] = {}
    for i, f in enumerate(doc.get("features", [])):
        try:
            code = f["properties"]["adm0_a3"]
            g = shape(f["geometry"])
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise DataError(src, f"features[{i}]", f"not a country feature ({e})") from None
        if code in geoms:
            raise DataError(src, f"features[{i}]", f"country {code} listed twice")
        if not g.is_valid:
            g = g.buffer(0)
        geoms[code] = g
        names[code] = str(f["properties"].get("name", code))
    return geoms, names


def load_world_sources(folder: Path) -> WorldSources:
    """Read and check every source file of a world area map."""
    folder = Path(folder)
    layout = _layout(folder / "layout.toml")
    territories, regions, modes = _territories(folder / "territories.toml")
    seas = _seas(folder / "seas.toml")
    cities = _cities(folder / "cities.toml")
    facts = _facts(folder / "board_facts.json")
    countries, names = _countries(folder / "ne_countries.geojson")
    tsrc = str(folder / "territories.toml")
    land_names = {n for n, sea in facts.spaces if not sea}
    sea_names = {n for n, sea in facts.spaces if sea}
    got = {t.name for t in territories}
    if got != land_names:
        missing, extra = sorted(land_names - got), sorted(got - land_names)
        raise DataError(
            tsrc, "", f"territories differ from the facts: missing {missing}, unknown {extra}"
        )
    if {s.name for s in seas} != sea_names:
        missing = sorted(sea_names - {s.name for s in seas})
        extra = sorted({s.name for s in seas} - sea_names)
        raise DataError(
            str(folder / "seas.toml"),
            "",
            f"sea zones differ from the facts: missing {missing}, unknown {extra}",
        )
    for t in territories:
        for code in t.countries + t.shares:
            if code not in countries:
                raise DataError(tsrc, f"territory {t.name!r}", f"unknown country code {code!r}")
    for code in modes:
        if code not in countries:
            raise DataError(tsrc, f"split_mode.{code}", "unknown country code")
    whole: dict[str, str] = {}
    for t in territories:
        for code in t.countries:
            if code in whole:
                raise DataError(
                    tsrc,
                    f"territory {t.name!r}",
                    f"{code} is already whole in {whole[code]!r}; use 'shares'",
                )
            whole[code] = t.name
    for t in territories:
        for code in t.shares:
            if code in whole:
                raise DataError(
                    tsrc,
                    f"territory {t.name!r}",
                    f"{code} is whole in {whole[code]!r} and cannot be shared",
                )
    for reg in regions:
        if reg.territory not in got:
            raise DataError(tsrc, f"region {reg.name!r}", f"unknown territory {reg.territory!r}")
        for code in reg.countries:
            if code not in countries:
                raise DataError(tsrc, f"region {reg.name!r}", f"unknown country code {code!r}")
    for c in cities:
        if c.territory not in got:
            raise DataError(
                str(folder / "cities.toml"),
                f"city {c.name!r}",
                f"unknown territory {c.territory!r}",
            )
    return WorldSources(layout, territories, regions, modes, seas, cities, facts, countries, names)
