"""The affine fit behind the scan underlay's calibration."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wartable.core.affine import Affine, fit_affine, residuals


def test_three_points_determine_a_rotation_scale_and_offset_exactly() -> None:
    # Pixels (0,0), (100,0), (0,100) -> map (10,20), (10,22), (8,20): a quarter turn,
    # 1/50 scale, offset (10, 20), worked out by hand.
    t = fit_affine([(0, 0), (100, 0), (0, 100)], [(10, 20), (10, 22), (8, 20)])
    assert t.apply(0, 0) == pytest.approx((10, 20))
    assert (t.a, t.b, t.d, t.e) == pytest.approx((0, -0.02, 0.02, 0))
    assert t.apply(50, 50) == pytest.approx((9, 21))


def test_least_squares_splits_the_error_of_a_warped_corner() -> None:
    # Clicks on four corners of a square; the scan is warped so the fourth corner's map
    # point is 4 units off in x. No affine fit matches all four: each keeps a residual of
    # exactly 1 (by hand: the misfit (0, 0, 0, 4) projects onto (1, -1, -1, 1) / 2).
    src = [(0, 0), (100, 0), (0, 100), (100, 100)]
    dst = [(0, 0), (100, 0), (0, 100), (104, 100)]
    r = residuals(fit_affine(src, dst), src, dst)
    assert r == pytest.approx([1, 1, 1, 1])


def test_collinear_or_too_few_points_are_refused_with_the_reason() -> None:
    with pytest.raises(ValueError, match="at least 3"):
        fit_affine([(0, 0), (1, 1)], [(0, 0), (1, 1)])
    with pytest.raises(ValueError, match="one line"):
        fit_affine([(0, 0), (1, 1), (2, 2), (5, 5)], [(0, 0), (1, 0), (2, 0), (3, 0)])


@settings(max_examples=60, deadline=None)
@given(st.floats(0.01, 5), st.floats(-math.pi, math.pi), st.floats(-0.3, 0.3),
       st.floats(-1e4, 1e4), st.floats(-1e4, 1e4))
def test_any_transform_is_recovered_from_five_exact_points(scale: float, angle: float,
                                                           shear: float, tx: float,
                                                           ty: float) -> None:
    c, s = math.cos(angle), math.sin(angle)
    truth = Affine(scale * c, scale * (shear - s), tx, scale * s, scale * c, ty)
    src = [(0.0, 0.0), (3000.0, 0.0), (0.0, 2000.0), (3000.0, 2000.0), (1234.0, 876.0)]
    dst = [truth.apply(*p) for p in src]
    got = fit_affine(src, dst)
    for p in [(17.0, 4000.0), (-500.0, 3.0)]:
        assert got.apply(*p) == pytest.approx(truth.apply(*p), rel=1e-7, abs=1e-6)
    back = got.inverse()
    assert back.apply(*got.apply(10.0, 20.0)) == pytest.approx((10.0, 20.0), abs=1e-6)
