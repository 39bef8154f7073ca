"""Axis & Allies Anniversary: the play panels in the main window, shown when the engine asks.

The purchase panel (a dock) comes up when a purchase prompt does, the battle board (a
window beside the map) when a battle begins, and the turn summary (a dock) is refreshed and
brought forward when a power's turn ends. Their choices go to `submit`, the main window's
own path for the side panel's buttons, so the engine sees the very same actions.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDialog, QDockWidget, QMainWindow, QMenu, QVBoxLayout, QWidget

from wartable.engine.actions import Button
from wartable.ui.aapurchase import PurchasePanel, offers_purchase
from wartable.ui.aaresearch import ResearchPanel, offers_research
from wartable.ui.battleboard import BattleBoard
from wartable.ui.turnsummary import TurnSummaryPanel
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


class AAPlayPanels:
    """Owns the three panels and decides, from each snapshot, which to show."""

    def __init__(self, window: QMainWindow, submit: Callable[[Button], None]) -> None:
        self.window = window
        self.submit = submit
        self.purchase = PurchasePanel()
        self.purchase_dock = QDockWidget("Purchase", window)
        self.purchase_dock.setObjectName("dock_Purchase")
        self.purchase_dock.setWidget(self.purchase)
        window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.purchase_dock)
        self.purchase_dock.hide()
        self.summary = TurnSummaryPanel()
        self.summary_dock = QDockWidget("Turn summary", window)
        self.summary_dock.setObjectName("dock_Turn summary")
        self.summary_dock.setWidget(self.summary)
        window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.summary_dock)
        # One column of tabs on the left: the summary of the turn that just ended comes
        # forward, the next power's purchase is the tab beside it.
        window.tabifyDockWidget(self.purchase_dock, self.summary_dock)
        self.summary_dock.hide()
        # Phase 1: Research & Development, a tab of the same column (ui/aaresearch.py).
        self.research = ResearchPanel()
        self.research_dock = QDockWidget("Research", window)
        self.research_dock.setObjectName("dock_Research")
        self.research_dock.setWidget(self.research)
        window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.research_dock)
        window.tabifyDockWidget(self.purchase_dock, self.research_dock)
        self.research_dock.hide()
        self.research.buttonsChosen.connect(self._submit_all)
        self._research_key: tuple[object, ...] | None = None
        self.battle = BattleBoardDialog(window)
        self.purchase.buttonsChosen.connect(self._submit_all)
        self.battle.board.buttonChosen.connect(self.submit)
        self.active = False
        self._purchase_key: tuple[object, ...] | None = None
        self._battle_key: tuple[object, ...] | None = None
        self._turn_key: tuple[object, ...] | None = None
        self._snap: Snapshot | None = None

    def add_actions(self, menu: QMenu) -> None:
        """View menu: the purchase and summary docks, and the battle board."""
        menu.addAction(self.purchase_dock.toggleViewAction())
        menu.addAction(self.summary_dock.toggleViewAction())
        menu.addAction(self.research_dock.toggleViewAction())  # every power's developments
        self.act_battle = QAction("Battle &Board", self.window)
        self.act_battle.setObjectName("actBattleBoard")
        self.act_battle.triggered.connect(self.show_battle_board)
        menu.addAction(self.act_battle)
        self.act_summary = QAction("Turn &Summary", self.window)
        self.act_summary.setObjectName("actTurnSummary")
        self.act_summary.triggered.connect(self.show_summary)
        menu.addAction(self.act_summary)

    def _submit_all(self, buttons: list[Button]) -> None:
        for b in buttons:
            self.submit(b)

    def set_game(self, active: bool) -> None:
        """A&A is open (panels may show) or another game is (they all hide)."""
        self.active = active
        if not active:
            self.purchase_dock.hide()
            self.summary_dock.hide()
            self.research_dock.hide()
            self.battle.hide()

    def show_snapshot(self, snap: Snapshot) -> None:
        self.active = True  # called for an A&A game only
        self._snap = snap
        session, prompt, state = snap.session, snap.prompt, snap.session.state
        # Purchase: shown as the step begins (the player may close it), hidden after.
        if offers_purchase(prompt):
            key = (state.turn, prompt.side, prompt.step)
            self.purchase.show_session(session, prompt)
            if key != self._purchase_key:
                self._purchase_key = key
                self.purchase_dock.show()
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
