"""The A&A research panel (ui/aaresearch.py) in the main window, and War Bonds in the turn
summary. Physical dice, so every roll is the test's; the engine's state afterwards is checked
against the rulebook's numbers (Phase 1: Research & Development, pg. 12)."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from uihelpers import open_window
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import DICE, END_STEP, Action
from wartable.engine.session import Session
from wartable.games.aa_anniversary import research as rd
from wartable.games.aa_anniversary.combat import Force
from wartable.games.aa_anniversary.steps.common import ipcs
from wartable.gameui.aa_anniversary.panels import BattleCalculatorDialog
from wartable.gameui.aa_anniversary.research import ResearchPanel
from wartable.gameui.aa_anniversary.turnsummary import summarize, summary_html
from wartable.model.state import GameState
from wartable.persistence.gamedata import load_game
from wartable.persistence.savefile import save_to_path
from wartable.ui.mainwindow import MainWindow
from wartable.worker.commands import Load, NewGame
from wartable.worker.engine_thread import EngineClient

SHOTS = Path(os.environ.get("WARTABLE_SHOTS", "/tmp/wartable-shots"))


def shot(widget: object, name: str) -> Path:
    for _ in range(3):
        QApplication.processEvents()
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / name
    assert widget.grab().save(str(path))  # type: ignore[attr-defined]
    return path


def _session() -> Session:
    """1941 with the optional rule Research & Development on; Germany's Phase 1 is first."""
    return Session.start(load_game("aa_anniversary"), "1941", FrozenMap(research=True), seed=1,
                         dice_mode="physical")


def _load(qtbot: QtBot, session: Session, tmp_path: Path) -> MainWindow:
    path = tmp_path / "research.wartable.json"
    save_to_path(session, path, "2026-01-01T00:00:00+00:00")
    w = open_window(qtbot)
    with qtbot.waitSignal(w.client.snapshotReady, timeout=20000,
                          check_params_cb=lambda s: s.fresh):
        w.client.send(Load(path))
    return w


def _state(w: MainWindow) -> GameState:
    assert w.snapshot is not None
    return w.snapshot.session.state


def _click(qtbot: QtBot, w: MainWindow, button: object) -> None:
    with qtbot.waitSignal(w.client.snapshotReady, timeout=20000):
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)  # type: ignore[arg-type]


def test_rd_steps_1_to_4_through_the_research_panel(qtbot: QtBot, tmp_path: Path) -> None:
    w = _load(qtbot, _session(), tmp_path)
    dock, panel = w.game_ui.research_dock, w.game_ui.research
    assert not dock.isHidden()
    # Step 1: Germany has 31 IPCs (1941); a researcher costs 5: at most 6.
    assert panel.treasury == 31 and panel.cost == 5 and panel.researchers == 0
    assert panel.buy_count.maximum() == 6
    assert "31 IPCs pay for 6 researchers at most" in panel.buy_reason.text()
    assert not panel.roll_button.isEnabled()  # no researcher to roll for yet
    assert not panel.chart_buttons[1].isEnabled() and not panel.chart_buttons[2].isEnabled()
    panel.buy_count.setValue(7)
    assert panel.buy_count.value() == 6  # more than the treasury pays for cannot be typed
    panel.buy_count.setValue(2)
    assert panel.buy_button.text() == "Buy 2 researchers (10 IPCs)"
    qtbot.mouseClick(panel.buy_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: rd.researchers(_state(w), "germany") == 2, timeout=20000)
    qtbot.waitUntil(lambda: panel.researchers == 2, timeout=20000)
    assert ipcs(_state(w), "germany") == 21 and panel.buy_count.maximum() == 4
    # Step 2: roll one die per researcher, typed: a 6 and a 3 is a breakthrough.
    assert panel.roll_button.isEnabled() and panel.roll_button.text() == "Roll 2 research dice"
    _click(qtbot, w, panel.roll_button)
    qtbot.waitUntil(lambda: len(panel.dice_spins) == 2, timeout=20000)
    assert not panel.buy_button.isEnabled()  # researchers are bought before the roll
    for spin, v in zip(panel.dice_spins, (6, 3), strict=True):
        spin.setValue(v)
    _click(qtbot, w, panel.dice_submit)
    qtbot.waitUntil(lambda: panel.chart_buttons[2].isEnabled(), timeout=20000)
    # Step 3: the chart choice; the researchers are discarded after the breakthrough.
    assert panel.chart_buttons[1].isEnabled()
    assert rd.researchers(_state(w), "germany") == 0
    assert "Jet Fighters" in panel.chart_lists[2].text()
    assert "makes a breakthrough" in panel.results.text()
    shot(dock, "aa_research_panel_chart_choice.png")
    _click(qtbot, w, panel.chart_buttons[2])
    qtbot.waitUntil(lambda: len(panel.dice_spins) == 1, timeout=20000)
    panel.dice_spins[0].setValue(2)  # Breakthrough Chart 2: 2. Jet Fighters
    _click(qtbot, w, panel.dice_submit)
    qtbot.waitUntil(lambda: rd.has(_state(w), "germany", rd.JET_FIGHTERS), timeout=20000)
    # Step 4: marked; 10 IPCs spent on two researchers, nothing else.
    st = _state(w)
    assert rd.developments(st, "germany") == {rd.JET_FIGHTERS}
    assert ipcs(st, "germany") == 31 - 10
    qtbot.waitUntil(lambda: "✓ held" in panel.chart_lists[2].text(), timeout=20000)
    assert "2. Jet Fighters <b>✓ held</b>" in panel.chart_lists[2].text()
    assert "develops Jet Fighters" in panel.results.text()
    row = [panel.table.item(r, 0).text() for r in range(panel.table.rowCount())].index("Germany")
    assert panel.table.item(row, 2).text() == "Jet Fighters"
    shot(dock, "aa_research_panel_done.png")
    # The step ends from the panel; Purchase follows and the research dock goes away.
    assert panel.end_button.isEnabled()
    _click(qtbot, w, panel.end_button)
    qtbot.waitUntil(lambda: dock.isHidden(), timeout=20000)
    w.close()


def test_full_chart_is_disabled_in_the_panel(qtbot: QtBot) -> None:
    """Step 3: a chart whose six advances are all held gives no more (not offered)."""
    s = _session()
    state = s.state
    for d in rd.research_table(s.game).chart(1):
        state = rd.with_development(state, "germany", d.id)
    s = replace(s, state=state)
    s = s.submit(Action.make("buy_researcher", "germany"))
    s = s.submit(Action.make("research", "germany"))
    s = s.submit(Action.make(DICE, "germany", values=(6,)))
    panel = ResearchPanel()
    qtbot.addWidget(panel)
    panel.show_session(s, s.prompt())
    assert not panel.chart_buttons[1].isEnabled() and panel.chart_buttons[2].isEnabled()
    assert panel.chart_buttons[1].toolTip() == "every advance of this chart is held"
    assert panel.chart_lists[1].text().count("✓ held") == 6
    assert panel.chart_lists[2].text().count("✓ held") == 0


def test_war_bonds_in_the_turn_summary_income_line() -> None:
    """Breakthrough Chart 1: 5. War Bonds: 1d6 more IPCs at Collect Income; the turn
    summary's income line names them apart from the production."""
    s = _session()
    s = s.submit(Action(END_STEP, "germany"))  # no research this turn
    s = s.submit(Action(END_STEP, "germany"))  # no purchase
    s = replace(s, state=rd.with_development(s.state, "germany", rd.WAR_BONDS))
    while s.state.active_side == "germany" and s.prompt().dice is None:
        s = s.submit(Action(END_STEP, "germany"))
    s = s.submit(Action.make(DICE, "germany", values=(4,)))
    assert s.state.active_side == "ussr"  # the typed roll ends Collect Income (and the turn)
    g = summarize(s)[0]
    assert g.power == "germany" and g.income == 31 and g.war_bonds == 4
    assert g.extra_income == 0  # national objectives are off
    assert g.treasury == 31 + 31 + 4  # 1941 start, Germany's production, the die
    assert "4 from War Bonds" in summary_html(g)


def test_calculator_dialog_uses_the_battle_powers_developments(qtbot: QtBot) -> None:
    """A battle taken from the board is computed with its powers' developments: Germany
    with Jet Fighters (researched here with typed dice: a 6, then Chart 2, a 2). One fighter
    against one infantry: attack 4 -> P(attacker wins) = (4/6*4/6) / (1 - 2/6*4/6) = 4/7
    = 57.1 % (without jets 1/2: test_aa_developments_in_battle_and_income works both)."""
    s = _session()
    for a in (Action.make("buy_researcher", "germany"), Action.make("research", "germany"),
              Action.make(DICE, "germany", values=(6,)), Action.make("chart", "germany", chart=2),
              Action.make(DICE, "germany", values=(2,))):
        s = s.submit(a)
    assert rd.developments(s.state, "germany") == {rd.JET_FIGHTERS}
    client = EngineClient(autosave_enabled=False)
    with qtbot.waitSignal(client.snapshotReady, timeout=30000):  # queries run beside a game
        client.send(NewGame("aa_anniversary", "1941"))
    try:
        dlg = BattleCalculatorDialog(client, s.game.definition)
        qtbot.addWidget(dlg)
        dlg.set_battle(s, "east_poland")  # Germany's turn: the Soviet infantry there
        assert dlg.developments is not None
        assert dlg.developments.attacker == {rd.JET_FIGHTERS} and not dlg.developments.defender
        assert "attacker Jet Fighters" in dlg.heading.text()
        dlg.set_forces(Force.of(fighter=1), Force.of(infantry=1))
        dlg.calculate()
        qtbot.waitUntil(lambda: not dlg.running, timeout=30000)
        assert dlg.result_text("Attacker wins") == "57.1 %"
        dlg.clear()  # typed battles start without developments
        assert dlg.developments is None
        dlg.set_forces(Force.of(fighter=1), Force.of(infantry=1))
        dlg.calculate()
        qtbot.waitUntil(lambda: not dlg.running, timeout=30000)
        assert dlg.result_text("Attacker wins") == "50.0 %"
        dlg.close()
    finally:
        client.shutdown()
