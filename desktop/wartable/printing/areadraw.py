"""The shared base of printed maps: area maps (land and sea fills, borders, names, places)
and off-map boxes, drawn with Pillow at a given scale.

Both `maprender` (`wartable map render`) and `mapdraw` (maps with counters for sheets) draw
on this piece; it imports neither, so the two no longer import each other.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable
from typing import Any

from PIL import Image, ImageDraw
from shapely.geometry import Polygon  # type: ignore[import-untyped,unused-ignore]

from wartable.maps.model import AreaMap, Bounds, OffMapBox
from wartable.printing.fonts import font

SUPERSAMPLE = 2
LAND = "#e8dcb4"
SEA = "#a9c7e3"
BOX_FILL = "#f2ecdc"
EDGE = "#6f6a58"
INK = "#2b2b2b"


def typical_space(board: AreaMap) -> float:
    sizes = [math.sqrt(float(s.polygon.area)) for s in board.spaces.values()]
    sizes = [s for s in sizes if s > 0]
    return statistics.median(sizes) if sizes else 1.0


def image_size(region: Bounds, px_per_unit: float) -> tuple[int, int]:
    x0, y0, x1, y1 = region
    return (max(1, math.ceil((x1 - x0) * px_per_unit - 1e-6)),
            max(1, math.ceil((y1 - y0) * px_per_unit - 1e-6)))


def rgba(c: str, a: int = 255) -> tuple[int, int, int, int]:
    c = c.lstrip("#")
    return (int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16), a)


def area_base(board: AreaMap, region: Bounds, k: float, w: int, h: int,
               labels: bool | None) -> Image.Image:
    ss = SUPERSAMPLE
    x0, y0 = region[0], region[1]
    img = Image.new("RGB", (w * ss, h * ss), rgba(SEA)[:3])
    d = ImageDraw.Draw(img)

    def p(x: float, y: float) -> tuple[float, float]:
        return ((x - x0) * k * ss, (y - y0) * k * ss)

    def polys(g: Any) -> list[Polygon]:
        return list(g.geoms) if g.geom_type == "MultiPolygon" else [g]

    rx0, ry0, rx1, ry1 = region
    edge_w = max(1, round(k * ss * typical_space(board) * 0.006))
    shown = [s for s in board.spaces.values()
             if s.polygon.bounds[0] <= rx1 and s.polygon.bounds[2] >= rx0
             and s.polygon.bounds[1] <= ry1 and s.polygon.bounds[3] >= ry0]
    for kind in ("sea", "land"):
        for s in shown:
            if s.kind != kind:
                continue
            for poly in polys(s.polygon):
                d.polygon([p(x, y) for x, y in poly.exterior.coords],
                          fill=rgba(LAND if kind == "land" else SEA)[:3])
                for hole in poly.interiors:
                    d.polygon([p(x, y) for x, y in hole.coords], fill=rgba(SEA)[:3])
    for s in shown:
        for poly in polys(s.polygon):
            for ring in (poly.exterior, *poly.interiors):
                d.line([p(x, y) for x, y in ring.coords], fill=rgba(EDGE)[:3], width=edge_w,
                       joint="curve")
    size = k * ss * typical_space(board) * 0.09
    if labels is not False and size >= 7 * ss:
        for s in shown:
            # Fit the name to its space's width (small islands and thin states get a
            # smaller name; below legibility it is left out).
            part = s.largest_polygon()
            room = (part.bounds[2] - part.bounds[0]) * k * ss * 0.95
            fsize = size
            width = font(fsize, bold=True, condensed=True).getlength(s.name)
            if width > room:
                fsize = size * room / width
            if fsize < 6 * ss:
                continue
            f = font(fsize, bold=True, condensed=True)
            d.text(p(*s.label_point), s.name, font=f, fill=rgba(INK)[:3], anchor="mm",
                   stroke_width=max(1, round(fsize / 9)), stroke_fill=(255, 255, 255))
        small = font(size * 0.75, condensed=True)
        ids = {s.id for s in shown}
        for pl in board.places:
            sp = board.spaces.get(pl.hex_or_space)
            if sp is None or sp.id not in ids:
                continue
            x, y = p(*sp.label_point)
            d.text((x, y + size * 1.1), pl.name, font=small, fill=rgba(INK)[:3], anchor="mm")
    return img.resize((w, h), Image.Resampling.LANCZOS)


def draw_boxes(img: Image.Image, boxes: Iterable[OffMapBox], region: Bounds, k: float) -> None:
    d = ImageDraw.Draw(img)
    x0, y0 = region[0], region[1]
    for b in boxes:
        bx0, by0 = (b.x - x0) * k, (b.y - y0) * k
        bx1, by1 = bx0 + b.w * k, by0 + b.h * k
        if bx1 < 0 or by1 < 0 or bx0 > img.width or by0 > img.height:
            continue
        d.rectangle((bx0, by0, bx1, by1), fill=rgba(BOX_FILL)[:3], outline=rgba(INK)[:3],
                    width=max(1, round(k * 0.04)))
        size = box_title_size(b, k)
        d.text(((bx0 + bx1) / 2, by0 + size * 0.5), b.name, font=font(size, bold=True),
               fill=rgba(INK)[:3], anchor="ma")


def box_title_size(b: OffMapBox, k: float) -> float:
    """The title's pixel size: a seventh of the box's height, shrunk to fit its width."""
    size = max(6.0, b.h * k * 0.14)
    width = font(size, bold=True).getlength(b.name)
    if width > b.w * k * 0.92:
        size = max(6.0, size * b.w * k * 0.92 / width)
    return size
