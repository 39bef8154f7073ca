"""The Qt backend of `wartable.printing.counterart`: counters on screen.

`paint_primitives` draws the same primitives Pillow prints, so screen and paper agree.
`CounterPixmapCache` keeps one QPixmap per (unit type, side, palette, visual attrs, size
bucket, device pixel ratio): zooming re-renders a counter only when it crosses a bucket, and
a frame only blits pixmaps.
"""

from __future__ import annotations

import bisect
import math
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontDatabase,
    QFontMetricsF,
    QPainter,
    QPainterPath,
    QPen,
    QPixmap,
    QPolygonF,
)

from wartable.model.definition import Side, UnitType
from wartable.printing.counterart import (
    Ellipse,
    Line,
    Palette,
    Polygon,
    Primitive,
    Rect,
    Text,
    counter_primitives,
    find_font_file,
    primitives_extent,
    side_colours,
    visual_key,
)

# Text is laid out at this pixel size and scaled by the painter, so any fractional size
# (QFont.setPixelSize takes an int) renders exactly as Pillow's float-sized fonts.
_TEXT_PX = 200

# Pixmap sizes (device pixels). Roughly 2^(1/4) apart: a counter is never scaled down by
# more than ~16 %, which smooth scaling hides; above the last bucket counters are drawn as
# vectors directly.
SIZE_BUCKETS: tuple[int, ...] = (
    12, 14, 16, 19, 22, 26, 32, 38, 45, 54, 64, 76, 90, 108, 128, 152, 181, 215, 256, 304,
    362, 430, 512,
)  # fmt: skip


@lru_cache(maxsize=2)
def counter_font_family(bold: bool) -> str:
    """DejaVu Sans, registered from the bundled/system file so Qt and Pillow use one font."""
    path = find_font_file(bold)
    if path is not None:
        fid = QFontDatabase.addApplicationFont(path)
        fams = QFontDatabase.applicationFontFamilies(fid) if fid >= 0 else []
        if fams:
            return fams[0]
    return "DejaVu Sans"


@lru_cache(maxsize=4)
def _text_font(bold: bool) -> QFont:
    f = QFont(counter_font_family(bold))
    f.setPixelSize(_TEXT_PX)
    f.setBold(bold)
    f.setHintingPreference(QFont.HintingPreference.PreferNoHinting)
    f.setStyleStrategy(QFont.StyleStrategy.PreferAntialias)
    return f


def _colour(c: str | None) -> QColor:
    return QColor(c) if c else QColor(0, 0, 0, 0)


def _pen(stroke: str | None, width: float, cap: Qt.PenCapStyle = Qt.PenCapStyle.FlatCap) -> QPen:
    if stroke is None or width <= 0:
        return QPen(Qt.PenStyle.NoPen)
    pen = QPen(QColor(stroke), width)
    pen.setCapStyle(cap)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    return pen


def _brush(fill: str | None) -> QBrush:
    return QBrush(QColor(fill)) if fill else QBrush(Qt.BrushStyle.NoBrush)


def _anchor_origin(t: Text, fm: QFontMetricsF, scale: float) -> QPointF:
    """Where the baseline starts for Pillow's anchor semantics (in unscaled units)."""
    width = fm.horizontalAdvance(t.text) * scale
    asc, desc = fm.ascent() * scale, fm.descent() * scale
    h, v = t.anchor[0], t.anchor[1]
    x = t.x - {"l": 0.0, "m": width / 2, "r": width}[h]
    y = t.y + {"t": asc, "m": (asc - desc) / 2, "s": 0.0, "b": -desc}[v]
    return QPointF(x, y)


def paint_primitives(
    painter: QPainter, prims: Sequence[Primitive], rect: QRectF, size: float | None = None
) -> None:
    """Draw counter primitives into `rect` (a square). `size` is the side the primitives were
    laid out at; by default the background's width (`primitives_extent`)."""
    src = size if size is not None else primitives_extent(prims)
    k = rect.width() / src
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    painter.translate(rect.topLeft())
    painter.scale(k, k)
    for p in prims:
        if isinstance(p, Rect):
            painter.setPen(Qt.PenStyle.NoPen)
            r = QRectF(p.x, p.y, p.w, p.h)
            if p.fill is not None:
                painter.setBrush(_brush(p.fill))
                painter.drawRoundedRect(r, p.radius, p.radius)
            if p.stroke is not None and p.width > 0:
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.setPen(_pen(p.stroke, p.width, Qt.PenCapStyle.SquareCap))
                painter.drawRoundedRect(r, p.radius, p.radius)
        elif isinstance(p, Ellipse):
            painter.setPen(_pen(p.stroke, p.width))
            painter.setBrush(_brush(p.fill))
            painter.drawEllipse(QRectF(p.x, p.y, p.w, p.h))
        elif isinstance(p, Polygon):
            painter.setPen(_pen(p.stroke, p.width))
            painter.setBrush(_brush(p.fill))
            painter.drawPolygon(QPolygonF([QPointF(x, y) for x, y in p.points]))
        elif isinstance(p, Line):
            painter.setPen(_pen(p.stroke, p.width))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPolyline(QPolygonF([QPointF(x, y) for x, y in p.points]))
        elif isinstance(p, Text):
            if not p.text:
                continue
            font = _text_font(p.bold)
            scale = p.size / _TEXT_PX
            origin = _anchor_origin(p, QFontMetricsF(font), scale)
            # A path fill, not drawText: glyph outlines scale exactly like Pillow's.
            path = QPainterPath()
            path.addText(QPointF(0, 0), font, p.text)
            painter.save()
            painter.translate(origin)
            painter.scale(scale, scale)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(p.colour))
            painter.drawPath(path)
            painter.restore()
    painter.restore()


def render_counter_qt(prims: Sequence[Primitive], size_px: int, dpr: float = 1.0) -> QPixmap:
    """A transparent QPixmap of `size_px` logical pixels showing the counter."""
    phys = max(1, round(size_px * dpr))
    pm = QPixmap(phys, phys)
    pm.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pm)
    paint_primitives(painter, prims, QRectF(0, 0, phys, phys))
    painter.end()
    pm.setDevicePixelRatio(dpr)
    return pm


def bucket_for(px: float) -> int:
    """The smallest size bucket at least `px` (the largest bucket above the range)."""
    i = bisect.bisect_left(SIZE_BUCKETS, px)
    return SIZE_BUCKETS[min(i, len(SIZE_BUCKETS) - 1)]


CacheKey = tuple[str, str, str, tuple[Any, ...], int, float]

# The map's stand-in type for a piece whose type the game does not give: a unit hidden by
# the fog of war (a placeholder beneath the top of an enemy stack [7.3]).
UNKNOWN_TYPE_ID = "?"


def unknown_primitives(side: Side, size: float, palette: Palette = "standard"
                       ) -> tuple[Primitive, ...]:
    """An anonymous counter: the side's colour round a plain grey face with a "?", and no
    name, symbol or values."""
    bg, _ = side_colours(side, palette)
    s = size
    return (Rect(0, 0, s, s, bg, None, 0.0, 0.08 * s),
            Rect(0.16 * s, 0.16 * s, 0.68 * s, 0.68 * s, "#9a9a9a", "#4d4d4d", 0.03 * s,
                 0.05 * s),
            Text(0.5 * s, 0.5 * s, "?", 0.5 * s, "#ffffff", "mm", True),
            Rect(0.02 * s, 0.02 * s, 0.96 * s, 0.96 * s, None, "#333333", 0.04 * s, 0.07 * s))


class CounterPixmapCache:
    """Counter pixmaps per (type, side, palette, visual attrs, size bucket, dpr); LRU-bounded.

    The key uses `counterart.visual_key` (name, step, reduced, factors), not the whole attrs,
    so a piece marked "moved" does not get a pixmap of its own.
    """

    def __init__(self, max_entries: int = 4000) -> None:
        self._max = max_entries
        self._pixmaps: OrderedDict[CacheKey, QPixmap] = OrderedDict()
        self._buckets: dict[tuple[Any, ...], set[int]] = {}  # face (key sans bucket) -> buckets
        self.renders = 0  # how many pixmaps were drawn (tests and benchmarks read it)

    def __len__(self) -> int:
        return len(self._pixmaps)

    def clear(self) -> None:
        self._pixmaps.clear()
        self._buckets.clear()

    def pixmap(
        self,
        unit_type: UnitType,
        side: Side,
        attrs: Mapping[str, Any],
        px: float,
        dpr: float = 1.0,
        palette: Palette = "standard",
    ) -> QPixmap:
        """A pixmap at least `px` device pixels wide (a bucket size) for one counter."""
        bucket = bucket_for(px)
        key: CacheKey = (unit_type.id, side.id, palette, visual_key(attrs), bucket, dpr)
        pm = self._pixmaps.get(key)
        if pm is not None:
            self._pixmaps.move_to_end(key)
            return pm
        prims = (unknown_primitives(side, float(bucket), palette)
                 if unit_type.id == UNKNOWN_TYPE_ID else
                 counter_primitives(unit_type, side, attrs, float(bucket), palette))
        # `bucket` is already in device pixels, so render at dpr 1 and only tag the ratio.
        pm = render_counter_qt(prims, bucket, 1.0)
        self.renders += 1
        self._pixmaps[key] = pm
        face = key[:4] + key[5:]
        self._buckets.setdefault(face, set()).add(bucket)
        if len(self._pixmaps) > self._max:
            old = self._pixmaps.popitem(last=False)[0]
            self._buckets.get(old[:4] + old[5:], set()).discard(old[4])
        return pm

    def cached(self, unit_type: UnitType, side: Side, attrs: Mapping[str, Any], px: float,
               dpr: float = 1.0, palette: Palette = "standard") -> QPixmap | None:
        """The pixmap `pixmap` would return if it is already drawn, else None (no drawing)."""
        key: CacheKey = (unit_type.id, side.id, palette, visual_key(attrs), bucket_for(px), dpr)
        return self._pixmaps.get(key)

    def nearest(self, unit_type: UnitType, side: Side, attrs: Mapping[str, Any], px: float,
                dpr: float = 1.0, palette: Palette = "standard") -> QPixmap | None:
        """The same counter already drawn at the bucket nearest `px`, or None: a stand-in
        while a zoom goes through sizes not drawn yet."""
        vk = visual_key(attrs)
        buckets = self._buckets.get((unit_type.id, side.id, palette, vk, dpr))
        if not buckets:
            return None
        b = min(buckets, key=lambda s: abs(math.log(s / max(px, 1.0))))
        return self._pixmaps.get((unit_type.id, side.id, palette, vk, b, dpr))
