"""Counter art: one layout, two backends (Qt for the screen, Pillow for print) that agree."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from PIL import Image
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QApplication

from wartable.model.definition import SYMBOLS, Side, UnitType
from wartable.printing.counter_pil import render_counter_pil
from wartable.printing.counterart import (
    Primitive,
    Rect,
    Text,
    contrast,
    counter_primitives,
    estimate_text_width,
    parse_colour,
    primitives_extent,
    side_colours,
    visual_key,
)
from wartable.ui.counters import CounterPixmapCache, bucket_for, paint_primitives

N = 96  # px: between the screen's 100 % counter (46 px) and print's 1/2" at 300 dpi (150 px)

GERMANY = Side("de", "Germany", "#a8a8a0")
USSR = Side("su", "USSR", "#c84a3a", "#ffffff", alt_colour="#ee6677")
BLUE = Side("blue", "Blue", "#7fa7d9", alt_colour="#4477aa")


def unit(symbol: str, factors: tuple[int, ...] = (4, 4), movement: int = 4,
         size: str = "XX") -> UnitType:
    return UnitType(symbol, symbol.title(), symbol, factors, movement, size)


@pytest.fixture(scope="module")
def qapp() -> QApplication:
    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    return app


def render_qt(prims: Sequence[Primitive], n: int = N) -> np.ndarray:
    """RGB array of the Qt render over white."""
    img = QImage(n, n, QImage.Format.Format_RGBA8888)
    img.fill(QColor("#ffffff"))
    p = QPainter(img)
    paint_primitives(p, prims, QRectF(0, 0, n, n))
    p.end()
    pil = Image.frombuffer("RGBA", (n, n), bytes(img.constBits()), "raw", "RGBA",
                           img.bytesPerLine(), 1)
    return np.asarray(pil.convert("RGB"), dtype=np.int16)


def render_pil(prims: Sequence[Primitive], n: int = N) -> np.ndarray:
    bg = Image.new("RGBA", (n, n), (255, 255, 255, 255))
    bg.alpha_composite(render_counter_pil(prims, n))
    return np.asarray(bg.convert("RGB"), dtype=np.int16)


def mean_abs_diff(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(a - b).mean())


def strong_diff_fraction(a: np.ndarray, b: np.ndarray) -> float:
    """Share of pixels that differ by more than half the range in some channel."""
    return float((np.abs(a - b).max(axis=2) > 128).mean())


# Thresholds, measured over every symbol x two sides at 96 px (with a name and a reduced
# band, so every primitive kind is drawn):
# * Mean absolute difference (0-255 per channel). The two rasterisers differ only at edges:
#   Qt computes exact coverage, Pillow here averages a 4x4 supersample (16 coverage levels,
#   coordinates and stroke widths snapped to a quarter pixel), and FreeType hints glyphs
#   that Qt draws as unhinted outlines. Worst measured: 5.3. A different symbol in the box
#   (infantry vs armour) measures ~12, a different background colour far more. Limit: 8.
# * Strongly different pixels (> 128 in a channel): antialiasing never moves a pixel that
#   far, so matching counters measure <= 0.02 %; a single changed factor digit ("4-4-4" vs
#   "4-4-5") measures ~0.85 %, a different symbol ~4 %. Limit: 0.25 %.
MEAN_LIMIT = 8.0
STRONG_LIMIT = 0.0025


@pytest.mark.parametrize("symbol", sorted(SYMBOLS))
def test_every_symbol_renders_the_same_in_qt_and_pillow(qapp: QApplication, symbol: str) -> None:
    for side in (GERMANY, USSR):
        prims = counter_primitives(unit(symbol), side, {"name": "3rd", "step": 2}, float(N))
        q, p = render_qt(prims), render_pil(prims)
        assert q.shape == p.shape == (N, N, 3)
        assert mean_abs_diff(q, p) < MEAN_LIMIT, symbol
        assert strong_diff_fraction(q, p) < STRONG_LIMIT, symbol


def test_the_agreement_metrics_catch_real_differences(qapp: QApplication) -> None:
    """Negative controls: the limits above are tight enough to see a wrong counter."""
    base = render_qt(counter_primitives(unit("infantry"), GERMANY, {}, float(N)))
    other_symbol = render_pil(counter_primitives(unit("armour"), GERMANY, {}, float(N)))
    other_digit = render_pil(counter_primitives(unit("infantry", movement=5), GERMANY, {},
                                                float(N)))
    other_side = render_pil(counter_primitives(unit("infantry"), BLUE, {}, float(N)))
    assert mean_abs_diff(base, other_symbol) > MEAN_LIMIT
    assert strong_diff_fraction(base, other_symbol) > STRONG_LIMIT
    assert strong_diff_fraction(base, other_digit) > STRONG_LIMIT
    assert mean_abs_diff(base, other_side) > MEAN_LIMIT


def region(a: np.ndarray, x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    n = a.shape[0]
    return a[int(y0 * n):int(y1 * n), int(x0 * n):int(x1 * n)]


def test_background_corner_and_factor_text_agree(qapp: QApplication) -> None:
    prims = counter_primitives(unit("infantry", (12, 10), 4), USSR, {}, float(N))
    for img in (render_qt(prims), render_pil(prims)):
        # The top-right corner (inside the border, clear of text) is the side's colour.
        corner = region(img, 0.86, 0.07, 0.9, 0.11).reshape(-1, 3).mean(axis=0)
        assert np.abs(corner - np.array(parse_colour(USSR.colour))).max() <= 3
    q, p = render_qt(prims), render_pil(prims)
    # The factor line is white text on red: the band is much lighter than the background,
    # and the two backends put the same amount of ink there.
    qf = region(q, 0.15, 0.74, 0.85, 0.93).mean()
    pf = region(p, 0.15, 0.74, 0.85, 0.93).mean()
    bg_level = float(np.mean(parse_colour(USSR.colour)))
    assert qf > bg_level + 20 and pf > bg_level + 20
    assert abs(qf - pf) < 6
    # Dark text on a light counter: the factor region is darker than the background.
    prims = counter_primitives(unit("armour", (6, 3), 6), GERMANY, {}, float(N))
    q, p = render_qt(prims), render_pil(prims)
    bg = float(np.mean(parse_colour(GERMANY.colour)))
    for img in (q, p):
        assert region(img, 0.15, 0.74, 0.85, 0.93).mean() < bg - 20
    assert abs(region(q, 0.15, 0.74, 0.85, 0.93).mean()
               - region(p, 0.15, 0.74, 0.85, 0.93).mean()) < 6


def test_layout_contract() -> None:
    prims = counter_primitives(unit("mechanized"), GERMANY, {"name": "XXIV Pz"}, 50.0)
    first = prims[0]
    assert isinstance(first, Rect) and (first.x, first.y, first.w, first.h) == (0, 0, 50, 50)
    assert primitives_extent(prims) == 50.0
    texts = [p for p in prims if isinstance(p, Text)]
    assert any(t.text == "4-4-4" and t.bold for t in texts)
    assert any(t.text == "XX" for t in texts)
    assert any(t.text.startswith("XXIV") for t in texts)
    # Coordinates scale with size.
    big = counter_primitives(unit("mechanized"), GERMANY, {"name": "XXIV Pz"}, 100.0)
    assert len(big) == len(prims)
    for a, b in zip(prims, big, strict=True):
        if isinstance(a, Text) and isinstance(b, Text):
            assert b.x == pytest.approx(2 * a.x) and b.size == pytest.approx(2 * a.size)
    with pytest.raises(ValueError):
        counter_primitives(unit("infantry"), GERMANY, {}, 0)


def test_every_primitive_stays_inside_the_counter() -> None:
    for symbol in sorted(SYMBOLS):
        for prim in counter_primitives(unit(symbol), GERMANY, {"name": "1 SS LAH"}, 1.0):
            pts: list[tuple[float, float]] = []
            if isinstance(prim, Rect | Text):
                pts = [(prim.x, prim.y)]
            elif hasattr(prim, "points"):
                pts = list(prim.points)
            for x, y in pts:
                assert -1e-9 <= x <= 1 + 1e-9 and -1e-9 <= y <= 1 + 1e-9, (symbol, prim)


def test_long_names_and_factors_fit() -> None:
    prims = counter_primitives(unit("infantry", (12, 10, 8), 10), GERMANY,
                               {"name": "Grossdeutschland Division"}, 1.0)
    for t in (p for p in prims if isinstance(p, Text)):
        assert estimate_text_width(t.text, t.size) <= 0.9, t


def test_reduced_step_marker() -> None:
    full = counter_primitives(unit("infantry"), GERMANY, {}, 1.0)
    for attrs in ({"step": 2}, {"reduced": True}):
        reduced = counter_primitives(unit("infantry"), GERMANY, attrs, 1.0)
        assert len(reduced) == len(full) + 1  # the band behind the factors
    assert counter_primitives(unit("infantry"), GERMANY, {"step": 1}, 1.0) == full
    # A reduced side may print its own factors.
    prims = counter_primitives(unit("infantry"), GERMANY, {"step": 2, "factors": [2, 2, 4]}, 1.0)
    assert any(isinstance(p, Text) and p.text == "2-2-4" for p in prims)


def test_colourblind_palette_uses_alt_colour_and_keeps_text_readable() -> None:
    assert side_colours(BLUE, "standard") == ("#7fa7d9", "#000000")
    bg, fg = side_colours(BLUE, "colourblind")
    assert bg == "#4477aa"
    assert contrast(bg, fg) >= 4.5
    assert side_colours(GERMANY, "colourblind")[0] == GERMANY.colour  # no alt: unchanged
    prims = counter_primitives(unit("infantry"), BLUE, {}, 1.0, "colourblind")
    first = prims[0]
    assert isinstance(first, Rect) and first.fill == "#4477aa"


def test_visual_key_ignores_attrs_that_do_not_show() -> None:
    assert visual_key({"name": "3", "moved": True}) == visual_key({"name": "3"})
    assert visual_key({"step": 2}) != visual_key({})
    assert visual_key({"factors": [1, 2]}) == visual_key({"factors": (1, 2)})


def test_pixmap_cache_reuses_per_bucket(qapp: QApplication) -> None:
    cache = CounterPixmapCache()
    a = cache.pixmap(unit("infantry"), GERMANY, {"name": "3"}, 40.0)
    b = cache.pixmap(unit("infantry"), GERMANY, {"name": "3", "moved": True}, 41.0)
    assert cache.renders == 1 and a.cacheKey() == b.cacheKey()
    assert a.width() == bucket_for(40.0) >= 40
    cache.pixmap(unit("infantry"), GERMANY, {"name": "3"}, 80.0)
    cache.pixmap(unit("infantry"), GERMANY, {"name": "3"}, 40.0, palette="colourblind")
    assert cache.renders == 3
    small = CounterPixmapCache(max_entries=2)
    for px in (20.0, 40.0, 80.0):
        small.pixmap(unit("infantry"), GERMANY, {}, px)
    assert len(small) == 2


def test_pillow_render_is_transparent_outside_the_rounded_corners() -> None:
    img = render_counter_pil(counter_primitives(unit("artillery"), GERMANY, {}, 1.0), 64)
    assert img.size == (64, 64) and img.mode == "RGBA"
    alpha = img.getchannel("A")
    corner, middle = alpha.getpixel((0, 0)), alpha.getpixel((32, 32))
    assert isinstance(corner, int) and corner < 64
    assert middle == 255
