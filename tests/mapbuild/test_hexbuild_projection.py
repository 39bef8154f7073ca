"""Lambert conformal conic (mapbuild/projection.py): round trip, scale, conformality."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wartable.mapbuild.projection import WGS84_A_KM, WGS84_F, LambertConformalConic

E2 = WGS84_F * (2 - WGS84_F)

EAST = LambertConformalConic(lat0=56.0, lon0=30.0, lat1=53.0, lat2=59.0)
WEST = LambertConformalConic(lat0=50.5, lon0=7.0, lat1=49.0, lat2=52.0)


def haversine_km(lon1: float, lat1: float, lon2: float, lat2: float) -> float:
    r = 6371.0088
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * r * math.asin(math.sqrt(a))


@given(st.floats(-10.0, 70.0), st.floats(30.0, 72.0))
def test_round_trip(lon: float, lat: float) -> None:
    for p in (EAST, WEST):
        x, y = p.forward(lon, lat)
        lon2, lat2 = p.inverse(x, y)
        assert lon2 == pytest.approx(lon, abs=1e-9)
        assert lat2 == pytest.approx(lat, abs=1e-9)


def test_origin_maps_to_zero() -> None:
    assert EAST.forward(30.0, 56.0) == pytest.approx((0.0, 0.0), abs=1e-9)


def test_true_scale_on_the_standard_parallels_only() -> None:
    assert EAST.scale_factor(53.0) == pytest.approx(1.0, abs=1e-12)
    assert EAST.scale_factor(59.0) == pytest.approx(1.0, abs=1e-12)
    assert EAST.scale_factor(56.0) < 1.0  # between them the cone is inside the earth
    assert EAST.scale_factor(62.0) > 1.0
    # Across the east map (51-62 N) the error stays far below a hex (25 miles = 40 km).
    assert max(abs(EAST.scale_factor(lat) - 1) for lat in range(51, 63)) < 0.01


def test_conformal_same_scale_east_and_north() -> None:
    """Conformal: at any point a small step east and a small step north scale alike."""
    d = 1e-5
    for lon, lat in [(21.0, 52.0), (37.6, 55.75), (30.3, 59.9), (6.1, 50.8)]:
        p = EAST if lon > 15 else WEST
        x0, y0 = p.forward(lon, lat)
        xe, ye = p.forward(lon + d, lat)
        xn, yn = p.forward(lon, lat + d)
        # Ground length of the steps on the ellipsoid: N·cosφ·dλ east, M·dφ north.
        s2 = math.sin(math.radians(lat)) ** 2
        n_rad = WGS84_A_KM / math.sqrt(1 - E2 * s2)
        m_rad = WGS84_A_KM * (1 - E2) / (1 - E2 * s2) ** 1.5
        east = math.hypot(xe - x0, ye - y0) / (n_rad * math.cos(math.radians(lat)))
        north = math.hypot(xn - x0, yn - y0) / m_rad
        assert east / north == pytest.approx(1.0, abs=1e-5)
        # and the two directions stay at right angles
        dot = (xe - x0) * (xn - x0) + (ye - y0) * (yn - y0)
        assert abs(dot) / (math.hypot(xe - x0, ye - y0) * math.hypot(xn - x0, yn - y0)) < 1e-6


def test_distances_match_the_earth() -> None:
    """Moscow-Leningrad and Moscow-Vyazma on the plane match great-circle distances (<1%)."""
    moscow, leningrad, vyazma = (37.617, 55.756), (30.316, 59.939), (34.295, 55.210)
    for a, b in [(moscow, leningrad), (moscow, vyazma)]:
        plane = math.dist(EAST.forward(*a), EAST.forward(*b))
        assert plane == pytest.approx(haversine_km(*a, *b), rel=0.01)


def test_north_is_up_on_the_central_meridian() -> None:
    x0, y0 = EAST.forward(30.0, 55.0)
    x1, y1 = EAST.forward(30.0, 57.0)
    assert x1 == pytest.approx(x0, abs=1e-9) and y1 > y0


@pytest.mark.parametrize("kw", [dict(lat0=95.0, lon0=0.0, lat1=40.0, lat2=50.0),
                                dict(lat0=45.0, lon0=200.0, lat1=40.0, lat2=50.0),
                                dict(lat0=45.0, lon0=0.0, lat1=30.0, lat2=-30.0)])
def test_bad_parameters_are_refused(kw: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        LambertConformalConic(**kw)
