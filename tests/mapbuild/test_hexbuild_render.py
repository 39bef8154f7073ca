"""printing/maprender.py: a hex map and bare geometry drawn with Pillow."""

from __future__ import annotations

import pytest
from shapely.geometry import LineString, box

from wartable.core.hexgrid import Orientation
from wartable.maps import rectangular_hex_map
from wartable.printing.counterart import parse_colour
from wartable.printing.maprender import Overlay, render_hex_map, render_shapes


def test_hex_fills_use_the_terrain_colour() -> None:
    m = rectangular_hex_map("t/r", 8, 6, orientation=Orientation.POINTY)
    img = render_hex_map(m, scale=40, title="")
    x0, y0 = m.bounds()[:2]
    k = 40 / (3 ** 0.5 * m.layout.size_x)
    hits = 0
    for label in m.location_ids():
        info = m.info(label)
        if info.places or info.features:
            continue
        cx, cy = m.center(label)
        # a point a third of the way to a corner, clear of patterns and labels
        px = round((cx - x0 - 0.45 * m.layout.size_x) * k) + 12
        py = round((cy - y0 + 0.1 * m.layout.size_y) * k) + 12
        want = parse_colour(m.terrain_types[info.terrain].fill)
        got = img.getpixel((px, py))[:3]
        if max(abs(a - b) for a, b in zip(got, want, strict=True)) < 40:
            hits += 1
    assert hits > len(m.location_ids()) // 2


def test_scale_sets_the_size_and_labels_follow_legibility() -> None:
    m = rectangular_hex_map("t/r", 10, 10)
    small = render_hex_map(m, scale=20)
    big = render_hex_map(m, scale=60)
    assert big.size[0] == pytest.approx(3 * small.size[0], rel=0.1)
    with_labels = render_hex_map(m, scale=40, labels=True, title="")
    without = render_hex_map(m, scale=40, labels=False, title="")
    assert with_labels.tobytes() != without.tobytes()
    with pytest.raises(ValueError):
        render_hex_map(m, scale=0)


def test_overlays_and_crop() -> None:
    m = rectangular_hex_map("t/r", 10, 10)
    x0, y0, x1, y1 = m.bounds()
    line = Overlay(LineString([(x0, y0), (x1, y1)]), "#ff0000", None, 3.0)
    img = render_hex_map(m, scale=30, overlays=[line], title="")
    raw = img.convert("RGB").tobytes()
    reds = sum(1 for i in range(0, len(raw), 3)
               if raw[i] > 200 and raw[i + 1] < 60 and raw[i + 2] < 60)
    assert reds > 100
    crop = render_hex_map(m, scale=30, crop=(x0, y0, (x0 + x1) / 2, (y0 + y1) / 2), title="")
    assert crop.size[0] < img.size[0] * 0.7


def test_render_shapes_draws_geometry() -> None:
    img = render_shapes([Overlay(box(0, 0, 10, 10), "#000000", "#00ff00", 1.0)],
                        (-1.0, -1.0, 11.0, 11.0), width=200)
    assert img.getpixel((100, 100))[:3] == (0, 255, 0)
    with pytest.raises(ValueError):
        render_shapes([], (0.0, 0.0, 0.0, 1.0))


def _count(img: object, colour: str) -> int:
    want = parse_colour(colour)
    w, h = img.size  # type: ignore[attr-defined]
    data = [img.getpixel((x, y)) for y in range(h) for x in range(w)]  # type: ignore[attr-defined]
    return sum(1 for px in data if max(abs(a - b) for a, b in zip(px[:3], want, strict=True)) < 8)


def test_a_strait_hexside_is_drawn_as_a_bar_across_it() -> None:
    # issue 19: the Bosporus and Dardanelles are crossable hexsides a player must see
    from wartable.core.frozen import FrozenMap
    from wartable.core.hexgrid import Hexside
    from wartable.printing.maprender import STRAIT

    m = rectangular_hex_map("t/r", 6, 6, orientation=Orientation.POINTY)
    plain = render_hex_map(m, scale=40, title="", labels=False)
    a = m.hex_of(m.location_ids()[14])
    side = Hexside.between(a, a.neighbors()[0])
    with_strait = type(m)(m.id, m.title, m.version, m.layout, m.labels, m.terrain_types,
                          m.hexes, FrozenMap({side: ("strait",)}), m.places)
    drawn = render_hex_map(with_strait, scale=40, title="", labels=False)
    assert _count(plain, STRAIT) == 0
    assert _count(drawn, STRAIT) > 20
