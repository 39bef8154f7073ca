"""The join of the AETO West and East maps (maps/aeto/seams.json, issue 19): the two maps play
as one theatre, no ground belongs to both, and a unit crosses the seam to the hex that touches
its own on the table.

Places are located by latitude/longitude through each map's georeference (not through the seam
code). The seam line is maps/sources/seams/aeto.toml's: 24 E at 62 N, 22 E at 50 N, 21 E at
40 N, 20.4 E at 32 N. Seen on /tmp/maps/aeto_join_north.png and aeto_join_south.png
(maps/sources/authoring/render_seam.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wartable.core.errors import DataError
from wartable.mapbuild.commands import _build_seams, locate
from wartable.mapbuild.sources import maps_dir
from wartable.maps import HexMap, load_map
from wartable.maps.seams import Seam, load_seam, seam_of

AETO = maps_dir() / "aeto"


@pytest.fixture(scope="module")
def seam() -> Seam:
    return load_seam(AETO / "seams.json")


def _at(map_id: str, lat: float, lon: float) -> str | None:
    path = AETO / f"{map_id.split('/')[1]}.json.gz"
    m = load_map(path)
    assert isinstance(m, HexMap)
    return locate(m, path, lat, lon)


def test_the_committed_seam_is_what_the_build_makes() -> None:
    [(seam_id, report, same)] = _build_seams(["aeto/west"], write=False)
    assert seam_id == "aeto/seams"
    assert same, "maps/aeto/seams.json differs from a fresh build: run 'wartable map build'"
    assert "ALL CHECKS PASS" in report


# The texts' places: each stands on its own map's side of the seam, and on the other map (where
# that map covers it) on a hex beyond the seam.
TEXT_PLACES = [  # name, lat, lon, the map it belongs to, its hex there
    ("Warsaw [9.2]", 52.23, 21.01, "aeto/west", "W 3533"),
    ("Budapest", 47.50, 19.04, "aeto/west", "W 2831"),
    ("Belgrade", 44.82, 20.46, "aeto/west", "W 2432"),
    ("Riga [10.17]", 56.95, 24.11, "aeto/east", "E 1933"),
    ("Vilna [10.17]", 54.69, 25.28, "aeto/east", "E 2231"),
    ("Brest-Litovsk [10.17]", 52.10, 23.73, "aeto/east", "E 2733"),
    ("Lvov [10.17]", 49.84, 24.03, "aeto/east", "E 3032"),
    ("Tallinn [10.17]", 59.44, 24.75, "aeto/east", "E 1633"),
    ("Helsinki", 60.17, 24.94, "aeto/east", "E 1533"),
    ("Sofia", 42.70, 23.32, "aeto/east", "E 4031"),
    ("Tobruk", 32.08, 23.96, "aeto/east", "E 5630"),
]


@pytest.mark.parametrize("name,lat,lon,owner,label", TEXT_PLACES)
def test_a_place_belongs_to_one_map(seam: Seam, name: str, lat: float, lon: float, owner: str,
                                    label: str) -> None:
    assert _at(owner, lat, lon) == label, name
    assert seam.owns(owner, label), f"{name} {label} is beyond the seam on {owner}"
    other = seam.east if owner == seam.west else seam.west
    there = _at(other, lat, lon)
    if there is not None:
        assert not seam.owns(other, there), f"{name} is ground of both maps ({label}, {there})"


def _seam_lon(lat: float) -> float:  # the spec's line, written out here
    pts = [(24.0, 62.0), (22.0, 50.0), (21.0, 40.0), (20.4, 32.0)]
    if lat >= 62.0:
        return 24.0
    for (a0, b0), (a1, b1) in zip(pts, pts[1:], strict=False):
        if b1 <= lat <= b0:
            return a0 + (b0 - lat) / (b0 - b1) * (a1 - a0)
    return 20.4


@pytest.mark.parametrize("lat", [60.5, 58.0, 55.0, 52.2, 49.0, 46.0, 43.0, 40.5, 37.0, 34.0,
                                 32.5])
def test_no_ground_belongs_to_both_maps(seam: Seam, lat: float) -> None:
    # points 0.8 to 3 degrees either side of the line: exactly one map owns each
    for dlon in (-3.0, -2.0, -1.2, -0.8, 0.8, 1.2, 2.0, 3.0):
        lon = _seam_lon(lat) + dlon
        owners = [m for m in (seam.west, seam.east)
                  if (h := _at(m, lat, lon)) is not None and seam.owns(m, h)]
        assert owners == [seam.west if dlon < 0 else seam.east], (lat, lon, owners)


@pytest.mark.parametrize("lat", [61.0, 57.0, 54.5, 52.2, 50.0, 47.5, 45.0, 42.0, 39.0, 35.0,
                                 33.0])
def test_a_unit_crosses_the_seam_to_the_hex_beside_it(seam: Seam, lat: float) -> None:
    # the nearest hex each map owns west and east of the line (a point 0.3 degrees off the
    # line, about 20 km, may still fall in a hex whose centre is across it): they touch on the
    # table, so the seam joins them, or (where both maps' hexes between them lie just across
    # the line) joins the west hex to a neighbour of the east one
    lon = _seam_lon(lat)
    w = next(h for d in (0.3, 0.6, 0.9) if (h := _at(seam.west, lat, lon - d)) is not None
             and seam.owns(seam.west, h))
    e = next(h for d in (0.3, 0.6, 0.9) if (h := _at(seam.east, lat, lon + d)) is not None
             and seam.owns(seam.east, h))
    east = load_map(AETO / "east.json.gz")
    assert isinstance(east, HexMap)
    across = {lab for _, lab in seam.joined(seam.west, w)}
    assert e in across or any(e in east.neighbors(x) for x in across), (lat, w, e, across)
    assert all((seam.west, w) in seam.joined(seam.east, x) for x in across)
    # and no farther than the hexes beside it: at most four across
    assert 1 <= len(across) <= 4


def test_a_hex_away_from_the_seam_joins_nothing(seam: Seam) -> None:
    assert seam.joined("aeto/west", "W 3616") == ()  # London
    assert seam.joined("aeto/east", "E 1924") == ()  # Moscow


def test_a_bad_seam_file_is_one_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "seams.json"
    bad.write_text(json.dumps({"id": "aeto", "west": "aeto/west"}), encoding="utf-8")
    with pytest.raises(DataError, match="not a seam file"):
        load_seam(bad)
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(DataError, match="cannot read the seam file"):
        load_seam(bad)


@pytest.mark.parametrize("name,lat,lon,label", [
    ("Narvik [2.26]", 68.44, 17.43, "E 0537"),
    ("Tromsø", 69.65, 18.96, None),
    ("Bodø", 67.28, 14.40, None),
    ("Trondheim", 63.43, 10.39, None),
])
def test_norway_north_of_trondheim_is_on_the_east_map(seam: Seam, name: str, lat: float,
                                                      lon: float, label: str | None) -> None:
    # the East map's columns 37-41 (issue 19): the West map ends south of Trondheim
    assert _at(seam.west, lat, lon) is None, name
    got = _at(seam.east, lat, lon)
    assert got is not None, f"{name} is on neither AETO map"
    if label is not None:
        assert got == label
    m = load_map(AETO / "east.json.gz")
    assert isinstance(m, HexMap)
    assert seam.owns(seam.east, got)
    assert m.info(got).region == "Norway", (name, got, m.info(got).region)


def test_narvik_is_a_named_port_of_the_east_map() -> None:
    m = load_map(AETO / "east.json.gz")
    assert [(p.name, p.kind, p.hex_or_space) for p in m.places if p.name == "Narvik"] == [
        ("Narvik", "port", "E 0537")]


def test_map_hex_says_where_a_hex_meets_the_other_map(seam: Seam) -> None:
    from wartable.mapbuild.commands import hex_text

    west = load_map(AETO / "west.json.gz")
    assert isinstance(west, HexMap)
    # W 3534 is east of Warsaw on the seam; W 3536 lies on the East map's ground
    joined = ", ".join(f"{lab} (aeto/east)" for _, lab in seam.joined("aeto/west", "W 3534"))
    assert f"  seam: joins {joined}" in hex_text(west, "W 3534")
    assert "E 27" in joined
    assert ("  seam: beyond the seam, on aeto/east's ground (not played on aeto/west)"
            in hex_text(west, "W 3536"))
    assert "seam" not in hex_text(west, "W 3616")  # London


def test_seam_of_finds_a_maps_seam(seam: Seam) -> None:
    assert seam_of("aeto/east") == seam == seam_of("aeto/west")
    assert seam_of("eto/europe") is None
    assert seam_of("whatif1940/east") is None
