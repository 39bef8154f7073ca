"""Axis & Allies Anniversary: the research panel of Phase 1: Research & Development (pg. 12).

Shown while the acting power's research step asks: its researcher tokens, treasury and the
price of a researcher; "buy N" (never more than the treasury pays for, the reason shown);
the research roll; the choice of Breakthrough Chart 1 or 2 with each chart's developments and
which are held (a full chart is disabled); typed dice when the table rolls physical dice; the
result of each roll this phase; and every power's developments. Every button submits the
actions the research step itself offers (steps/research.py), so the panel decides no rule.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from wartable.core.frozen import FrozenMap
from wartable.engine.actions import DICE, END_STEP, Button, Prompt
from wartable.engine.session import Session
from wartable.games.aa_anniversary import research as rd
from wartable.games.aa_anniversary.steps import research as step
from wartable.games.aa_anniversary.steps.common import ipcs
from wartable.ui.widgets import ERROR_INK, discard, wrapped_label

# Dice the research step asks for (steps/research.py: the research dice, Step 2, and the
# breakthrough die, Step 3); War Bonds dice belong to Collect Income, not to this panel.
# The prompt's dice are known by their purpose; the log's by the continuation in their data.
_RESEARCH_DICE = ("research dice", "breakthrough die")
_RESEARCH_RESUMES = frozenset({"research_dice", "breakthrough"})


def offers_research(prompt: Prompt) -> bool:
    """The prompt is the research step's (its buttons or its dice) for a side at the screen."""
    if prompt.waiting or prompt.finished:
        return False
    if any(b.id in (step.BUY, step.ROLL, step.CHOOSE) for b in prompt.buttons):
        return True
    return prompt.dice is not None and any(k in prompt.dice.purpose for k in _RESEARCH_DICE)


class ResearchPanel(QWidget):
    """`buttonsChosen` carries the Buttons to submit, in order (as the purchase panel)."""

    buttonsChosen = Signal(list)  # list[Button]

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("aaResearchPanel")
        # Everything scrolls in a short dock rather than squeeze the chart lists and the
        # rolls; End step stays in sight below.
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.body_scroll, self.body = scroll, QWidget()
        scroll.setWidget(self.body)
        outer.addWidget(scroll, 1)
        lay = QVBoxLayout(self.body)
        self.heading = wrapped_label("researchHeading")
        f = self.heading.font()
        f.setBold(True)
        self.heading.setFont(f)
        lay.addWidget(self.heading)
        rule = QLabel(f"Rule {step.R_PHASE}")
        rule.setStyleSheet("color: #555;")
        lay.addWidget(rule)
        self.status = wrapped_label("researchStatus")
        lay.addWidget(self.status)

        # Step 1: buy researchers.
        buy_box = QGroupBox("Step 1: Buy researcher tokens")
        bl = QVBoxLayout(buy_box)
        row = QHBoxLayout()
        self.buy_count = QSpinBox()
        self.buy_count.setObjectName("researchBuyCount")
        self.buy_count.setRange(0, 0)
        self.buy_count.setMinimumWidth(56)
        self.buy_count.valueChanged.connect(self._update_buy)
        self.buy_button = QPushButton("Buy")
        self.buy_button.setObjectName("researchBuy")
        self.buy_button.clicked.connect(self.buy)
        row.addWidget(QLabel("Researchers to buy"))
        row.addWidget(self.buy_count)
        row.addWidget(self.buy_button, 1)
        bl.addLayout(row)
        self.buy_reason = wrapped_label("researchBuyReason", ERROR_INK)
        bl.addWidget(self.buy_reason)
        lay.addWidget(buy_box)

        # Step 2: the research roll; typed dice (Steps 2 and 3) when the table rolls its own.
        roll_box = QGroupBox("Step 2: Roll research dice (a 6 is a breakthrough)")
        rl = QVBoxLayout(roll_box)
        self.roll_button = QPushButton("Roll")
        self.roll_button.setObjectName("researchRoll")
        self.roll_button.clicked.connect(lambda: self._emit_verb(step.ROLL))
        rl.addWidget(self.roll_button)
        self.dice_box = QWidget()
        dl = QVBoxLayout(self.dice_box)
        dl.setContentsMargins(0, 0, 0, 0)
        self.dice_label = QLabel()
        self.dice_label.setWordWrap(True)
        dl.addWidget(self.dice_label)
        self.dice_row = QHBoxLayout()
        dl.addLayout(self.dice_row)
        self.dice_submit = QPushButton("Enter the roll")
        self.dice_submit.setObjectName("researchDiceSubmit")
        self.dice_submit.clicked.connect(self.submit_dice)
        dl.addWidget(self.dice_submit)
        self.dice_box.hide()
        rl.addWidget(self.dice_box)
        lay.addWidget(roll_box)

        # Step 3: the chart.
        chart_box = QGroupBox("Step 3: Breakthrough chart")
        cl = QHBoxLayout(chart_box)
        self.chart_buttons: dict[int, QPushButton] = {}
        self.chart_lists: dict[int, QLabel] = {}
        for chart in rd.CHARTS:
            col = QVBoxLayout()
            b = QPushButton(f"Chart {chart}")
            b.setObjectName(f"researchChart{chart}")
            b.clicked.connect(lambda _=False, ch=chart: self.choose(ch))
            col.addWidget(b)
            lst = QLabel()
            lst.setObjectName(f"researchChartList{chart}")
            lst.setTextFormat(Qt.TextFormat.RichText)
            lst.setAlignment(Qt.AlignmentFlag.AlignTop)
            col.addWidget(lst, 1)
            cl.addLayout(col)
            self.chart_buttons[chart] = b
            self.chart_lists[chart] = lst
        lay.addWidget(chart_box)

        self.results = wrapped_label("researchResults")
        self.results.setTextFormat(Qt.TextFormat.RichText)
        res_box = QGroupBox("This phase's rolls")
        QVBoxLayout(res_box).addWidget(self.results)
        lay.addWidget(res_box)

        dev_box = QGroupBox("Developments (Step 4: marked on the chart)")
        dv = QVBoxLayout(dev_box)
        self.table = QTableWidget(0, 3)
        self.table.setObjectName("researchDevelopments")
        self.table.setHorizontalHeaderLabels(["Power", "Researchers", "Developments"])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.setWordWrap(True)
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        hh.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        hh.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        dv.addWidget(self.table)
        lay.addWidget(dev_box)
        lay.addStretch(1)

        self.end_button = QPushButton("End step")
        self.end_button.setObjectName("researchEnd")
        self.end_button.clicked.connect(lambda: self._emit_verb(END_STEP))
        end_row = QHBoxLayout()
        end_row.setContentsMargins(9, 0, 9, 9)
        end_row.addWidget(self.end_button)
        outer.addLayout(end_row)

        self.power = ""
        self.treasury = 0
        self.cost = 0
        self.researchers = 0
        self.buttons: dict[str, Button] = {}
        self.charts: dict[int, Button] = {}
        self.dice_spins: list[QSpinBox] = []
        self._dice_key: tuple[int, int, str] | None = None

    # --- showing the session ------------------------------------------------------------
    def show_session(self, session: Session, prompt: Prompt | None) -> None:
        """The power's research (if `prompt` is the research step's) and every power's
        developments; with `prompt` None only the developments table is refreshed."""
        game, state = session.game, session.state
        self._fill_table(session)
        if prompt is None or not offers_research(prompt):
            self._set_idle()
            self._fit_width()
            return
        t = rd.research_table(game)
        self.power = prompt.side
        self.treasury = ipcs(state, self.power)
        self.cost = t.researcher_cost
        self.researchers = rd.researchers(state, self.power)
        name = game.definition.side(self.power).name
        self.heading.setText(f"{name}: Research & Development")
        self.status.setText(f"Researchers held: {self.researchers} · IPCs: {self.treasury} · "
                            f"{self.cost} IPCs per researcher")
        self.buttons = {b.id: b for b in prompt.buttons if b.id != step.CHOOSE}
        self.charts = {int(b.args["chart"]): b for b in prompt.buttons if b.id == step.CHOOSE}
        self._set_engine_button(self.roll_button, self.buttons.get(step.ROLL), "Roll",
                                "nothing to roll now")
        self._set_engine_button(self.end_button, self.buttons.get(END_STEP), "End step",
                                "not now")
        buy = self.buttons.get(step.BUY)
        most = self.treasury // self.cost if buy is not None and buy.enabled else 0
        self.buy_count.setMaximum(most)
        self.buy_count.setEnabled(most > 0)
        self._update_buy()
        held = rd.developments(state, self.power)
        for chart in rd.CHARTS:
            b = self.chart_buttons[chart]
            spec = self.charts.get(chart)
            b.setEnabled(spec is not None and spec.enabled)
            full = all(d.id in held for d in t.chart(chart))
            b.setToolTip(spec.reason if spec is not None and not spec.enabled else
                         "every advance of this chart is held" if full else
                         "" if spec is not None else
                         "chosen after a breakthrough (a 6 on a research die)")
            lines = [f"{d.face}. {d.name}" + (" <b>✓ held</b>" if d.id in held else "")
                     for d in t.chart(chart)]
            self.chart_lists[chart].setText("<br>".join(lines))
        self._set_dice(prompt)
        self._show_results(session)
        self._fit_width()

    def _fit_width(self) -> None:
        """The dock is as wide as the chart lists side by side: nothing is clipped."""
        bar = self.body_scroll.verticalScrollBar().sizeHint().width()
        self.body_scroll.setMinimumWidth(self.body.sizeHint().width() + bar + 4)

    def _set_idle(self) -> None:
        self.power = ""
        self.buttons, self.charts = {}, {}
        for w in (self.buy_count, self.buy_button, self.roll_button, self.end_button,
                  *self.chart_buttons.values()):
            w.setEnabled(False)
        self.dice_box.hide()
        self._dice_key = None

    @staticmethod
    def _set_engine_button(qb: QPushButton, spec: Button | None, text: str, why: str) -> None:
        qb.setText(spec.label if spec is not None else text)
        qb.setEnabled(spec is not None and spec.enabled)
        reason = (spec.reason if spec is not None else why) if not qb.isEnabled() else ""
        rule = f"Rule {spec.rule}" if spec is not None and spec.rule else ""
        qb.setToolTip("\n".join(t for t in (rule, reason) if t))

    def _update_buy(self) -> None:
        n = self.buy_count.value()
        buy = self.buttons.get(step.BUY)
        self.buy_button.setText(f"Buy {n} researcher{'' if n == 1 else 's'} "
                                f"({n * self.cost} IPCs)")
        self.buy_button.setEnabled(buy is not None and buy.enabled and n > 0)
        if buy is None:
            self.buy_reason.setText("Researchers are bought in Step 1, before the research "
                                    "dice are rolled." if self.power else "")
        elif not buy.enabled:
            self.buy_reason.setText(f"No more researchers: {buy.reason}.")
        else:
            most = self.buy_count.maximum()
            self.buy_reason.setText(f"{self.treasury} IPCs pay for {most} researcher"
                                    f"{'' if most == 1 else 's'} at most "
                                    f"({self.cost} IPCs each).")

    def _set_dice(self, prompt: Prompt) -> None:
        ask = prompt.dice
        if ask is None:
            self.dice_box.hide()
            self._dice_key = None
            return
        key = (ask.count, ask.sides, ask.purpose)
        if key != self._dice_key:
            for s in self.dice_spins:
                discard(s)
            self.dice_spins = []
            for i in range(ask.count):
                s = QSpinBox()
                s.setObjectName(f"researchDie{i}")
                s.setRange(1, ask.sides)
                self.dice_row.addWidget(s)
                self.dice_spins.append(s)
            self._dice_key = key
        self.dice_label.setText(f"Type the roll: {ask.count}d{ask.sides} for {ask.purpose}.")
        self.dice_box.show()

    def _show_results(self, session: Session) -> None:
        """The research dice and breakthroughs since this power's Phase 1 began."""
        lines: list[str] = []
        for e in reversed(session.events):
            if e.kind == "phase":
                break
            if e.side == self.power and (e.kind == "research" or (
                    e.kind == "dice" and e.data.get("resume") in _RESEARCH_RESUMES)):
                lines.append(e.text)
        self.results.setText("<br>".join(reversed(lines)) or "<i>No roll yet.</i>")

    def _fill_table(self, session: Session) -> None:
        game, state = session.game, session.state
        sides = game.definition.sides
        self.table.setRowCount(len(sides))
        for r, s in enumerate(sides):
            held = rd.developments(state, s.id)
            cells = (s.name, str(rd.researchers(state, s.id)),
                     rd.names(game, held) if held else "—")
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if col == 1:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                self.table.setItem(r, col, item)
        self.table.resizeRowsToContents()
        # Every power in sight: the table is as tall as its rows.
        h = self.table.horizontalHeader().sizeHint().height() + 2 * self.table.frameWidth()
        self.table.setFixedHeight(h + sum(self.table.rowHeight(r) for r in range(len(sides))))

    # --- choices -------------------------------------------------------------------------
    def _emit_verb(self, verb: str) -> None:
        spec = self.buttons.get(verb)
        if spec is not None and spec.enabled:
            self.buttonsChosen.emit([spec])

    def buy(self) -> None:
        """One "buy_researcher" per token (Step 1: 5 IPCs each, as many as wished)."""
        spec = self.buttons.get(step.BUY)
        n = self.buy_count.value()
        if spec is None or not spec.enabled or n <= 0 or n * self.cost > self.treasury:
            return
        self.buy_count.setValue(0)
        self.buttonsChosen.emit([spec] * n)

    def choose(self, chart: int) -> None:
        spec = self.charts.get(chart)
        if spec is not None and spec.enabled:
            self.buttonsChosen.emit([spec])

    def submit_dice(self) -> None:
        if not self.dice_spins:
            return
        values = tuple(s.value() for s in self.dice_spins)
        self.buttonsChosen.emit([Button(DICE, "Enter the roll", args=FrozenMap(values=values))])
