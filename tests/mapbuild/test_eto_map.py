"""The built ETO map (maps/eto/europe.json.gz) against Jim Bailey's revisions.

Hex numbers come from reference/rules/003 (digest 003 §3); the revisions name sections
"General Revisions (1)..(11)" and per country ("Russia (7)"). The text names no city by hex,
so the map is fitted to its area facts and one decided point (Sevastopol in 2316; see the
spec's notes). Seen on the render /tmp/hm/eto_europe2.png
(`wartable map render eto/europe -o ... --scale 14 --geography`).
"""

from __future__ import annotations

import pytest

from wartable.core.hexgrid import Hexside
from wartable.mapbuild.commands import build_maps, locate
from wartable.mapbuild.sources import maps_dir
from wartable.maps import HexMap, load_map

PATH = maps_dir() / "eto" / "europe.json.gz"


@pytest.fixture(scope="module")
def eto() -> HexMap:
    m = load_map(PATH)
    assert isinstance(m, HexMap)
    return m


def test_numbering_xxyy_columns_east_rows_south(eto: HexMap) -> None:
    """Digest 003: four digits XXYY, the column first (growing east), then the row (growing
    south); no prefix. 28 rows x 34 columns is our decided extent."""
    ids = eto.location_ids()
    assert len(ids) == 28 * 34 and all(len(i) == 4 and i.isdigit() for i in ids)
    assert eto.center("1113")[0] > eto.center("1013")[0]  # column 11 east of column 10
    assert eto.center("2316")[1] > eto.center("2006")[1]  # row 16 south of row 06


def test_general_8_maginot_and_siegfried_hexes(eto: HexMap) -> None:
    """[General (8)(A)] 1013 and 1014 in France (Maginot), 1113 and 1114 in Germany
    (Siegfried): fortress hexes."""
    for label, region in (("1013", "France"), ("1014", "France"), ("1113", "Greater Germany"),
                          ("1114", "Greater Germany")):
        assert eto.info(label).region == region, label
        assert "fortress" in eto.info(label).features, label


def test_russia_7_finnish_hexes(eto: HexMap) -> None:
    """[Russia (7)] hexes 1905 and 2006 begin the game as part of Finland (fortresses)."""
    for label in ("1905", "2006"):
        assert eto.info(label).region == "Finland"
        assert "fortress" in eto.info(label).features


def test_general_7_hex_1814_is_hungarian(eto: HexMap) -> None:
    assert eto.info("1814").region == "Hungary"  # [General (7)]


def test_general_8_atlantic_coast_ends_are_coastal_land(eto: HexMap) -> None:
    """[General (8)(A)] hexes 0912 to 1210 along the Atlantic coast: both ends are land."""
    for label in ("0912", "1210"):
        assert eto.info(label).terrain not in ("sea", "lake")


def test_general_6d_sevastopol_hexside(eto: HexMap) -> None:
    """[General (6)(D)] "The sea hexside east of Sevastopol (2316/2415) is a blocked
    hexside": the two hexes are adjacent, Sevastopol (decided) is in 2316, 2415 lies east of
    it, and the hexside between them is an all-sea, blocked hexside."""
    a, b = eto.hex_of("2316"), eto.hex_of("2415")
    assert a.distance(b) == 1
    assert locate(eto, PATH, 44.62, 33.52) == "2316"
    assert "Sevastopol" in eto.info("2316").places
    assert eto.center("2415")[0] > eto.center("2316")[0]
    assert set(eto.hexsides[Hexside.between(a, b)]) >= {"sea", "blocked"}


def test_committed_map_is_up_to_date() -> None:
    for map_id, text, same in build_maps(["eto/europe"], write=False):
        assert same, f"{map_id}: run 'wartable map build {map_id}' and commit the result"
        assert "Result: all control points and constraints hold." in text
