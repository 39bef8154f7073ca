"""The frontiers of 1 September 1939 and the texts' hex facts on the AETO and ETO maps
(issue 19). Places are located by latitude/longitude (city centres to 0.01 degree); the hex
numbers are the rulebook's (reference/rules/000: [9.4], [9.18], [9.25], [10.16], [10.17]).
Seen on /tmp/maps/aeto_east_bessarabia.png and aeto_east_finland.png
(`wartable map render aeto/east --regions --geography --crop "E 3328,6"`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from wartable.mapbuild.commands import locate
from wartable.mapbuild.sources import maps_dir
from wartable.maps import HexMap, load_map


def _map(map_id: str) -> tuple[HexMap, Path]:
    game, name = map_id.split("/")
    path = maps_dir() / game / f"{name}.json.gz"
    m = load_map(path)
    assert isinstance(m, HexMap)
    return m, path


def _region_at(map_id: str, lat: float, lon: float) -> str | None:
    m, path = _map(map_id)
    label = locate(m, path, lat, lon)
    assert label is not None, f"{lat}, {lon} is off {map_id}"
    return m.info(label).region


@pytest.mark.parametrize("place,lat,lon,region", [
    ("Kishinev", 47.01, 28.86, "Bessarabia"),
    ("Bender", 46.83, 29.48, "Bessarabia"),
    ("Izmail (the Budjak)", 45.35, 28.84, "Bessarabia"),
    ("Bălți", 47.76, 27.93, "Bessarabia"),
    ("Chernivtsi (Northern Bukovina)", 48.29, 25.94, "Romania"),
    ("Mukachevo (Carpatho-Ukraine)", 48.44, 22.72, "Hungary"),
    ("Odessa", 46.48, 30.73, "USSR"),
    ("Vinnytsia (Podolia)", 49.23, 28.48, "USSR"),
])
def test_aeto_10_17_romanian_and_hungarian_frontiers_of_1939(place: str, lat: float, lon: float,
                                                             region: str) -> None:
    # [10.17]: Bessarabia is Romanian until the Soviet occupation the rules allow from
    # September 1940; Northern Bukovina and Carpatho-Ukraine were not Soviet in 1939
    assert _region_at("aeto/east", lat, lon) == region, place


def test_aeto_10_17_bessarabia_hexes_e3229_to_about_e3626() -> None:
    m, _ = _map("aeto/east")
    assert m.info("E 3229").region == "Bessarabia"
    # "about E 3626": E 3626 is sea off the Danube delta here; its neighbour E 3527 (Izmail's
    # delta hex) is Bessarabia's southern end
    assert m.info("E 3527").region == "Bessarabia"
    assert m.hex_of("E 3527") in m.hex_of("E 3626").neighbors()


def test_aeto_10_16_the_southern_soviet_border_hex_e3426_is_soviet() -> None:
    m, _ = _map("aeto/east")
    assert m.info("E 3426").region == "USSR"
    assert m.info("E 3426").terrain != "sea"


def test_aeto_9_4_east_poland_hexes_e2432_to_about_e3131() -> None:
    m, _ = _map("aeto/east")
    assert [m.info(x).region for x in ("E 2432", "E 3131")] == ["East Poland", "East Poland"]


def test_aeto_9_25_map_edge_supply_sources_are_soviet_land() -> None:
    m, _ = _map("aeto/east")
    for label in ("E 1211", "E 1411", "E 1811"):
        info = m.info(label)
        assert info.region == "USSR" and info.terrain != "sea", label


@pytest.mark.parametrize("map_id", ["aeto/east", "eto/europe"])
def test_rhodes_is_italian_in_1939(map_id: str) -> None:
    assert _region_at(map_id, 36.43, 28.22) == "Italy"


REPORT_FACTS = {
    "aeto/east": ["3 hexes in USSR  [10.16]", "2 hexes in East Poland  [9.4] [10.17]",
                  "1 hex in Bessarabia  [10.17] [9.18]", "3 hexes in USSR  [9.25]",
                  "3 hexes in Egypt  [10.23]", "2 hexes in Finland  [9.2] [10.24]",
                  "1 hex in Italy  decided (history"],
    "aeto/west": ["7 hexes in United Kingdom  [10.26] [11.25]",
                  "1 hex coastal (land with a sea hexside)  [11.25]"],
}


@pytest.mark.parametrize("map_id", sorted(REPORT_FACTS))
def test_the_build_report_lists_each_text_fact_with_its_result(map_id: str) -> None:
    game, name = map_id.split("/")
    text = (maps_dir() / game / f"{name}.report.txt").read_text(encoding="utf-8")
    for fact in REPORT_FACTS[map_id]:
        assert f"  ok   {fact}" in text, fact


def test_aeto_9_2_dakar_w0804_is_an_inset_counted_part_of_french_morocco() -> None:
    # [9.2]: "the Dakar hex (W 0804) ... considered to be part of French Morocco"; geography
    # puts Dakar 26 hexes off the map, so the printed map shows it as an inset on W 0804
    m, _ = _map("aeto/west")
    info = m.info("W 0804")
    assert info.places == ("Dakar",)
    assert "inset" in info.features
    assert info.region == "Morocco" and info.terrain == "clear"
    text = (maps_dir() / "aeto" / "west.report.txt").read_text(encoding="utf-8")
    assert "  ok   W 0804 Dakar (city): clear, Morocco; an inset on the rulebook's hex" in text
