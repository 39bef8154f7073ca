"""The game log, filterable by turn, side, kind and text, to settle "what just happened"."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from wartable.engine.actions import Event
from wartable.model.definition import GameDefinition

_ALL = "All"


class LogPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.events: list[Event] = []
        self.definition: GameDefinition | None = None
        self.viewer: frozenset[str] | None = None  # sides whose private events show
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        row = QHBoxLayout()
        self.turn = QComboBox()
        self.turn.setObjectName("logTurn")
        self.side = QComboBox()
        self.side.setObjectName("logSide")
        self.kind = QComboBox()
        self.kind.setObjectName("logKind")
        self.text = QLineEdit()
        self.text.setPlaceholderText("Search the log")
        self.text.setObjectName("logSearch")
        for w in (self.turn, self.side, self.kind):
            w.addItem(_ALL)
            w.currentTextChanged.connect(self._refilter)
            row.addWidget(w)
        self.text.textChanged.connect(self._refilter)
        row.addWidget(self.text, 1)
        lay.addLayout(row)
        self.list = QListWidget()
        self.list.setObjectName("logList")
        self.list.setUniformItemSizes(True)
        lay.addWidget(self.list)

    def set_definition(self, d: GameDefinition) -> None:
        self.definition = d
        self.side.blockSignals(True)
        self.side.clear()
        self.side.addItem(_ALL)
        for s in d.sides:
            self.side.addItem(s.name, s.id)
        self.side.blockSignals(False)

    def set_events(self, events: Sequence[Event]) -> None:
        self.events = list(events)
        self._refresh_choices()
        self._refilter()

    def append(self, events: Sequence[Event]) -> None:
        self.events.extend(events)
        self._refresh_choices()
        for e in events:
            if self._matches(e):
                self._add(e)
        self.list.scrollToBottom()

    def _refresh_choices(self) -> None:
        turns = sorted({e.turn for e in self.events})
        kinds = sorted({e.kind for e in self.events})
        for combo, values in ((self.turn, [str(t) for t in turns]), (self.kind, kinds)):
            have = [combo.itemText(i) for i in range(1, combo.count())]
            if have != values:
                cur = combo.currentText()
                combo.blockSignals(True)
                combo.clear()
                combo.addItem(_ALL)
                combo.addItems(values)
                combo.setCurrentText(cur if cur in values else _ALL)
                combo.blockSignals(False)

    def set_viewer(self, sides: frozenset[str] | None) -> None:
        """Hidden information: show only events these sides may read (None: all)."""
        if sides != self.viewer:
            self.viewer = sides
            self._refilter()

    def _matches(self, e: Event) -> bool:
        if not e.visible_to(self.viewer):
            return False
        if self.turn.currentText() != _ALL and str(e.turn) != self.turn.currentText():
            return False
        side_id = self.side.currentData()
        if self.side.currentText() != _ALL and e.side != side_id:
            return False
        if self.kind.currentText() != _ALL and e.kind != self.kind.currentText():
            return False
        q = self.text.text().strip().lower()
        return not q or q in e.text.lower()

    def _add(self, e: Event) -> None:
        rule = f"  [{e.rule}]" if e.rule else ""
        prefix = f"T{e.turn} " if e.turn else ""
        item = QListWidgetItem(f"{prefix}{e.text}{rule}")
        if e.kind == "phase":
            f = item.font()
            f.setBold(True)
            item.setFont(f)
        self.list.addItem(item)

    def _refilter(self) -> None:
        self.list.clear()
        for e in self.events:
            if self._matches(e):
                self._add(e)
        self.list.scrollToBottom()
        # Again once the list has laid out its rows (a freshly loaded game's log).
        QTimer.singleShot(0, self.list.scrollToBottom)

    def visible_texts(self) -> list[str]:
        return [self.list.item(i).text() for i in range(self.list.count())]
