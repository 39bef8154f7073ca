"""The ETO attack tool and VP ledger (issue 22).

Attack tool: in a combat step, a click on a hex holding the phasing side's units adds them
as attackers; a click on a hex holding the enemy makes it the defending hex. The panel shows
the differential with every multiplier and its rule [CRT; General (5)(B), (8)], refuses an
attack below 0 (greyed, with the reason), and "Attack" sends the engine's `attack` verb. The
result lines (CRT die, and on a 6 Bailey's second die [General (2)]) are shown below.
VP ledger: every achieved objective with its turn and points, computed from the state with
the deadlines of General (13)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QLabel,
    QPushButton,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Button
from wartable.games.eto_bailey import revisions as rv
from wartable.games.eto_bailey.steps import ATTACK
from wartable.ui.plugin import GameUi, UiContext
from wartable.worker.commands import Snapshot


class AttackTool(QWidget):
    def __init__(self, ui: EtoGameUi) -> None:
        super().__init__()
        self.setObjectName("etoAttackTool")
        self.ui = ui
        self.attackers: list[str] = []
        self.target = ""
        lay = QVBoxLayout(self)
        self.help = QLabel("Combat: click your units' hexes to add attackers, then the "
                           "enemy hex to attack.")
        self.help.setWordWrap(True)
        self.odds = QLabel("")
        self.odds.setObjectName("etoOdds")
        self.odds.setWordWrap(True)
        self.button = QPushButton("Attack")
        self.button.setObjectName("etoAttack")
        self.button.clicked.connect(self._attack)
        self.clear = QPushButton("Clear")
        self.clear.clicked.connect(self.reset)
        self.result = QLabel("")
        self.result.setObjectName("etoResult")
        self.result.setWordWrap(True)
        for w in (self.help, self.odds, self.button, self.clear, self.result):
            lay.addWidget(w)
        lay.addStretch(1)
        self.refresh()

    def reset(self) -> None:
        self.attackers, self.target = [], ""
        self.refresh()

    def click(self, loc: str) -> None:
        snap = self.ui.snap
        if snap is None:
            return
        st = snap.session.state
        side = st.active_side
        mine = [p.id for p in st.pieces_at(loc) if p.side == side]
        theirs = [p for p in st.pieces_at(loc) if p.side != side]
        if theirs:
            self.target = loc
        elif mine:
            self.attackers = list(dict.fromkeys(self.attackers + mine))
        self.refresh()

    def refresh(self) -> None:
        snap = self.ui.snap
        ok = False
        if snap is None or not self.attackers or not self.target:
            self.odds.setText("Attackers: " + (", ".join(self.attackers) or "none") +
                              f"; defending hex: {self.target or 'none'}")
        else:
            st = snap.session.state
            live = tuple(a for a in self.attackers if a in st.pieces)
            o = rv.odds(snap.session.game, st, live, self.target)
            lines = [f"Attack on {self.target}: {o.attack} SP against {o.defence} SP",
                     *(f"  {r}" for r in o.reasons),
                     f"Differential {o.differential:+d}"]
            lines.append(o.refused or "A 6 rolls Bailey's second die: 1-3 the attacker "
                         "loses 1 SP; 1 the defender may decline to retreat [General (2)].")
            self.odds.setText("\n".join(lines))
            ok = not o.refused and ATTACK in _verbs(snap)
        self.button.setEnabled(ok)

    def _attack(self) -> None:
        self.ui.ctx.submit(Button(ATTACK, "Attack", "CRT", args=FrozenMap(
            attackers=tuple(self.attackers), hex=self.target)))

    def show_events(self, snap: Snapshot) -> None:
        lines = [e.text for e in snap.new_events if e.kind == "combat"]
        if lines:
            self.result.setText("\n".join(lines))
            self.attackers, self.target = [], ""
            self.refresh()


def _verbs(snap: Snapshot) -> set[str]:
    step = snap.session.game.position(snap.session.state).step
    return {ATTACK} if step.id.endswith("_combat") else set()


class VpLedger(QWidget):
    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("etoVpLedger")
        lay = QVBoxLayout(self)
        self.total = QLabel("")
        self.total.setObjectName("etoVpTotal")
        self.table = QTableWidget(0, 4)
        self.table.setHorizontalHeaderLabels(["Side", "Objective", "Turn", "VP"])
        self.table.verticalHeader().hide()
        for col, width in enumerate((50, 230, 40, 35)):
            self.table.setColumnWidth(col, width)
        self.deadlines = QLabel(_deadlines())
        self.deadlines.setWordWrap(True)
        scroll = QScrollArea()
        scroll.setWidget(self.deadlines)
        scroll.setWidgetResizable(True)
        lay.addWidget(self.total)
        lay.addWidget(self.table, 1)
        lay.addWidget(QLabel("Deadlines [General (13)] (\"before turn N\"; best tier only):"))
        lay.addWidget(scroll, 1)

    def show_state(self, snap: Snapshot) -> None:
        st = snap.session.state
        rows = rv.ledger(st)
        self.table.setRowCount(len(rows))
        for i, (side, text, turn, pts) in enumerate(rows):
            for j, v in enumerate((side.title(), text, str(turn or ""), str(pts))):
                self.table.setItem(i, j, QTableWidgetItem(v))
        t = rv.totals(st)
        self.total.setText(f"Axis {t['axis']} VP, Allies {t['allies']} VP [General (13)]")


def _deadlines() -> str:
    out = []
    for _, (side, text, tiers) in rv.VP_OBJECTIVES.items():
        tt = ", ".join(f"{p} before T{b}" if b else f"{p} any time" for b, p in tiers)
        out.append(f"{side.title()}: {text}: {tt}")
    return "\n".join(out)


class EtoGameUi(GameUi):
    def __init__(self, ctx: UiContext) -> None:
        super().__init__(ctx)
        self.snap: Snapshot | None = None
        self.tool = AttackTool(self)
        self.attack_dock = self.add_dock("Attack (ETO)", self.tool,
                                         Qt.DockWidgetArea.LeftDockWidgetArea, "etoAttackDock")
        self.ledger = VpLedger()
        self.ledger_dock = self.add_dock("VP ledger", self.ledger,
                                         Qt.DockWidgetArea.RightDockWidgetArea, "etoVpDock")
        self.ledger_dock.show()

    def show_snapshot(self, snap: Snapshot) -> None:
        self.snap = snap
        in_combat = bool(_verbs(snap))
        self.attack_dock.setVisible(in_combat)
        self.tool.show_events(snap)
        self.tool.refresh()
        self.ledger.show_state(snap)

    def on_location_clicked(self, location: str) -> None:
        if self.snap is not None and _verbs(self.snap):
            self.tool.click(location)
