"""Hex math: properties over many hexes (hypothesis) plus hand-computed examples."""

from __future__ import annotations

import doctest
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wartable.core import hexgrid
from wartable.core.hexgrid import (
    DIRECTIONS,
    FractionalHex,
    Hex,
    Hexside,
    LabelScheme,
    Layout,
    OffsetCoord,
    OffsetKind,
    Orientation,
    from_offset,
    hex_round,
    hexside_endpoints,
    hexsides_of,
    to_offset,
)

coord = st.integers(min_value=-300, max_value=300)
hexes = st.builds(Hex, coord, coord)
kinds = st.sampled_from(list(OffsetKind))
orientations = st.sampled_from(list(Orientation))
layouts = st.builds(
    Layout,
    orientations,
    st.floats(min_value=0.5, max_value=40.0),
    st.floats(min_value=0.5, max_value=40.0),
    st.floats(min_value=-1000.0, max_value=1000.0),
    st.floats(min_value=-1000.0, max_value=1000.0),
)

WHATIF_EAST = LabelScheme(
    OffsetKind.ODD_Q, column_first=False, row_start=60, row_dir=-1, col_start=0, col_dir=1
)
AETO_EAST = LabelScheme(
    OffsetKind.ODD_Q,
    column_first=False,
    row_start=0,
    row_dir=1,
    col_start=40,
    col_dir=-1,
    prefix="E ",
)
SCHEMES = [
    LabelScheme(OffsetKind.ODD_Q),
    LabelScheme(OffsetKind.EVEN_R, column_first=False, col_start=0, row_start=0),
    WHATIF_EAST,
    AETO_EAST,
    LabelScheme(OffsetKind.EVEN_Q, col_dir=-1, row_dir=-1, col_start=99, row_start=50),
    LabelScheme(OffsetKind.ODD_R, col_digits=3, prefix="W ", separator="."),
]


def close(p: tuple[float, float], q: tuple[float, float], tol: float = 1e-9) -> bool:
    return math.isclose(p[0], q[0], abs_tol=tol) and math.isclose(p[1], q[1], abs_tol=tol)


# --- properties -------------------------------------------------------------------------------


@given(hexes, kinds)
def test_offset_round_trip(h: Hex, kind: OffsetKind) -> None:
    off = to_offset(h, kind)
    assert from_offset(off.col, off.row, kind) == h


@given(coord, coord, kinds)
def test_offset_round_trip_from_offset_side(col: int, row: int, kind: OffsetKind) -> None:
    assert to_offset(from_offset(col, row, kind), kind) == OffsetCoord(col, row)


@given(st.sampled_from(SCHEMES), st.data())
def test_label_parse_round_trip(scheme: LabelScheme, data: st.DataObject) -> None:
    # Pick printed numbers that fit the widths, then go printed -> hex -> printed -> hex.
    col_p = data.draw(st.integers(0, 10**scheme.col_digits - 1))
    row_p = data.draw(st.integers(0, 10**scheme.row_digits - 1))
    col = (col_p - scheme.col_start) * scheme.col_dir
    row = (row_p - scheme.row_start) * scheme.row_dir
    h = from_offset(col, row, scheme.kind)
    text = scheme.label(h)
    assert scheme.parse(text) == h
    assert scheme.label(scheme.parse(text)) == text
    # Without the prefix, in lower case, with stray spaces: still the same hex.
    bare = text.removeprefix(scheme.prefix)
    assert scheme.parse(bare) == h
    assert scheme.parse("  " + text.lower() + " ") == h


@given(layouts, hexes)
def test_pixel_round_trip(layout: Layout, h: Hex) -> None:
    x, y = layout.hex_to_pixel(h)
    assert hex_round(layout.pixel_to_hex(x, y)) == h
    assert layout.hex_at(x, y) == h


@given(layouts, hexes, st.floats(0.0, 0.8), st.floats(0.0, 2 * math.pi))
def test_points_inside_a_hex_find_it(layout: Layout, h: Hex, frac: float, angle: float) -> None:
    # Anything within the inscribed circle (0.866 of the radius) of a hex lies in that hex.
    cx, cy = layout.hex_to_pixel(h)
    x = cx + frac * layout.size_x * math.cos(angle)
    y = cy + frac * layout.size_y * math.sin(angle)
    assert layout.hex_at(x, y) == h


@given(hexes, hexes, hexes)
def test_distance_metric(a: Hex, b: Hex, c: Hex) -> None:
    assert a.distance(b) == b.distance(a)
    assert a.distance(c) <= a.distance(b) + b.distance(c)
    assert (a.distance(b) == 0) == (a == b)


@given(hexes, hexes)
def test_line_length_and_steps(a: Hex, b: Hex) -> None:
    line = a.line_to(b)
    assert len(line) == a.distance(b) + 1
    assert line[0] == a and line[-1] == b
    assert all(p.distance(n) == 1 for p, n in zip(line, line[1:], strict=False))


@given(hexes)
def test_neighbors_at_distance_one(h: Hex) -> None:
    ns = h.neighbors()
    assert len(set(ns)) == 6
    for d, n in enumerate(ns):
        assert h.distance(n) == 1
        assert h.neighbor(d) == n
        assert h.direction_to(n) == d


@given(hexes, st.integers(1, 12))
def test_ring(h: Hex, n: int) -> None:
    ring = h.ring(n)
    assert len(ring) == 6 * n
    assert len(set(ring)) == 6 * n
    assert all(h.distance(x) == n for x in ring)


@given(hexes, st.integers(0, 12))
def test_range_and_spiral(h: Hex, n: int) -> None:
    area = h.range(n)
    assert len(area) == 3 * n * (n + 1) + 1
    assert len(set(area)) == len(area)
    assert all(h.distance(x) <= n for x in area)
    spiral = h.spiral(n)
    assert spiral[0] == h
    assert set(spiral) == set(area)


@given(hexes)
def test_hexsides_canonical(h: Hex) -> None:
    sides = hexsides_of(h)
    assert len(set(sides)) == 6
    for side, n in zip(sides, h.neighbors(), strict=True):
        assert Hexside.between(h, n) == Hexside.between(n, h) == side
        assert set(side.hexes()) == {h, n}
        assert side.other(h) == n
        # The hexside belongs to exactly these two hexes.
        assert side in hexsides_of(n)
        others = set(h.neighbors()) - {n}
        assert all(side not in hexsides_of(o) for o in others)


@given(layouts, hexes, st.integers(0, 5))
def test_hexside_endpoints_are_shared_corners(layout: Layout, h: Hex, d: int) -> None:
    n = h.neighbor(d)
    side = Hexside.between(h, n)
    p, q = hexside_endpoints(layout, side)
    tol = 1e-6 * max(layout.size_x, layout.size_y, 1.0) + 1e-9 * 1000
    for corner in (p, q):
        assert any(close(corner, c, tol) for c in layout.corners(h))
        assert any(close(corner, c, tol) for c in layout.corners(n))
    mid = layout.hexside_midpoint(side)
    assert close(mid, ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2), tol)


@given(hexes, hexes)
def test_hexside_between_requires_adjacency(a: Hex, b: Hex) -> None:
    if a.distance(b) == 1:
        assert Hexside.between(a, b) == Hexside.between(b, a)
    else:
        with pytest.raises(ValueError, match="not adjacent"):
            Hexside.between(a, b)


# --- hand-computed examples -------------------------------------------------------------------


def test_docstring_examples() -> None:
    result = doctest.testmod(hexgrid)
    assert result.attempted >= 5 and result.failed == 0


def test_cube_s_and_arithmetic() -> None:
    h = Hex(2, -5)
    assert h.s == 3
    assert h + Hex(1, 1) == Hex(3, -4)
    assert h - Hex(1, 1) == Hex(1, -6)
    assert h.scale(3) == Hex(6, -15)


def test_distance_example() -> None:
    # Cube (3,-1,-2) minus (0,0,0): max(|3|, |-1|, |-2|) = 3.
    assert Hex(0, 0).distance(Hex(3, -1)) == 3


def test_line_along_a_hexside_is_stable() -> None:
    # From (0,0) to (2,-1) the exact line passes through the corner between (1,0) and (1,-1);
    # the epsilon nudge always picks the same one.
    assert Hex(0, 0).line_to(Hex(2, -1)) == (Hex(0, 0), Hex(1, 0), Hex(2, -1))


def test_flat_layout_example() -> None:
    lay = Layout(Orientation.FLAT, 1.0, 1.0, 10.0, 20.0)
    # x = 3/2 q, y = sqrt3/2 q + sqrt3 r  (size 1) plus the origin.
    assert close(lay.hex_to_pixel(Hex(1, 0)), (11.5, 20 + math.sqrt(3) / 2))
    assert close(lay.hex_to_pixel(Hex(0, 1)), (10.0, 20 + math.sqrt(3)))
    assert close(lay.corners(Hex(0, 0))[0], (11.0, 20.0))  # flat top: corner 0 points east
    assert lay.pixel_to_hex(10.0, 20.0) == FractionalHex(0.0, 0.0)


def test_pointy_layout_example() -> None:
    lay = Layout(Orientation.POINTY, 2.0, 2.0)
    # x = sqrt3 q + sqrt3/2 r, y = 3/2 r  (times size 2)
    assert close(lay.hex_to_pixel(Hex(1, 0)), (2 * math.sqrt(3), 0.0))
    assert close(lay.hex_to_pixel(Hex(0, 1)), (math.sqrt(3), 3.0))
    assert close(lay.corners(Hex(0, 0))[0], (math.sqrt(3), 1.0))  # corner 0 at 30 degrees


def test_hexside_endpoint_example() -> None:
    lay = Layout(Orientation.FLAT)
    p, q = hexside_endpoints(lay, Hexside.between(Hex(1, 0), Hex(0, 0)))
    # (1,0) is down-right of (0,0); their edge runs from (0,0)'s east corner to its
    # lower-right corner (y down).
    assert close(p, (1.0, 0.0)) and close(q, (0.5, math.sqrt(3) / 2))


def test_hexside_canonical_order_and_errors() -> None:
    side = Hexside.between(Hex(1, 0), Hex(0, 0))
    assert side.hexes() == (Hex(0, 0), Hex(1, 0))
    with pytest.raises(ValueError, match="not canonical"):
        Hexside(Hex(1, 0), Hex(0, 0))
    with pytest.raises(ValueError, match="not adjacent"):
        Hexside.between(Hex(0, 0), Hex(2, 0))
    with pytest.raises(ValueError, match="not on"):
        side.other(Hex(5, 5))


def test_offset_examples() -> None:
    # odd-q: row = r + (q - (q&1))/2. Hex(3,-1): -1 + (3-1)/2 = 0.
    assert to_offset(Hex(3, -1), OffsetKind.ODD_Q) == OffsetCoord(3, 0)
    # even-q: row = r + (q + (q&1))/2. Hex(1,0): 0 + (1+1)/2 = 1.
    assert to_offset(Hex(1, 0), OffsetKind.EVEN_Q) == OffsetCoord(1, 1)
    # odd-r: col = q + (r - (r&1))/2. Hex(-2,3): -2 + (3-1)/2 = -1.
    assert to_offset(Hex(-2, 3), OffsetKind.ODD_R) == OffsetCoord(-1, 3)
    # even-r: col = q + (r + (r&1))/2. Hex(-2,3): -2 + (3+1)/2 = 0.
    assert to_offset(Hex(-2, 3), OffsetKind.EVEN_R) == OffsetCoord(0, 3)
    # Negative coordinates use floor parity: odd-q Hex(-1,0): 0 + (-1-1)/2 = -1.
    assert to_offset(Hex(-1, 0), OffsetKind.ODD_Q) == OffsetCoord(-1, -1)


def test_odd_q_shoves_odd_columns_down() -> None:
    lay = Layout(Orientation.FLAT)
    y0 = lay.hex_to_pixel(from_offset(0, 0, OffsetKind.ODD_Q))[1]
    y1 = lay.hex_to_pixel(from_offset(1, 0, OffsetKind.ODD_Q))[1]
    y2 = lay.hex_to_pixel(from_offset(2, 0, OffsetKind.ODD_Q))[1]
    assert y1 > y0 and math.isclose(y0, y2, abs_tol=1e-9)
    assert OffsetKind.ODD_Q.orientation is Orientation.FLAT
    assert OffsetKind.EVEN_R.orientation is Orientation.POINTY


def test_label_examples() -> None:
    plain = LabelScheme(OffsetKind.ODD_Q)
    # Column-first from 01: offset (0,0) -> "01","01"; offset (11,4) -> 12 and 05.
    assert plain.label(from_offset(0, 0, OffsetKind.ODD_Q)) == "0101"
    assert plain.label(from_offset(11, 4, OffsetKind.ODD_Q)) == "1205"
    # 1940 east: Leningrad 5917 -> row offset 60-59 = 1, column 17.
    assert to_offset(WHATIF_EAST.parse("5917"), OffsetKind.ODD_Q) == OffsetCoord(17, 1)
    # AETO east: Baku E 3707 -> row 37, column offset 40-07 = 33.
    assert AETO_EAST.label(from_offset(33, 37, OffsetKind.ODD_Q)) == "E 3707"
    dotted = LabelScheme(OffsetKind.ODD_R, col_digits=3, prefix="W ", separator=".")
    # Column 100+1 = 101 (3 digits), row 7+1 = 08.
    assert dotted.label(from_offset(100, 7, OffsetKind.ODD_R)) == "W 101.08"
    assert dotted.parse("101.08") == from_offset(100, 7, OffsetKind.ODD_R)


@pytest.mark.parametrize(
    "text", ["12a4", "12345", "123", "", "E 02 3", "W 0230", "²³45", "-101", "01 01 01"]
)
def test_parse_rejects_junk(text: str) -> None:
    with pytest.raises(ValueError, match="not a hex number on this map: expected 4 digits"):
        AETO_EAST.parse(text)


def test_label_out_of_width() -> None:
    plain = LabelScheme(OffsetKind.ODD_Q)
    with pytest.raises(ValueError, match="no printed label"):
        plain.label(from_offset(99, 0, OffsetKind.ODD_Q))  # column would print as 100
    with pytest.raises(ValueError, match="no printed label"):
        plain.label(from_offset(-2, 0, OffsetKind.ODD_Q))  # column would print as -1


def test_scheme_and_layout_validation() -> None:
    with pytest.raises(ValueError, match="directions"):
        LabelScheme(OffsetKind.ODD_Q, col_dir=2)
    with pytest.raises(ValueError, match="digits"):
        LabelScheme(OffsetKind.ODD_Q, prefix="E1")
    with pytest.raises(ValueError, match="positive"):
        Layout(Orientation.FLAT, 0.0, 1.0)
    with pytest.raises(ValueError, match=">= 0"):
        Hex(0, 0).range(-1)


def test_directions_are_unit_steps() -> None:
    assert all(d.length() == 1 for d in DIRECTIONS)
    assert Hex(0, 0).ring(0) == (Hex(0, 0),)
