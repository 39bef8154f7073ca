"""The built AETO maps (maps/aeto/west|east.json.gz) against the rulebook's named hexes.

Hex numbers come from reference/rules/000 (digest 000 §4.1 and §4.2); coordinates are the
real places' (city centres, to 0.01°). A named place on the wrong hex fails, except the known
rulebook inconsistencies listed below with their reason (the build report lists them too).
Seen on the renders /tmp/hm/aeto_west.png and /tmp/hm/aeto_east2.png
(`wartable map render aeto/east -o ... --scale 14 --geography`).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wartable.core.hexgrid import Hexside
from wartable.mapbuild.commands import build_maps, locate
from wartable.mapbuild.hexbuild import Georef
from wartable.mapbuild.sources import maps_dir
from wartable.maps import HexMap, load_map

MAPS = maps_dir() / "aeto"


def _load(name: str) -> tuple[HexMap, Path]:
    path = MAPS / f"{name}.json.gz"
    m = load_map(path)
    assert isinstance(m, HexMap)
    return m, path


@pytest.fixture(scope="module")
def west() -> tuple[HexMap, Path]:
    return _load("west")


@pytest.fixture(scope="module")
def east() -> tuple[HexMap, Path]:
    return _load("east")


# (map, place, lat, lon, hex, rule) — the digest's hex, the real place.
NAMED = [
    ("west", "Casablanca", 33.57, -7.59, "W 1204", "[9.2] [11.25]"),
    ("west", "Oran", 35.70, -0.64, "W 1312", "[9.2] [11.25]"),
    ("west", "Algiers", 36.75, 3.06, "W 1316", "[9.2] [11.25]"),
    ("west", "Bizerte", 37.27, 9.87, "W 1323", "[9.2] [11.25]"),
    ("west", "Gibraltar", 36.14, -5.35, "W 1508", "[11.25]"),
    ("west", "Rome", 41.90, 12.50, "W 2025", "[9.15]"),
    ("west", "Marseilles", 43.30, 5.37, "W 2319", "[9.7]"),
    ("west", "Lyon", 45.76, 4.84, "W 2619", "[9.7]"),
    ("west", "Bordeaux", 44.84, -0.58, "W 2714", "[9.7]"),
    ("west", "St. Nazaire", 47.27, -2.21, "W 3013", "[9.7]"),
    ("west", "Paris", 48.86, 2.35, "W 3118", "[9.7] [9.12]"),
    ("west", "Plymouth", 50.37, -4.14, "W 3514", "[11.25]"),
    ("west", "Southampton", 50.90, -1.40, "W 3515", "[11.25]"),
    ("west", "Warsaw", 52.23, 21.01, "W 3533", "[9.2] [10.17]"),
    ("west", "London", 51.51, -0.13, "W 3616", "[9.15] [11.25]"),
    ("west", "Hull", 53.74, -0.33, "W 3917", "[11.25]"),
    ("west", "Edinburgh", 55.95, -3.19, "W 4316", "[11.25]"),
    ("west", "Scapa Flow", 58.90, -3.10, "W 4717", "[11.21] [11.25]"),
    ("east", "Murmansk", 68.97, 33.08, "E 0230", "[9.25]"),
    ("east", "Archangel", 64.54, 40.54, "E 0626", "[9.25]"),
    ("east", "Leningrad", 59.94, 30.32, "E 1429", "[9.25]"),
    ("east", "Kazan", 55.79, 49.12, "E 1515", "[9.25]"),
    ("east", "Tallinn", 59.44, 24.75, "E 1633", "[10.17]"),
    ("east", "Moscow", 55.76, 37.62, "E 1924", "[9.25] [9.15]"),
    ("east", "Riga", 56.95, 24.11, "E 1933", "[10.17] [10.18]"),
    ("east", "Tula", 54.19, 37.62, "E 2123", "[9.25]"),
    ("east", "Vilnius", 54.69, 25.28, "E 2231", "[10.17] Vilna"),
    ("east", "Voronezh", 51.67, 39.20, "E 2320", "[9.25]"),
    ("east", "Minsk", 53.90, 27.57, "E 2330", "[9.25]"),
    ("east", "Stalingrad", 48.71, 44.52, "E 2515", "[9.25]"),
    ("east", "Kharkov", 49.99, 36.23, "E 2722", "[9.25]"),
    ("east", "Brest-Litovsk", 52.10, 23.69, "E 2733", "[10.17]"),
    ("east", "Kiev", 50.45, 30.52, "E 2827", "[9.25]"),
    ("east", "Lvov", 49.84, 24.03, "E 3032", "[10.17]"),
    ("east", "Dnepropetrovsk", 48.46, 35.05, "E 3023", "[9.25]"),
    ("east", "Maikop", 44.61, 40.10, "E 3318", "[9.25]"),
    ("east", "Odessa", 46.48, 30.73, "E 3326", "[9.25]"),
    ("east", "Grozny", 43.32, 45.69, "E 3411", "[9.25]"),
    ("east", "Sevastopol", 44.62, 33.52, "E 3622", "[9.25]"),
    ("east", "Ploesti", 44.94, 26.02, "E 3629", "[8.2] [11.23]"),
    ("east", "Baku", 40.41, 49.87, "E 3707", "[9.25]"),
    ("east", "Tbilisi", 41.72, 44.79, "E 3712", "[9.25]"),
    ("east", "Constanta", 44.17, 28.63, "E 3727", "[10.20] Constantine"),
    ("east", "Batumi", 41.64, 41.64, "E 3814", "[9.25]"),
    ("east", "Ankara", 39.93, 32.86, "E 4322", "[9.14]"),
    ("east", "Mosul", 36.34, 43.13, "E 4810", "[10.23]"),
    ("east", "Baghdad", 33.31, 44.36, "E 5008", "[10.23]"),
    ("east", "Beirut", 33.89, 35.50, "E 5118", "[11.25]"),
    ("east", "Alexandria", 31.20, 29.92, "E 5623", "[11.11] [11.25]"),
    ("east", "Cairo", 30.04, 31.24, "E 5721", "[10.23] [11.11] Cairo/Suez"),
]

# Hexes the text names without their place; the place is our inference (the specs say why).
INFERRED = [
    ("west", "Bayeux", 49.28, -0.70, "W 3316", "[11.0] the D-Day hex: the Normandy beaches"),
    ("west", "Dunkirk", 51.03, 2.38, "W 3518", "[9.19] the coastal end of the border hexes"),
    ("west", "Longwy", 49.52, 5.77, "W 3120", "[9.19] the eastern end of the border hexes"),
    ("east", "Kingisepp", 59.37, 28.61, "E 1531", "[10.16] Soviet border hex by the Narva"),
    ("east", "Ostrov", 57.34, 28.35, "E 1830", "[10.16] north end of the Soviet border"),
]

# The rulebook's own inconsistencies: (map, place, the text's hex, reason).
KNOWN_INCONSISTENT = [
    ("west", "Dakar", "W 0804", "four rows below Casablanca W 1204 but 2,100 km further south: "
     "the printed map shows Dakar displaced"),
    ("west", "Panama", "W 3303", "a holding location printed on the map, not its geography"),
    ("east", "Rostov", "E 3012", "a typo: E 3012 lies east of Stalingrad E 2515"),
]


@pytest.mark.parametrize("which,name,lat,lon,label,rule", NAMED, ids=[n[1] for n in NAMED])
def test_named_place_lands_on_its_printed_hex(request: pytest.FixtureRequest, which: str,
                                             name: str, lat: float, lon: float, label: str,
                                             rule: str) -> None:
    m, path = request.getfixturevalue(which)
    assert locate(m, path, lat, lon) == label, rule
    assert name in m.info(label).places, rule
    assert m.info(label).terrain not in ("sea", "lake"), rule  # a city stands on land


@pytest.mark.parametrize("which,name,lat,lon,label,rule", INFERRED,
                         ids=[n[1] for n in INFERRED])
def test_inferred_place_lands_on_its_hex(request: pytest.FixtureRequest, which: str, name: str,
                                         lat: float, lon: float, label: str, rule: str) -> None:
    m, path = request.getfixturevalue(which)
    assert locate(m, path, lat, lon) == label, rule
    assert name in m.info(label).places, rule


def test_10_16_soviet_western_border_hexes_are_soviet(east: tuple[HexMap, Path]) -> None:
    """[10.16] Soviet infantry must occupy every western border hex from E 3426 to E 1830 and
    E 1531 before the war: the three hexes the text names are Soviet land."""
    m, _ = east
    for label in ("E 1531", "E 1830", "E 3426"):
        assert m.info(label).region == "USSR", label


@pytest.mark.parametrize("which,name,label,reason", KNOWN_INCONSISTENT,
                         ids=[k[1] for k in KNOWN_INCONSISTENT])
def test_known_rulebook_inconsistency_is_reported(which: str, name: str, label: str,
                                                  reason: str) -> None:
    report = (MAPS / f"{which}.report.txt").read_text(encoding="utf-8")
    line = next(ln for ln in report.splitlines() if f" {name} " in ln and "target" in ln)
    assert line.lstrip().startswith("KNOWN") and f"target {label}" in line, reason
    assert "known rulebook inconsistency" in report


def test_rostov_e3012_is_a_typo(east: tuple[HexMap, Path]) -> None:
    """[9.25] "Rostov (E 3012)": columns shrink eastward, so column 12 lies east of
    Stalingrad's column 15, and the real Rostov (39.7°E) is 4.8° west of Stalingrad."""
    m, path = east
    assert m.center("E 3012")[0] > m.center("E 2515")[0]
    assert locate(m, path, 47.24, 39.72) != "E 3012"


def test_west_numbering_and_prefix(west: tuple[HexMap, Path]) -> None:
    """Digest 000 §1.2: "W " then four digits; rows grow north, columns grow east."""
    m, _ = west
    ids = m.location_ids()
    assert len(ids) == 50 * 36 and all(i.startswith("W ") and len(i) == 6 for i in ids)
    assert m.center("W 4717")[1] < m.center("W 1204")[1]  # row 47 north of row 12 (y down)
    assert m.center("W 3533")[0] > m.center("W 3514")[0]  # column 33 east of column 14
    assert m.hex_of("W 3616") == m.hex_of("W3616")  # the space is optional when typed


def test_east_numbering_and_prefix(east: tuple[HexMap, Path]) -> None:
    """Digest 000 §1.2: "E " then four digits; rows grow south, columns shrink eastward."""
    m, _ = east
    ids = m.location_ids()
    # 62 rows, 41 columns (37-41 added for Narvik, issue 19)
    assert len(ids) == 62 * 41 and all(i.startswith("E ") and len(i) == 6 for i in ids)
    assert m.center("E 5721")[1] > m.center("E 0230")[1]  # Cairo's row south of Murmansk's
    assert m.center("E 3707")[0] > m.center("E 3727")[0]  # column 07 east of column 27


def test_scapa_flow_evacuation_path_is_sea(west: tuple[HexMap, Path]) -> None:
    """[11.21] worked example: from Scapa Flow W 4717 the Hampden flies W 4816, W 4815,
    W 4915 (sea hexes north of Scapa, digest 000 §4.1), each adjacent to the last."""
    m, _ = west
    path = ["W 4717", "W 4816", "W 4815", "W 4915"]
    for a, b in zip(path, path[1:], strict=False):
        assert m.hex_of(a).distance(m.hex_of(b)) == 1
    assert all(m.info(h).terrain == "sea" for h in path[1:])


def test_west_border_and_bocage_hexes(west: tuple[HexMap, Path]) -> None:
    """[9.19] the French/Belgian border hexes are land on the border (a "border" hexside;
    our geography puts W 3219 mostly in Belgium, the rest in France); [11.0] the Normandy
    bocage hexes and the D-Day hex are French."""
    m, _ = west
    for label in ("W 3120", "W 3219", "W 3319", "W 3418", "W 3518"):
        h = m.hex_of(label)
        assert m.info(label).region in ("France", "Belgium"), label
        assert any("border" in m.hexsides.get(Hexside.between(h, n), ())
                   for n in h.neighbors() if n in m.hexes), label
    for label in ("W 3215", "W 3216", "W 3316"):
        assert m.info(label).region == "France", label


def test_east_areas_the_rules_name(east: tuple[HexMap, Path]) -> None:
    """[10.23] Egypt's arrival hexes E 6120-6122; [10.17] Tallinn, Riga, Vilna in the Baltic
    states; [9.4] the Polish partition line's ends E 2432 and E 3131 in East Poland (the
    Soviet zone of 23 August 1939)."""
    m, _ = east
    assert {m.info(f"E 612{i}").region for i in (0, 1, 2)} == {"Egypt"}
    assert m.info("E 1633").region == "Estonia"
    assert m.info("E 1933").region == "Latvia"
    assert m.info("E 2432").region == m.info("E 3131").region == "East Poland"


def test_georeference_with_the_warp_round_trips(east: tuple[HexMap, Path]) -> None:
    geo = Georef.from_dict(json.loads((MAPS / "east.geo.json").read_text(encoding="utf-8")))
    assert geo.warp is not None
    x, y = geo.to_map(37.62, 55.76)
    assert geo.to_lonlat(x, y) == pytest.approx((37.62, 55.76), abs=1e-6)


def test_committed_maps_are_up_to_date() -> None:
    results = build_maps(["aeto/west", "aeto/east"], write=False)
    assert [r[0] for r in results] == ["aeto/west", "aeto/east", "aeto/seams"]
    for map_id, text, same in results:
        assert same, f"{map_id}: run 'wartable map build {map_id}' and commit the result"
        if map_id == "aeto/seams":
            assert "ALL CHECKS PASS" in text
            continue
        assert "Result: all control points and constraints hold." in text
        assert "Local warp: thin-plate spline" in text


@pytest.mark.parametrize("which", ["west", "east"])
def test_report_gives_each_residual_before_and_after_the_warp(which: str) -> None:
    """Every control point's line shows the similarity's hex and residual and the warped
    ones; the warp carries each consistent point onto its hex centre (0.00 hex)."""
    report = (MAPS / f"{which}.report.txt").read_text(encoding="utf-8")
    lines = [ln for ln in report.splitlines() if "  target " in ln]
    names = {n[1] for n in NAMED + INFERRED if n[0] == which}
    assert {n for n in names if any(f" {n} " in ln for ln in lines)} == names
    for ln in lines:
        assert "similarity " in ln and "warped " in ln, ln
        if ln.lstrip().startswith("ok"):
            assert "warped" in ln and "(0.00 hex)" in ln.split("warped", 1)[1], ln
    assert "smallest Jacobian determinant" in report
