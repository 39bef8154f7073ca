"""How the map looks: layer z order, fills, hexside and highlight styles."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

# Layer z values (terrain to labels are drawn together, as tiles: ui/map/tiles.py).
Z_TERRAIN, Z_SIDES, Z_GRID, Z_PLACES, Z_LABELS, Z_BOXES = 0, 2, 3, 4, 5, 6
Z_HIGHLIGHT, Z_COUNTERS, Z_BADGES, Z_FAN, Z_DRAG = 8, 10, 30, 50, 100

LAND_FILL = "#e8dcb4"
SEA_FILL = "#a9c7e3"
BOX_FILL = "#f2ecdc"
INK = "#2b2b2b"
BACKGROUND = "#3a3f44"  # around the map

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

PLACE_STYLE = {
    # kind: (shape, fill, radius in hex radii)
    "capital": ("star", "#c0241b", 0.24),
    "city": ("square", "#c0241b", 0.17),
    "town": ("dot", "#2b2b2b", 0.11),
    "port": ("ring", "#1f4e8c", 0.14),
    "fortress": ("triangle", "#2b2b2b", 0.17),
    "other": ("dot", "#555555", 0.09),
}
