"""Text on the map, drawn in device pixels: laid out once, drawn many times."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QPainter,
    QStaticText,
    QTransform,
)

from wartable.ui.counters import counter_font_family


class TextCache:
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


def draw_haloed(painter: QPainter, cache: TextCache, pos: QPointF, text: str, px: int,
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

