"""Terrain by majority, rivers on hexsides, borders, places: tiny synthetic cases.

The end-to-end case builds a 6 x 6 map whose geography is drawn in *map units* (so each
feature sits exactly where the test wants it) and then carried to longitude/latitude with
the fitted georeference, which is what the real sources look like to the builder.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from shapely import affinity
from shapely.geometry import LineString, Polygon, box

from wartable.core.hexgrid import Hexside, hexside_endpoints
from wartable.mapbuild.hexbuild import (
    build_hex_map,
    fit_grid,
    map_coords,
    prepare_rivers,
    river_crossings,
    terrain_by_majority,
)
from wartable.mapbuild.sources import GeoLayers, Place
from wartable.mapbuild.spec import load_spec
from wartable.maps import dump_map

# --- river crossings -------------------------------------------------------------------------

SEG = LineString([(0.0, 0.0), (2.0, 0.0)])  # from one hex centre to the next


def test_a_river_crossing_the_centre_line_once_makes_a_river_hexside() -> None:
    assert river_crossings(SEG, [LineString([(1.0, -1.0), (1.0, 1.0)])])


def test_a_bend_that_crosses_and_comes_back_separates_nothing() -> None:
    wiggle = LineString([(0.8, -1.0), (0.8, 0.3), (1.2, 0.3), (1.2, -1.0)])  # in and out
    assert not river_crossings(SEG, [wiggle])


def test_a_river_that_stops_short_is_no_river() -> None:
    assert not river_crossings(SEG, [LineString([(1.0, -1.0), (1.0, -0.2)])])


def test_two_rivers_crossing_once_each_still_count() -> None:
    """Parity is per river chain, so two separate rivers do not cancel each other."""
    a = LineString([(0.5, -1.0), (0.5, 1.0)])
    b = LineString([(1.5, -1.0), (1.5, 1.0)])
    assert river_crossings(SEG, [a, b])


def test_prepare_rivers_merges_pieces_simplifies_and_drops_short_chains() -> None:
    pieces = [LineString([(0, 0), (1, 0.02), (2, 0)]), LineString([(2, 0), (4, 0)]),
              LineString([(10, 10), (10.3, 10)])]
    chains = prepare_rivers(pieces, tolerance=0.1, min_length=1.0)
    assert len(chains) == 1  # two pieces joined, the 0.3-long stub dropped
    assert chains[0].length == pytest.approx(4.0)
    assert len(chains[0].coords) == 2  # the 0.02 wiggle simplified away


# --- terrain by majority ---------------------------------------------------------------------


def test_water_wins_only_with_a_majority() -> None:
    assert terrain_by_majority({"sea": 0.6, "clear": 0.4}, 1.0) == "sea"
    assert terrain_by_majority({"sea": 0.3, "lake": 0.25, "clear": 0.45}, 1.0) == "sea"
    assert terrain_by_majority({"sea": 0.2, "lake": 0.35, "clear": 0.45}, 1.0) == "lake"
    assert terrain_by_majority({"sea": 0.45, "clear": 0.3, "forest": 0.25}, 1.0) == "clear"


def test_the_largest_land_terrain_wins() -> None:
    assert terrain_by_majority({"clear": 0.3, "forest": 0.4, "marsh": 0.3}, 1.0) == "forest"
    assert terrain_by_majority({"clear": 0.5, "forest": 0.5}, 1.0,
                               land_order=("clear", "forest")) == "clear"
    assert terrain_by_majority({}, 1.0) == "clear"


# --- a tiny map, end to end ------------------------------------------------------------------

TINY = """
id = "test/tiny"
title = "Tiny"
version = 1
hex_size_miles = 10.0
provisional = true
[projection]
type = "lambert_conformal_conic"
lat0 = 50.0
lon0 = 10.0
lat1 = 49.0
lat2 = 51.0
clip = [8.0, 48.0, 12.0, 52.0]
[grid]
orientation = "pointy"
offset = "odd-r"
rows = [10, 15]
cols = [0, 5]
column_first = false
row_start = 15
row_dir = -1
col_start = 0
col_dir = 1
[[control]]
place = "Alpha"
label = "1501"
rule = "test"
[[control]]
place = "Beta"
label = "1004"
rule = "test"
[terrain]
types = [{ id = "clear", name = "clear", fill = "#eeeeee" },
         { id = "forest", name = "forest", fill = "#00aa00", pattern = "trees" },
         { id = "sea", name = "sea", fill = "#0000ff" },
         { id = "lake", name = "lake", fill = "#8888ff" }]
from_regions = { forest = "forest" }
[rivers]
simplify_hexes = 0.05
min_length_hexes = 0.3
[places]
city = ["Alpha", "Beta"]
"""


def _layers(places: tuple[Place, ...], **kw: object) -> GeoLayers:
    base: dict[str, object] = dict(land=Polygon(), lakes=(), lagoons=(), rivers=(), regions=(),
                                   areas=(), terrain=(), places=places, fortified_lines=())
    base.update(kw)
    return GeoLayers(**base)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    path = Path(tmp_path_factory.mktemp("spec")) / "tiny.toml"
    path.write_text(TINY, encoding="utf-8")
    spec = load_spec(path)
    places = (Place("Alpha", "city", 9.9, 50.1, None, "test"),
              Place("Beta", "city", 10.2, 49.8, None, "test"))
    fr = fit_grid(spec, _layers(places))
    lay, geo, g = fr.layout, fr.georef, spec.grid

    def hexpoly(label: str, k: float = 1.0) -> Polygon:
        return affinity.scale(Polygon(lay.corners(g.parse(label))), k, k)

    def lonlat(geom):  # type: ignore[no-untyped-def]
        return map_coords(geom, geo.to_lonlat)

    x0, y0, x1, y1 = box(*[c for h in g.label_hexes() for c in lay.hex_to_pixel(h)][:2],
                         *[c for h in g.label_hexes() for c in lay.hex_to_pixel(h)][-2:]).bounds
    world = box(x0 - 50, y0 - 50, x1 + 50, y1 + 50)
    land = world.difference(hexpoly("1505", 1.05))       # 1505 is sea
    lake = hexpoly("1202", 0.95)                          # 1202 is a lake
    forest = hexpoly("1102", 0.9).union(hexpoly("1004", 0.9))  # 1102 forest; Beta's 1004 too
    a, b = hexside_endpoints(lay, Hexside.between(g.parse("1302"), g.parse("1303")))
    river = LineString([a, b])                            # lies on the 1302|1303 hexside
    c3, c4 = lay.hex_to_pixel(g.parse("1403")), lay.hex_to_pixel(g.parse("1404"))
    mx, my = (c3[0] + c4[0]) / 2, (c3[1] + c4[1]) / 2
    wiggle = LineString([(mx - 2, my - 4), (mx - 2, my + 2), (mx + 2, my + 2), (mx + 2, my - 4)])
    # The wiggle really crosses the 1403-1404 centre line, twice:
    assert len(LineString([c3, c4]).intersection(wiggle).geoms) == 2
    xmid = (lay.hex_to_pixel(g.parse("1202"))[0] + lay.hex_to_pixel(g.parse("1203"))[0]) / 2
    west = box(x0 - 50, y0 - 50, xmid, y1 + 50)
    east = box(xmid, y0 - 50, x1 + 50, y1 + 50)
    layers = _layers(
        places, land=lonlat(land), lakes=(lonlat(lake),),
        rivers=((3, lonlat(river)), (3, lonlat(wiggle))),
        regions=(("West", lonlat(west.intersection(land))),
                 ("East", lonlat(east.intersection(land)))),
        terrain=(("Wood", "forest", lonlat(forest)),))
    return spec, build_hex_map(spec, layers), xmid, layers


def test_tiny_control_points_fit_exactly(tiny) -> None:  # type: ignore[no-untyped-def]
    _, res, _, _ = tiny
    for c in res.report.controls:
        assert c.ok and c.residual_hexes < 1e-6


def test_tiny_terrain_by_majority(tiny) -> None:  # type: ignore[no-untyped-def]
    _, res, _, _ = tiny
    m = res.map
    assert m.info("1505").terrain == "sea"
    assert m.info("1202").terrain == "lake"
    assert m.info("1102").terrain == "forest"   # 81% of the hex
    assert m.info("1103").terrain == "clear"    # only the forest's fringe
    # Beta's hex is 81% forest, but cities are clear [1940: What If? 10.14]
    assert m.info("1004").terrain == "clear"
    assert any("1004 (Beta): forest -> clear" in c for c in res.report.changes)


def test_tiny_river_and_water_hexsides(tiny) -> None:  # type: ignore[no-untyped-def]
    _, res, _, _ = tiny
    m = res.map
    assert "river" in m.hexside_features("1302", "1303")
    rivers = [s for s, f in m.hexsides.items() if "river" in f]
    assert len(rivers) == 1  # the wiggle between 1403 and 1404 crosses twice: no river
    assert m.hexside_features("1403", "1404") == ()
    assert "lake" in m.hexside_features("1202", "1203")
    assert "sea" in m.hexside_features("1505", "1504")
    assert m.hexside_features("1505", "1504") == ("sea",)


def test_tiny_regions_and_borders(tiny) -> None:  # type: ignore[no-untyped-def]
    _, res, xmid, _ = tiny
    m = res.map
    for label in m.location_ids():
        info = m.info(label)
        if info.terrain in ("sea", "lake"):
            assert info.region is None
            continue
        x, _ = m.center(label)
        if abs(x - xmid) > 3:  # hexes clearly on one side
            assert info.region == ("West" if x < xmid else "East"), label
    for side, feats in m.hexsides.items():
        ra, rb = m.hexes[side.a].region, m.hexes[side.b].region
        assert ("border" in feats) == (ra is not None and rb is not None and ra != rb)
    assert any("border" in f for f in m.hexsides.values())


def test_tiny_places(tiny) -> None:  # type: ignore[no-untyped-def]
    spec, res, _, _ = tiny
    assert {p.name: p.hex_or_space for p in res.map.places} == {"Alpha": "1501", "Beta": "1004"}
    assert res.map.info("1501").places == ("Alpha",)


def test_tiny_build_twice_gives_the_same_bytes(tiny) -> None:  # type: ignore[no-untyped-def]
    spec, res, _, layers = tiny
    again = build_hex_map(spec, layers)
    assert dump_map(again.map, compress=True) == dump_map(res.map, compress=True)
    assert again.report.text() == res.report.text()
