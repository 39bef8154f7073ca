"""Axis & Allies Anniversary panels: the exact battle calculator and income & objectives.

`BattleCalculatorDialog` runs `calculator.calculate` on the engine client's analysis thread
(a Query), so the window stays responsive and Cancel stops it between states.
`ObjectivesPanel` shows each power's treasury, income and national objectives for a session.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from wartable.core.errors import WartableError
from wartable.engine.rules import Game
from wartable.engine.session import Session
from wartable.games.aa_anniversary import combat as c
from wartable.games.aa_anniversary import research as rd
from wartable.games.aa_anniversary.calculator import CalcResult, CalculationCancelled, calculate
from wartable.games.aa_anniversary.steps import objectives
from wartable.games.aa_anniversary.steps.battle import forces
from wartable.games.aa_anniversary.steps.common import (
    capital_held,
    controller,
    ipcs,
    space_name,
    turn_power,
    world,
)
from wartable.games.aa_anniversary.steps.income import production, victory_cities
from wartable.model.definition import GameDefinition
from wartable.model.state import GameState
from wartable.worker.commands import Failure, Query, QueryResult, Snapshot
from wartable.worker.engine_thread import EngineClient

GAME_ID = "aa_anniversary"
TOP = 5  # survivor outcomes listed per side
MAX_UNITS = 99
GREEN, RED = QColor("#1b7a1b"), QColor("#b22222")


# --- the calculation (runs on the analysis thread) --------------------------------------------

@dataclass(frozen=True)
class CalcRequest:
    """One battle to compute: with `chosen` orders it is computed twice (default, chosen)."""

    attacker: c.Force
    defender: c.Force
    bombard: c.Force = c.EMPTY
    chosen: c.Orders | None = None
    max_rounds: int | None = None
    developments: rd.BattleDevelopments | None = None  # the battle's powers' research


@dataclass(frozen=True)
class CalcAnswer:
    request: CalcRequest
    default: CalcResult
    chosen: CalcResult | None  # None when no order was chosen


def run_calc(req: CalcRequest, catalog: c.Catalog, report: Callable[[int, str], None],
             cancelled: Callable[[], bool]) -> CalcAnswer | None:
    """Both calculations; None once cancelled (not an error: the main window would show a
    message box for a Failure)."""
    def progress(states: int) -> bool:
        report(0, f"Battle calculator: {states} states")
        return not cancelled()

    def one(orders: c.Orders | None) -> CalcResult:
        return calculate(req.attacker, req.defender, catalog, orders=orders,
                         bombard=req.bombard, max_rounds=req.max_rounds, progress=progress,
                         developments=req.developments)

    try:
        default = one(None)
        chosen = one(req.chosen) if req.chosen is not None else None
    except CalculationCancelled:
        return None
    return CalcAnswer(req, default, chosen)


def battle_forces(game: Game, state: GameState, space: str, power: str | None = None
                  ) -> tuple[str, c.Force, c.Force]:
    """(attacking power, attacker, defender) in a space, as Conduct Combat would set them up:
    the power whose turn it is, or else the first power there with enemies beside it."""
    power = power or turn_power(game, state) or state.active_side
    if not forces.attackers(game, state, space, power):
        for side in sorted({p.side for p in state.pieces_at(space)}):
            if (forces.attackers(game, state, space, side)
                    and forces.defenders(game, state, space, side)):
                power = side
                break
    att = forces.force(forces.attackers(game, state, space, power))
    dfn = forces.force(forces.defenders(game, state, space, power))
    return power, att, dfn


def _pct(p: float) -> str:
    return f"{100.0 * p:.1f} %"


def _order_text(order: c.CasualtyOrder) -> str:
    return ", ".join(e.text for e in order)


# --- the dialog ---------------------------------------------------------------------------

class BattleCalculatorDialog(QDialog):
    """Exact odds of an A&A battle: typed in, or taken from the board with `set_battle`."""

    def __init__(self, client: EngineClient, definition: GameDefinition,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Battle Calculator")
        self.setObjectName("battleCalculator")
        self.client = client
        self.definition = definition
        self.catalog = c.Catalog.from_unit_types(definition.unit_types)
        # The powers' developments of a battle taken from the board (Phase 1: Research &
        # Development): they change the unit values and so the default orders.
        self.developments: rd.BattleDevelopments | None = None
        self._request: int | None = None
        self._pending: CalcRequest | None = None
        self._damaged: dict[str, dict[str, int]] = {c.ATTACK: {}, c.DEFENSE: {}}
        self.last_answer: CalcAnswer | None = None
        self.attack: dict[str, QSpinBox] = {}
        self.defend: dict[str, QSpinBox] = {}
        self.bombard: dict[str, QSpinBox] = {}

        self.heading = QLabel("Type the forces, or pick a battle on the board.")
        self.heading.setWordWrap(True)
        forces = QGroupBox("Forces")
        grid = QGridLayout(forces)
        for col, title in enumerate(("Unit", "Attacker", "Defender", "Bombard")):
            h = QLabel(f"<b>{title}</b>")
            grid.addWidget(h, 0, col)
        grid.setColumnStretch(4, 1)
        row = 1
        for uid in definition.unit_types:
            s = self.catalog[uid]
            if s.factory:  # never on the battle board
                continue
            grid.addWidget(QLabel(s.name), row, 0)
            if s.fights:  # AA guns only defend
                self.attack[uid] = self._spin(grid, row, 1, f"attack_{uid}")
            self.defend[uid] = self._spin(grid, row, 2, f"defend_{uid}")
            if s.bombard:
                self.bombard[uid] = self._spin(grid, row, 3, f"bombard_{uid}")
            row += 1

        options = QGroupBox("Options")
        og = QGridLayout(options)
        self.attacker_order = QLineEdit()
        self.defender_order = QLineEdit()
        for r, (label, edit) in enumerate((("Attacker casualty order", self.attacker_order),
                                           ("Defender casualty order", self.defender_order))):
            edit.setToolTip("Empty: the default order (shown greyed). Write e.g. "
                            "\"damage:battleship, infantry, armour@1, fighter\".")
            edit.setMinimumWidth(260)  # the default orders are long
            og.addWidget(QLabel(label), r, 0)
            og.addWidget(edit, r, 1)
        self.max_rounds = QSpinBox()
        self.max_rounds.setRange(0, 99)
        self.max_rounds.setSpecialValueText("to the end")
        self.max_rounds.setToolTip("The attacker retreats after this many rounds.")
        og.addWidget(QLabel("Rounds"), 2, 0)
        og.addWidget(self.max_rounds, 2, 1, Qt.AlignmentFlag.AlignLeft)

        self.calc_button = QPushButton("Calculate")
        self.calc_button.setDefault(True)
        self.calc_button.clicked.connect(self.calculate)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.cancel)
        self.clear_button = QPushButton("Clear")
        self.clear_button.clicked.connect(self.clear)
        close = QPushButton("Close")
        close.clicked.connect(self.reject)
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)  # the number of states is not known in advance
        self.progress.setMaximumWidth(120)
        self.status = QLabel("")
        self.status.setWordWrap(True)

        self.results = QTableWidget(0, 1)
        self.results.setObjectName("calcResults")
        self.survivors = QTableWidget(0, 4)
        self.survivors.setObjectName("calcSurvivors")
        self.survivors.setHorizontalHeaderLabels(
            ["Attacker survivors", "%", "Defender survivors", "%"])
        for t in (self.results, self.survivors):
            t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
            t.verticalHeader().setVisible(False)
            t.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
            t.verticalHeader().setDefaultSectionSize(t.fontMetrics().height() + 8)
        sh = self.survivors.horizontalHeader()
        for col, mode in enumerate((QHeaderView.ResizeMode.Stretch,
                                    QHeaderView.ResizeMode.ResizeToContents) * 2):
            sh.setSectionResizeMode(col, mode)

        left = QVBoxLayout()
        left.addWidget(forces)
        left.addWidget(options)
        left.addStretch(1)
        right = QVBoxLayout()
        right.addWidget(QLabel("<b>Outcome</b>"))
        right.addWidget(self.results)
        right.addWidget(QLabel(f"<b>Most likely survivors</b> (top {TOP})"))
        right.addWidget(self.survivors, 1)
        body = QHBoxLayout()
        body.addLayout(left, 0)
        body.addLayout(right, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.status, 1)
        buttons.addWidget(self.progress)
        for b in (self.calc_button, self.cancel_button, self.clear_button, close):
            buttons.addWidget(b)
        top = QVBoxLayout(self)
        top.addWidget(self.heading)
        top.addLayout(body, 1)
        top.addLayout(buttons)

        client.queryDone.connect(self._done)
        client.failed.connect(self._failed)
        client.progress.connect(self._progress)
        client.snapshotReady.connect(self._snapshot)
        self._set_running(False)
        self._update_placeholders()
        self.resize(980, 560)

    def _spin(self, grid: QGridLayout, row: int, col: int, name: str) -> QSpinBox:
        sb = QSpinBox()
        sb.setRange(0, MAX_UNITS)
        sb.setObjectName(name)
        sb.setMaximumWidth(72)  # two digits: spare width goes to the empty last column
        sb.valueChanged.connect(self._update_placeholders)
        grid.addWidget(sb, row, col)
        return sb

    # --- the forces ------------------------------------------------------------------------
    def _force(self, spins: dict[str, QSpinBox], damaged: dict[str, int] | None = None
               ) -> c.Force:
        counts = {u: sb.value() for u, sb in spins.items() if sb.value()}
        # damage from the board survives only while the count still allows it
        dmg = {u: n for u, n in (damaged or {}).items() if 0 < n <= counts.get(u, 0)}
        return c.Force.of(counts, dmg)

    def forces(self) -> tuple[c.Force, c.Force, c.Force]:
        """(attacker, defender, bombarding ships) as typed."""
        return (self._force(self.attack, self._damaged[c.ATTACK]),
                self._force(self.defend, self._damaged[c.DEFENSE]), self._force(self.bombard))

    def set_forces(self, attacker: c.Force, defender: c.Force,
                   bombard: c.Force = c.EMPTY) -> None:
        for spins, force in ((self.attack, attacker), (self.defend, defender),
                             (self.bombard, bombard)):
            for u, sb in spins.items():
                sb.setValue(min(force.count(u), MAX_UNITS))
        self._damaged = {c.ATTACK: dict(attacker.damaged), c.DEFENSE: dict(defender.damaged)}
        self._update_placeholders()

    def set_battle(self, session: Session, space: str) -> None:
        """Fill the forces from a space of the current position: the attacking power's units
        against the enemy units there (as Conduct Combat would fight it)."""
        game, state = session.game, session.state
        power, att, dfn = battle_forces(game, state, space, None)
        held_a = rd.developments(state, power) if power else frozenset()
        held_d = rd.developments(state, forces.defending_power(game, state, space, power)) \
            if power else frozenset()
        self.developments = (rd.BattleDevelopments(rd.research_table(game), held_a, held_d)
                             if held_a or held_d else None)
        self.set_forces(att, dfn)
        name = game.definition.side(power).name if power else "?"
        where = space_name(game, space)
        if not att or not dfn:
            self.heading.setText(f"{where}: no battle there for {name} now; the forces "
                                 f"found are filled in.{self._developments_text(game)}")
        else:
            self.heading.setText(f"Battle in {where}: {name} attacks "
                                 f"{dfn.describe(self.catalog)}.{self._developments_text(game)}")

    def _developments_text(self, game: Game) -> str:
        d = self.developments
        if d is None:
            return ""
        parts = [f"{who} {rd.names(game, held)}" for who, held in
                 (("attacker", d.attacker), ("defender", d.defender)) if held]
        return " Developments (Phase 1: Research & Development): " + "; ".join(parts) + "."

    def values(self) -> c.Catalog:
        """The unit values the calculation uses: with the battle's developments if any."""
        return self.developments.catalog(self.catalog) if self.developments else self.catalog

    def clear(self) -> None:
        self.developments = None
        self.set_forces(c.EMPTY, c.EMPTY)
        self.attacker_order.clear()
        self.defender_order.clear()
        self.heading.setText("Type the forces, or pick a battle on the board.")

    def _update_placeholders(self) -> None:
        att, dfn, _ = self.forces()
        d = c.default_orders(att, dfn, self.values())
        self.attacker_order.setPlaceholderText(_order_text(d.attacker) or "default order")
        self.defender_order.setPlaceholderText(_order_text(d.defender) or "default order")

    def request(self) -> CalcRequest:
        """The battle as typed, checked here so mistakes show at once (WartableError)."""
        att, dfn, bom = self.forces()
        if not att:
            raise WartableError("The attacker has no units.")
        if not dfn:
            raise WartableError("The defender has no units.")
        c.check_battle(att, dfn, self.catalog, bom)
        chosen = None
        a_txt, d_txt = self.attacker_order.text().strip(), self.defender_order.text().strip()
        if a_txt or d_txt:
            dflt = c.default_orders(att, dfn, self.values())
            chosen = c.Orders(
                c.parse_casualty_order(a_txt, self.catalog) if a_txt else dflt.attacker,
                c.parse_casualty_order(d_txt, self.catalog) if d_txt else dflt.defender)
        rounds = self.max_rounds.value() or None
        return CalcRequest(att, dfn, bom, chosen, rounds, self.developments)

    # --- running ---------------------------------------------------------------------------
    def calculate(self) -> None:
        try:
            req = self.request()
        except WartableError as e:
            self.status.setText(str(e))
            return
        self._send(req)

    def _send(self, req: CalcRequest) -> None:
        if self._request is not None:
            self.client.cancel(self._request)
        catalog = self.catalog
        self._pending = req
        self._request = self.client.send(Query(
            "aa-battle-calc", lambda _s, report, cancelled: run_calc(req, catalog, report,
                                                                    cancelled)))
        self.status.setText("Calculating…")
        self._set_running(True)

    def cancel(self) -> None:
        if self._request is not None:
            self.client.cancel(self._request)
            self.status.setText("Cancelling…")

    def _snapshot(self, _snap: Snapshot) -> None:
        # The client drops results computed on an older position, though a calculation does
        # not depend on it: start again on the new one.
        if self._request is not None and self._pending is not None:
            self._send(self._pending)

    def _progress(self, request: int, _pct: int, text: str) -> None:
        if request == self._request and self.status.text() != "Cancelling…":
            self.status.setText(text.replace("Battle calculator: ", "Calculating… ")
                                + " solved")

    def _done(self, res: QueryResult) -> None:
        if res.request != self._request:
            return
        self._request = self._pending = None
        self._set_running(False)
        if res.value is None:
            self.status.setText("Cancelled.")
            return
        self.show_answer(res.value)

    def _failed(self, f: Failure) -> None:
        if f.request != self._request:
            return
        self._request = self._pending = None
        self._set_running(False)
        self.status.setText(f.message.splitlines()[0])

    def _set_running(self, running: bool) -> None:
        self.cancel_button.setEnabled(running)
        self.calc_button.setEnabled(not running)
        self.progress.setVisible(running)

    @property
    def running(self) -> bool:
        return self._request is not None

    # --- results ---------------------------------------------------------------------------
    def show_answer(self, ans: CalcAnswer) -> None:
        self.last_answer = ans
        runs = [("Default order", ans.default)]
        if ans.chosen is not None:
            runs.append(("Chosen order", ans.chosen))
        rs = [r for _, r in runs]
        rows: list[tuple[str, Callable[[CalcResult], str]]] = [
            ("Attacker wins", lambda r: _pct(r.attacker_win)),
            ("Defender wins", lambda r: _pct(r.defender_win)),
            ("Draw (both destroyed)", lambda r: _pct(r.draw)),
        ]
        # Only the outcomes this battle can have.
        if any(r.stalemate for r in rs):
            rows.append(("Stalemate", lambda r: _pct(r.stalemate)))
        if any(r.retreat for r in rs):
            rows.append(("Attacker retreats", lambda r: _pct(r.retreat)))
        if any(r.capture for r in rs):
            rows.append(("Attacker takes the territory", lambda r: _pct(r.capture)))
        rows += [
            ("Expected IPC loss, attacker", lambda r: f"{r.attacker_ipc_loss:.2f}"),
            ("Expected IPC loss, defender", lambda r: f"{r.defender_ipc_loss:.2f}"),
            ("Expected rounds", lambda r: f"{r.expected_rounds:.2f}"),
        ]
        t = self.results
        t.clear()
        t.setColumnCount(1 + len(runs))
        t.setHorizontalHeaderLabels(["", *(name for name, _ in runs)])
        t.setRowCount(len(rows))
        for i, (label, fmt) in enumerate(rows):
            t.setItem(i, 0, QTableWidgetItem(label))
            for j, r in enumerate(rs, start=1):
                item = QTableWidgetItem(fmt(r))
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                t.setItem(i, j, item)
        h = t.horizontalHeader()
        h.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for j in range(1, len(runs) + 1):
            h.setSectionResizeMode(j, QHeaderView.ResizeMode.ResizeToContents)
        # Every outcome row in view at once; the survivors table takes the rest.
        t.setFixedHeight(t.horizontalHeader().height() + 2 * t.frameWidth() + sum(
            t.rowHeight(i) for i in range(t.rowCount())))
        self._show_survivors(runs)
        att, dfn = ans.request.attacker, ans.request.defender
        self.status.setText(f"{att.describe(self.catalog)} against {dfn.describe(self.catalog)}"
                            f": {ans.default.states} battle states, exact.")

    def _show_survivors(self, runs: list[tuple[str, CalcResult]]) -> None:
        t = self.survivors
        t.clearSpans()
        t.setRowCount(0)
        for name, r in runs:
            if len(runs) > 1:  # a title row per order
                row = t.rowCount()
                t.insertRow(row)
                title = QTableWidgetItem(name)
                title.setBackground(QBrush(QColor("#e6e6e6")))
                t.setItem(row, 0, title)
                t.setSpan(row, 0, 1, 4)
            n = max(min(TOP, len(r.attacker_survivors)), min(TOP, len(r.defender_survivors)))
            for k in range(n):
                row = t.rowCount()
                t.insertRow(row)
                for col, dist in ((0, r.attacker_survivors), (2, r.defender_survivors)):
                    if k < len(dist):
                        force, p = dist[k]
                        text = force.describe(self.catalog) if force else "none"
                        t.setItem(row, col, QTableWidgetItem(text))
                        item = QTableWidgetItem(_pct(p))
                        item.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                              | Qt.AlignmentFlag.AlignVCenter)
                        t.setItem(row, col + 1, item)

    def result_text(self, label: str, column: int = 1) -> str:
        """The shown value of a results row ("Attacker wins"...), for tests and tools."""
        for i in range(self.results.rowCount()):
            item = self.results.item(i, 0)
            if item is not None and item.text() == label:
                cell = self.results.item(i, column)
                return cell.text() if cell is not None else ""
        raise KeyError(label)

    def done(self, result: int) -> None:  # noqa: D102 - QDialog override
        self.cancel()
        for sig, slot in ((self.client.queryDone, self._done), (self.client.failed, self._failed),
                          (self.client.progress, self._progress),
                          (self.client.snapshotReady, self._snapshot)):
            try:
                sig.disconnect(slot)
            except (RuntimeError, TypeError):  # already disconnected (done twice)
                pass
        super().done(result)


# --- income and national objectives -------------------------------------------------------

class ObjectivesPanel(QWidget):
    """Per power: treasury, income it would collect now, each national objective (✓/✗ with
    the reason as tooltip); victory cities per side."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("aaObjectives")
        self.option = QLabel("")
        self.option.setWordWrap(True)
        self.victory = QLabel("")
        self.victory.setWordWrap(True)
        self.tree = QTreeWidget()
        self.tree.setColumnCount(4)
        self.tree.setHeaderLabels(["Power / objective", "IPCs", "Income", "Bonus"])
        self.tree.setRootIsDecorated(True)
        self.tree.setUniformRowHeights(True)
        h = self.tree.header()
        h.setStretchLastSection(False)
        h.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col in (1, 2, 3):
            h.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.victory)
        lay.addWidget(self.option)
        lay.addWidget(self.tree, 1)
        self.powers: dict[str, QTreeWidgetItem] = {}

    def show_state(self, session: Session) -> None:
        game, state = session.game, session.state
        d = game.definition
        on = objectives.enabled(state)
        self.option.setText("National objectives: " + (
            "<b>on</b> (met objectives add their bonus at Collect Income)." if on else
            "<b>off</b> (shown for reference; no bonus is paid)."))
        goal = int(state.option("victory_cities", 15))
        w = world(game)
        parts, tips = [], []
        for alliance, label in (("axis", "Axis"), ("allies", "Allies")):
            n = victory_cities(game, state, alliance)
            parts.append(f"{label} <b>{n}</b>")
            cities = sorted(space_name(game, s) for s in w.victory
                            if w.alliance.get(controller(state, s)) == alliance)
            tips.append(f"{label}: {', '.join(cities) or 'none'}")
        self.victory.setText(f"Victory cities: {', '.join(parts)} (goal {goal} of "
                             f"{len(w.victory)})")
        self.victory.setToolTip("\n".join(tips))

        # Keep which powers the user folded across refreshes.
        folded = {p for p, it in self.powers.items() if not it.isExpanded()}
        self.tree.clear()
        self.powers = {}
        for side in d.sides:
            p = side.id
            held = capital_held(game, state, p)
            income = production(game, state, p) if held else 0
            bonus = objectives.bonus_total(game, state, p)
            item = QTreeWidgetItem([side.name, str(ipcs(state, p)), str(income),
                                    f"+{bonus}" if bonus else ""])
            item.setData(0, Qt.ItemDataRole.DecorationRole, QColor(side.colour))
            font = item.font(0)
            font.setBold(True)
            item.setFont(0, font)
            if p == "china":
                item.setToolTip(2, "China collects no income (China Rules).")
            elif not held:
                cap = space_name(game, w.capital.get(p, ""))
                item.setToolTip(2, f"No income while {cap} is enemy-held "
                                   f"(Capturing and Liberating Capitals).")
            else:
                item.setToolTip(2, "The IPC value of the territories it controls "
                                   "(Phase 7: Collect Income).")
            for col in (1, 2, 3):
                item.setTextAlignment(col, Qt.AlignmentFlag.AlignRight
                                      | Qt.AlignmentFlag.AlignVCenter)
            for text, value, met, why in objectives.objectives_status(game, state, p):
                child = QTreeWidgetItem([f"{'✓' if met else '✗'} {text}", "", "",
                                         f"+{value}"])
                child.setForeground(0, QBrush(GREEN if met else RED))
                child.setTextAlignment(3, Qt.AlignmentFlag.AlignRight
                                       | Qt.AlignmentFlag.AlignVCenter)
                # the text is often elided in a narrow dock: the tooltip carries it whole
                tip = f"{text} (+{value} IPCs)\n{'Met' if met else 'Not met'}: {why}"
                child.setToolTip(0, tip)
                child.setToolTip(3, tip)
                child.setData(0, Qt.ItemDataRole.UserRole + 1, why)
                child.setData(0, Qt.ItemDataRole.UserRole, met)
                item.addChild(child)
            self.tree.addTopLevelItem(item)
            item.setExpanded(p not in folded)
            self.powers[p] = item

    def objective_rows(self, power: str) -> list[tuple[str, bool, str]]:
        """(text shown, met, why) of a power's objectives, for tests and tools."""
        item = self.powers[power]
        out = []
        for i in range(item.childCount()):
            ch = item.child(i)
            assert ch is not None
            out.append((ch.text(0), bool(ch.data(0, Qt.ItemDataRole.UserRole)),
                        str(ch.data(0, Qt.ItemDataRole.UserRole + 1))))
        return out
