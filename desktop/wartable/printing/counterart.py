"""One counter layout for screen and print: a counter as a list of drawing primitives.

DESIGN.md, Counters: the screen (Qt, `wartable.ui.counters`) and print (Pillow,
`wartable.printing.counter_pil`) draw the *same* primitives, so the two never disagree. This
module is pure Python: no Qt, no Pillow.

Geometry. `counter_primitives(..., size=S)` lays a counter out in the square [0, S] x [0, S],
y down. The first primitive is always the background `Rect(0, 0, S, S, ...)`, so a backend
can recover S with `primitives_extent`. Strokes are centred on their outline (as in Qt and
SVG); widths are in the same units as coordinates.

Text. `Text.size` is the font's pixel size (em height) in the same units; `anchor` uses
Pillow's two-letter convention: horizontal l/m/r (left, middle of the advance, right), then
vertical t/m/s/b (ascender, halfway between ascender and descender, baseline, descender).
Both backends use DejaVu Sans (Bold when `bold`), found by `find_font_file`.

Layout (fractions of the counter side), after the classic SPI/GMT counter:

    +---------------------------+
    | 3rd Pz      XX            |   designation (attrs "name") top-left, echelon centred
    |      +-------------+      |
    |      |   NATO      |      |   unit symbol box, centred in the upper half
    |      |   symbol    |      |
    |      +-------------+      |
    |          6-3-6            |   factors, bold, along the bottom (reduced: tinted band)
    +---------------------------+

Air and naval units and factories are drawn as simple dark silhouettes without a frame; a
"marker" shows its name in the middle instead of a symbol.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeAlias

from wartable.model.definition import Side, UnitType

Palette: TypeAlias = Literal["standard", "colourblind"]
PALETTES: tuple[Palette, ...] = ("standard", "colourblind")
XY: TypeAlias = tuple[float, float]


# --- primitives ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str | None = None  # "#rrggbb" or None
    stroke: str | None = None
    width: float = 0.0
    radius: float = 0.0


@dataclass(frozen=True, slots=True)
class Line:
    """An open polyline (two or more points)."""

    points: tuple[XY, ...]
    stroke: str
    width: float


@dataclass(frozen=True, slots=True)
class Ellipse:
    """An ellipse inscribed in the box (x, y, w, h)."""

    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.0


@dataclass(frozen=True, slots=True)
class Polygon:
    """A closed polygon."""

    points: tuple[XY, ...]
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.0


@dataclass(frozen=True, slots=True)
class Text:
    x: float
    y: float
    text: str
    size: float
    colour: str
    anchor: str = "mm"
    bold: bool = False


Primitive: TypeAlias = Rect | Line | Ellipse | Polygon | Text


def primitives_extent(prims: Iterable[Primitive]) -> float:
    """The side S of the square a primitive list was laid out in (its background's width)."""
    for p in prims:
        if isinstance(p, Rect) and p.x == 0 and p.y == 0:
            return p.w
        break
    raise ValueError("not a counter: the first primitive must be the background Rect at (0, 0)")


# --- fonts ---------------------------------------------------------------------------------

_FONT_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}
_FONT_DIRS = (
    Path(__file__).resolve().parents[1] / "assets" / "fonts",  # installed: wartable.assets
    Path(__file__).resolve().parents[3] / "assets" / "fonts",  # source checkout
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/share/fonts/TTF"),
    Path("/Library/Fonts"),
    Path(os.environ.get("WINDIR", "C:/Windows")) / "Fonts",
)


def find_font_file(bold: bool) -> str | None:
    """The path of DejaVu Sans (Bold): the bundled copy first, then common system folders."""
    name = _FONT_FILES[bold]
    for d in _FONT_DIRS:
        p = d / name
        if p.is_file():
            return str(p)
    return None


# Advance widths of DejaVu Sans Bold in em, for fitting text without a font engine. Digits
# and the hyphen are exact (from the font's hmtx table); other characters use a safe average.
_ADVANCE = {**dict.fromkeys("0123456789", 0.696), "-": 0.415, " ": 0.348, "/": 0.365,
            ".": 0.380, "(": 0.457, ")": 0.457, "*": 0.523}
_AVG_ADVANCE = 0.72


def estimate_text_width(text: str, size: float) -> float:
    """A slightly generous width estimate of `text` set in DejaVu Sans Bold at `size`."""
    return size * sum(_ADVANCE.get(c, _AVG_ADVANCE) for c in text)


def _fit_text(text: str, size: float, width: float, min_size: float) -> tuple[str, float]:
    """Shrink `text` down to `min_size` to fit `width`; then truncate it with an ellipsis."""
    w = estimate_text_width(text, size)
    if w <= width:
        return text, size
    size = max(min_size, size * width / w)
    while len(text) > 1 and estimate_text_width(text, size) > width:
        text = text[:-2] + "…" if len(text) > 2 else text[:-1]
    return text, size


# --- colours -------------------------------------------------------------------------------


def parse_colour(c: str) -> tuple[int, int, int]:
    c = c.lstrip("#")
    if len(c) != 6:
        raise ValueError(f"colour {c!r} is not '#rrggbb'")
    return (int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16))


def format_colour(rgb: Iterable[float]) -> str:
    return "#" + "".join(f"{max(0, min(255, round(v))):02x}" for v in rgb)


def mix(a: str, b: str, t: float) -> str:
    """`a` moved a fraction t towards `b`."""
    ca, cb = parse_colour(a), parse_colour(b)
    return format_colour(x + (y - x) * t for x, y in zip(ca, cb, strict=True))


def luminance(c: str) -> float:
    """WCAG relative luminance, 0 (black) to 1 (white)."""

    def lin(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = parse_colour(c)
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio, 1 to 21."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def side_colours(side: Side, palette: Palette = "standard") -> tuple[str, str]:
    """(background, text) colours of a side's counters in a palette.

    The colour-blind palette uses the side's `alt_colour` when it has one; the text colour
    then switches to black or white if the side's own text colour would be hard to read on it.
    """
    if palette == "colourblind" and side.alt_colour:
        bg, fg = side.alt_colour, side.text_colour or "#000000"
        if contrast(bg, fg) < 4.5:
            fg = "#000000" if contrast(bg, "#000000") >= contrast(bg, "#ffffff") else "#ffffff"
        return bg, fg
    return side.colour, side.text_colour or "#000000"


# --- the counter ---------------------------------------------------------------------------

# Layout constants, in fractions of the counter side.
BORDER = 0.035
RADIUS = 0.07
BOX = (0.22, 0.235, 0.56, 0.35)  # x, y, w, h of the NATO symbol frame
SILHOUETTE = (0.13, 0.22, 0.74, 0.42)  # area of frameless air/naval/factory silhouettes
FRAME_W = 0.035
SYMBOL_W = 0.03
FACTOR_Y = 0.835
FACTOR_SIZE = 0.25
TOP_Y = 0.155  # the middle of the top row (designation, echelon)

FRAMELESS = frozenset({"air", "fighter", "bomber", "naval", "transport", "submarine",
                       "destroyer", "cruiser", "battleship", "carrier", "factory", "marker",
                       "none"})  # fmt: skip
# The attrs that change how a counter looks (and so key the screen's pixmap cache).
VISUAL_ATTRS = ("name", "step", "reduced", "factors")


def is_reduced(attrs: Mapping[str, Any]) -> bool:
    """A counter shows its reduced side when attrs say step 2 or reduced."""
    return attrs.get("step") == 2 or bool(attrs.get("reduced"))


def visual_key(attrs: Mapping[str, Any]) -> tuple[Any, ...]:
    """The part of a piece's attrs its picture depends on (hashable)."""
    out: list[Any] = []
    for k in VISUAL_ATTRS:
        v = attrs.get(k)
        out.append(tuple(v) if isinstance(v, list | tuple) else v)
    return tuple(out)


def factor_text(unit_type: UnitType, attrs: Mapping[str, Any]) -> str:
    """The factor line: attrs "factors" (a reduced side's values) override the type's."""
    override = attrs.get("factors")
    if isinstance(override, list | tuple) and override:
        return "-".join(str(f) for f in override)
    if isinstance(override, str) and override:
        return override
    return unit_type.factor_text


def counter_primitives(
    unit_type: UnitType,
    side: Side,
    piece_attrs: Mapping[str, Any],
    size: float,
    palette: Palette = "standard",
) -> tuple[Primitive, ...]:
    """The counter of one piece, laid out in the square [0, size]^2."""
    if size <= 0:
        raise ValueError(f"counter size must be positive, not {size}")
    bg, fg = side_colours(side, palette)
    s = size
    border = mix(bg, "#000000", 0.45)
    out: list[Primitive] = [Rect(0, 0, s, s, bg, None, 0.0, RADIUS * s)]
    reduced = is_reduced(piece_attrs)
    symbol = unit_type.symbol

    if reduced and symbol != "marker":
        # The reduced side: a tinted band behind the factors (readable without colour, too:
        # the band is a shape) and a small step bar at the right edge.
        band = mix(bg, "#ffffff", 0.6) if luminance(fg) < 0.5 else mix(bg, "#000000", 0.5)
        out.append(Rect(BORDER * s, 0.69 * s, (1 - 2 * BORDER) * s, 0.27 * s, band, None, 0.0))

    # Top row: designation at the left, echelon centred (pushed right if the name is long).
    name = str(piece_attrs.get("name", "") or "")
    echelon = unit_type.size if symbol not in ("marker", "none") else ""
    inner_l, inner_r = 0.075, 0.925
    ech_size = 0.13
    ech_w = estimate_text_width(echelon, ech_size) if echelon else 0.0
    ech_x = 0.5
    if name and symbol != "marker":
        name_size = 0.13
        name_w = estimate_text_width(name, name_size)
        room_centred = ech_x - ech_w / 2 - 0.03 - inner_l
        if not echelon or name_w <= room_centred:
            room = inner_r - inner_l if not echelon else room_centred
        else:
            # Push the echelon right so the name gets the rest of the row.
            ech_x = inner_r - ech_w / 2
            room = inner_r - ech_w - 0.04 - inner_l
        text, tsize = _fit_text(name, name_size, room, 0.085)
        out.append(Text(inner_l * s, TOP_Y * s, text, tsize * s, fg, "lm", True))
    if echelon:
        out.append(Text(ech_x * s, TOP_Y * s, echelon, ech_size * s, fg, "mm", True))

    out.extend(_symbol(symbol, s, fg, bg, unit_type, name))

    factors = factor_text(unit_type, piece_attrs)
    if factors:
        text, fsize = _fit_text(factors, FACTOR_SIZE, 0.86, 0.12)
        out.append(Text(0.5 * s, FACTOR_Y * s, text, fsize * s, fg, "mm", True))

    # The thin darker border, inside the edge so nothing clips it.
    out.append(Rect(BORDER * s / 2, BORDER * s / 2, (1 - BORDER) * s, (1 - BORDER) * s,
                    None, border, BORDER * s, (RADIUS - BORDER / 2) * s))  # fmt: skip
    return tuple(out)


def _symbol(
    symbol: str, s: float, fg: str, bg: str, unit_type: UnitType, name: str
) -> list[Primitive]:
    """The NATO symbol (framed land units) or the silhouette (air, naval, factory)."""
    bx, by, bw, bh = (v * s for v in BOX)
    lw = SYMBOL_W * s
    out: list[Primitive] = []

    def box_pt(u: float, v: float) -> XY:
        return (bx + u * bw, by + v * bh)

    def cross() -> None:
        out.append(Line((box_pt(0, 0), box_pt(1, 1)), fg, lw))
        out.append(Line((box_pt(0, 1), box_pt(1, 0)), fg, lw))

    def oval() -> None:
        out.append(Ellipse(bx + 0.2 * bw, by + 0.22 * bh, 0.6 * bw, 0.56 * bh, None, fg, lw))

    if symbol not in FRAMELESS:
        out.append(Rect(bx, by, bw, bh, None, fg, FRAME_W * s))
    if symbol == "infantry":
        cross()
    elif symbol == "armour":
        oval()
    elif symbol == "mechanized":
        cross()
        oval()
    elif symbol == "cavalry":
        out.append(Line((box_pt(0, 1), box_pt(1, 0)), fg, lw))
    elif symbol == "artillery":
        r = 0.16 * bh
        cx, cy = box_pt(0.5, 0.5)
        out.append(Ellipse(cx - r, cy - r, 2 * r, 2 * r, fg, None, 0.0))
    elif symbol == "airborne":
        # Airborne infantry: the X plus the parachute "gull wing" arc at the bottom.
        cross()
        out.append(Line(_gull_wing(box_pt(0.5, 0.84), 0.17 * bw, 0.11 * bh), fg, lw))
    elif symbol == "mountain":
        # Mountain infantry: the X plus a solid triangle on the bottom edge.
        cross()
        out.append(Polygon((box_pt(0.38, 1.0), box_pt(0.5, 0.68), box_pt(0.62, 1.0)), fg))
    elif symbol == "headquarters":
        # The HQ staff down from the frame's lower-left corner, and "HQ" in the frame.
        out.append(Line((box_pt(0, 1), (bx, by + bh + 0.1 * s)), fg, FRAME_W * s))
        out.append(Text(bx + bw / 2, by + bh / 2, "HQ", 0.5 * bh, fg, "mm", True))
    elif symbol == "garrison":
        # Static infantry: the X plus a solid bar along the bottom of the frame.
        cross()
        out.append(Rect(bx, by + 0.78 * bh, bw, 0.22 * bh, fg, None, 0.0))
    elif symbol == "fortress":
        out.append(Polygon(_battlements(bx + 0.2 * bw, by + 0.2 * bh, 0.6 * bw, 0.62 * bh), fg))
    elif symbol == "aa_gun":
        # Air defence: the dome along the bottom, with the artillery dot.
        out.append(Line(_arc(box_pt(0.5, 1.0), 0.36 * bw, 0.62 * bh, 180, 360, 16), fg, lw))
        r = 0.11 * bh
        cx, cy = box_pt(0.5, 0.72)
        out.append(Ellipse(cx - r, cy - r, 2 * r, 2 * r, fg, None, 0.0))
    elif symbol in ("air", "fighter", "bomber"):
        out.extend(_plane(symbol, s, fg))
    elif symbol in ("naval", "transport", "submarine", "destroyer", "cruiser", "battleship",
                    "carrier"):  # fmt: skip
        out.extend(_ship(symbol, s, fg, bg))
    elif symbol == "factory":
        out.extend(_factory(s, fg))
    elif symbol == "marker":
        label = name or unit_type.name
        text, size = _fit_text(label, 0.2, 0.84, 0.09)
        out.append(Text(0.5 * s, 0.42 * s, text, size * s, fg, "mm", True))
    return out


def _arc(c: XY, rx: float, ry: float, a0: float, a1: float, n: int) -> tuple[XY, ...]:
    """Points on an elliptical arc (degrees, y down: 180..360 is the upper half)."""
    pts = []
    for i in range(n + 1):
        a = math.radians(a0 + (a1 - a0) * i / n)
        pts.append((c[0] + rx * math.cos(a), c[1] + ry * math.sin(a)))
    return tuple(pts)


def _gull_wing(c: XY, half_w: float, h: float) -> tuple[XY, ...]:
    """Two upward arcs meeting at the middle: the airborne mark."""
    left = _arc((c[0] - half_w / 2, c[1]), half_w / 2, h, 180, 360, 8)
    right = _arc((c[0] + half_w / 2, c[1]), half_w / 2, h, 180, 360, 8)
    return left + right[1:]


def _battlements(x: float, y: float, w: float, h: float) -> tuple[XY, ...]:
    """A crenellated tower outline."""
    t = h * 0.25  # merlon height
    m = w / 5  # merlon width
    pts: list[XY] = [(x, y + h), (x, y)]
    for i in range(5):
        top = y if i % 2 == 0 else y + t
        pts += [(x + i * m, top), (x + (i + 1) * m, top)]
    pts += [(x + w, y), (x + w, y + h)]
    return tuple(pts)


def _in_area(pts: Iterable[XY], s: float) -> tuple[XY, ...]:
    """Map local 0..1 coordinates into the silhouette area."""
    ax, ay, aw, ah = (v * s for v in SILHOUETTE)
    return tuple((ax + u * aw, ay + v * ah) for u, v in pts)


def _mirror_v(half: list[XY]) -> list[XY]:
    """A shape symmetric about v = 0.5 from its upper half (listed nose to tail)."""
    return half + [(u, 1 - v) for u, v in reversed(half)]


def _plane(kind: str, s: float, fg: str) -> list[Primitive]:
    """A plane seen from above, nose to the right."""
    if kind == "fighter":
        # Swept wings, short.
        half = [(0.98, 0.5), (0.88, 0.44), (0.62, 0.42), (0.36, 0.02), (0.27, 0.02),
                (0.40, 0.42), (0.16, 0.44), (0.06, 0.22), (0.01, 0.22), (0.05, 0.46)]
    elif kind == "bomber":
        # Long straight wings with engines.
        half = [(0.98, 0.5), (0.92, 0.44), (0.62, 0.42), (0.56, 0.0), (0.45, 0.0),
                (0.44, 0.42), (0.16, 0.44), (0.09, 0.24), (0.02, 0.24), (0.05, 0.46)]
    else:
        half = [(0.98, 0.5), (0.9, 0.44), (0.64, 0.42), (0.52, 0.04), (0.44, 0.04),
                (0.46, 0.42), (0.16, 0.44), (0.08, 0.24), (0.02, 0.24), (0.05, 0.46)]
    out: list[Primitive] = [Polygon(_in_area(_mirror_v(half), s), fg)]
    if kind == "bomber":
        for v in (0.14, 0.28, 0.72, 0.86):
            out.append(Polygon(_in_area([(0.5, v - 0.04), (0.66, v - 0.04),
                                         (0.66, v + 0.04), (0.5, v + 0.04)], s), fg))
    return out


def _ship(kind: str, s: float, fg: str, bg: str) -> list[Primitive]:
    """A ship in profile, bow to the right, waterline at v = 0.86."""

    def poly(pts: list[XY]) -> Polygon:
        return Polygon(_in_area(pts, s), fg)

    def block(u0: float, v0: float, u1: float, v1: float) -> Polygon:
        return poly([(u0, v0), (u1, v0), (u1, v1), (u0, v1)])

    if kind == "submarine":
        hull = [(0.02, 0.74), (0.12, 0.66), (0.88, 0.66), (0.99, 0.74), (0.88, 0.84),
                (0.12, 0.84)]
        return [poly(hull), block(0.42, 0.44, 0.56, 0.67), block(0.47, 0.32, 0.49, 0.45)]
    if kind == "carrier":
        return [poly([(0.0, 0.6), (1.0, 0.6), (0.93, 0.86), (0.06, 0.86)]),
                block(0.0, 0.55, 1.0, 0.62), block(0.66, 0.3, 0.78, 0.56),
                block(0.71, 0.18, 0.73, 0.31)]
    depth = {"destroyer": 0.7, "cruiser": 0.66, "battleship": 0.62}.get(kind, 0.64)
    out: list[Primitive] = [poly([(0.0, depth - 0.06), (0.28, depth), (1.0, depth - 0.1),
                                  (0.92, 0.86), (0.06, 0.86)])]
    if kind == "transport":
        out += [block(0.16, 0.42, 0.4, depth), block(0.58, 0.42, 0.82, depth),
                block(0.44, 0.32, 0.54, depth), block(0.47, 0.14, 0.52, 0.33),
                block(0.27, 0.2, 0.29, 0.43), block(0.69, 0.2, 0.71, 0.43)]
    elif kind == "destroyer":
        out += [block(0.52, 0.46, 0.66, depth), block(0.4, 0.38, 0.47, depth),
                block(0.76, 0.56, 0.84, depth), poly([(0.82, 0.6), (0.95, 0.57),
                                                      (0.95, 0.59), (0.82, 0.62)])]
    elif kind == "cruiser":
        out += [block(0.48, 0.36, 0.64, depth), block(0.36, 0.3, 0.42, depth),
                block(0.29, 0.34, 0.34, depth), block(0.72, 0.5, 0.82, depth),
                block(0.16, 0.5, 0.24, depth)]
    elif kind == "battleship":
        out += [block(0.46, 0.24, 0.6, depth), block(0.5, 0.12, 0.53, 0.25),
                block(0.36, 0.34, 0.44, depth), block(0.7, 0.44, 0.82, depth),
                block(0.14, 0.44, 0.26, depth),
                poly([(0.8, 0.47), (0.96, 0.44), (0.96, 0.47), (0.8, 0.5)]),
                poly([(0.16, 0.47), (0.02, 0.44), (0.02, 0.47), (0.16, 0.5)])]
    else:  # generic naval unit
        out += [block(0.44, 0.36, 0.62, depth), block(0.36, 0.42, 0.42, depth),
                block(0.52, 0.2, 0.54, 0.37)]
    return out


def _factory(s: float, fg: str) -> list[Primitive]:
    """A saw-tooth roofed works with a chimney."""
    pts = [(0.1, 0.95), (0.1, 0.5), (0.3, 0.3), (0.3, 0.5), (0.5, 0.3), (0.5, 0.5), (0.7, 0.3),
           (0.7, 0.5), (0.74, 0.5), (0.74, 0.02), (0.84, 0.02), (0.84, 0.95)]
    return [Polygon(_in_area(pts, s), fg)]
