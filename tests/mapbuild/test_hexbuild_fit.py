"""Least-squares similarity fit and the simplex used for area constraints (mapbuild/fit.py)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wartable.mapbuild.fit import Similarity, fit_similarity, nelder_mead, refine

POINTS = [(0.0, 0.0), (100.0, 20.0), (-40.0, 75.0), (60.0, -30.0), (10.0, 10.0)]


@given(st.floats(0.01, 50.0), st.floats(-179.0, 179.0), st.floats(-1e3, 1e3),
       st.floats(-1e3, 1e3))
def test_fit_recovers_a_known_transform(scale: float, rot: float, tx: float, ty: float) -> None:
    known = Similarity.from_params(scale, rot, tx, ty)
    dst = [known.apply(*p) for p in POINTS]
    got = fit_similarity(POINTS, dst)
    assert got.scale == pytest.approx(scale, rel=1e-9)
    assert math.remainder(got.rotation_deg - rot, 360.0) == pytest.approx(0.0, abs=1e-7)
    assert (got.tx, got.ty) == pytest.approx((tx, ty), abs=1e-6 * max(1.0, scale * 100))


def test_two_points_fit_exactly_and_more_points_share_the_error() -> None:
    t = fit_similarity(POINTS[:2], [(5.0, 5.0), (15.0, 5.0)])
    assert t.apply(*POINTS[0]) == pytest.approx((5.0, 5.0))
    assert t.apply(*POINTS[1]) == pytest.approx((15.0, 5.0))
    # Three points that no similarity maps exactly: residuals are balanced, none is zero.
    src = [(0.0, 0.0), (10.0, 0.0), (0.0, 10.0)]
    dst = [(0.0, 0.0), (10.0, 0.0), (0.0, 12.0)]
    t = fit_similarity(src, dst)
    res = [math.dist(t.apply(*s), d) for s, d in zip(src, dst, strict=True)]
    assert all(r > 0.1 for r in res) and max(res) < 1.5


def test_weights_ignore_an_outlier() -> None:
    known = Similarity.from_params(3.0, 30.0, 1.0, 2.0)
    dst = [known.apply(*p) for p in POINTS]
    dst[2] = (dst[2][0] + 50, dst[2][1])
    got = fit_similarity(POINTS, dst, weights=[1, 1, 0, 1, 1])
    assert got.scale == pytest.approx(3.0) and got.rotation_deg == pytest.approx(30.0)


def test_invert_undoes_apply() -> None:
    t = Similarity.from_params(0.7, -123.0, 40.0, -7.0)
    for p in POINTS:
        assert t.invert(*t.apply(*p)) == pytest.approx(p)


@pytest.mark.parametrize("src,dst,w", [
    ([(0.0, 0.0)], [(1.0, 1.0)], None),                         # one point
    ([(0.0, 0.0), (1.0, 1.0)], [(1.0, 1.0)], None),             # lengths differ
    ([(2.0, 2.0), (2.0, 2.0)], [(0.0, 0.0), (1.0, 1.0)], None),  # coincident
    ([(0.0, 0.0), (1.0, 1.0)], [(0.0, 0.0), (1.0, 1.0)], [1.0, -1.0]),
])
def test_fit_refuses_degenerate_input(src, dst, w) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError):
        fit_similarity(src, dst, w)


def test_nelder_mead_finds_a_quadratic_minimum() -> None:
    x, v = nelder_mead(lambda p: (p[0] - 3) ** 2 + 10 * (p[1] + 1) ** 2 + 5, [0.0, 0.0],
                       [1.0, 1.0])
    assert x == pytest.approx([3.0, -1.0], abs=1e-4) and v == pytest.approx(5.0)


def test_nelder_mead_is_deterministic() -> None:
    def f(p):  # type: ignore[no-untyped-def]
        return (1 - p[0]) ** 2 + 100 * (p[1] - p[0] ** 2) ** 2

    assert nelder_mead(f, [-1.2, 1.0], [0.5, 0.5]) == nelder_mead(f, [-1.2, 1.0], [0.5, 0.5])


def test_refine_recovers_a_transform_from_any_cost() -> None:
    target = Similarity.from_params(2.0, 10.0, 5.0, -5.0)
    pts = POINTS[:3]
    want = [target.apply(*p) for p in pts]

    def cost(t: Similarity) -> float:
        return sum(math.dist(t.apply(*p), w) ** 2 for p, w in zip(pts, want, strict=True))

    got, c = refine(Similarity.from_params(1.8, 7.0, 4.0, -4.0), cost)
    assert c < 1e-6
    assert got.scale == pytest.approx(2.0, rel=1e-4)
    assert got.rotation_deg == pytest.approx(10.0, abs=1e-3)
