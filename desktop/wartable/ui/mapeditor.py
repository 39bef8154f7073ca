"""The map editor: paint terrain per hex, toggle hexside features, rename places (issue 3).

A panel (meant for a dock) for one `MapView` and its `HexMap`. Edits are collected in a
`MapOverrides` and shown live on the view; "Save corrections" writes them to the player's
corrections file (`gamedata.user_corrections_path`), which is applied on top of the built map
whenever a game loads, so the edits survive map rebuilds. Export/Import share the same file.

Mouse input comes from an event filter on the view's viewport while the editor is active
(`set_active`), so the map view needs no editor mode: the filter eats left-button presses,
drags and releases, so the view neither pans nor drags counters while painting. Wheel and
hover still reach the view.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field, replace
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QPointF, Qt, QTimer, Signal
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QFileDialog,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from wartable.core.errors import MapError, WartableError
from wartable.core.frozen import FrozenMap
from wartable.core.hexgrid import Hexside, hexside_endpoints
from wartable.maps.model import HexMap
from wartable.maps.overrides import (
    MapOverrides,
    apply_overrides,
    dump_overrides,
)
from wartable.model.definition import Side, UnitType
from wartable.persistence import gamedata
from wartable.persistence.boundedread import InputFileError
from wartable.persistence.savefile import write_atomic
from wartable.ui.map.items import CounterDefinition
from wartable.ui.map.view import MapView

TOOL_PAINT, TOOL_HEXSIDE, TOOL_RENAME = "paint", "hexside", "rename"
FEATURES: tuple[str, ...] = ("river", "major_river", "border", "sea", "lake", "mountain")
HIGHLIGHT_KIND = "editor"  # the selected place's hex; its own highlight set on the view
HINTS = {
    TOOL_PAINT: "Click or drag over hexes to paint them.",
    TOOL_HEXSIDE: "Click near a hexside to add or remove the feature.",
    TOOL_RENAME: "Click a place, type its new name, press Enter.",
}
FILE_FILTER = "Map corrections (*.overrides.json);;JSON files (*.json);;All files (*)"


@dataclass(frozen=True)
class _NoCounters:
    """A definition with no sides or unit types, for a view that has none yet."""

    sides: tuple[Side, ...] = ()
    unit_types: FrozenMap[str, UnitType] = field(default_factory=FrozenMap)


def _segment_distance(p: tuple[float, float], a: tuple[float, float],
                      b: tuple[float, float]) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    den = dx * dx + dy * dy
    t = 0.0 if den == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / den))
    return math.hypot(p[0] - (ax + t * dx), p[1] - (ay + t * dy))


def nearest_hexside(board: HexMap, x: float, y: float) -> tuple[str, str] | None:
    """The labels of the two hexes across the hexside nearest (x, y), among the six sides
    of the hex under the point; None off the map or when that side is the map's edge (it
    has no second hex to name, and toggling another side instead would surprise)."""
    loc = board.location_at(x, y)
    if loc is None or board.box_at(x, y) is not None:
        return None
    h = board.hex_of(loc)
    _, n = min((_segment_distance((x, y), *hexside_endpoints(board.layout,
                                                              Hexside.between(h, n))), n)
               for n in h.neighbors())
    return (loc, board.label_of(n)) if n in board.hexes else None


def _unrename(board: HexMap, o: MapOverrides) -> HexMap:
    """The board with `o`'s renames undone where they were applied, so `o` applies onto it.

    The board a game hands over already carries the player's saved corrections; terrain and
    hexside entries set values, so applying them twice is harmless, but a rename keyed by a
    name the board no longer has would fail.
    """
    back = {new: old for old, new in o.renames.items() if new != old}
    names = {p.name for p in board.places}
    if not any(n in names for n in back):
        return board
    places = tuple(replace(p, name=back.get(p.name, p.name)) for p in board.places)
    hexes = {h: replace(i, places=tuple(back.get(n, n) for n in i.places))
             if i.places else i for h, i in board.hexes.items()}
    return replace(board, places=places, hexes=FrozenMap(hexes))


class MapEditor(QWidget):
    """The editor panel; `attach` it to a view, `set_active(True)` to edit with the mouse."""

    overridesChanged = Signal()  # noqa: N815 - Qt signal naming
    saved = Signal(str)  # the corrections file written

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view: MapView | None = None
        self._original: HexMap | None = None  # the board the overrides apply onto
        self._definition: CounterDefinition = _NoCounters()
        self.overrides: MapOverrides = MapOverrides("")
        self.history: list[MapOverrides] = []  # previous values, for undo
        self.saved_overrides: MapOverrides = self.overrides
        self._active = False
        self._pressed = False
        self._last_painted: str | None = None
        self._stroke_start: MapOverrides | None = None  # the overrides when a drag began
        self._flush_timer = QTimer(self)
        self._flush_timer.setSingleShot(True)
        self._flush_timer.setInterval(0)
        self._flush_timer.timeout.connect(lambda: self._refresh())
        self._place: str | None = None  # the place the name field edits
        self._place_hex: str | None = None

        self.title = QLabel("<b>Map editor</b>: no map")
        self.title.setWordWrap(True)

        tools = QGroupBox("Tool")
        grid = QGridLayout(tools)
        self.tool_group = QButtonGroup(self)
        self.paint_button = QRadioButton("Paint terrain")
        self.hexside_button = QRadioButton("Toggle hexside feature")
        self.rename_button = QRadioButton("Rename place")
        self.terrain_combo = QComboBox()
        self.feature_combo = QComboBox()
        for f in FEATURES:
            self.feature_combo.addItem(f.replace("_", " "), f)
        self.place_edit = QLineEdit()
        self.place_edit.setPlaceholderText("click a place on the map")
        self.place_edit.setEnabled(False)
        self.place_edit.returnPressed.connect(self._on_rename_entered)
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.hint.setStyleSheet("color: palette(mid);")
        for row, (button, extra) in enumerate(((self.paint_button, self.terrain_combo),
                                               (self.hexside_button, self.feature_combo),
                                               (self.rename_button, self.place_edit))):
            self.tool_group.addButton(button)
            grid.addWidget(button, 2 * row, 0)
            grid.addWidget(extra, 2 * row + 1, 0)
        grid.addWidget(self.hint, 6, 0)
        self.paint_button.setChecked(True)
        self.hint.setText(HINTS[TOOL_PAINT])
        self.tool_group.buttonToggled.connect(lambda *_: self._on_tool_changed())

        self.count_label = QLabel()
        self.undo_button = QPushButton("Undo last edit")
        self.save_button = QPushButton("Save corrections")
        self.export_button = QPushButton("Export…")
        self.import_button = QPushButton("Import…")
        self.undo_button.clicked.connect(self.undo)
        self.save_button.clicked.connect(self._on_save)
        self.export_button.clicked.connect(self._on_export)
        self.import_button.clicked.connect(self._on_import)
        share = QHBoxLayout()
        share.addWidget(self.export_button)
        share.addWidget(self.import_button)
        self.status = QLabel()
        self.status.setWordWrap(True)

        lay = QVBoxLayout(self)
        lay.addWidget(self.title)
        lay.addWidget(tools)
        lay.addWidget(self.count_label)
        lay.addWidget(self.undo_button)
        lay.addWidget(self.save_button)
        lay.addLayout(share)
        lay.addWidget(self.status)
        lay.addStretch(1)
        self._update_controls()

    # -- attaching ---------------------------------------------------------------------------

    def attach(self, view: MapView, board: HexMap,
               definition: CounterDefinition | None = None) -> None:
        """Edit `board` shown in `view`, starting from the player's saved corrections.

        `board` may be the built map or the map as a game loaded it (corrections applied);
        counters on the view are kept. A corrections file that no longer fits the map is
        reported and editing starts from nothing.
        """
        active = self._active
        self.set_active(False)
        self.view = view
        self._definition = (definition if definition is not None
                            else view.map_scene.definition or _NoCounters())
        self.history = []
        self._select_place(None, None)
        o = MapOverrides(board.id)
        self._show_status("")
        path = gamedata.user_corrections_path(board.id)
        if path.exists():
            try:
                loaded = gamedata.read_corrections(path)
                apply_overrides(_unrename(board, loaded), loaded, str(path))
                o = loaded
            except (MapError, OSError, WartableError) as e:
                self._show_status(_one_line(e), error=True)
        self._original = _unrename(board, o)
        self.overrides = self.saved_overrides = o
        self.title.setText(f"<b>Map editor</b>: {html.escape(board.title)}")
        self.terrain_combo.clear()
        for tid, t in board.terrain_types.items():
            self.terrain_combo.addItem(t.name, tid)
        self._refresh()
        self.set_active(active)

    @property
    def board(self) -> HexMap | None:
        """The edited map (the original with the overrides applied)."""
        b = self.view.board if self.view is not None else None
        return b if isinstance(b, HexMap) else None

    @property
    def original(self) -> HexMap | None:
        return self._original

    def set_active(self, active: bool) -> None:
        """While active, left-button clicks and drags on the view edit the map."""
        view = self.view
        if view is not None and active != self._active:
            vp = view.viewport()
            if active:
                vp.installEventFilter(self)
                vp.setCursor(Qt.CursorShape.CrossCursor)
            else:
                vp.removeEventFilter(self)
                vp.setCursor(Qt.CursorShape.OpenHandCursor)  # the view's ScrollHandDrag cursor
        self._end_stroke()
        self._active = active and view is not None
        self._pressed = False

    def is_active(self) -> bool:
        return self._active

    def tool(self) -> str:
        if self.hexside_button.isChecked():
            return TOOL_HEXSIDE
        if self.rename_button.isChecked():
            return TOOL_RENAME
        return TOOL_PAINT

    def set_tool(self, tool: str, choice: str | None = None) -> None:
        """Pick a tool and, for paint and hexside, a terrain id or a feature."""
        button = {TOOL_PAINT: self.paint_button, TOOL_HEXSIDE: self.hexside_button,
                  TOOL_RENAME: self.rename_button}[tool]
        button.setChecked(True)
        combo = {TOOL_PAINT: self.terrain_combo, TOOL_HEXSIDE: self.feature_combo}.get(tool)
        if combo is not None and choice is not None:
            i = combo.findData(choice)
            if i < 0:
                raise ValueError(f"{choice!r} is not offered for {tool}")
            combo.setCurrentIndex(i)

    def edit_count(self) -> int:
        o = self.overrides
        return len(o.terrain) + len(o.hexsides) + len(o.renames)

    # -- edits -------------------------------------------------------------------------------

    def paint(self, label: str, terrain: str | None = None) -> bool:
        """Set a hex's terrain (default: the chosen one); False if nothing changed."""
        # The original board answers: during a stroke the view's board lags the overrides.
        board = self._original
        terrain = terrain or self.terrain_combo.currentData()
        if board is None or not terrain:
            return False
        if terrain not in board.terrain_types:
            self._show_status(f"This map has no terrain {terrain!r}.", error=True)
            return False
        try:
            label = board.label_of(board.hex_of(label))
        except KeyError:
            return False
        if self.overrides.terrain.get(label, board.info(label).terrain) == terrain:
            return False
        new = self.overrides.with_terrain(label, str(terrain))
        if self._stroke_start is None:
            self._edit(new)
        else:
            # Mid-drag: rebuilding the view per hex costs ~0.2 s on a 5,000-hex map, so the
            # view catches up once the queued mouse moves are handled.
            self.overrides = new
            self._flush_timer.start()
            self._update_controls()
        return True

    def toggle_hexside(self, a: str, b: str, feature: str | None = None) -> bool:
        """Toggle a feature (default: the chosen one) on the hexside between two hexes."""
        board = self.board
        feature = feature or self.feature_combo.currentData()
        if board is None or not feature:
            return False
        try:
            ha, hb = board.hex_of(a), board.hex_of(b)
            Hexside.between(ha, hb)
        except (KeyError, ValueError) as e:
            self._show_status(str(e).strip("'\""), error=True)
            return False
        a, b = board.label_of(ha), board.label_of(hb)
        feats = set(board.hexside_features(a, b))
        feats ^= {str(feature)}
        self._edit(self.overrides.with_hexside(a, b, tuple(feats)))
        return True

    def rename(self, old: str, new: str) -> bool:
        """Rename a place; False (with a message) for an unknown place or a taken name."""
        board = self.board
        new = new.strip()
        if board is None or not new or new == old:
            return False
        names = {p.name for p in board.places}
        if old not in names:
            self._show_status(f"There is no place named {old!r} on this map.", error=True)
            return False
        if new in names:
            self._show_status(f"There is already a place named {new!r}.", error=True)
            return False
        self._edit(self.overrides.with_rename(old, new))
        if self._place == old:
            self._select_place(new, self._place_hex)
        return True

    def undo(self) -> bool:
        self._end_stroke()
        if not self.history:
            return False
        self.overrides = self.history.pop()
        self._show_status("")
        self._refresh()
        return True

    def _edit(self, new: MapOverrides) -> None:
        if new == self.overrides or self._original is None:
            return
        try:  # check before committing, so a bad edit leaves the history as it was
            edited = apply_overrides(self._original, new)
        except MapError as e:
            self._show_status(_one_line(e), error=True)
            return
        self.history.append(self.overrides)
        self.overrides = new
        self._show_status("")
        self._refresh(edited)

    # -- files -------------------------------------------------------------------------------

    def corrections_path(self) -> Path | None:
        return gamedata.user_corrections_path(self.overrides.map_id) \
            if self._original is not None else None

    def save(self) -> Path | None:
        """Write the corrections file; the game re-reads it the next time it is opened."""
        path = self.corrections_path()
        if path is None:
            return None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, dump_overrides(self.overrides))
        except OSError as e:
            self._show_status(f"Could not save {path}: {e.strerror or e}", error=True)
            return None
        gamedata.forget(self.overrides.map_id.split("/", 1)[0])
        self.saved_overrides = self.overrides
        self._show_status("Saved; the rules use them the next time the game is opened")
        self._update_controls()
        self.saved.emit(str(path))
        return path

    def export_to(self, path: str | Path) -> bool:
        try:
            write_atomic(path, dump_overrides(self.overrides))
        except OSError as e:
            self._show_status(f"Could not export to {path}: {e.strerror or e}", error=True)
            return False
        self._show_status(f"Exported {self.edit_count()} corrections to {Path(path).name}")
        return True

    def import_from(self, path: str | Path) -> bool:
        """Take the corrections in a file (replacing the current ones; undo brings them back)
        if they fit this map; otherwise show why and change nothing."""
        if self._original is None:
            return False
        try:
            o = gamedata.read_corrections(Path(path))
            apply_overrides(self._original, o, str(path))
        except (MapError, InputFileError) as e:
            self._show_status(_one_line(e), error=True)
            return False
        except OSError as e:
            self._show_status(f"Could not read {path}: {e.strerror or e}", error=True)
            return False
        self._edit(o)
        self._show_status(f"Imported {self.edit_count()} corrections from {Path(path).name}")
        return True

    def _on_save(self) -> None:
        self.save()

    def _on_export(self) -> None:
        if self._original is None:
            return
        name = self.overrides.map_id.replace("/", "-") + ".overrides.json"
        path, _ = QFileDialog.getSaveFileName(self, "Export map corrections", name, FILE_FILTER)
        if path:
            self.export_to(path)

    def _on_import(self) -> None:
        if self._original is None:
            return
        path, _ = QFileDialog.getOpenFileName(self, "Import map corrections", "", FILE_FILTER)
        if path:
            self.import_from(path)

    # -- showing -----------------------------------------------------------------------------

    def _refresh(self, edited: HexMap | None = None) -> None:
        """Show the original board with the overrides on the view, keeping counters, zoom
        and scroll position (MapView.set_board drops the first and refits)."""
        view, original = self.view, self._original
        if view is None or original is None:
            self._update_controls()
            return
        if edited is None:
            edited = apply_overrides(original, self.overrides)
        pieces = [it.piece for it in view.map_scene.piece_items.values()]
        # A view showing the whole map stays fitted (set_board refits); a zoomed-in one
        # keeps its zoom and centre, so painting does not jump the map around.
        seen = view.visible_scene_rect()
        keep = view.board is not None and not seen.contains(view.map_scene.map_rect)
        zoom = view.zoom_percent()
        view.set_board(edited, self._definition)
        if pieces:
            view.set_pieces(pieces)
        if keep:
            view.set_zoom(zoom)
            view.centerOn(seen.center())
        view.set_highlights([self._place_hex] if self._place_hex else [], HIGHLIGHT_KIND)
        self._update_controls()
        self.overridesChanged.emit()

    def _update_controls(self) -> None:
        n = self.edit_count()
        unsaved = " (unsaved)" if self.overrides != self.saved_overrides else ""
        self.count_label.setText(f"{n} correction{'s' if n != 1 else ''}{unsaved}")
        has_map = self._original is not None
        self.undo_button.setEnabled(bool(self.history))
        for w in (self.save_button, self.export_button, self.import_button):
            w.setEnabled(has_map)

    def _show_status(self, text: str, error: bool = False) -> None:
        self.status.setText(text)
        self.status.setStyleSheet("color: #b00020;" if error else "")

    def _on_tool_changed(self) -> None:
        self.hint.setText(HINTS[self.tool()])
        if self.tool() != TOOL_RENAME:
            self._select_place(None, None)
            self._refresh_highlight()

    def _select_place(self, name: str | None, label: str | None) -> None:
        self._place, self._place_hex = name, label
        self.place_edit.setText(name or "")
        self.place_edit.setEnabled(name is not None)

    def _refresh_highlight(self) -> None:
        if self.view is not None and self.view.board is not None:
            self.view.set_highlights([self._place_hex] if self._place_hex else [],
                                     HIGHLIGHT_KIND)

    def pick_place(self, label: str) -> str | None:
        """Select the place in a hex for renaming (clicking it again picks the next one)."""
        board = self.board
        try:
            names = board.info(label).places if board is not None else ()
        except KeyError:
            names = ()
        if not names:
            self._select_place(None, None)
        else:
            i = names.index(self._place) + 1 if self._place in names else 0
            self._select_place(names[i % len(names)], label)
            self.place_edit.setFocus()
            self.place_edit.selectAll()
        self._refresh_highlight()
        return self._place

    def _on_rename_entered(self) -> None:
        if self._place is not None:
            self.rename(self._place, self.place_edit.text())

    # -- mouse -------------------------------------------------------------------------------

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        kind = event.type()
        if not self._active or self.view is None or kind not in (
                QEvent.Type.MouseButtonPress, QEvent.Type.MouseMove,
                QEvent.Type.MouseButtonRelease, QEvent.Type.MouseButtonDblClick):
            return super().eventFilter(watched, event)
        assert isinstance(event, QMouseEvent)
        left = Qt.MouseButton.LeftButton
        if kind in (QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonDblClick):
            if event.button() != left:
                return False
            self._pressed = True
            self._last_painted = None
            if self.tool() == TOOL_PAINT:
                self._stroke_start = self.overrides
            self._at(self.view.scene_point(event.position()), pressed=True)
            return True
        if kind == QEvent.Type.MouseMove:
            if not (self._pressed and event.buttons() & left):
                return False  # hover still reaches the view
            if self.tool() == TOOL_PAINT:
                self._at(self.view.scene_point(event.position()), pressed=False)
            return True
        if event.button() != left or not self._pressed:
            return False
        self._pressed = False
        self._end_stroke()
        return True

    def _end_stroke(self) -> None:
        """A drag's painting is one edit for undo; show it now."""
        start, self._stroke_start = self._stroke_start, None
        if start is None:
            return
        if self.overrides != start:
            self.history.append(start)
            self._flush_timer.stop()
            self._refresh()
        self._update_controls()

    def _at(self, p: QPointF, pressed: bool) -> None:
        """Apply the current tool at a scene point (a press, or a drag while painting)."""
        board = self.board
        if board is None or board.box_at(p.x(), p.y()) is not None:
            return
        label = board.location_at(p.x(), p.y())
        tool = self.tool()
        if tool == TOOL_PAINT:
            if label is not None and label != self._last_painted:
                self._last_painted = label
                self.paint(label)
        elif not pressed:
            return
        elif tool == TOOL_HEXSIDE:
            side = nearest_hexside(board, p.x(), p.y())
            if side is not None:
                self.toggle_hexside(*side)
        elif label is not None:
            self.pick_place(label)


def _one_line(e: Exception) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


__all__ = ["FEATURES", "MapEditor", "nearest_hexside"]
