"""The game log, filterable by turn, phase, side, kind and text, to settle "what just
happened" (issue 7).

The phase filter names the steps of the sequence of play, which are what the rulebooks call
phases: A&A's "Combat Move" (Phase 3) and "Conduct Combat" (Phase 4), 1940's "C. German West
Front Combat Phase" [11.0]. (The engine's own phase level is A&A's "Germany turn" or 1940's
"I. German Player Turn", which the turn and side filters already give.) The engine opens
each step with a "phase" event, "Turn 1: Germany turn — Combat Move" (engine/loop.py); every
later event, until the next one, happened in that step, including those raised while ending
it. The filter lists each once, in play order; with the side filter, "Germany's combat".
"""

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
        self.phase = QComboBox()
        self.phase.setObjectName("logPhase")
        self.phases: list[str] = []  # each event's phase, parallel to self.events
        self.side = QComboBox()
        self.side.setObjectName("logSide")
        self.kind = QComboBox()
        self.kind.setObjectName("logKind")
        self.text = QLineEdit()
        self.text.setPlaceholderText("Search the log")
        self.text.setObjectName("logSearch")
        for w in (self.turn, self.phase, self.side, self.kind):
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
        self.events = []
        self.phases = []
        self._extend(events)
        self._refresh_choices()
        self._refilter()

    def append(self, events: Sequence[Event]) -> None:
        self._extend(events)
        self._refresh_choices()
        for e, ph in zip(events, self.phases[len(self.phases) - len(events):], strict=True):
            if self._matches(e, ph):
                self._add(e)
        self.list.scrollToBottom()

    def _extend(self, events: Sequence[Event]) -> None:
        current = self.phases[-1] if self.phases else ""
        for e in events:
            if e.kind == "phase":
                current = phase_of(e) or current
            self.events.append(e)
            self.phases.append(current)

    def _refresh_choices(self) -> None:
        turns = sorted({e.turn for e in self.events})
        kinds = sorted({e.kind for e in self.events})
        phases = list(dict.fromkeys(p for p in self.phases if p))  # in play order
        for combo, values in ((self.turn, [str(t) for t in turns]), (self.phase, phases),
                              (self.kind, kinds)):
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

    def _matches(self, e: Event, phase: str) -> bool:
        if not e.visible_to(self.viewer):
            return False
        if self.turn.currentText() != _ALL and str(e.turn) != self.turn.currentText():
            return False
        if self.phase.currentText() != _ALL and phase != self.phase.currentText():
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
        for e, ph in zip(self.events, self.phases, strict=True):
            if self._matches(e, ph):
                self._add(e)
        self.list.scrollToBottom()
        # Again once the list has laid out its rows (a freshly loaded game's log).
        QTimer.singleShot(0, self.list, self.list.scrollToBottom)  # dropped if it is gone

    def phase_names(self) -> list[str]:
        """The phase filter's choices (without "All")."""
        return [self.phase.itemText(i) for i in range(1, self.phase.count())]

    def visible_texts(self) -> list[str]:
        return [self.list.item(i).text() for i in range(self.list.count())]


def phase_of(e: Event) -> str:
    """The step (rulebook phase) a "phase" event opens: its step, else the text's last part
    ("Turn 1: Germany turn — Combat Move" -> "Combat Move")."""
    return e.step or e.text.rpartition(" — ")[2]
