"""Hex maps drawn with Pillow: terrain, hexside features, grid, labels, places.

`render_hex_map` draws a built `HexMap` (what `wartable map render` writes); `Overlay`s add
lines or areas in map coordinates on top — the map builder passes the real coastlines and
rivers so a person can check the hexsides against them. `render_shapes` draws bare geometry
(a source layer in any planar coordinates, y down) for checking authored layers by eye.

Pillow does not antialias, so everything is drawn at `SUPERSAMPLE`x and reduced.
Layer order: terrain fills and patterns, region tint (optional), water hexsides, rivers,
borders, grid, hex symbols, overlays, hex labels, place names, title.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from wartable.core.hexgrid import Hex, hexside_endpoints
from wartable.maps.model import AreaMap, HexMap
from wartable.printing.areadraw import area_base, draw_boxes, image_size, typical_space
from wartable.printing.counterart import find_font_file, mix, parse_colour

__all__ = ["Overlay", "render_area_map", "render_hex_map", "render_shapes"]

SUPERSAMPLE = 2
XY = tuple[float, float]
FontT = ImageFont.FreeTypeFont | ImageFont.ImageFont

RIVER = "#2f6fd0"
MAJOR_RIVER = "#1747a6"
COAST = "#3c6e9e"
BORDER = "#b0186a"
GRID = "#6f6a58"
LABEL = "#3d3a30"
REVISION = "#f08a00"
RED_ROW = "#d01010"
BLOCKED = "#202020"
STRAIT = "#b03060"  # a crossable strait hexside
# Light tints for `regions=True`: each region, in sorted order, takes the first tint none of its
# neighbours has (so Finland and the USSR never share one).
_TINTS = ("#ff6060", "#6080ff", "#60c060", "#ffb040", "#b060ff", "#40d0d0", "#ff60c0",
          "#a0a040", "#808080", "#40a0ff")


def _region_tints(m: HexMap) -> dict[str, str]:
    touching: dict[str, set[str]] = {}
    for h, info in m.hexes.items():
        if info.region:
            for n in h.neighbors():
                other = m.hexes.get(n)
                if other is not None and other.region and other.region != info.region:
                    touching.setdefault(info.region, set()).add(other.region)
    tints: dict[str, str] = {}
    for i, name in enumerate(sorted({i.region for i in m.hexes.values() if i.region})):
        taken = {tints[n] for n in touching.get(name, ()) if n in tints}
        free = [t for t in _TINTS if t not in taken]
        tints[name] = free[0] if free else _TINTS[i % len(_TINTS)]
    return tints


@dataclass(frozen=True, slots=True)
class Overlay:
    """A shapely geometry in map coordinates (or any y-down plane for `render_shapes`)."""

    geometry: Any
    stroke: str | None = "#000000"
    fill: str | None = None
    width: float = 1.0  # pixels in the output image
    label: str | None = None
    alpha: int = 255


BOX_FILL = "#f3ecd8"
BOX_EDGE = "#5b4a32"


@lru_cache(maxsize=128)
def _font(size: int, bold: bool = False) -> FontT:
    path = find_font_file(bold)
    try:
        return ImageFont.truetype(path or ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"),
                                  size)
    except OSError:
        return ImageFont.load_default(size)


def _rgba(c: str, a: int = 255) -> tuple[int, int, int, int]:
    r, g, b = parse_colour(c)
    return (r, g, b, a)


class _Canvas:
    """Map coordinates → supersampled pixels, plus the drawing helpers the layers share."""

    def __init__(self, bounds: tuple[float, float, float, float], k: float, margin: int,
                 top: int, background: str) -> None:
        self.x0, self.y0 = bounds[0], bounds[1]
        self.k = k * SUPERSAMPLE
        self.m = margin * SUPERSAMPLE
        self.top = top * SUPERSAMPLE
        w = math.ceil((bounds[2] - bounds[0]) * self.k) + 2 * self.m
        h = math.ceil((bounds[3] - bounds[1]) * self.k) + 2 * self.m + self.top
        self.img = Image.new("RGBA", (w, h), _rgba(background))
        self.draw = ImageDraw.Draw(self.img, "RGBA")

    def p(self, x: float, y: float) -> XY:
        return ((x - self.x0) * self.k + self.m, (y - self.y0) * self.k + self.m + self.top)

    def pts(self, coords: Iterable[XY]) -> list[XY]:
        return [self.p(x, y) for x, y in coords]

    def line(self, coords: Sequence[XY], colour: str, width_px: float, alpha: int = 255,
             dash: float = 0.0) -> None:
        w = max(1, round(width_px * SUPERSAMPLE))
        pts = self.pts(coords)
        if dash <= 0:
            self.draw.line(pts, fill=_rgba(colour, alpha), width=w, joint="curve")
            return
        d = dash * SUPERSAMPLE
        for (ax, ay), (bx, by) in zip(pts, pts[1:], strict=False):
            seg = math.hypot(bx - ax, by - ay)
            t = 0.0
            while t < seg:
                t1 = min(seg, t + d)
                self.draw.line([(ax + (bx - ax) * t / seg, ay + (by - ay) * t / seg),
                                (ax + (bx - ax) * t1 / seg, ay + (by - ay) * t1 / seg)],
                               fill=_rgba(colour, alpha), width=w)
                t += 2 * d

    def polygon(self, coords: Sequence[XY], fill: str | None, outline: str | None = None,
                width_px: float = 1.0, alpha: int = 255) -> None:
        pts = self.pts(coords)
        if len(pts) < 3:
            return
        if fill is not None:
            self.draw.polygon(pts, fill=_rgba(fill, alpha))
        if outline is not None:
            self.draw.line(pts + pts[:1], fill=_rgba(outline, alpha),
                           width=max(1, round(width_px * SUPERSAMPLE)))

    def text(self, xy: XY, text: str, size_px: float, colour: str = "#000000",
             bold: bool = False, anchor: str = "mm", halo: str | None = None) -> None:
        size = max(6, round(size_px * SUPERSAMPLE))
        f = _font(size, bold)
        kw: dict[str, Any] = {}
        if halo is not None:
            kw = {"stroke_width": max(1, size // 7), "stroke_fill": _rgba(halo)}
        self.draw.text(xy, text, font=f, fill=_rgba(colour), anchor=anchor, **kw)

    def text_box(self, xy: XY, text: str, size_px: float, bold: bool,
                 anchor: str) -> tuple[float, float, float, float]:
        size = max(6, round(size_px * SUPERSAMPLE))
        x0, y0, x1, y1 = self.draw.textbbox(xy, text, font=_font(size, bold), anchor=anchor)
        return (x0, y0, x1, y1)

    def geometry(self, g: Any, stroke: str | None, fill: str | None, width_px: float,
                 alpha: int) -> None:
        kind = g.geom_type
        if kind in ("MultiPolygon", "MultiLineString", "GeometryCollection", "MultiPoint"):
            for part in g.geoms:
                self.geometry(part, stroke, fill, width_px, alpha)
        elif kind == "Polygon":
            if fill is not None:
                self.polygon(list(g.exterior.coords), fill, alpha=alpha)
                for hole in g.interiors:  # holes: paint the background back (good enough)
                    self.polygon(list(hole.coords), "#ffffff", alpha=alpha)
            if stroke is not None:
                for ring in [g.exterior, *g.interiors]:
                    self.line(list(ring.coords), stroke, width_px, alpha)
        elif kind in ("LineString", "LinearRing"):
            if stroke is not None:
                self.line(list(g.coords), stroke, width_px, alpha)
        elif kind == "Point":
            x, y = self.p(g.x, g.y)
            r = max(2.0, width_px) * SUPERSAMPLE
            self.draw.ellipse((x - r, y - r, x + r, y + r), fill=_rgba(stroke or "#000000", alpha))

    def finish(self) -> Image.Image:
        w, h = self.img.size
        return self.img.resize((w // SUPERSAMPLE, h // SUPERSAMPLE), Image.Resampling.LANCZOS)


# --- terrain patterns ------------------------------------------------------------------------


def _pattern(c: _Canvas, name: str | None, centre: XY, r: float, fill: str) -> None:
    """A few strokes inside the hex that say its terrain at a glance (r = circumradius px)."""
    if not name or r < 6 * SUPERSAMPLE:
        return
    cx, cy = centre
    dark = _rgba(mix(fill, "#000000", 0.45))
    w = max(1, round(r / 14))
    spots = ((-0.42, -0.2), (0.38, -0.28), (-0.05, 0.32), (0.05, -0.55), (0.45, 0.3),
             (-0.45, 0.4))
    if name in ("trees", "dense_trees"):
        n = 6 if name == "dense_trees" else 4
        for dx, dy in spots[:n]:
            x, y = cx + dx * r, cy + dy * r
            s = r * 0.14
            c.draw.polygon([(x, y - s * 1.3), (x - s, y + s * 0.7), (x + s, y + s * 0.7)],
                           fill=dark)
    elif name == "hills":
        for dx, dy in spots[:3]:
            x, y = cx + dx * r, cy + dy * r
            s = r * 0.2
            c.draw.line([(x - s, y + s * 0.5), (x, y - s * 0.5), (x + s, y + s * 0.5)],
                        fill=dark, width=w)
    elif name == "marsh":
        for dx, dy in spots[:5]:
            x, y = cx + dx * r, cy + dy * r
            s = r * 0.16
            c.draw.line([(x - s, y), (x + s, y)], fill=dark, width=w)
            for t in (-0.5, 0.0, 0.5):
                c.draw.line([(x + t * s, y), (x + t * s * 1.4, y - s * 0.7)], fill=dark, width=w)
    elif name == "waves":
        for dx, dy in spots[:2]:
            x, y = cx + dx * r, cy + dy * r
            s = r * 0.15
            c.draw.line([(x - s, y), (x - s / 2, y - s / 3), (x, y), (x + s / 2, y - s / 3),
                         (x + s, y)], fill=_rgba(mix(fill, "#ffffff", 0.5)), width=w)


# --- hex symbols -----------------------------------------------------------------------------


def _symbols(c: _Canvas, centre: XY, r: float, features: Sequence[str],
             kinds: Sequence[str] = ()) -> None:
    """Hex features (Ruhr city, fortified, red row) and the symbols of the places in it."""
    cx, cy = centre
    s = r * 0.16
    if "ruhr_city" in features:
        c.draw.rectangle((cx - s * 1.2, cy - s * 1.2, cx + s * 1.2, cy + s * 1.2),
                         fill=_rgba("#202020"), outline=_rgba("#e02020"),
                         width=max(1, round(s / 3)))
    elif "capital" in kinds:
        c.draw.rectangle((cx - s * 1.1, cy - s * 1.1, cx + s * 1.1, cy + s * 1.1),
                         fill=_rgba("#202020"))
        _star(c, (cx, cy), s * 0.8, "#ffffff")
    elif "city" in kinds:
        c.draw.rectangle((cx - s, cy - s, cx + s, cy + s), fill=_rgba("#202020"))
    elif "town" in kinds or "port" in kinds:
        c.draw.ellipse((cx - s * 0.7, cy - s * 0.7, cx + s * 0.7, cy + s * 0.7),
                       fill=_rgba("#202020"))
    if "fortified" in features or "fortress" in kinds:
        y = cy + r * 0.5
        w = r * 0.5
        pts = [(cx - w / 2, y)]
        for i in range(5):  # a row of teeth: the usual fort line symbol
            x0 = cx - w / 2 + i * w / 5
            pts += [(x0, y - s * 0.8), (x0 + w / 10, y - s * 0.8), (x0 + w / 10, y),
                    (x0 + w / 5, y)]
        c.draw.line(pts, fill=_rgba("#5a2d0c"), width=max(1, round(s / 3)))
    if "red_row" in features:
        _star(c, (cx + r * 0.45, cy - r * 0.3), s * 0.9, RED_ROW)


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _star(c: _Canvas, centre: XY, s: float, colour: str) -> None:
    cx, cy = centre
    pts = []
    for i in range(10):
        rad = s if i % 2 == 0 else s * 0.45
        a = -math.pi / 2 + i * math.pi / 5
        pts.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    c.draw.polygon(pts, fill=_rgba(colour))


# --- the map ---------------------------------------------------------------------------------


def render_hex_map(
    m: HexMap,
    *,
    scale: float = 40.0,
    overlays: Sequence[Overlay] = (),
    crop: tuple[float, float, float, float] | None = None,
    labels: bool | None = None,
    regions: bool = False,
    title: str | None = None,
    margin: int = 12,
) -> Image.Image:
    """An RGB image of a hex map; `scale` is pixels from one hex centre to the next.

    `crop` (minx, miny, maxx, maxy in map units) draws only that part; `labels` None shows
    hex numbers when they are legible (scale ≥ 30); `regions` tints each hex by its region.
    """
    if not (scale > 0 and math.isfinite(scale)):
        raise ValueError(f"scale must be a positive number of pixels per hex, not {scale}")
    lay = m.layout
    step = math.sqrt(3) * lay.size_x  # centre-to-centre distance in map units
    k = scale / step
    bounds = crop or m.bounds()
    head = title if title is not None else f"{m.title}  ({m.id}, version {m.version})"
    top = max(16, round(scale * 0.45)) + 8 if head else 0
    c = _Canvas(bounds, k, margin, top, "#ffffff")
    show_labels = scale >= 30 if labels is None else labels
    r = lay.size_x * c.k  # circumradius in canvas pixels

    x0, y0, x1, y1 = bounds
    pad = step

    def visible(h: Hex) -> bool:
        x, y = lay.hex_to_pixel(h)
        return x0 - pad <= x <= x1 + pad and y0 - pad <= y <= y1 + pad

    shown = sorted(h for h in m.hexes if visible(h))
    tints: dict[str, str] = {}
    if regions:
        tints = _region_tints(m)

    for h in shown:
        info = m.hexes[h]
        t = m.terrain_types[info.terrain]
        corners = lay.corners(h)
        c.polygon(corners, t.fill)
        _pattern(c, t.pattern, c.p(*lay.hex_to_pixel(h)), r, t.fill)
        if regions and info.region:
            c.polygon(corners, tints[info.region], alpha=70)

    # Hexside features, thinnest first so the heavy lines sit on top.
    sides = [(s, f) for s, f in sorted(m.hexsides.items()) if visible(s.a) or visible(s.b)]
    for s, feats in sides:
        a, b = hexside_endpoints(lay, s)
        if "sea" in feats or "lake" in feats:
            c.line([a, b], COAST, max(1.0, scale * 0.03))
    for s, feats in sides:
        a, b = hexside_endpoints(lay, s)
        if "major_river" in feats:
            c.line([a, b], MAJOR_RIVER, max(2.0, scale * 0.11))
        elif "river" in feats:
            c.line([a, b], RIVER, max(1.5, scale * 0.06))
    for s, feats in sides:
        if "border" in feats:
            a, b = hexside_endpoints(lay, s)
            c.line([a, b], BORDER, max(1.0, scale * 0.045), alpha=230, dash=max(2.0, scale * 0.08))
    for s, feats in sides:
        if "strait" in feats:  # a strait land units cross (issue 19): a bar joining the shores
            ca, cb = lay.hex_to_pixel(s.a), lay.hex_to_pixel(s.b)
            ends = [(ca[0] + t * (cb[0] - ca[0]), ca[1] + t * (cb[1] - ca[1])) for t in (0.3, 0.7)]
            c.line(ends, STRAIT, max(2.0, scale * 0.09))
    for h in shown:
        if "strait" in m.hexes[h].features:  # ships pass through this land hex
            x, y = lay.hex_to_pixel(h)
            w = lay.size_y * 0.35
            c.line([(x - w, y + w * 0.6), (x + w, y + w * 0.6)], COAST, max(1.5, scale * 0.05),
                   dash=max(2.0, scale * 0.08))
    for s, feats in sides:
        if "blocked" in feats:  # a rule's blocked hexside (ETO revisions, General (6))
            a, b = hexside_endpoints(lay, s)
            c.line([a, b], BLOCKED, max(2.0, scale * 0.1))

    grid_w = max(0.5, scale * 0.012)
    for h in shown:
        c.polygon(lay.corners(h), None, GRID, grid_w, alpha=150)
    kinds: dict[str, list[str]] = {}
    names: dict[str, list[tuple[str, str]]] = {}
    for p in m.places:
        kinds.setdefault(p.hex_or_space, []).append(p.kind)
        if p.kind != "fortress" or scale >= 60:  # fort names only when there is room
            names.setdefault(p.hex_or_space, []).append((p.name, p.kind))
    for h in shown:
        feats = m.hexes[h].features
        if "polish_revision" in feats:
            c.polygon(lay.corners(h), None, REVISION, max(1.0, scale * 0.05), alpha=200)
        _symbols(c, c.p(*lay.hex_to_pixel(h)), r, feats, kinds.get(m.label_of(h), ()))

    for ov in overlays:
        c.geometry(ov.geometry, ov.stroke, ov.fill, ov.width, ov.alpha)

    if show_labels:
        for h in shown:
            x, y = lay.hex_to_pixel(h)
            px, py = c.p(x, y - lay.size_y * 0.62)
            c.text((px, py), m.label_of(h), scale * 0.2, LABEL)
    # Place names: most important first; a name that would overlap one already drawn moves
    # above its symbol, and is left out when that overlaps too (wargame maps do the same).
    name_size = max(8.0, scale * 0.22)
    rank = {"capital": 0, "city": 1, "port": 2, "town": 3, "other": 4, "fortress": 5}
    taken: list[tuple[float, float, float, float]] = []
    order = sorted(shown, key=lambda h: (min((rank.get(k, 9) for _, k in
                                               names.get(m.label_of(h), ())), default=9), h))
    for h in order:
        here = sorted(names.get(m.label_of(h), ()), key=lambda nk: rank.get(nk[1], 9))
        if not here:
            continue
        x, y = lay.hex_to_pixel(h)
        line = name_size * 1.1 * SUPERSAMPLE
        bx, by = c.p(x, y + lay.size_y * 0.22)
        ax, ay = c.p(x, y - lay.size_y * 0.22)
        slots = [((bx, by), "mt"), ((ax, ay), "mb"), ((bx, by + line), "mt"),
                 ((ax, ay - line), "mb")]
        for name, kind in here:
            bold = kind in ("capital", "city")
            for k, (xy, anchor) in enumerate(slots):
                bb = c.text_box(xy, name, name_size, bold, anchor)
                if not any(_overlap(bb, t) for t in taken):
                    taken.append(bb)
                    c.text(xy, name, name_size, "#111111", bold=bold, anchor=anchor,
                           halo="#ffffff")
                    del slots[k]
                    break
    # Off-map boxes (holding boxes, pools, tracks): a titled frame, as on the printed sheet.
    for box in m.boxes:
        if crop is not None and not _overlap((box.x, box.y, box.x + box.w, box.y + box.h), crop):
            continue
        c.polygon(box.outline(), BOX_FILL, BOX_EDGE, max(1.0, scale * 0.04))
        at = c.p(box.x + box.w / 2, box.y + lay.size_y * 0.12)
        size = max(7.0, scale * 0.18)
        room = box.w * c.k - 4 * SUPERSAMPLE  # the frame's inner width in canvas pixels
        name = box.name
        while len(name) > 4:  # shorten with an ellipsis until the title fits its frame
            x_lo, _, x_hi, _ = c.text_box(at, name, size, True, "mt")
            if x_hi - x_lo <= room:
                break
            name = name[: max(4, len(name) - 3)].rstrip() + "…"
            name = name.replace("……", "…")
        c.text(at, name, size, "#111111", bold=True, anchor="mt")
    for ov in overlays:
        if ov.label and not ov.geometry.is_empty:
            pt = ov.geometry.representative_point()
            c.text(c.p(pt.x, pt.y), ov.label, name_size * 0.9, ov.stroke or "#000000",
                   halo="#ffffff")
    if head:
        c.text((c.m, c.m // 2), head, max(12.0, scale * 0.35), "#000000", bold=True,
               anchor="lt")
    return c.finish().convert("RGB")


def render_shapes(
    overlays: Sequence[Overlay],
    bounds: tuple[float, float, float, float],
    *,
    width: int = 1600,
    title: str | None = None,
    background: str = "#ffffff",
) -> Image.Image:
    """Bare geometry (y down) in `bounds`, `width` pixels wide: for checking source layers."""
    if bounds[2] <= bounds[0] or bounds[3] <= bounds[1]:
        raise ValueError(f"empty bounds {bounds}")
    k = (width - 24) / (bounds[2] - bounds[0])
    c = _Canvas(bounds, k, 12, 28 if title else 0, background)
    for ov in overlays:
        c.geometry(ov.geometry, ov.stroke, ov.fill, ov.width, ov.alpha)
    for ov in overlays:
        if ov.label and not ov.geometry.is_empty:
            pt = ov.geometry.representative_point()
            c.text(c.p(pt.x, pt.y), ov.label, 11, ov.stroke or "#000000", halo="#ffffff")
    if title:
        c.text((c.m, c.m // 2), title, 16, "#000000", bold=True, anchor="lt")
    return c.finish().convert("RGB")


def render_area_map(
    m: AreaMap,
    *,
    scale: float = 40.0,
    crop: tuple[float, float, float, float] | None = None,
    labels: bool | None = None,
    title: str | None = None,
    margin: int = 12,
) -> Image.Image:
    """An RGB image of an area map for `wartable map render`: the print renderer's drawing
    (`mapdraw.draw_map`: land and sea fills, borders, names, values), `scale` pixels across a
    typical space, with a title above."""
    if not (scale > 0 and math.isfinite(scale)):
        raise ValueError(f"scale must be a positive number of pixels per space, not {scale}")
    k = scale / typical_space(m)
    region = crop or m.bounds()
    w, h = image_size(region, k)
    body = area_base(m, region, k, w, h, labels)
    draw_boxes(body, m.boxes, region, k)
    head = title if title is not None else f"{m.title}  ({m.id}, version {m.version})"
    top = 28 if head else 0
    f = _font(16, bold=True)
    wide = round(ImageDraw.Draw(body).textlength(head, font=f)) if head else 0
    out = Image.new("RGB", (max(body.width, wide) + 2 * margin, body.height + 2 * margin + top),
                    "white")
    out.paste(body, (margin, margin + top))
    if head:  # the title is never cut, even over a small crop
        ImageDraw.Draw(out).text((margin, margin // 2 + 4), head, fill="#000000", font=f)
    return out
