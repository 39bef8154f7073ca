"""The status board (issue 18): every track, status, war matrix, flag and ledger the game's
data declares, each value changed through the kit's logged, undoable verbs
(assist.set_track, assist.set_flag).

A track whose keys are all pairs "a:b" is drawn as a matrix (rows a, columns b): a war
matrix is `keys = ["germany:france", ...]` with `values = ["peace", "war"]`.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGridLayout,
    QGroupBox,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from wartable.engine.assisted import SET_FLAG, SET_TRACK
from wartable.model.tracks import FlagDef, TrackDef, flag, track
from wartable.ui.generic.base import PROVISIONAL, Act, KitView, Panel, with_ref

GROUPS = (("status", "Status"), ("tracks", "Tracks"), ("ledger", "Ledgers"))
BIG = 999_999  # spin boxes take any value: bounds are the engine's warnings, not limits


def is_matrix(td: TrackDef) -> bool:
    return not td.single and all(k.count(":") == 1 for k in td.keys)


def key_name(td: TrackDef, key: str) -> str:
    return td.key_names.get(key, key.replace("_", " ").title())


class StatusBoard(Panel):
    def __init__(self, act: Act, parent: QWidget | None = None) -> None:
        super().__init__(act, parent)
        self.setObjectName("kitStatusBoard")
        self._lay = QVBoxLayout(self)
        self.date = QLabel()
        self.date.setObjectName("kitDate")
        self._lay.addWidget(self.date)
        self._built: object = None
        self.editors: dict[tuple[str, str], QSpinBox | QComboBox] = {}
        self.flags: dict[str, QCheckBox] = {}
        self._boxes: list[QWidget] = []

    # --- building, once per game ---------------------------------------------------
    def _build(self, view: KitView) -> None:
        for b in self._boxes:
            b.deleteLater()
        self._boxes, self.editors, self.flags = [], {}, {}
        d = view.game.definition
        for panel, title in GROUPS:
            tracks = [t for t in d.tracks.values() if t.panel == panel]
            flags = [f for f in d.flags.values() if f.panel == panel]
            if not tracks and not flags:
                continue
            box = QGroupBox(title)
            box.setObjectName(f"kitGroup_{panel}")
            lay = QVBoxLayout(box)
            for td in tracks:
                lay.addWidget(self._track_widget(td))
            for fd in flags:
                lay.addWidget(self._flag_widget(fd))
            self._lay.addWidget(box)
            self._boxes.append(box)
        self._lay.addStretch(1)
        self._built = view.game

    def _title(self, text: str, rule: str, provisional: bool) -> QLabel:
        lab = QLabel(f"<b>{with_ref(text, rule)}</b>" + (PROVISIONAL if provisional else ""))
        lab.setWordWrap(True)
        return lab

    def _track_widget(self, td: TrackDef) -> QWidget:
        w = QWidget()
        grid = QGridLayout(w)
        grid.setContentsMargins(0, 2, 0, 2)
        grid.addWidget(self._title(td.name, td.rule, td.provisional), 0, 0, 1, 3)
        bounds = ""
        if td.numeric and (td.min is not None or td.max is not None):
            lo = "" if td.min is None else f"{td.min:g}"
            hi = "" if td.max is None else f"{td.max:g}"
            bounds = f"{lo}–{hi}"
        if is_matrix(td):
            rows = list(dict.fromkeys(k.split(":")[0] for k in td.keys))
            cols = list(dict.fromkeys(k.split(":")[1] for k in td.keys))
            for c, col in enumerate(cols, start=1):
                grid.addWidget(QLabel(key_name(td, col)), 1, c)
            for r, row in enumerate(rows, start=2):
                grid.addWidget(QLabel(key_name(td, row)), r, 0)
                for c, col in enumerate(cols, start=1):
                    key = f"{row}:{col}"
                    if key in td.keys:
                        grid.addWidget(self._editor(td, key), r, c)
            return w
        for r, key in enumerate(td.keys, start=1):
            grid.addWidget(QLabel(key_name(td, key) if key else "Value"), r, 0)
            grid.addWidget(self._editor(td, key), r, 1)
            if bounds and r == 1:
                grid.addWidget(QLabel(f"({bounds})"), r, 2)
        return w

    def _editor(self, td: TrackDef, key: str) -> QSpinBox | QComboBox:
        ed: QSpinBox | QComboBox
        if td.numeric:
            ed = QSpinBox()
            ed.setRange(-BIG, BIG)
            ed.setKeyboardTracking(False)  # one verb per typed value, not per digit
            ed.valueChanged.connect(lambda v, t=td.id, k=key: self._set(t, k, v))
        else:
            ed = QComboBox()
            ed.addItems(list(td.values))
            ed.activated.connect(lambda i, t=td.id, k=key, vals=td.values:
                                 self._set(t, k, vals[i]))
        ed.setObjectName(f"track_{td.id}_{key}")
        ed.setToolTip(with_ref(f"{td.name}: {key_name(td, key) if key else td.name}", td.rule))
        self.editors[(td.id, key)] = ed
        return ed

    def _flag_widget(self, fd: FlagDef) -> QCheckBox:
        cb = QCheckBox(with_ref(fd.name, fd.rule) + (PROVISIONAL if fd.provisional else ""))
        cb.setObjectName(f"flag_{fd.id}")
        cb.clicked.connect(lambda on, f=fd.id: self.send(SET_FLAG, flag=f, value=bool(on)))
        self.flags[fd.id] = cb
        return cb

    def _set(self, track_id: str, key: str, value: object) -> None:
        if self.view is not None and track(self.view.state, track_id, key) != value:
            self.send(SET_TRACK, track=track_id, key=key, value=value)

    # --- values, every snapshot ------------------------------------------------------
    def redraw(self, view: KitView) -> None:
        if self._built is not view.game:
            self._build(view)
        d, st = view.game.definition, view.state
        label = d.date_label(st.turn)
        self.date.setText(f"Turn {st.turn}" + (f" — {label}" if label else ""))
        for (tid, key), ed in self.editors.items():
            v = track(st, tid, key)
            ed.blockSignals(True)
            if isinstance(ed, QSpinBox):
                ed.setValue(int(v) if isinstance(v, int | float) else 0)
            else:
                ed.setCurrentIndex(max(0, ed.findText(str(v))))
            ed.blockSignals(False)
        for fid, cb in self.flags.items():
            cb.blockSignals(True)
            cb.setChecked(flag(st, fid))
            cb.blockSignals(False)
