"""Geometry helpers and source loading of the area-map builder (wartable.mapbuild.area_*)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from shapely.geometry import Point, box  # type: ignore[import-untyped,unused-ignore]

from wartable.core.errors import DataError
from wartable.mapbuild.area_geo import (
    Projection,
    parts,
    seam_contacts,
    shared_borders,
    voronoi_cells,
)
from wartable.mapbuild.area_sources import load_world_sources
from wartable.mapbuild.area_world import SOURCES_DIR

PROJ = Projection("miller", -95.0, 76.0, -57.0)


def test_projection_puts_the_seam_at_both_edges() -> None:
    assert PROJ.x(-95.0) == 0.0
    assert PROJ.x(-95.5) == pytest.approx(359.5)
    assert PROJ.x(85.0) == pytest.approx(180.0)  # the central meridian
    assert PROJ.y(76.0) == 0.0
    assert PROJ.height == pytest.approx(PROJ.y(-57.0))
    assert PROJ.y(0.0) < PROJ.y(-10.0)  # y grows south
    # Miller stretches high latitudes: 10 degrees near the pole span more than at the equator.
    assert PROJ.y(50.0) - PROJ.y(60.0) > PROJ.y(0.0) - PROJ.y(10.0)


@pytest.mark.parametrize(
    ("lon", "lat"), [(13.4, 52.5), (-122.3, 37.8), (179.9, -40.0), (-95.0, 0.0)]
)
def test_projection_round_trip(lon: float, lat: float) -> None:
    x, y = PROJ.point(lon, lat)
    back = PROJ.lonlat(x, y)
    assert back[0] == pytest.approx(lon, abs=1e-9)
    assert back[1] == pytest.approx(lat, abs=1e-9)


def test_a_shape_across_the_seam_is_cut_to_both_edges() -> None:
    g = PROJ.project(box(-100.0, 30.0, -90.0, 40.0))
    ps = parts(g)
    assert len(ps) == 2
    xs = sorted((p.bounds[0], p.bounds[2]) for p in ps)
    assert xs[0] == pytest.approx((0.0, 5.0))
    assert xs[1] == pytest.approx((355.0, 360.0))


def test_x_range_refuses_to_cross_the_seam() -> None:
    assert PROJ.x_range(172.0, -129.0) == pytest.approx((267.0, 326.0))  # across 180: fine
    assert PROJ.x_range(-141.0, -95.0) == pytest.approx((314.0, 360.0))
    with pytest.raises(ValueError, match="seam"):
        PROJ.x_range(-100.0, -90.0)


def test_voronoi_cells_follow_the_seed_order() -> None:
    env = box(0, 0, 10, 10)
    seeds = [(8.0, 5.0), (2.0, 5.0), (5.0, 9.0)]
    cells = voronoi_cells(seeds, env)
    for seed, cell in zip(seeds, cells, strict=True):
        assert cell.contains(Point(seed))
    assert sum(c.area for c in cells) == pytest.approx(100.0)
    assert voronoi_cells([(1.0, 1.0)], env) == [env]
    with pytest.raises(ValueError, match="duplicate"):
        voronoi_cells([(1.0, 1.0), (1.0, 1.0)], env)


def test_shared_borders_and_seam_contacts() -> None:
    shapes = {
        "a": box(0, 0, 1, 1),
        "b": box(1, 0, 2, 1),  # shares a side with a
        "c": box(2, 1, 3, 2),  # touches b at a corner only
        "d": box(9, 0, 10, 0.5),  # at the right edge, facing the lower half of a
    }
    borders = shared_borders(shapes, tol=0.01, min_length=0.05)
    assert set(borders) == {frozenset("ab")}
    assert borders[frozenset("ab")] == pytest.approx(1.0, abs=0.05)
    across = seam_contacts(shapes, width=10.0, height=2.0, tol=0.01, min_length=0.05)
    assert set(across) == {frozenset("ad")}
    assert across[frozenset("ad")] == pytest.approx(0.5, abs=0.05)


# --- sources ---------------------------------------------------------------------------------


def test_the_sources_load() -> None:
    src = load_world_sources(SOURCES_DIR)
    assert len(src.territories) == 97
    assert len(src.seas) == 65
    assert len(src.facts.connections) == 407
    assert src.layout.projection == PROJ
    assert all(t.source for t in src.territories) and all(s.source for s in src.seas)


@pytest.fixture
def sources(tmp_path: Path) -> Path:
    folder = tmp_path / "aa"
    shutil.copytree(SOURCES_DIR, folder)
    return folder


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_missing_sea_zone_is_named(sources: Path) -> None:
    _edit(sources / "seas.toml", 'name = "65 Sea Zone"', 'name = "66 Sea Zone"')
    with pytest.raises(DataError, match=r"missing \['65 Sea Zone'\], unknown \['66 Sea Zone'\]"):
        load_world_sources(sources)


def test_an_unknown_country_code_is_named(sources: Path) -> None:
    _edit(sources / "territories.toml", 'countries = ["DEU", "AUT"]', 'countries = ["DEU", "XXX"]')
    with pytest.raises(DataError, match="territory 'Germany'.*unknown country code 'XXX'"):
        load_world_sources(sources)


def test_a_country_cannot_be_whole_in_two_territories(sources: Path) -> None:
    _edit(sources / "territories.toml", 'countries = ["MNG"]', 'countries = ["MNG", "DEU"]')
    with pytest.raises(DataError, match="DEU is already whole in 'Germany'"):
        load_world_sources(sources)


def test_a_misspelt_field_is_refused(sources: Path) -> None:
    _edit(sources / "seas.toml", "seeds = [[-145.0", "seed = [[-145.0")
    with pytest.raises(DataError, match="unknown field 'seed'"):
        load_world_sources(sources)
