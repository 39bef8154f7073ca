"""The Pillow backend of `counterart`: counters for print (setup sheets at 300 dpi).

Pillow's ImageDraw does not antialias shapes, so the counter is drawn at 4x and downsampled
with a box filter (4x4 supersampling). Strokes are centred on their outline to match Qt.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from wartable.printing.counterart import (
    XY,
    Ellipse,
    Line,
    Polygon,
    Primitive,
    Rect,
    Text,
    find_font_file,
    primitives_extent,
)

SUPERSAMPLE = 4

FontT = ImageFont.FreeTypeFont | ImageFont.ImageFont


@lru_cache(maxsize=256)
def _font(size: float, bold: bool) -> FontT:
    path = find_font_file(bold)
    name = path or ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    try:
        return ImageFont.truetype(name, size)
    except OSError:
        # Pillow's built-in font: always there, scalable since Pillow 10.1.
        return ImageFont.load_default(size)


def _rgba(c: str | None) -> tuple[int, int, int, int] | None:
    if c is None:
        return None
    c = c.lstrip("#")
    return (int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16), 255)


def _px(v: float) -> int:
    return max(1, round(v))


def render_counter_pil(prims: Sequence[Primitive], size_px: int) -> Image.Image:
    """An RGBA image of `size_px` square of the counter `prims` (transparent outside it)."""
    if size_px < 1:
        raise ValueError(f"size_px must be at least 1, not {size_px}")
    big = size_px * SUPERSAMPLE
    k = big / primitives_extent(prims)
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)

    def pts(points: Sequence[XY]) -> list[tuple[float, float]]:
        return [(x * k, y * k) for x, y in points]

    for p in prims:
        if isinstance(p, Rect):
            x0, y0, x1, y1 = p.x * k, p.y * k, (p.x + p.w) * k, (p.y + p.h) * k
            r = p.radius * k
            if p.fill is not None:
                draw.rounded_rectangle((x0, y0, x1, y1), radius=r, fill=_rgba(p.fill))
            if p.stroke is not None and p.width > 0:
                # Pillow strokes inside the box; grow it by half the width to centre the stroke.
                h = p.width * k / 2
                draw.rounded_rectangle((x0 - h, y0 - h, x1 + h, y1 + h), radius=r + h if r else 0,
                                       outline=_rgba(p.stroke), width=_px(p.width * k))
        elif isinstance(p, Ellipse):
            x0, y0, x1, y1 = p.x * k, p.y * k, (p.x + p.w) * k, (p.y + p.h) * k
            if p.fill is not None:
                draw.ellipse((x0, y0, x1, y1), fill=_rgba(p.fill))
            if p.stroke is not None and p.width > 0:
                h = p.width * k / 2
                draw.ellipse((x0 - h, y0 - h, x1 + h, y1 + h), outline=_rgba(p.stroke),
                             width=_px(p.width * k))
        elif isinstance(p, Polygon):
            poly = pts(p.points)
            if p.fill is not None:
                draw.polygon(poly, fill=_rgba(p.fill))
            if p.stroke is not None and p.width > 0:
                draw.line([*poly, poly[0]], fill=_rgba(p.stroke), width=_px(p.width * k),
                          joint="curve")
        elif isinstance(p, Line):
            # Flat ends, as the Qt backend draws Lines (FlatCap); joints rounded in both.
            draw.line(pts(p.points), fill=_rgba(p.stroke), width=_px(p.width * k), joint="curve")
        elif isinstance(p, Text):
            if not p.text:
                continue
            font = _font(p.size * k, p.bold)
            draw.text((p.x * k, p.y * k), p.text, fill=_rgba(p.colour), font=font,
                      anchor=p.anchor)
    return img.resize((size_px, size_px), Image.Resampling.BOX)
