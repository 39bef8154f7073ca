"""The A&A battle calculator dialog and the income & objectives panel (ui/aapanels.py)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from wartable.core.frozen import FrozenMap
from wartable.engine.session import Session
from wartable.games.aa_anniversary import combat as c
from wartable.games.aa_anniversary.steps import objectives as no
from wartable.gameui.aa_anniversary.panels import (
    BattleCalculatorDialog,
    ObjectivesPanel,
    battle_forces,
)
from wartable.model.state import GameState
from wartable.persistence.gamedata import load_game
from wartable.worker.commands import NewGame, Snapshot
from wartable.worker.engine_thread import EngineClient

# Screenshots go here (kept after the run so they can be looked at).
SHOTS = Path(os.environ.get("WARTABLE_SHOTS", "/tmp/wartable-shots"))


def shot(widget: object, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / name
    assert widget.grab().save(str(path))  # type: ignore[attr-defined]
    return path


@pytest.fixture
def client(qtbot: QtBot) -> Iterator[EngineClient]:
    cl = EngineClient(autosave_enabled=False)
    with qtbot.waitSignal(cl.snapshotReady, timeout=30000):
        cl.send(NewGame("aa_anniversary", "1941"))
    yield cl
    cl.shutdown()


def dialog(qtbot: QtBot, client: EngineClient) -> BattleCalculatorDialog:
    assert client.latest is not None
    dlg = BattleCalculatorDialog(client, client.latest.session.game.definition)
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitExposed(dlg)
    return dlg


def test_one_infantry_against_one(qtbot: QtBot, client: EngineClient) -> None:
    dlg = dialog(qtbot, client)
    dlg.attack["infantry"].setValue(1)
    dlg.defend["infantry"].setValue(1)
    assert dlg.attacker_order.placeholderText() == "infantry"  # the default order shown
    dlg.calculate()
    assert dlg.running
    qtbot.waitUntil(lambda: not dlg.running, timeout=30000)
    # Per round the attacker hits 1/6, the defender 2/6: P(win) = (1/6 * 4/6) / (1 - 5/6 * 4/6)
    assert dlg.result_text("Attacker wins") == "25.0 %"
    assert dlg.result_text("Defender wins") == "62.5 %"
    assert dlg.result_text("Draw (both destroyed)") == "12.5 %"
    ans = dlg.last_answer
    assert ans is not None and ans.chosen is None
    assert ans.default.attacker_win == pytest.approx(0.25)
    assert ans.default.attacker_ipc_loss == pytest.approx(3 * 0.75)
    cells = [dlg.survivors.item(0, col) for col in (0, 1)]
    # the attacker most likely loses its infantry
    assert [x.text() if x else "" for x in cells] == ["none", "75.0 %"]
    shot(dlg, "battle_calculator_1v1.png")
    dlg.close()


def test_default_and_chosen_order_side_by_side(qtbot: QtBot, client: EngineClient) -> None:
    dlg = dialog(qtbot, client)
    dlg.attack["infantry"].setValue(3)
    dlg.attack["armour"].setValue(2)
    dlg.attack["fighter"].setValue(1)
    dlg.defend["infantry"].setValue(4)
    dlg.defend["aa_gun"].setValue(1)
    dlg.attacker_order.setText("armour, fighter, infantry")  # a poor order: tanks first
    dlg.calculate()
    qtbot.waitUntil(lambda: not dlg.running, timeout=30000)
    ans = dlg.last_answer
    assert ans is not None and ans.chosen is not None
    assert dlg.results.columnCount() == 3
    assert ans.chosen.attacker_ipc_loss > ans.default.attacker_ipc_loss
    assert dlg.result_text("Attacker wins", 2).endswith(" %")
    shot(dlg, "battle_calculator_orders.png")
    dlg.close()


def test_mistakes_are_shown_without_a_query(qtbot: QtBot, client: EngineClient) -> None:
    dlg = dialog(qtbot, client)
    dlg.attack["infantry"].setValue(1)
    dlg.defend["destroyer"].setValue(1)
    dlg.calculate()
    assert not dlg.running
    assert "either at sea or on land" in dlg.status.text()
    dlg.defend["destroyer"].setValue(0)
    dlg.defend["infantry"].setValue(1)
    dlg.attacker_order.setText("tiger")
    dlg.calculate()
    assert not dlg.running and "Unknown unit 'tiger'" in dlg.status.text()
    dlg.close()


def test_cancel_a_big_battle(qtbot: QtBot, client: EngineClient) -> None:
    dlg = dialog(qtbot, client)
    for u, n in (("infantry", 60), ("artillery", 30), ("armour", 30), ("fighter", 20),
                 ("bomber", 10)):
        dlg.attack[u].setValue(n)
    for u, n in (("infantry", 70), ("artillery", 20), ("armour", 30), ("fighter", 20)):
        dlg.defend[u].setValue(n)
    dlg.calculate()
    qtbot.waitUntil(lambda: "solved" in dlg.status.text(), timeout=30000)
    assert dlg.cancel_button.isEnabled()
    dlg.cancel()
    qtbot.waitUntil(lambda: not dlg.running, timeout=30000)
    assert dlg.status.text() == "Cancelled."
    assert dlg.last_answer is None
    assert dlg.calc_button.isEnabled() and not dlg.cancel_button.isEnabled()
    dlg.close()


def _germans_in_baltic_states(state: GameState) -> GameState:
    for pid in ("germany.infantry.5", "germany.artillery.1", "germany.fighter.1"):
        state = state.with_piece(replace(state.pieces[pid], location="baltic_states"))
    return state


def test_set_battle_from_the_board(qtbot: QtBot, client: EngineClient) -> None:
    assert client.latest is not None
    session = client.latest.session
    session = replace(session, state=_germans_in_baltic_states(session.state))
    power, att, dfn = battle_forces(session.game, session.state, "baltic_states")
    assert power == "germany"
    assert att == c.Force.of(infantry=1, artillery=1, fighter=1)
    assert dfn == c.Force.of(infantry=3)
    dlg = dialog(qtbot, client)
    dlg.defend["destroyer"].setValue(2)  # typed before: replaced by the board's forces
    dlg.set_battle(session, "baltic_states")
    assert {u: s.value() for u, s in dlg.attack.items() if s.value()} == {
        "infantry": 1, "artillery": 1, "fighter": 1}
    assert {u: s.value() for u, s in dlg.defend.items() if s.value()} == {"infantry": 3}
    assert "Germany attacks" in dlg.heading.text()
    dlg.calculate()
    qtbot.waitUntil(lambda: not dlg.running, timeout=30000)
    assert dlg.last_answer is not None
    assert 0.0 < dlg.last_answer.default.attacker_win < 1.0
    shot(dlg, "battle_calculator_board.png")
    dlg.close()


def test_a_new_position_restarts_a_running_calculation(qtbot: QtBot,
                                                       client: EngineClient) -> None:
    dlg = dialog(qtbot, client)
    dlg.attack["infantry"].setValue(12)
    dlg.defend["infantry"].setValue(12)
    dlg.calculate()
    first = dlg._request
    assert client.latest is not None
    # What the engine does when the game moves on: a newer snapshot; the older result is
    # dropped by the client, so the dialog asks again on the new position.
    snap = client.latest
    client._on_snapshot(Snapshot(snap.generation + 1, snap.session, snap.prompt, ()))
    assert dlg._request is not None and dlg._request != first
    qtbot.waitUntil(lambda: not dlg.running, timeout=30000)
    assert dlg.last_answer is not None
    dlg.close()


# --- the objectives panel ------------------------------------------------------------------

def _session(objectives: bool) -> Session:
    return Session.start(load_game("aa_anniversary"), "1941",
                         FrozenMap({no.OPTION: objectives}), seed=1)


def test_objectives_panel_lists_powers_ipcs_and_objectives(qtbot: QtBot) -> None:
    s = _session(True)
    panel = ObjectivesPanel()
    qtbot.addWidget(panel)
    panel.resize(520, 640)
    panel.show()
    panel.show_state(s)
    ipcs = s.state.var("ipcs")
    assert set(panel.powers) == {side.id for side in s.game.definition.sides}
    for power, item in panel.powers.items():
        assert item.text(1) == str(ipcs[power])
    assert panel.powers["germany"].text(2) == "31"  # Germany's 1941 production level
    assert panel.powers["china"].childCount() == 0
    assert "<b>on</b>" in panel.option.text()
    rows = panel.objective_rows("germany")
    assert len(rows) == 3
    text, met, why = rows[0]  # Lebensraum heartland: met at the start
    assert met and text.startswith("✓ ") and why
    assert not rows[1][1] and rows[1][0].startswith("✗ ")
    assert panel.powers["germany"].text(3) == "+5"
    assert "Victory cities: Axis" in panel.victory.text()
    shot(panel, "objectives_panel.png")

    # France to the UK: the heartland objective is lost, and Germany's income drops.
    ctl = s.state.var("control").set("france", "uk")
    lost = replace(s, state=s.state.with_var("control", ctl))
    panel.show_state(lost)
    assert not panel.objective_rows("germany")[0][1]
    assert panel.objective_rows("germany")[0][0].startswith("✗ ")
    assert "France" in panel.objective_rows("germany")[0][2]
    assert int(panel.powers["germany"].text(2)) < 31
    assert panel.powers["germany"].text(3) == ""


def test_objectives_panel_option_off(qtbot: QtBot) -> None:
    panel = ObjectivesPanel()
    qtbot.addWidget(panel)
    panel.show_state(_session(False))
    assert "<b>off</b>" in panel.option.text()
    assert panel.powers["germany"].text(3) == ""  # no bonus paid with the option off
    assert panel.objective_rows("germany")[0][1]  # still shown as met


def test_main_window_offers_the_calculator_and_objectives_for_axis_and_allies(
        qtbot: QtBot) -> None:
    from wartable.ui.mainwindow import MainWindow
    from wartable.worker.commands import NewGame

    win = MainWindow(autosave=False, confirm_close=False)
    qtbot.addWidget(win)
    win.show()
    with qtbot.waitSignal(win.client.snapshotReady, timeout=20000):
        win.client.send(NewGame("aa_anniversary", "1941"))
    calc = [a for a in win.game_menu.actions() if a.objectName() == "actBattleCalc"]
    assert len(calc) == 1 and calc[0].isEnabled()
    assert shown_docks(win) >= {"Income and objectives"}
    assert win.game_ui is not None
    dlg = win.game_ui.battle_calculator()  # type: ignore[attr-defined]
    assert dlg is not None
    dlg.close()
    with qtbot.waitSignal(win.client.snapshotReady, timeout=20000):
        win.client.send(NewGame("skirmish", "meeting"))
    # Another game: A&A's calculator and docks are gone with its plug-in (issue 14).
    assert all(a.objectName() != "actBattleCalc" for a in win.game_menu.actions())
    assert "Income and objectives" not in shown_docks(win)
    win.close()


def shown_docks(win: object) -> set[str]:
    from PySide6.QtWidgets import QDockWidget, QMainWindow

    assert isinstance(win, QMainWindow)
    return {d.windowTitle() for d in win.findChildren(QDockWidget) if d.isVisible()}
