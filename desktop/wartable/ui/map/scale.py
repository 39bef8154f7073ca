"""The map's scale: map units to screen pixels by zoom, and level of detail.


Scale. The scene is in *map units* (the `BoardMap`'s own coordinates). 100 % zoom means:

* hex maps: a hex is 64 screen pixels across its flats (`HEX_PX_AT_100`), the distance
  between the centres of two neighbouring hexes, which is what a printed map's "hex size"
  measures (a 5/8" printed hex at ~100 dpi);
* area maps: a typical space (the median of sqrt(area) over the spaces) is 160 pixels
  across (`AREA_SPACE_PX_AT_100`), so a territory holds a few counters comfortably.

Counters are 72 % of a hex across on hex maps (a 1/2" counter on a 5/8" hex is 80 %) and
46 px at 100 % on area maps.
"""

from __future__ import annotations

import math
import statistics

from PySide6.QtCore import QRectF
from PySide6.QtGui import (
    QPainter,
)
from PySide6.QtWidgets import (
    QStyleOptionGraphicsItem,
)

from wartable.core.hexgrid import Orientation
from wartable.maps.model import AreaMap, BoardMap, HexMap

HEX_PX_AT_100 = 64.0
AREA_SPACE_PX_AT_100 = 160.0
AREA_COUNTER_PX_AT_100 = 46.0
COUNTER_HEX_FRACTION = 0.72
MIN_ZOOM = 10.0
MAX_ZOOM = 800.0
ZOOM_PRESETS: tuple[float, ...] = (25, 50, 75, 100, 150, 200, 300, 400, 600, 800)
WHEEL_STEP = 1.15  # zoom factor per wheel notch (120 units)
LABEL_MIN_HEX_PX = 36.0  # hex numbers are drawn when a hex is at least this wide on screen
PLACE_NAME_MIN_HEX_PX = 24.0  # place names need less room than a number in every hex
GRID_MIN_HEX_PX = 7.0  # below this the grid is noise
PATTERN_MIN_HEX_PX = 18.0
STACK_SHOWN = 4  # counters drawn offset in a stack; more get a count badge
STACK_STEP = 0.07  # offset per counter, fraction of the counter side
CHUNK_HEXES = 6  # terrain/grid paths are grouped in chunks this many hexes across


def hex_across(board: HexMap) -> float:
    """Flat-to-flat width of a hex, in map units."""
    lay = board.layout
    size = lay.size_y if lay.orientation is Orientation.FLAT else lay.size_x
    return math.sqrt(3.0) * size


def typical_space_size(board: AreaMap) -> float:
    """The median sqrt(area) of an area map's spaces, in map units."""
    sizes = [math.sqrt(float(s.polygon.area)) for s in board.spaces.values()]
    sizes = [s for s in sizes if s > 0]
    return statistics.median(sizes) if sizes else 1.0


def base_scale(board: BoardMap) -> float:
    """Screen pixels per map unit at 100 % zoom (see the module docstring)."""
    if isinstance(board, HexMap):
        return HEX_PX_AT_100 / hex_across(board)
    if isinstance(board, AreaMap):
        return AREA_SPACE_PX_AT_100 / typical_space_size(board)
    x0, y0, x1, y1 = board.bounds()
    return 1600.0 / max(x1 - x0, y1 - y0, 1e-9)


def counter_size(board: BoardMap) -> float:
    """A counter's side in map units."""
    if isinstance(board, HexMap):
        return COUNTER_HEX_FRACTION * hex_across(board)
    return AREA_COUNTER_PX_AT_100 / base_scale(board)


def cell_px(board: BoardMap, lod: float) -> float:
    """How wide a hex (or a typical space) is on screen at a level of detail (px per unit)."""
    if isinstance(board, HexMap):
        return hex_across(board) * lod
    return AREA_SPACE_PX_AT_100 / base_scale(board) * lod


def labels_visible(board: BoardMap, lod: float) -> bool:
    """Are hex numbers (or space names) legible at this level of detail?"""
    return cell_px(board, lod) >= LABEL_MIN_HEX_PX


def lod_of(painter: QPainter) -> float:
    return QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())


def visible_rect(painter: QPainter, option: QStyleOptionGraphicsItem) -> QRectF:
    """The part of an item that can reach the device: its exposed rect, cut to the clip and
    to the paint device (QGraphicsView.render passes the whole item as exposed)."""
    r = QRectF(option.exposedRect)
    if painter.hasClipping():
        r = r.intersected(painter.clipBoundingRect())
    dev = painter.device()
    inv, ok = painter.worldTransform().inverted()
    if dev is not None and ok:
        r = r.intersected(inv.mapRect(QRectF(0, 0, dev.width(), dev.height())))
    return r

