"""The sequence-of-play panel: where we are, what to do now, and the buttons for it."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QCheckBox,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from wartable.engine.actions import END_STEP, Button, Prompt
from wartable.engine.session import Session
from wartable.ui.players import text_on
from wartable.ui.widgets import discard, scrolled

DICE_PER_ROW = 6


def disabled_reasons(prompt: Prompt) -> str:
    """One line per reason the prompt's greyed buttons give, naming the buttons it holds
    back ("Fight in United Kingdom: Fight the sea battle in Sea Zone 6 first [...]");
    nothing while the prompt waits for another side."""
    if prompt.waiting:
        return ""
    held: dict[str, list[str]] = {}
    for b in prompt.buttons:
        if not b.enabled and b.reason:
            held.setdefault(b.reason, []).append(b.label)
    return "\n".join(f"{', '.join(labels)}: {why}" for why, labels in held.items())


class SidePanel(QWidget):
    buttonClicked = Signal(object)  # Button
    diceEntered = Signal(tuple)  # the typed physical roll
    freePlayToggled = Signal(bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sidePanel")
        self.setMinimumWidth(300)
        lay = QVBoxLayout(self)
        self.title = QLabel()
        self.title.setObjectName("gameTitle")
        self.title.setWordWrap(True)
        f = self.title.font()
        f.setPointSizeF(f.pointSizeF() * 1.25)
        f.setBold(True)
        self.title.setFont(f)
        lay.addWidget(self.title)
        self.turn = QLabel()
        self.turn.setWordWrap(True)  # a long scenario name must not clip "Turn 3 of 11"
        lay.addWidget(self.turn)

        self.tree = QTreeWidget()
        self.tree.setObjectName("sequenceTree")
        self.tree.setHeaderHidden(True)
        self.tree.setRootIsDecorated(True)
        self.tree.setSelectionMode(QTreeWidget.SelectionMode.NoSelection)
        self.tree.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.tree.setMinimumHeight(48)  # the window fits 1280x720 (issue 16)
        lay.addWidget(self.tree, 2)

        box = QGroupBox("Now")
        box.setObjectName("promptBox")
        bl = QVBoxLayout(box)
        self.side_label = QLabel()
        self.side_label.setObjectName("sideLabel")
        self.side_label.setAutoFillBackground(True)
        self.side_label.setMargin(4)
        bl.addWidget(self.side_label)
        # The deciding player's seat, in the seat's colour (ui/players.py; issue 7).
        self.seat_label = QLabel()
        self.seat_label.setObjectName("seatLabel")
        self.seat_label.setMargin(4)
        self.seat_label.hide()
        bl.addWidget(self.seat_label)
        self.prompt = QLabel()
        self.prompt.setObjectName("promptText")
        self.prompt.setWordWrap(True)
        self.prompt.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.rule = QLabel()
        self.rule.setObjectName("ruleRef")
        self.rule.setStyleSheet("color: #555;")
        self.error = QLabel()
        self.error.setObjectName("errorText")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #b00020;")
        self.error.hide()
        bl.addWidget(self.error)

        # The typed roll: what it is for on its own (wrapped) line, the dice in rows of
        # DICE_PER_ROW so a 20-dice battle round still fits the panel, then Submit.
        self.dice_row = QWidget()
        dv = QVBoxLayout(self.dice_row)
        dv.setContentsMargins(0, 0, 0, 0)
        self.dice_label = QLabel("Dice:")
        self.dice_label.setWordWrap(True)
        dv.addWidget(self.dice_label)
        grid_box = QWidget()
        self.dice_layout = QGridLayout(grid_box)
        self.dice_layout.setContentsMargins(0, 0, 0, 0)
        dv.addWidget(grid_box)
        self.dice_spins: list[QSpinBox] = []
        self.dice_submit = QPushButton("Submit roll")
        self.dice_submit.setObjectName("diceSubmit")
        self.dice_submit.clicked.connect(self._submit_dice)
        submit_line = QHBoxLayout()
        submit_line.addStretch(1)
        submit_line.addWidget(self.dice_submit)
        dv.addLayout(submit_line)
        self.dice_row.hide()
        bl.addWidget(self.dice_row)

        # What to do now, its rule and the step's choices scroll together when the panel is
        # short (1280x720), so the prompt is never clipped; End step stays below, pinned.
        self.buttons_frame = QFrame()
        self.buttons_layout = QVBoxLayout(self.buttons_frame)
        self.buttons_layout.setContentsMargins(0, 0, 0, 0)
        self.buttons_layout.addWidget(self.prompt)
        self.buttons_layout.addWidget(self.rule)
        # Why the greyed buttons wait, in words (a tooltip needs a mouse; table mode is
        # often played by touch).
        self.why_disabled = QLabel()
        self.why_disabled.setObjectName("whyDisabled")
        self.why_disabled.setWordWrap(True)
        self.why_disabled.setStyleSheet("color: #666;")
        self.why_disabled.hide()
        self.buttons_layout.addStretch(1)
        # Scrolls when a step offers many choices (a purchase lists every unit type).
        self.buttons_scroll = scrolled(self.buttons_frame)
        self.buttons_scroll.setMinimumHeight(60)
        bl.addWidget(self.buttons_scroll, 1)
        # End step never scrolls out of sight, nor do the reasons of the greyed buttons
        # (issue 16): they sit under the scrolled choices.
        self.pinned = QWidget()
        self.pinned.setObjectName("pinnedButtons")
        self.pinned_layout = QVBoxLayout(self.pinned)
        self.pinned_layout.setContentsMargins(0, 0, 0, 0)
        bl.addWidget(self.pinned)
        bl.addWidget(self.why_disabled)
        lay.addWidget(box, 3)

        self.free_play = QCheckBox("Free play (house rules): move any piece anywhere")
        self.free_play.setObjectName("freePlay")
        self.free_play.setToolTip("Moves are not checked by the rules and are logged as overrides.")
        self.free_play.toggled.connect(self.freePlayToggled)
        lay.addWidget(self.free_play)
        self.buttons: list[QPushButton] = []
        self._tree_key: tuple[tuple[str, str], ...] = ()

    # --- updates -----------------------------------------------------------------
    def show_session(self, session: Session, prompt: Prompt) -> None:
        game, st = session.game, session.state
        d = game.definition
        self.title.setText(d.title)
        sc = d.scenarios[st.scenario]
        self.turn.setText(f"{sc.name} — {sc.turns_text(st.turn)}")
        self._fill_tree(session)
        self.seat_label.hide()  # set_seat shows it again for the deciding player
        if prompt.finished:
            self.side_label.setText("Game over")
            self.side_label.setStyleSheet("")
        else:
            side = d.side(prompt.side)
            self.side_label.setText(f"{side.name} to act")
            self.side_label.setStyleSheet(
                f"background: {side.colour}; color: {side.text_colour}; font-weight: bold;")
        self.prompt.setText(prompt.text)
        self.rule.setText(f"Rule {prompt.rule}" if prompt.rule else "")
        self.clear_error()
        self._set_buttons(prompt)
        self._set_dice(prompt)

    def set_seat(self, player: str, colour: str) -> None:
        """Name the player whose seat decides now, in the seat's colour."""
        self.seat_label.setText(f"Player: {player}")
        self.seat_label.setStyleSheet(f"background: {colour}; color: {text_on(colour)}; "
                                      "font-weight: bold;")
        self.seat_label.show()

    def _fill_tree(self, session: Session) -> None:
        game = session.game
        positions = game.positions
        # Names come from the rules: a scenario may play the turns in another order
        # (A&A 1942 begins with Japan).
        names = [game.rules.phase_name(game, session.state, p) for p in positions]
        key = tuple(zip((p.phase.id for p in positions), names, strict=True))
        if key != self._tree_key:
            self.tree.clear()
            phase_items: dict[str, QTreeWidgetItem] = {}
            for pos, name in zip(positions, names, strict=True):
                ph = phase_items.get(pos.phase.id)
                if ph is None:
                    rule = f"  [{pos.phase.rule}]" if pos.phase.rule else ""
                    ph = QTreeWidgetItem([name + rule])
                    phase_items[pos.phase.id] = ph
                    self.tree.addTopLevelItem(ph)
                rule = f"  [{pos.step.rule}]" if pos.step.rule else ""
                QTreeWidgetItem(ph, [pos.step.name + rule])
            self._tree_key = key
        cur = session.state.step_index
        i = 0
        bold = QFont(self.tree.font())
        bold.setBold(True)
        normal = QFont(self.tree.font())
        current_item: QTreeWidgetItem | None = None
        for t in range(self.tree.topLevelItemCount()):
            ph = self.tree.topLevelItem(t)
            assert ph is not None
            has_cur = False
            for c in range(ph.childCount()):
                it = ph.child(c)
                assert it is not None
                is_cur = i == cur
                base = it.text(0).removeprefix("▶ ")
                it.setText(0, ("▶ " + base) if is_cur else base)
                it.setFont(0, bold if is_cur else normal)
                it.setForeground(0, QBrush(QColor("#888" if i < cur else "#000")))
                if is_cur:
                    current_item, has_cur = it, True
                i += 1
            ph.setFont(0, bold if has_cur else normal)
            ph.setExpanded(has_cur)
        if current_item is not None:
            self.tree.scrollToItem(current_item)

    def _set_buttons(self, prompt: Prompt) -> None:
        for b in self.buttons:
            discard(b)
        self.buttons = []
        for spec in prompt.buttons:
            # The rule goes in the tooltip: long references ("Phase 2: Purchase Units
            # (pg. 12)") would crowd the label, and the prompt shows the step's rule.
            b = QPushButton(spec.label)
            b.setObjectName(f"button_{spec.id}")
            b.setEnabled(spec.enabled and not prompt.waiting)
            tip = [f"Rule {spec.rule}" if spec.rule else "", spec.reason]
            b.setToolTip("\n".join(t for t in tip if t))
            b.clicked.connect(lambda _=False, s=spec: self.buttonClicked.emit(s))
            if spec.id == END_STEP:
                self.pinned_layout.addWidget(b)
            else:  # before the stretch that keeps the choices at the top
                self.buttons_layout.insertWidget(self.buttons_layout.count() - 1, b)
            self.buttons.append(b)
        # The frame takes the new buttons' size now, not at the next relayout (issue 16:
        # the 1940 air superiority buttons stayed invisible until another was used).
        self.buttons_frame.adjustSize()
        text = disabled_reasons(prompt)
        self.why_disabled.setText(text)
        self.why_disabled.setVisible(bool(text))

    def _set_dice(self, prompt: Prompt) -> None:
        for spin in self.dice_spins:
            discard(spin)
        self.dice_spins = []
        ask = prompt.dice
        self.dice_row.setVisible(ask is not None)
        if ask is None:
            return
        self.dice_label.setText(f"{ask.purpose}: {ask.count}d{ask.sides}")
        for i in range(ask.count):
            s = QSpinBox()
            s.setRange(1, ask.sides)
            s.setObjectName(f"die{i}")
            self.dice_layout.addWidget(s, i // DICE_PER_ROW, i % DICE_PER_ROW)
            self.dice_spins.append(s)

    def _submit_dice(self) -> None:
        self.diceEntered.emit(tuple(s.value() for s in self.dice_spins))

    def show_error(self, text: str) -> None:
        self.error.setText(text)
        self.error.show()

    def clear_error(self) -> None:
        self.error.hide()
        self.error.setText("")

    def button_for(self, button_id: str) -> QPushButton | None:
        for b in self.buttons:
            if b.objectName() == f"button_{button_id}":
                return b
        return None


__all__ = ["Button", "SidePanel"]
