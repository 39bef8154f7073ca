"""Small widget helpers shared by the panels."""

from __future__ import annotations

from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QWidget


def discard(w: QWidget) -> None:
    """Take a widget out of its layout now (deleteLater alone leaves it on screen until
    the event loop runs deferred deletes, so rebuilt lists showed doubles)."""
    w.hide()
    w.setParent(None)
    w.deleteLater()


ERROR_INK = "#b00020"  # why an action is refused
QUIET_INK = "#555"  # rule references and other secondary text


def wrapped_label(name: str, ink: str = "") -> QLabel:
    """A word-wrapping label with an object name (tests find it by name), optionally in
    the error or quiet ink."""
    lab = QLabel()
    lab.setObjectName(name)
    lab.setWordWrap(True)
    if ink:
        lab.setStyleSheet(f"color: {ink};")
    return lab


def scrolled(inner: QWidget, framed: bool = False) -> QScrollArea:
    """`inner` in a scroll area that resizes it to the area's width; frameless unless
    `framed` (a panel that must scroll on small screens or in table mode)."""
    area = QScrollArea()
    area.setWidget(inner)
    area.setWidgetResizable(True)
    if not framed:
        area.setFrameShape(QFrame.Shape.NoFrame)
    return area
