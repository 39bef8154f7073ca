"""The map: a QGraphicsScene drawn from the map geometry, the view that plays on it, an
overview and a stack inspector.

Scale. The scene is in *map units* (the `BoardMap`'s own coordinates). 100 % zoom means:

* hex maps: a hex is 64 screen pixels across its flats (`HEX_PX_AT_100`), the distance
  between the centres of two neighbouring hexes, which is what a printed map's "hex size"
  measures (a 5/8" printed hex at ~100 dpi);
* area maps: a typical space (the median of sqrt(area) over the spaces) is 160 pixels
  across (`AREA_SPACE_PX_AT_100`), so a territory holds a few counters comfortably.

Counters are 72 % of a hex across on hex maps (a 1/2" counter on a 5/8" hex is 80 %) and
46 px at 100 % on area maps.

Layers (z order): terrain fills (grouped per terrain type and per spatial chunk, so a frame
fills a handful of paths and skips chunks outside the exposed rect), terrain patterns,
hexside features (rivers, coasts, borders), the hex grid, place symbols, labels (hex numbers,
place and space names; drawn in device pixels and only when legible), off-map boxes,
highlight fills, counters (one item per piece, stacks offset diagonally), cost badges, and
the dragged counter on top.

Mouse and keys (MapView):

* wheel: zoom at the cursor (the map point under it stays put); +/- zoom through the
  presets at the centre; Home fits the map; 0 is 100 %; arrow keys pan.
* left-drag on empty map pans; left-drag on a counter drags the stack's top counter (or the
  selected one, if it is in that stack) and emits ``pieceDropped(piece_id, location)`` on
  release, wherever it lands (the engine decides). Shift+drag moves the whole stack and
  emits one ``stackDropped(from_location, to_location)`` instead. The counter goes back to
  its place until `set_pieces` says otherwise.
* click on a location emits ``locationClicked(loc)``; when there are counters there it also
  selects the top counter (``pieceSelected``) and emits ``stackClicked(loc)``.
* hovering emits ``hoverChanged(text)``: the map's `describe(loc)`, a box's name, or "".

Performance (tests/benchmarks/bench_render.py; 5,000 hexes, 300 counters, 1600 x 1000):

* Static layers are per-chunk paths (CHUNK_HEXES hexes square: one fill path per terrain,
  one grid path, one path per hexside feature), culled against the exposed rect cut to the
  device (`visible_rect`): a frame strokes and fills a few dozen paths, whatever the zoom.
* Lines are 1 px cosmetic while that is what the map width rounds to (the raster engine's
  fast path), otherwise square-capped; round caps made the grid 3-7x slower at 200-400 %.
* Labels and counters are drawn in device pixels: QStaticText per label, and counter
  pixmaps from `CounterPixmapCache` per zoom bucket.
* DeviceCoordinateCache on the map layers was measured and rejected: every zoom step
  re-renders the whole layer at device size (render() took 0.25 s at 100 % and 8 s at
  400 %), and frames at a fixed zoom were no faster than drawing the culled paths.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from PySide6.QtCore import QEvent, QPoint, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QAction,
    QColor,
    QFont,
    QFontMetricsF,
    QIcon,
    QImage,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPaintEvent,
    QPen,
    QPolygonF,
    QResizeEvent,
    QStaticText,
    QTransform,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QApplication,
    QGraphicsItem,
    QGraphicsScene,
    QGraphicsView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QStyleOptionGraphicsItem,
    QVBoxLayout,
    QWidget,
)

from wartable.core.hexgrid import Hexside, Orientation, hexside_endpoints
from wartable.maps.model import BOX_PREFIX, AreaMap, BoardMap, HexMap, OffMapBox
from wartable.model.definition import Side, UnitType
from wartable.model.state import Piece
from wartable.printing.counterart import Palette, factor_text, mix
from wartable.ui.counters import CounterPixmapCache, counter_font_family

HEX_PX_AT_100 = 64.0
AREA_SPACE_PX_AT_100 = 160.0
AREA_COUNTER_PX_AT_100 = 46.0
COUNTER_HEX_FRACTION = 0.72
MIN_ZOOM = 10.0
MAX_ZOOM = 800.0
ZOOM_PRESETS: tuple[float, ...] = (25, 50, 75, 100, 150, 200, 300, 400, 600, 800)
WHEEL_STEP = 1.15  # zoom factor per wheel notch (120 units)
LABEL_MIN_HEX_PX = 36.0  # hex numbers are drawn when a hex is at least this wide on screen
PLACE_NAME_MIN_HEX_PX = 24.0  # place names need less room than a number in every hex
GRID_MIN_HEX_PX = 7.0  # below this the grid is noise
PATTERN_MIN_HEX_PX = 18.0
STACK_SHOWN = 4  # counters drawn offset in a stack; more get a count badge
STACK_STEP = 0.07  # offset per counter, fraction of the counter side
CHUNK_HEXES = 6  # terrain/grid paths are grouped in chunks this many hexes across

# Layer z values.
Z_TERRAIN, Z_SIDES, Z_GRID, Z_PLACES, Z_LABELS, Z_BOXES = 0, 2, 3, 4, 5, 6
Z_HIGHLIGHT, Z_COUNTERS, Z_BADGES, Z_DRAG = 8, 10, 30, 100

LAND_FILL = "#e8dcb4"
SEA_FILL = "#a9c7e3"
BOX_FILL = "#f2ecdc"
INK = "#2b2b2b"

SIDE_STYLES: dict[str, tuple[str, float, Qt.PenStyle]] = {
    # feature: (colour, width in hex radii, pen style)
    "river": ("#3b7dd1", 0.10, Qt.PenStyle.SolidLine),
    "major_river": ("#2a66b8", 0.20, Qt.PenStyle.SolidLine),
    "sea": ("#3f6c99", 0.07, Qt.PenStyle.SolidLine),
    "lake": ("#3f6c99", 0.07, Qt.PenStyle.SolidLine),
    "border": ("#8e2a8c", 0.09, Qt.PenStyle.DashLine),
    "mountain": ("#6f4a26", 0.16, Qt.PenStyle.SolidLine),
}
SIDE_ORDER = ("lake", "sea", "border", "mountain", "river", "major_river")

HIGHLIGHT_STYLES: dict[str, tuple[QColor, QColor, float]] = {
    # kind: (fill, outline, outline width in screen px)
    "legal": (QColor(40, 190, 70, 95), QColor(20, 120, 40, 230), 2.0),
    "selected": (QColor(255, 212, 0, 60), QColor(255, 200, 0, 255), 3.0),
    "attack": (QColor(220, 40, 40, 90), QColor(170, 20, 20, 230), 2.0),
    "target": (QColor(60, 120, 230, 80), QColor(30, 80, 200, 230), 2.0),
    "drop": (QColor(255, 255, 255, 50), QColor(255, 255, 255, 255), 3.0),
}


class CounterDefinition(Protocol):
    """What the map needs of a game definition (GameDefinition satisfies it)."""

    @property
    def sides(self) -> tuple[Side, ...]: ...

    @property
    def unit_types(self) -> Mapping[str, UnitType]: ...


# --- scale helpers ----------------------------------------------------------------------------


def hex_across(board: HexMap) -> float:
    """Flat-to-flat width of a hex, in map units."""
    lay = board.layout
    size = lay.size_y if lay.orientation is Orientation.FLAT else lay.size_x
    return math.sqrt(3.0) * size


def typical_space_size(board: AreaMap) -> float:
    """The median sqrt(area) of an area map's spaces, in map units."""
    sizes = [math.sqrt(float(s.polygon.area)) for s in board.spaces.values()]
    sizes = [s for s in sizes if s > 0]
    return statistics.median(sizes) if sizes else 1.0


def base_scale(board: BoardMap) -> float:
    """Screen pixels per map unit at 100 % zoom (see the module docstring)."""
    if isinstance(board, HexMap):
        return HEX_PX_AT_100 / hex_across(board)
    if isinstance(board, AreaMap):
        return AREA_SPACE_PX_AT_100 / typical_space_size(board)
    x0, y0, x1, y1 = board.bounds()
    return 1600.0 / max(x1 - x0, y1 - y0, 1e-9)


def counter_size(board: BoardMap) -> float:
    """A counter's side in map units."""
    if isinstance(board, HexMap):
        return COUNTER_HEX_FRACTION * hex_across(board)
    return AREA_COUNTER_PX_AT_100 / base_scale(board)


def cell_px(board: BoardMap, lod: float) -> float:
    """How wide a hex (or a typical space) is on screen at a level of detail (px per unit)."""
    if isinstance(board, HexMap):
        return hex_across(board) * lod
    return AREA_SPACE_PX_AT_100 / base_scale(board) * lod


def labels_visible(board: BoardMap, lod: float) -> bool:
    """Are hex numbers (or space names) legible at this level of detail?"""
    return cell_px(board, lod) >= LABEL_MIN_HEX_PX


def lod_of(painter: QPainter) -> float:
    return QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())


def visible_rect(painter: QPainter, option: QStyleOptionGraphicsItem) -> QRectF:
    """The part of an item that can reach the device: its exposed rect, cut to the clip and
    to the paint device (QGraphicsView.render passes the whole item as exposed)."""
    r = QRectF(option.exposedRect)
    if painter.hasClipping():
        r = r.intersected(painter.clipBoundingRect())
    dev = painter.device()
    inv, ok = painter.worldTransform().inverted()
    if dev is not None and ok:
        r = r.intersected(inv.mapRect(QRectF(0, 0, dev.width(), dev.height())))
    return r


def _line_pen(colour: QColor, width: float, lod: float,
              cap: Qt.PenCapStyle = Qt.PenCapStyle.SquareCap) -> QPen:
    """A pen `width` map units wide, but a cosmetic 1 px pen while that is under ~2 px.

    Measured on a screenful of hex edges: Qt's raster engine draws antialiased 1 px cosmetic
    lines on a fast path, any wider pen goes through the stroker (10-20x slower), and round
    caps cost the stroker another 3-7x over square ones; square caps also close the corners
    where three hex edges meet.
    """
    if width * lod < 2.0:
        pen = QPen(colour, 1.0)
        pen.setCosmetic(True)
    else:
        pen = QPen(colour, width)
    pen.setCapStyle(cap)
    return pen


def _format_cost(c: float) -> str:
    return str(int(c)) if float(c).is_integer() else f"{c:.1f}"


# --- static map layers -------------------------------------------------------------------------


@dataclass
class _Chunk:
    """A block of hexes: their paths per terrain, grid and hexside features, for culling."""

    bounds: QRectF
    base: str = ""
    all_hexes: QPainterPath = field(default_factory=QPainterPath)
    terrain: dict[str, QPainterPath] = field(default_factory=dict)
    patterns: dict[str, QPainterPath] = field(default_factory=dict)
    grid: QPainterPath = field(default_factory=QPainterPath)
    sides: dict[str, QPainterPath] = field(default_factory=dict)
    hexes: list[tuple[str, float, float]] = field(default_factory=list)  # label, cx, cy
    counts: dict[str, int] = field(default_factory=dict)


def _pattern_marks(path_line: QPainterPath, pattern: str, cx: float, cy: float,
                   r: float) -> None:
    """Add a terrain pattern's marks for one hex (circumradius r); they are stroked."""
    if pattern == "trees":
        for dx, dy in ((-0.33, -0.12), (0.3, -0.22), (0.0, 0.28)):
            path_line.addEllipse(QPointF(cx + dx * r, cy + dy * r), 0.15 * r, 0.15 * r)
            path_line.moveTo(cx + dx * r, cy + (dy + 0.12) * r)
            path_line.lineTo(cx + dx * r, cy + (dy + 0.3) * r)
    elif pattern == "hills":
        for dx, dy in ((-0.28, 0.05), (0.22, -0.12)):
            x, y = cx + dx * r, cy + dy * r
            path_line.moveTo(x - 0.22 * r, y + 0.1 * r)
            path_line.quadTo(x, y - 0.28 * r, x + 0.22 * r, y + 0.1 * r)
    elif pattern == "marsh":
        for dx, dy in ((-0.25, -0.18), (0.22, 0.0), (-0.15, 0.26)):
            x, y = cx + dx * r, cy + dy * r
            path_line.moveTo(x - 0.2 * r, y)
            path_line.lineTo(x + 0.2 * r, y)
            for t in (-0.1, 0.0, 0.1):
                path_line.moveTo(x + t * r, y)
                path_line.lineTo(x + t * 1.6 * r, y - 0.14 * r)
    elif pattern == "hatch":
        for k in (-0.4, 0.0, 0.4):
            path_line.moveTo(cx + (k - 0.25) * r, cy + 0.3 * r)
            path_line.lineTo(cx + (k + 0.25) * r, cy - 0.3 * r)


def build_hex_chunks(board: HexMap) -> list[_Chunk]:
    """Group a hex map's geometry into chunks of paths (built once per board)."""
    lay = board.layout
    across = hex_across(board)
    r = min(lay.size_x, lay.size_y)
    offs = lay.corner_offsets()
    cw = CHUNK_HEXES * across
    chunks: dict[tuple[int, int], _Chunk] = {}
    on_map = board.hexes

    def chunk_at(x: float, y: float) -> tuple[tuple[int, int], _Chunk]:
        key = (math.floor(x / cw), math.floor(y / cw))
        ch = chunks.get(key)
        if ch is None:
            ch = chunks[key] = _Chunk(QRectF())
        return key, ch

    for h, info in on_map.items():
        cx, cy = lay.hex_to_pixel(h)
        _, ch = chunk_at(cx, cy)
        corners = [QPointF(cx + dx, cy + dy) for dx, dy in offs]
        poly = QPolygonF([*corners, corners[0]])
        rect = poly.boundingRect()
        ch.bounds = rect if ch.bounds.isNull() else ch.bounds.united(rect)
        ch.all_hexes.addPolygon(poly)
        ch.counts[info.terrain] = ch.counts.get(info.terrain, 0) + 1
        ch.terrain.setdefault(info.terrain, QPainterPath()).addPolygon(poly)
        ch.hexes.append((board.label_of(h), cx, cy))
        pattern = board.terrain_types[info.terrain].pattern
        if pattern:
            _pattern_marks(ch.patterns.setdefault(info.terrain, QPainterPath()), pattern,
                           cx, cy, r)
        # Grid: each edge once: directions 0-2 always, 3-5 only at the map's edge.
        for d, n in enumerate(h.neighbors()):
            if d < 3 or n not in on_map:
                (ax, ay), (bx, by) = hexside_endpoints(lay, Hexside.between(h, n))
                ch.grid.moveTo(ax, ay)
                ch.grid.lineTo(bx, by)

    for ch in chunks.values():
        # The chunk's commonest terrain is filled under all its hexes (one path), so only the
        # other terrains need paths of their own and no seams show between fills.
        ch.base = max(ch.counts, key=lambda t: (ch.counts[t], t))
        del ch.terrain[ch.base]

    for side, feats in board.hexsides.items():
        (ax, ay), (bx, by) = hexside_endpoints(lay, side)
        _, ch = chunk_at((ax + bx) / 2, (ay + by) / 2)
        for f in feats:
            p = ch.sides.setdefault(f, QPainterPath())
            p.moveTo(ax, ay)
            p.lineTo(bx, by)
        pad = 0.25 * r
        seg = QRectF(QPointF(min(ax, bx), min(ay, by)), QPointF(max(ax, bx), max(ay, by)))
        seg = seg.adjusted(-pad, -pad, pad, pad)
        ch.bounds = seg if ch.bounds.isNull() else ch.bounds.united(seg)
    return list(chunks.values())


class _Layer(QGraphicsItem):
    """A static map layer: one item with a big bounding rect that culls by exposed rect."""

    def __init__(self, scene: MapScene, z: float) -> None:
        super().__init__()
        self.map_scene = scene
        self.setZValue(z)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        self._rect = scene.map_rect

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        self.draw(painter, visible_rect(painter, option), lod_of(painter))

    def draw(self, painter: QPainter, exposed: QRectF, lod: float) -> None:
        raise NotImplementedError


class _TerrainLayer(_Layer):
    def draw(self, painter: QPainter, exposed: QRectF, lod: float) -> None:
        board = self.map_scene.board
        if isinstance(board, HexMap):
            painter.setPen(Qt.PenStyle.NoPen)
            colours = {t: QColor(tt.fill) for t, tt in board.terrain_types.items()}
            # Fills without antialiasing: adjacent hexes then meet with no hairline seams,
            # and the grid drawn on top hides the stair-steps.
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
            for ch in self.map_scene.chunks:
                if not ch.bounds.intersects(exposed):
                    continue
                painter.setBrush(colours[ch.base])
                painter.drawPath(ch.all_hexes)
                for t, path in ch.terrain.items():
                    painter.setBrush(colours[t])
                    painter.drawPath(path)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            px = cell_px(board, lod)
            if px >= PATTERN_MIN_HEX_PX:
                inks = {t: QColor(mix(tt.fill, "#000000", 0.35))
                        for t, tt in board.terrain_types.items()}
                painter.setBrush(Qt.BrushStyle.NoBrush)
                for ch in self.map_scene.chunks:
                    if not ch.bounds.intersects(exposed):
                        continue
                    for t, path in ch.patterns.items():
                        painter.setPen(_line_pen(inks[t], 0.02 * hex_across(board), lod,
                                                Qt.PenCapStyle.FlatCap))
                        painter.drawPath(path)
        elif isinstance(board, AreaMap):
            for sid, path, bounds in self.map_scene.space_paths:
                if not bounds.intersects(exposed):
                    continue
                sea = board.spaces[sid].kind == "sea"
                painter.setBrush(QColor(SEA_FILL if sea else LAND_FILL))
                painter.setPen(Qt.PenStyle.NoPen)
                painter.drawPath(path)
            # Borders after all fills so a neighbour's fill never covers them.
            for sid, path, bounds in self.map_scene.space_paths:
                if not bounds.intersects(exposed):
                    continue
                sea = board.spaces[sid].kind == "sea"
                # 1 px cosmetic: the raster engine's fast path (see _line_pen).
                pen = QPen(QColor("#7d9cc0" if sea else "#4a3c2c"), 1.0)
                pen.setCosmetic(True)
                painter.setPen(pen)
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawPath(path)


class _HexsideLayer(_Layer):
    def draw(self, painter: QPainter, exposed: QRectF, lod: float) -> None:
        board = self.map_scene.board
        if not isinstance(board, HexMap):
            return
        r = min(board.layout.size_x, board.layout.size_y)
        feats = list(SIDE_ORDER) + sorted(
            {f for ch in self.map_scene.chunks for f in ch.sides} - set(SIDE_ORDER))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for f in feats:
            colour, width, style = SIDE_STYLES.get(f, ("#777777", 0.06, Qt.PenStyle.DotLine))
            pen = QPen(QColor(colour), max(width * r, 1.2 / lod), style, Qt.PenCapStyle.RoundCap,
                       Qt.PenJoinStyle.RoundJoin)
            painter.setPen(pen)
            for ch in self.map_scene.chunks:
                path = ch.sides.get(f)
                if path is not None and ch.bounds.intersects(exposed):
                    painter.drawPath(path)


class _GridLayer(_Layer):
    def draw(self, painter: QPainter, exposed: QRectF, lod: float) -> None:
        board = self.map_scene.board
        if not isinstance(board, HexMap):
            return
        px = cell_px(board, lod)
        if px < GRID_MIN_HEX_PX:
            return
        # Thin and faint when hexes are small, a printed-map line weight when large.
        alpha = int(min(150, 60 + 2 * px))
        painter.setPen(_line_pen(QColor(40, 35, 25, alpha), 0.02 * hex_across(board), lod))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for ch in self.map_scene.chunks:
            if ch.bounds.intersects(exposed):
                painter.drawPath(ch.grid)


_PLACE_STYLE = {
    # kind: (shape, fill, radius in hex radii)
    "capital": ("star", "#c0241b", 0.24),
    "city": ("square", "#c0241b", 0.17),
    "town": ("dot", "#2b2b2b", 0.11),
    "port": ("ring", "#1f4e8c", 0.14),
    "fortress": ("triangle", "#2b2b2b", 0.17),
    "other": ("dot", "#555555", 0.09),
}


class _PlaceLayer(_Layer):
    """City, town, port and fortress symbols (always drawn: they are part of the map)."""

    def draw(self, painter: QPainter, exposed: QRectF, lod: float) -> None:
        scene = self.map_scene
        board = scene.board
        if not isinstance(board, HexMap) or cell_px(board, lod) < 6:
            return
        r = min(board.layout.size_x, board.layout.size_y)
        painter.setPen(QPen(QColor("#1b1b1b"), max(0.03 * r, 0.8 / lod)))
        for _name, kind, x, y in scene.place_points:
            shape, fill, rad = _PLACE_STYLE.get(kind, _PLACE_STYLE["other"])
            s = rad * r
            if not exposed.intersects(QRectF(x - s, y - s, 2 * s, 2 * s)):
                continue
            painter.setBrush(QColor(fill))
            if shape == "square":
                painter.drawRect(QRectF(x - s, y - s, 2 * s, 2 * s))
            elif shape == "triangle":
                painter.drawPolygon(QPolygonF([QPointF(x, y - s), QPointF(x + s, y + s * 0.8),
                                               QPointF(x - s, y + s * 0.8)]))
            elif shape == "star":
                painter.drawPolygon(_star(x, y, s))
            elif shape == "ring":
                painter.setBrush(QColor("#ffffff"))
                painter.drawEllipse(QPointF(x, y), s, s)
                painter.setBrush(QColor(fill))
                painter.drawEllipse(QPointF(x, y), s * 0.5, s * 0.5)
            else:
                painter.drawEllipse(QPointF(x, y), s, s)


def _star(x: float, y: float, s: float) -> QPolygonF:
    pts = []
    for i in range(10):
        a = -math.pi / 2 + i * math.pi / 5
        rr = s if i % 2 == 0 else s * 0.45
        pts.append(QPointF(x + rr * math.cos(a), y + rr * math.sin(a)))
    return QPolygonF(pts)


class _TextCache:
    """QStaticText per (text, pixel size, bold): laid out once, drawn many times."""

    def __init__(self) -> None:
        self._fonts: dict[tuple[int, bool], QFont] = {}
        self._texts: dict[tuple[str, int, bool], QStaticText] = {}

    def font(self, px: int, bold: bool = False) -> QFont:
        f = self._fonts.get((px, bold))
        if f is None:
            f = QFont(counter_font_family(bold))
            f.setPixelSize(px)
            f.setBold(bold)
            self._fonts[(px, bold)] = f
        return f

    def text(self, s: str, px: int, bold: bool = False) -> QStaticText:
        key = (s, px, bold)
        st = self._texts.get(key)
        if st is None:
            if len(self._texts) > 20000:
                self._texts.clear()
            st = QStaticText(s)
            st.setTextFormat(Qt.TextFormat.PlainText)
            st.setPerformanceHint(QStaticText.PerformanceHint.AggressiveCaching)
            st.prepare(QTransform(), self.font(px, bold))
            self._texts[key] = st
        return st


def _draw_haloed(painter: QPainter, cache: _TextCache, pos: QPointF, text: str, px: int,
                 colour: QColor, bold: bool = False, halo: QColor | None = None) -> None:
    """Text centred on `pos` (device pixels) with a light halo so it reads over any fill."""
    st = cache.text(text, px, bold)
    painter.setFont(cache.font(px, bold))
    sz = st.size()
    top_left = QPointF(pos.x() - sz.width() / 2, pos.y() - sz.height() / 2)
    if halo is not None:
        painter.setPen(halo)
        for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            painter.drawStaticText(top_left + QPointF(dx, dy), st)
    painter.setPen(colour)
    painter.drawStaticText(top_left, st)


# Which place names win when two would overlap: capitals first, then cities, ports...
_PLACE_PRIORITY = {"capital": 0, "city": 1, "port": 2, "fortress": 3, "town": 4}


class _LabelLayer(_Layer):
    """Hex numbers, place names and space names, in device pixels, by level of detail."""

    def __init__(self, scene: MapScene, z: float) -> None:
        super().__init__(scene, z)
        self.texts = scene.texts
        self.drawn = 0  # labels drawn by the last paint (tests read it)
        # Place-name layout per (scale, size): place index -> text box relative to the
        # place's point, in device pixels. The whole map is laid out at once so a partial
        # repaint draws exactly the names a full one would.
        self._layouts: dict[tuple[float, int], dict[int, QRectF]] = {}
        self.placed: list[tuple[str, QRectF]] = []  # names drawn by the last paint (tests)

    def place_layout(self, lod: float, size: int, across: float) -> dict[int, QRectF]:
        """Greedy, collision-free place names: each name goes below its symbol, else to the
        right, left or above; a name that fits nowhere is left out at this zoom (the more
        important place keeps its name). Pure scaling, so boxes are in scaled scene units."""
        key = (round(lod, 5), size)
        got = self._layouts.get(key)
        if got is not None:
            return got
        if len(self._layouts) > 64:
            self._layouts.clear()
        points = self.map_scene.place_points
        order = sorted(range(len(points)),
                       key=lambda i: (_PLACE_PRIORITY.get(points[i][1], 5), i))
        gap = 0.3 * across * lod  # from the place's point to the edge of its symbol
        taken: list[QRectF] = []
        out: dict[int, QRectF] = {}
        for i in order:
            name, _kind, x, y = points[i]
            sz = self.texts.text(name, size, True).size()
            w, h = sz.width() + 2, sz.height() + 2  # the halo
            for dx, dy in ((-w / 2, gap), (gap, -h / 2), (-gap - w, -h / 2),
                           (-w / 2, -gap - h)):
                rel = QRectF(dx, dy, w, h)
                absolute = rel.translated(x * lod, y * lod)
                if not any(absolute.intersects(t) for t in taken):
                    taken.append(absolute)
                    out[i] = rel
                    break
        self._layouts[key] = out
        return out

    def draw(self, painter: QPainter, exposed: QRectF, lod: float) -> None:
        self.drawn = 0
        scene = self.map_scene
        board = scene.board
        if board is None:
            return
        px = cell_px(board, lod)
        world = painter.worldTransform()
        painter.save()
        painter.setWorldTransform(QTransform())
        if isinstance(board, HexMap):
            across = hex_across(board)
            if px >= LABEL_MIN_HEX_PX:
                size = int(max(8, min(15, 0.15 * px)))
                ink = QColor(40, 35, 25, 200)
                pad = across
                area = exposed.adjusted(-pad, -pad, pad, pad)
                painter.setFont(self.texts.font(size))
                painter.setPen(ink)
                for ch in scene.chunks:
                    if not ch.bounds.intersects(exposed):
                        continue
                    for label, cx, cy in ch.hexes:
                        if not area.contains(cx, cy):
                            continue
                        p = world.map(QPointF(cx, cy - 0.5 * across))
                        st = self.texts.text(label, size)
                        painter.drawStaticText(
                            QPointF(p.x() - st.size().width() / 2, p.y() + 0.04 * px), st)
                        self.drawn += 1
            self.placed = []
            if px >= PLACE_NAME_MIN_HEX_PX:
                size = int(max(9, min(16, 0.18 * px)))
                layout = self.place_layout(lod, size, across)
                near = exposed.adjusted(-4 * across, -across, 4 * across, across)
                for i, rel in layout.items():
                    name, _kind, x, y = scene.place_points[i]
                    if not near.contains(x, y):
                        continue
                    box = rel.translated(world.map(QPointF(x, y)))
                    _draw_haloed(painter, self.texts, box.center(), name,
                                 size, QColor(INK), True, QColor(255, 255, 255, 200))
                    self.placed.append((name, box))
                    self.drawn += 1
        elif isinstance(board, AreaMap):
            size = int(max(9, min(15, 0.09 * px)))
            fm = QFontMetricsF(self.texts.font(size, True))
            for sid, _path, bounds in scene.space_paths:
                if not bounds.intersects(exposed):
                    continue
                sp = board.spaces[sid]
                # A name is drawn when it fits inside its space's width on screen.
                if fm.horizontalAdvance(sp.name) > bounds.width() * lod * 0.95:
                    continue
                x, y = sp.label_point
                y -= 0.75 * scene.counter  # above the stack, which sits on the label point
                sea = sp.kind == "sea"
                colour = QColor("#24507f") if sea else QColor(INK)
                _draw_haloed(painter, self.texts, world.map(QPointF(x, y)), sp.name, size,
                             colour, not sea, QColor(255, 255, 255, 170))
                self.drawn += 1
        painter.restore()


class BoxItem(QGraphicsItem):
    """An off-map box: a titled rectangle."""

    def __init__(self, scene: MapScene, box: OffMapBox) -> None:
        super().__init__()
        self.map_scene = scene
        self.box = box
        self.setZValue(Z_BOXES)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self._title_h = min(box.h * 0.18, scene.cell * 0.45)

    def boundingRect(self) -> QRectF:
        b = self.box
        return QRectF(b.x, b.y, b.w, b.h).adjusted(-0.1, -0.1, 0.1, 0.1)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        b = self.box
        lod = lod_of(painter)
        rect = QRectF(b.x, b.y, b.w, b.h)
        pen = QPen(QColor("#4f4232"), max(0.04 * self.map_scene.cell, 1.0 / lod))
        painter.setPen(pen)
        painter.setBrush(QColor(BOX_FILL))
        painter.drawRect(rect)
        title = QRectF(b.x, b.y, b.w, self._title_h)
        painter.setBrush(QColor("#4f4232"))
        painter.drawRect(title)
        px = int(min(16, self._title_h * lod * 0.62))
        if px >= 7:
            world = painter.worldTransform()
            painter.save()
            painter.setWorldTransform(QTransform())
            cache = self.map_scene.texts
            _draw_haloed(painter, cache, world.map(title.center()), b.name, px,
                         QColor("#f7f1e1"), True)
            painter.restore()


# --- pieces ------------------------------------------------------------------------------------

_FALLBACK_TYPE = UnitType("?", "Unknown unit type", "none", (), 0, "")


class PieceItem(QGraphicsItem):
    """One counter. Painted from the shared pixmap cache at the current zoom bucket."""

    def __init__(self, scene: MapScene, piece: Piece) -> None:
        super().__init__()
        self.map_scene = scene
        self.piece = piece
        self.stack_count = 1  # badge shows when the top of a stack of more than STACK_SHOWN
        self.is_top = True
        self.selected = False
        self._s = scene.counter
        self.setZValue(Z_COUNTERS)
        self.setAcceptedMouseButtons(Qt.MouseButton.LeftButton)

    @property
    def piece_id(self) -> str:
        return self.piece.id

    def boundingRect(self) -> QRectF:
        s = self._s
        m = 0.2 * s  # shadow, selection ring, badge
        return QRectF(-s / 2 - m, -s / 2 - m, s + 2 * m, s + 2 * m)

    def shape(self) -> QPainterPath:
        p = QPainterPath()
        p.addRect(QRectF(-self._s / 2, -self._s / 2, self._s, self._s))
        return p

    def set_piece(self, piece: Piece) -> None:
        if piece != self.piece:
            self.piece = piece
            self.update()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        scene = self.map_scene
        s = self._s
        lod = lod_of(painter)
        dev = painter.device()
        dpr = dev.devicePixelRatioF() if dev is not None else 1.0
        px = s * lod * dpr
        rect = QRectF(-s / 2, -s / 2, s, s)
        side, utype = scene.side_of(self.piece), scene.type_of(self.piece)
        if px < 7:
            # Too small for any detail: a coloured square is all the eye can see.
            painter.fillRect(rect, QColor(scene.side_fill(side)))
            return
        # A soft drop shadow lifts the counter off the map.
        painter.fillRect(rect.translated(0.05 * s, 0.06 * s), QColor(0, 0, 0, 70))
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
        pm = scene.counter_cache.pixmap(utype, side, self.piece.attrs, px, dpr,
                                          scene.counter_palette)
        painter.drawPixmap(rect, pm, QRectF(0, 0, pm.width(), pm.height()))
        if self.piece.attrs.get("moved"):
            # Moved this turn: a small dark dot at the bottom-right corner.
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(0, 0, 0, 150))
            painter.drawEllipse(QPointF(s * 0.38, s * 0.38), s * 0.05, s * 0.05)
        if self.selected:
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(QPen(QColor("#111111"), 4.5 / lod))
            painter.drawRect(rect.adjusted(-2 / lod, -2 / lod, 2 / lod, 2 / lod))
            painter.setPen(QPen(QColor("#ffd400"), 2.5 / lod))
            painter.drawRect(rect.adjusted(-2 / lod, -2 / lod, 2 / lod, 2 / lod))
        if self.is_top and self.stack_count > STACK_SHOWN:
            self._badge(painter, lod)

    def _badge(self, painter: QPainter, lod: float) -> None:
        s = self._s
        r = max(0.17 * s, 8 / lod)
        c = QPointF(s / 2, -s / 2)
        painter.setPen(QPen(QColor("#ffffff"), 1.5 / lod))
        painter.setBrush(QColor("#b3261e"))
        painter.drawEllipse(c, r, r)
        world = painter.worldTransform()
        painter.save()
        painter.setWorldTransform(QTransform())
        px = max(8, int(r * lod * 1.1))
        _draw_haloed(painter, self.map_scene.texts, world.map(c), str(self.stack_count),
                     px, QColor("#ffffff"), True)
        painter.restore()


class HighlightItem(QGraphicsItem):
    """A highlighted location: translucent fill and outline (under the counters)."""

    def __init__(self, scene: MapScene, loc: str, kind: str) -> None:
        super().__init__()
        self.loc = loc
        self.kind = kind
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        board = scene.board
        assert board is not None
        self._path = QPainterPath()
        self._path.addPolygon(QPolygonF([QPointF(x, y) for x, y in board.outline(loc)]))
        self._path.closeSubpath()
        self.setZValue(Z_HIGHLIGHT + (0.5 if kind == "drop" else 0.0))

    def boundingRect(self) -> QRectF:
        return self._path.boundingRect().adjusted(-1, -1, 1, 1)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        fill, line, width = HIGHLIGHT_STYLES.get(self.kind, HIGHLIGHT_STYLES["target"])
        pen = QPen(line, width)
        pen.setCosmetic(True)
        painter.setPen(pen)
        painter.setBrush(fill)
        painter.drawPath(self._path)


class CostBadgeItem(QGraphicsItem):
    """The movement cost of a legal destination, above the counters at the hex's foot."""

    def __init__(self, scene: MapScene, loc: str, text: str) -> None:
        super().__init__()
        self.map_scene = scene
        self.loc = loc
        self.text = text
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setZValue(Z_BADGES)
        board = scene.board
        assert board is not None
        x, y = board.center(loc)
        self.setPos(x, y + 0.33 * scene.cell)
        self._r = 0.16 * scene.cell

    def boundingRect(self) -> QRectF:
        r = self._r * 2
        return QRectF(-r, -r, 2 * r, 2 * r)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        lod = lod_of(painter)
        px = int(max(9, min(16, self._r * lod * 1.2)))
        world = painter.worldTransform()
        painter.save()
        painter.setWorldTransform(QTransform())
        c = world.map(QPointF(0, 0))
        st = self.map_scene.texts.text(self.text, px, True)
        w = max(st.size().width() + 8, px + 6)
        h = px + 5
        painter.setPen(QPen(QColor("#ffffff"), 1.2))
        painter.setBrush(QColor(20, 110, 40, 235))
        painter.drawRoundedRect(QRectF(c.x() - w / 2, c.y() - h / 2, w, h), h / 2, h / 2)
        _draw_haloed(painter, self.map_scene.texts, c, self.text, px, QColor("#ffffff"),
                     True)
        painter.restore()


# --- the scene ---------------------------------------------------------------------------------


class MapScene(QGraphicsScene):
    """The board drawn from geometry, plus counters and highlights (see module docstring)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.board: BoardMap | None = None
        self.definition: CounterDefinition | None = None
        self.counter_palette: Palette = "standard"
        self.counter_cache = CounterPixmapCache()
        self.chunks: list[_Chunk] = []
        self.space_paths: list[tuple[str, QPainterPath, QRectF]] = []
        self.place_points: list[tuple[str, str, float, float]] = []
        self.map_rect = QRectF()
        self.cell = 1.0  # a hex across (or a typical space), map units
        self.counter = 1.0  # a counter's side, map units
        self.layers: list[_Layer] = []
        self.texts = _TextCache()
        self.labels: _LabelLayer | None = None
        self.piece_items: dict[str, PieceItem] = {}
        self.stacks: dict[str, list[str]] = {}  # location -> piece ids, bottom first
        self._sides: dict[str, Side] = {}
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.BspTreeIndex)

    # -- board ---------------------------------------------------------------------------------

    def set_board(self, board: BoardMap, definition: CounterDefinition) -> None:
        self.clear()
        self.piece_items.clear()
        self.stacks.clear()
        self.board = board
        self.definition = definition
        self._sides = {s.id: s for s in definition.sides}
        x0, y0, x1, y1 = board.bounds()
        self.map_rect = QRectF(x0, y0, x1 - x0, y1 - y0)
        if isinstance(board, HexMap):
            self.cell = hex_across(board)
            self.chunks = build_hex_chunks(board)
            self.space_paths = []
            self.place_points = [(p.name, p.kind, *board.center(p.hex_or_space))
                                 for p in board.places]
        elif isinstance(board, AreaMap):
            self.cell = typical_space_size(board)
            self.chunks = []
            self.space_paths = [(sid, _shape_path(sp.polygon), QRectF())
                                for sid, sp in board.spaces.items()]
            self.space_paths = [(sid, p, p.boundingRect()) for sid, p, _ in self.space_paths]
            self.place_points = []
        self.counter = counter_size(board)
        # Room to pan a little past the edges (and to drop on counters there), no more.
        margin = 1.5 * max(self.cell, self.counter)
        self.setSceneRect(self.map_rect.adjusted(-margin, -margin, margin, margin))
        self.setBackgroundBrush(QColor("#3a3f44"))
        self.labels = _LabelLayer(self, Z_LABELS)
        self.layers = [_TerrainLayer(self, Z_TERRAIN), _HexsideLayer(self, Z_SIDES),
                       _GridLayer(self, Z_GRID), _PlaceLayer(self, Z_PLACES), self.labels]
        for layer in self.layers:
            self.addItem(layer)
        for b in board.boxes:
            self.addItem(BoxItem(self, b))

    def labels_visible(self, lod: float) -> bool:
        """Would the label layer draw hex numbers (space names) at this level of detail?"""
        return self.board is not None and labels_visible(self.board, lod)

    def paint_map(self, painter: QPainter, target: QRectF) -> None:
        """Draw the static map (no counters, no highlights) fitted into `target`."""
        if self.board is None:
            return
        src = self.map_rect
        k = min(target.width() / src.width(), target.height() / src.height())
        painter.save()
        painter.translate(target.center())
        painter.scale(k, k)
        painter.translate(-src.center())
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        for layer in self.layers:
            if layer is not self.labels:
                layer.draw(painter, src, k)
        for it in self.items():
            if isinstance(it, BoxItem):
                it.paint(painter, QStyleOptionGraphicsItem(), None)
        painter.restore()

    # -- definition lookups ------------------------------------------------------------------

    def side_of(self, piece: Piece) -> Side:
        s = self._sides.get(piece.side)
        return s if s is not None else Side(piece.side or "?", piece.side, "#b0b0b0")

    def type_of(self, piece: Piece) -> UnitType:
        if self.definition is None:
            return _FALLBACK_TYPE
        return self.definition.unit_types.get(piece.type, _FALLBACK_TYPE)

    def side_fill(self, side: Side) -> str:
        if self.counter_palette == "colourblind" and side.alt_colour:
            return side.alt_colour
        return side.colour

    # -- pieces ------------------------------------------------------------------------------

    def set_pieces(self, pieces: Sequence[Piece]) -> None:
        """Replace the pieces; items are reused by piece id."""
        if self.board is None:
            return
        seen: set[str] = set()
        self.stacks = {}
        for p in pieces:
            seen.add(p.id)
            item = self.piece_items.get(p.id)
            if item is None:
                item = PieceItem(self, p)
                self.piece_items[p.id] = item
                self.addItem(item)
            else:
                item.set_piece(p)
            self.stacks.setdefault(p.location, []).append(p.id)
        for pid in [k for k in self.piece_items if k not in seen]:
            self.removeItem(self.piece_items.pop(pid))
        for loc in self.stacks:
            self.layout_stack(loc)

    def layout_stack(self, loc: str) -> None:
        """Place a stack's items: bottom first, each up-right of the one below. In an
        off-map box the pieces are laid out side by side in rows instead, like a holding box
        on a table."""
        ids = self.stacks.get(loc, [])
        board = self.board
        if board is None or not ids:
            return
        box = self.box_of(loc)
        if box is not None:
            self._layout_box(box, ids)
            return
        try:
            cx, cy = board.center(loc)
        except KeyError:
            cx, cy = self.map_rect.left() - self.counter, self.map_rect.top() - self.counter
        n = len(ids)
        shown = min(n, STACK_SHOWN)
        d = STACK_STEP * self.counter
        x0, y0 = cx - (shown - 1) * d / 2, cy + (shown - 1) * d / 2
        for i, pid in enumerate(ids):
            item = self.piece_items[pid]
            k = min(i, shown - 1)
            item.setPos(x0 + k * d, y0 - k * d)
            item.setZValue(Z_COUNTERS + i * 0.001)
            item.stack_count = n
            item.is_top = i == n - 1
            item.update()

    def _layout_box(self, box: OffMapBox, ids: list[str]) -> None:
        s = self.counter
        pad = 0.15 * s
        top = box.y + min(box.h * 0.18, self.cell * 0.45) + pad  # below the title bar
        step = 1.1 * s
        cols = max(1, int((box.w - pad) // step))
        rows = math.ceil(len(ids) / cols)
        room = box.y + box.h - pad - s - top
        # Too many for the box: rows overlap (like counters heaped in a real box).
        dy = step if rows <= 1 or (rows - 1) * step <= room else max(room, 0.0) / (rows - 1)
        for i, pid in enumerate(ids):
            item = self.piece_items[pid]
            r, c = divmod(i, cols)
            item.setPos(box.x + pad + s / 2 + c * step, top + s / 2 + r * dy)
            item.setZValue(Z_COUNTERS + i * 0.001)
            item.stack_count = 1
            item.is_top = True
            item.update()

    def box_of(self, loc: str) -> OffMapBox | None:
        """The off-map box a location names, if it is one."""
        if self.board is None or not loc.startswith(BOX_PREFIX):
            return None
        for b in self.board.boxes:
            if BOX_PREFIX + b.id == loc:
                return b
        return None

    def stack_at(self, loc: str) -> list[str]:
        return list(self.stacks.get(loc, []))


def _shape_path(geom: Any) -> QPainterPath:
    """A QPainterPath (odd-even, so holes stay holes) of a shapely Polygon/MultiPolygon."""
    path = QPainterPath()
    path.setFillRule(Qt.FillRule.OddEvenFill)
    polys = list(geom.geoms) if hasattr(geom, "geoms") else [geom]
    for poly in polys:
        for ring in [poly.exterior, *poly.interiors]:
            path.addPolygon(QPolygonF([QPointF(float(x), float(y)) for x, y in ring.coords]))
            path.closeSubpath()
    return path


# --- the view ----------------------------------------------------------------------------------


@dataclass
class _Drag:
    origin: str
    press_view: QPointF
    piece_ids: list[str]
    whole_stack: bool
    grab: QPointF = field(default_factory=QPointF)  # scene offset of the press from the top item
    active: bool = False


class MapView(QGraphicsView):
    """The interactive map (see the module docstring for mouse and keys)."""

    pieceDropped = Signal(str, str)
    stackDropped = Signal(str, str)
    locationClicked = Signal(str)
    stackClicked = Signal(str)
    hoverChanged = Signal(str)
    zoomChanged = Signal(float)
    pieceSelected = Signal(str)
    boardChanged = Signal()
    viewChanged = Signal()  # scrolled or zoomed (the overview follows it)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.map_scene = MapScene(self)
        self.setScene(self.map_scene)
        self.setRenderHints(QPainter.RenderHint.Antialiasing
                            | QPainter.RenderHint.SmoothPixmapTransform
                            | QPainter.RenderHint.TextAntialiasing)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.NoAnchor)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontSavePainterState, True)
        self.setMouseTracking(True)
        self.viewport().setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._percent = 100.0
        self._fitted = False
        self._base = 1.0
        self._legal: dict[str, tuple[str, ...]] = {}
        self._costs: dict[str, dict[str, float]] = {}
        self._highlight_sets: dict[str, tuple[str, ...]] = {}
        self._highlight_items: list[QGraphicsItem] = []
        self._drag_items: list[QGraphicsItem] = []
        self._drop_item: HighlightItem | None = None
        self._hover: str | None = None
        self._selected: str | None = None
        self._drag: _Drag | None = None
        self._press_empty: QPointF | None = None
        self.horizontalScrollBar().valueChanged.connect(self.viewChanged)
        self.verticalScrollBar().valueChanged.connect(self.viewChanged)
        # Touch screens and tablets at the table: pinch to zoom (drag already pans/moves).
        self.viewport().setAttribute(Qt.WidgetAttribute.WA_AcceptTouchEvents)
        self.viewport().grabGesture(Qt.GestureType.PinchGesture)

    def viewportEvent(self, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.Gesture:
            pinch = event.gesture(Qt.GestureType.PinchGesture)  # type: ignore[attr-defined]
            if pinch is not None:
                self.pinch(pinch.scaleFactor(), pinch.centerPoint())
                event.accept()
                return True
        return super().viewportEvent(event)

    def pinch(self, factor: float, center: QPointF) -> None:
        """Zoom by a pinch's scale factor around its centre (screen coordinates)."""
        if factor > 0:
            anchor = self.viewport().mapFromGlobal(center.toPoint())
            self.set_zoom(self.zoom_percent() * factor, QPointF(anchor))

    # -- board and pieces ------------------------------------------------------------------

    @property
    def board(self) -> BoardMap | None:
        return self.map_scene.board

    def set_board(self, board: BoardMap, definition: CounterDefinition) -> None:
        self._drag = None
        self._highlight_items = []
        self._drag_items = []
        self._drop_item = None
        self._highlight_sets = {}
        self._selected = None
        self.map_scene.set_board(board, definition)
        self._base = base_scale(board)
        self.boardChanged.emit()
        self.fit()

    def set_pieces(self, pieces: Sequence[Piece]) -> None:
        """Replace all pieces (items are reused by piece id, so nothing flickers)."""
        if self._drag is not None and self._drag.active:
            self._end_drag_visuals()
            self._drag = None
        self.map_scene.set_pieces(pieces)
        if self._selected is not None and self._selected not in self.map_scene.piece_items:
            self._selected = None
        for pid, item in self.map_scene.piece_items.items():
            item.selected = pid == self._selected
        self._refresh_highlights()
        self.viewChanged.emit()

    def piece_item(self, piece_id: str) -> PieceItem | None:
        return self.map_scene.piece_items.get(piece_id)

    def set_palette(self, name: Palette) -> None:
        """"standard" or "colourblind" (each side's alt_colour)."""
        if name not in ("standard", "colourblind"):
            raise ValueError(f"unknown palette {name!r}; use 'standard' or 'colourblind'")
        self.map_scene.counter_palette = name
        self.map_scene.update()
        self.viewChanged.emit()

    def select_piece(self, piece_id: str | None) -> None:
        """Select a piece (outline it and show its legal moves); None clears. No signal."""
        if piece_id is not None and piece_id not in self.map_scene.piece_items:
            piece_id = None
        self._selected = piece_id
        for pid, item in self.map_scene.piece_items.items():
            sel = pid == piece_id
            if item.selected != sel:
                item.selected = sel
                item.update()
        self._refresh_highlights()

    def selected_piece(self) -> str | None:
        return self._selected

    # -- highlights ------------------------------------------------------------------------

    def set_legal_moves(self, moves: Mapping[str, tuple[str, ...]],
                        costs: Mapping[str, Mapping[str, float]]) -> None:
        """Per piece: its legal destinations and the cost to reach each. Shown while that
        piece is dragged or selected."""
        self._legal = {k: tuple(v) for k, v in moves.items()}
        self._costs = {k: dict(v) for k, v in costs.items()}
        self._refresh_highlights()

    def set_highlights(self, locs: Iterable[str], kind: str = "target") -> None:
        """Highlight locations with a style: "legal", "selected", "attack", "target" (any
        other kind draws like "target"). Each kind is its own set; empty `locs` clears it."""
        self._highlight_sets[kind] = tuple(locs)
        self._refresh_highlights()

    def highlight_items(self, kind: str | None = None) -> list[HighlightItem]:
        items = [i for i in self._highlight_items + self._drag_items
                 if isinstance(i, HighlightItem)]
        return [i for i in items if kind is None or i.kind == kind]

    def cost_badges(self) -> list[CostBadgeItem]:
        return [i for i in self._highlight_items + self._drag_items
                if isinstance(i, CostBadgeItem)]

    def _valid_loc(self, loc: str) -> bool:
        board = self.board
        if board is None:
            return False
        try:
            board.center(loc)
        except (KeyError, ValueError):
            return False
        return True

    def _make_highlights(self, locs: Iterable[str], kind: str,
                         costs: Mapping[str, float] | None = None) -> list[QGraphicsItem]:
        out: list[QGraphicsItem] = []
        for loc in dict.fromkeys(locs):  # once each, in order
            if not self._valid_loc(loc):
                continue
            h = HighlightItem(self.map_scene, loc, kind)
            self.map_scene.addItem(h)
            out.append(h)
            if costs and loc in costs:
                b = CostBadgeItem(self.map_scene, loc, _format_cost(costs[loc]))
                self.map_scene.addItem(b)
                out.append(b)
        return out

    def _refresh_highlights(self) -> None:
        for it in self._highlight_items:
            self.map_scene.removeItem(it)
        self._highlight_items = []
        if self.board is None:
            return
        for kind, locs in self._highlight_sets.items():
            self._highlight_items += self._make_highlights(locs, kind)
        dragging = self._drag is not None and self._drag.active
        if self._selected is not None and not dragging:
            self._highlight_items += self._make_highlights(
                self._legal.get(self._selected, ()), "legal", self._costs.get(self._selected))

    def _legal_for(self, piece_ids: list[str]) -> tuple[list[str], dict[str, float]]:
        """Destinations every dragged piece may reach; the cost shown is the highest."""
        dests: list[str] | None = None
        costs: dict[str, float] = {}
        for pid in piece_ids:
            mine = self._legal.get(pid, ())
            dests = list(mine) if dests is None else [d for d in dests if d in mine]
            for loc, c in self._costs.get(pid, {}).items():
                costs[loc] = max(costs.get(loc, c), c)
        return dests or [], costs

    # -- zoom ------------------------------------------------------------------------------

    def zoom_percent(self) -> float:
        return self._percent

    def base_scale(self) -> float:
        """Screen pixels per map unit at 100 %."""
        return self._base

    def set_zoom(self, percent: float, anchor_view_point: QPointF | QPoint | None = None) -> None:
        """Zoom to `percent` (clamped to 10-800), keeping the map point under
        `anchor_view_point` (viewport coordinates; default the centre) where it is."""
        percent = max(MIN_ZOOM, min(MAX_ZOOM, float(percent)))
        self._fitted = False
        vp = self.viewport().rect()
        anchor = QPointF(anchor_view_point) if anchor_view_point is not None else (
            QPointF(vp.width() / 2, vp.height() / 2))
        inv, _ok = self.viewportTransform().inverted()
        scene_pt = inv.map(anchor)
        k = self._base * percent / 100.0
        self.setTransform(QTransform.fromScale(k, k))
        # Scroll so the anchor's scene point comes back under it (scroll bars are integers,
        # so this is exact to half a pixel where the map is larger than the view).
        moved = self.viewportTransform().map(scene_pt) - anchor
        hb, vb = self.horizontalScrollBar(), self.verticalScrollBar()
        hb.setValue(hb.value() + round(moved.x()))
        vb.setValue(vb.value() + round(moved.y()))
        changed = abs(percent - self._percent) > 1e-9
        self._percent = percent
        if changed:
            self.zoomChanged.emit(percent)
        self.viewChanged.emit()

    def zoom_in(self) -> None:
        """The next preset above the current zoom (800 % stays)."""
        up = [p for p in ZOOM_PRESETS if p > self._percent + 1e-6]
        self.set_zoom(up[0] if up else MAX_ZOOM)

    def zoom_out(self) -> None:
        """The next preset below the current zoom; below 25 % it goes to the 10 % minimum."""
        down = [p for p in ZOOM_PRESETS if p < self._percent - 1e-6]
        self.set_zoom(down[-1] if down else MIN_ZOOM)

    def fit(self) -> None:
        """Zoom and centre so the whole map (boxes included) is visible."""
        if self.board is None:
            return
        r = self.map_scene.map_rect
        vp = self.viewport().rect()
        if r.width() <= 0 or r.height() <= 0 or vp.width() <= 2 or vp.height() <= 2:
            return
        k = min((vp.width() - 8) / r.width(), (vp.height() - 8) / r.height())
        self.set_zoom(k / self._base * 100.0)
        self.centerOn(r.center())
        # Stay fitted while the window or its docks change size, until the user zooms.
        self._fitted = True

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        if self._fitted:
            self.fit()

    def center_on_location(self, loc: str) -> None:
        if self.board is not None:
            x, y = self.board.center(loc)
            self.centerOn(QPointF(x, y))

    def visible_scene_rect(self) -> QRectF:
        inv, _ok = self.viewportTransform().inverted()
        return inv.mapRect(QRectF(self.viewport().rect()))

    def scene_point(self, view_point: QPointF | QPoint) -> QPointF:
        """The exact (non-rounded) scene point under a viewport point."""
        inv, _ok = self.viewportTransform().inverted()
        return inv.map(QPointF(view_point))

    # -- events ----------------------------------------------------------------------------

    def wheelEvent(self, event: QWheelEvent) -> None:
        delta = event.angleDelta().y() or event.angleDelta().x()
        if delta == 0:
            event.ignore()
            return
        self.set_zoom(self._percent * WHEEL_STEP ** (delta / 120.0), event.position())
        event.accept()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        hb, vb = self.horizontalScrollBar(), self.verticalScrollBar()
        step_x, step_y = self.viewport().width() // 8, self.viewport().height() // 8
        if key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.zoom_in()
        elif key in (Qt.Key.Key_Minus, Qt.Key.Key_Underscore):
            self.zoom_out()
        elif key == Qt.Key.Key_0:
            self.set_zoom(100)
        elif key == Qt.Key.Key_Home:
            self.fit()
        elif key == Qt.Key.Key_Left:
            hb.setValue(hb.value() - step_x)
        elif key == Qt.Key.Key_Right:
            hb.setValue(hb.value() + step_x)
        elif key == Qt.Key.Key_Up:
            vb.setValue(vb.value() - step_y)
        elif key == Qt.Key.Key_Down:
            vb.setValue(vb.value() + step_y)
        elif key == Qt.Key.Key_Escape and self._drag is not None:
            self._cancel_drag()
        else:
            super().keyPressEvent(event)
            return
        event.accept()

    def _stack_item_at(self, view_pos: QPointF) -> PieceItem | None:
        for it in self.items(view_pos.toPoint()):
            if isinstance(it, PieceItem):
                return it
        return None

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self._press_empty = None
        if event.button() == Qt.MouseButton.LeftButton and self.board is not None:
            item = self._stack_item_at(event.position())
            if item is not None:
                loc = item.piece.location
                stack = self.map_scene.stack_at(loc)
                whole = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
                top = stack[-1] if stack else item.piece_id
                chosen = self._selected if self._selected in stack else top
                if self.map_scene.box_of(loc) is not None:
                    chosen = top = item.piece_id  # pieces in a box lie side by side
                ids = stack if whole else [chosen]
                top_item = self.map_scene.piece_items[chosen if not whole else top]
                grab = self.scene_point(event.position()) - top_item.pos()
                self._drag = _Drag(loc, event.position(), ids, whole, grab)
                event.accept()
                return
            self._press_empty = event.position()
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        drag = self._drag
        if drag is not None:
            if not drag.active:
                dist = (event.position() - drag.press_view).manhattanLength()
                if dist >= QApplication.startDragDistance():
                    self._start_drag(drag)
            if drag.active:
                self._move_drag(drag, event.position())
            event.accept()
            return
        super().mouseMoveEvent(event)
        self._update_hover(event.position())

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        drag = self._drag
        if drag is not None and event.button() == Qt.MouseButton.LeftButton:
            self._drag = None
            if drag.active:
                self._end_drag_visuals(drag)
                loc = self._location_at_view(event.position())
                if loc is not None and loc != drag.origin:
                    if drag.whole_stack:
                        self.stackDropped.emit(drag.origin, loc)
                    else:
                        self.pieceDropped.emit(drag.piece_ids[0], loc)
            else:
                self._click_stack(drag)
            event.accept()
            return
        press = self._press_empty
        self._press_empty = None
        super().mouseReleaseEvent(event)
        if press is not None and event.button() == Qt.MouseButton.LeftButton:
            if (event.position() - press).manhattanLength() < QApplication.startDragDistance():
                loc = self._location_at_view(event.position())
                if loc is not None:
                    self.locationClicked.emit(loc)

    def leaveEvent(self, event: Any) -> None:
        if self._hover is not None:
            self._hover = None
            self.hoverChanged.emit("")
        super().leaveEvent(event)

    def _click_stack(self, drag: _Drag) -> None:
        top = drag.piece_ids[-1]
        if top != self._selected:
            self.select_piece(top)
            self.pieceSelected.emit(top)
        self.locationClicked.emit(drag.origin)
        self.stackClicked.emit(drag.origin)

    def _location_at_view(self, pos: QPointF) -> str | None:
        board = self.board
        if board is None:
            return None
        p = self.scene_point(pos)
        return board.location_at(p.x(), p.y())

    def _update_hover(self, pos: QPointF) -> None:
        loc = self._location_at_view(pos)
        if loc == self._hover:
            return
        self._hover = loc
        self.hoverChanged.emit(self.describe(loc))

    def describe(self, loc: str | None) -> str:
        """The hover text of a location: the map's describe(), a box's name, or ""."""
        board = self.board
        if board is None or loc is None:
            return ""
        if loc.startswith(BOX_PREFIX):
            for b in board.boxes:
                if BOX_PREFIX + b.id == loc:
                    return b.name
        try:
            return board.describe(loc)
        except KeyError:
            return ""

    # -- dragging ----------------------------------------------------------------------------

    def _start_drag(self, drag: _Drag) -> None:
        drag.active = True
        for it in self._highlight_items:  # the selection's legal moves give way to the drag's
            if isinstance(it, HighlightItem | CostBadgeItem) and it.loc in self._legal.get(
                    self._selected or "", ()):
                it.setVisible(False)
        dests, costs = self._legal_for(drag.piece_ids)
        self._drag_items = self._make_highlights(dests, "legal", costs)
        for i, pid in enumerate(drag.piece_ids):
            self.map_scene.piece_items[pid].setZValue(Z_DRAG + i * 0.01)
        self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)

    def _move_drag(self, drag: _Drag, view_pos: QPointF) -> None:
        scene = self.map_scene
        p = self.scene_point(view_pos) - drag.grab
        d = STACK_STEP * scene.counter
        n = len(drag.piece_ids)
        for i, pid in enumerate(drag.piece_ids):
            k = n - 1 - i
            scene.piece_items[pid].setPos(p.x() - k * d, p.y() + k * d)
        loc = self._location_at_view(view_pos)
        if self._drop_item is not None and (loc is None or self._drop_item.loc != loc):
            scene.removeItem(self._drop_item)
            self._drop_item = None
        if loc is not None and self._drop_item is None and loc != drag.origin:
            self._drop_item = HighlightItem(scene, loc, "drop")
            scene.addItem(self._drop_item)
        if loc != self._hover:
            self._hover = loc
            self.hoverChanged.emit(self.describe(loc))

    def _end_drag_visuals(self, drag: _Drag | None = None) -> None:
        for it in self._drag_items:
            self.map_scene.removeItem(it)
        self._drag_items = []
        if self._drop_item is not None:
            self.map_scene.removeItem(self._drop_item)
            self._drop_item = None
        for it in self._highlight_items:
            it.setVisible(True)
        # Counters go home; `set_pieces` moves them if the engine accepts the move.
        for loc in ({drag.origin} if drag is not None else set(self.map_scene.stacks)):
            self.map_scene.layout_stack(loc)
        self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)

    def _cancel_drag(self) -> None:
        drag = self._drag
        self._drag = None
        if drag is not None and drag.active:
            self._end_drag_visuals(drag)

    def dragging(self) -> bool:
        return self._drag is not None and self._drag.active


# --- the overview ------------------------------------------------------------------------------


class OverviewMap(QWidget):
    """The whole map in miniature with the view's rectangle; click or drag to pan the view.

    The map is rendered once into a QImage (again only when the board or the widget's size
    changes); each repaint blits it and draws the counters' positions and the rectangle.
    """

    def __init__(self, view: MapView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view = view
        self._image: QImage | None = None
        self._target = QRectF()
        self.renders = 0
        self.setMinimumSize(120, 80)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        view.boardChanged.connect(self.invalidate)
        view.viewChanged.connect(self.update)

    def sizeHint(self) -> QSize:
        return QSize(260, 170)

    def invalidate(self) -> None:
        self._image = None
        self.update()

    def resizeEvent(self, event: QResizeEvent) -> None:
        self._image = None
        super().resizeEvent(event)

    def _map_target(self) -> QRectF:
        r = self.view.map_scene.map_rect
        w, h = self.width(), self.height()
        if r.isEmpty():
            return QRectF()
        k = min((w - 4) / r.width(), (h - 4) / r.height())
        tw, th = r.width() * k, r.height() * k
        return QRectF((w - tw) / 2, (h - th) / 2, tw, th)

    def _ensure_image(self) -> None:
        if self._image is not None:
            return
        self._target = self._map_target()
        img = QImage(max(1, self.width()), max(1, self.height()),
                     QImage.Format.Format_ARGB32_Premultiplied)
        img.fill(QColor("#3a3f44"))
        if not self._target.isEmpty():
            p = QPainter(img)
            self.view.map_scene.paint_map(p, self._target)
            p.end()
        self._image = img
        self.renders += 1

    def _to_widget(self) -> QTransform:
        r = self.view.map_scene.map_rect
        t = self._target
        if r.isEmpty() or t.isEmpty():
            return QTransform()
        k = t.width() / r.width()
        return QTransform(k, 0, 0, k, t.left() - r.left() * k, t.top() - r.top() * k)

    def paintEvent(self, event: QPaintEvent) -> None:
        self._ensure_image()
        p = QPainter(self)
        assert self._image is not None
        p.drawImage(0, 0, self._image)
        if self.view.board is not None:
            tr = self._to_widget()
            scene = self.view.map_scene
            # Stacks as dots in their side's colour (the top counter's).
            p.setPen(QPen(QColor(0, 0, 0, 160), 1))
            for ids in scene.stacks.values():
                if not ids:
                    continue
                top = scene.piece_items[ids[-1]]
                c = tr.map(top.pos())
                p.setBrush(QColor(scene.side_fill(scene.side_of(top.piece))))
                p.drawRect(QRectF(c.x() - 2, c.y() - 2, 4, 4))
            vis = tr.mapRect(self.view.visible_scene_rect()).intersected(QRectF(self.rect()))
            p.setBrush(QColor(255, 255, 255, 40))
            p.setPen(QPen(QColor("#ffd400"), 2))
            p.drawRect(vis)
        p.end()

    def _pan_to(self, pos: QPointF) -> None:
        inv, ok = self._to_widget().inverted()
        if ok and self.view.board is not None:
            self.view.centerOn(inv.map(pos))

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._ensure_image()
            self._pan_to(event.position())
            event.accept()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if event.buttons() & Qt.MouseButton.LeftButton:
            self._pan_to(event.position())
            event.accept()


# --- the stack inspector -----------------------------------------------------------------------


class StackInspector(QWidget):
    """The pieces at one location, top of the stack first, with their counters."""

    pieceSelected = Signal(str)
    topRequested = Signal(str)  # piece id: its owner shows it on top of its stack [7.3]

    ICON_PX = 56

    def __init__(self, parent: QWidget | None = None,
                 cache: CounterPixmapCache | None = None) -> None:
        super().__init__(parent)
        self._cache = cache or CounterPixmapCache(500)
        self.title = QLabel("No stack selected")
        self.title.setWordWrap(True)
        self.list = QListWidget()
        self.list.setIconSize(QSize(self.ICON_PX, self.ICON_PX))
        self.list.setSpacing(2)
        self.list.itemSelectionChanged.connect(self._on_selection)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.title)
        lay.addWidget(self.list)
        # [7.3] 1940: What If?: the owner chooses which unit the enemy sees on top.
        self.top_button = QPushButton("Show this unit on top (7.3)")
        self.top_button.setObjectName("stackTopButton")
        self.top_button.setToolTip("The enemy sees only the top unit of a stack [7.3]: put "
                                   "the selected unit of yours there (a free action).")
        self.top_button.clicked.connect(self._request_top)
        self.top_button.hide()
        lay.addWidget(self.top_button)
        self.top_action = QAction(self.top_button.text(), self.list)  # the same, right-click
        self.top_action.triggered.connect(self._request_top)
        self.list.addAction(self.top_action)
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.top_sides: frozenset[str] = frozenset()  # sides that may choose tops now
        self._sides: dict[str, str] = {}  # piece id -> side
        self.location = ""
        self._ids: list[str] = []
        self.palette_name: Palette = "standard"

    def set_stack(self, location: str, pieces: Sequence[Piece],
                  definition: CounterDefinition, title: str | None = None) -> None:
        """Show `pieces` (bottom of the stack first, as on the map) at `location`."""
        self.location = location
        sides = {s.id: s for s in definition.sides}
        self.list.blockSignals(True)
        self.list.clear()
        self._ids = []
        self._sides = {p.id: p.side for p in pieces}
        n = len(pieces)
        self.title.setText(title or (f"{location}: {n} piece{'s' if n != 1 else ''}"
                                     if location else "No stack selected"))
        dpr = self.devicePixelRatioF()
        for p in reversed(pieces):
            ut = definition.unit_types.get(p.type, _FALLBACK_TYPE)
            side = sides.get(p.side) or Side(p.side, p.side, "#b0b0b0")
            pm = self._cache.pixmap(ut, side, p.attrs, self.ICON_PX * dpr, dpr,
                                    self.palette_name)
            name = str(p.attrs.get("name") or ut.name)
            factors = factor_text(ut, p.attrs)
            extra = ", ".join(f"{k}: {v}" for k, v in sorted(p.attrs.items()) if k != "name")
            lines = [name, f"{side.name} {ut.name}" + (f"  {factors}" if factors else "")]
            if extra:
                lines.append(extra)
            it = QListWidgetItem(QIcon(pm), "\n".join(lines))
            it.setData(Qt.ItemDataRole.UserRole, p.id)
            it.setToolTip(f"{p.id} ({p.type})")
            self.list.addItem(it)
            self._ids.append(p.id)
        self.list.blockSignals(False)
        self._update_top()

    def set_palette(self, name: Palette) -> None:
        """Counter colours for the next `set_stack`: "standard" or "colourblind"."""
        self.palette_name = name

    def piece_ids(self) -> list[str]:
        """The listed pieces, top of the stack first."""
        return list(self._ids)

    def select(self, piece_id: str | None) -> None:
        """Select a row without emitting pieceSelected (to follow the map's selection)."""
        self.list.blockSignals(True)
        self.list.clearSelection()
        if piece_id in self._ids:
            self.list.setCurrentRow(self._ids.index(piece_id))
        self.list.blockSignals(False)
        self._update_top()

    def set_top_sides(self, sides: frozenset[str]) -> None:
        """The sides whose units may be put on top now [7.3] (empty: no such choice)."""
        self.top_sides = sides
        self._update_top()

    def _selected(self) -> str | None:
        items = self.list.selectedItems()
        return str(items[0].data(Qt.ItemDataRole.UserRole)) if items else None

    def _update_top(self) -> None:
        pid = self._selected()
        self.top_button.setVisible(bool(self.top_sides) and len(self._ids) > 1)
        self.top_button.setEnabled(pid is not None and self._sides.get(pid) in self.top_sides)
        self.top_action.setVisible(self.top_button.isEnabled())

    def _request_top(self) -> None:
        pid = self._selected()
        if pid is not None and self._sides.get(pid) in self.top_sides:
            self.topRequested.emit(pid)

    def _on_selection(self) -> None:
        self._update_top()
        items = self.list.selectedItems()
        if items:
            self.pieceSelected.emit(str(items[0].data(Qt.ItemDataRole.UserRole)))


__all__ = [
    "AREA_SPACE_PX_AT_100",
    "HEX_PX_AT_100",
    "LABEL_MIN_HEX_PX",
    "MAX_ZOOM",
    "MIN_ZOOM",
    "ZOOM_PRESETS",
    "MapScene",
    "MapView",
    "OverviewMap",
    "StackInspector",
    "base_scale",
    "counter_size",
    "labels_visible",
]
