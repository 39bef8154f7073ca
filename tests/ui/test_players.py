"""Player setup at the table (issues 5 and 7): 1940: What If?'s two-, three- and four-player
splits [1.3], seat names and colours, the curtain asking for the right seat, and the owner
choosing the top unit of a stack [7.3] from the stack inspector.

In the four-player game the German side has two players: the west map commander and the
east map commander [1.3]; passing from the German west steps to the east steps asks for the
other German player. With two players the Allied player holds the Soviet and Anglo-French
commands and is never asked to pass the screen to himself.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from pytestqt.qtbot import QtBot

from uihelpers import act, open_window, select_game, set_up, sit
from wartable.core.errors import IllegalAction
from wartable.engine.actions import Action
from wartable.engine.session import Session
from wartable.games.whatif1940 import fog, units
from wartable.model.values import freeze
from wartable.persistence.savefile import save_to_path
from wartable.ui.mainwindow import MainWindow
from wartable.worker.commands import Load

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "whatif1940"))
from w40_helpers import game  # noqa: E402

SHOTS = Path(os.environ.get("WARTABLE_SHOTS", "/tmp/wartable-shots"))
WEST_RED = "#d0452f"  # chosen colours, not the defaults
EAST_GREEN = "#2e9e4f"
EAST = "whatif1940/east"


@pytest.fixture
def win(qtbot: QtBot) -> Iterator[MainWindow]:
    w = open_window(qtbot)
    yield w
    w.close()


def curtain_shown(win: MainWindow) -> list[str]:
    """Records the player asked each time the curtain is raised in front of the map."""
    asked: list[str] = []
    win.stack.currentChanged.connect(
        lambda _i: asked.append(win.curtain.player)
        if win.stack.currentWidget() is win.curtain else None)
    return asked


def play_to(step: str, turn: int, table: dict[str, Any]) -> Session:
    """A standard game played by the engine up to `step` of `turn`: every set-up made
    automatically, each other step ended at once (or its first offered choice made)."""
    g = game()
    sess = Session.start(g, "standard", freeze(table), seed=1)
    done: set[str] = set()
    for _ in range(400):
        pos, p = g.position(sess.state), sess.prompt()
        if sess.state.turn == turn and pos.step.id == step and not sess.state.frames:
            return sess
        if pos.step.kind == "setup" and pos.step.id not in done:
            sess = sess.submit(Action("auto_setup", p.side))
            done.add(pos.step.id)
            continue
        tries = [Action("end_step", p.side)] + [Action(b.id, p.side, b.args)
                                                for b in p.buttons if b.enabled]
        for a in tries:
            try:
                sess = sess.submit(a)
                break
            except IllegalAction:
                continue
        else:
            raise AssertionError(f"stuck at {pos.step.id}: {p.text}")
    raise AssertionError(f"never reached {step} of turn {turn}")


def load(win: MainWindow, qtbot: QtBot, tmp_path: Path, step: str,
         table: dict[str, Any]) -> None:
    """Open a saved standard game at `step` of turn 2, seated per `table` (the options
    the start screen writes)."""
    path = tmp_path / "players.wartable.json"
    save_to_path(play_to(step, 2, table), path, "2026-01-01T00:00:00+00:00")
    with qtbot.waitSignal(win.client.snapshotReady, timeout=30000,
                          check_params_cb=lambda s: s.fresh):
        win.client.send(Load(path))


def split_table(n: int, names: list[str]) -> dict[str, Any]:
    """The table options of a split as the start screen writes them."""
    seats = {2: [["german_west", "german_east"], ["soviet", "anglo_french"]],
             3: [["german_west", "german_east"], ["soviet"], ["anglo_french"]],
             4: [["german_west"], ["german_east"], ["soviet"], ["anglo_french"]]}[n]
    commands = {c: names[i] for i, seat in enumerate(seats) for c in seat}
    return {"table.split": n, "table.commands": commands,
            "table.seats": {"german": commands["german_east"], "soviet": commands["soviet"],
                            "anglo_french": commands["anglo_french"]}}


# --- the start screen ------------------------------------------------------------------------

def test_1_3_the_start_screen_offers_two_three_and_four_players(win: MainWindow) -> None:
    s = win.start
    select_game(s, "whatif1940")
    combo = s.split_editor.combo
    assert s.split_editor.isVisible()
    assert [combo.itemData(i) for i in range(combo.count())] == [2, 3, 4, 0]
    s.split_editor.set_split(4)
    labels = [s.split_editor.form.itemAt(r, s.split_editor.form.ItemRole.LabelRole)
              .widget().text() for r in range(1, s.split_editor.form.rowCount())]
    assert labels == ["German west commander", "German east commander", "Soviet",
                      "Anglo-French"]
    s.split_editor.set_split(2)
    assert len(s.split_editor.seat_edits) == 2
    assert s.split_editor.form.itemAt(1, s.split_editor.form.ItemRole.LabelRole) \
        .widget().text() == "German west commander + German east commander"
    # A&A offers its splits by name (Setup: Germany also plays Italy with fewer than six
    # players; the U.S. player plays China); two players type two names, not seven
    # (issue 16). "One name per power" is still the last entry.
    select_game(s, "aa_anniversary")
    assert s.split_editor.isVisible()
    assert [combo.itemData(i) for i in range(combo.count())] == [2, 3, 4, 5, 6, 0]
    s.split_editor.set_split(2)
    assert len(s.split_editor.seat_edits) == 2
    assert s.split_editor.form.itemAt(1, s.split_editor.form.ItemRole.LabelRole) \
        .widget().text() == "Germany + Italy + Japan"


def test_1_3_a_four_player_split_goes_into_the_table_options(
        win: MainWindow, qtbot: QtBot) -> None:
    s = win.start
    select_game(s, "whatif1940")
    s.split_editor.set_split(4)
    for e, name in zip(s.split_editor.seat_edits, ["Wes", "Eva", "Sasha", "Anna"], strict=True):
        e.setText(name)
    s.split_editor.seat_colours[0].set_colour(WEST_RED)
    opts = s.table_options()
    assert opts["table.split"] == 4
    assert opts["table.commands"] == {"german_west": "Wes", "german_east": "Eva",
                                      "soviet": "Sasha", "anglo_french": "Anna"}
    # The side's own seat is its senior command's: the German east commander [1.3].
    assert opts["table.seats"] == {"german": "Eva", "soviet": "Sasha", "anglo_french": "Anna"}
    assert opts["table.colours"]["Wes"] == WEST_RED  # type: ignore[index]
    SHOTS.mkdir(parents=True, exist_ok=True)
    qtbot.wait(100)  # new rows are shown by the event loop
    win.grab().save(str(SHOTS / "players_start_w40_4p.png"))
    select_game(s, "aa_anniversary")
    s.player_edits["germany"].setText("Axel")
    s.colour_buttons["germany"].set_colour(EAST_GREEN)
    opts = s.table_options()
    assert opts["table.seats"]["germany"] == "Axel"  # type: ignore[index]
    assert opts["table.colours"]["Axel"] == EAST_GREEN  # type: ignore[index]
    assert "table.commands" not in opts
    qtbot.wait(100)
    win.grab().save(str(SHOTS / "players_start_aa.png"))


# --- the curtain asks for the right seat ------------------------------------------------------

def test_1_3_four_players_the_german_east_player_sets_up_after_the_west(
        win: MainWindow, qtbot: QtBot) -> None:
    """[3.1-3.3] Soviet set-up, then the German west set-up (with the Dutch and Belgians),
    then the German east set-up: with four players, Wes then Eva."""
    s = win.start
    select_game(s, "whatif1940")
    s.scenario.setCurrentIndex(s.scenario.findData("standard"))
    s.split_editor.set_split(4)
    for e, name in zip(s.split_editor.seat_edits, ["Wes", "Eva", "Sasha", "Anna"], strict=True):
        e.setText(name)
    s.split_editor.seat_colours[0].set_colour(WEST_RED)
    s.split_editor.seat_colours[1].set_colour(EAST_GREEN)
    with qtbot.waitSignal(win.client.snapshotReady, timeout=30000):
        qtbot.mouseClick(s.start, Qt.MouseButton.LeftButton)
    sit(win, qtbot, "Sasha")
    set_up(win, qtbot, "soviet")
    assert win.curtain.player == "Wes"
    assert "German west commander" in win.curtain.detail.text()
    assert QColor(WEST_RED).name() in win.curtain.title.styleSheet()
    sit(win, qtbot, "Wes")
    assert win.side.seat_label.text() == "Player: Wes"
    assert WEST_RED in win.side.seat_label.styleSheet()
    set_up(win, qtbot, "german")
    # The German east set-up belongs to the other German player: the curtain falls again.
    assert win.stack.currentWidget() is win.curtain
    assert win.curtain.player == "Eva"
    assert win.curtain.detail.text().startswith("Eva plays German east commander.")
    assert EAST_GREEN in win.curtain.title.styleSheet()
    SHOTS.mkdir(parents=True, exist_ok=True)
    win.grab().save(str(SHOTS / "players_curtain_w40_4p.png"))
    sit(win, qtbot, "Eva")
    assert win.side.seat_label.text() == "Player: Eva"


def test_1_3_four_players_west_combat_to_east_movement_asks_the_east_german(
        win: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    """Turn 2: I.C (west map) ends; I.D (east map, move/fight) asks for the east commander."""
    load(win, qtbot, tmp_path, "german_west_combat",
         split_table(4, ["Wes", "Eva", "Sasha", "Anna"]))
    sit(win, qtbot, "Wes")
    act(win, qtbot, Action("end_step", "german"))
    assert win.snapshot is not None
    assert game().position(win.snapshot.session.state).step.id == "german_east_move_d"
    assert win.stack.currentWidget() is win.curtain and win.curtain.player == "Eva"


def test_1_3_two_players_the_german_passes_from_west_to_east_without_a_curtain(
        win: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    load(win, qtbot, tmp_path, "german_west_combat", split_table(2, ["Gerd", "Sasha"]))
    sit(win, qtbot, "Gerd")
    asked = curtain_shown(win)
    act(win, qtbot, Action("end_step", "german"))
    assert game().position(win.snapshot.session.state).step.id == "german_east_move_d"  # type: ignore[union-attr]
    assert asked == [] and win.stack.currentWidget() is win.map_tabs


def test_1_3_two_players_no_curtain_between_the_soviet_and_anglo_french_steps(
        win: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    """II.E (Soviet) then III.A (Anglo-French): one Allied player holds both [1.3]."""
    load(win, qtbot, tmp_path, "soviet_reinforcement", split_table(2, ["Gerd", "Sasha"]))
    sit(win, qtbot, "Sasha")
    asked = curtain_shown(win)
    act(win, qtbot, Action("end_step", "soviet"))
    snap = win.snapshot
    assert snap is not None and snap.prompt.side == "anglo_french"
    assert game().position(snap.session.state).step.id == "armor_doctrine"
    assert asked == [] and win.stack.currentWidget() is win.map_tabs
    assert win.side.seat_label.text() == "Player: Sasha"


def test_1_3_three_players_the_anglo_french_player_is_asked_after_the_soviet(
        win: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    load(win, qtbot, tmp_path, "soviet_reinforcement",
         split_table(3, ["Gerd", "Sasha", "Anna"]))
    sit(win, qtbot, "Sasha")
    act(win, qtbot, Action("end_step", "soviet"))
    assert win.stack.currentWidget() is win.curtain and win.curtain.player == "Anna"
    assert win.curtain.detail.text().startswith("Anna plays Anglo-French.")


def test_old_saves_without_splits_keep_one_seat_per_side(
        win: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    """A save with only "table.seats" (before splits): the German is one seat."""
    load(win, qtbot, tmp_path, "german_west_combat",
         {"table.seats": {"german": "Gerd", "soviet": "Sasha", "anglo_french": "Sasha"}})
    sit(win, qtbot, "Gerd")
    asked = curtain_shown(win)
    act(win, qtbot, Action("end_step", "german"))
    assert asked == []


# --- the top of a stack [7.3] -----------------------------------------------------------------

def german_east_stack(win: MainWindow) -> tuple[str, list[str]]:
    """An east-map hex holding two or more German ground units (the German east set-up
    stacks corps three to a hex [3.3]), with their ids."""
    snap = win.snapshot
    assert snap is not None
    g, st = snap.session.game, snap.session.state
    b = g.rules.board(g)  # type: ignore[attr-defined]
    out: dict[str, list[str]] = {}
    for p in st.pieces.values():
        if p.side == "german" and not p.location.startswith("box:") and \
                units.is_ground(g, p) and b.map_of(p.location) == EAST:
            out.setdefault(p.location, []).append(p.id)
    where, ids = next((h, ps) for h, ps in sorted(out.items()) if len(ps) >= 2)
    return where, ids


def test_7_3_the_stack_inspector_puts_the_owners_unit_on_top(
        win: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    g = game()
    load(win, qtbot, tmp_path, "german_west_move",
         {**split_table(2, ["Gerd", "Sasha"]), fog.OPTION: True})
    sit(win, qtbot, "Gerd")
    where, ids = german_east_stack(win)
    before = win.snapshot.session.state  # type: ignore[union-attr]
    top = fog.top_of(before, where, [before.pieces[i] for i in ids])
    shown = {p.id for p in g.rules.view(g, before, "soviet").pieces.values()
             if p.location == where}
    assert top.id in shown
    other = next(i for i in ids if i != top.id)
    assert other not in shown  # beneath the top: the Soviet sees a placeholder [7.3]
    win.on_stack(where)
    ins = win.inspector
    assert not ins.top_button.isHidden()
    assert not ins.top_button.isEnabled()  # nothing selected yet
    ins.list.setCurrentRow(ins.piece_ids().index(other))
    assert ins.top_button.isEnabled()
    assert ins.top_action.isVisible()  # also on the row's right-click menu
    SHOTS.mkdir(parents=True, exist_ok=True)
    win.inspector_dock.raise_()
    qtbot.wait(100)
    win.grab().save(str(SHOTS / "players_stack_top.png"))
    with qtbot.waitSignal(win.client.snapshotReady, timeout=30000):
        qtbot.mouseClick(ins.top_button, Qt.MouseButton.LeftButton)
    after = win.snapshot.session.state  # type: ignore[union-attr]
    assert after.var(fog.V_STACK_TOP)[where] == other
    seen = {p.id for p in g.rules.view(g, after, "soviet").pieces.values()
            if p.location == where}
    assert other in seen and top.id not in seen  # the Soviet now sees the other unit on top


def test_7_3_no_top_choice_for_the_enemys_units(
        win: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    load(win, qtbot, tmp_path, "soviet_move",
         {**split_table(2, ["Gerd", "Sasha"]), fog.OPTION: True})
    sit(win, qtbot, "Sasha")
    where, _ids = german_east_stack(win)
    win.on_stack(where)
    ins = win.inspector
    assert ins.list.count() >= 2
    for row in range(ins.list.count()):
        ins.list.setCurrentRow(row)
        assert not ins.top_button.isEnabled() and not ins.top_action.isVisible()
