"""The built 1940: What If? maps (maps/whatif1940/*.json.gz) against the rulebook.

Rule numbers cite reference/rules/002 (digest 002 §2). A named place on the wrong hex fails.
The "seen on the render" tests pin what we checked by eye on /tmp/map_whatif1940_*.png
(`wartable map render whatif1940/east -o ... --scale 60 --geography`).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wartable.core.hexgrid import Hexside
from wartable.mapbuild.commands import build_maps, locate
from wartable.mapbuild.hexbuild import Georef
from wartable.mapbuild.sources import load_layers, maps_dir
from wartable.maps import HexMap, load_map

MAPS = maps_dir() / "whatif1940"


def _load(name: str) -> tuple[HexMap, Path]:
    path = MAPS / f"{name}.json.gz"
    m = load_map(path)
    assert isinstance(m, HexMap)
    return m, path


@pytest.fixture(scope="module")
def east() -> tuple[HexMap, Path]:
    return _load("east")


@pytest.fixture(scope="module")
def west() -> tuple[HexMap, Path]:
    return _load("west")


def _pick(request: pytest.FixtureRequest, which: str) -> tuple[HexMap, Path]:
    return request.getfixturevalue(which)  # type: ignore[no-any-return]


# --- control points -----------------------------------------------------------------------------

CONTROL = [
    ("east", "Moscow", 55.756, 37.617, "4624", "[3.2] MG sets up in Moscow (hex 4624); [4.3]"),
    ("east", "Leningrad", 59.939, 30.316, "5917", "[3.2] two Juggernauts in Leningrad (5917)"),
    ("east", "Vyazma", 55.210, 34.295, "4519", "[9.8] hex 4519 (Vyazma)"),
    ("west", "Aachen", 50.776, 6.084, "1905", "[2.2] the town of Aachen is in hex 1905"),
]


@pytest.mark.parametrize("which,name,lat,lon,label,rule", CONTROL,
                         ids=[c[1] for c in CONTROL])
def test_control_point_lands_on_its_hex(request: pytest.FixtureRequest, which: str, name: str,
                                        lat: float, lon: float, label: str, rule: str) -> None:
    m, path = _pick(request, which)
    assert locate(m, path, lat, lon) == label, rule
    assert name in m.info(label).places, rule
    assert m.info(label).terrain == "clear"  # cities and towns here are clear [10.14]


def test_vyazma_is_five_hexes_from_moscow(east: tuple[HexMap, Path]) -> None:
    m, _ = east
    assert m.hex_of("4624").distance(m.hex_of("4519")) == 5  # [9.8]


def test_numbering_orientation(east: tuple[HexMap, Path], west: tuple[HexMap, Path]) -> None:
    """[2.2]: first pair grows south to north, last pair west to east; 00 is the west edge."""
    for (m, _), rows, cols in ((east[0], east[1]), (42, 60), (0, 28)), \
            ((west[0], west[1]), (10, 29), (0, 19)):
        ids = m.location_ids()
        assert len(ids) == (rows[1] - rows[0] + 1) * (cols[1] - cols[0] + 1)
        x0, y0 = m.center(f"{rows[0]:02d}{cols[0]:02d}")
        x1, y1 = m.center(f"{rows[1]:02d}{cols[1]:02d}")
        assert y1 < y0 and x1 > x0  # north is up (y down), east is right
        assert m.layout.orientation.value == "pointy"
        assert "pointy-top" in m.notes


# --- east map: areas the rulebook names --------------------------------------------------------


def test_east_west_edge_is_greater_germany(east: tuple[HexMap, Path]) -> None:
    m, _ = east
    for row in range(43, 53):  # [6.5] [12.3] 4300 to 5200 inclusive
        assert m.info(f"{row}00").region == "Greater Germany", f"{row}00"


def test_east_baltic_coast_ends(east: tuple[HexMap, Path]) -> None:
    m, _ = east
    for label in ("5101", "6017"):  # [6.5] Baltic coastal hexes 5101 to 6017
        h = m.hex_of(label)
        assert m.hexes[h].terrain not in ("sea", "lake")
        assert any("sea" in m.hexsides.get(Hexside.between(h, n), ()) for n in h.neighbors())


def test_east_polish_revision_and_red_row(east: tuple[HexMap, Path]) -> None:
    m, _ = east
    revision = {lab for lab in m.location_ids() if "polish_revision" in m.info(lab).features}
    assert revision == {"4301", "4302", "4401", "4402", "4501"}  # [3.10]
    for lab in revision:
        assert m.info(lab).region == "Former Poland"  # Soviet set-up area, standard game
    red = {lab for lab in m.location_ids() if "red_row" in m.info(lab).features}
    assert red == {f"42{c:02d}" for c in range(1, 29)} | {f"{r}28" for r in range(42, 61)}


def test_east_rollbahn_terminus_in_germany(east: tuple[HexMap, Path]) -> None:
    assert east[0].info("5005").region == "Greater Germany"  # [6.5], inferred


def test_east_regions_the_rulebook_names(east: tuple[HexMap, Path]) -> None:
    m, _ = east
    regions = {i.region for i in m.hexes.values()}
    for r in ("Greater Germany", "Lithuania", "Latvia", "Estonia", "USSR", "Former Poland"):
        assert r in regions  # [3.2] [3.11]
    assert m.info("4624").region == "USSR"


# --- west map ------------------------------------------------------------------------------------


def test_west_french_and_german_edges(west: tuple[HexMap, Path]) -> None:
    m, _ = west
    french = [f"{r}00" for r in range(10, 18)] + [f"10{c:02d}" for c in range(1, 12)]
    for lab in french:  # [6.4] [9.2] French map-edge hexes 1700 to 1011
        assert m.info(lab).region == "France", lab
    german = ([f"10{c:02d}" for c in range(14, 20)] + [f"{r}19" for r in range(10, 30)]
              + [f"29{c:02d}" for c in range(9, 20)])
    for lab in german:  # [12.2] Greater Germany map-edge hexes 1014 through 2909
        assert m.info(lab).region == "Greater Germany", lab
    assert m.info("1800").region != "France" and m.info("2908").region != "Greater Germany"


def test_west_ruhr_cities(west: tuple[HexMap, Path]) -> None:
    """[4.2] [6.4] [10.14] [11.21]: Ruhr city hexes, in Greater Germany, clear terrain."""
    m, _ = west
    ruhr = {lab for lab in m.location_ids() if "ruhr_city" in m.info(lab).features}
    assert len(ruhr) >= 5
    for lab in ruhr:
        assert m.info(lab).terrain == "clear" and m.info(lab).region == "Greater Germany"
    named = {n for lab in ruhr for n in m.info(lab).places}
    assert {"Essen", "Duisburg", "Dortmund", "Düsseldorf", "Cologne"} <= named


def test_west_hunsruck_ardennes_ijsselmeer(west: tuple[HexMap, Path]) -> None:
    m, _ = west
    huns = [lab for lab in m.location_ids() if "hunsruck" in m.info(lab).features]
    assert huns  # [12.2] no airdrop into the Hunsruck: the hexes must be known
    for lab in huns:
        assert m.info(lab).terrain == "hill" and m.info(lab).region == "Greater Germany"
    ardennes = [lab for lab in m.location_ids() if m.info(lab).terrain == "ardennes"]
    assert len(ardennes) >= 6  # [10.10]
    assert {m.info(lab).region for lab in ardennes} <= {"Belgium", "Luxembourg", "France"}
    ijssel = next(lab for lab in m.location_ids() if "Ijsselmeer" in m.info(lab).places)
    assert m.info(ijssel).terrain == "lake"  # [6.4]: its coast is not North Sea coast
    sea = [lab for lab in m.location_ids() if m.info(lab).terrain == "sea"]
    assert sea  # the North Sea coast gives Anglo-French coastal supply [6.4]


def test_every_city_is_clear(east: tuple[HexMap, Path], west: tuple[HexMap, Path]) -> None:
    for m, _ in (east, west):  # [10.14]
        for p in m.places:
            if p.kind in ("city", "capital"):
                assert m.info(p.hex_or_space).terrain == "clear", p.name


# --- seen on the render ---------------------------------------------------------------------


def test_seen_on_the_east_render(east: tuple[HexMap, Path]) -> None:
    """What we saw on /tmp/map_whatif1940_east.png (scale 60, with the real geography):
    the Pripet marshes fill the south edge 4205-4209 south of Pinsk; the Valdai hills sit
    round Demyansk and Ostashkov (5118, 5119, 5219, 5220, 5319, 5019); the Meshchera marsh
    east of Moscow (4426-4428, 4526, 4527); Lake Peipus is 5713 and Lake Ladoga 5919, 5920,
    6019, 6020; the Gulf of Finland is sea from 6012 to 6016; the Gulf of Riga 5508/5608;
    Moscow 4624 has the Moskva (a major river) on two hexsides; the Volga runs past Kalinin
    4922; Grodno 4705 is Former Poland, Vilnius 4808 Lithuania, Memel 5304 Greater Germany;
    the Daugava is a major river at Daugavpils 5011."""
    m, _ = east
    t = {lab: m.info(lab).terrain for lab in m.location_ids()}
    assert all(t[x] == "marsh" for x in ("4205", "4206", "4207", "4208", "4209"))
    assert all(t[x] == "hill" for x in ("5118", "5119", "5219", "5220", "5319", "5019"))
    assert all(t[x] == "marsh" for x in ("4426", "4427", "4428", "4526", "4527"))
    assert t["5713"] == "lake"
    assert all(t[x] == "lake" for x in ("5919", "5920", "6019", "6020"))
    assert all(t[x] == "sea" for x in ("6012", "6013", "6014", "6015", "6016", "5508", "5608"))
    moscow = m.hex_of("4624")
    majors = [n for n in moscow.neighbors()
              if "major_river" in m.hexsides.get(Hexside.between(moscow, n), ())]
    assert len(majors) == 2
    kalinin = m.hex_of("4922")
    assert any("major_river" in m.hexsides.get(Hexside.between(kalinin, n), ())
               for n in kalinin.neighbors())
    assert "Grodno" in m.info("4705").places and m.info("4705").region == "Former Poland"
    assert "Vilnius" in m.info("4808").places and m.info("4808").region == "Lithuania"
    assert "Memel" in m.info("5304").places and m.info("5304").region == "Greater Germany"
    dvinsk = m.hex_of("5011")
    assert "Daugavpils" in m.info("5011").places
    assert any("major_river" in m.hexsides.get(Hexside.between(dvinsk, n), ())
               for n in dvinsk.neighbors())


def test_seen_on_the_west_render(west: tuple[HexMap, Path]) -> None:
    """What we saw on /tmp/map_whatif1940_west.png and the Ruhr crop (scale 110): the Ruhr
    city hexes 2008 Cologne, 2107 Düsseldorf, 2108 Wuppertal, 2208 Duisburg/Essen, 2209
    Bochum, 2308 Gelsenkirchen, 2309 Dortmund; the Rhine is a major river on Cologne's and
    Düsseldorf's hexsides and between Krefeld 2207 and Duisburg 2208; the Ardennes fill
    1502-1504, 1602-1605, 1703-1705 round Bastogne; the Hunsruck is 1408, 1409, 1508, 1509,
    1610; the IJsselmeer of 1940 is 2704, 2804, 2805, 2904; the North Sea 2900-2902 and
    2400-2800 on the west edge; Luxembourg city 1406 is in Luxembourg; Aachen 1905 is German."""
    m, _ = west
    ruhr = {lab for lab in m.location_ids() if "ruhr_city" in m.info(lab).features}
    assert ruhr == {"2008", "2107", "2108", "2208", "2209", "2308", "2309"}
    cologne = m.hex_of("2008")
    assert any("major_river" in m.hexsides.get(Hexside.between(cologne, n), ())
               for n in cologne.neighbors())
    assert "major_river" in m.hexside_features("2207", "2208")
    ard = {lab for lab in m.location_ids() if m.info(lab).terrain == "ardennes"}
    assert ard == {"1502", "1503", "1504", "1602", "1603", "1604", "1605", "1703", "1704", "1705"}
    huns = {lab for lab in m.location_ids() if "hunsruck" in m.info(lab).features}
    assert huns == {"1408", "1409", "1508", "1509", "1610"}
    lakes = {lab for lab in m.location_ids() if m.info(lab).terrain == "lake"}
    assert lakes == {"2704", "2804", "2805", "2904"}
    assert all(m.info(x).terrain == "sea" for x in ("2900", "2901", "2902", "2400", "2800"))
    assert m.info("1406").region == "Luxembourg" and "Luxembourg" in m.info("1406").places
    assert m.info("1905").region == "Greater Germany"


# --- the files are what the sources build, byte for byte ------------------------------------------


def test_committed_maps_are_up_to_date_and_deterministic() -> None:
    """Building from maps/sources gives the committed bytes: this build, in this process,
    repeats the one that wrote the files, byte for byte (the tiny map in
    test_hexbuild_geometry.py is also built twice in one process)."""
    results = build_maps(["whatif1940/east", "whatif1940/west"], write=False)
    for map_id, text, same in results:
        assert same, f"{map_id}: run 'wartable map build {map_id}' and commit the result"
        assert "Result: all control points and constraints hold." in text


def test_georeference_file(east: tuple[HexMap, Path]) -> None:
    m, path = east
    geo = Georef.from_dict(json.loads((MAPS / "east.geo.json").read_text(encoding="utf-8")))
    x, y = geo.to_map(37.617, 55.756)
    lon, lat = geo.to_lonlat(x, y)
    assert (lon, lat) == pytest.approx((37.617, 55.756), abs=1e-9)
    assert load_layers() is load_layers()  # read once per process
