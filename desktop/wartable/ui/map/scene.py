"""The map scene: the board drawn from geometry, plus counters and highlights."""

from __future__ import annotations

import math
import time
from collections.abc import Sequence

import shiboken6
from PySide6.QtCore import QRectF, QTimer
from PySide6.QtGui import (
    QColor,
    QPainter,
)
from PySide6.QtWidgets import (
    QGraphicsScene,
    QStyleOptionGraphicsItem,
    QWidget,
)

from wartable.maps.model import BOX_PREFIX, BoardMap, OffMapBox
from wartable.model.definition import Side, UnitType
from wartable.model.state import Piece
from wartable.printing.counterart import Palette
from wartable.ui.counters import CounterPixmapCache
from wartable.ui.map.items import (
    CARGO_SCALE,
    FALLBACK_TYPE,
    BattleMarkerItem,
    BoxItem,
    CounterBlits,
    CounterDefinition,
    PieceItem,
)
from wartable.ui.map.layers import LabelLayer, StaticMap, Underlay
from wartable.ui.map.scale import (
    STACK_SHOWN,
    STACK_STEP,
    labels_visible,
)
from wartable.ui.map.style import BACKGROUND, Z_COUNTERS, Z_FAN
from wartable.ui.map.text import TextCache
from wartable.ui.map.tiles import MapTilesItem, TileCache

LATER_SLICE_S = 0.008  # counter art drawn per event-loop turn while zooming


class MapScene(QGraphicsScene):
    """The board drawn from geometry, plus counters and highlights (see module docstring)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.board: BoardMap | None = None
        self.definition: CounterDefinition | None = None
        self.counter_palette: Palette = "standard"
        self.counter_cache = CounterPixmapCache()
        self.counter_blits = CounterBlits()
        self._later: dict[str, tuple[float, float]] = {}  # piece id -> counter size to draw
        self.static: StaticMap | None = None
        self.map_rect = QRectF()
        self.cell = 1.0  # a hex across (or a typical space), map units
        self.counter = 1.0  # a counter's side, map units
        self.tiles = TileCache(self)  # kept across edits of the same board
        self.texts = TextCache()
        self.labels: LabelLayer | None = None  # the static map's (tests read what it drew)
        self.piece_items: dict[str, PieceItem] = {}
        self.stacks: dict[str, list[str]] = {}  # location -> piece ids, bottom first
        self.expanded: str | None = None  # the location whose stack is fanned out
        self.cargo_attr: str | None = None  # the piece attribute naming its transport
        self.moved: frozenset[str] = frozenset()  # pieces marked as moved this phase
        self.battle_items: list[BattleMarkerItem] = []
        self._sides: dict[str, Side] = {}
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.BspTreeIndex)

    # -- board ---------------------------------------------------------------------------------

    def set_board(self, board: BoardMap, definition: CounterDefinition) -> None:
        self.clear()
        self.piece_items.clear()
        self.battle_items = []
        self.expanded = None
        self._later.clear()
        self.stacks.clear()
        self.board = board
        self.definition = definition
        self._sides = {s.id: s for s in definition.sides}
        before = self.static
        static = self.static = StaticMap(board, self.cell)
        self.map_rect = static.map_rect
        self.cell = static.cell
        self.counter = static.counter
        self.labels = static.labels
        # Room to pan a little past the edges (and to drop on counters there), no more.
        margin = 1.5 * max(self.cell, self.counter)
        self.setSceneRect(self.map_rect.adjusted(-margin, -margin, margin, margin))
        self.setBackgroundBrush(QColor(BACKGROUND))
        self.tiles.set_static(static, None if before is None else static.changed_rect(before))
        self.addItem(MapTilesItem(self.tiles, self.sceneRect()))
        for b in board.boxes:
            self.addItem(BoxItem(self, b))

    def set_underlay(self, underlay: Underlay | None) -> None:
        """Draw a picture with the map, above the terrain fills (None removes it)."""
        static = self.static
        if static is None or static.underlay == underlay:
            return
        old, static.underlay = static.underlay, underlay
        rect = QRectF()
        for u in (old, underlay):
            if u is not None:
                rect = rect.united(u.bounds())
        self.tiles.invalidate(rect)

    def underlay(self) -> Underlay | None:
        return self.static.underlay if self.static is not None else None

    def labels_visible(self, lod: float) -> bool:
        """Would the label layer draw hex numbers (space names) at this level of detail?"""
        return self.board is not None and labels_visible(self.board, lod)

    def paint_map(self, painter: QPainter, target: QRectF) -> None:
        """Draw the static map (no counters, no highlights) fitted into `target`."""
        if self.board is None:
            return
        src = self.map_rect
        k = min(target.width() / src.width(), target.height() / src.height())
        painter.save()
        painter.translate(target.center())
        painter.scale(k, k)
        painter.translate(-src.center())
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        if self.static is not None:
            self.static.draw(painter, src, k, self.texts, labels=False)
        for it in self.items():
            if isinstance(it, BoxItem):
                it.paint(painter, QStyleOptionGraphicsItem(), None)
        painter.restore()

    def draw_counters_later(self, item: PieceItem, px: float, dpr: float) -> None:
        """Draw a counter's art at a new size after this frame (it shows a scaled stand-in
        meanwhile); a few at a time, so input keeps flowing while a zoom goes on."""
        if not self._later:
            QTimer.singleShot(0, self, self._draw_later)  # dropped if the scene goes
        self._later[item.piece_id] = (px, dpr)

    def _draw_later(self) -> None:
        t = time.perf_counter()
        while self._later:
            pid, (px, dpr) = next(iter(self._later.items()))
            del self._later[pid]
            item = self.piece_items.get(pid)
            if item is None or not shiboken6.isValid(item):
                continue
            self.counter_cache.pixmap(self.type_of(item.piece), self.side_of(item.piece),
                                      item.piece.attrs, px, dpr, self.counter_palette)
            item.update()
            if time.perf_counter() - t > LATER_SLICE_S:
                QTimer.singleShot(0, self, self._draw_later)
                return

    # -- definition lookups ------------------------------------------------------------------

    def side_of(self, piece: Piece) -> Side:
        s = self._sides.get(piece.side)
        return s if s is not None else Side(piece.side or "?", piece.side, "#b0b0b0")

    def type_of(self, piece: Piece) -> UnitType:
        if self.definition is None:
            return FALLBACK_TYPE
        return self.definition.unit_types.get(piece.type, FALLBACK_TYPE)

    def side_fill(self, side: Side) -> str:
        if self.counter_palette == "colourblind" and side.alt_colour:
            return side.alt_colour
        return side.colour

    # -- pieces ------------------------------------------------------------------------------

    def set_pieces(self, pieces: Sequence[Piece]) -> None:
        """Replace the pieces; items are reused by piece id."""
        if self.board is None:
            return
        seen: set[str] = set()
        self.stacks = {}
        for p in pieces:
            seen.add(p.id)
            item = self.piece_items.get(p.id)
            if item is None:
                item = PieceItem(self, p)
                self.piece_items[p.id] = item
                self.addItem(item)
            else:
                item.set_piece(p)
            self.stacks.setdefault(p.location, []).append(p.id)
        for pid in [k for k in self.piece_items if k not in seen]:
            self.removeItem(self.piece_items.pop(pid))
        for loc in self.stacks:
            self.layout_stack(loc)

    def layout_stack(self, loc: str) -> None:
        """Place a stack's items: bottom first, each up-right of the one below. Where more
        than one side stands (a contested space) each side has its own stack, side by side,
        so the attacker's units do not vanish under the defender's. Cargo sits on its
        transport, small, along the transport's foot (`cargo_attr`). An expanded stack
        (`expanded`) is fanned out: every counter at full size, in rows, above the map.
        In an off-map box the pieces are laid out side by side in rows instead, like a
        holding box on a table."""
        ids = self.stacks.get(loc, [])
        board = self.board
        if board is None or not ids:
            return
        box = self.box_of(loc)
        if box is not None:
            self._layout_box(box, ids)
            return
        try:
            cx, cy = board.center(loc)
        except KeyError:
            cx, cy = self.map_rect.left() - self.counter, self.map_rect.top() - self.counter
        for pid in ids:
            item = self.piece_items[pid]
            item.setScale(1.0)
            item.cargo_of = None
        if loc == self.expanded and len(ids) > 1:
            self._layout_fan(cx, cy, self.grouped(ids))
            return
        groups = self.side_groups(ids)
        w = 1.12 * self.counter
        for g, group in enumerate(groups):
            gx = cx + (g - (len(groups) - 1) / 2) * w
            self._layout_diagonal(gx, cy, group)

    def grouped(self, ids: list[str]) -> list[str]:
        """The stack's ids, bottom first; transports with cargo last (on top), each
        followed by its cargo."""
        attr = self.cargo_attr
        if not attr:
            return list(ids)
        here = set(ids)
        carried: dict[str, list[str]] = {}
        for pid in ids:
            on = self.piece_items[pid].piece.attrs.get(attr)
            if isinstance(on, str) and on in here and on != pid:
                carried.setdefault(on, []).append(pid)
        out: list[str] = []
        loaded: list[str] = []  # loaded transports go on top, their cargo over them
        for pid in ids:
            on = self.piece_items[pid].piece.attrs.get(attr)
            if isinstance(on, str) and on in here and on != pid:
                continue  # listed after its transport
            if pid in carried:
                loaded += [pid, *carried[pid]]
            else:
                out.append(pid)
        return out + loaded

    def side_groups(self, ids: list[str]) -> list[list[str]]:
        """The stack split by side (in order of first appearance), cargo with transport."""
        by_side: dict[str, list[str]] = {}
        for pid in self.grouped(ids):
            by_side.setdefault(self.piece_items[pid].piece.side, []).append(pid)
        return list(by_side.values())

    def cargo_host(self, pid: str) -> str | None:
        """The transport a piece is aboard, if that transport is in the same space."""
        attr = self.cargo_attr
        item = self.piece_items.get(pid)
        if not attr or item is None:
            return None
        on = item.piece.attrs.get(attr)
        host = self.piece_items.get(on) if isinstance(on, str) else None
        if host is None or host.piece.location != item.piece.location or on == pid:
            return None
        return str(on)

    def _layout_diagonal(self, cx: float, cy: float, ids: list[str]) -> None:
        hosts = {pid: self.cargo_host(pid) for pid in ids}
        main = [pid for pid in ids if hosts[pid] is None]
        n = len(main)
        shown = min(n, STACK_SHOWN)
        d = STACK_STEP * self.counter
        x0, y0 = cx - (shown - 1) * d / 2, cy + (shown - 1) * d / 2
        for i, pid in enumerate(main):
            item = self.piece_items[pid]
            k = min(i, shown - 1)
            item.setPos(x0 + k * d, y0 - k * d)
            item.setZValue(Z_COUNTERS + i * 0.01)
            item.stack_count = len(ids)
            item.is_top = i == n - 1
            item.update()
        # Cargo rides on its transport: small counters along its foot, over it.
        aboard: dict[str, int] = {}
        for pid in ids:
            host = hosts[pid]
            if host is None:
                continue
            t = self.piece_items[host]
            j = aboard.get(host, 0)
            aboard[host] = j + 1
            item = self.piece_items[pid]
            item.cargo_of = host
            item.setScale(CARGO_SCALE)
            s = self.counter
            item.setPos(t.pos().x() - 0.25 * s + j * 0.5 * s, t.pos().y() + 0.42 * s)
            item.setZValue(Z_COUNTERS + len(ids) * 0.01 + j * 0.0001)  # over the stack
            item.stack_count = 1
            item.is_top = False
            item.update()

    def _layout_fan(self, cx: float, cy: float, ids: list[str]) -> None:
        """Every counter of the stack at full size, side by side in rows around the space's
        centre, above the other stacks (the stack is expanded)."""
        n = len(ids)
        cols = max(1, math.ceil(math.sqrt(n * 1.5)))
        rows = math.ceil(n / cols)
        step = 1.08 * self.counter
        for i, pid in enumerate(ids):
            r, c = divmod(i, cols)
            in_row = min(cols, n - r * cols)
            item = self.piece_items[pid]
            item.setPos(cx + (c - (in_row - 1) / 2) * step, cy + (r - (rows - 1) / 2) * step)
            item.setZValue(Z_FAN + i * 0.001)
            item.stack_count = 1
            item.is_top = True
            item.update()

    def set_expanded(self, loc: str | None) -> None:
        """Fan out the stack at `loc` (None folds the one fanned out)."""
        before, self.expanded = self.expanded, loc
        for x in (before, loc):
            if x is not None:
                self.layout_stack(x)

    def set_hidden_boxes(self, locs: frozenset[str]) -> None:
        for it in self.items():
            if isinstance(it, BoxItem):
                it.setVisible(BOX_PREFIX + it.box.id not in locs)

    def set_battles(self, locs: Sequence[str]) -> None:
        """Mark the spaces where a battle is due."""
        for it in self.battle_items:
            self.removeItem(it)
        self.battle_items = []
        if self.board is None:
            return
        for loc in dict.fromkeys(locs):
            try:
                self.board.center(loc)
            except (KeyError, ValueError):
                continue
            it = BattleMarkerItem(self, loc)
            self.addItem(it)
            self.battle_items.append(it)

    def _layout_box(self, box: OffMapBox, ids: list[str]) -> None:
        s = self.counter
        pad = 0.15 * s
        top = box.y + min(box.h * 0.18, self.cell * 0.45) + pad  # below the title bar
        step = 1.1 * s
        cols = max(1, int((box.w - pad) // step))
        rows = math.ceil(len(ids) / cols)
        room = box.y + box.h - pad - s - top
        # Too many for the box: rows overlap (like counters heaped in a real box).
        dy = step if rows <= 1 or (rows - 1) * step <= room else max(room, 0.0) / (rows - 1)
        for i, pid in enumerate(ids):
            item = self.piece_items[pid]
            r, c = divmod(i, cols)
            item.setScale(1.0)
            item.cargo_of = None
            item.setPos(box.x + pad + s / 2 + c * step, top + s / 2 + r * dy)
            item.setZValue(Z_COUNTERS + i * 0.001)
            item.stack_count = 1
            item.is_top = True
            item.update()

    def box_of(self, loc: str) -> OffMapBox | None:
        """The off-map box a location names, if it is one."""
        if self.board is None or not loc.startswith(BOX_PREFIX):
            return None
        for b in self.board.boxes:
            if BOX_PREFIX + b.id == loc:
                return b
        return None

    def stack_at(self, loc: str) -> list[str]:
        return list(self.stacks.get(loc, []))
