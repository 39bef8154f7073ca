"""HexMap answers the BoardMap questions consistently with the hex math."""

from __future__ import annotations

import pytest

from wartable.core.frozen import FrozenMap
from wartable.core.hexgrid import (
    Hex,
    Hexside,
    LabelScheme,
    Layout,
    OffsetKind,
    Orientation,
    hexsides_of,
)
from wartable.maps import (
    BoardMap,
    HexInfo,
    HexMap,
    OffMapBox,
    Place,
    TerrainType,
    rectangular_hex_map,
)

WHATIF_EAST = LabelScheme(
    OffsetKind.ODD_Q, column_first=False, row_start=60, row_dir=-1, col_start=0, col_dir=1
)
TERRAIN = FrozenMap(
    {
        "clear": TerrainType("clear", "clear", "#eeeecc"),
        "forest": TerrainType("forest", "forest", "#228833", "trees"),
    }
)


def moscow_map(*, region: str | None = None, features: tuple[str, ...] = ()) -> HexMap:
    """Moscow 4624 and its six neighbours; rivers on two of Moscow's hexsides."""
    moscow = WHATIF_EAST.parse("4624")
    hexes = {moscow: HexInfo("clear", region, ("Moscow",), features)}
    for n in moscow.neighbors():
        hexes[n] = HexInfo("forest", region)
    n0, n1 = moscow.neighbor(0), moscow.neighbor(1)
    return HexMap(
        id="whatif1940/east-test",
        title="Moscow test",
        version=1,
        layout=Layout(Orientation.FLAT, 25.0, 25.0),
        labels=WHATIF_EAST,
        terrain_types=TERRAIN,
        hexes=FrozenMap(hexes),
        hexsides=FrozenMap(
            {
                Hexside.between(moscow, n0): ("river",),
                Hexside.between(n1, moscow): ("river",),
                Hexside.between(n0, n1): ("border",),  # not one of Moscow's hexsides
            }
        ),
        places=(Place("Moscow", "city", "4624"),),
        boxes=(OffMapBox("mg", "Moscow Garrison pool", 500.0, 500.0, 50.0, 20.0),),
        hex_size_miles=25.0,
    )


@pytest.fixture(scope="module")
def grid30x20() -> HexMap:
    return rectangular_hex_map("test/grid", 30, 20)


@pytest.mark.parametrize("orientation", list(Orientation))
def test_center_and_location_at_round_trip(orientation: Orientation) -> None:
    m = rectangular_hex_map("test/grid", 30, 20, orientation=orientation)
    assert len(m.location_ids()) == 600
    for loc in m.location_ids():
        x, y = m.center(loc)
        assert m.location_at(x, y) == loc
        # Points most of the way to each corner are still inside the hex.
        for cx, cy in m.outline(loc):
            assert m.location_at(x + 0.9 * (cx - x), y + 0.9 * (cy - y)) == loc


def test_neighbors_agree_with_hexgrid(grid30x20: HexMap) -> None:
    m = grid30x20
    for loc in m.location_ids():
        h = m.hex_of(loc)
        expected = tuple(m.label_of(n) for n in h.neighbors() if n in m.hexes)
        assert m.neighbors(loc) == expected
        assert all(m.hex_of(n).distance(h) == 1 for n in m.neighbors(loc))
    assert len(m.neighbors("0101")) == 2  # odd-q corner: east and south only
    assert len(m.neighbors("1510")) == 6


def test_outline_is_hex_corners_and_bounds_hold_them(grid30x20: HexMap) -> None:
    m = grid30x20
    minx, miny, maxx, maxy = m.bounds()
    for loc in m.location_ids():
        pts = m.outline(loc)
        assert pts == list(m.layout.corners(m.hex_of(loc)))
        assert all(minx - 1e-9 <= x <= maxx + 1e-9 and miny - 1e-9 <= y <= maxy + 1e-9
                   for x, y in pts)  # fmt: skip
    # The synthetic grid's top-left corner sits at the origin.
    assert minx == pytest.approx(0.0) and miny == pytest.approx(0.0)


def test_off_map_points_and_boxes(grid30x20: HexMap) -> None:
    m = grid30x20
    assert m.location_at(-50.0, -50.0) is None
    box = m.boxes[0]
    bx, by = box.center()
    assert m.box_at(bx, by) == "box:eliminated"
    assert m.location_at(bx, by) == "box:eliminated"
    assert m.box_at(*m.center("0101")) is None
    assert m.center("box:eliminated") == (bx, by)
    assert len(m.outline("box:eliminated")) == 4
    assert m.neighbors("box:eliminated") == ()
    assert m.describe("box:eliminated") == "Eliminated units (box)"
    maxx = m.bounds()[2]
    assert maxx == box.x + box.w


def test_unknown_locations_raise_keyerror(grid30x20: HexMap) -> None:
    for bad in ("9999", "junk", "box:nope"):
        with pytest.raises(KeyError):
            grid30x20.center(bad)
    with pytest.raises(KeyError):
        grid30x20.label_of(Hex(500, 500))


def test_hex_of_accepts_other_spellings(grid30x20: HexMap) -> None:
    assert grid30x20.hex_of(" 0305 ") == grid30x20.hex_of("0305")


def test_describe_example() -> None:
    m = moscow_map()
    assert m.describe("4624") == "4624 Moscow — clear, city; river on 2 hexsides"
    south = m.label_of(m.hex_of("4624").neighbor(5))
    assert m.describe(south) == f"{south} — forest"
    east = m.label_of(m.hex_of("4624").neighbor(0))
    assert m.describe(east) == f"{east} — forest; border on 1 hexside; river on 1 hexside"


def test_describe_with_region_and_features() -> None:
    m = moscow_map(region="USSR", features=("fort",))
    text = m.describe("4624")
    assert text == "4624 Moscow — clear, city, fort (USSR); river on 2 hexsides"


def test_hexside_features_lookup() -> None:
    m = moscow_map()
    moscow = m.hex_of("4624")
    n0 = m.label_of(moscow.neighbor(0))
    assert m.hexside_features("4624", n0) == ("river",)
    assert m.hexside_features(n0, "4624") == ("river",)
    far = m.label_of(moscow.neighbor(3))
    assert m.hexside_features(n0, far) == ()  # not adjacent
    assert m.info("4624").places == ("Moscow",)


def test_is_a_board_map(grid30x20: HexMap) -> None:
    assert isinstance(grid30x20, BoardMap)
    assert grid30x20.kind == "hex"


def test_model_rejects_inconsistent_data() -> None:
    m = moscow_map()
    moscow = m.hex_of("4624")
    with pytest.raises(ValueError, match="does not match the places list"):
        HexMap(
            m.id, m.title, m.version, m.layout, m.labels, m.terrain_types,
            m.hexes.set(moscow, HexInfo("clear")), m.hexsides, m.places,
        )  # fmt: skip
    with pytest.raises(ValueError, match="unknown terrain"):
        HexMap(
            m.id, m.title, m.version, m.layout, m.labels, m.terrain_types,
            FrozenMap({moscow: HexInfo("swamp")}),
        )  # fmt: skip
    with pytest.raises(ValueError, match="not on the map"):
        HexMap(
            m.id, m.title, m.version, m.layout, m.labels, m.terrain_types,
            FrozenMap({moscow: HexInfo("clear")}), FrozenMap({hexsides_of(moscow)[0]: ("river",)}),
        )  # fmt: skip


def test_synthetic_map_is_deterministic_and_varied() -> None:
    a = rectangular_hex_map("test/a", 30, 20, seed_pattern=7)
    b = rectangular_hex_map("test/a", 30, 20, seed_pattern=7)
    c = rectangular_hex_map("test/a", 30, 20, seed_pattern=8)
    assert a == b and hash(a) == hash(b)
    assert a != c
    terrains = {info.terrain for info in a.hexes.values()}
    assert terrains == {"clear", "forest", "hill", "marsh", "water"}
    feats = {f for fs in a.hexsides.values() for f in fs}
    assert {"river", "major_river", "border"} <= feats
    assert len(a.places) >= 3 and a.places[0].kind == "capital"
    assert [b.id for b in a.boxes] == ["eliminated"]
    for p in a.places:
        assert a.info(p.hex_or_space).terrain != "water"


def test_synthetic_labels_grow_past_two_digits() -> None:
    m = rectangular_hex_map("test/big", 100, 50)
    assert len(m.hexes) == 5000
    assert m.labels.col_digits == 3 and m.labels.row_digits == 2
    assert m.location_at(*m.center("10050")) == "10050"
    assert m.location_ids()[0] == "00101"


def test_synthetic_pointy_uses_odd_r() -> None:
    m = rectangular_hex_map("test/p", 5, 4, orientation=Orientation.POINTY)
    assert m.labels.kind is OffsetKind.ODD_R
    assert m.layout.orientation is Orientation.POINTY
    with pytest.raises(ValueError, match="at least 1 column"):
        rectangular_hex_map("test/none", 0, 4)
