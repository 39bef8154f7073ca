"""A quick run of the render benchmark so CI exercises it: frames render, nothing is timed."""

from __future__ import annotations

import bench_render as bench
import pytest
from PySide6.QtGui import QImage
from pytestqt.qtbot import QtBot

from wartable.maps.synthetic import rectangular_hex_map


@pytest.mark.benchmark
def test_benchmark_rows_run(qtbot: QtBot) -> None:
    rows = bench.run(frames=1, n_pieces=60, area=True)
    cases = [r.case for r in rows]
    assert any("fit" in c for c in cases) and any("400 %" in c for c in cases)
    assert any(c.startswith("area frame") for c in cases)
    assert all(r.ms >= 0 for r in rows)
    # Each frame is measured drawn directly and from the tile cache, beside a blit.
    assert "blit (reference)" in cases
    assert sum(c.endswith(" tiled") for c in cases) == sum(c.endswith(" direct") for c in cases)


@pytest.mark.benchmark
def test_real_map_figures_have_stable_keys(qtbot: QtBot) -> None:
    figs = bench.real_map_figures(frames=1, pieces=20, maps=("whatif1940/west",))
    for zoom in ("fit", "100%", "400%"):
        for kind in ("direct", "tiled", "pan step"):
            assert figs[f"frame whatif1940/west {zoom} {kind} ms"] >= 0
    assert figs["blit ms"] > 0


@pytest.mark.benchmark
@pytest.mark.parametrize("zoom", [None, 100.0, 400.0])
def test_frames_are_not_empty(qtbot: QtBot, zoom: float | None) -> None:
    defn = bench.bench_definition()
    board = rectangular_hex_map("bench/small", 30, 20)
    view = bench.make_view(board, bench.bench_pieces(board, defn, 40), defn)
    qtbot.addWidget(view)
    if zoom is None:
        view.fit()
    else:
        view.set_zoom(zoom)
        view.center_on_location("1510")
    img = bench.render_frame(view)
    assert isinstance(img, QImage) and not img.isNull()
    assert (img.width(), img.height()) == (view.viewport().width(), view.viewport().height())
    # Not blank: sample a grid of pixels and expect several distinct colours.
    colours = {img.pixel(x, y) for x in range(0, img.width(), 53)
               for y in range(0, img.height(), 41)}
    assert len(colours) > 3


@pytest.mark.benchmark
def test_synthetic_area_map_is_valid() -> None:
    amap = bench.synthetic_area_map(40, 1000, 600)
    assert len(amap.spaces) == 40
    kinds = {s.kind for s in amap.spaces.values()}
    assert kinds == {"land", "sea"}
    assert all(amap.neighbors(s) for s in amap.spaces)
