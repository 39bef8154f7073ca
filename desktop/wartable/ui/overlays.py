"""Map overlays (View menu): marks a game computes on its pieces (engine/overlays.py),
drawn here on the counters, whatever the game (issue 14). The 1940 supply overlay is one:
its marks and their reasons come from the game; this module only draws them."""

from __future__ import annotations

import time
from collections.abc import Sequence

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QAction, QColor, QFont, QPainter, QPen, QTransform
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from wartable.engine.overlays import Overlay, PieceMark
from wartable.ui.map.items import PieceItem
from wartable.ui.map.scale import lod_of
from wartable.ui.map.view import MapView
from wartable.worker.commands import Snapshot


class MarkerItem(QGraphicsItem):
    """The marker on one counter, a child of its PieceItem (it follows the counter)."""

    def __init__(self, parent: PieceItem, mark: PieceMark) -> None:
        super().__init__(parent)
        self.mark = mark
        self.kind = mark.kind
        self.reason = mark.tooltip
        self.piece_id = parent.piece_id
        s = parent.map_scene.counter
        self._s = s
        self.setPos(-0.5 * s, -0.5 * s)  # the counter's top-left corner
        self.setZValue(1.0)
        self.setToolTip(mark.tooltip)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setAcceptHoverEvents(True)

    def boundingRect(self) -> QRectF:
        r = 0.3 * self._s
        return QRectF(-r, -r, 2 * r, 2 * r)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        lod = lod_of(painter)
        r = min(max(0.2 * self._s, 9 / lod), 0.3 * self._s)
        colour, letter = self.mark.colour, self.mark.letter
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(QPen(QColor("#ffffff"), 1.5 / lod))
        painter.setBrush(QColor(colour))
        painter.drawEllipse(QPointF(0, 0), r, r)
        if not letter:  # no supply: a white barred ring
            pen = QPen(QColor("#ffffff"), max(0.22 * r, 1.2 / lod))
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(QPointF(0, 0), 0.55 * r, 0.55 * r)
            d = 0.39 * r
            painter.drawLine(QPointF(-d, d), QPointF(d, -d))
            return
        world = painter.worldTransform()
        c = world.map(QPointF(0, 0))
        px = max(7, int(r * lod * 1.3))
        painter.save()
        painter.setWorldTransform(QTransform())
        f = QFont()
        f.setPixelSize(px)
        f.setBold(True)
        painter.setFont(f)
        painter.setPen(QColor("#ffffff"))
        painter.drawText(QRectF(c.x() - px, c.y() - px, 2 * px, 2 * px),
                         int(Qt.AlignmentFlag.AlignCenter), letter)
        painter.restore()


class OverlayLayer:
    """One overlay of the open game: its View-menu entry, and while it is on, the marks
    kept in step with each snapshot on every map view."""

    def __init__(self, overlay: Overlay, action: QAction) -> None:
        self.overlay = overlay
        self.action = action
        self.enabled = False
        self.items: list[MarkerItem] = []
        self.last_ms = 0.0  # time of the last computation, for the status bar and tests
        self._snap: Snapshot | None = None
        self._views: Sequence[MapView] = ()

    def set_enabled(self, on: bool) -> None:
        self.enabled = on
        self.refresh(self._snap, self._views)

    def refresh(self, snap: Snapshot | None, views: Sequence[MapView]) -> None:
        self._snap, self._views = snap, views
        self.clear()
        if not self.enabled or snap is None:
            return
        t = time.perf_counter()
        marks = self.overlay.marks(snap.session.game, snap.session.state)
        self.last_ms = (time.perf_counter() - t) * 1000
        for v in views:  # only the counters drawn: hidden units have no item to mark
            for pid, item in v.map_scene.piece_items.items():
                if pid in marks:
                    self.items.append(MarkerItem(item, marks[pid]))

    def clear(self) -> None:
        for m in self.items:
            scene = m.scene()
            if scene is not None:
                scene.removeItem(m)
        self.items = []

    def summary(self) -> str:
        marks = {m.piece_id: m.mark for m in self.items}  # the counters shown
        return f"{self.overlay.summary(marks)} (computed in {self.last_ms:.1f} ms)"
