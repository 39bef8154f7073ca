"""AreaMap: three squares (two land, one sea) and an off-map box."""

from __future__ import annotations

import pytest
from shapely.geometry import MultiPolygon, Polygon  # type: ignore[import-untyped,unused-ignore]

from wartable.core.frozen import FrozenMap
from wartable.maps import AreaMap, BoardMap, OffMapBox, Place, Space


def square(x: float, y: float, w: float, h: float) -> Polygon:
    return Polygon([(x, y), (x + w, y), (x + w, y + h), (x, y + h)])


def three_squares() -> AreaMap:
    # alpha | beta    (land, 1x1 each, side by side)
    # gamma          (sea, 2x1 below both)
    spaces = {
        "alpha": Space("alpha", "Alpha", "land", square(0, 0, 1, 1), (0.5, 0.5)),
        "beta": Space("beta", "Beta", "land", square(1, 0, 1, 1), (1.5, 0.5)),
        "gamma": Space("gamma", "Gamma Sea", "sea", square(0, 1, 2, 1), (1.0, 1.5)),
    }
    adjacency = frozenset(
        {frozenset({"alpha", "beta"}), frozenset({"alpha", "gamma"}), frozenset({"beta", "gamma"})}
    )
    return AreaMap(
        id="test/squares",
        title="Three squares",
        version=2,
        spaces=FrozenMap(spaces),
        adjacency=adjacency,
        boxes=(OffMapBox("pool", "Force pool", 3.0, 0.0, 1.0, 1.0),),
        places=(Place("Alphaville", "capital", "alpha"),),
    )


def test_location_at() -> None:
    m = three_squares()
    assert m.location_at(0.5, 0.5) == "alpha"
    assert m.location_at(1.5, 0.25) == "beta"
    assert m.location_at(1.0, 1.5) == "gamma"
    assert m.location_at(5.0, 5.0) is None
    assert m.location_at(3.5, 0.5) == "box:pool"
    assert m.box_at(3.5, 0.5) == "box:pool"
    assert m.box_at(0.5, 0.5) is None
    # On the alpha|beta border both match with equal area: the id breaks the tie.
    assert m.location_at(1.0, 0.5) == "alpha"
    # On the beta|gamma border the smaller space (beta, area 1 < 2) wins.
    assert m.location_at(1.5, 1.0) == "beta"


def test_neighbors_from_adjacency() -> None:
    m = three_squares()
    assert m.neighbors("alpha") == ("beta", "gamma")
    assert m.neighbors("gamma") == ("alpha", "beta")
    assert m.neighbors("box:pool") == ()
    with pytest.raises(KeyError):
        m.neighbors("delta")


def test_describe() -> None:
    m = three_squares()
    assert m.describe("beta") == "Beta (land)"
    assert m.describe("gamma") == "Gamma Sea (sea)"
    assert m.describe("alpha") == "Alpha (land) — Alphaville"
    assert m.describe("box:pool") == "Force pool (box)"


def test_geometry_answers() -> None:
    m = three_squares()
    assert m.kind == "area"
    assert isinstance(m, BoardMap)
    assert m.location_ids() == ("alpha", "beta", "gamma")
    assert m.center("beta") == (1.5, 0.5)
    assert m.center("box:pool") == (3.5, 0.5)
    assert m.outline("alpha") == [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
    assert m.bounds() == (0.0, 0.0, 4.0, 2.0)


def test_multipolygon_outline_is_the_largest_part() -> None:
    islands = MultiPolygon([square(10, 10, 1, 1), square(20, 20, 3, 3)])
    m = AreaMap(
        "test/islands",
        "Islands",
        1,
        FrozenMap({"isl": Space("isl", "Islands", "land", islands, (21.5, 21.5))}),
        frozenset(),
        extent=(0.0, 0.0, 40.0, 40.0),
    )
    assert m.outline("isl") == [(20.0, 20.0), (23.0, 20.0), (23.0, 23.0), (20.0, 23.0)]
    assert m.location_at(10.5, 10.5) == "isl"
    assert m.location_at(15.0, 15.0) is None
    assert m.bounds() == (0.0, 0.0, 40.0, 40.0)


def test_model_rejects_bad_adjacency() -> None:
    m = three_squares()
    with pytest.raises(ValueError, match="unknown space 'delta'"):
        AreaMap(m.id, m.title, m.version, m.spaces, frozenset({frozenset({"alpha", "delta"})}))
    with pytest.raises(ValueError, match="two different spaces"):
        AreaMap(m.id, m.title, m.version, m.spaces, frozenset({frozenset({"alpha"})}))
    with pytest.raises(ValueError, match="duplicate box id 'pool'"):
        AreaMap(m.id, m.title, m.version, m.spaces, m.adjacency, boxes=m.boxes + m.boxes)
