"""Every built hex map's report lists each of its named places with its hex, terrain, region
and result (issue 19), and each place the spec lists but the map cannot hold is named too."""

from __future__ import annotations

import pytest

from wartable.mapbuild.sources import maps_dir
from wartable.maps import HexMap, load_map

HEX_MAPS = ["aeto/west", "aeto/east", "eto/europe", "whatif1940/west", "whatif1940/east"]


@pytest.mark.parametrize("map_id", HEX_MAPS)
def test_the_report_lists_every_named_place_with_its_result(map_id: str) -> None:
    game, name = map_id.split("/")
    m = load_map(maps_dir() / game / f"{name}.json.gz")
    assert isinstance(m, HexMap)
    text = (maps_dir() / game / f"{name}.report.txt").read_text(encoding="utf-8")
    section = text.split("Named places, each with its hex", 1)[1].split("\n\n", 1)[0]
    lines = section.splitlines()[1:]
    assert len(lines) == len(m.places)
    for p in m.places:
        info = m.info(p.hex_or_space)
        want = f"  ok   {p.hex_or_space} {p.name} ("
        got = [x for x in lines if x.startswith(want)]
        assert got, f"{map_id}: {p.name} at {p.hex_or_space} is not listed as ok"
        assert f"): {info.terrain}, {info.region or 'no region'}; " in got[0]
        # a city, port or fort never stands on water (the IJsselmeer is a water place)
        assert p.kind == "other" or info.terrain not in ("sea", "lake"), (map_id, p)
    assert "Result: all control points and constraints hold." in text


def test_a_place_off_the_map_is_named_in_the_report() -> None:
    text = (maps_dir() / "whatif1940" / "east.report.txt").read_text(encoding="utf-8")
    assert "Listed places that fall off this map: Gomel, Bryansk, Vyborg, Orel" in text
