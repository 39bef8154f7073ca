"""1940: What If?: the supply overlay [6.2-6.8] (View → Supply Overlay).

While on, every ground unit out of supply carries a red marker (a barred circle) on its
counter, and every unit in supply by the coast alone an amber "C" [6.4, 6.5]; the marker's
tooltip gives the reason with its rule numbers (what cut the line, or the coast). The statuses
come from `games/whatif1940/supply.py`: one trace per state (about 1-2 ms for both maps,
measured in tests/benchmarks/bench_w40.py), so the overlay computes on the GUI thread.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen, QTransform
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from wartable.games.whatif1940 import supply
from wartable.games.whatif1940.board import board_of
from wartable.ui.map.items import PieceItem
from wartable.ui.map.scale import lod_of
from wartable.ui.map.view import MapView
from wartable.worker.commands import Snapshot

GAME_ID = "whatif1940"
OOS = "oos"
COASTAL = "coastal"
STYLES = {OOS: ("#c62828", ""), COASTAL: ("#e08a00", "C")}


class SupplyMarkerItem(QGraphicsItem):
    """The marker on one counter, a child of its PieceItem (it follows the counter)."""

    def __init__(self, parent: PieceItem, kind: str, reason: str) -> None:
        super().__init__(parent)
        self.kind = kind
        self.reason = reason
        self.piece_id = parent.piece_id
        s = parent.map_scene.counter
        self._s = s
        self.setPos(-0.5 * s, -0.5 * s)  # the counter's top-left corner
        self.setZValue(1.0)
        self.setToolTip(reason)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setAcceptHoverEvents(True)

    def boundingRect(self) -> QRectF:
        r = 0.3 * self._s
        return QRectF(-r, -r, 2 * r, 2 * r)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        lod = lod_of(painter)
        r = min(max(0.2 * self._s, 9 / lod), 0.3 * self._s)
        colour, letter = STYLES[self.kind]
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


class SupplyOverlay:
    """Keeps the markers in step with the snapshot while the overlay is on."""

    def __init__(self) -> None:
        self.enabled = False
        self.items: list[SupplyMarkerItem] = []
        self.last_ms = 0.0  # time of the last full trace, for the status bar and tests
        self._snap: Snapshot | None = None
        self._views: Sequence[MapView] = ()

    def set_enabled(self, on: bool) -> None:
        self.enabled = on
        self.refresh(self._snap, self._views)

    def refresh(self, snap: Snapshot | None, views: Sequence[MapView]) -> None:
        self._snap, self._views = snap, views
        self.clear()
        if not self.enabled or snap is None or snap.session.game.definition.id != GAME_ID:
            return
        game = snap.session.game
        state = snap.session.state
        t = time.perf_counter()
        statuses = supply.all_statuses(game, board_of(game), state)
        self.last_ms = (time.perf_counter() - t) * 1000
        for v in views:
            for pid, item in v.map_scene.piece_items.items():
                s = statuses.get(pid)
                if s is None or (s.supplied and not s.coastal_only):
                    continue
                kind = OOS if not s.supplied else COASTAL
                self.items.append(SupplyMarkerItem(item, kind, s.reason))

    def clear(self) -> None:
        for m in self.items:
            scene = m.scene()
            if scene is not None:
                scene.removeItem(m)
        self.items = []

    def summary(self) -> str:
        oos = sum(1 for m in self.items if m.kind == OOS)
        coast = len(self.items) - oos
        return (f"Supply overlay: {oos} unit(s) out of supply, {coast} on coastal supply "
                f"only [6.2-6.5] (traced in {self.last_ms:.1f} ms)")
