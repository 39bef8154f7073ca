"""Hex grid math: axial hexes, layouts, canonical hexsides, offset coordinates, printed labels.

The model follows Red Blob Games' "Hexagonal Grids" guide (axial/cube coordinates,
orientation matrices, offset conversions). Conventions used throughout Wartable:

* Axial ``Hex(q, r)``; the third cube coordinate is ``s = -q - r``.
* Pixel ("map") coordinates have x growing to the right and y growing *down*, the same
  as a Qt scene, so maps never need flipping to be drawn. On flat-top grids ``r`` grows
  down-screen; on pointy-top grids ``r`` grows down-screen too (rows).
* Direction ``i`` is ``DIRECTIONS[i]``; hexside ``i`` of a hex is the edge it shares with
  ``hex.neighbor(i)``.
* Offset coordinates: ``col`` grows right, ``row`` grows down. Flat-top grids have straight
  columns (odd-q / even-q), pointy-top grids have straight rows (odd-r / even-r).

Printed labels ("4624", "E 0230") are a thin layer on top of offset coordinates: see
`LabelScheme`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

Point = tuple[float, float]

__all__ = [
    "DIRECTIONS",
    "FractionalHex",
    "Hex",
    "Hexside",
    "LabelScheme",
    "Layout",
    "OffsetCoord",
    "OffsetKind",
    "Orientation",
    "Point",
    "from_offset",
    "hex_round",
    "hexside_endpoints",
    "hexsides_of",
    "to_offset",
]


@dataclass(frozen=True, slots=True, order=True)
class Hex:
    """An axial hex coordinate. Ordered by (q, r) so sorted output is stable."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def scale(self, k: int) -> Hex:
        return Hex(self.q * k, self.r * k)

    def neighbor(self, direction: int) -> Hex:
        """The adjacent hex in direction 0..5 (any int, taken modulo 6)."""
        d = DIRECTIONS[direction % 6]
        return Hex(self.q + d.q, self.r + d.r)

    def neighbors(self) -> tuple[Hex, ...]:
        """The six adjacent hexes, in direction order 0..5."""
        return tuple(Hex(self.q + d.q, self.r + d.r) for d in DIRECTIONS)

    def direction_to(self, other: Hex) -> int:
        """The direction 0..5 of an adjacent hex; ValueError if `other` is not adjacent."""
        delta = (other.q - self.q, other.r - self.r)
        try:
            return _DIRECTION_INDEX[delta]
        except KeyError:
            raise ValueError(f"{other} is not adjacent to {self}") from None

    def length(self) -> int:
        """Distance from the origin hex."""
        return (abs(self.q) + abs(self.r) + abs(self.s)) // 2

    def distance(self, other: Hex) -> int:
        return (self - other).length()

    def line_to(self, other: Hex) -> tuple[Hex, ...]:
        """The hexes on the straight line from self to other, both included.

        Both ends are nudged by a tiny cube offset so that points exactly on a hexside
        always round the same way (otherwise a line along an edge would zigzag at random).
        """
        n = self.distance(other)
        if n == 0:
            return (self,)
        a = FractionalHex(self.q + 1e-6, self.r + 2e-6)  # s nudged by -3e-6
        b = FractionalHex(other.q + 1e-6, other.r + 2e-6)
        step = 1.0 / n
        return tuple(hex_round(a.lerp(b, i * step)) for i in range(n + 1))

    def range(self, n: int) -> tuple[Hex, ...]:
        """Every hex within distance n (n >= 0): 3n(n+1)+1 hexes."""
        if n < 0:
            raise ValueError(f"range radius must be >= 0, not {n}")
        out: list[Hex] = []
        for dq in range(-n, n + 1):
            for dr in range(max(-n, -dq - n), min(n, -dq + n) + 1):
                out.append(Hex(self.q + dq, self.r + dr))
        return tuple(out)

    def ring(self, n: int) -> tuple[Hex, ...]:
        """The 6n hexes at exactly distance n (n >= 1); ring(0) is just (self,)."""
        if n < 0:
            raise ValueError(f"ring radius must be >= 0, not {n}")
        if n == 0:
            return (self,)
        out: list[Hex] = []
        h = self + DIRECTIONS[4].scale(n)
        for side in range(6):
            for _ in range(n):
                out.append(h)
                h = h.neighbor(side)
        return tuple(out)

    def spiral(self, n: int) -> tuple[Hex, ...]:
        """self, then ring 1, ring 2, ... ring n: the same hexes as range(n), centre-out."""
        out: list[Hex] = [self]
        for k in range(1, n + 1):
            out.extend(self.ring(k))
        return tuple(out)

    def __repr__(self) -> str:
        return f"Hex({self.q}, {self.r})"


# Counter-clockwise starting east-south-east on flat-top (Red Blob's order).
DIRECTIONS: tuple[Hex, ...] = (
    Hex(1, 0),
    Hex(1, -1),
    Hex(0, -1),
    Hex(-1, 0),
    Hex(-1, 1),
    Hex(0, 1),
)
_DIRECTION_INDEX: dict[tuple[int, int], int] = {(d.q, d.r): i for i, d in enumerate(DIRECTIONS)}


@dataclass(frozen=True, slots=True)
class FractionalHex:
    """A point in axial space with float coordinates (the result of pixel_to_hex)."""

    q: float
    r: float

    @property
    def s(self) -> float:
        return -self.q - self.r

    def lerp(self, other: FractionalHex, t: float) -> FractionalHex:
        return FractionalHex(self.q + (other.q - self.q) * t, self.r + (other.r - self.r) * t)


def hex_round(h: FractionalHex) -> Hex:
    """The hex containing a fractional point: round in cube space, fix the worst coordinate."""
    q, r, s = round(h.q), round(h.r), round(h.s)
    dq, dr, ds = abs(q - h.q), abs(r - h.r), abs(s - h.s)
    # Rounding each coordinate alone can break q+r+s == 0; recompute the one that moved most.
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(int(q), int(r))


# --- layouts -----------------------------------------------------------------------------


class Orientation(Enum):
    """Flat-top (columns straight) or pointy-top (rows straight)."""

    FLAT = "flat"
    POINTY = "pointy"


@dataclass(frozen=True, slots=True)
class _Matrix:
    f0: float
    f1: float
    f2: float
    f3: float
    b0: float
    b1: float
    b2: float
    b3: float
    start_angle: float  # in sixths of a turn: corner i sits at 60 * (start_angle + i) degrees


_SQRT3 = math.sqrt(3.0)
_MATRICES: dict[Orientation, _Matrix] = {
    Orientation.FLAT: _Matrix(1.5, 0.0, _SQRT3 / 2, _SQRT3, 2 / 3, 0.0, -1 / 3, _SQRT3 / 3, 0.0),
    Orientation.POINTY: _Matrix(_SQRT3, _SQRT3 / 2, 0.0, 1.5, _SQRT3 / 3, -1 / 3, 0.0, 2 / 3, 0.5),
}


@dataclass(frozen=True, slots=True)
class Layout:
    """Where hexes sit in map coordinates.

    ``size_x``/``size_y`` are the hex circumradius (centre to corner) along each axis, in map
    units; they differ only for squashed hexes. ``origin`` is the centre of ``Hex(0, 0)``.
    """

    orientation: Orientation
    size_x: float = 1.0
    size_y: float = 1.0
    origin_x: float = 0.0
    origin_y: float = 0.0

    def __post_init__(self) -> None:
        if not (self.size_x > 0 and self.size_y > 0):
            raise ValueError(f"hex size must be positive, not {self.size_x} x {self.size_y}")
        for v in (self.size_x, self.size_y, self.origin_x, self.origin_y):
            if not math.isfinite(v):
                raise ValueError(f"layout numbers must be finite, not {v}")

    def hex_to_pixel(self, h: Hex) -> Point:
        """The centre of a hex."""
        m = _MATRICES[self.orientation]
        x = (m.f0 * h.q + m.f1 * h.r) * self.size_x
        y = (m.f2 * h.q + m.f3 * h.r) * self.size_y
        return (x + self.origin_x, y + self.origin_y)

    def pixel_to_hex(self, x: float, y: float) -> FractionalHex:
        """The fractional hex under a point; `hex_round` it (or use `hex_at`) for the hex."""
        m = _MATRICES[self.orientation]
        px = (x - self.origin_x) / self.size_x
        py = (y - self.origin_y) / self.size_y
        return FractionalHex(m.b0 * px + m.b1 * py, m.b2 * px + m.b3 * py)

    def hex_at(self, x: float, y: float) -> Hex:
        """The hex containing a point."""
        return hex_round(self.pixel_to_hex(x, y))

    def corner_offsets(self) -> tuple[Point, ...]:
        """The six corners relative to a hex centre (the same for every hex)."""
        return _corner_offsets(self.orientation, self.size_x, self.size_y)

    def corners(self, h: Hex) -> tuple[Point, ...]:
        """The six corners of a hex, corner i at 60*(start_angle+i) degrees (y down)."""
        cx, cy = self.hex_to_pixel(h)
        return tuple((cx + dx, cy + dy) for dx, dy in self.corner_offsets())

    def hexside_midpoint(self, side: Hexside) -> Point:
        """The middle of a hexside: halfway between the two hex centres."""
        ax, ay = self.hex_to_pixel(side.a)
        bx, by = self.hex_to_pixel(side.b)
        return ((ax + bx) / 2, (ay + by) / 2)


@lru_cache(maxsize=64)
def _corner_offsets(orientation: Orientation, sx: float, sy: float) -> tuple[Point, ...]:
    start = _MATRICES[orientation].start_angle
    out: list[Point] = []
    for i in range(6):
        angle = 2.0 * math.pi * (start + i) / 6.0
        out.append((sx * math.cos(angle), sy * math.sin(angle)))
    return tuple(out)


# --- hexsides ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, order=True)
class Hexside:
    """The edge between two adjacent hexes, named the same whichever side you start from.

    Stored canonically as ``a < b`` (Hex order), so ``Hexside.between(x, y) ==
    Hexside.between(y, x)`` and it can key a mapping. Build it with `between`.
    """

    a: Hex
    b: Hex

    def __post_init__(self) -> None:
        if not self.a < self.b:
            raise ValueError(f"Hexside({self.a}, {self.b}) is not canonical; use Hexside.between")
        if (self.b.q - self.a.q, self.b.r - self.a.r) not in _DIRECTION_INDEX:
            raise ValueError(f"{self.a} and {self.b} are not adjacent")

    @staticmethod
    def between(a: Hex, b: Hex) -> Hexside:
        """The hexside shared by two adjacent hexes; ValueError if they are not adjacent."""
        if (b.q - a.q, b.r - a.r) not in _DIRECTION_INDEX:
            raise ValueError(f"{a} and {b} are not adjacent, so they share no hexside")
        return Hexside(a, b) if a < b else Hexside(b, a)

    def hexes(self) -> tuple[Hex, Hex]:
        return (self.a, self.b)

    def other(self, h: Hex) -> Hex:
        """The hex across this hexside from h."""
        if h == self.a:
            return self.b
        if h == self.b:
            return self.a
        raise ValueError(f"{h} is not on {self}")


def hexsides_of(h: Hex) -> tuple[Hexside, ...]:
    """The six hexsides of a hex, in direction order (hexside i faces neighbor(i))."""
    return tuple(Hexside.between(h, n) for n in h.neighbors())


@lru_cache(maxsize=16)
def _side_corner_indices(orientation: Orientation) -> tuple[tuple[int, int], ...]:
    """For each direction, the two corner indices (of the near hex) on that hexside.

    Found geometrically once per orientation instead of hard-coding a table that could be
    wrong: the shared corners are the two nearest the midpoint between the centres.
    """
    lay = Layout(orientation)
    corners = lay.corners(Hex(0, 0))
    out: list[tuple[int, int]] = []
    for d in DIRECTIONS:
        mx, my = lay.hexside_midpoint(Hexside.between(Hex(0, 0), d))
        near = sorted(range(6), key=lambda i: (corners[i][0] - mx) ** 2 + (corners[i][1] - my) ** 2)
        i, j = sorted(near[:2])
        out.append((i, j))
    return tuple(out)


def hexside_endpoints(layout: Layout, side: Hexside) -> tuple[Point, Point]:
    """The two corner points where a hexside begins and ends.

    Positive sizes only scale each axis, so the corner indices per direction are the same
    for every layout of one orientation.
    """
    d = side.a.direction_to(side.b)
    i, j = _side_corner_indices(layout.orientation)[d]
    cx, cy = layout.hex_to_pixel(side.a)
    offs = layout.corner_offsets()
    return ((cx + offs[i][0], cy + offs[i][1]), (cx + offs[j][0], cy + offs[j][1]))


# --- offset coordinates ---------------------------------------------------------------------


class OffsetKind(Enum):
    """Which offset layout: odd/even columns (flat-top) or rows (pointy-top) shoved down/right."""

    ODD_Q = "odd-q"
    EVEN_Q = "even-q"
    ODD_R = "odd-r"
    EVEN_R = "even-r"

    @property
    def orientation(self) -> Orientation:
        """The hex orientation this offset kind belongs to."""
        flat = self in (OffsetKind.ODD_Q, OffsetKind.EVEN_Q)
        return Orientation.FLAT if flat else Orientation.POINTY


@dataclass(frozen=True, slots=True, order=True)
class OffsetCoord:
    col: int
    row: int


def to_offset(h: Hex, kind: OffsetKind) -> OffsetCoord:
    """Axial to offset. `x & 1` is the parity for negative ints too, so it works off-board."""
    if kind is OffsetKind.ODD_Q:
        return OffsetCoord(h.q, h.r + (h.q - (h.q & 1)) // 2)
    if kind is OffsetKind.EVEN_Q:
        return OffsetCoord(h.q, h.r + (h.q + (h.q & 1)) // 2)
    if kind is OffsetKind.ODD_R:
        return OffsetCoord(h.q + (h.r - (h.r & 1)) // 2, h.r)
    return OffsetCoord(h.q + (h.r + (h.r & 1)) // 2, h.r)


def from_offset(col: int, row: int, kind: OffsetKind) -> Hex:
    """Offset to axial; the inverse of `to_offset`."""
    if kind is OffsetKind.ODD_Q:
        return Hex(col, row - (col - (col & 1)) // 2)
    if kind is OffsetKind.EVEN_Q:
        return Hex(col, row - (col + (col & 1)) // 2)
    if kind is OffsetKind.ODD_R:
        return Hex(col - (row - (row & 1)) // 2, row)
    return Hex(col - (row + (row & 1)) // 2, row)


# --- printed labels --------------------------------------------------------------------------

_SPACES = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class LabelScheme:
    """How a board prints its hex numbers, e.g. "XXYY".

    Each printed part is ``start + dir * offset`` where offset is the offset col or row
    (so ``start`` is the number printed at offset 0 and ``dir`` is +1 if the printed number
    grows with the offset coordinate, -1 if it shrinks). Offset rows grow *down* the map
    (southward on a north-up map) and columns grow to the right (eastward).

    1940: What If? east map (digest 002 §2.1): the first two digits grow south→north (so
    they come from the row, shrinking as the row grows) and the last two west→east, with
    "00" at the west edge. If offset row 0 prints "60":

    >>> wi = LabelScheme(OffsetKind.ODD_Q, column_first=False,
    ...                  row_start=60, row_dir=-1, col_start=0, col_dir=1)
    >>> wi.label(from_offset(24, 14, OffsetKind.ODD_Q))   # row 14 -> 60-14=46; col 24 -> 24
    '4624'
    >>> to_offset(wi.parse("4624"), OffsetKind.ODD_Q)
    OffsetCoord(col=24, row=14)

    AETO east map (digest 000 §1.2): "E xxxx", first two digits grow southward (row, +1),
    last two shrink eastward (column, -1). If offset column 0 prints "40":

    >>> aeto = LabelScheme(OffsetKind.ODD_Q, column_first=False, row_start=0, row_dir=1,
    ...                    col_start=40, col_dir=-1, prefix="E ")
    >>> aeto.label(from_offset(10, 2, OffsetKind.ODD_Q))  # Murmansk: row 2 -> 02; 40-10=30
    'E 0230'
    >>> aeto.parse("e0230") == aeto.parse(" E 0230 ") == aeto.parse("0230")
    True
    """

    kind: OffsetKind
    column_first: bool = True
    col_start: int = 1
    row_start: int = 1
    col_dir: int = 1
    row_dir: int = 1
    col_digits: int = 2
    row_digits: int = 2
    prefix: str = ""
    separator: str = ""

    def __post_init__(self) -> None:
        if self.col_dir not in (1, -1) or self.row_dir not in (1, -1):
            raise ValueError(
                f"label directions must be +1 or -1, not {self.col_dir} and {self.row_dir}"
            )
        if not (1 <= self.col_digits <= 9 and 1 <= self.row_digits <= 9):
            raise ValueError("label digit widths must be between 1 and 9")
        if any(c.isdigit() for c in self.prefix + self.separator):
            raise ValueError("a label prefix or separator may not contain digits")

    def _parts(self) -> tuple[int, int]:
        # (digits of the first printed part, digits of the second)
        if self.column_first:
            return (self.col_digits, self.row_digits)
        return (self.row_digits, self.col_digits)

    def _example(self) -> str:
        w1, w2 = self._parts()
        return f"{self.prefix}{'0' * (w1 - 1)}1{self.separator}{'0' * (w2 - 1)}1"

    def label(self, h: Hex) -> str:
        """The printed number of a hex; ValueError if it does not fit the digit widths."""
        off = to_offset(h, self.kind)
        col = self.col_start + self.col_dir * off.col
        row = self.row_start + self.row_dir * off.row
        if not (0 <= col < 10**self.col_digits and 0 <= row < 10**self.row_digits):
            raise ValueError(
                f"{h} (offset col {off.col}, row {off.row}) has no printed label: it would need "
                f"column {col} and row {row}, outside {self.col_digits}+{self.row_digits} digits"
            )
        c = f"{col:0{self.col_digits}d}"
        r = f"{row:0{self.row_digits}d}"
        first, second = (c, r) if self.column_first else (r, c)
        return f"{self.prefix}{first}{self.separator}{second}"

    def parse(self, text: str) -> Hex:
        """The hex a printed number names. Accepts the prefix or not, any case, extra spaces."""
        w1, w2 = self._parts()
        body = _SPACES.sub("", text)
        pre = _SPACES.sub("", self.prefix)
        if pre and body[: len(pre)].casefold() == pre.casefold():
            body = body[len(pre) :]
        sep = _SPACES.sub("", self.separator)
        if sep:
            first, found, second = body.partition(sep)
            ok = bool(found) and len(first) == w1 and len(second) == w2
        else:
            first, second = body[:w1], body[w1:]
            ok = len(body) == w1 + w2
        if not (ok and _is_ascii_digits(first) and _is_ascii_digits(second)):
            raise ValueError(
                f"{text!r} is not a hex number on this map: expected {w1 + w2} digits "
                f"like {self._example()!r}"
            )
        a, b = int(first), int(second)
        col_p, row_p = (a, b) if self.column_first else (b, a)
        # dir is +1 or -1, so multiplying by it is the same as dividing by it.
        col = (col_p - self.col_start) * self.col_dir
        row = (row_p - self.row_start) * self.row_dir
        return from_offset(col, row, self.kind)


def _is_ascii_digits(s: str) -> bool:
    # str.isdigit accepts "²" and other Unicode digits that int() then rejects or misreads.
    return bool(s) and all("0" <= c <= "9" for c in s)
