"""1940: What If? at the table by mouse (issue 16): a set-up placed from the placement
tray, then a German turn with a two-unit stack moved by one drag (one force, [10.4]) and
a prepared assault chosen by clicking its hex on the map. Real input on the map view's
viewport; the engine's state is checked after each."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot
from test_aa_turn_by_mouse import _at_loc, _at_piece, _press, _shot

from uihelpers import open_window
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import END_STEP
from wartable.ui.mainwindow import MainWindow
from wartable.worker.commands import NewGame

LEFT = Qt.MouseButton.LeftButton
NONE = Qt.KeyboardModifier.NoModifier
CTRL = Qt.KeyboardModifier.ControlModifier
SOVIET_POOL = "box:soviet_pool"


def _step(w: MainWindow) -> str:
    assert w.snapshot is not None
    g = w.snapshot.session.game
    return g.position(w.snapshot.session.state).step.id


def test_w40_setup_from_the_tray_then_a_stack_move_and_a_prepared_assault(
        qtbot: QtBot) -> None:
    w = open_window(qtbot)
    with qtbot.waitSignal(w.client.snapshotReady, timeout=30000):
        w.client.send(NewGame("whatif1940", "standard", FrozenMap({"table.solitaire": True}),
                              seed=1))
    st = w.snapshot.session.state  # type: ignore[union-attr]
    pool = sorted(p.id for p in st.pieces.values() if p.location == SOVIET_POOL)
    assert len(pool) == 4
    # The Juggernauts to place are in the tray, not in a box on the map.
    assert not w.tray_dock.isHidden() and set(pool) <= set(w.tray.piece_ids())
    assert all(w.map.piece_item(pid) is None for pid in pool)
    lst = w.tray.list
    row = lst.visualItemRect(lst.item(w.tray.piece_ids().index(pool[0])))
    QTest.mouseClick(lst.viewport(), LEFT, NONE, row.center())
    v = w.map  # the east map: the tray's unit may go there only
    assert v.placing() == pool[0] and "4202" in {h.loc for h in v.highlight_items("legal")}
    _shot(w, "w40_placement_tray.png")
    v.set_zoom(150)
    v.center_on_location("4202")
    with qtbot.waitSignal(w.client.snapshotReady, timeout=20000):
        QTest.mouseClick(v.viewport(), LEFT, NONE, _at_loc(v, "4202"))
    assert w.snapshot.session.state.pieces[pool[0]].location == "4202"  # type: ignore[union-attr]
    # The next Juggernaut is chosen already: one more click places it.
    assert w.tray.chosen() in pool[1:]
    # The rest as the game offers: automatically.
    for _ in range(4):  # Soviet, German (two steps), Anglo-French
        _press(qtbot, w, "auto_setup")
        _press(qtbot, w, END_STEP)
    assert w.tray_dock.isHidden()
    # The German turn up to East Front movement: move first, then fight.
    _press(qtbot, w, "declare_order")
    for _ in range(6):
        if _step(w) == "german_east_move_d":
            break
        b = w.side.button_for(END_STEP) or w.side.button_for("efst_done")
        assert b is not None
        with qtbot.waitSignal(w.client.snapshotReady, timeout=20000):
            qtbot.mouseClick(b, LEFT)
    assert _step(w) == "german_east_move_d"
    # Two of the three units at 4300 move together: fan out, pick two, one drag.
    v = w.map
    v.set_zoom(200)
    v.center_on_location("4300")
    moving = ("german.ger_infantry.28", "german.ger_infantry.29")
    QTest.mouseClick(v.viewport(), LEFT, NONE, _at_loc(v, "4300"))
    assert v.expanded_stack() == "4300"
    QTest.mouseClick(v.viewport(), LEFT, NONE, _at_piece(v, moving[0]))
    QTest.mouseClick(v.viewport(), LEFT, CTRL, _at_piece(v, moving[1]))
    vp = v.viewport()
    start, end = _at_piece(v, moving[1]), _at_loc(v, "4401")
    with qtbot.waitSignal(w.client.snapshotReady, timeout=20000):
        QTest.mousePress(vp, LEFT, NONE, start)
        for k in range(1, 7):
            QTest.mouseMove(vp, start + (end - start) * (k / 6))
        QTest.mouseRelease(vp, LEFT, NONE, end)
    st = w.snapshot.session.state  # type: ignore[union-attr]
    assert [st.pieces[p].location for p in moving] == ["4401", "4401"]
    assert st.pieces["german.ger_panzer.3"].location == "4300"  # the third stayed
    moves = [e for e in w.snapshot.session.events if e.kind == "move"]  # type: ignore[union-attr]
    assert len([e for e in moves if "4401" in e.text]) == 1  # one force, one move [10.4]
    _press(qtbot, w, END_STEP)
    assert _step(w) == "german_east_combat_e"
    # Prepared assault: click the hex on the map; the odds panel takes it; attack.
    panel = w.game_ui.panel  # type: ignore[union-attr]
    targets = w.snapshot.prompt.targets["attack"]  # type: ignore[union-attr]
    target = targets[-1]  # not the panel's first choice: the click must choose it
    assert len(targets) > 1 and panel.target.currentText() != target
    v.center_on_location(target)
    QTest.mouseClick(v.viewport(), LEFT, NONE, _at_loc(v, target))
    assert panel.target.currentText() == target
    # The right-click menu on another target offers it too, and hands it to the panel.
    other = targets[0]
    v.center_on_location(other)
    p = _at_loc(v, other)
    QApplication.sendEvent(v.viewport(), QContextMenuEvent(
        QContextMenuEvent.Reason.Mouse, p, v.viewport().mapToGlobal(p), NONE))
    menu = w.table.last_menu
    assert menu is not None
    pick = next(a for a in menu.actions() if a.text().startswith("Attack:"))
    pick.trigger()
    menu.close()
    assert panel.target.currentText() == other
    v.center_on_location(target)
    QTest.mouseClick(v.viewport(), LEFT, NONE, _at_loc(v, target))
    assert panel.target.currentText() == target
    assert panel.chosen()
    before = len(w.snapshot.session.events)  # type: ignore[union-attr]
    qtbot.mouseClick(panel.attack, LEFT)
    qtbot.waitUntil(lambda: len(w.snapshot.session.events) > before, timeout=20000)  # type: ignore[union-attr]
    new = w.snapshot.session.events[before:]  # type: ignore[union-attr]
    assert any(e.kind == "combat" and target in e.text for e in new), [e.text for e in new]
    w.close()
