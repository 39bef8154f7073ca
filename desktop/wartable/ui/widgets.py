"""Small widget helpers shared by the panels."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget


def discard(w: QWidget) -> None:
    """Take a widget out of its layout now (deleteLater alone leaves it on screen until
    the event loop runs deferred deletes, so rebuilt lists showed doubles)."""
    w.hide()
    w.setParent(None)  # type: ignore[call-overload]
    w.deleteLater()
