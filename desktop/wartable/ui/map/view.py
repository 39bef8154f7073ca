"""The interactive map view.

Mouse and keys (MapView):

* wheel: zoom at the cursor (the map point under it stays put); +/- zoom through the
  presets at the centre; Home fits the map; 0 is 100 %; arrow keys pan.
* left-drag on empty map pans; left-drag on a counter drags the stack's top counter (or the
  selected one, if it is in that stack) and emits ``pieceDropped(piece_id, location)`` on
  release, wherever it lands (the engine decides). Shift+drag moves the whole stack and
  emits one ``stackDropped(from_location, to_location)`` instead. The counter goes back to
  its place until `set_pieces` says otherwise.
* click on a location emits ``locationClicked(loc)``; when there are counters there it also
  selects the top counter (``pieceSelected``) and emits ``stackClicked(loc)``.

Stacks (issue 16): a click on a stack of two or more fans it out (every counter at full
size, `MapScene.set_expanded`); a click on a fanned counter selects it, Ctrl+click adds or
removes it, Shift+click adds it, a double-click selects every counter of its type and side
in the stack. Dragging a selected counter drags the whole selection and emits
``piecesDropped(ids, location)`` (one id: ``pieceDropped``); cargo drawn on its transport
can be dragged off it directly. Right-click (or Enter on the selection) emits
``contextRequested(location, piece_id, global_pos)``; Tab cycles the selection through the
stack; Escape folds the stack. Piece ids dropped from another widget (mime type
``PIECES_MIME``) emit the same signals. With a unit to place (`set_placing`, from a tray
beside the map) a click on one of its legal spaces emits ``placeRequested(piece, loc)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QEvent, QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QContextMenuEvent,
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPen,
    QResizeEvent,
    QTransform,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QApplication,
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsView,
    QWidget,
)

from wartable.maps.model import BOX_PREFIX, BoardMap
from wartable.model.state import Piece
from wartable.printing.counterart import Palette
from wartable.ui.map.items import CostBadgeItem, CounterDefinition, HighlightItem, PieceItem
from wartable.ui.map.scale import (
    MAX_ZOOM,
    MIN_ZOOM,
    STACK_STEP,
    WHEEL_STEP,
    ZOOM_PRESETS,
    base_scale,
)
from wartable.ui.map.scene import MapScene
from wartable.ui.map.style import Z_DRAG
from wartable.ui.map.tiles import hold_workers

PIECES_MIME = "application/x-wartable-pieces"  # piece ids, one a line (the Stack dock's drag)


def _format_cost(c: float) -> str:
    return str(int(c)) if float(c).is_integer() else f"{c:.1f}"


@dataclass
class _Drag:
    origin: str
    press_view: QPointF
    piece_ids: list[str]
    whole_stack: bool
    grab: QPointF = field(default_factory=QPointF)  # scene offset of the press from the top item
    active: bool = False
    hit: str = ""  # the counter pressed (a click selects it)
    modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier
    riders: list[str] = field(default_factory=list)  # cargo carried along, drawn with it
    waypoints: list[str] = field(default_factory=list)  # right-clicked during the drag


class MapView(QGraphicsView):
    """The interactive map (see the module docstring for mouse and keys)."""

    pieceDropped = Signal(str, str)
    stackDropped = Signal(str, str)
    locationClicked = Signal(str)
    stackClicked = Signal(str)
    hoverChanged = Signal(str)
    zoomChanged = Signal(float)
    pieceSelected = Signal(str)
    piecesDropped = Signal(list, str)  # several selected pieces dropped on a location
    routeDropped = Signal(str, str, list)  # one piece, its destination, the waypoints chosen
    contextRequested = Signal(str, str, QPoint)  # location, piece id or "", global position
    selectionChanged = Signal(list)  # the selected piece ids
    placeRequested = Signal(str, str)  # a unit from the tray, a legal space clicked
    boardChanged = Signal()
    viewChanged = Signal()  # scrolled or zoomed (the overview follows it)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.map_scene = MapScene(self)
        self.setScene(self.map_scene)
        self.setRenderHints(QPainter.RenderHint.Antialiasing
                            | QPainter.RenderHint.SmoothPixmapTransform
                            | QPainter.RenderHint.TextAntialiasing)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.NoAnchor)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontSavePainterState, True)
        self.setMouseTracking(True)
        self.viewport().setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._percent = 100.0
        self._fitted = False
        self._base = 1.0
        self._legal: dict[str, tuple[str, ...]] = {}
        self._costs: dict[str, dict[str, float]] = {}
        self._highlight_sets: dict[str, tuple[str, ...]] = {}
        self._highlight_items: list[QGraphicsItem] = []
        self._drag_items: list[QGraphicsItem] = []
        self._drop_item: HighlightItem | None = None
        self._route_item: QGraphicsPathItem | None = None  # the route of a drag with waypoints
        self._hover: str | None = None
        self._selected: str | None = None  # the selection's last (primary) piece
        self._selection: list[str] = []
        self._placing: str | None = None  # a unit off the map to place with a click
        self._hidden_boxes: frozenset[str] = frozenset()
        self._drag: _Drag | None = None
        self._press_empty: QPointF | None = None
        self.horizontalScrollBar().valueChanged.connect(self.viewChanged)
        self.verticalScrollBar().valueChanged.connect(self.viewChanged)
        self.viewChanged.connect(hold_workers)  # frames first while the view moves
        # Touch screens and tablets at the table: pinch to zoom (drag already pans/moves).
        self.viewport().setAttribute(Qt.WidgetAttribute.WA_AcceptTouchEvents)
        self.viewport().grabGesture(Qt.GestureType.PinchGesture)
        self.setAcceptDrops(True)
        self.viewport().setAcceptDrops(True)

    def viewportEvent(self, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.Gesture:
            pinch = event.gesture(Qt.GestureType.PinchGesture)  # type: ignore[attr-defined]
            if pinch is not None:
                self.pinch(pinch.scaleFactor(), pinch.centerPoint())
                event.accept()
                return True
        return super().viewportEvent(event)

    def pinch(self, factor: float, center: QPointF) -> None:
        """Zoom by a pinch's scale factor around its centre (screen coordinates)."""
        if factor > 0:
            anchor = self.viewport().mapFromGlobal(center.toPoint())
            self.set_zoom(self.zoom_percent() * factor, QPointF(anchor))

    # -- board and pieces ------------------------------------------------------------------

    @property
    def board(self) -> BoardMap | None:
        return self.map_scene.board

    def set_board(self, board: BoardMap, definition: CounterDefinition) -> None:
        self._drag = None
        self._highlight_items = []
        self._drag_items = []
        self._drop_item = None
        self._route_item = None
        self._highlight_sets = {}
        self._selected = None
        self._selection = []
        self._placing = None
        self._hidden_boxes = frozenset()
        self.map_scene.set_board(board, definition)
        self._base = base_scale(board)
        self.boardChanged.emit()
        self.fit()

    def set_pieces(self, pieces: Sequence[Piece]) -> None:
        """Replace all pieces (items are reused by piece id, so nothing flickers)."""
        if self._drag is not None and self._drag.active:
            self._end_drag_visuals()
            self._drag = None
        scene = self.map_scene
        if scene.expanded is not None and not any(p.location == scene.expanded for p in pieces):
            scene.expanded = None
        scene.set_pieces(pieces)
        self._selection = [p for p in self._selection if p in scene.piece_items]
        if self._selected not in self._selection:
            self._selected = self._selection[-1] if self._selection else None
        for pid, item in scene.piece_items.items():
            item.selected = pid in self._selection
        self._refresh_highlights()
        self.viewChanged.emit()

    def piece_item(self, piece_id: str) -> PieceItem | None:
        return self.map_scene.piece_items.get(piece_id)

    def set_palette(self, name: Palette) -> None:
        """"standard" or "colourblind" (each side's alt_colour)."""
        if name not in ("standard", "colourblind"):
            raise ValueError(f"unknown palette {name!r}; use 'standard' or 'colourblind'")
        self.map_scene.counter_palette = name
        self.map_scene.update()
        self.viewChanged.emit()

    def select_piece(self, piece_id: str | None) -> None:
        """Select a piece (outline it and show its legal moves); None clears. No signal."""
        self.select_pieces([] if piece_id is None else [piece_id])

    def select_pieces(self, piece_ids: Sequence[str]) -> None:
        """Select these pieces (the last is the primary one); no signal."""
        items = self.map_scene.piece_items
        self._selection = [p for p in dict.fromkeys(piece_ids) if p in items]
        self._selected = self._selection[-1] if self._selection else None
        for pid, item in items.items():
            sel = pid in self._selection
            if item.selected != sel:
                item.selected = sel
                item.update()
        self._refresh_highlights()

    def selected_piece(self) -> str | None:
        return self._selected

    def selected_pieces(self) -> list[str]:
        return list(self._selection)

    def expand_stack(self, loc: str | None) -> None:
        """Fan out the stack at `loc` (None folds it)."""
        if loc is not None and len(self.map_scene.stack_at(loc)) < 2:
            loc = None
        if loc != self.map_scene.expanded:
            self.map_scene.set_expanded(loc)

    def expanded_stack(self) -> str | None:
        return self.map_scene.expanded

    def set_placing(self, piece_id: str | None) -> None:
        """A unit off the map (in the placement tray) to place: its legal spaces light up,
        and a click on one emits placeRequested. None ends it."""
        self._placing = piece_id
        self._refresh_highlights()

    def placing(self) -> str | None:
        return self._placing

    def set_cargo_attribute(self, attr: str | None) -> None:
        """The piece attribute naming the transport a piece is aboard (the game's rules)."""
        if attr != self.map_scene.cargo_attr:
            self.map_scene.cargo_attr = attr
            for loc in self.map_scene.stacks:
                self.map_scene.layout_stack(loc)

    def set_moved(self, piece_ids: Iterable[str]) -> None:
        """Mark these pieces as moved this phase."""
        moved = frozenset(piece_ids)
        if moved != self.map_scene.moved:
            self.map_scene.moved = moved
            for item in self.map_scene.piece_items.values():
                item.update()

    def set_hidden_boxes(self, locs: Iterable[str]) -> None:
        """Off-map boxes not drawn (their units are shown elsewhere: the placement tray)."""
        hidden = frozenset(locs)
        if hidden != self._hidden_boxes:
            self._hidden_boxes = hidden
            self.map_scene.set_hidden_boxes(hidden)

    def set_battles(self, locs: Sequence[str]) -> None:
        """Put a battle marker on these spaces (and take it off the others)."""
        if tuple(i.loc for i in self.map_scene.battle_items) != tuple(dict.fromkeys(locs)):
            self.map_scene.set_battles(locs)

    def battle_markers(self) -> list[str]:
        return [i.loc for i in self.map_scene.battle_items]

    # -- highlights ------------------------------------------------------------------------

    def set_legal_moves(self, moves: Mapping[str, tuple[str, ...]],
                        costs: Mapping[str, Mapping[str, float]]) -> None:
        """Per piece: its legal destinations and the cost to reach each. Shown while that
        piece is dragged or selected."""
        self._legal = {k: tuple(v) for k, v in moves.items()}
        self._costs = {k: dict(v) for k, v in costs.items()}
        self._refresh_highlights()

    def set_highlights(self, locs: Iterable[str], kind: str = "target") -> None:
        """Highlight locations with a style: "legal", "selected", "attack", "target" (any
        other kind draws like "target"). Each kind is its own set; empty `locs` clears it."""
        self._highlight_sets[kind] = tuple(locs)
        self._refresh_highlights()

    def highlight_items(self, kind: str | None = None) -> list[HighlightItem]:
        items = [i for i in self._highlight_items + self._drag_items
                 if isinstance(i, HighlightItem)]
        return [i for i in items if kind is None or i.kind == kind]

    def cost_badges(self) -> list[CostBadgeItem]:
        return [i for i in self._highlight_items + self._drag_items
                if isinstance(i, CostBadgeItem)]

    def _valid_loc(self, loc: str) -> bool:
        board = self.board
        if board is None:
            return False
        try:
            board.center(loc)
        except (KeyError, ValueError):
            return False
        return True

    def _make_highlights(self, locs: Iterable[str], kind: str,
                         costs: Mapping[str, float] | None = None) -> list[QGraphicsItem]:
        out: list[QGraphicsItem] = []
        for loc in dict.fromkeys(locs):  # once each, in order
            if not self._valid_loc(loc):
                continue
            h = HighlightItem(self.map_scene, loc, kind)
            self.map_scene.addItem(h)
            out.append(h)
            if costs and loc in costs:
                b = CostBadgeItem(self.map_scene, loc, _format_cost(costs[loc]))
                self.map_scene.addItem(b)
                out.append(b)
        return out

    def _refresh_highlights(self) -> None:
        for it in self._highlight_items:
            self.map_scene.removeItem(it)
        self._highlight_items = []
        if self.board is None:
            return
        for kind, locs in self._highlight_sets.items():
            self._highlight_items += self._make_highlights(locs, kind)
        dragging = self._drag is not None and self._drag.active
        if self._placing is not None:
            self._highlight_items += self._make_highlights(
                self._legal.get(self._placing, ()), "legal")
        elif self._selection and not dragging:
            dests, costs = self._legal_for(self._selection)
            self._highlight_items += self._make_highlights(dests, "legal", costs)

    def _legal_for(self, piece_ids: list[str]) -> tuple[list[str], dict[str, float]]:
        """Destinations every dragged piece may reach; the cost shown is the highest."""
        dests: list[str] | None = None
        costs: dict[str, float] = {}
        for pid in piece_ids:
            mine = self._legal.get(pid, ())
            dests = list(mine) if dests is None else [d for d in dests if d in mine]
            for loc, c in self._costs.get(pid, {}).items():
                costs[loc] = max(costs.get(loc, c), c)
        return dests or [], costs

    # -- zoom ------------------------------------------------------------------------------

    def zoom_percent(self) -> float:
        return self._percent

    def base_scale(self) -> float:
        """Screen pixels per map unit at 100 %."""
        return self._base

    def set_zoom(self, percent: float, anchor_view_point: QPointF | QPoint | None = None) -> None:
        """Zoom to `percent` (clamped to 10-800), keeping the map point under
        `anchor_view_point` (viewport coordinates; default the centre) where it is."""
        percent = max(MIN_ZOOM, min(MAX_ZOOM, float(percent)))
        self._fitted = False
        vp = self.viewport().rect()
        anchor = QPointF(anchor_view_point) if anchor_view_point is not None else (
            QPointF(vp.width() / 2, vp.height() / 2))
        inv, _ok = self.viewportTransform().inverted()
        scene_pt = inv.map(anchor)
        k = self._base * percent / 100.0
        self.setTransform(QTransform.fromScale(k, k))
        # Scroll so the anchor's scene point comes back under it (scroll bars are integers,
        # so this is exact to half a pixel where the map is larger than the view).
        moved = self.viewportTransform().map(scene_pt) - anchor
        hb, vb = self.horizontalScrollBar(), self.verticalScrollBar()
        hb.setValue(hb.value() + round(moved.x()))
        vb.setValue(vb.value() + round(moved.y()))
        changed = abs(percent - self._percent) > 1e-9
        self._percent = percent
        if changed:
            self.zoomChanged.emit(percent)
        self.viewChanged.emit()

    def zoom_in(self) -> None:
        """The next preset above the current zoom (800 % stays)."""
        up = [p for p in ZOOM_PRESETS if p > self._percent + 1e-6]
        self.set_zoom(up[0] if up else MAX_ZOOM)

    def zoom_out(self) -> None:
        """The next preset below the current zoom; below 25 % it goes to the 10 % minimum."""
        down = [p for p in ZOOM_PRESETS if p < self._percent - 1e-6]
        self.set_zoom(down[-1] if down else MIN_ZOOM)

    def fit(self) -> None:
        """Zoom and centre so the whole map (boxes included) is visible."""
        if self.board is None:
            return
        r = self.map_scene.map_rect
        vp = self.viewport().rect()
        if r.width() <= 0 or r.height() <= 0 or vp.width() <= 2 or vp.height() <= 2:
            return
        k = min((vp.width() - 8) / r.width(), (vp.height() - 8) / r.height())
        self.set_zoom(k / self._base * 100.0)
        self.centerOn(r.center())
        # Stay fitted while the window or its docks change size, until the user zooms.
        self._fitted = True

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        if self._fitted:
            self.fit()

    def center_on_location(self, loc: str) -> None:
        if self.board is not None:
            x, y = self.board.center(loc)
            self.centerOn(QPointF(x, y))

    def visible_scene_rect(self) -> QRectF:
        inv, _ok = self.viewportTransform().inverted()
        return inv.mapRect(QRectF(self.viewport().rect()))

    def scene_point(self, view_point: QPointF | QPoint) -> QPointF:
        """The exact (non-rounded) scene point under a viewport point."""
        inv, _ok = self.viewportTransform().inverted()
        return inv.map(QPointF(view_point))

    # -- events ----------------------------------------------------------------------------

    def wheelEvent(self, event: QWheelEvent) -> None:
        delta = event.angleDelta().y() or event.angleDelta().x()
        if delta == 0:
            event.ignore()
            return
        self.set_zoom(self._percent * WHEEL_STEP ** (delta / 120.0), event.position())
        event.accept()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        hb, vb = self.horizontalScrollBar(), self.verticalScrollBar()
        step_x, step_y = self.viewport().width() // 8, self.viewport().height() // 8
        if key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.zoom_in()
        elif key in (Qt.Key.Key_Minus, Qt.Key.Key_Underscore):
            self.zoom_out()
        elif key == Qt.Key.Key_0:
            self.set_zoom(100)
        elif key == Qt.Key.Key_Home:
            self.fit()
        elif key == Qt.Key.Key_Left:
            hb.setValue(hb.value() - step_x)
        elif key == Qt.Key.Key_Right:
            hb.setValue(hb.value() + step_x)
        elif key == Qt.Key.Key_Up:
            vb.setValue(vb.value() - step_y)
        elif key == Qt.Key.Key_Down:
            vb.setValue(vb.value() + step_y)
        elif key == Qt.Key.Key_Escape and self._drag is not None:
            self._cancel_drag()
        elif key == Qt.Key.Key_Escape and (self._placing or self.map_scene.expanded):
            self.set_placing(None)
            self.expand_stack(None)
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self._selected is not None:
            self._menu_for_selection()
        else:
            super().keyPressEvent(event)
            return
        event.accept()

    def _stack_item_at(self, view_pos: QPointF) -> PieceItem | None:
        for it in self.items(view_pos.toPoint()):
            if isinstance(it, PieceItem):
                return it
        return None

    def _group_of(self, pid: str) -> list[str]:
        """The side's own stack a piece is in (a contested space has one per side)."""
        scene = self.map_scene
        loc = scene.piece_items[pid].piece.location
        for group in scene.side_groups(scene.stack_at(loc)):
            if pid in group:
                return group
        return [pid]

    def _hit(self, item: PieceItem) -> str:
        """The counter a press on `item` takes: itself where every counter shows (a fanned
        stack, a box, cargo on its transport); else the selected one of its stack, or the
        top."""
        scene = self.map_scene
        loc = item.piece.location
        if loc == scene.expanded or scene.box_of(loc) is not None or item.cargo_of:
            return item.piece_id
        group = [p for p in self._group_of(item.piece_id)
                 if scene.piece_items[p].cargo_of is None]
        if self._selected in group:
            return self._selected
        return group[-1] if group else item.piece_id

    def _riders(self, ids: list[str]) -> list[str]:
        """Cargo aboard the dragged transports: drawn with them (the engine moves it)."""
        scene = self.map_scene
        out: list[str] = []
        for pid in scene.stack_at(scene.piece_items[ids[0]].piece.location):
            if pid not in ids and scene.cargo_host(pid) in ids:
                out.append(pid)
        return out

    def mousePressEvent(self, event: QMouseEvent) -> None:
        drag = self._drag
        if drag is not None and drag.active and event.button() == Qt.MouseButton.RightButton:
            # A right-click while dragging routes the move through that space (waypoint).
            loc = self._location_at_view(event.position())
            if loc is not None and loc != drag.origin and loc not in drag.waypoints:
                drag.waypoints.append(loc)
                self._draw_route(drag, loc)
                self.hoverChanged.emit("Route: " + " → ".join(
                    self.describe(x).split(":")[0] for x in [drag.origin, *drag.waypoints]))
            event.accept()
            return
        self._press_empty = None
        if event.button() == Qt.MouseButton.LeftButton and self.board is not None:
            item = self._stack_item_at(event.position())
            if item is not None:
                scene = self.map_scene
                loc = item.piece.location
                mods = event.modifiers()
                whole = bool(mods & Qt.KeyboardModifier.ShiftModifier)
                hit = self._hit(item)
                if whole:
                    ids = self._group_of(hit)
                elif hit in self._selection and len(self._selection) > 1:
                    ids = [p for p in self._selection
                           if scene.piece_items[p].piece.location == loc]
                else:
                    ids = [hit]
                # Cargo travels with a transport that is dragged too: only the transport moves.
                ids = [p for p in ids if scene.cargo_host(p) not in ids] or [hit]
                grab = self.scene_point(event.position()) - scene.piece_items[ids[-1]].pos()
                self._drag = _Drag(loc, event.position(), ids, whole, grab, hit=hit,
                                   modifiers=mods, riders=self._riders(ids))
                event.accept()
                return
            self._press_empty = event.position()
        super().mousePressEvent(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        """A double-click on a counter selects every counter of its type and side there."""
        item = self._stack_item_at(event.position()) if self.board is not None else None
        if item is None or event.button() != Qt.MouseButton.LeftButton:
            super().mouseDoubleClickEvent(event)
            return
        self.select_all_of_type(self._hit(item))
        event.accept()

    def select_all_of_type(self, piece_id: str) -> list[str]:
        """Select the pieces of `piece_id`'s type and side in its stack (emits)."""
        scene = self.map_scene
        p = scene.piece_items[piece_id].piece
        same = [q for q in scene.stack_at(p.location)
                if scene.piece_items[q].piece.type == p.type
                and scene.piece_items[q].piece.side == p.side]
        same = [q for q in same if q != piece_id] + [piece_id]
        self._set_selection(same)
        return same

    def _set_selection(self, ids: list[str]) -> None:
        before = list(self._selection)
        self.select_pieces(ids)
        if self._selection != before:
            self.selectionChanged.emit(list(self._selection))
            if self._selected is not None:
                self.pieceSelected.emit(self._selected)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        drag = self._drag
        if drag is not None:
            if not drag.active:
                dist = (event.position() - drag.press_view).manhattanLength()
                if dist >= QApplication.startDragDistance():
                    self._start_drag(drag)
            if drag.active:
                self._move_drag(drag, event.position())
            event.accept()
            return
        super().mouseMoveEvent(event)
        self._update_hover(event.position())

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        drag = self._drag
        if drag is not None and event.button() == Qt.MouseButton.LeftButton:
            self._drag = None
            if drag.active:
                self._end_drag_visuals(drag)
                loc = self._location_at_view(event.position())
                if loc is not None and loc != drag.origin:
                    if self.map_scene.expanded == drag.origin:
                        self.expand_stack(None)  # the fan has done its work
                    if drag.whole_stack:
                        self.stackDropped.emit(drag.origin, loc)
                    elif drag.waypoints and len(drag.piece_ids) == 1:
                        route = [w for w in drag.waypoints if w != loc]
                        self.routeDropped.emit(drag.piece_ids[0], loc, route)
                    else:
                        self._emit_drop(drag.piece_ids, loc)
            elif not self._place_at(drag.origin):
                self._click_stack(drag)
            event.accept()
            return
        press = self._press_empty
        self._press_empty = None
        super().mouseReleaseEvent(event)
        if press is not None and event.button() == Qt.MouseButton.LeftButton:
            if (event.position() - press).manhattanLength() < QApplication.startDragDistance():
                loc = self._location_at_view(event.position())
                if loc is not None and self._place_at(loc):
                    return
                self.expand_stack(None)
                if loc is not None:
                    self.locationClicked.emit(loc)

    def _emit_drop(self, ids: list[str], loc: str) -> None:
        if len(ids) == 1:
            self.pieceDropped.emit(ids[0], loc)
        else:
            self.piecesDropped.emit(list(ids), loc)

    def _place_at(self, loc: str) -> bool:
        """With a unit to place, a click on one of its legal spaces places it there."""
        pid = self._placing
        if pid is None or loc not in self._legal.get(pid, ()):
            return False
        self.placeRequested.emit(pid, loc)
        return True

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:  # noqa: N802 - Qt override
        """Right-click: what may be done with this counter or space (the window's menu)."""
        if self.board is None:
            return
        if self._drag is not None:
            event.accept()  # a right-click during a drag adds a waypoint (mousePressEvent)
            return
        pos = QPointF(event.pos())
        item = self._stack_item_at(pos)
        pid = ""
        if item is not None:
            pid = self._hit(item)
            if pid not in self._selection:
                self._set_selection([pid])
            loc = item.piece.location
        else:
            found = self._location_at_view(pos)
            if found is None:
                return
            loc = found
        self.contextRequested.emit(loc, pid, event.globalPos())
        event.accept()

    def _menu_for_selection(self) -> None:
        pid = self._selected
        item = self.map_scene.piece_items.get(pid or "")
        if pid is None or item is None:
            return
        at = self.mapToGlobal(self.mapFromScene(item.pos()))
        self.contextRequested.emit(item.piece.location, pid, at)

    def event(self, event: QEvent) -> bool:
        # Tab and Shift+Tab cycle the counters of the selected stack, not the focus.
        if event.type() == QEvent.Type.KeyPress and self._selected is not None:
            key = event.key()  # type: ignore[attr-defined]
            if key in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab):
                self.cycle_stack(-1 if key == Qt.Key.Key_Backtab else 1)
                return True
        return super().event(event)

    def cycle_stack(self, step: int = 1) -> str | None:
        """Select the next counter (top down) of the selected piece's stack; emits."""
        pid = self._selected
        if pid is None or pid not in self.map_scene.piece_items:
            return None
        loc = self.map_scene.piece_items[pid].piece.location
        order = list(reversed(self.map_scene.grouped(self.map_scene.stack_at(loc))))
        nxt = order[(order.index(pid) + step) % len(order)]
        if len(order) > 1 and self.map_scene.box_of(loc) is None:
            self.expand_stack(loc)
        self._set_selection([nxt])
        return nxt

    # -- drops from other widgets (the Stack dock) ---------------------------------------

    def _dropped_ids(self, event: QDragEnterEvent | QDragMoveEvent | QDropEvent) -> list[str]:
        mime = event.mimeData()
        if mime is None or not mime.hasFormat(PIECES_MIME):
            return []
        raw = bytes(mime.data(PIECES_MIME).data()).decode("utf-8", "replace")
        return [x for x in raw.splitlines() if x]

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 - Qt override
        if self._dropped_ids(event):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:  # noqa: N802 - Qt override
        if self._dropped_ids(event):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 - Qt override
        ids = self._dropped_ids(event)
        loc = self._location_at_view(event.position())
        if not ids or loc is None:
            event.ignore()
            return
        event.acceptProposedAction()
        self._emit_drop(ids, loc)

    def leaveEvent(self, event: Any) -> None:
        if self._hover is not None:
            self._hover = None
            self.hoverChanged.emit("")
        super().leaveEvent(event)

    def _click_stack(self, drag: _Drag) -> None:
        """A click on a counter: a folded stack of two or more fans out; Ctrl toggles the
        counter in the selection, Shift adds it; otherwise it alone is selected."""
        scene = self.map_scene
        hit = drag.hit or drag.piece_ids[-1]
        loc = drag.origin
        ctrl = bool(drag.modifiers & Qt.KeyboardModifier.ControlModifier)
        shift = bool(drag.modifiers & Qt.KeyboardModifier.ShiftModifier)
        same_place = [p for p in self._selection if scene.piece_items[p].piece.location == loc]
        if ctrl and hit in same_place:
            ids = [p for p in same_place if p != hit]
        elif ctrl or shift:
            ids = [p for p in same_place if p != hit] + [hit]
        else:
            ids = [hit]
        if scene.box_of(loc) is None:
            self.expand_stack(loc)
        self._set_selection(ids)
        self.locationClicked.emit(loc)
        self.stackClicked.emit(loc)

    def _location_at_view(self, pos: QPointF) -> str | None:
        board = self.board
        if board is None:
            return None
        p = self.scene_point(pos)
        return board.location_at(p.x(), p.y())

    def _update_hover(self, pos: QPointF) -> None:
        loc = self._location_at_view(pos)
        if loc == self._hover:
            return
        self._hover = loc
        self.hoverChanged.emit(self.describe(loc))

    def describe(self, loc: str | None) -> str:
        """The hover text of a location: the map's describe(), a box's name, or ""."""
        board = self.board
        if board is None or loc is None:
            return ""
        if loc.startswith(BOX_PREFIX):
            for b in board.boxes:
                if BOX_PREFIX + b.id == loc:
                    return b.name
        try:
            return board.describe(loc)
        except KeyError:
            return ""

    # -- dragging ----------------------------------------------------------------------------

    def _start_drag(self, drag: _Drag) -> None:
        drag.active = True
        for it in self._highlight_items:  # the selection's legal moves give way to the drag's
            if isinstance(it, CostBadgeItem) or (isinstance(it, HighlightItem)
                                                  and it.kind == "legal"):
                it.setVisible(False)
        dests, costs = self._legal_for(drag.piece_ids)
        self._drag_items = self._make_highlights(dests, "legal", costs)
        for i, pid in enumerate(drag.piece_ids + drag.riders):
            self.map_scene.piece_items[pid].setZValue(Z_DRAG + i * 0.01)
        self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)

    def _move_drag(self, drag: _Drag, view_pos: QPointF) -> None:
        scene = self.map_scene
        p = self.scene_point(view_pos) - drag.grab
        d = STACK_STEP * scene.counter
        n = len(drag.piece_ids)
        for i, pid in enumerate(drag.piece_ids):
            k = n - 1 - i
            scene.piece_items[pid].setPos(p.x() - k * d, p.y() + k * d)
        for j, pid in enumerate(drag.riders):  # cargo stays on its transport
            host = scene.piece_items.get(scene.cargo_host(pid) or "")
            if host is not None:
                s = scene.counter
                scene.piece_items[pid].setPos(host.pos().x() - 0.25 * s + (j % 2) * 0.5 * s,
                                              host.pos().y() + 0.42 * s)
        loc = self._location_at_view(view_pos)
        if self._drop_item is not None and (loc is None or self._drop_item.loc != loc):
            scene.removeItem(self._drop_item)
            self._drop_item = None
        if loc is not None and self._drop_item is None and loc != drag.origin:
            self._drop_item = HighlightItem(scene, loc, "drop")
            scene.addItem(self._drop_item)
        if loc != self._hover:
            self._hover = loc
            self.hoverChanged.emit(self.describe(loc))
        if drag.waypoints:
            self._draw_route(drag, loc)

    def _draw_route(self, drag: _Drag, end: str | None) -> None:
        """The route so far: origin, waypoints, then the space under the cursor."""
        board = self.board
        if board is None:
            return
        stops = [drag.origin, *drag.waypoints] + ([end] if end and end not in
                                                  drag.waypoints else [])
        path = QPainterPath()
        for i, loc in enumerate(stops):
            x, y = board.center(loc)
            if i == 0:
                path.moveTo(x, y)
            else:
                path.lineTo(x, y)
        if self._route_item is None:
            self._route_item = QGraphicsPathItem()
            pen = QPen(QColor(255, 140, 0, 230), max(2.0, self.map_scene.counter * 0.12))
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
            self._route_item.setPen(pen)
            self._route_item.setZValue(Z_DRAG - 1)
            self.map_scene.addItem(self._route_item)
        self._route_item.setPath(path)

    def _end_drag_visuals(self, drag: _Drag | None = None) -> None:
        if self._route_item is not None:
            self.map_scene.removeItem(self._route_item)
            self._route_item = None
        for it in self._drag_items:
            self.map_scene.removeItem(it)
        self._drag_items = []
        if self._drop_item is not None:
            self.map_scene.removeItem(self._drop_item)
            self._drop_item = None
        for it in self._highlight_items:
            it.setVisible(True)
        # Counters go home; `set_pieces` moves them if the engine accepts the move.
        for loc in ({drag.origin} if drag is not None else set(self.map_scene.stacks)):
            self.map_scene.layout_stack(loc)
        self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)

    def _cancel_drag(self) -> None:
        drag = self._drag
        self._drag = None
        if drag is not None and drag.active:
            self._end_drag_visuals(drag)

    def dragging(self) -> bool:
        return self._drag is not None and self._drag.active

