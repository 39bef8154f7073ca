"""A whole A&A 1941 German turn played with the mouse on the map (issue 16).

Real input on the map view's viewport (QTest presses, moves, releases, right-clicks), the
side panel's buttons and dice for what is not on the map; after each step the engine's
state is checked: the purchase, a land attack by a four-unit selection dragged at once, an
amphibious assault (two land units dropped on the transport, then dragged off it onto the
coast) with the cruiser's bombardment, a fighter that must land (the table warns first,
naming it) and mobilization from the placement tray.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QPoint, QPointF, Qt, QTimer
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from uihelpers import open_window
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import END_STEP
from wartable.games.aa_anniversary.steps.common import MOBILIZATION
from wartable.ui.mainwindow import MainWindow
from wartable.ui.map.view import MapView
from wartable.worker.commands import NewGame

SHOTS = Path(os.environ.get("WARTABLE_SHOTS", "/tmp/wartable-shots"))
NONE = Qt.KeyboardModifier.NoModifier
CTRL = Qt.KeyboardModifier.ControlModifier
LEFT = Qt.MouseButton.LeftButton


def _open(qtbot: QtBot) -> MainWindow:
    w = open_window(qtbot)
    with qtbot.waitSignal(w.client.snapshotReady, timeout=20000):
        w.client.send(NewGame("aa_anniversary", "1941", FrozenMap({"table.solitaire": True}),
                              seed=1, dice_mode="physical"))
    return w


def _state(w: MainWindow):  # type: ignore[no-untyped-def]
    assert w.snapshot is not None
    return w.snapshot.session.state


def _shot(w: object, name: str) -> Path:
    for _ in range(3):
        QApplication.processEvents()
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / name
    assert w.grab().save(str(path))  # type: ignore[attr-defined]
    return path


def _look_at(v: MapView, loc: str) -> None:
    v.set_zoom(100)
    v.center_on_location(loc)


def _at_loc(v: MapView, loc: str) -> QPoint:
    assert v.board is not None
    x, y = v.board.center(loc)
    return v.mapFromScene(QPointF(x, y))


def _at_piece(v: MapView, pid: str) -> QPoint:
    item = v.piece_item(pid)
    assert item is not None
    return v.mapFromScene(item.pos())


def _click(v: MapView, p: QPoint, mods: Qt.KeyboardModifier = NONE) -> None:
    QTest.mouseClick(v.viewport(), LEFT, mods, p)


def _drag(v: MapView, start: QPoint, end: QPoint) -> None:
    vp = v.viewport()
    QTest.mousePress(vp, LEFT, NONE, start)
    for k in range(1, 7):
        QTest.mouseMove(vp, start + (end - start) * (k / 6))
    QTest.mouseRelease(vp, LEFT, NONE, end)


def _select_and_drag(qtbot: QtBot, w: MainWindow, where: str, ids: list[str], to: str) -> None:
    """Click the stack (it fans out), click the first unit, Ctrl+click the others, drag the
    selection onto `to`; wait until the engine has every move."""
    v = w.map
    _look_at(v, where)
    _click(v, _at_loc(v, where))
    assert v.expanded_stack() == where
    _click(v, _at_piece(v, ids[0]))
    for pid in ids[1:]:
        _click(v, _at_piece(v, pid), CTRL)
    assert set(v.selected_pieces()) == set(ids)
    before = len(w.snapshot.session.log) if w.snapshot else 0
    _drag(v, _at_piece(v, ids[-1]), _at_loc(v, to))
    qtbot.waitUntil(lambda: w.snapshot is not None
                    and len(w.snapshot.session.log) >= before + len(ids), timeout=20000)


def _press(qtbot: QtBot, w: MainWindow, button_id: str) -> None:
    b = w.side.button_for(button_id)
    assert b is not None and b.isEnabled(), button_id
    with qtbot.waitSignal(w.client.snapshotReady, timeout=20000):
        qtbot.mouseClick(b, LEFT)


def _roll_for(qtbot: QtBot, w: MainWindow, space: str) -> None:
    """Type a roll: the attackers' dice (first) hit, the defenders' miss."""
    n = len(w.side.dice_spins)
    k = sum(1 for p in _state(w).pieces_at(space) if p.side == "germany")
    for i, spin in enumerate(w.side.dice_spins):
        spin.setValue(1 if i < min(k, n) or n == 1 else 6)
    with qtbot.waitSignal(w.client.snapshotReady, timeout=20000):
        qtbot.mouseClick(w.side.dice_submit, LEFT)


def _fight(qtbot: QtBot, w: MainWindow, space: str) -> None:
    """Resolve a battle: bombard if asked, attackers hit, defenders miss, default casualties."""
    for _ in range(12):
        p = w.snapshot.prompt if w.snapshot else None
        assert p is not None
        if p.dice is not None:
            _roll_for(qtbot, w, space)
        elif w.side.button_for("bombard") is not None:
            _press(qtbot, w, "bombard")
        elif w.side.button_for("casualties") is not None:
            _press(qtbot, w, "casualties")
        else:
            return


def test_aa_1941_germany_turn_by_mouse(qtbot: QtBot) -> None:
    w = _open(qtbot)
    v = w.map
    # Purchase Units: one infantry (3 IPCs), with the side panel's button.
    _press(qtbot, w, "buy")
    assert [p.type for p in _state(w).pieces.values() if p.location == MOBILIZATION] \
        == ["infantry"]
    assert w.tray.piece_ids() and not w.tray_dock.isHidden()  # the tray holds it...
    assert not any(p.location == MOBILIZATION for p in (
        i.piece for i in v.map_scene.piece_items.values()))  # ...not the map
    _press(qtbot, w, END_STEP)
    assert w.snapshot is not None and w.snapshot.prompt.step == "Combat Move"
    assert w.tray.piece_ids() and w.tray.chosen() is None  # nothing to place now

    # Amphibious assault: infantry and artillery from Germany dropped on the transport.
    _select_and_drag(qtbot, w, "germany", ["germany.infantry.5", "germany.artillery.1"],
                     "sz05")
    st = _state(w)
    for pid in ("germany.infantry.5", "germany.artillery.1"):
        assert st.pieces[pid].location == "sz05"
        assert st.pieces[pid].attrs.get("on") == "germany.transport.1"
    # Drawn as one group: the cargo small on its transport, not a stack of its own.
    _look_at(v, "sz05")
    assert v.piece_item("germany.infantry.5").cargo_of == "germany.transport.1"  # type: ignore[union-attr]
    _shot(v, "aa_loaded_transport.png")
    v.set_zoom(300)
    v.center_on_location("sz05")
    _shot(v, "aa_loaded_transport_close.png")
    # The two land units dragged off the transport onto the Baltic States' coast.
    _select_and_drag(qtbot, w, "sz05", ["germany.infantry.5", "germany.artillery.1"],
                     "baltic_states")
    st = _state(w)
    for pid in ("germany.infantry.5", "germany.artillery.1"):
        assert st.pieces[pid].location == "baltic_states"
        assert st.pieces[pid].attrs.get("amphibious") is True

    # A land attack: four units of the Poland stack selected and dragged at once.
    attackers = ["germany.infantry.16", "germany.infantry.17", "germany.artillery.4",
                 "germany.armour.7"]
    _select_and_drag(qtbot, w, "poland", attackers, "east_poland")
    assert all(_state(w).pieces[p].location == "east_poland" for p in attackers)
    # The fighter joins it, dragged alone out of the fanned Germany stack.
    _select_and_drag(qtbot, w, "germany", ["germany.fighter.1"], "east_poland")
    assert _state(w).pieces["germany.fighter.1"].location == "east_poland"
    # Contested spaces: both sides drawn, battle markers where combat is due.
    assert set(v.battle_markers()) == {"baltic_states", "east_poland"}
    _look_at(v, "east_poland")
    v.expand_stack(None)
    mine = v.piece_item("germany.infantry.16")
    theirs = next(v.piece_item(p.id) for p in _state(w).pieces_at("east_poland")
                  if p.side != "germany")
    assert mine is not None and theirs is not None
    assert abs(mine.pos().x() - theirs.pos().x()) > 0.9 * v.map_scene.counter  # side by side
    assert v.piece_item("germany.infantry.16").piece.id in v.map_scene.moved  # type: ignore[union-attr]
    _shot(v, "aa_contested_battle_marker.png")
    _press(qtbot, w, END_STEP)
    assert w.snapshot is not None and w.snapshot.prompt.step == "Conduct Combat"

    # Conduct Combat: the right-click menu on the Baltic States offers its battle.
    _look_at(v, "baltic_states")
    p = _at_loc(v, "baltic_states")
    QApplication.sendEvent(v.viewport(), QContextMenuEvent(
        QContextMenuEvent.Reason.Mouse, p, v.viewport().mapToGlobal(p), NONE))
    menu = w.table.last_menu
    assert menu is not None
    fight = next(a for a in menu.actions() if a.text() == "Fight in Baltic States")
    with qtbot.waitSignal(w.client.snapshotReady, timeout=20000):
        fight.trigger()
    menu.close()
    _fight(qtbot, w, "baltic_states")  # the cruiser bombards first (Amphibious Assaults)
    st = _state(w)
    assert any("Bombardment" in e.text for e in w.snapshot.session.events)  # type: ignore[union-attr]
    assert {p.side for p in st.pieces_at("baltic_states")} == {"germany"}
    _press(qtbot, w, "fight")  # East Poland, the last battle
    _fight(qtbot, w, "east_poland")
    assert {p.side for p in _state(w).pieces_at("east_poland")} == {"germany"}
    assert v.battle_markers() == []
    _press(qtbot, w, END_STEP)
    assert w.snapshot is not None and w.snapshot.prompt.step == "Noncombat Move"

    # The fighter cannot stay in East Poland, captured this turn: ending the step would
    # lose it, and the table says so first, naming it. The player says no.
    asked: list[str] = []

    def answer_no() -> None:
        box = w.findChild(QMessageBox, "lossWarning")
        assert box is not None and box.isVisible()
        asked.append(box.text())
        box.button(QMessageBox.StandardButton.No).click()

    QTimer.singleShot(200, answer_no)
    qtbot.mouseClick(w.side.button_for(END_STEP), LEFT)
    qtbot.waitUntil(lambda: bool(asked), timeout=5000)
    assert "Germany Fighter in East Poland" in asked[0]
    assert w.snapshot.prompt.step == "Noncombat Move"
    assert "germany.fighter.1" in _state(w).pieces
    # It lands in Poland: dragged out of the East Poland stack.
    _select_and_drag(qtbot, w, "east_poland", ["germany.fighter.1"], "poland")
    assert _state(w).pieces["germany.fighter.1"].location == "poland"
    _press(qtbot, w, END_STEP)  # nothing to lose now: no question
    assert w.snapshot.prompt.step == "Mobilize New Units"

    # Mobilization from the tray: choose the infantry, click Germany on the map.
    new = next(p.id for p in _state(w).pieces.values() if p.location == MOBILIZATION)
    assert w.tray.chosen() == new and v.placing() == new  # the first to place, chosen
    lst = w.tray.list
    row = lst.visualItemRect(lst.item(w.tray.piece_ids().index(new)))
    QTest.mouseClick(lst.viewport(), LEFT, NONE, row.center())
    assert w.tray.chosen() == new and v.placing() == new
    assert "germany" in {h.loc for h in v.highlight_items("legal")}
    _shot(w, "aa_placement_tray.png")
    _look_at(v, "germany")
    with qtbot.waitSignal(w.client.snapshotReady, timeout=20000):
        _click(v, _at_loc(v, "germany"))
    assert _state(w).pieces[new].location == "germany"
    assert w.tray_dock.isHidden()
    _press(qtbot, w, END_STEP)
    assert w.snapshot.prompt.step != "Mobilize New Units"
    w.close()


def test_aa_stack_moves_menus_and_the_stack_dock(qtbot: QtBot) -> None:
    """Shift+drag moves a whole two-unit stack (one move each); the right-click menu's
    "Move to" moves the selection; a unit chosen in the Stack dock is selected on the map."""
    w = _open(qtbot)
    v = w.map
    _press(qtbot, w, END_STEP)  # to Combat Move
    _look_at(v, "finland")
    start, end = _at_loc(v, "finland"), _at_loc(v, "karelia_ssr")
    shift = Qt.KeyboardModifier.ShiftModifier
    vp = v.viewport()
    QTest.mousePress(vp, LEFT, shift, start)
    for k in range(1, 7):
        QTest.mouseMove(vp, start + (end - start) * (k / 6))
    QTest.mouseRelease(vp, LEFT, shift, end)
    finns = ("germany.infantry.3", "germany.infantry.4")
    qtbot.waitUntil(lambda: all(_state(w).pieces[p].location == "karelia_ssr" for p in finns),
                    timeout=20000)
    # The Stack dock: choosing France's tank selects it on the map, fanned out.
    _look_at(v, "france")
    _click(v, _at_loc(v, "france"))
    assert w.inspector.location == "france"
    row = w.inspector.piece_ids().index("germany.armour.3")
    lst = w.inspector.list
    QTest.mouseClick(lst.viewport(), LEFT, NONE, lst.visualItemRect(lst.item(row)).center())
    assert v.selected_pieces() == ["germany.armour.3"] and v.expanded_stack() == "france"
    # Right-click on it: its menu lists where it may go; "Move to" moves it.
    p = _at_piece(v, "germany.armour.3")
    QApplication.sendEvent(v.viewport(), QContextMenuEvent(
        QContextMenuEvent.Reason.Mouse, p, v.viewport().mapToGlobal(p), NONE))
    menu = w.table.last_menu
    assert menu is not None
    sub = next(a.menu() for a in menu.actions() if a.text() == "Move to")
    assert [a.text() for a in sub.actions()] == ["Sea Zone 13  (2)"]  # aboard the transport there
    with qtbot.waitSignal(w.client.snapshotReady, timeout=20000):
        sub.actions()[0].trigger()
    menu.close()
    assert _state(w).pieces["germany.armour.3"].location == "sz13"
    w.close()


def test_aa_a_move_routed_through_a_right_clicked_space(qtbot: QtBot) -> None:
    """Issue 17, the player chooses the route: while dragging the fighter from Poland, a
    right-click on the Baltic States adds it as a waypoint (the route is drawn), and the drop
    on Karelia sends the move with that route; the log names it."""
    w = _open(qtbot)
    v = w.map
    _press(qtbot, w, END_STEP)  # Purchase Units: nothing bought
    _look_at(v, "baltic_states")
    v.set_zoom(60)
    _click(v, _at_loc(v, "poland"))
    assert v.expanded_stack() == "poland"
    start = _at_piece(v, "germany.fighter.4")
    via, end = _at_loc(v, "baltic_states"), _at_loc(v, "karelia_ssr")
    vp = v.viewport()
    QTest.mousePress(vp, LEFT, NONE, start)
    for k in range(1, 5):
        QTest.mouseMove(vp, start + (via - start) * (k / 4))
    QTest.mousePress(vp, Qt.MouseButton.RightButton, NONE, via)
    QTest.mouseRelease(vp, Qt.MouseButton.RightButton, NONE, via)
    for k in range(1, 5):
        QTest.mouseMove(vp, via + (end - via) * (k / 4))
    assert v._route_item is not None  # the route so far is drawn while dragging
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert v.grab().save(str(SHOTS / "aa_route_dragged.png"))
    before = len(w.snapshot.session.log) if w.snapshot else 0
    QTest.mouseRelease(vp, LEFT, NONE, end)
    qtbot.waitUntil(lambda: w.snapshot is not None
                    and len(w.snapshot.session.log) > before, timeout=20000)
    assert _state(w).piece("germany.fighter.4").location == "karelia_ssr"
    assert w.snapshot is not None
    assert w.snapshot.session.log[-1].args["via"] == ("baltic_states",)
    line = [e.text for e in w.snapshot.session.events if "Fighter moves" in e.text][-1]
    assert "Poland → Baltic States → Karelia S.S.R." in line
    w.close()
