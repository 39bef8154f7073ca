"""Game → Rule Tables: the player types in the printed values of the tables the rulebook
text does not give (issue 5). Lists the game's tables, ours (provisional) first, each with
its note and a badge; edits a table as a grid (rows of a chart), a form (a mapping of
numbers) or TOML text; Save checks the tables with the game's own rules and writes only the
changed ones to the player's file (persistence/tables.py). Changes apply to new games.
"""

from __future__ import annotations

import copy
import tomllib
from dataclasses import dataclass
from typing import Any, TypeVar

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from wartable.core.errors import DataError
from wartable.games import registry
from wartable.model.values import thaw
from wartable.persistence import gamedata, tables

META = ("provisional", "note")  # a table's marks, not its values
BADGE_OURS = "provisional — ours"
BADGE_YOURS = "your printed values"
YOUR_NOTE = "Your printed values, typed in with Game → Rule Tables."

Scalar = str | int | float | bool


def _scalar(v: Any) -> bool:
    return isinstance(v, str | int | float | bool)


def _content(table: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in table.items() if k not in META}


@dataclass(frozen=True)
class Grid:
    """Where a table's rows are. kind "keyed": table[key] maps a row name to a list of
    values (the CRT); "parallel": several equal-length lists, one column each (the turn
    record); "records": table[key] is a list of rows with named fields (die-roll bands)."""

    kind: str
    key: str
    rows: tuple[str, ...]
    columns: tuple[str, ...]


def grid_of(table: dict[str, Any]) -> Grid | None:
    """The grid a table can be edited as, or None."""
    for k, v in table.items():
        if (isinstance(v, dict) and v and all(isinstance(r, list) and r and all(map(_scalar, r))
                                              for r in v.values())
                and len({len(r) for r in v.values()}) == 1):
            n = len(next(iter(v.values())))
            cols = table.get("columns")  # the CRT's rows in the printed column order
            rows = tuple(cols) if isinstance(cols, list) and set(cols) == set(v) else tuple(v)
            return Grid("keyed", k, rows, tuple(str(i + 1) for i in range(n)))
        if (isinstance(v, list) and v and all(isinstance(r, dict) and all(map(_scalar, r.values()))
                                              for r in v)):
            fields: list[str] = []
            for r in v:
                fields.extend(c for c in r if c not in fields)
            return Grid("records", k, tuple(str(i + 1) for i in range(len(v))), tuple(fields))
    lists = [k for k, v in table.items()
             if isinstance(v, list) and len(v) > 1 and all(map(_scalar, v))]
    if len(lists) >= 2 and len({len(table[k]) for k in lists}) == 1:
        n = len(table[lists[0]])
        return Grid("parallel", "", tuple(str(i + 1) for i in range(n)), tuple(lists))
    return None


def _form_keys(table: dict[str, Any]) -> tuple[str, ...] | None:
    """The keys of a table that is a mapping of plain values (a form), else None."""
    keys = tuple(k for k in table if k not in META)
    if keys and all(_scalar(table[k]) for k in keys):
        return keys
    return None


def _parse_like(text: str, old: Any) -> Scalar:
    """A cell's text as the kind of value it replaces (a number stays a number)."""
    t = text.strip()
    if isinstance(old, bool):
        if t.lower() not in ("true", "false"):
            raise ValueError(f"{t!r} should be true or false")
        return t.lower() == "true"
    if isinstance(old, int):
        return int(t)
    if isinstance(old, float):
        return float(t)
    return t


class TablesDialog(QDialog):
    def __init__(self, game_id: str | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("tablesDialog")
        self.setWindowTitle("Rule Tables (provisional values)")
        self.resize(960, 620)
        self.shipped: dict[str, dict[str, Any]] = {}
        self.working: dict[str, dict[str, Any]] = {}
        self.saved: dict[str, dict[str, Any]] = {}  # the player's file as loaded
        self.current: str | None = None
        self._loading = False

        top = QHBoxLayout()
        top.addWidget(QLabel("Game:"))
        self.game = _named(QComboBox(), "tablesGame")
        for mod in registry.installed():
            self.game.addItem(mod.title, mod.id)
        top.addWidget(self.game, 1)
        intro = QLabel("Type in the values printed on your charts where ours are provisional. "
                       "Changes apply to <b>new games</b>; a game in progress and your saves "
                       "keep the values they were played with.")
        intro.setWordWrap(True)
        self.problem = _named(QLabel(), "tablesProblem")
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #a00;")

        self.list = _named(QListWidget(), "tablesList")
        self.list.currentItemChanged.connect(self._pick)
        right = QWidget()
        rv = QVBoxLayout(right)
        self.title = _named(QLabel(), "tablesTitle")
        self.badge = _named(QLabel(), "tablesBadge")
        head = QHBoxLayout()
        head.addWidget(self.title, 1)
        head.addWidget(self.badge)
        self.note = _named(QLabel(), "tablesNote")
        self.note.setWordWrap(True)
        # Ignored: the note wraps to the pane's width instead of widening the pane.
        self.note.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.hint = _named(QLabel(), "tablesHint")
        self.hint.setStyleSheet("color: #555;")
        self.note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.tabs = _named(QTabWidget(), "tablesTabs")
        self.grid = _named(QTableWidget(), "tablesGrid")
        self.grid.itemChanged.connect(self._cell_edited)
        self.form_host = QWidget()
        self.form = QFormLayout(self.form_host)
        self.text = _named(QPlainTextEdit(), "tablesText")
        self.text.textChanged.connect(self._text_edited)
        self.tabs.currentChanged.connect(self._tab_changed)
        self.error = _named(QLabel(), "tablesError")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #a00;")
        rv.addLayout(head)
        rv.addWidget(self.note)
        rv.addWidget(self.hint)
        rv.addWidget(self.tabs, 1)
        rv.addWidget(self.error)
        split = QSplitter()
        split.addWidget(self.list)
        split.addWidget(right)
        split.setStretchFactor(1, 1)
        split.setSizes([330, 600])

        buttons = QHBoxLayout()
        self.reset = _named(QPushButton("Reset to ours"), "tablesReset")
        self.reset.clicked.connect(self.reset_table)
        self.save_btn = _named(QPushButton("Save"), "tablesSave")
        self.save_btn.clicked.connect(self.save)
        close = QPushButton("Close")
        close.clicked.connect(self.reject)
        buttons.addWidget(self.reset)
        buttons.addStretch(1)
        buttons.addWidget(self.save_btn)
        buttons.addWidget(close)

        lay = QVBoxLayout(self)
        lay.addLayout(top)
        lay.addWidget(intro)
        lay.addWidget(self.problem)
        lay.addWidget(split, 1)
        lay.addLayout(buttons)

        self.game.currentIndexChanged.connect(lambda _i: self.load_game(self.game_id()))
        i = self.game.findData(game_id) if game_id else 0
        self.game.setCurrentIndex(max(i, 0))
        if self.game.currentIndex() == 0 or i < 0:
            self.load_game(self.game_id())

    # --- state ---------------------------------------------------------------------------
    def game_id(self) -> str:
        return str(self.game.currentData())

    def load_game(self, game_id: str) -> None:
        base = gamedata.load_game(game_id)
        self.shipped = {k: thaw(v) for k, v in base.definition.tables.items()
                        if isinstance(thaw(v), dict)}
        self.problem.setText("")
        try:
            self.saved = tables.read_overrides(game_id)
            tables.check_overrides(base, self.saved, str(tables.overrides_path(game_id)))
        except (DataError, OSError, UnicodeDecodeError) as e:
            self.problem.setText(f"Your file was not used, ours are shown: {e}. Saving here "
                                 "replaces it.")
            self.saved = {}
        self.working = {k: copy.deepcopy(self.saved.get(k, v)) for k, v in self.shipped.items()}
        self.current = None
        self._fill_list()

    def overridden(self, tid: str) -> bool:
        return _content(self.working[tid]) != _content(self.shipped[tid])

    def badge_of(self, tid: str) -> str:
        if self.overridden(tid):
            return BADGE_YOURS
        return BADGE_OURS if self.shipped[tid].get("provisional") else ""

    def _order(self) -> list[str]:
        # Provisional tables first: those are the ones to type in.
        return sorted(self.shipped, key=lambda t: (not self.shipped[t].get("provisional"), t))

    def _fill_list(self) -> None:
        self.list.blockSignals(True)
        self.list.clear()
        for tid in self._order():
            item = QListWidgetItem()
            item.setData(Qt.ItemDataRole.UserRole, tid)
            self.list.addItem(item)
        self.list.blockSignals(False)
        self._label_items()
        if self.list.count():
            self.list.setCurrentRow(0)

    def _label_items(self) -> None:
        for i in range(self.list.count()):
            item = self.list.item(i)
            tid = str(item.data(Qt.ItemDataRole.UserRole))
            name = tables.short_name(tid)
            label = tid if name == tid else f"{name} ({tid})"
            badge = self.badge_of(tid)
            item.setText(f"{label}   ({badge})" if badge else label)
            colour = "#05602b" if badge == BADGE_YOURS else "#8a5a00" if badge else "#000"
            item.setForeground(QColor(colour))

    def _pick(self, item: QListWidgetItem | None, _old: object = None) -> None:
        if item is None:
            return
        self.current = str(item.data(Qt.ItemDataRole.UserRole))
        self._show_table()

    def _show_table(self) -> None:
        tid = self.current
        if tid is None:
            return
        self._loading = True
        t = self.working[tid]
        name = tables.short_name(tid)
        self.title.setText(f"<b>{name}</b>" + ("" if name == tid else f" — tables.{tid}"))
        self._show_badge()
        note = self.shipped[tid].get("note", "")
        self.note.setText(f"Our note: {note}" if note else "(no note)")
        while self.tabs.count():
            self.tabs.removeTab(0)
        g = grid_of(t)
        self.hint.setText(_hint(tid, t, g))
        if g is not None:
            self._fill_grid(t, g)
            self.tabs.addTab(self.grid, "Table")
        elif _form_keys(t) is not None:
            self._fill_form(t)
            self.tabs.addTab(self.form_host, "Values")
        self.text.setPlainText(tables.to_toml({tid: t}).split("\n", 3)[3])
        self.tabs.addTab(self.text, "TOML")
        self.error.setText("")
        self._loading = False

    def _show_badge(self) -> None:
        tid = self.current
        if tid is None:
            return
        badge = self.badge_of(tid)
        colour = "#05602b" if badge == BADGE_YOURS else "#8a5a00"
        self.badge.setText(f"<span style='color:{colour}'><b>{badge}</b></span>" if badge
                           else "given by the rules")
        self._label_items()

    # --- editors ---------------------------------------------------------------------------
    def _fill_grid(self, t: dict[str, Any], g: Grid) -> None:
        self.grid.blockSignals(True)
        self.grid.clear()
        self.grid.setRowCount(len(g.rows))
        self.grid.setColumnCount(len(g.columns))
        self.grid.setVerticalHeaderLabels(list(g.rows))
        self.grid.setHorizontalHeaderLabels(list(g.columns))
        for r in range(len(g.rows)):
            for c in range(len(g.columns)):
                v = self._cell(t, g, r, c)
                self.grid.setItem(r, c, QTableWidgetItem("" if v is None else _show(v)))
                self._mark(g, r, c)
        self.grid.resizeColumnsToContents()
        self.grid.setProperty("gridKind", g.kind)
        self.grid.blockSignals(False)

    @staticmethod
    def _cell(t: dict[str, Any], g: Grid, r: int, c: int) -> Any:
        if g.kind == "keyed":
            return t[g.key][g.rows[r]][c]
        if g.kind == "records":
            return t[g.key][r].get(g.columns[c])
        return t[g.columns[c]][r]

    def _cell_edited(self, item: QTableWidgetItem) -> None:
        tid = self.current
        if self._loading or tid is None:
            return
        t = self.working[tid]
        g = grid_of(t)
        if g is None:
            return
        r, c = item.row(), item.column()
        old = self._cell(t, g, r, c)
        try:
            new = _parse_like(item.text(), old if old is not None else "")
        except ValueError as e:
            self.error.setText(f"Row {g.rows[r]}, column {g.columns[c]}: {e}.")
            return
        if g.kind == "keyed":
            t[g.key][g.rows[r]][c] = new
        elif g.kind == "records":
            t[g.key][r][g.columns[c]] = new
        else:
            t[g.columns[c]][r] = new
        self.error.setText("")
        self.grid.blockSignals(True)
        self._mark(g, r, c)
        self.grid.blockSignals(False)
        self._show_badge()

    def _mark(self, g: Grid, r: int, c: int) -> None:
        """Tint a cell that differs from ours, so the player sees what was typed in."""
        tid = self.current
        item = self.grid.item(r, c)
        if tid is None or item is None:
            return
        try:
            ours = self._cell(self.shipped[tid], g, r, c)
        except (KeyError, IndexError):
            ours = None
        mine = self._cell(self.working[tid], g, r, c)
        item.setBackground(QColor("#d8f0dc") if mine != ours else QColor(0, 0, 0, 0))

    def _fill_form(self, t: dict[str, Any]) -> None:
        while self.form.rowCount():
            self.form.removeRow(0)
        for k in _form_keys(t) or ():
            edit = QLineEdit(_show(t[k]))
            edit.setObjectName(f"tablesField_{k}")
            edit.editingFinished.connect(lambda k=k, e=edit: self._field_edited(k, e))
            self.form.addRow(k, edit)

    def _field_edited(self, key: str, edit: QLineEdit) -> None:
        tid = self.current
        if tid is None:
            return
        try:
            self.working[tid][key] = _parse_like(edit.text(), self.working[tid][key])
        except ValueError as e:
            self.error.setText(f"{key}: {e}.")
            return
        self.error.setText("")
        self._show_badge()

    def _text_edited(self) -> None:
        tid = self.current
        if self._loading or tid is None:
            return
        try:
            value = tables.parse_overrides(self.text.toPlainText(), "TOML").get(tid)
        except DataError as e:
            self.error.setText(f"Not valid TOML yet: {e.what}")
            return
        if value is None:
            self.error.setText(f"The text must keep its [tables.{tid}] heading.")
            return
        self.working[tid] = value
        self.error.setText("")
        self._show_badge()

    def _tab_changed(self, _i: int) -> None:
        # Another tab shows the same table: redraw it from the working copy.
        tid = self.current
        if self._loading or tid is None:
            return
        self._loading = True
        t = self.working[tid]
        shown = self.tabs.currentWidget()
        if shown is self.grid and (g := grid_of(t)) is not None:
            self._fill_grid(t, g)
        elif shown is self.form_host:
            self._fill_form(t)
        elif shown is self.text:
            self.text.setPlainText(tables.to_toml({tid: t}).split("\n", 3)[3])
        self._loading = False

    # --- buttons ---------------------------------------------------------------------------
    def reset_table(self) -> None:
        if self.current is None:
            return
        self.working[self.current] = copy.deepcopy(self.shipped[self.current])
        self._show_table()

    def overrides(self) -> dict[str, Any]:
        """The tables to write: those whose values differ from ours, marked as the player's
        printed values (no longer provisional)."""
        out: dict[str, Any] = {}
        for tid in sorted(self.working):
            if not self.overridden(tid):
                continue
            t = copy.deepcopy(self.working[tid])
            if "provisional" in t:
                t["provisional"] = False
            if "note" in t and t["note"] == self.shipped[tid].get("note"):
                t["note"] = YOUR_NOTE
            out[tid] = t
        return out

    def save(self) -> bool:
        try:
            tomllib.loads(self.text.toPlainText())
        except tomllib.TOMLDecodeError as e:
            if self.tabs.currentWidget() is self.text:
                self.error.setText(f"Fix the TOML text first: {e}")
                return False
        try:
            path = tables.write_overrides(self.game_id(), self.overrides())
        except DataError as e:
            self.error.setText(f"Not saved: {e}. Correct that value (or Reset to ours); "
                               "your file is unchanged.")
            return False
        except OSError as e:
            self.error.setText(f"Not saved: {e.strerror or e}; your file is unchanged.")
            return False
        self.saved = tables.read_overrides(self.game_id())
        self.problem.setText("")
        self.error.setText(f"Saved to {path}. New games use these values.")
        self._label_items()
        return True


W = TypeVar("W", bound=QWidget)


def _named(widget: W, name: str) -> W:
    widget.setObjectName(name)  # tests find the parts by name
    return widget


def _hint(tid: str, t: dict[str, Any], g: Grid | None) -> str:
    """What the grid's rows and columns are, in a line above it."""
    if g is None:
        return ("Edit the values below; the TOML tab checks the syntax as you type." if
                _form_keys(t) is None else "One value per field.")
    if g.kind == "keyed":
        what = (f"die roll 1–{len(g.columns)}" if t.get("die") == len(g.columns)
                else f"positions 1–{len(g.columns)}")
        return f"Rows: tables.{tid}.{g.key}; columns: {what}. Double-click a cell to type."
    if g.kind == "records":
        return f"One row per entry of tables.{tid}.{g.key}. Double-click a cell to type."
    return f"One row per entry of the lists {', '.join(g.columns)}. Double-click a cell to type."


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)
