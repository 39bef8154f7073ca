"""The whole map in miniature, to pan the view."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import (
    QColor,
    QImage,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QResizeEvent,
    QTransform,
)
from PySide6.QtWidgets import (
    QWidget,
)

from wartable.ui.map.view import MapView


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

