"""Axis & Allies Anniversary: the purchase panel of Phase 2: Purchase Units (pg. 12).

One row per unit type the purchase prompt offers ("buy" buttons): cost, attack, defense,
move, a spin box, with the running total and the IPCs left. The spin boxes never allow more
than the treasury pays for (each maximum is what the other rows leave), so an illegal total
cannot be entered; a row the engine disables shows the engine's reason. Confirm submits one
"buy" action per unit, the same actions the side panel's buttons send. Any other action the
prompt offers (repairing damaged industrial complexes, when the engine has it) is shown as
its own button and submitted as it is: the panel decides no rule itself.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import (
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from wartable.core.frozen import FrozenMap
from wartable.engine.actions import END_STEP, Button, Prompt
from wartable.engine.session import Session
from wartable.games.aa_anniversary import research
from wartable.games.aa_anniversary.steps import purchase
from wartable.games.aa_anniversary.steps.common import MOBILIZATION, ipcs, world
from wartable.ui.widgets import ERROR_INK, discard, scrolled, wrapped_label

BUY = "buy"
R_PURCHASE = purchase.R_PURCHASE


def offers_purchase(prompt: Prompt) -> bool:
    """The prompt is a purchase step's (it offers "buy" buttons) for a side at the screen."""
    return not prompt.waiting and not prompt.finished and any(b.id == BUY for b in prompt.buttons)


class PurchasePanel(QWidget):
    """Spin boxes per unit type; `buttonsChosen` carries the Buttons to submit, in order."""

    buttonsChosen = Signal(list)  # list[Button]

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("aaPurchasePanel")
        lay = QVBoxLayout(self)
        self.heading = wrapped_label("purchaseHeading")
        f = self.heading.font()
        f.setBold(True)
        self.heading.setFont(f)
        lay.addWidget(self.heading)
        rule = QLabel(f"Rule {R_PURCHASE}")
        rule.setStyleSheet("color: #555;")
        lay.addWidget(rule)

        self.grid_host = QWidget()
        self.grid = QGridLayout(self.grid_host)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.grid.setHorizontalSpacing(10)
        self.rows_scroll = scrolled(self.grid_host)
        # Every column stays readable: the panel is as wide as the table, it never clips it.
        self.rows_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        lay.addWidget(self.rows_scroll, 1)

        self.other_box = QGroupBox("Repair and other actions")
        self.other_layout = QVBoxLayout(self.other_box)
        self.other_box.hide()
        lay.addWidget(self.other_box)

        self.bought = wrapped_label("purchaseBought")
        lay.addWidget(self.bought)
        self.total = QLabel()
        self.total.setObjectName("purchaseTotal")
        lay.addWidget(self.total)
        self.reason = wrapped_label("purchaseReason", ERROR_INK)
        lay.addWidget(self.reason)
        row = QHBoxLayout()
        self.clear_button = QPushButton("Clear")
        self.clear_button.setObjectName("purchaseClear")
        self.clear_button.clicked.connect(self.clear)
        self.confirm_button = QPushButton("Confirm purchase")
        self.confirm_button.setObjectName("purchaseConfirm")
        self.confirm_button.clicked.connect(self.confirm)
        row.addWidget(self.clear_button)
        row.addStretch(1)
        row.addWidget(self.confirm_button)
        lay.addLayout(row)

        self.spins: dict[str, QSpinBox] = {}
        self.costs: dict[str, int] = {}
        self.names: dict[str, str] = {}
        self.buy_buttons: dict[str, Button] = {}
        self.other_buttons: list[QPushButton] = []
        self.treasury = 0
        self.power = ""
        self._rows: list[QWidget] = []
        self._key: tuple[str, ...] = ()
        self._updating = False

    # --- showing the prompt ---------------------------------------------------------------
    def show_session(self, session: Session, prompt: Prompt) -> None:
        game, state = session.game, session.state
        self.power = prompt.side
        self.treasury = ipcs(state, prompt.side)
        name = game.definition.side(prompt.side).name
        self.heading.setText(f"{name} purchases — {self.treasury} IPCs in the treasury")
        self.buy_buttons = {str(b.args.get("unit")): b for b in prompt.buttons if b.id == BUY}
        # The price the purchase step charges (Improved Shipyards lowers the ships').
        self.costs = {u: research.unit_cost(game, state, prompt.side, u)
                      for u in self.buy_buttons}
        self.names = {u: game.definition.unit_types[u].name for u in self.buy_buttons}
        key = tuple(self.buy_buttons)
        if key != self._key:
            self._build_rows(session)
            self._key = key
        for u, b in self.buy_buttons.items():
            self.spins[u].setToolTip("" if b.enabled else b.reason)
        self._set_other_buttons(prompt)
        bought: dict[str, int] = {}
        for p in state.pieces.values():
            if p.location == MOBILIZATION and p.side == prompt.side and p.attrs.get("new"):
                bought[p.type] = bought.get(p.type, 0) + 1
        ut = game.definition.unit_types
        self.bought.setText("Bought this turn: " + (", ".join(
            f"{n} {ut[u].name}" for u, n in sorted(bought.items())) or "nothing yet"))
        self._update()

    def _build_rows(self, session: Session) -> None:
        for w in self._rows:
            discard(w)
        self._rows = []
        self.spins = {}
        ut = session.game.definition.unit_types
        cat = world(session.game).catalog
        for col, text in enumerate(("Unit", "Cost", "Att", "Def", "Move", "Buy")):
            h = QLabel(f"<b>{text}</b>")
            self.grid.addWidget(h, 0, col)
            self._rows.append(h)
        for r, u in enumerate(self.buy_buttons, 1):
            s = cat[u]
            cells = (ut[u].name, str(self.costs[u]), str(s.attack), str(s.defense),
                     str(ut[u].movement))
            for col, text in enumerate(cells):
                lab = QLabel(text)
                if col:
                    lab.setAlignment(Qt.AlignmentFlag.AlignCenter)
                self.grid.addWidget(lab, r, col)
                self._rows.append(lab)
            spin = QSpinBox()
            spin.setObjectName(f"buy_{u}")
            spin.setRange(0, 0)
            spin.setMinimumWidth(56)
            spin.valueChanged.connect(self._update)
            self.grid.addWidget(spin, r, 5)
            self._rows.append(spin)
            self.spins[u] = spin
        self.grid.setRowStretch(len(self.buy_buttons) + 1, 1)
        self._fit_width()

    def _fit_width(self) -> None:
        """Wide enough for every column, Buy included, at the current font."""
        bar = self.rows_scroll.verticalScrollBar().sizeHint().width()
        self.rows_scroll.setMinimumWidth(self.grid.sizeHint().width() + bar + 4)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt's name
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:  # table mode's larger text
            self._fit_width()

    def _set_other_buttons(self, prompt: Prompt) -> None:
        """Repair (and any other verb the step adds) as the engine's own buttons."""
        for b in self.other_buttons:
            discard(b)
        self.other_buttons = []
        for spec in prompt.buttons:
            if spec.id in (BUY, END_STEP):
                continue
            qb = QPushButton(spec.label)
            qb.setObjectName(f"purchase_{spec.id}")
            qb.setEnabled(spec.enabled)
            qb.setToolTip("\n".join(t for t in (f"Rule {spec.rule}" if spec.rule else "",
                                                 spec.reason) if t))
            qb.clicked.connect(lambda _=False, s=spec: self.buttonsChosen.emit([s]))
            self.other_layout.addWidget(qb)
            self.other_buttons.append(qb)
        self.other_box.setVisible(bool(self.other_buttons))

    # --- the order ---------------------------------------------------------------------------
    def order(self) -> dict[str, int]:
        return {u: s.value() for u, s in self.spins.items() if s.value()}

    def spent(self) -> int:
        return sum(self.costs[u] * n for u, n in self.order().items())

    def _update(self) -> None:
        """Each row's maximum is what the other rows leave: totals past the treasury cannot
        be entered (Phase 2: you may buy only what your IPCs pay for)."""
        if self._updating:
            return
        self._updating = True
        try:
            spent = self.spent()
            for u, spin in self.spins.items():
                enabled = self.buy_buttons[u].enabled
                k = self.costs[u]
                left = self.treasury - (spent - k * spin.value())
                spin.setMaximum(max(spin.value(), left // k if k > 0 and enabled else 0))
                spin.setEnabled(enabled and spin.maximum() > 0)
        finally:
            self._updating = False
        spent = self.spent()
        left = self.treasury - spent
        self.total.setText(f"Order: {spent} IPCs — {left} IPCs left after it")
        cheapest = min((k for u, k in self.costs.items() if self.buy_buttons[u].enabled),
                       default=0)
        dear = [self.names[u] for u, k in self.costs.items() if k > left]
        if cheapest and left < cheapest:
            self.reason.setText(f"{left} IPCs left: not enough for another unit.")
        elif dear:
            self.reason.setText(f"{left} IPCs left: no more {', '.join(dear)}.")
        else:
            self.reason.setText("" if self.order() else "Choose units to buy.")
        self.confirm_button.setEnabled(bool(self.order()) and left >= 0)
        self.clear_button.setEnabled(bool(self.order()))

    def clear(self) -> None:
        for s in self.spins.values():
            s.setValue(0)

    def confirm(self) -> None:
        """One "buy" per unit, cheapest type first, then the spin boxes start again."""
        order = self.order()
        if not order or self.spent() > self.treasury:
            return
        out: list[Button] = []
        for u, n in order.items():
            b = self.buy_buttons[u]
            out += [Button(BUY, b.label, b.rule, args=FrozenMap(unit=u))] * n
        self.clear()
        self.buttonsChosen.emit(out)
