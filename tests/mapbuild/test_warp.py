"""The thin-plate spline of mapbuild/warp.py: the local correction after the similarity fit.

Expected values are hand-made: a spline through points must carry each point exactly onto its
target (λ = 0), reduce to the affine map when the targets are an affine image of the points,
and survive the round trip through its dictionary form and its inverse.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from wartable.mapbuild.warp import ThinPlateSpline, fit_tps, solve_linear

SRC = [(0.0, 0.0), (100.0, 0.0), (0.0, 100.0), (100.0, 100.0), (50.0, 50.0), (30.0, 70.0)]
DST = [(1.0, 2.0), (103.0, -1.0), (-2.0, 99.0), (100.0, 104.0), (55.0, 45.0), (30.0, 70.0)]


def test_solve_linear_by_hand() -> None:
    # 2x + y = 5, x − y = 1  →  x = 2, y = 1 (and a second right-hand side: 3, 0 → 1, 1).
    x = solve_linear([[2.0, 1.0], [1.0, -1.0]], [[5.0, 3.0], [1.0, 0.0]])
    assert x[0] == pytest.approx([2.0, 1.0])
    assert x[1] == pytest.approx([1.0, 1.0])
    with pytest.raises(ValueError, match="singular"):
        solve_linear([[1.0, 2.0], [2.0, 4.0]], [[1.0], [2.0]])


def test_spline_interpolates_every_control_point() -> None:
    tps = fit_tps(SRC, DST, 0.0, scale=17.3)
    for s, d in zip(SRC, DST, strict=True):
        assert tps.apply(*s) == pytest.approx(d, abs=1e-9)


def test_affine_targets_give_the_affine_map() -> None:
    """Targets that are an affine image of the points need no bending: every weight is 0 and
    any other point moves by the same affine map (here x' = 1.1x + 0.2y + 3, y' = −0.1x + y)."""
    def aff(x: float, y: float) -> tuple[float, float]:
        return 1.1 * x + 0.2 * y + 3.0, -0.1 * x + y
    tps = fit_tps(SRC, [aff(*p) for p in SRC], 0.0, scale=10.0)
    assert max(abs(w) for w in tps.wx + tps.wy) < 1e-9
    assert tps.apply(-40.0, 250.0) == pytest.approx(aff(-40.0, 250.0), abs=1e-6)


def test_the_unit_scale_does_not_change_an_exact_spline() -> None:
    a = fit_tps(SRC, DST, 0.0, scale=1.0)
    b = fit_tps(SRC, DST, 0.0, scale=25.0)
    assert a.apply(20.0, 40.0) == pytest.approx(b.apply(20.0, 40.0), abs=1e-9)


def test_smoothing_leaves_residuals_and_bends_less() -> None:
    exact = fit_tps(SRC, DST, 0.0, scale=10.0)
    smooth = fit_tps(SRC, DST, 5.0, scale=10.0)
    miss = [math.dist(smooth.apply(*s), d) for s, d in zip(SRC, DST, strict=True)]
    assert max(miss) > 0.01
    assert sum(abs(w) for w in smooth.wx) < sum(abs(w) for w in exact.wx)


def test_inverse_dict_round_trip_and_no_fold() -> None:
    tps = fit_tps(SRC, DST, 0.0, scale=10.0).rounded()
    again = ThinPlateSpline.from_dict(tps.to_dict())
    assert again == tps
    u, v = tps.apply(20.0, 40.0)
    assert tps.invert(u, v) == pytest.approx((20.0, 40.0), abs=1e-7)
    assert tps.min_jacobian((0.0, 0.0, 100.0, 100.0), 10.0) > 0.5  # a gentle warp


def test_needs_three_points_off_one_line() -> None:
    with pytest.raises(ValueError, match="three"):
        fit_tps(SRC[:2], DST[:2])
    with pytest.raises(ValueError, match="singular"):
        fit_tps([(0.0, 0.0), (1.0, 1.0), (2.0, 2.0)], [(0.0, 0.0), (1.0, 1.0), (2.0, 2.5)])


# --- the [warp] table of a map spec, and the report's residuals --------------------------------

def _spec_with(tmp_path: Path, extra: str) -> Path:
    from wartable.mapbuild.sources import sources_dir

    text = (sources_dir() / "specs" / "whatif1940_east.toml").read_text(encoding="utf-8")
    p = tmp_path / "t.toml"
    p.write_text(text.replace("[[control]]", extra + "\n[[control]]", 1), encoding="utf-8")
    return p


def test_spec_warp_is_optional_and_checked(tmp_path: Path) -> None:
    from wartable.core.errors import DataError
    from wartable.mapbuild.sources import sources_dir
    from wartable.mapbuild.spec import load_spec

    assert load_spec(sources_dir() / "specs" / "whatif1940_east.toml").warp is None
    ok = load_spec(_spec_with(tmp_path, '[warp]\nkind = "thin_plate_spline"\n'
                              'smoothing = 0.5\nanchors = ["4300"]\n'))
    assert ok.warp is not None and ok.warp.smoothing == 0.5 and ok.warp.anchors == ("4300",)
    with pytest.raises(DataError, match="thin_plate_spline"):
        load_spec(_spec_with(tmp_path, '[warp]\nkind = "rubber"\n'))
    with pytest.raises(DataError, match="0 or more"):
        load_spec(_spec_with(tmp_path, '[warp]\nkind = "thin_plate_spline"\nsmoothing = -1\n'))
    with pytest.raises(DataError, match="outside the map"):
        load_spec(_spec_with(tmp_path, '[warp]\nkind = "thin_plate_spline"\n'
                             'anchors = ["9999"]\n'))


def test_inconsistent_control_leaves_the_fit_and_never_fails() -> None:
    from wartable.mapbuild.report import ControlResult

    c = ControlResult("Rostov", "[9.25]", "E 3012", "E 3018", 6.1, "E 2919", 6.5, "a typo")
    assert c.ok  # reported as KNOWN, never a failure
    miss = ControlResult("Moscow", "[9.25]", "E 1924", "E 1924", 0.2, "E 1923", 0.6)
    assert not miss.ok  # with a warp, the warped hex decides
    assert ControlResult("Moscow", "", "E 1924", "E 1923", 0.7, "E 1924", 0.0).ok


def test_whatif_georeferences_carry_no_warp() -> None:
    """The 1940 maps build without a warp: their georeference files have none."""
    import json

    from wartable.mapbuild.sources import maps_dir

    for name in ("east", "west"):
        d = json.loads((maps_dir() / "whatif1940" / f"{name}.geo.json").read_text("utf-8"))
        assert "warp" not in d


def test_spec_hexside_features_must_be_adjacent(tmp_path: Path) -> None:
    from wartable.core.errors import DataError
    from wartable.mapbuild.spec import load_spec

    ok = load_spec(_spec_with(tmp_path, '[[hexside_features]]\nfeature = "blocked"\n'
                              'hexsides = ["4624/4625"]\nrule = "x"\n'))
    assert ok.hexside_features[0].hexsides == (("4624", "4625"),)
    with pytest.raises(DataError, match="not adjacent"):
        load_spec(_spec_with(tmp_path, '[[hexside_features]]\nfeature = "blocked"\n'
                             'hexsides = ["4624/4627"]\nrule = "x"\n'))
    with pytest.raises(DataError, match="A/B"):
        load_spec(_spec_with(tmp_path, '[[hexside_features]]\nfeature = "blocked"\n'
                             'hexsides = ["4624"]\nrule = "x"\n'))

