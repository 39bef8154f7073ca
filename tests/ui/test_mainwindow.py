"""The main window end to end on the offscreen platform: start a game, zoom, drag a
counter, undo, save, reopen, a refused move, physical dice, a bad file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from uihelpers import open_window, select_game
from wartable.ui.mainwindow import MainWindow


@pytest.fixture
def win(qtbot: QtBot) -> Iterator[MainWindow]:
    w = open_window(qtbot)
    yield w
    w.close()


def start(win: MainWindow, qtbot: QtBot, scenario: str = "meeting", dice: int = 0) -> None:
    s = win.start
    select_game(s, "skirmish")
    s.scenario.setCurrentIndex(s.scenario.findData(scenario))
    s.dice.setCurrentIndex(dice)
    with qtbot.waitSignal(win.client.snapshotReady, timeout=10000):
        qtbot.mouseClick(s.start, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: win.stack.currentWidget() is win.map_tabs)


def at(win: MainWindow, label: str) -> QPoint:
    board = win.map.board
    assert board is not None
    return win.map.viewportTransform().map(QPointF(*board.center(label))).toPoint()


def drag(win: MainWindow, frm: str, to: str) -> None:
    vp = win.map.viewport()
    a, b = at(win, frm), at(win, to)
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, a)
    for k in range(1, 6):
        QTest.mouseMove(vp, a + (b - a) * (k / 5))
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, b)


def test_start_screen_lists_the_game_and_starts_it(win: MainWindow, qtbot: QtBot) -> None:
    assert win.stack.currentWidget() is win.start_scroll
    assert not win.side_dock.isVisible()
    titles = [win.start.games.item(i).text() for i in range(win.start.games.count())]
    assert "Skirmish at the Ford (test game)" in titles and "1940: What If?" in titles
    start(win, qtbot)
    assert win.side_dock.isVisible() and win.log_dock.isVisible()
    assert win.side.side_label.text() == "Blue to act"
    assert win.side.rule.text() == "Rule S4"
    assert win.side.button_for("end_step") is not None
    assert win.log.visible_texts() == ["T1 Turn 1: Blue player turn — Movement  [S4]"]
    assert len(win.map.map_scene.piece_items) == 10
    assert win.windowTitle() == "Untitled * — Skirmish at the Ford (test game)"


def test_zoom_menu_and_fit(win: MainWindow, qtbot: QtBot) -> None:
    start(win, qtbot)
    fitted = win.map.zoom_percent()
    win.findChild(type(win.act_undo), "actZoomIn").trigger()
    assert win.map.zoom_percent() > fitted
    win.map.set_zoom(400)
    assert win.map.zoom_percent() == pytest.approx(400)
    assert win.zoom_label.text() == "400 %"
    win.findChild(type(win.act_undo), "actFit").trigger()
    assert win.map.zoom_percent() == pytest.approx(fitted, rel=0.02)


def test_drag_a_counter_then_undo_and_redo(win: MainWindow, qtbot: QtBot) -> None:
    start(win, qtbot)
    win.map.set_zoom(150)
    win.map.center_on_location("0305")
    with qtbot.waitSignal(win.client.snapshotReady, timeout=5000) as sig:
        drag(win, "0205", "0305")  # Blue 1st Inf, one clear hex
    st = sig.args[0].session.state
    assert st.piece("blue.infantry.1").location == "0305"
    assert win.map.piece_item("blue.infantry.1") is not None
    assert win.act_undo.isEnabled()
    assert win.act_undo.text() == "&Undo Blue 1st Inf moves 0205 → 0305 (1 MP)"
    assert win.log.visible_texts()[-1] == "T1 Blue 1st Inf moves 0205 → 0305 (1 MP)  [S4]"
    with qtbot.waitSignal(win.client.snapshotReady):
        win.act_undo.trigger()
    assert win.snapshot is not None
    assert win.snapshot.session.state.piece("blue.infantry.1").location == "0205"
    assert win.act_redo.text() == "&Redo Blue 1st Inf moves 0205 → 0305 (1 MP)"
    assert win.log.visible_texts()[-1] == "T1 Turn 1: Blue player turn — Movement  [S4]"
    with qtbot.waitSignal(win.client.snapshotReady):
        win.act_redo.trigger()
    assert win.snapshot.session.state.piece("blue.infantry.1").location == "0305"


def test_refused_move_shows_the_reason_and_puts_the_counter_back(
    win: MainWindow, qtbot: QtBot
) -> None:
    start(win, qtbot)
    win.map.set_zoom(100)
    win.map.center_on_location("0605")
    item = win.map.piece_item("blue.infantry.1")
    assert item is not None
    before = item.pos()
    with qtbot.waitSignal(win.client.failed, timeout=5000):
        drag(win, "0205", "0905")  # seven hexes: beyond its allowance of 4
    assert win.side.error.isVisible()
    assert win.side.error.text() == "Blue 1st Inf cannot reach 0905 this step [S4]."
    assert win.map.piece_item("blue.infantry.1").pos() == before


def test_end_step_button_moves_the_sequence_on(win: MainWindow, qtbot: QtBot) -> None:
    start(win, qtbot)
    with qtbot.waitSignal(win.client.snapshotReady):
        qtbot.mouseClick(win.side.button_for("end_step"), Qt.MouseButton.LeftButton)
    assert win.side.side_label.text() == "Red to act"
    assert not win.act_undo.isEnabled()  # the other side decides now: a barrier


def test_save_and_reopen(win: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    start(win, qtbot)
    with qtbot.waitSignal(win.client.snapshotReady):
        drag(win, "0205", "0305")
    path = tmp_path / "game.wartable.json"
    with qtbot.waitSignal(win.client.snapshotReady):
        win.save_to(path)
    assert path.is_file()
    assert win.windowTitle() == "game.wartable.json — Skirmish at the Ford (test game)"
    assert win.settings.recent_files[0] == str(path)
    other = MainWindow(autosave=False, confirm_close=False)
    qtbot.addWidget(other)
    other.show()
    with qtbot.waitSignal(other.client.snapshotReady, timeout=10000,
                          check_params_cb=lambda s: s.fresh) as sig:
        other.open_path(path)
    st = sig.args[0].session.state
    assert st.piece("blue.infantry.1").location == "0305"
    assert other.log.visible_texts()[-1] == "T1 Blue 1st Inf moves 0205 → 0305 (1 MP)  [S4]"
    other.close()


def test_bad_file_keeps_the_open_game(win: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    start(win, qtbot)
    bad = tmp_path / "broken.wartable.json"
    bad.write_bytes(b'{"format": "wartable-save", "format_version": 1, "game_id": ')
    snap = win.snapshot
    with qtbot.waitSignal(win.client.failed, timeout=5000) as sig:
        win.open_path(bad)
    msg = sig.args[0].message
    assert msg.startswith("Cannot open broken.wartable.json") and "\n" not in msg
    assert win.last_error == msg
    assert win.snapshot is snap and win.stack.currentWidget() is win.map_tabs
    assert bad.read_bytes().endswith(b'"game_id": ')


def test_physical_dice_are_typed_in_the_side_panel(win: MainWindow, qtbot: QtBot) -> None:
    start(win, qtbot, scenario="contact", dice=1)
    for _ in range(3):  # Blue move, Red move, Blue move: then Blue's turn-2 combat
        with qtbot.waitSignal(win.client.snapshotReady):
            win.end_step()
    assert win.side.prompt.text().startswith("Attack enemy units")
    from wartable.engine.actions import Action

    with qtbot.waitSignal(win.client.snapshotReady):
        win.submit(Action.make("attack", "blue", attackers=("blue.armour.1",), target="1105"))
    assert win.side.dice_row.isVisible() and len(win.side.dice_spins) == 1
    win.side.dice_spins[0].setValue(6)
    with qtbot.waitSignal(win.client.snapshotReady) as sig:
        qtbot.mouseClick(win.side.dice_submit, Qt.MouseButton.LeftButton)
    st = sig.args[0].session.state
    assert st.piece("red.infantry.1").location == "box:eliminated"
    texts = win.log.visible_texts()
    assert "T2 Attack on 1105: rolled 6 (physical dice)  [S5.3]" in texts
    assert "T2 Attack on 1105: roll 6 → defender eliminated  [S5.3]" in texts


def test_free_play_moves_anything_and_logs_it(win: MainWindow, qtbot: QtBot) -> None:
    start(win, qtbot)
    win.side.free_play.setChecked(True)
    win.map.set_zoom(100)
    win.map.center_on_location("1005")
    with qtbot.waitSignal(win.client.snapshotReady):
        drag(win, "0205", "0905")
    assert win.snapshot.session.state.piece("blue.infantry.1").location == "0905"
    assert win.log.visible_texts()[-1].startswith(
        "T1 House rule: Blue moved Blue 1st Inf 0205 → 0905 (free play)"
    )


def test_log_filters_by_kind(win: MainWindow, qtbot: QtBot) -> None:
    start(win, qtbot)
    with qtbot.waitSignal(win.client.snapshotReady):
        drag(win, "0205", "0305")
    win.log.kind.setCurrentText("move")
    assert win.log.visible_texts() == ["T1 Blue 1st Inf moves 0205 → 0305 (1 MP)  [S4]"]
    win.log.kind.setCurrentText("All")
    win.log.text.setText("turn 1")
    assert win.log.visible_texts() == ["T1 Turn 1: Blue player turn — Movement  [S4]"]


def test_autosave_at_step_end_and_recovery_after_a_crash(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """DESIGN.md, Save files: autosave at every step end; after a crash the app offers
    the last autosave. Here the first window 'crashes' (its lock is left behind with a
    dead pid) and a second one restores the game."""
    from PySide6.QtWidgets import QMessageBox

    from wartable.persistence import autosave

    w = MainWindow(autosave=True, confirm_close=False)
    qtbot.addWidget(w)
    w.show()
    start(w, qtbot)
    with qtbot.waitSignal(w.client.snapshotReady):
        drag(w, "0205", "0305")
    assert autosave.latest_autosave() is None  # moves inside a step do not autosave
    with qtbot.waitSignal(w.client.snapshotReady):
        w.end_step()
    qtbot.waitUntil(lambda: autosave.latest_autosave() is not None, timeout=5000)
    w.client.shutdown()
    autosave.lock_path().write_text("999999999")  # a lock whose process is gone
    crashed = autosave.crashed_last_time()
    assert crashed == autosave.latest_autosave()

    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    w2 = MainWindow(autosave=False, confirm_close=False)
    qtbot.addWidget(w2)
    w2.show()
    with qtbot.waitSignal(w2.client.snapshotReady, timeout=10000) as sig:
        assert w2.offer_recovery(crashed)
    st = sig.args[0].session.state
    assert st.piece("blue.infantry.1").location == "0305" and st.active_side == "red"
    w2.close()


def test_table_mode_enlarges_text_and_shows_rolls_large(win: MainWindow, qtbot: QtBot) -> None:
    """Issue 7, table mode: larger text and a large display of each roll and its result."""
    start(win, qtbot, scenario="contact")
    base = win.side.font().pointSizeF()
    win.act_table.trigger()
    assert win.table_mode and win.side.font().pointSizeF() == pytest.approx(base * 1.45)
    # Every dock is readable from across the table, the game-specific ones too.
    from PySide6.QtWidgets import QDockWidget

    for d in win.findChildren(QDockWidget):
        assert d.widget().font().pointSizeF() == pytest.approx(base * 1.45), d.windowTitle()
    for _ in range(3):
        with qtbot.waitSignal(win.client.snapshotReady):
            win.end_step()
    from wartable.engine.actions import Action

    with qtbot.waitSignal(win.client.snapshotReady) as sig:
        win.submit(Action.make("attack", "blue", attackers=("blue.armour.1",), target="1105"))
    assert win.dice_display.isVisible()
    shown = win.dice_display.text().splitlines()
    assert shown[0].startswith("Attack on 1105: roll ") and " → " in shown[0]
    assert all("rolled" not in line for line in shown)  # the bare roll is folded in
    assert win.dice_display.font().pointSizeF() == pytest.approx(22.0)
    # It stays over the visible map even after the map scrolls.
    win.map.set_zoom(300)
    win.map.center_on_location("0101")
    assert win.map.viewport().geometry().contains(win.dice_display.geometry().topLeft())
    assert sig.args[0].session.state.dice_mode == "digital"
    win.act_table.trigger()
    assert not win.table_mode and win.side.font().pointSizeF() == pytest.approx(base)


def test_switch_to_physical_dice_mid_game(win: MainWindow, qtbot: QtBot) -> None:
    start(win, qtbot, scenario="contact")
    with qtbot.waitSignal(win.client.snapshotReady) as sig:
        win.act_physical.trigger()
    assert sig.args[0].session.state.dice_mode == "physical"
    assert win.act_physical.isChecked()
    assert win.log.visible_texts()[-1] == "T1 Blue switched to physical dice"


def test_pinch_zooms_around_its_centre(win: MainWindow, qtbot: QtBot) -> None:
    start(win, qtbot)
    win.map.set_zoom(100)
    centre = win.map.viewport().mapToGlobal(win.map.viewport().rect().center())
    win.map.pinch(1.5, QPointF(centre))
    assert win.map.zoom_percent() == pytest.approx(150)


def test_two_maps_in_tabs_with_each_sides_units(win: MainWindow, qtbot: QtBot) -> None:
    """1940: What If? plays on two maps: one tab each, units drawn on the map that holds
    them, and the window shows the map where the side to act has units to place [3.2]."""
    select_game(win.start, "whatif1940")
    win.start.solitaire.setChecked(True)  # open information: no curtain for the fog [7.3]
    with qtbot.waitSignal(win.client.snapshotReady, timeout=20000):
        qtbot.mouseClick(win.start.start, Qt.MouseButton.LeftButton)
    assert [win.map_tabs.tabText(i) for i in range(win.map_tabs.count())] == [
        "1940: What If? - West Front map", "1940: What If? - East Front map"]
    assert win.side.side_label.text() == "Soviet to act"
    assert win.map_tabs.currentIndex() == 1  # the Soviets set up on the east map
    west, east = win.views
    soviet = {pid for pid, it in east.map_scene.piece_items.items() if pid.startswith("sov")}
    assert soviet and not any(pid.startswith("sov") for pid in west.map_scene.piece_items)
    assert win.map is east


def test_the_start_screen_offers_the_default_game_first(win: MainWindow) -> None:
    item = win.start.games.currentItem()
    assert item is not None and item.text() == "Axis & Allies Anniversary Edition"
    assert [win.start.scenario.itemData(i) for i in range(win.start.scenario.count())] == [
        "1941", "1942"]


def test_the_start_screen_reads_game_data_without_loading_maps(qtbot: QtBot) -> None:
    """Start-up never blocks on maps: browsing the games on the start screen reads their
    data files only; the maps load with the game, on the worker."""
    from wartable.persistence import gamedata

    for gid in ("aa_anniversary", "whatif1940"):
        gamedata.forget(gid)
    w = open_window(qtbot)
    for gid in ("whatif1940", "aa_anniversary"):
        select_game(w.start, gid)
        assert w.start.scenario.count() >= 1  # its scenarios are listed
    assert "aa_anniversary" not in gamedata._cache and "whatif1940" not in gamedata._cache


def test_a_greyed_undo_says_why_in_the_edit_menu_and_forgets_it_once_undo_works(
        win: MainWindow, qtbot: QtBot) -> None:
    """Playtest: the reason for a greyed Undo went into a tooltip the Edit menu never shows,
    and stayed on the action once Undo worked again."""
    from wartable.engine.actions import Action

    start(win, qtbot)
    with qtbot.waitSignal(win.client.snapshotReady):
        qtbot.mouseClick(win.side.button_for("end_step"), Qt.MouseButton.LeftButton)
    assert not win.act_undo.isEnabled()
    menu = win.act_undo.associatedObjects()[0]
    assert menu.toolTipsVisible()  # type: ignore[attr-defined]
    assert win.act_undo.toolTip().startswith("Cannot undo: ")
    assert win.snapshot is not None
    pid, dests = next(iter(win.snapshot.prompt.moves.items()))  # a Red move
    with qtbot.waitSignal(win.client.snapshotReady):
        win.submit(Action("move", "red", {"piece": pid, "to": dests[0]}))
    assert win.act_undo.isEnabled()
    assert not win.act_undo.toolTip().startswith("Cannot undo")


def test_leaving_table_mode_gives_back_the_players_zoom(win: MainWindow, qtbot: QtBot) -> None:
    """Table mode zooms in for the table; leaving it restores the view the player had, not
    a fit of the whole map (playtest, issue 16: the map keeps its zoom and centre)."""
    start(win, qtbot, scenario="contact")
    win.map.set_zoom(180)
    win.map.center_on_location("1005")
    win.act_table.trigger()
    assert win.map.zoom_percent() == pytest.approx(270, abs=1)
    win.act_table.trigger()
    assert win.map.zoom_percent() == pytest.approx(180, abs=1)
