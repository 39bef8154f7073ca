"""Axis & Allies Anniversary: the game's plug-in in the main window (ui/plugin.py).

The purchase panel (a dock) comes up when a purchase prompt does, the battle board (a
window beside the map) when a battle begins, and the turn summary (a dock) is refreshed and
brought forward when a power's turn ends. Their choices go to `submit`, the main window's
own path for the side panel's buttons, so the engine sees the very same actions. The income
and objectives dock and the battle calculator (Game menu) come with the game too.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDialog, QMainWindow, QVBoxLayout, QWidget

from wartable.engine.actions import Button
from wartable.gameui.aa_anniversary.battleboard import BattleBoard
from wartable.gameui.aa_anniversary.panels import BattleCalculatorDialog, ObjectivesPanel
from wartable.gameui.aa_anniversary.purchase import PurchasePanel, offers_purchase
from wartable.gameui.aa_anniversary.research import ResearchPanel, offers_research
from wartable.gameui.aa_anniversary.turnsummary import TurnSummaryPanel
from wartable.ui.plugin import GameUi, UiContext
from wartable.ui.widgets import scrolled
from wartable.worker.commands import Snapshot


class BattleBoardDialog(QDialog):
    """The battle board in its own non-modal window."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Battle board")
        self.setObjectName("battleBoardDialog")
        self.setModal(False)
        self.board = BattleBoard()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.board)
        self.resize(820, 620)


class AAGameUi(GameUi):
    """Owns the A&A panels and decides, from each snapshot, which to show."""

    def __init__(self, ctx: UiContext) -> None:
        super().__init__(ctx)
        left = Qt.DockWidgetArea.LeftDockWidgetArea
        self.submit = ctx.submit
        # Income, national objectives and victory cities: shown while the game is open, a
        # tab beside the overview and the stack.
        self.objectives = ObjectivesPanel()
        self.objectives_dock = self.add_dock("Income and objectives", scrolled(self.objectives),
                                             Qt.DockWidgetArea.RightDockWidgetArea)
        self._objectives_shown = False
        self.purchase = PurchasePanel()
        self.purchase_dock = self.add_dock("Purchase", self.purchase, left, "dock_Purchase")
        # One column of tabs on the left: the summary of the turn that just ended comes
        # forward, the next power's purchase is the tab beside it.
        self.summary = TurnSummaryPanel()
        self.summary_dock = self.add_dock("Turn summary", self.summary, left,
                                          "dock_Turn summary", tab_with=self.purchase_dock)
        # Phase 1: Research & Development, a tab of the same column (research.py).
        self.research = ResearchPanel()
        self.research_dock = self.add_dock("Research", self.research, left, "dock_Research",
                                           tab_with=self.purchase_dock)
        self.research.buttonsChosen.connect(self._submit_all)
        self._research_key: tuple[object, ...] | None = None
        self.battle = BattleBoardDialog(ctx.window)
        self.add_window(self.battle)
        self.purchase.buttonsChosen.connect(self._submit_all)
        self.battle.board.buttonChosen.connect(self.submit)
        self._purchase_key: tuple[object, ...] | None = None
        self._battle_key: tuple[object, ...] | None = None
        self._turn_key: tuple[object, ...] | None = None
        self._snap: Snapshot | None = None
        self.act_battle = self.action("Battle &Board", self.show_battle_board,
                                      "actBattleBoard")
        self.act_summary = self.action("Turn &Summary", self.show_summary, "actTurnSummary")
        self.act_battle_calc = self.action("&Battle Calculator…", self.battle_calculator,
                                           "actBattleCalc", "Ctrl+B")

    def view_actions(self) -> list[QAction]:
        """View menu: the docks (research shows every power's developments), the battle
        board and the turn summary."""
        docks = [a for a in super().view_actions()
                 if a is not self.summary_dock.toggleViewAction()]  # one "Turn Summary"
        return [*docks, self.act_battle, self.act_summary]

    def game_actions(self) -> list[QAction]:
        return [self.act_battle_calc]

    def battle_calculator(self) -> BattleCalculatorDialog | None:
        """Game > Battle Calculator: exact odds, filled from the selected stack's space when
        there is one, computed on the analysis thread."""
        if self._snap is None:
            return None
        session = self._snap.session
        dlg = BattleCalculatorDialog(self.ctx.client, session.game.definition, self.ctx.window)
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        if self.ctx.selected_location():
            dlg.set_battle(session, self.ctx.selected_location())
        dlg.show()
        return dlg

    def _submit_all(self, buttons: list[Button]) -> None:
        for b in buttons:
            self.submit(b)

    def show_snapshot(self, snap: Snapshot) -> None:
        self._snap = snap
        if not self._objectives_shown:
            self._objectives_shown = True
            self.objectives_dock.show()
        self.objectives.show_state(snap.session)
        session, prompt, state = snap.session, snap.prompt, snap.session.state
        # Purchase: shown as the step begins (the player may close it), hidden after.
        if offers_purchase(prompt):
            key = (state.turn, prompt.side, prompt.step)
            self.purchase.show_session(session, prompt)
            if key != self._purchase_key:
                self._purchase_key = key
                self.purchase_dock.show()
                # Not in front of the side panel it shares tabs with at 1280x720: End step
                # and the buy buttons stay in sight (issue 16).
                win = self.purchase_dock.parentWidget()
                tabbed = win.tabifiedDockWidgets(self.purchase_dock) \
                    if isinstance(win, QMainWindow) else []
                if not any(d.objectName() == "dock_Sequence of play" for d in tabbed):
                    self.purchase_dock.raise_()
        elif self._purchase_key is not None:
            self._purchase_key = None
            self.purchase_dock.hide()
        # Research: shown as Phase 1 begins for the acting power, hidden after; opened from
        # the View menu it shows every power's developments.
        if offers_research(prompt):
            key = (state.turn, prompt.side, prompt.step)
            self.research.show_session(session, prompt)
            if key != self._research_key:
                self._research_key = key
                self.research_dock.show()
                self.research_dock.raise_()
        else:
            if self._research_key is not None:
                self._research_key = None
                self.research_dock.hide()
            if self.research_dock.isVisible():
                self.research.show_session(session, None)
        # Battle board: opened as a battle begins; it keeps the last result until closed.
        space = state.var("battle")
        if isinstance(space, str):
            key = (state.turn, state.active_side, space)
            if key != self._battle_key:
                self._battle_key = key
                self.battle.show()
                self.battle.raise_()
        if isinstance(space, str) or self.battle.isVisible():
            self.battle.board.show_session(session, prompt)
        # Turn summary: a new power's turn brings the last one's summary forward.
        turn_key = (state.turn, state.active_side)
        new_turn = self._turn_key is not None and turn_key != self._turn_key
        self._turn_key = turn_key
        if new_turn:
            self.battle.hide()  # the last turn's battle board goes with it
            self.summary.show_session(session, latest_complete=True)
            self.summary_dock.show()
            self.summary_dock.raise_()
        elif self.summary_dock.isVisible():
            self.summary.show_session(session)

    def show_battle_board(self) -> None:
        if self._snap is not None:
            self.battle.board.show_session(self._snap.session, self._snap.prompt)
        self.battle.show()
        self.battle.raise_()

    def show_summary(self) -> None:
        if self._snap is not None:
            self.summary.show_session(self._snap.session)
        self.summary_dock.show()
        self.summary_dock.raise_()
