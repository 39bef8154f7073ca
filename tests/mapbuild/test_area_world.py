"""The Axis & Allies Anniversary Edition world area map, ``aa_anniversary/world``.

The committed file `maps/aa_anniversary/world.json.gz` is checked against the game facts
(the sources' `board_facts.json`: names, the 407 adjacencies) and against geography we
looked at on renders of the map (cities in their territories, seas in their zones). One test
rebuilds the map from its sources and expects the committed bytes: the build is
deterministic and the committed file is current.
"""

from __future__ import annotations

import json
import math
import tomllib
from pathlib import Path
from typing import Any

import pytest
import shapely  # type: ignore[import-untyped,unused-ignore]
from shapely.geometry import Point  # type: ignore[import-untyped,unused-ignore]
from shapely.strtree import STRtree  # type: ignore[import-untyped,unused-ignore]

from wartable.core.errors import DataError
from wartable.mapbuild import area_world
from wartable.mapbuild.area_geo import Projection, seam_contacts, shared_borders, union
from wartable.mapbuild.area_world import MAP_ID, OUT_PATH, SOURCES_DIR, display_name, space_id
from wartable.maps.mapfile import dump_map, load_map
from wartable.maps.model import AreaMap

LAYOUT = tomllib.loads((SOURCES_DIR / "layout.toml").read_text(encoding="utf-8"))
P = LAYOUT["projection"]
PROJ = Projection(P["kind"], P["seam_lon"], P["top_lat"], P["bottom_lat"])
BUILT_WITH_GEOS = (3, 14)  # the GEOS of the committed build; others may differ in the last digit


@pytest.fixture(scope="module")
def world() -> AreaMap:
    m = load_map(OUT_PATH)
    assert isinstance(m, AreaMap)
    return m


@pytest.fixture(scope="module")
def facts() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SOURCES_DIR / "board_facts.json").read_text("utf-8"))
    return data


@pytest.fixture(scope="module")
def rebuilt(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, area_world.AdjacencyCheck]:
    out = tmp_path_factory.mktemp("aa_world") / "world.json.gz"
    check = area_world.build_world_file(out)
    return out, check


def at(m: AreaMap, lon: float, lat: float) -> str | None:
    return m.location_at(*PROJ.point(lon, lat))


# --- the file and the facts -----------------------------------------------------------------


def test_file_loads_with_every_space_of_the_facts(world: AreaMap, facts: dict[str, Any]) -> None:
    assert world.id == MAP_ID
    assert len(world.spaces) == 162
    kinds = [sp.kind for sp in world.spaces.values()]
    assert kinds.count("land") == 97 and kinds.count("sea") == 65
    names = {display_name(s["name"]) for s in facts["spaces"]}
    assert {sp.name for sp in world.spaces.values()} == names
    for s in facts["spaces"]:
        sp = world.spaces[space_id(s["name"])]
        assert sp.name == display_name(s["name"])
        assert sp.kind == ("sea" if s["sea"] else "land")
    assert world.extent is not None
    assert world.extent[:3] == (0.0, 0.0, 360.0)
    assert world.extent[3] == pytest.approx(PROJ.height)
    assert "Miller" in world.notes and "95°W" in world.notes


def test_space_ids() -> None:
    assert space_id("Germany") == "germany"
    assert space_id("1 Sea Zone") == "sz01"
    assert space_id("65 Sea Zone") == "sz65"
    assert space_id("Karelia S.S.R.") == "karelia_ssr"
    assert space_id("French Indo-China Thailand") == "french_indo_china_thailand"
    assert space_id("Anglo-Egypt Sudan") == "anglo_egypt_sudan"


def test_adjacency_is_exactly_the_facts(world: AreaMap, facts: dict[str, Any]) -> None:
    want = {frozenset((space_id(a), space_id(b))) for a, b in facts["connections"]}
    assert len(want) == 407
    assert world.adjacency == want
    assert set(world.neighbors("germany")) == {
        "sz05", "balkans", "czechoslovakia_hungary", "france", "northwestern_europe",
        "poland", "switzerland",
    }  # fmt: skip


def test_polygons_are_valid_and_labels_inside(world: AreaMap) -> None:
    for sid, sp in world.spaces.items():
        assert sp.polygon.is_valid, sid
        assert not sp.polygon.is_empty, sid
        assert sp.polygon.contains(Point(sp.label_point)), sid


def test_land_territories_do_not_overlap(world: AreaMap) -> None:
    land = [sp for sp in world.spaces.values() if sp.kind == "land"]
    tree = STRtree([sp.polygon for sp in land])
    for i, sp in enumerate(land):
        for j in tree.query(sp.polygon, predicate="intersects"):
            if int(j) > i:
                overlap = sp.polygon.intersection(land[int(j)].polygon).area
                assert overlap < 1e-6, (sp.id, land[int(j)].id, overlap)


def test_sea_zones_do_not_overlap_land_or_each_other(world: AreaMap) -> None:
    land = union(sp.polygon for sp in world.spaces.values() if sp.kind == "land")
    seas = [sp for sp in world.spaces.values() if sp.kind == "sea"]
    for sp in seas:
        assert sp.polygon.intersection(land).area < 1e-6, sp.id
    tree = STRtree([sp.polygon for sp in seas])
    for i, sp in enumerate(seas):
        for j in tree.query(sp.polygon, predicate="intersects"):
            if int(j) > i:
                assert sp.polygon.intersection(seas[int(j)].polygon).area < 1e-6


def test_small_islands_can_be_seen(world: AreaMap) -> None:
    r = LAYOUT["islands"]["min_radius"]
    for sid in ("wake_island", "midway", "iwo_jima", "okinawa", "caroline_islands"):
        assert world.spaces[sid].polygon.area > 0.9 * math.pi * r * r, sid
    assert world.spaces["gibraltar"].polygon.area > 0.9 * math.pi * 0.32**2


# --- geography checked on the renders -------------------------------------------------------


def test_victory_cities_lie_in_their_territories(world: AreaMap) -> None:
    cities = tomllib.loads((SOURCES_DIR / "cities.toml").read_text(encoding="utf-8"))["city"]
    assert len(cities) == 18
    for c in cities:
        assert at(world, *c["at"]) == space_id(c["territory"]), c["name"]
    places = {p.name: p.hex_or_space for p in world.places}
    assert places["Berlin"] == "germany" and places["Moscow"] == "russia"


@pytest.mark.parametrize(
    ("lon", "lat", "where"),
    [
        (13.4, 52.52, "germany"),  # Berlin
        (37.62, 55.75, "russia"),  # Moscow
        (30.5, 50.45, "eastern_ukraine"),  # Kiev
        (-3.7, 40.4, "spain"),  # Madrid
        (31.2, 30.0, "egypt"),  # Cairo
        (-149.9, 61.2, "alaska"),  # Anchorage
        (132.5, 44.5, "buryatia_ssr"),  # Primorye
        (85.3, 27.7, "himalaya"),  # Kathmandu
        (103.8, 1.35, "french_indo_china_thailand"),  # Singapore
        (-95.5, 30.0, "central_united_states"),  # just west of the seam
        (-94.5, 30.0, "eastern_united_states"),  # just east of it
        (-100.0, 20.0, "mexico"),
        (-90.0, 15.0, "panama"),
        (3.0, 56.0, "sz06"),  # North Sea
        (19.0, 57.0, "sz05"),  # Baltic
        (34.0, 43.5, "sz16"),  # Black Sea
        (11.5, 40.0, "sz14"),  # Tyrrhenian Sea
        (-75.0, 14.5, "sz19"),  # Caribbean
        (-48.0, 30.0, "sz11"),  # mid-Atlantic
        (87.0, 15.0, "sz35"),  # Bay of Bengal
        (135.0, 40.0, "sz62"),  # Sea of Japan
        (-160.0, 15.0, "sz53"),  # south of Hawaii
        (50.5, 42.0, None),  # the Caspian Sea is no space
        (160.0, 70.0, None),  # nor the East Siberian Sea (void: off the playing area)
    ],
)
def test_sample_points(world: AreaMap, lon: float, lat: float, where: str | None) -> None:
    assert at(world, lon, lat) == where


def test_mobilization_zone_box(world: AreaMap) -> None:
    # Rulebook: bought units wait in the mobilization zone, a box in the South Atlantic.
    (box,) = world.boxes
    assert (box.id, box.name) == ("mobilization", "Mobilization Zone")
    assert at(world, -25.0, -42.0) == "box:mobilization"
    for sp in world.spaces.values():
        assert not box.contains(*sp.label_point), sp.id


def test_board_wraps_at_the_seam(world: AreaMap) -> None:
    shapes = {sid: sp.polygon for sid, sp in world.spaces.items()}
    across = seam_contacts(shapes, width=360.0, height=PROJ.height, tol=0.02, min_length=0.08)
    wrap_pairs = {
        ("western_canada", "eastern_canada"),
        ("central_united_states", "eastern_united_states"),
        ("mexico", "panama"),
        ("sz20", "sz55"),
        ("sz21", "sz44"),
        ("sz25", "sz43"),
    }
    for a, b in wrap_pairs:
        assert frozenset((a, b)) in across, (a, b)
        assert frozenset((a, b)) in world.adjacency
    # The rulebook's wrap pairs are the only sea-sea and land-land contacts across the edge.
    kinds = {sid: sp.kind for sid, sp in world.spaces.items()}
    same_kind = {p for p in across if len({kinds[s] for s in p}) == 1}
    assert same_kind == {frozenset(p) for p in wrap_pairs}


def test_geometry_agrees_with_the_facts(world: AreaMap) -> None:
    shapes = {sid: sp.polygon for sid, sp in world.spaces.items()}
    touching = set(shared_borders(shapes, tol=0.02, min_length=0.08))
    touching |= set(
        seam_contacts(shapes, width=360.0, height=PROJ.height, tol=0.02, min_length=0.08)
    )
    missing = world.adjacency - touching
    # Canals, the Turkish Straits and Eastern United States-Panama (across the Gulf of
    # Mexico on the printed board) are the only facts the coastlines cannot show.
    assert missing == {
        frozenset(("sz15", "sz34")),
        frozenset(("sz19", "sz20")),
        frozenset(("sz14", "sz16")),
        frozenset(("eastern_united_states", "panama")),
    }
    kinds = {sid: sp.kind for sid, sp in world.spaces.items()}
    extra = touching - world.adjacency
    # Every extra contact is a coast (the printed board draws zone borders to suit play).
    assert all({kinds[s] for s in p} == {"land", "sea"} for p in extra), sorted(map(sorted, extra))
    assert len(extra) <= 40


# --- the build -----------------------------------------------------------------------------


def test_build_is_deterministic(rebuilt: tuple[Path, area_world.AdjacencyCheck]) -> None:
    out, _ = rebuilt
    again = dump_map(area_world.build_world(), compress=True)
    assert again == out.read_bytes()


def test_committed_file_is_current(
    rebuilt: tuple[Path, area_world.AdjacencyCheck], world: AreaMap
) -> None:
    out, _ = rebuilt
    advice = (
        "maps/aa_anniversary/world.json.gz is not what the sources build: run "
        "`PYTHONPATH=desktop python -m wartable.mapbuild.area_world` and commit the file"
    )
    if shapely.geos_version[:2] == BUILT_WITH_GEOS[:2]:
        assert out.read_bytes() == OUT_PATH.read_bytes(), advice
    # Another GEOS may round differently; the map must still be the same map.
    fresh = load_map(out)
    assert isinstance(fresh, AreaMap)
    assert fresh.adjacency == world.adjacency and fresh.places == world.places, advice
    for sid, sp in world.spaces.items():
        other = fresh.spaces[sid]
        assert other.name == sp.name and other.kind == sp.kind, advice
        moved = other.polygon.symmetric_difference(sp.polygon).area
        assert moved < 0.02 * sp.polygon.area + 0.05, (sid, advice)


def test_build_report(rebuilt: tuple[Path, area_world.AdjacencyCheck]) -> None:
    _, check = rebuilt
    assert check.facts == 407
    assert check.both == 407 - len(check.facts_only)
    notes = {(d.a, d.b): d.note for d in check.facts_only}
    assert notes[("sz15", "sz34")] == "canal"
    assert notes[("sz19", "sz20")] == "canal"
    assert notes[("sz14", "sz16")] == "strait"
    assert not [n for n in check.notes if n.startswith("WARNING")]
    text = check.text()
    assert "Adjacency check: 407 adjacencies in the facts" in text


def test_build_knows_only_its_map() -> None:
    with pytest.raises(DataError, match="aa_anniversary/world"):
        area_world.build("whatif1940/east")


def test_the_map_names_sea_zones_as_the_log_does() -> None:
    """Playtest (issue 16): the map said "5 Sea Zone" where the log said "Sea Zone 5"; the
    built map now uses the game's words, the id still from the board's facts."""
    assert display_name("5 Sea Zone") == "Sea Zone 5" and display_name("Egypt") == "Egypt"
    root = Path(__file__).resolve().parents[2]
    world = load_map((root / "maps/aa_anniversary/world.json.gz").read_bytes(), "world")
    assert world.space("sz05").name == "Sea Zone 5"
    assert world.space("egypt").name == "Egypt"
