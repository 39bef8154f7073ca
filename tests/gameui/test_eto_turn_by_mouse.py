"""ETO with Bailey's revisions at the table by mouse (issue 22): an Axis turn with a move
dragged on the map, an attack chosen by clicking hexes with the odds shown and Bailey's
second die [General (2)], then a mechanized move. Real input on the map view's viewport and
the plug-in's widgets; the engine's state is checked after each."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from uihelpers import open_window
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import END_STEP, Button
from wartable.ui.mainwindow import MainWindow
from wartable.ui.map.view import MapView
from wartable.worker.commands import NewGame

LEFT = Qt.MouseButton.LeftButton
NONE = Qt.KeyboardModifier.NoModifier
SHOTS = Path("/tmp/eto")


def _shot(w: object, name: str) -> None:
    for _ in range(3):
        QApplication.processEvents()
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert w.grab().save(str(SHOTS / name))  # type: ignore[attr-defined]


def _at_loc(v: MapView, loc: str) -> QPoint:
    assert v.board is not None
    x, y = v.board.center(loc)
    return v.mapFromScene(QPointF(x, y))


def _at_piece(v: MapView, pid: str) -> QPoint:
    item = v.piece_item(pid)
    assert item is not None
    return v.mapFromScene(item.pos())


def _step(w: MainWindow) -> str:
    assert w.snapshot is not None
    return w.snapshot.session.game.position(w.snapshot.session.state).step.id


def _end_step(qtbot: QtBot, w: MainWindow) -> None:
    b = w.side.button_for(END_STEP)
    assert b is not None and b.isEnabled()
    with qtbot.waitSignal(w.client.snapshotReady, timeout=20000):
        qtbot.mouseClick(b, LEFT)


def _drag(qtbot: QtBot, w: MainWindow, pid: str, to: str) -> None:
    v = w.map
    v.center_on_location(to)
    vp = v.viewport()
    start, end = _at_piece(v, pid), _at_loc(v, to)
    with qtbot.waitSignal(w.client.snapshotReady, timeout=20000):
        QTest.mousePress(vp, LEFT, NONE, start)
        for k in range(1, 7):
            QTest.mouseMove(vp, start + (end - start) * (k / 6))
        QTest.mouseRelease(vp, LEFT, NONE, end)


def test_eto_axis_turn_move_attack_with_second_die_and_mechanized_move(qtbot: QtBot) -> None:
    w = open_window(qtbot)
    with qtbot.waitSignal(w.client.snapshotReady, timeout=30000):
        w.client.send(NewGame("eto_bailey", "1939", FrozenMap({"table.solitaire": True}),
                              seed=1))
    v = w.map
    v.set_zoom(150)
    v.center_on_location("1411")
    _shot(w, "eto_opening.png")
    ledger = w.game_ui.ledger  # type: ignore[attr-defined]
    assert ledger.total.text() == "Axis 0 VP, Allies 0 VP [General (13)]"
    # The ledger reads the state: Norway taken on turn 3 (2 VP) and Paris on 17 (6 VP).
    for key, turn in (("norway", 3), ("paris", 17)):
        with qtbot.waitSignal(w.client.snapshotReady, timeout=20000):
            w.game_ui.ctx.submit(Button("assist.set_track", "set", args=FrozenMap(  # type: ignore[attr-defined]
                track="vp_done", key=key, value=turn)))
    assert ledger.total.text() == "Axis 2 VP, Allies 6 VP [General (13)]"
    assert ledger.table.rowCount() == 2
    w.game_ui.ledger_dock.raise_()  # type: ignore[attr-defined]
    _shot(w.game_ui.ledger_dock, "eto_vp_ledger.png")  # type: ignore[attr-defined]
    _end_step(qtbot, w)  # reinforcements
    assert _step(w) == "axis_move"
    # Movement: drag the infantry at 1311 to 1410, next to Poland.
    _drag(qtbot, w, "axis.ger_inf.2", "1410")
    st = w.snapshot.session.state  # type: ignore[union-attr]
    assert st.pieces["axis.ger_inf.2"].location == "1410"
    _end_step(qtbot, w)
    assert _step(w) == "axis_combat"
    tool = w.game_ui.tool  # type: ignore[attr-defined]
    assert not w.game_ui.attack_dock.isHidden()  # type: ignore[attr-defined]
    # Attack: click the two German hexes, then the Polish hex 1511.
    for loc in ("1410", "1411", "1511"):
        v.center_on_location(loc)
        QTest.mouseClick(v.viewport(), LEFT, NONE, _at_loc(v, loc))
    assert set(tool.attackers) == {"axis.ger_inf.2", "axis.ger_mech.1"} and tool.target == "1511"
    text = tool.odds.text()
    assert "Attack on 1511: 8 SP against 1 SP" in text and "Differential +7" in text
    assert "second die" in text and tool.button.isEnabled()
    _shot(w, "eto_attack_tool.png")
    with qtbot.waitSignal(w.client.snapshotReady, timeout=20000):
        qtbot.mouseClick(tool.button, LEFT)
    combat = [e for e in w.snapshot.session.events if e.kind == "combat"]  # type: ignore[union-attr]
    assert "die 6" in combat[0].text  # seed 1 rolls a 6: the second die follows
    assert any(e.rule == "General (2)" and e.text.startswith("Second die") for e in combat)
    assert "Second die" in tool.result.text()
    _shot(w, "eto_attack_result.png")
    st = w.snapshot.session.state  # type: ignore[union-attr]
    assert not [p for p in st.pieces_at("1511") if p.side == "allies"]
    _end_step(qtbot, w)
    assert _step(w) == "axis_mech"
    # Mechanized movement: the panzers at 1413 (did not move) drag to 1512.
    _drag(qtbot, w, "axis.ger_mech.4", "1512")
    st = w.snapshot.session.state  # type: ignore[union-attr]
    assert st.pieces["axis.ger_mech.4"].location == "1512"
    w.close()
