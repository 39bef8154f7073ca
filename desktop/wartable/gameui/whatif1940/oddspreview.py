"""1940: What If?: the prepared-assault panel with its odds preview [11.3, 11.8-11.14].

Shown in a dock while the phasing player's combat step waits for an attack: pick a target
hex (the combo box, or a click on the map), tick the adjacent units that attack, and read
the raw odds, every column shift with its reason and rule, the final column and that
column's row of the (provisional) CRT. "Attack" sends the same action the engine's random
play and tests use: verb "attack" with the target and the attackers.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Button, Prompt
from wartable.engine.rules import Game
from wartable.engine.session import Session
from wartable.games.whatif1940 import hidden
from wartable.games.whatif1940.board import board_of
from wartable.games.whatif1940.steps import combat_odds
from wartable.persistence import gamedata
from wartable.ui.plugin import GameUi, UiContext
from wartable.ui.widgets import wrapped_label
from wartable.worker.commands import Snapshot

VERB = "attack"


def offers_attack(prompt: Prompt) -> bool:
    return VERB in prompt.targets and "attackers" in prompt.targets and not prompt.waiting


class OddsPreviewPanel(QWidget):
    """Target, attackers, the live odds preview and the Attack button."""

    def __init__(self, submit: Callable[[Button], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("w40OddsPreview")
        self.submit = submit
        self._session: Session | None = None
        self._prompt: Prompt | None = None
        lay = QVBoxLayout(self)
        row = QHBoxLayout()
        row.addWidget(QLabel("Target hex:"))
        self.target = QComboBox()
        self.target.setObjectName("w40Target")
        self.target.currentTextChanged.connect(self._fill_attackers)
        row.addWidget(self.target, 1)
        lay.addLayout(row)
        lay.addWidget(QLabel("Attacking units (adjacent, not yet used this phase [11.4]):"))
        self.attackers = QListWidget()
        self.attackers.setObjectName("w40Attackers")
        self.attackers.itemChanged.connect(lambda _: self.refresh())
        lay.addWidget(self.attackers, 1)
        arow = QHBoxLayout()
        arow.addWidget(QLabel("Aircraft you expect to commit [8.4]:"))
        self.air = QSpinBox()
        self.air.setRange(0, 4)
        self.air.valueChanged.connect(lambda _: self.refresh())
        arow.addWidget(self.air)
        arow.addStretch(1)
        lay.addLayout(arow)
        self.odds = wrapped_label("w40OddsText")
        self.odds.setTextFormat(Qt.TextFormat.RichText)
        lay.addWidget(self.odds)
        self.attack = QPushButton("Attack")
        self.attack.setObjectName("w40AttackButton")
        self.attack.clicked.connect(self._attack)
        lay.addWidget(self.attack)

    # --- filling ------------------------------------------------------------------------
    def show_session(self, session: Session, prompt: Prompt) -> None:
        self._session, self._prompt = session, prompt
        keep = self.target.currentText()
        hexes = list(prompt.targets.get(VERB, ()))
        self.target.blockSignals(True)
        self.target.clear()
        self.target.addItems(hexes)
        if keep in hexes:
            self.target.setCurrentText(keep)
        self.target.blockSignals(False)
        self._fill_attackers(self.target.currentText())

    def set_target(self, label: str) -> None:
        """A click on the map chooses the target when it may be attacked."""
        if self.target.findText(label) >= 0:
            self.target.setCurrentText(label)

    def _fill_attackers(self, target: str) -> None:
        s, p = self._session, self._prompt
        self.attackers.blockSignals(True)
        self.attackers.clear()
        if s is not None and p is not None and target:
            board = board_of(s.game)
            st = s.state
            for pid in p.targets.get("attackers", ()):
                piece = st.pieces.get(pid)
                if piece is None or target not in board.neighbors.get(piece.location, ()):
                    continue
                name = hidden.display_name(s.game, st, piece)
                item = QListWidgetItem(f"{piece.location}: {name}")
                item.setData(Qt.ItemDataRole.UserRole, pid)
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(Qt.CheckState.Checked)
                self.attackers.addItem(item)
        self.attackers.blockSignals(False)
        self.refresh()

    def chosen(self) -> tuple[str, ...]:
        out = []
        for i in range(self.attackers.count()):
            it = self.attackers.item(i)
            if it.checkState() == Qt.CheckState.Checked:
                out.append(str(it.data(Qt.ItemDataRole.UserRole)))
        return tuple(out)

    def refresh(self) -> None:
        s = self._session
        target = self.target.currentText()
        ids = self.chosen()
        pv = None
        if s is not None and target and ids:
            pv = combat_odds.preview(s.game, board_of(s.game), s.state, ids, target,
                                     air_attack=self.air.value())
        self.attack.setEnabled(pv is not None)
        if pv is None:
            self.odds.setText("<i>Choose a target hex and at least one attacking unit.</i>")
            return
        printed = s is not None and "combat" in player_tables_of(s.game)
        self.odds.setText(render(pv, printed=printed))

    def _attack(self) -> None:
        target = self.target.currentText()
        ids = self.chosen()
        if target and ids:
            self.submit(Button(VERB, f"Attack {target}", "11.3",
                               args=FrozenMap(target=target, attackers=ids)))


def player_tables_of(game: Game) -> frozenset[str]:
    """The tables this game runs with the player's own printed values (issue 5), found
    once per Game and held with it."""
    return game.derived(_player_tables)


def _player_tables(game: Game) -> frozenset[str]:
    return frozenset(gamedata.table_overrides_of(game))


def render(pv: combat_odds.OddsPreview, printed: bool = False) -> str:
    """The preview as rich text: strengths, raw odds, each shift, final column, CRT row."""
    o = pv.odds
    lines = [f"<b>Attack {pv.attack}</b>: " + ", ".join(x.text() for x in pv.attack_parts),
             f"<b>Defense {pv.defense}</b>: " + ", ".join(x.text() for x in pv.defense_parts)
             + (f" + {pv.hidden_defenders} unseen beneath the top, not counted until the "
                "attack is committed [7.3]" if pv.hidden_defenders else ""),
             f"Raw odds {pv.attack}:{pv.defense} → <b>{o.raw_column.replace('-', ':')}</b> "
             "(rounded for the defender [11.3])"]
    for s in o.shifts:
        lines.append(f"&nbsp;&nbsp;{s.amount:+d} {s.reason} [{s.rule}]")
    if o.shifts:
        lines.append(f"Net shift {o.net_shift:+d} [11.14]")
    lines.append(f"Final column: <b>{pv.column_text()}</b>"
                 + (" (above 5:1 counts as 5:1 [11.14])"
                    if o.final_column == o.columns[-1] and o.target_column != o.final_column
                    else ""))
    if pv.row:
        cells = " ".join(f"{i + 1}:{r}" for i, r in enumerate(pv.row))
        mark = (" <i>(your printed CRT)</i>" if printed
                else " <i>(provisional CRT)</i>" if pv.provisional else "")
        lines.append(f"CRT row: {cells}" + mark)
    if pv.estimated:
        lines.append("<i>Untried strengths are estimated from the unit type [2.12].</i>")
    return "<br>".join(lines)


class W40GameUi(GameUi):
    """1940's plug-in: the odds panel in a dock while a combat step waits for an attack."""

    def __init__(self, ctx: UiContext) -> None:
        super().__init__(ctx)
        self.panel = OddsPreviewPanel(ctx.submit)
        self.dock = self.add_dock("Prepared assault — odds", self.panel,
                                  Qt.DockWidgetArea.LeftDockWidgetArea, "dock_w40_odds")
        self._key: tuple[int, str] | None = None

    def show_snapshot(self, snap: Snapshot) -> None:
        if not offers_attack(snap.prompt):
            if self._key is not None:
                self._key = None
                self.dock.hide()
            return
        self.panel.show_session(snap.session, snap.prompt)
        key = (snap.session.state.turn, snap.prompt.step)
        if key != self._key:
            self._key = key
            self.dock.show()
            self.dock.raise_()

    def on_location_clicked(self, location: str) -> None:
        if self.dock.isVisible():
            self.panel.set_target(location)
