"""The stack inspector: the pieces at one location with their counters."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PySide6.QtCore import QMimeData, QSize, Qt, Signal
from PySide6.QtGui import (
    QAction,
    QIcon,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from wartable.model.definition import Side
from wartable.model.state import Piece
from wartable.printing.counterart import Palette, factor_text
from wartable.ui.counters import CounterPixmapCache
from wartable.ui.map.items import FALLBACK_TYPE, CounterDefinition
from wartable.ui.map.view import PIECES_MIME


class PieceList(QListWidget):
    """A list of pieces (each item's UserRole holds its id) whose rows drag onto the map:
    the drag carries the selected piece ids (`PIECES_MIME`), which the map turns into
    moves."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setDragEnabled(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)

    def mimeTypes(self) -> list[str]:  # noqa: N802 - Qt override
        return [PIECES_MIME]

    def mimeData(self, items: list[QListWidgetItem]) -> QMimeData:  # type: ignore[override]  # noqa: N802
        data = QMimeData()
        ids = [str(i.data(Qt.ItemDataRole.UserRole)) for i in items]
        data.setData(PIECES_MIME, "\n".join(ids).encode())
        return data


class StackInspector(QWidget):
    """The pieces at one location, top of the stack first, with their counters."""

    pieceSelected = Signal(str)
    topRequested = Signal(str)  # piece id: its owner shows it on top of its stack [7.3]

    ICON_PX = 56

    def __init__(self, parent: QWidget | None = None,
                 cache: CounterPixmapCache | None = None) -> None:
        super().__init__(parent)
        self._cache = cache or CounterPixmapCache(500)
        self.title = QLabel("No stack selected")
        self.title.setWordWrap(True)
        self.list = PieceList()
        self.list.setIconSize(QSize(self.ICON_PX, self.ICON_PX))
        self.list.setSpacing(2)
        self.list.itemSelectionChanged.connect(self._on_selection)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.title)
        lay.addWidget(self.list)
        # [7.3] 1940: What If?: the owner chooses which unit the enemy sees on top.
        self.top_button = QPushButton("Show this unit on top (7.3)")
        self.top_button.setObjectName("stackTopButton")
        self.top_button.setToolTip("The enemy sees only the top unit of a stack [7.3]: put "
                                   "the selected unit of yours there (a free action).")
        self.top_button.clicked.connect(self._request_top)
        self.top_button.hide()
        lay.addWidget(self.top_button)
        self.top_action = QAction(self.top_button.text(), self.list)  # the same, right-click
        self.top_action.triggered.connect(self._request_top)
        self.list.addAction(self.top_action)
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.top_sides: frozenset[str] = frozenset()  # sides that may choose tops now
        self._sides: dict[str, str] = {}  # piece id -> side
        self.location = ""
        self._ids: list[str] = []
        self.palette_name: Palette = "standard"

    def set_stack(self, location: str, pieces: Sequence[Piece],
                  definition: CounterDefinition, title: str | None = None,
                  notes: Mapping[str, tuple[str, ...]] | None = None,
                  place: str = "") -> None:
        """Show `pieces` (bottom of the stack first, as on the map) at `location` (named
        `place` for the player); `notes`: per piece, the lines its game lets players read."""
        self.location = location
        sides = {s.id: s for s in definition.sides}
        self.list.blockSignals(True)
        self.list.clear()
        self._ids = []
        self._sides = {p.id: p.side for p in pieces}
        n = len(pieces)
        self.title.setText(title or (f"{place or location}: {n} piece{'s' if n != 1 else ''}"
                                     if location else "No stack selected"))
        dpr = self.devicePixelRatioF()
        for p in reversed(pieces):
            ut = definition.unit_types.get(p.type, FALLBACK_TYPE)
            side = sides.get(p.side) or Side(p.side, p.side, "#b0b0b0")
            pm = self._cache.pixmap(ut, side, p.attrs, self.ICON_PX * dpr, dpr,
                                    self.palette_name)
            name = str(p.attrs.get("name") or ut.name)
            factors = factor_text(ut, p.attrs)
            # What the game's data says players read of it (engine/notes.py): no raw
            # bookkeeping attributes (issue 16).
            lines = [name, f"{side.name} {ut.name}" + (f"  {factors}" if factors else ""),
                     *(notes or {}).get(p.id, ())]
            it = QListWidgetItem(QIcon(pm), "\n".join(lines))
            it.setData(Qt.ItemDataRole.UserRole, p.id)
            it.setToolTip(f"{p.id} ({p.type})")
            self.list.addItem(it)
            self._ids.append(p.id)
        self.list.blockSignals(False)
        self._update_top()

    def set_palette(self, name: Palette) -> None:
        """Counter colours for the next `set_stack`: "standard" or "colourblind"."""
        self.palette_name = name

    def piece_ids(self) -> list[str]:
        """The listed pieces, top of the stack first."""
        return list(self._ids)

    def select(self, piece_id: str | None) -> None:
        """Select a row without emitting pieceSelected (to follow the map's selection)."""
        self.list.blockSignals(True)
        self.list.clearSelection()
        if piece_id in self._ids:
            self.list.setCurrentRow(self._ids.index(piece_id))
        self.list.blockSignals(False)
        self._update_top()

    def set_top_sides(self, sides: frozenset[str]) -> None:
        """The sides whose units may be put on top now [7.3] (empty: no such choice)."""
        self.top_sides = sides
        self._update_top()

    def selected_ids(self) -> list[str]:
        """The rows selected (several with Ctrl/Shift), top of the stack first."""
        return [str(i.data(Qt.ItemDataRole.UserRole)) for i in self.list.selectedItems()]

    def _selected(self) -> str | None:
        items = self.list.selectedItems()
        return str(items[0].data(Qt.ItemDataRole.UserRole)) if items else None

    def _update_top(self) -> None:
        pid = self._selected()
        self.top_button.setVisible(bool(self.top_sides) and len(self._ids) > 1)
        self.top_button.setEnabled(pid is not None and self._sides.get(pid) in self.top_sides)
        self.top_action.setVisible(self.top_button.isEnabled())

    def _request_top(self) -> None:
        pid = self._selected()
        if pid is not None and self._sides.get(pid) in self.top_sides:
            self.topRequested.emit(pid)

    def _on_selection(self) -> None:
        self._update_top()
        items = self.list.selectedItems()
        if items:
            self.pieceSelected.emit(str(items[0].data(Qt.ItemDataRole.UserRole)))
