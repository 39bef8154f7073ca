"""The scene's movable items: off-map boxes, counters, highlights and cost badges."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QPainter,
    QPainterPath,
    QPen,
    QPixmap,
    QPolygonF,
    QTransform,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

from wartable.maps.model import OffMapBox
from wartable.model.definition import Side, UnitType
from wartable.model.state import Piece
from wartable.ui.map.scale import lod_of
from wartable.ui.map.style import (
    BOX_FILL,
    HIGHLIGHT_STYLES,
    Z_BADGES,
    Z_BOXES,
    Z_COUNTERS,
    Z_HIGHLIGHT,
)
from wartable.ui.map.text import draw_haloed

if TYPE_CHECKING:
    from wartable.ui.map.scene import MapScene


class CounterDefinition(Protocol):
    """What the map needs of a game definition (GameDefinition satisfies it)."""

    @property
    def sides(self) -> tuple[Side, ...]: ...

    @property
    def unit_types(self) -> Mapping[str, UnitType]: ...



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
            draw_haloed(painter, cache, world.map(title.center()), b.name, px,
                         QColor("#f7f1e1"), True)
            painter.restore()


# --- pieces ------------------------------------------------------------------------------------

FALLBACK_TYPE = UnitType("?", "Unknown unit type", "none", (), 0, "")
BADGE_FROM = 2  # a stack of two or more shows its count (issue 16)
BADGE_MIN_PX = 18  # ...where its counters are this wide on screen: no badges over a dot map
CARGO_SCALE = 0.5  # cargo drawn on its transport, at half size


class PieceItem(QGraphicsItem):
    """One counter. Painted from the shared pixmap cache at the current zoom bucket."""

    def __init__(self, scene: MapScene, piece: Piece) -> None:
        super().__init__()
        self.map_scene = scene
        self.piece = piece
        self.stack_count = 1  # the top of a stack of two or more shows the count
        self.is_top = True
        self.cargo_of: str | None = None  # drawn small on this transport (piece id)
        self.selected = False
        self._s = scene.counter
        # The counter as last blitted, and the (scale, dpr, palette) it was drawn for.
        self._blit: QPixmap | None = None
        self._blit_key: tuple[float, float, str] | None = None
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
            self._blit_key = None
            self.update()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        scene = self.map_scene
        s = self._s
        rect = QRectF(-s / 2, -s / 2, s, s)
        world = painter.worldTransform()
        dev = painter.device()
        dpr = dev.devicePixelRatioF() if dev is not None else 1.0
        if world.m12() == 0 and world.m21() == 0 and world.m11() == world.m22():
            lod = world.m11()
            key = (lod, dpr, scene.counter_palette)
            if key != self._blit_key:
                self._blit_key = key
                self._blit = self._make_blit(lod, dpr)
            if self._blit is not None:
                # On screen: one unscaled blit of the counter and its shadow at this size.
                r = world.mapRect(rect)
                painter.setWorldTransform(QTransform())
                painter.drawPixmap(QPointF(round(r.x() * dpr) / dpr, round(r.y() * dpr) / dpr),
                                   self._blit)
                painter.setWorldTransform(world)
                self._marks(painter, lod)
                return
        lod = lod_of(painter)
        px = s * lod * dpr
        side, utype = scene.side_of(self.piece), scene.type_of(self.piece)
        if px < 7:
            # Too small for any detail: a coloured square is all the eye can see.
            painter.fillRect(rect, QColor(scene.side_fill(side)))
            return
        # A soft drop shadow lifts the counter off the map.
        painter.fillRect(rect.translated(0.05 * s, 0.06 * s), QColor(0, 0, 0, SHADOW_ALPHA))
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
        pm = scene.counter_cache.pixmap(utype, side, self.piece.attrs, px, dpr,
                                          scene.counter_palette)
        painter.drawPixmap(rect, pm, QRectF(0, 0, pm.width(), pm.height()))
        self._marks(painter, lod)

    def _make_blit(self, lod: float, dpr: float) -> QPixmap | None:
        """The counter as drawn at this scale, or None where it is only a coloured square.
        A size not drawn yet is stood in for by the nearest size drawn, scaled, and drawn
        properly a moment later (`MapScene.draw_counters_later`): zooming never waits for
        counter art."""
        scene = self.map_scene
        px = self._s * lod * dpr
        if px < 7:
            return None
        side, utype, attrs = scene.side_of(self.piece), scene.type_of(self.piece), self.piece.attrs
        cache, palette = scene.counter_cache, scene.counter_palette
        pm = cache.cached(utype, side, attrs, px, dpr, palette)
        if pm is None:
            pm = cache.nearest(utype, side, attrs, px, dpr, palette)
            if pm is None:  # never drawn at any size: draw it now
                pm = cache.pixmap(utype, side, attrs, px, dpr, palette)
            else:
                scene.draw_counters_later(self, px, dpr)
                self._blit_key = None  # not the real thing: look again next paint
                return scene.counter_blits.get(pm, round(px), dpr)
        return scene.counter_blits.get(pm, round(px), dpr)

    def _marks(self, painter: QPainter, lod: float) -> None:
        """What is drawn over the counter: moved dot, selection, stack badge."""
        s = self._s
        rect = QRectF(-s / 2, -s / 2, s, s)
        if self.piece.id in self.map_scene.moved or self.piece.attrs.get("moved"):
            # Moved this phase: a dark dot ringed in white at the bottom-right corner.
            painter.setPen(QPen(QColor("#ffffff"), 1.2 / lod))
            painter.setBrush(QColor(20, 20, 20, 220))
            painter.drawEllipse(QPointF(s * 0.36, s * 0.36), s * 0.08, s * 0.08)
        if self.selected:
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(QPen(QColor("#111111"), 4.5 / lod))
            painter.drawRect(rect.adjusted(-2 / lod, -2 / lod, 2 / lod, 2 / lod))
            painter.setPen(QPen(QColor("#ffd400"), 2.5 / lod))
            painter.drawRect(rect.adjusted(-2 / lod, -2 / lod, 2 / lod, 2 / lod))
        if self.is_top and self.stack_count >= BADGE_FROM and s * lod >= BADGE_MIN_PX:
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
        draw_haloed(painter, self.map_scene.texts, world.map(c), str(self.stack_count),
                     px, QColor("#ffffff"), True)
        painter.restore()


SHADOW_ALPHA = 70
BLITS_MB = 16  # counter blits kept: every counter face on screen at a few zoom levels


class CounterBlits:
    """Counter pixmaps scaled once to an exact device size, over their drop shadow (offset 5 %
    / 6 % of the side down-right, as the counter is lifted off the map): drawn each frame with
    no scaling and no separate shadow. Least recently used first, within BLITS_MB."""

    def __init__(self, budget_mb: float = BLITS_MB) -> None:
        self.budget = int(budget_mb * 1024 * 1024)
        self.nbytes = 0
        self._cache: OrderedDict[tuple[int, int, float], QPixmap] = OrderedDict()

    def __len__(self) -> int:
        return len(self._cache)

    def get(self, pm: QPixmap, w: int, dpr: float) -> QPixmap:
        key = (pm.cacheKey(), w, dpr)
        got = self._cache.get(key)
        if got is not None:
            self._cache.move_to_end(key)
            return got
        dx, dy = round(0.05 * w), round(0.06 * w)
        out = QPixmap(w + dx, w + dy)
        out.fill(Qt.GlobalColor.transparent)
        p = QPainter(out)
        p.fillRect(dx, dy, w, w, QColor(0, 0, 0, SHADOW_ALPHA))
        p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
        p.drawPixmap(QRectF(0, 0, w, w), pm, QRectF(0, 0, pm.width(), pm.height()))
        p.end()
        out.setDevicePixelRatio(dpr)
        self._cache[key] = out
        self.nbytes += out.width() * out.height() * 4
        while self.nbytes > self.budget and len(self._cache) > 1:
            old = self._cache.popitem(last=False)[1]
            self.nbytes -= old.width() * old.height() * 4
        return out


class BattleMarkerItem(QGraphicsItem):
    """A battle is due in this space: a red disc with crossed swords over its stacks."""

    def __init__(self, scene: MapScene, loc: str) -> None:
        super().__init__()
        self.map_scene = scene
        self.loc = loc
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setZValue(Z_BADGES)
        board = scene.board
        assert board is not None
        x, y = board.center(loc)
        s = scene.counter
        self.setPos(x, y - 0.95 * s)  # above the space's stacks and their count badges
        self._r = 0.24 * s

    def boundingRect(self) -> QRectF:
        r = self._r * 1.2
        return QRectF(-r, -r, 2 * r, 2 * r)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        lod = lod_of(painter)
        r = max(self._r, 9 / lod)
        painter.setPen(QPen(QColor("#ffffff"), 2 / lod))
        painter.setBrush(QColor(190, 20, 20, 235))
        painter.drawEllipse(QPointF(0, 0), r, r)
        pen = QPen(QColor("#ffffff"), max(0.16 * r, 1.6 / lod))
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        painter.setPen(pen)
        k = 0.5 * r
        painter.drawLine(QPointF(-k, -k), QPointF(k, k))  # two crossed blades
        painter.drawLine(QPointF(k, -k), QPointF(-k, k))
        h = 0.22 * r  # their hilts
        painter.drawLine(QPointF(-k + h, k + h * 0.2), QPointF(-k - h * 0.2, k - h))
        painter.drawLine(QPointF(k - h, k + h * 0.2), QPointF(k + h * 0.2, k - h))


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
        # Drawn once per zoom into a device pixmap, then blitted over the tiles each frame.
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

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
        draw_haloed(painter, self.map_scene.texts, c, self.text, px, QColor("#ffffff"),
                     True)
        painter.restore()


# --- the scene ---------------------------------------------------------------------------------
