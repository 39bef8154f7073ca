"""Stacks you can handle on the map (issue 16), with real input on the view's viewport:
fanning a stack out, selecting one, several or all of a type, dragging a selection,
right-click and keyboard menus, Tab through a stack, drops from the Stack dock, cargo on
its transport, contested spaces, count badges, moved and battle markers, placing from a
tray."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt
from PySide6.QtGui import QContextMenuEvent, QDragEnterEvent, QDropEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot
from test_mapview import DEFN, piece

from wartable.maps.model import HexMap
from wartable.maps.synthetic import rectangular_hex_map
from wartable.ui.map.inspector import StackInspector
from wartable.ui.map.view import PIECES_MIME, MapView

SHOTS = Path(os.environ.get("WARTABLE_SHOTS", "/tmp/wartable-shots"))
LEFT = Qt.MouseButton.LeftButton
NONE = Qt.KeyboardModifier.NoModifier
CTRL = Qt.KeyboardModifier.ControlModifier


@pytest.fixture(scope="module")
def board() -> HexMap:
    return rectangular_hex_map("test/stacks", 20, 14)


@pytest.fixture
def view(qtbot: QtBot, board: HexMap) -> Iterator[MapView]:
    v = MapView()
    qtbot.addWidget(v)
    v.resize(800, 600)
    v.show()
    qtbot.waitExposed(v)
    v.set_board(board, DEFN)
    v.set_zoom(200)
    v.center_on_location("0808")
    yield v


def at_loc(v: MapView, board: HexMap, loc: str) -> QPoint:
    x, y = board.center(loc)
    return v.mapFromScene(QPointF(x, y))


def at_piece(v: MapView, pid: str) -> QPoint:
    item = v.piece_item(pid)
    assert item is not None
    return v.mapFromScene(item.pos())


def dock_drop(v: MapView, at: QPoint, mime: QMimeData) -> None:
    """What Qt delivers when a row of the Stack dock is dropped on the map: enter, drop."""
    enter = QDragEnterEvent(at, Qt.DropAction.MoveAction, mime, LEFT, NONE)
    QApplication.sendEvent(v.viewport(), enter)
    assert enter.isAccepted()
    QApplication.sendEvent(v.viewport(), QDropEvent(QPointF(at), Qt.DropAction.MoveAction,
                                                    mime, LEFT, NONE))


def drag(v: MapView, start: QPoint, end: QPoint, mods: Qt.KeyboardModifier = NONE) -> None:
    vp = v.viewport()
    QTest.mousePress(vp, LEFT, mods, start)
    for k in range(1, 6):
        QTest.mouseMove(vp, start + (end - start) * (k / 5))
    QTest.mouseRelease(vp, LEFT, mods, end)


FOUR = [piece("a", "0808"), piece("b", "0808", kind="arm"), piece("c", "0808"),
        piece("d", "0808")]


def test_a_click_fans_the_stack_out_and_picks_any_counter(view: MapView, board: HexMap) -> None:
    view.set_pieces(FOUR)
    before = {p.id: view.piece_item(p.id).pos() for p in FOUR}  # type: ignore[union-attr]
    QTest.mouseClick(view.viewport(), LEFT, NONE, at_loc(view, board, "0808"))
    assert view.expanded_stack() == "0808"
    assert view.selected_pieces() == ["d"]  # the top, as before
    # Fanned: every counter at full size, none covering another.
    pos = {p.id: view.piece_item(p.id).pos() for p in FOUR}  # type: ignore[union-attr]
    s = view.map_scene.counter
    for i, a in enumerate(FOUR):
        for b in FOUR[i + 1:]:
            d = pos[a.id] - pos[b.id]
            assert max(abs(d.x()), abs(d.y())) >= s
    assert pos != before
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert view.grab().save(str(SHOTS / "expanded_stack.png"))
    # The bottom counter is a click away; Ctrl adds, Ctrl again removes.
    QTest.mouseClick(view.viewport(), LEFT, NONE, at_piece(view, "a"))
    assert view.selected_pieces() == ["a"]
    QTest.mouseClick(view.viewport(), LEFT, CTRL, at_piece(view, "c"))
    assert view.selected_pieces() == ["a", "c"]
    QTest.mouseClick(view.viewport(), LEFT, CTRL, at_piece(view, "a"))
    assert view.selected_pieces() == ["c"]
    # A click on empty map folds it back.
    QTest.mouseClick(view.viewport(), LEFT, NONE, at_loc(view, board, "0303"))
    assert view.expanded_stack() is None
    assert view.piece_item("a").pos() == before["a"]  # type: ignore[union-attr]


def test_double_click_selects_all_of_a_type(view: MapView, board: HexMap) -> None:
    view.set_pieces(FOUR)
    QTest.mouseClick(view.viewport(), LEFT, NONE, at_loc(view, board, "0808"))
    QTest.mouseDClick(view.viewport(), LEFT, NONE, at_piece(view, "c"))
    assert sorted(view.selected_pieces()) == ["a", "c", "d"]  # the three infantry
    assert view.selected_piece() == "c"


def test_dragging_a_selection_drops_every_piece(view: MapView, board: HexMap,
                                                qtbot: QtBot) -> None:
    view.set_pieces(FOUR)
    view.set_legal_moves({p.id: ("0809", "0909") for p in FOUR}, {})
    QTest.mouseClick(view.viewport(), LEFT, NONE, at_loc(view, board, "0808"))
    QTest.mouseClick(view.viewport(), LEFT, NONE, at_piece(view, "a"))
    QTest.mouseClick(view.viewport(), LEFT, CTRL, at_piece(view, "b"))
    # The selection's legal spaces: those every selected piece may reach.
    assert sorted(h.loc for h in view.highlight_items("legal")) == ["0809", "0909"]
    with qtbot.assertNotEmitted(view.pieceDropped), \
            qtbot.waitSignal(view.piecesDropped) as sig:
        drag(view, at_piece(view, "b"), at_loc(view, board, "0909"))
    assert sig.args == [["a", "b"], "0909"]
    assert view.expanded_stack() is None  # the fan folds once its units are dropped


def test_right_click_and_enter_ask_for_the_menu(view: MapView, board: HexMap,
                                                qtbot: QtBot) -> None:
    view.set_pieces(FOUR)
    p = at_loc(view, board, "0808")
    with qtbot.waitSignal(view.contextRequested) as sig:
        QApplication.sendEvent(view.viewport(), QContextMenuEvent(
            QContextMenuEvent.Reason.Mouse, p, view.viewport().mapToGlobal(p), NONE))
    assert sig.args[:2] == ["0808", "d"]  # the counter right-clicked (the top) is selected
    assert view.selected_pieces() == ["d"]
    e = at_loc(view, board, "1010")
    with qtbot.waitSignal(view.contextRequested) as sig:
        QApplication.sendEvent(view.viewport(), QContextMenuEvent(
            QContextMenuEvent.Reason.Mouse, e, view.viewport().mapToGlobal(e), NONE))
    assert sig.args[:2] == ["1010", ""]  # an empty space: its own menu
    view.setFocus()
    with qtbot.waitSignal(view.contextRequested) as sig:
        QTest.keyClick(view, Qt.Key.Key_Return)
    assert sig.args[:2] == ["0808", "d"]


def test_tab_cycles_through_the_stack(view: MapView, board: HexMap) -> None:
    view.set_pieces(FOUR)
    QTest.mouseClick(view.viewport(), LEFT, NONE, at_loc(view, board, "0808"))
    view.setFocus()
    seen = []
    for _ in range(4):
        QTest.keyClick(view, Qt.Key.Key_Tab)
        seen.append(view.selected_piece())
    assert seen == ["c", "b", "a", "d"]  # top down, then round again
    QTest.keyClick(view, Qt.Key.Key_Backtab)
    assert view.selected_piece() == "a"
    assert view.hasFocus()  # Tab did not move the focus away


def test_pieces_dropped_from_the_stack_dock(view: MapView, board: HexMap, qtbot: QtBot) -> None:
    view.set_pieces(FOUR)
    insp = StackInspector()
    qtbot.addWidget(insp)
    insp.set_stack("0808", FOUR, DEFN)
    insp.list.item(0).setSelected(True)
    insp.list.item(1).setSelected(True)
    mime = insp.list.mimeData(insp.list.selectedItems())
    assert bytes(mime.data(PIECES_MIME).data()).decode().splitlines() == ["d", "c"]
    target = at_loc(view, board, "0910")
    with qtbot.waitSignal(view.piecesDropped) as sig:
        dock_drop(view, target, mime)
    assert sig.args == [["d", "c"], "0910"]
    one = QMimeData()
    one.setData(PIECES_MIME, b"a")
    with qtbot.waitSignal(view.pieceDropped) as sig:
        dock_drop(view, target, one)
    assert sig.args == ["a", "0910"]
    other = QMimeData()
    other.setText("not pieces")
    enter = QDragEnterEvent(target, Qt.DropAction.MoveAction, other, LEFT, NONE)
    QApplication.sendEvent(view.viewport(), enter)
    assert not enter.isAccepted()  # anything else is refused


def test_cargo_rides_on_its_transport(view: MapView, board: HexMap, qtbot: QtBot) -> None:
    ship = piece("t", "0808", kind="arm")
    cargo = [piece("x", "0808", on="t"), piece("y", "0808", on="t")]
    view.set_cargo_attribute("on")
    view.set_pieces([*cargo, ship, piece("z", "0808")])
    t = view.piece_item("t")
    assert t is not None
    for pid in ("x", "y"):
        item = view.piece_item(pid)
        assert item is not None and item.cargo_of == "t" and item.scale() < 1
        assert item.zValue() > t.zValue()  # on it
        assert abs(item.pos().y() - t.pos().y()) < view.map_scene.counter  # beside it
    # A cargo counter is grabbed off its transport directly (to unload it).
    with qtbot.waitSignal(view.pieceDropped) as sig:
        drag(view, at_piece(view, "y"), at_loc(view, board, "0708"))
    assert sig.args == ["y", "0708"]
    # The transport and its cargo selected and dragged: only the transport is dropped
    # (the engine moves its cargo with it).
    QTest.mouseClick(view.viewport(), LEFT, NONE, at_loc(view, board, "0808"))
    assert view.expanded_stack() == "0808"
    QTest.mouseClick(view.viewport(), LEFT, NONE, at_piece(view, "t"))
    QTest.mouseClick(view.viewport(), LEFT, CTRL, at_piece(view, "x"))
    with qtbot.assertNotEmitted(view.piecesDropped), \
            qtbot.waitSignal(view.pieceDropped) as sig:
        drag(view, at_piece(view, "t"), at_loc(view, board, "0809"))
    assert sig.args == ["t", "0809"]


def test_contested_space_badges_markers(view: MapView, board: HexMap) -> None:
    view.set_pieces([piece("a", "0808"), piece("b", "0808"),
                     piece("r1", "0808", side="red"), piece("r2", "0808", side="red"),
                     piece("r3", "0808", side="red"), piece("s", "0505")])
    a, r = view.piece_item("b"), view.piece_item("r3")
    assert a is not None and r is not None
    assert abs(a.pos().x() - r.pos().x()) >= view.map_scene.counter  # both sides visible
    assert a.is_top and a.stack_count == 2  # count badges from two pieces
    assert r.is_top and r.stack_count == 3
    lone = view.piece_item("s")
    assert lone is not None and lone.stack_count == 1
    view.set_battles(["0808"])
    view.set_moved(["a", "b"])
    assert view.battle_markers() == ["0808"]
    assert view.map_scene.moved == frozenset({"a", "b"})
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert view.grab().save(str(SHOTS / "contested_hex.png"))
    view.set_battles([])
    assert view.battle_markers() == []


def test_a_unit_from_the_tray_is_placed_with_a_click(view: MapView, board: HexMap,
                                                     qtbot: QtBot) -> None:
    view.set_pieces([piece("a", "0808")])
    view.set_legal_moves({"new": ("0909", "0808")}, {})
    view.set_placing("new")
    assert sorted(h.loc for h in view.highlight_items("legal")) == ["0808", "0909"]
    with qtbot.assertNotEmitted(view.placeRequested):
        QTest.mouseClick(view.viewport(), LEFT, NONE, at_loc(view, board, "1010"))
    with qtbot.waitSignal(view.placeRequested) as sig:
        QTest.mouseClick(view.viewport(), LEFT, NONE, at_loc(view, board, "0909"))
    assert sig.args == ["new", "0909"]
    with qtbot.waitSignal(view.placeRequested) as sig:  # onto a stack as well
        QTest.mouseClick(view.viewport(), LEFT, NONE, at_loc(view, board, "0808"))
    assert sig.args == ["new", "0808"]
    view.setFocus()
    QTest.keyClick(view, Qt.Key.Key_Escape)
    assert view.placing() is None
