"""A large, temporary display of each roll and its result over the map, readable from
across a table: "Attack on 1105: roll 4, +1 ... = 6 → defender eliminated"."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QLabel, QWidget

from wartable.engine.actions import Event

SHOWN_KINDS = frozenset({"dice", "combat", "procedure", "victory"})
SHOW_MS = 4500


class DiceDisplay(QLabel):
    """Overlay on `host` (the map view): top centre of its viewport, hidden after a while.

    A child of the view, not of its viewport: scrolling moves a viewport's children."""

    def __init__(self, host: QWidget) -> None:
        super().__init__(host)
        self.setObjectName("diceDisplay")
        self.setWordWrap(True)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setStyleSheet("QLabel#diceDisplay { background: rgba(20, 24, 30, 215); color: white;"
                           " border-radius: 10px; padding: 12px 18px; }")
        self.hide()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.hide)
        self._large = False
        self._apply_font()
        host.installEventFilter(self)

    def set_large(self, large: bool) -> None:
        """Table mode: text big enough to read from the other side of the table."""
        self._large = large
        self._apply_font()
        self._place()

    def _apply_font(self) -> None:
        f = QFont(self.font())
        f.setPointSizeF(22.0 if self._large else 13.0)
        f.setBold(True)
        self.setFont(f)

    def show_events(self, events: Sequence[Event]) -> bool:
        """Show the rolls and results among `events`; True if anything was shown."""
        shown = [e for e in events if e.kind in SHOWN_KINDS]
        if any(e.kind != "dice" for e in shown):
            # A result line repeats the roll with its modifiers: the bare roll is noise.
            shown = [e for e in shown if e.kind != "dice"]
        lines = [e.text for e in shown]
        if not lines:
            return False
        self.setText("\n".join(lines[-4:]))
        self._place()
        self.show()
        self.raise_()
        self._timer.start(SHOW_MS * (2 if self._large else 1))
        return True

    def _place(self) -> None:
        host = self.parentWidget()
        if host is None:
            return
        area = host.viewport().geometry() if hasattr(host, "viewport") else host.rect()
        width = max(200, int(area.width() * (0.8 if self._large else 0.6)))
        self.setFixedWidth(width)
        h = self.heightForWidth(width)  # wrapped text needs its own height (-1: no text yet)
        self.setFixedHeight(h if h > 0 else self.sizeHint().height())
        self.move(area.x() + (area.width() - self.width()) // 2, area.y() + 16)

    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:  # noqa: N802 - Qt override
        if ev.type() == QEvent.Type.Resize and self.isVisible():
            # Filters run before the view lays out its viewport: place after it has.
            QTimer.singleShot(0, self._place)
        return False
