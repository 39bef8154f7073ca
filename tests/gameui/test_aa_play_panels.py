"""The A&A play panels in the main window: purchase, battle board, turn summary.

Each test drives the real window and engine (physical dice, so the rolls are the test's):
the panels must submit the same actions the side panel would, and the engine's state
afterwards is checked against the rulebook's numbers.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from uihelpers import open_game, open_window
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import DICE, END_STEP, FREE_MOVE, Action, Button, Event
from wartable.engine.session import Session
from wartable.games.aa_anniversary.steps import objectives as no
from wartable.games.aa_anniversary.steps.common import MOBILIZATION, ipcs
from wartable.gameui.aa_anniversary.battleboard import DAMAGED, LOST, BattleBoard
from wartable.gameui.aa_anniversary.battlerecord import DiceGroup, Roll, checked, event_dice
from wartable.gameui.aa_anniversary.purchase import PurchasePanel
from wartable.gameui.aa_anniversary.turnsummary import summarize, summary_html
from wartable.persistence.gamedata import load_game
from wartable.persistence.savefile import save_to_path
from wartable.ui.mainwindow import MainWindow
from wartable.worker.commands import Load

SHOTS = Path(os.environ.get("WARTABLE_SHOTS", "/tmp/wartable-shots"))
ATTACKERS = ("germany.infantry.16", "germany.infantry.17", "germany.artillery.4",
             "germany.armour.7")


def shot(widget: object, name: str) -> Path:
    for _ in range(3):  # widgets added to a shown layout appear on the next passes
        QApplication.processEvents()
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / name
    assert widget.grab().save(str(path))  # type: ignore[attr-defined]
    return path


def _to_combat(buys: tuple[str, ...] = (), dice_mode: str = "physical",
               objectives: bool = False) -> Session:
    """1941, Germany: buys, then 2 infantry, 1 artillery, 1 tank from Poland attack the two
    Soviet infantry in East Poland (setup chart, 1941); Conduct Combat is next."""
    s = Session.start(load_game("aa_anniversary"), "1941", FrozenMap({no.OPTION: objectives}),
                      seed=1, dice_mode=dice_mode)
    for u in buys:
        s = s.submit(Action.make("buy", "germany", unit=u))
    s = s.submit(Action(END_STEP, "germany"))
    for pid in ATTACKERS:
        s = s.submit(Action.make("move", "germany", piece=pid, to="east_poland"))
    return s.submit(Action(END_STEP, "germany"))


def _load(qtbot: QtBot, session: Session, tmp_path: Path) -> MainWindow:
    path = tmp_path / "battle.wartable.json"
    save_to_path(session, path, "2026-01-01T00:00:00+00:00")
    w = open_window(qtbot)
    with qtbot.waitSignal(w.client.snapshotReady, timeout=20000,
                          check_params_cb=lambda s: s.fresh):
        w.client.send(Load(path))
    return w


def _click(qtbot: QtBot, w: MainWindow, button: object) -> None:
    with qtbot.waitSignal(w.client.snapshotReady, timeout=20000):
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)  # type: ignore[arg-type]


def _roll(qtbot: QtBot, w: MainWindow, values: tuple[int, ...]) -> None:
    """Type a physical roll in the side panel (the dice frame, Conduct Combat)."""
    assert len(w.side.dice_spins) == len(values)
    for spin, v in zip(w.side.dice_spins, values, strict=True):
        spin.setValue(v)
    _click(qtbot, w, w.side.dice_submit)


def _state(w: MainWindow):  # type: ignore[no-untyped-def]
    assert w.snapshot is not None
    return w.snapshot.session.state


# --- purchase ------------------------------------------------------------------------------

def test_phase2_purchase_panel_buys_what_the_treasury_pays(qtbot: QtBot) -> None:
    w = open_game(qtbot, "aa_anniversary", "1941")
    panel = w.game_ui.purchase
    assert not w.game_ui.purchase_dock.isHidden()
    assert panel.treasury == 31  # Germany's 1941 starting IPCs (Setup, 1941 scenario)
    spins = panel.spins
    assert spins["infantry"].maximum() == 10  # 31 // 3
    spins["infantry"].setValue(3)  # 9 IPCs
    spins["armour"].setValue(2)  # tanks 5 IPCs each (Unit Profiles): 19 spent, 12 left
    assert "19 IPCs — 12 IPCs left" in panel.total.text()
    assert spins["fighter"].maximum() == 1 and spins["bomber"].maximum() == 1
    spins["fighter"].setValue(1)  # fighter 10 IPCs: 29 spent, 2 left
    # Nothing more fits: every other row is at its maximum, the bomber cannot be entered.
    assert spins["bomber"].maximum() == 0 and not spins["bomber"].isEnabled()
    spins["infantry"].setValue(9)
    assert spins["infantry"].value() == 3  # an illegal total cannot be typed
    assert "2 IPCs left: not enough" in panel.reason.text()
    assert panel.confirm_button.isEnabled()
    shot(w, "aa_purchase_panel_window.png")
    shot(w.game_ui.purchase_dock, "aa_purchase_panel.png")
    panel.confirm()
    qtbot.waitUntil(lambda: ipcs(_state(w), "germany") == 2, timeout=20000)
    st = _state(w)
    bought: dict[str, int] = {}
    for p in st.pieces.values():
        if p.location == MOBILIZATION and p.side == "germany":
            bought[p.type] = bought.get(p.type, 0) + 1
    assert bought == {"infantry": 3, "armour": 2, "fighter": 1}
    assert "3 Infantry" in panel.bought.text() and panel.order() == {}
    w.close()


def test_phase2_purchase_panel_hides_after_the_purchase_step(qtbot: QtBot) -> None:
    w = open_game(qtbot, "aa_anniversary", "1941")
    assert not w.game_ui.purchase_dock.isHidden()
    _click(qtbot, w, w.side.button_for(END_STEP))
    assert w.snapshot is not None and w.snapshot.prompt.step == "Combat Move"
    assert w.game_ui.purchase_dock.isHidden()
    w.close()


# --- battle board --------------------------------------------------------------------------

def _fight_one_hit(qtbot: QtBot, tmp_path: Path) -> MainWindow:
    """The attack on East Poland; the round: Germany misses with all four dice (in the
    engine's order: infantry at 1, supported infantry and artillery at 2, tank at 3), the
    two Soviet infantry defend at 2 and roll 1 and 6: one hit on Germany (General Combat)."""
    w = _load(qtbot, _to_combat(), tmp_path)
    _click(qtbot, w, w.side.button_for("fight"))
    board = w.game_ui.battle.board
    assert w.game_ui.battle.isVisible()
    assert board.battle_space == "east_poland"
    assert "Type the dice" in board.prompt_text.text()
    _roll(qtbot, w, (6, 6, 6, 6, 1, 6))
    return w


def test_general_combat_board_columns_and_dice(qtbot: QtBot, tmp_path: Path) -> None:
    w = _fight_one_hit(qtbot, tmp_path)
    board = w.game_ui.battle.board
    att = {t.piece.id: t for t in board.tiles if t.piece.side == "germany"}
    assert set(att) == set(ATTACKERS)
    # Columns as on the printed board: the tank at 3, artillery and the infantry it
    # supports at 2, the other infantry at 1 (Unit Profiles, pg. 24).
    col = {pid: board.att_grid.getItemPosition(board.att_grid.indexOf(t))[1] + 1
           for pid, t in att.items()}
    assert col["germany.armour.7"] == 3 and col["germany.artillery.4"] == 2
    assert sorted([col["germany.infantry.16"], col["germany.infantry.17"]]) == [1, 2]
    groups = board._record[-1].groups
    assert [(g.side, g.value, g.dice) for g in groups] == [
        ("attacker", 1, (6,)), ("attacker", 2, (6, 6)), ("attacker", 3, (6,)),
        ("defender", 2, (1, 6))]
    assert [g.hits for g in groups] == [0, 0, 0, 1]
    assert "Defender:" in board.dice.text() and "1 hit" in board.dice.text()
    shot(w.game_ui.battle, "aa_battle_board_casualties.png")
    # The window with the board over the map, as a player sees it.
    for _ in range(3):
        QApplication.processEvents()
    whole = w.grab()
    painter = QPainter(whole)
    painter.drawPixmap(w.width() - 830 - 340, 60, w.game_ui.battle.grab())
    painter.end()
    assert whole.save(str(SHOTS / "aa_window_mid_battle.png"))
    w.close()


def test_general_combat_step3_owner_picks_a_non_default_casualty(qtbot: QtBot,
                                                                 tmp_path: Path) -> None:
    w = _fight_one_hit(qtbot, tmp_path)
    board = w.game_ui.battle.board
    assert board.frame is not None and board.frame.kind == "casualties"
    tiles = {t.piece.id: t for t in board.tiles}
    # The default (cheapest first) is an infantry, pre-selected.
    marked = [pid for pid, t in tiles.items() if t.mark == LOST]
    assert len(marked) == 1 and marked[0].startswith("germany.infantry.")
    assert board.confirm_button.isEnabled()
    # Two casualties for one hit: refused with the engine's reason (Step 3).
    qtbot.mouseClick(tiles["germany.artillery.4"], Qt.MouseButton.LeftButton)
    assert not board.confirm_button.isEnabled()
    assert "Assign exactly 1 hit" in board.reason.text()
    qtbot.mouseClick(tiles[marked[0]], Qt.MouseButton.LeftButton)  # keep the infantry
    assert board.confirm_button.isEnabled() and board.reason.text() == ""
    assert "1 Artillery" in board.selection.text()
    # Soviet units cannot be clicked: it is Germany's choice.
    assert not any(t.isEnabled() for t in board.tiles if t.piece.side == "ussr")
    _click(qtbot, w, board.confirm_button)
    st = _state(w)
    assert "germany.artillery.4" not in st.pieces
    for pid in ("germany.infantry.16", "germany.infantry.17", "germany.armour.7"):
        assert st.pieces[pid].location == "east_poland"
    assert sum(1 for p in st.pieces_at("east_poland") if p.side == "ussr") == 2
    # The Default button restores the engine's choice on the next frame's board too.
    assert board.frame is not None and board.frame.kind == "press"
    w.close()


def test_general_combat_step6_retreat_to_where_the_attack_came_from(qtbot: QtBot,
                                                                      tmp_path: Path) -> None:
    w = _fight_one_hit(qtbot, tmp_path)
    board = w.game_ui.battle.board
    _click(qtbot, w, board.confirm_button)  # the default casualty: one infantry
    labels = [b.text() for b in board.choice_buttons]
    # Step 6: the attackers came from Poland, a friendly territory next to East Poland.
    assert labels == ["Press the attack", "Retreat to Poland"]
    shot(w.game_ui.battle, "aa_battle_board_retreat.png")
    retreat = next(b for b in board.choice_buttons if b.text() == "Retreat to Poland")
    _click(qtbot, w, retreat)
    st = _state(w)
    survivors = [pid for pid in ATTACKERS if pid in st.pieces]
    assert len(survivors) == 3
    assert all(st.pieces[pid].location == "poland" for pid in survivors)
    assert st.var("battle") is None and "east_poland" in st.var("resolved")
    assert board.battle_space == "" and "retreats" in board.heading.text()
    # Closed, it comes back from the View menu with the last battle's record.
    w.game_ui.battle.hide()
    w.game_ui.act_battle.trigger()
    assert w.game_ui.battle.isVisible() and "retreats" in board.heading.text()
    assert [r.title for r in board._record] == ["Round 1"]
    w.close()


def test_general_combat_step6_press_rolls_the_next_round(qtbot: QtBot, tmp_path: Path) -> None:
    w = _fight_one_hit(qtbot, tmp_path)
    board = w.game_ui.battle.board
    _click(qtbot, w, board.confirm_button)
    press = next(b for b in board.choice_buttons if b.text() == "Press the attack")
    _click(qtbot, w, press)
    # Round 2: 3 attacker dice (two infantry, one tank) and 2 defender dice.
    assert w.snapshot is not None and w.snapshot.prompt.dice is not None
    assert w.snapshot.prompt.dice.count == 5
    _roll(qtbot, w, (1, 1, 1, 6, 6))  # three attacker hits on two infantry
    # Step 5: now the Soviet Union chooses (both infantry: the only choice).
    assert board.frame is not None and board.frame.data["role"] == "defender"
    assert all(t.mark == LOST for t in board.tiles if t.piece.side == "ussr")
    assert not any(t.isEnabled() for t in board.tiles if t.piece.side == "germany")
    _click(qtbot, w, board.confirm_button)
    st = _state(w)
    assert st.var("battle") is None
    assert st.var("control")["east_poland"] == "germany"  # Step 7: captured
    assert [r.title for r in board._record] == ["Round 1", "Round 2"]
    assert "won" in board.heading.text()
    w.close()


def _dice_event(text: str, dice: tuple[int, ...]) -> Event:
    return Event("dice", text, data=FrozenMap(dice=dice, resume="round"))


def test_event_dice_reads_the_engines_dice_events() -> None:
    assert event_dice(_dice_event("Combat round in X: rolled 4+1+6 = 11", (4, 1, 6))) == (4, 1, 6)
    assert event_dice(_dice_event("AA fire in X: rolled 3", (3,))) == (3,)
    assert event_dice(_dice_event("Combat round in X: rolled 1+2 = 3 (physical dice)",
                                  (1, 2))) == (1, 2)


def test_board_without_a_battle(qtbot: QtBot) -> None:
    board = BattleBoard()
    qtbot.addWidget(board)
    s = Session.start(load_game("aa_anniversary"), "1941", seed=1)
    board.show_session(s, s.prompt())
    assert board.battle_space == "" and board.tiles == []
    assert "No battle" in board.heading.text()


# --- turn summary --------------------------------------------------------------------------

def _germany_turn(objectives: bool = False) -> Session:
    """Germany buys two infantry, takes East Poland (typed dice), and ends its turn."""
    s = _to_combat(("infantry", "infantry"), objectives=objectives)
    s = s.submit(Action.make("fight", "germany", space="east_poland"))
    s = s.submit(Action.make(DICE, "germany", values=(1, 1, 1, 1, 6, 6)))
    p = s.prompt()
    s = s.submit(Action(p.buttons[0].id, p.side, p.buttons[0].args))  # the USSR's casualties
    while s.state.active_side == "germany":
        p = s.prompt()  # Mobilize places every bought unit it can (Phase 6, pg. 21)
        new = sorted(pid for pid in p.moves if s.state.piece(pid).location == MOBILIZATION)
        if new:
            s = s.submit(Action.make("move", "germany", piece=new[0], to=p.moves[new[0]][0]))
        else:
            s = s.submit(Action(END_STEP, "germany"))
    return s


def test_order_of_play_turn_summary_from_the_log() -> None:
    s = _germany_turn()
    turns = summarize(s)
    assert [(t.power, t.turn, t.complete) for t in turns] == [("germany", 1, True),
                                                              ("ussr", 1, False)]
    g = turns[0]
    assert g.bought == {"Infantry": 2} and g.spent == 6  # infantry cost 3 (Unit Profiles)
    assert len(g.battles) == 1
    b = g.battles[0]
    assert b.space == "East Poland" and b.result == "Battle in East Poland won"
    assert (b.attacker_lost, b.defender_lost) == (0, 2)
    assert g.captured == ["East Poland (from Soviet Union)"]
    # Production: 31 (Germany, 1941) + East Poland's 1 IPC.
    assert (g.production_before, g.production_after) == (31, 32)
    assert g.income == 32 and g.treasury == 31 - 6 + 32
    # National objectives are off by default: no bonus in the income.
    assert g.extra_income == 0
    assert turns[1].lost == ["East Poland (to Germany)"]


def test_national_objectives_bonus_in_the_turn_summary() -> None:
    """Lebensraum (National Objectives, pg. 22): "Gain 5 IPCs if Axis powers control all
    of: France, Northwestern Europe, Germany, Czechoslovakia/Hungary, Bulgaria/Romania, and
    Poland" (all Axis in 1941); East Poland alone is not three of the eastern five."""
    g = summarize(_germany_turn(objectives=True))[0]
    assert g.income == 32 and g.extra_income == 5
    assert g.treasury == 31 - 6 + 32 + 5
    assert "5 more from national objectives" in summary_html(g)


def test_order_of_play_summary_comes_up_when_a_power_ends_its_turn(qtbot: QtBot,
                                                                   tmp_path: Path) -> None:
    # Germany's turn of the test above, stopped at Mobilize (Collect Income runs itself).
    s = _to_combat(("infantry", "infantry"))
    s = s.submit(Action.make("fight", "germany", space="east_poland"))
    s = s.submit(Action.make(DICE, "germany", values=(1, 1, 1, 1, 6, 6)))
    p = s.prompt()
    s = s.submit(Action(p.buttons[0].id, p.side, p.buttons[0].args))
    s = s.submit(Action(END_STEP, "germany"))  # Conduct Combat done
    s = s.submit(Action(END_STEP, "germany"))  # Noncombat Move done
    assert s.prompt().step == "Mobilize New Units"
    for pid in sorted(s.prompt().moves):  # every bought unit placed (Phase 6, pg. 21)
        s = s.submit(Action.make("move", "germany", piece=pid, to="germany"))
    w = _load(qtbot, s, tmp_path)
    dock = w.game_ui.summary_dock
    assert dock.isHidden()
    _click(qtbot, w, w.side.button_for(END_STEP))
    assert _state(w).active_side == "ussr"
    assert not dock.isHidden()
    panel = w.game_ui.summary
    cur = panel.current()
    assert cur is not None and (cur.power, cur.turn, cur.complete) == ("germany", 1, True)
    text = panel.text.text()
    assert "2 Infantry" in text and "East Poland (from Soviet Union)" in text
    assert "31 → 32" in text
    assert not w.game_ui.purchase_dock.isHidden()  # the Soviet purchase, the tab beside it
    shot(w, "aa_window_turn_summary.png")
    dock.setFloating(True)  # a screenshot of the panel at a readable size
    dock.resize(560, 380)
    shot(dock, "aa_turn_summary.png")
    # The View menu shows it on demand too, with every turn in the chooser.
    dock.hide()
    w.game_ui.act_summary.trigger()
    assert not dock.isHidden() and panel.chooser.count() == 2
    w.close()


# --- a sea battle: the defender's battleship (Two Hits to Destroy) ----------------------------

def _sea_battle(qtbot: QtBot, tmp_path: Path) -> MainWindow:
    """The German cruiser of Sea Zone 5 attacks Sea Zone 6, where the British battleship
    (moved there from Sea Zone 2 for the test) joins the destroyer of the 1941 setup. The
    cruiser (attack 3) rolls 1: a hit; destroyer (defense 2) and battleship (4) roll 6s."""
    s = Session.start(load_game("aa_anniversary"), "1941", seed=1, dice_mode="physical")
    # A logged house-rule move (the save replays its log, so the setup is an action too).
    s = s.submit(Action.make(FREE_MOVE, "germany", piece="uk.battleship.1", to="sz06"))
    s = s.submit(Action(END_STEP, "germany"))
    s = s.submit(Action.make("move", "germany", piece="germany.cruiser.1", to="sz06"))
    s = s.submit(Action(END_STEP, "germany"))
    w = _load(qtbot, s, tmp_path)
    _click(qtbot, w, w.side.button_for("fight"))
    _roll(qtbot, w, (1, 6, 6))
    return w


def test_battleships_two_hits_owner_sinks_the_destroyer_instead(qtbot: QtBot,
                                                                tmp_path: Path) -> None:
    w = _sea_battle(qtbot, tmp_path)
    board = w.game_ui.battle.board
    assert board.frame is not None and board.frame.side == "uk"
    tiles = {t.piece.id: t for t in board.tiles}
    bb, dd = tiles["uk.battleship.1"], tiles["uk.destroyer.1"]
    # The default: the battleship takes the hit and stays (Battleships, pg. 28).
    assert bb.mark == DAMAGED and dd.mark == ""
    assert board.confirm_button.isEnabled()
    shot(w.game_ui.battle, "aa_battle_board_sea.png")
    qtbot.mouseClick(bb, Qt.MouseButton.LeftButton)  # sunk outright: two hits, not one
    assert bb.mark == LOST and not board.confirm_button.isEnabled()
    qtbot.mouseClick(bb, Qt.MouseButton.LeftButton)  # unmarked: no hit assigned
    assert bb.mark == "" and not board.confirm_button.isEnabled()
    qtbot.mouseClick(dd, Qt.MouseButton.LeftButton)
    assert board.confirm_button.isEnabled()
    _click(qtbot, w, board.confirm_button)
    st = _state(w)
    assert "uk.destroyer.1" not in st.pieces
    assert not st.pieces["uk.battleship.1"].attrs.get("damaged")


def test_battleships_two_hits_default_button_restores_the_damage(qtbot: QtBot,
                                                                 tmp_path: Path) -> None:
    w = _sea_battle(qtbot, tmp_path)
    board = w.game_ui.battle.board
    tiles = {t.piece.id: t for t in board.tiles}
    qtbot.mouseClick(tiles["uk.destroyer.1"], Qt.MouseButton.LeftButton)
    assert not board.confirm_button.isEnabled()  # two hits chosen for one
    qtbot.mouseClick(board.default_button, Qt.MouseButton.LeftButton)
    assert tiles["uk.battleship.1"].mark == DAMAGED and tiles["uk.destroyer.1"].mark == ""
    _click(qtbot, w, board.confirm_button)
    st = _state(w)
    assert st.pieces["uk.battleship.1"].attrs.get("damaged") is True
    assert "uk.destroyer.1" in st.pieces
    assert "Battleship (damaged)" in [t.name for t in board.tiles]


# --- Step 2: submarines strike or submerge -----------------------------------------------------

def test_general_combat_step2_submerge_choice_on_the_board(qtbot: QtBot, tmp_path: Path) -> None:
    """The two German submarines of Sea Zone 7 (1941 setup) attack the British battleship
    (moved there for the test). No British destroyer: the subs may strike or submerge
    (Submarines, Surprise Strike and Submersible, pg. 30), Germany chooses first."""
    s = Session.start(load_game("aa_anniversary"), "1941", seed=1, dice_mode="physical")
    s = s.submit(Action.make(FREE_MOVE, "germany", piece="uk.battleship.1", to="sz07"))
    s = s.submit(Action(END_STEP, "germany"))
    s = s.submit(Action(END_STEP, "germany"))
    w = _load(qtbot, s, tmp_path)
    _click(qtbot, w, w.side.button_for("fight"))
    board = w.game_ui.battle.board
    assert board.frame is not None and board.frame.kind == "submerge"
    assert w.snapshot is not None
    assert [b.text() for b in board.choice_buttons] == [b.label for b in w.snapshot.prompt.buttons]
    one = next(b for b in board.choice_buttons if b.text().startswith("Submerge 1 "))
    _click(qtbot, w, one)
    st = _state(w)
    assert sum(1 for p in st.pieces_at("sz07") if p.attrs.get("submerged")) == 1
    # The other submarine strikes: one die (General Combat, Step 2).
    assert w.snapshot.prompt.dice is not None and w.snapshot.prompt.dice.count == 1
    _roll(qtbot, w, (2,))  # a submarine attacks at 2: a hit
    assert board._record[-1].title == "Round 1: Submarine Surprise Strike"
    assert [(g.side, g.value, g.dice, g.hits) for g in board._record[-1].groups] == [
        ("attacker", 2, (2,), 1)]
    shot(w.game_ui.battle, "aa_battle_board_strike.png")
    w.close()


def test_board_with_big_stacks_keeps_every_unit_reachable(qtbot: QtBot) -> None:
    """Twelve German land units against the Soviet units of five territories (moved into
    Ukraine for the test): every tile is in the board, the stacks scroll."""
    s = Session.start(load_game("aa_anniversary"), "1941", seed=1, dice_mode="physical")
    for src in ("russia", "caucasus", "belorussia", "west_russia", "eastern_ukraine"):
        for p in sorted(s.state.pieces_at(src), key=lambda q: q.id):
            if p.side == "ussr" and p.type in ("infantry", "artillery", "armour"):
                s = s.submit(Action.make(FREE_MOVE, "germany", piece=p.id, to="ukraine"))
    s = s.submit(Action(END_STEP, "germany"))
    moves = s.prompt().moves
    for pid in sorted(moves):
        if "ukraine" in moves[pid] and s.state.pieces[pid].type in ("infantry", "artillery",
                                                                     "armour"):
            s = s.submit(Action.make("move", "germany", piece=pid, to="ukraine"))
    s = s.submit(Action(END_STEP, "germany"))
    s = s.submit(Action.make("fight", "germany", space="ukraine"))
    board = BattleBoard()
    qtbot.addWidget(board)
    board.resize(820, 620)
    board.show()
    board.show_session(s, s.prompt())
    here = [p for p in s.state.pieces_at("ukraine") if p.type != "factory"]
    assert len(board.tiles) == len(here) >= 20
    shot(board, "aa_battle_board_big.png")


def test_dice_matched_to_the_wrong_forces_are_shown_unmarked() -> None:
    """A roll whose marked hits disagree with the engine's own count (the board read the
    forces after the roll, e.g. a game loaded mid-battle) is shown without hit marks."""
    good = Roll("Round 1", (DiceGroup("attacker", 2, (1, 6), 1), DiceGroup("defender", 2, (6,), 0)))
    assert checked(good, 1, 0).groups == good.groups
    bad = checked(good, 0, 1)
    assert [(g.side, g.dice) for g in bad.groups] == [("unmatched", (1, 6, 6))]


def test_phase2_step2_repair_rows_only_when_the_engine_offers_repairs(qtbot: QtBot) -> None:
    """Pay for Units & Repairs (pg. 12): "Each damage marker costs 1 IPC to remove". The
    panel shows the engine's repair actions only when a complex of the power is damaged."""
    s = Session.start(load_game("aa_anniversary"), "1941", seed=1)
    panel = PurchasePanel()
    qtbot.addWidget(panel)
    panel.show()
    panel.show_session(s, s.prompt())
    assert panel.other_box.isHidden() and panel.other_buttons == []
    factory = next(p for p in s.state.pieces_at("germany") if p.type == "factory")
    s = replace(s, state=s.state.with_piece(factory.with_attr("damage", 3)))
    panel.show_session(s, s.prompt())
    assert not panel.other_box.isHidden()
    labels = [b.text() for b in panel.other_buttons]
    assert any("Repair 3" in t for t in labels), labels
    chosen: list[list[Button]] = []
    panel.buttonsChosen.connect(chosen.append)
    three = next(b for b in panel.other_buttons if "Repair 3" in b.text())
    qtbot.mouseClick(three, Qt.MouseButton.LeftButton)
    assert len(chosen) == 1 and chosen[0][0].id == "repair"
    spec = chosen[0][0]
    after = s.submit(Action(spec.id, "germany", spec.args))  # what the window submits
    assert ipcs(after.state, "germany") == 31 - 3
    assert not after.state.pieces[factory.id].attrs.get("damage")


def test_general_combat_computer_dice_are_marked_as_the_engine_counted_them(
        qtbot: QtBot, tmp_path: Path) -> None:
    """Computer dice: the round is rolled with the "fight" click; the board marks each
    side's dice by column and its hits agree with the engine's log of the round."""
    w = _load(qtbot, _to_combat(dice_mode="digital"), tmp_path)
    _click(qtbot, w, w.side.button_for("fight"))
    board = w.game_ui.battle.board
    assert w.snapshot is not None
    summary = next(e.text for e in reversed(w.snapshot.session.events)
                   if e.text.startswith("Round in East Poland"))
    roll = board._record[0]
    assert roll.title == "Round 1"
    assert [(g.side, g.value, len(g.dice)) for g in roll.groups] == [
        ("attacker", 1, 1), ("attacker", 2, 2), ("attacker", 3, 1), ("defender", 2, 2)]
    att = sum(g.hits for g in roll.groups if g.side == "attacker")
    dfn = sum(g.hits for g in roll.groups if g.side == "defender")
    assert f"attacker scores {att} (" in summary and f"defender {dfn} (" in summary
    for g in roll.groups:  # the log lists each group's dice and hits as the board marks them
        hits = f"{g.hits} hit" + ("" if g.hits == 1 else "s")
        assert f"at {g.value}: {', '.join(map(str, g.dice))} = {hits}" in summary
    w.close()
