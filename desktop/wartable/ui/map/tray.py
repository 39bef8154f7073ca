"""The placement tray: units waiting to be placed (a game's placement boxes, e.g. A&A's
mobilization zone or 1940's set-up pools), docked beside the map instead of drawn in a box
on it. Choosing one lights its legal spaces on the map; a click on one places it there
(MapView.set_placing / placeRequested); a row also drags onto the map."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QAbstractItemView, QLabel, QListWidgetItem, QVBoxLayout, QWidget

from wartable.model.definition import Side
from wartable.model.state import Piece
from wartable.printing.counterart import Palette
from wartable.ui.counters import CounterPixmapCache
from wartable.ui.map.inspector import PieceList
from wartable.ui.map.items import FALLBACK_TYPE, CounterDefinition


class PlacementTray(QWidget):
    """Units to place, one row each; those that may be placed now are enabled."""

    pieceChosen = Signal(str)  # a piece id, or "" when nothing is chosen

    ICON_PX = 48

    def __init__(self, parent: QWidget | None = None,
                 cache: CounterPixmapCache | None = None) -> None:
        super().__init__(parent)
        self._cache = cache or CounterPixmapCache(300)
        self.title = QLabel("No units to place")
        self.title.setWordWrap(True)
        self.list = PieceList()
        self.list.setObjectName("placementList")
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setIconSize(QSize(self.ICON_PX, self.ICON_PX))
        self.list.setSpacing(1)
        self.list.setWordWrap(True)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.itemSelectionChanged.connect(self._on_selection)
        self.hint = QLabel("Choose a unit, then click a green space on the map (or drag it "
                           "there).")
        self.hint.setWordWrap(True)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(self.title)
        lay.addWidget(self.list, 1)
        lay.addWidget(self.hint)
        self._ids: list[str] = []
        self._types: list[str] = []
        self.palette_name: Palette = "standard"

    def set_units(self, pieces: Sequence[Piece], placeable: frozenset[str],
                  definition: CounterDefinition, box_names: Mapping[str, str]) -> None:
        """Show `pieces` (in placement boxes named by `box_names`); the `placeable` ones
        enabled. The chosen unit stays chosen while it is still listed and placeable, else
        the next placeable one of its type, else the first placeable one."""
        chosen = self.chosen()
        chosen_type = next((p.type for p in pieces if p.id == chosen), None)
        if chosen_type is None and chosen in self._ids:  # just placed: the next of its type
            chosen_type = self._types[self._ids.index(chosen)]
        sides = {s.id: s for s in definition.sides}
        order = sorted(pieces, key=lambda p: (p.id not in placeable, p.location, p.side,
                                              p.type, p.id))
        self.list.blockSignals(True)
        self.list.clear()
        self._ids = [p.id for p in order]
        self._types = [p.type for p in order]
        dpr = self.devicePixelRatioF()
        for p in order:
            ut = definition.unit_types.get(p.type, FALLBACK_TYPE)
            side = sides.get(p.side) or Side(p.side, p.side, "#b0b0b0")
            pm = self._cache.pixmap(ut, side, p.attrs, self.ICON_PX * dpr, dpr,
                                    self.palette_name)
            name = str(p.attrs.get("name") or ut.name)
            where = box_names.get(p.location, "")
            it = QListWidgetItem(QIcon(pm), f"{name}\n{side.name}")
            it.setData(Qt.ItemDataRole.UserRole, p.id)
            it.setToolTip(where)
            if p.id not in placeable:
                it.setFlags(Qt.ItemFlag.NoItemFlags)
                it.setToolTip(f"{where}: not to be placed now" if where
                              else "Not to be placed now")
            self.list.addItem(it)
        n = len(placeable & set(self._ids))
        self.title.setText(f"{n} unit{'s' if n != 1 else ''} to place" if n
                           else (f"{len(order)} waiting" if order else "No units to place"))
        keep = chosen if chosen in placeable and chosen in self._ids else next(
            (p.id for p in order if p.id in placeable and p.type == chosen_type), None)
        if keep is None:  # the first to place is chosen: its spaces light up at once
            keep = next((p.id for p in order if p.id in placeable), None)
        if keep is not None:
            self.list.setCurrentRow(self._ids.index(keep))
        self.list.blockSignals(False)
        if keep != chosen:
            self.pieceChosen.emit(keep or "")

    def piece_ids(self) -> list[str]:
        return list(self._ids)

    def chosen(self) -> str | None:
        items = self.list.selectedItems()
        return str(items[0].data(Qt.ItemDataRole.UserRole)) if items else None

    def choose(self, piece_id: str) -> None:
        """Choose a unit as a click on its row does (emits pieceChosen)."""
        self.list.setCurrentRow(self._ids.index(piece_id))

    def _on_selection(self) -> None:
        self.pieceChosen.emit(self.chosen() or "")
