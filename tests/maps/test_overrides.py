"""Map corrections (issue 3, the map editor's file): applied on load on top of the built
map, so they survive rebuilds; validated with errors naming the entry."""

from __future__ import annotations

from pathlib import Path

import pytest

from wartable.core.errors import MapError
from wartable.maps.mapfile import load_map
from wartable.maps.overrides import MapOverrides, apply_overrides, dump_overrides, load_overrides
from wartable.maps.synthetic import rectangular_hex_map
from wartable.persistence import gamedata

BOARD = rectangular_hex_map("test/map", 12, 8)


def test_terrain_hexside_and_rename_are_applied() -> None:
    town = BOARD.places[0].name
    o = (MapOverrides("test/map").with_terrain("0303", "forest")
         .with_hexside("0303", "0304", ("river",)).with_rename(town, "Neustadt"))
    m = apply_overrides(BOARD, o)
    assert m.info("0303").terrain == "forest"
    assert m.hexside_features("0304", "0303") == ("river",)
    assert "Neustadt" in [p.name for p in m.places] and town not in [p.name for p in m.places]
    at = BOARD.places[0].hex_or_space
    assert "Neustadt" in m.info(at).places
    # Everything else is the built map's.
    assert m.info("0101") == BOARD.info("0101")


def test_empty_feature_list_clears_a_hexside() -> None:
    side, feats = next(iter(BOARD.hexsides.items()))
    a, b = (BOARD.label_of(h) for h in side.hexes())
    m = apply_overrides(BOARD, MapOverrides("test/map").with_hexside(a, b, ()))
    assert m.hexside_features(a, b) == () and feats


def test_round_trip_through_the_file() -> None:
    o = (MapOverrides("test/map").with_terrain("0202", "marsh")
         .with_hexside("0202", "0203", ("river", "border")))
    again = load_overrides(dump_overrides(o), "x")
    assert again == o


@pytest.mark.parametrize("o, where, what", [
    (MapOverrides("other/map"), "map", "are for 'other/map'"),
    (MapOverrides("test/map").with_terrain("9999", "clear"), "hexes.9999", "no hex '9999'"),
    (MapOverrides("test/map").with_terrain("0101", "lava"), "hexes.0101.terrain",
     "unknown terrain 'lava'"),
    (MapOverrides("test/map").with_hexside("0101", "0505", ("river",)), "hexsides 0101-0505",
     "do not touch"),
    (MapOverrides("test/map").with_rename("Atlantis", "X"), "places.Atlantis",
     "no place named 'Atlantis'"),
])
def test_corrections_that_do_not_fit_the_map(o: MapOverrides, where: str, what: str) -> None:
    with pytest.raises(MapError) as e:
        apply_overrides(BOARD, o, "corr.json")
    assert e.value.where == where and what in e.value.what


@pytest.mark.parametrize("data, message", [
    (b"{nope", "not a JSON text file"),
    (b'{"format": "x", "format_version": 1, "map": "a/b"}', "not a map corrections file"),
    (b'{"format": "wartable-map-overrides", "format_version": 9, "map": "a/b"}',
     "newer Wartable"),
    (b'{"format": "wartable-map-overrides", "format_version": 1, "map": "a/b", "hex": {}}',
     "unknown field"),
])
def test_malformed_corrections_files(data: bytes, message: str) -> None:
    with pytest.raises(MapError, match=message):
        load_overrides(data, "corr.json")


def test_corrections_survive_a_rebuild() -> None:
    """Rebuild whatif1940/west from its sources: the corrections still apply on top."""
    from wartable.mapbuild.commands import build_maps
    from wartable.mapbuild.sources import maps_dir

    (map_id, _report, _same), = build_maps(["whatif1940/west"], write=False)
    assert map_id == "whatif1940/west"
    built = load_map((maps_dir() / "whatif1940" / "west.json.gz").read_bytes(), "west")
    o = MapOverrides("whatif1940/west").with_terrain("1905", "forest")  # Aachen
    m = apply_overrides(built, o)
    assert m.info("1905").terrain == "forest" and built.info("1905").terrain != "forest"


def test_a_players_corrections_change_the_rules_next_load(tmp_path: Path) -> None:
    """The corrections apply when the game loads, so the rules see them: make 0305 water
    and Blue 1st Inf (0205) can no longer move there [S4.2]."""
    from wartable.engine.session import Session

    gamedata.forget("skirmish")
    before = Session.start(gamedata.load_game("skirmish"), "meeting").prompt("blue")
    assert "0305" in before.moves["blue.infantry.1"]
    path = gamedata.user_corrections_path("skirmish/field")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(dump_overrides(MapOverrides("skirmish/field").with_terrain("0305",
                                                                                "water")))
    gamedata.forget("skirmish")
    try:
        after = Session.start(gamedata.load_game("skirmish"), "meeting").prompt("blue")
        assert "0305" not in after.moves["blue.infantry.1"]
    finally:
        gamedata.forget("skirmish")
