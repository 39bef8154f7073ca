"""The static map layers drawn from geometry: terrain, hexsides, grid, places, labels.

Layers (z order): terrain fills (grouped per terrain type and per spatial chunk, so a frame
fills a handful of paths and skips chunks outside the exposed rect), terrain patterns,
hexside features (rivers, coasts, borders), the hex grid, place symbols, labels (hex numbers,
place and space names; drawn in device pixels and only when legible), off-map boxes,
highlight fills, counters (one item per piece, stacks offset diagonally), cost badges, and
the dragged counter on top.

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
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFontMetricsF,
    QImage,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
    QTransform,
)

from wartable.core.hexgrid import Hexside, hexside_endpoints
from wartable.maps.model import AreaMap, BoardMap, HexMap
from wartable.printing.counterart import mix
from wartable.ui.map.scale import (
    CHUNK_HEXES,
    GRID_MIN_HEX_PX,
    LABEL_MIN_HEX_PX,
    PATTERN_MIN_HEX_PX,
    PLACE_NAME_MIN_HEX_PX,
    cell_px,
    counter_size,
    hex_across,
    typical_space_size,
)
from wartable.ui.map.style import INK, LAND_FILL, PLACE_STYLE, SEA_FILL, SIDE_ORDER, SIDE_STYLES
from wartable.ui.map.text import TextCache, draw_haloed


def line_pen(colour: QColor, width: float, lod: float,
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




@dataclass
class Chunk:
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


def build_hex_chunks(board: HexMap) -> list[Chunk]:
    """Group a hex map's geometry into chunks of paths (built once per board)."""
    lay = board.layout
    across = hex_across(board)
    r = min(lay.size_x, lay.size_y)
    offs = lay.corner_offsets()
    cw = CHUNK_HEXES * across
    chunks: dict[tuple[int, int], Chunk] = {}
    on_map = board.hexes

    def chunk_at(x: float, y: float) -> tuple[tuple[int, int], Chunk]:
        key = (math.floor(x / cw), math.floor(y / cw))
        ch = chunks.get(key)
        if ch is None:
            ch = chunks[key] = Chunk(QRectF())
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


class MapLayer:
    """A static map layer: draws the part of the map in `exposed` at a level of detail. Layers
    only read their `StaticMap`, so tile workers may draw them off the GUI thread."""

    def __init__(self, static: StaticMap) -> None:
        self.static = static

    def draw(self, painter: QPainter, exposed: QRectF, lod: float, texts: TextCache) -> None:
        raise NotImplementedError


class TerrainLayer(MapLayer):
    def draw(self, painter: QPainter, exposed: QRectF, lod: float, texts: TextCache) -> None:
        board = self.static.board
        if isinstance(board, HexMap):
            painter.setPen(Qt.PenStyle.NoPen)
            colours = {t: QColor(tt.fill) for t, tt in board.terrain_types.items()}
            # Fills without antialiasing: adjacent hexes then meet with no hairline seams,
            # and the grid drawn on top hides the stair-steps.
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
            for ch in self.static.chunks:
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
                for ch in self.static.chunks:
                    if not ch.bounds.intersects(exposed):
                        continue
                    for t, path in ch.patterns.items():
                        painter.setPen(line_pen(inks[t], 0.02 * hex_across(board), lod,
                                                Qt.PenCapStyle.FlatCap))
                        painter.drawPath(path)
        elif isinstance(board, AreaMap):
            for sid, path, bounds in self.static.space_paths:
                if not bounds.intersects(exposed):
                    continue
                sea = board.spaces[sid].kind == "sea"
                painter.setBrush(QColor(SEA_FILL if sea else LAND_FILL))
                painter.setPen(Qt.PenStyle.NoPen)
                painter.drawPath(path)
            # Borders after all fills so a neighbour's fill never covers them.
            for sid, path, bounds in self.static.space_paths:
                if not bounds.intersects(exposed):
                    continue
                sea = board.spaces[sid].kind == "sea"
                # 1 px cosmetic: the raster engine's fast path (see line_pen).
                pen = QPen(QColor("#7d9cc0" if sea else "#4a3c2c"), 1.0)
                pen.setCosmetic(True)
                painter.setPen(pen)
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawPath(path)


class HexsideLayer(MapLayer):
    def draw(self, painter: QPainter, exposed: QRectF, lod: float, texts: TextCache) -> None:
        board = self.static.board
        if not isinstance(board, HexMap):
            return
        r = min(board.layout.size_x, board.layout.size_y)
        feats = list(SIDE_ORDER) + sorted(
            {f for ch in self.static.chunks for f in ch.sides} - set(SIDE_ORDER))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for f in feats:
            colour, width, style = SIDE_STYLES.get(f, ("#777777", 0.06, Qt.PenStyle.DotLine))
            pen = QPen(QColor(colour), max(width * r, 1.2 / lod), style, Qt.PenCapStyle.RoundCap,
                       Qt.PenJoinStyle.RoundJoin)
            painter.setPen(pen)
            for ch in self.static.chunks:
                path = ch.sides.get(f)
                if path is not None and ch.bounds.intersects(exposed):
                    painter.drawPath(path)


class GridLayer(MapLayer):
    def draw(self, painter: QPainter, exposed: QRectF, lod: float, texts: TextCache) -> None:
        board = self.static.board
        if not isinstance(board, HexMap):
            return
        px = cell_px(board, lod)
        if px < GRID_MIN_HEX_PX:
            return
        # Thin and faint when hexes are small, a printed-map line weight when large.
        alpha = int(min(150, 60 + 2 * px))
        painter.setPen(line_pen(QColor(40, 35, 25, alpha), 0.02 * hex_across(board), lod))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for ch in self.static.chunks:
            if ch.bounds.intersects(exposed):
                painter.drawPath(ch.grid)




class PlaceLayer(MapLayer):
    """City, town, port and fortress symbols (always drawn: they are part of the map)."""

    def draw(self, painter: QPainter, exposed: QRectF, lod: float, texts: TextCache) -> None:
        scene = self.static
        board = scene.board
        if not isinstance(board, HexMap) or cell_px(board, lod) < 6:
            return
        r = min(board.layout.size_x, board.layout.size_y)
        painter.setPen(QPen(QColor("#1b1b1b"), max(0.03 * r, 0.8 / lod)))
        for _name, kind, x, y in scene.place_points:
            shape, fill, rad = PLACE_STYLE.get(kind, PLACE_STYLE["other"])
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



# Which place names win when two would overlap: capitals first, then cities, ports...
_PLACE_PRIORITY = {"capital": 0, "city": 1, "port": 2, "fortress": 3, "town": 4}


class LabelLayer(MapLayer):
    """Hex numbers, place names and space names, in device pixels, by level of detail."""

    def __init__(self, static: StaticMap) -> None:
        super().__init__(static)
        self.drawn = 0  # labels drawn by the last recorded paint (tests read it)
        # Place-name layout per (scale, size): place index -> text box relative to the
        # place's point, in device pixels. The whole map is laid out at once so a partial
        # repaint (or a tile) draws exactly the names a full one would.
        self._layouts: dict[tuple[float, int], dict[int, QRectF]] = {}
        self.placed: list[tuple[str, QRectF]] = []  # names drawn by the last paint (tests)

    def place_layout(self, lod: float, size: int, across: float,
                     texts: TextCache) -> dict[int, QRectF]:
        """Greedy, collision-free place names: each name goes below its symbol, else to the
        right, left or above; a name that fits nowhere is left out at this zoom (the more
        important place keeps its name). Pure scaling, so boxes are in scaled scene units."""
        key = (round(lod, 5), size)
        got = self._layouts.get(key)
        if got is not None:
            return got
        if len(self._layouts) > 64:
            self._layouts.clear()
        points = self.static.place_points
        order = sorted(range(len(points)),
                       key=lambda i: (_PLACE_PRIORITY.get(points[i][1], 5), i))
        gap = 0.3 * across * lod  # from the place's point to the edge of its symbol
        taken: list[QRectF] = []
        out: dict[int, QRectF] = {}
        for i in order:
            name, _kind, x, y = points[i]
            sz = texts.text(name, size, True).size()
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

    def draw(self, painter: QPainter, exposed: QRectF, lod: float, texts: TextCache) -> None:
        self.draw_labels(painter, exposed, lod, texts, record=False)

    def draw_labels(self, painter: QPainter, exposed: QRectF, lod: float, texts: TextCache,
                    record: bool) -> None:
        """Draw; `record` (GUI thread only) keeps `drawn` and `placed` for tests."""
        drawn = 0
        placed: list[tuple[str, QRectF]] = []
        scene = self.static
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
                painter.setFont(texts.font(size))
                painter.setPen(ink)
                for ch in scene.chunks:
                    if not ch.bounds.intersects(exposed):
                        continue
                    for label, cx, cy in ch.hexes:
                        if not area.contains(cx, cy):
                            continue
                        p = world.map(QPointF(cx, cy - 0.5 * across))
                        st = texts.text(label, size)
                        painter.drawStaticText(
                            QPointF(p.x() - st.size().width() / 2, p.y() + 0.04 * px), st)
                        drawn += 1
            if px >= PLACE_NAME_MIN_HEX_PX:
                size = int(max(9, min(16, 0.18 * px)))
                layout = self.place_layout(lod, size, across, texts)
                near = exposed.adjusted(-4 * across, -across, 4 * across, across)
                for i, rel in layout.items():
                    name, _kind, x, y = scene.place_points[i]
                    if not near.contains(x, y):
                        continue
                    box = rel.translated(world.map(QPointF(x, y)))
                    draw_haloed(painter, texts, box.center(), name,
                                 size, QColor(INK), True, QColor(255, 255, 255, 200))
                    placed.append((name, box))
                    drawn += 1
        elif isinstance(board, AreaMap):
            size = int(max(9, min(15, 0.09 * px)))
            fm = QFontMetricsF(texts.font(size, True))
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
                draw_haloed(painter, texts, world.map(QPointF(x, y)), sp.name, size,
                             colour, not sea, QColor(255, 255, 255, 170))
                drawn += 1
        painter.restore()
        if record:
            self.drawn, self.placed = drawn, placed


def shape_path(geom: Any) -> QPainterPath:
    """A QPainterPath (odd-even, so holes stay holes) of a shapely Polygon/MultiPolygon."""
    path = QPainterPath()
    path.setFillRule(Qt.FillRule.OddEvenFill)
    polys = list(geom.geoms) if hasattr(geom, "geoms") else [geom]
    for poly in polys:
        for ring in [poly.exterior, *poly.interiors]:
            path.addPolygon(QPolygonF([QPointF(float(x), float(y)) for x, y in ring.coords]))
            path.closeSubpath()
    return path




@dataclass(frozen=True)
class Underlay:
    """A picture drawn with the map, above the terrain fills and below the hexsides (the
    calibrated scan of the printed map, ui/underlay.py)."""

    image: QImage
    transform: QTransform  # image pixels -> map units
    opacity: float

    def bounds(self) -> QRectF:
        return self.transform.mapRect(QRectF(self.image.rect()))


class StaticMap:
    """The static map of one board: the geometry the layers draw, built once per board on
    the GUI thread and then only read, so tile workers can draw it on their threads."""

    def __init__(self, board: BoardMap, cell: float = 1.0) -> None:
        self.board = board
        x0, y0, x1, y1 = board.bounds()
        self.map_rect = QRectF(x0, y0, x1 - x0, y1 - y0)
        self.cell = cell  # a hex across (or a typical space), map units
        self.chunks: list[Chunk] = []
        self.space_paths: list[tuple[str, QPainterPath, QRectF]] = []
        self.place_points: list[tuple[str, str, float, float]] = []
        if isinstance(board, HexMap):
            self.cell = hex_across(board)
            self.chunks = build_hex_chunks(board)
            self.place_points = [(p.name, p.kind, *board.center(p.hex_or_space))
                                 for p in board.places]
        elif isinstance(board, AreaMap):
            self.cell = typical_space_size(board)
            paths = [(sid, shape_path(sp.polygon)) for sid, sp in board.spaces.items()]
            self.space_paths = [(sid, p, p.boundingRect()) for sid, p in paths]
        self.counter = counter_size(board)
        self.underlay: Underlay | None = None
        self.terrain = TerrainLayer(self)
        self.labels = LabelLayer(self)
        self.layers: list[MapLayer] = [self.terrain, HexsideLayer(self), GridLayer(self),
                                       PlaceLayer(self), self.labels]

    def draw(self, painter: QPainter, exposed: QRectF, lod: float, texts: TextCache, *,
             labels: bool = True, record: bool = False) -> None:
        """Every static layer in z order, the underlay above the terrain fills."""
        for layer in self.layers:
            if layer is self.labels:
                if labels:
                    self.labels.draw_labels(painter, exposed, lod, texts, record)
                continue
            layer.draw(painter, exposed, lod, texts)
            if layer is self.terrain and self.underlay is not None:
                self._draw_underlay(painter, self.underlay)

    @staticmethod
    def _draw_underlay(painter: QPainter, u: Underlay) -> None:
        painter.save()
        painter.setOpacity(u.opacity)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
        painter.setWorldTransform(u.transform * painter.worldTransform())
        painter.drawImage(0, 0, u.image)
        painter.restore()

    def changed_rect(self, before: StaticMap) -> QRectF | None:
        """Where this map draws differently from `before` (an edit of the same board), or
        None when everything may have changed (another board, layout, terrain colours or
        places: place names are laid out over the whole map at once)."""
        old, new = before.board, self.board
        if not (isinstance(old, HexMap) and isinstance(new, HexMap)) or old.id != new.id:
            return None
        if (old.layout != new.layout or old.terrain_types != new.terrain_types
                or old.places != new.places or old.boxes != new.boxes or old.labels != new.labels
                or set(old.hexes) != set(new.hexes)):
            return None
        lay = new.layout
        r = max(lay.size_x, lay.size_y)
        dirty = QRectF()
        for h, info in new.hexes.items():
            if old.hexes[h] != info:
                cx, cy = lay.hex_to_pixel(h)
                dirty = dirty.united(QRectF(cx - r, cy - r, 2 * r, 2 * r))
        for side in set(old.hexsides) | set(new.hexsides):
            if old.hexsides.get(side) != new.hexsides.get(side):
                (ax, ay), (bx, by) = hexside_endpoints(lay, side)
                dirty = dirty.united(QRectF(QPointF(min(ax, bx), min(ay, by)),
                                            QPointF(max(ax, bx), max(ay, by))))
        # Strokes (a major river is 0.2 hex radii wide, with round caps) and antialiasing.
        pad = 0.3 * r
        return dirty.adjusted(-pad, -pad, pad, pad) if not dirty.isNull() else QRectF()
