"""The map editor (issue 3): paint terrain, toggle hexside features, rename places by mouse;
save to the player's corrections file, export/import, undo."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QHBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from wartable.core.hexgrid import Hexside
from wartable.engine.rules import Game
from wartable.maps.model import HexMap
from wartable.maps.overrides import MapOverrides, dump_overrides, load_overrides
from wartable.model.state import Piece
from wartable.persistence import gamedata
from wartable.ui.map.view import MapView
from wartable.ui.mapeditor import (
    TOOL_HEXSIDE,
    TOOL_PAINT,
    TOOL_RENAME,
    MapEditor,
    nearest_hexside,
)

MAP_ID = "skirmish/field"
LEFT = Qt.MouseButton.LeftButton
NO_MOD = Qt.KeyboardModifier.NoModifier


@pytest.fixture
def game() -> Iterator[Game]:
    # load_game caches per process: a game cached under another test's WARTABLE_HOME would
    # carry that test's corrections.
    gamedata.forget("skirmish")
    yield gamedata.load_game("skirmish")
    gamedata.forget("skirmish")


@pytest.fixture
def board(game: Game) -> HexMap:
    b = game.maps[MAP_ID]
    assert isinstance(b, HexMap)
    return b


@pytest.fixture
def view(qtbot: QtBot, game: Game, board: HexMap) -> MapView:
    v = MapView()
    qtbot.addWidget(v)
    v.resize(900, 620)
    v.show()
    qtbot.waitExposed(v)
    v.set_board(board, game.definition)
    return v


@pytest.fixture
def editor(qtbot: QtBot, view: MapView, board: HexMap) -> MapEditor:
    e = MapEditor()
    qtbot.addWidget(e)
    e.attach(view, board)
    e.set_active(True)
    return e


def vp(view: MapView, x: float, y: float) -> QPoint:
    return view.viewportTransform().map(QPointF(x, y)).toPoint()


def centre(view: MapView, label: str) -> QPoint:
    assert view.board is not None
    return vp(view, *view.board.center(label))


def edited(view: MapView) -> HexMap:
    assert isinstance(view.board, HexMap)
    return view.board


def test_a_click_paints_the_hex_under_it(editor: MapEditor, view: MapView,
                                         board: HexMap) -> None:
    editor.set_tool(TOOL_PAINT, "forest")
    QTest.mouseClick(view.viewport(), LEFT, NO_MOD, centre(view, "0505"))
    assert edited(view).info("0505").terrain == "forest"
    assert all(edited(view).info(n) == board.info(n) for n in board.neighbors("0505"))
    assert editor.overrides.terrain == {"0505": "forest"}
    assert editor.count_label.text() == "1 correction (unsaved)"


def test_dragging_paints_every_hex_passed(editor: MapEditor, view: MapView,
                                         board: HexMap) -> None:
    editor.set_tool(TOOL_PAINT, "marsh")
    scroll = (view.horizontalScrollBar().value(), view.verticalScrollBar().value())
    vpw = view.viewport()
    QTest.mousePress(vpw, LEFT, NO_MOD, centre(view, "0303"))
    for label in ("0304", "0305"):
        QTest.mouseMove(vpw, centre(view, label))
    QTest.mouseRelease(vpw, LEFT, NO_MOD, centre(view, "0305"))
    assert [edited(view).info(x).terrain for x in ("0303", "0304", "0305", "0306")] == [
        "marsh", "marsh", "marsh", board.info("0306").terrain]
    assert editor.edit_count() == 3
    assert editor.undo() and editor.edit_count() == 0  # one drag, one undo
    assert edited(view) == board
    # The filter ate the drag: the view did not pan.
    assert (view.horizontalScrollBar().value(), view.verticalScrollBar().value()) == scroll


def test_painting_does_not_drag_counters_and_keeps_them(
        qtbot: QtBot, game: Game, editor: MapEditor, view: MapView) -> None:
    side = game.definition.sides[0].id
    utype = next(iter(game.definition.unit_types))
    view.set_pieces([Piece("p1", utype, side, "0808")])
    dropped: list[tuple[str, str]] = []
    view.pieceDropped.connect(lambda p, loc: dropped.append((p, loc)))
    editor.set_tool(TOOL_PAINT, "hill")
    vpw = view.viewport()
    QTest.mousePress(vpw, LEFT, NO_MOD, centre(view, "0808"))
    QTest.mouseMove(vpw, centre(view, "0809"))
    QTest.mouseRelease(vpw, LEFT, NO_MOD, centre(view, "0809"))
    assert dropped == []
    assert edited(view).info("0808").terrain == "hill"
    item = view.piece_item("p1")
    assert item is not None and item.piece.location == "0808"


def test_inactive_editor_leaves_the_mouse_to_the_view(editor: MapEditor, view: MapView) -> None:
    editor.set_active(False)
    clicked: list[str] = []
    view.locationClicked.connect(clicked.append)
    QTest.mouseClick(view.viewport(), LEFT, NO_MOD, centre(view, "0505"))
    assert clicked == ["0505"]
    assert edited(view).info("0505").terrain == "clear"
    assert editor.edit_count() == 0


def test_a_click_near_a_hexside_toggles_its_feature(editor: MapEditor, view: MapView) -> None:
    board = edited(view)
    a, b = "1010", "1011"
    assert board.hexside_features(a, b) == ()
    mx, my = board.layout.hexside_midpoint(Hexside.between(board.hex_of(a), board.hex_of(b)))
    ax, ay = board.center(a)
    # A little inside hex a, as a player clicks on the line.
    near = vp(view, mx + 0.08 * (ax - mx), my + 0.08 * (ay - my))
    editor.set_tool(TOOL_HEXSIDE, "river")
    QTest.mouseClick(view.viewport(), LEFT, NO_MOD, near)
    assert edited(view).hexside_features(a, b) == ("river",)
    assert edited(view).hexside_features(a, "1110") == ()
    editor.set_tool(TOOL_HEXSIDE, "border")
    QTest.mouseClick(view.viewport(), LEFT, NO_MOD, near)
    assert edited(view).hexside_features(a, b) == ("border", "river")
    editor.set_tool(TOOL_HEXSIDE, "river")
    QTest.mouseClick(view.viewport(), LEFT, NO_MOD, near)
    assert edited(view).hexside_features(b, a) == ("border",)


def test_nearest_hexside(board: HexMap) -> None:
    a, b = board.hex_of("1010"), board.hex_of("1011")
    mx, my = board.layout.hexside_midpoint(Hexside.between(a, b))
    cx, cy = board.center("1011")
    assert nearest_hexside(board, mx + 0.1 * (cx - mx), my + 0.1 * (cy - my)) == ("1011", "1010")
    # Near the map's outer edge there is no second hex: nothing, not the next side over.
    x, y = board.center("0101")
    assert nearest_hexside(board, x, y - 0.8) is None
    assert nearest_hexside(board, -50.0, -50.0) is None


def test_rename_a_place_by_clicking_it_and_typing(editor: MapEditor, view: MapView) -> None:
    editor.set_tool(TOOL_RENAME)
    QTest.mouseClick(view.viewport(), LEFT, NO_MOD, centre(view, "1202"))
    assert editor.place_edit.text() == "Brenholm"
    assert [h.loc for h in view.highlight_items("editor")] == ["1202"]
    editor.place_edit.setText("Bren")
    QTest.keyClick(editor.place_edit, Qt.Key.Key_Return)
    assert edited(view).info("1202").places == ("Bren",)
    assert "Brenholm" not in {p.name for p in edited(view).places}
    # Renaming again keeps one entry, keyed by the built map's name.
    assert editor.rename("Bren", "Brenholm-on-Ford")
    assert editor.overrides.renames == {"Brenholm": "Brenholm-on-Ford"}
    assert not editor.rename("Brenholm-on-Ford", "Altberg")  # taken
    assert "already" in editor.status.text()


def test_save_writes_the_corrections_and_the_next_load_uses_them(
        qtbot: QtBot, editor: MapEditor, view: MapView, board: HexMap) -> None:
    editor.paint("0505", "forest")
    editor.toggle_hexside("1010", "1011", "river")
    editor.rename("Brenholm", "Bren")
    path = editor.save()
    assert path == gamedata.user_corrections_path(MAP_ID)
    assert Path(os.environ["WARTABLE_HOME"]) in path.parents
    assert load_overrides(path.read_bytes(), str(path)) == editor.overrides
    assert editor.status.text() == "Saved; the rules use them the next time the game is opened"
    assert editor.count_label.text() == "3 corrections"

    reloaded = gamedata.load_game("skirmish").maps[MAP_ID]
    assert isinstance(reloaded, HexMap)
    assert reloaded.info("0505").terrain == "forest"
    assert reloaded.hexside_features("1010", "1011") == ("river",)
    assert reloaded.info("1202").places == ("Bren",)

    # A new editor on the corrected map starts from the saved corrections and can go on.
    again = MapEditor()
    qtbot.addWidget(again)
    again.attach(view, reloaded)
    assert again.overrides == editor.overrides
    assert edited(view) == reloaded
    assert again.rename("Bren", "Brenholm")
    assert again.overrides.renames == {"Brenholm": "Brenholm"}


def test_export_import_round_trip(qtbot: QtBot, game: Game, editor: MapEditor, view: MapView,
                                  board: HexMap, tmp_path: Path) -> None:
    editor.paint("0505", "water")
    editor.toggle_hexside("1010", "1011", "major_river")
    editor.rename("Carsk", "Karsk")
    out = tmp_path / "shared.overrides.json"
    assert editor.export_to(out)
    expect = edited(view)

    view.set_board(board, game.definition)
    other = MapEditor()
    qtbot.addWidget(other)
    other.attach(view, board)
    assert other.edit_count() == 0
    assert other.import_from(out)
    assert other.overrides == editor.overrides
    assert edited(view) == expect
    assert other.undo()  # an import is one edit
    assert other.edit_count() == 0


def test_importing_another_maps_file_changes_nothing(editor: MapEditor, view: MapView,
                                                     tmp_path: Path) -> None:
    editor.paint("0505", "forest")
    before, shown = editor.overrides, edited(view)
    wrong = tmp_path / "other.overrides.json"
    wrong.write_bytes(dump_overrides(MapOverrides("other/map").with_terrain("0101", "hill")))
    assert not editor.import_from(wrong)
    msg = editor.status.text()
    assert "other/map" in msg and "\n" not in msg
    assert editor.overrides == before and edited(view) == shown

    junk = tmp_path / "junk.json"
    junk.write_text("not json at all")
    assert not editor.import_from(junk)
    assert "not a JSON text file" in editor.status.text()
    unknown = tmp_path / "bad-hex.json"
    unknown.write_bytes(dump_overrides(MapOverrides(MAP_ID).with_terrain("9999", "hill")))
    assert not editor.import_from(unknown)
    assert "9999" in editor.status.text()
    assert editor.overrides == before and edited(view) == shown


def test_undo_steps_back_through_the_edits(editor: MapEditor, view: MapView,
                                           board: HexMap) -> None:
    assert not editor.undo_button.isEnabled()
    editor.paint("0505", "forest")
    editor.paint("0505", "hill")
    editor.toggle_hexside("1010", "1011", "river")
    assert editor.edit_count() == 2
    assert editor.undo()
    assert edited(view).hexside_features("1010", "1011") == ()
    assert editor.undo()
    assert edited(view).info("0505").terrain == "forest"
    QTest.mouseClick(editor.undo_button, LEFT)
    assert edited(view) == board
    assert not editor.undo() and not editor.undo_button.isEnabled()
    assert not editor.paint("0505", "lava")  # not a terrain of this map: no edit, a message
    assert "lava" in editor.status.text() and editor.edit_count() == 0


def test_screenshot(qtbot: QtBot, game: Game, board: HexMap, tmp_path: Path) -> None:
    """The editor beside the map after some edits; WARTABLE_SCREENSHOTS=dir keeps the PNG."""
    w = QWidget()
    qtbot.addWidget(w)
    v = MapView()
    e = MapEditor()
    lay = QHBoxLayout(w)
    lay.addWidget(v, 1)
    lay.addWidget(e)
    w.resize(1280, 720)
    w.show()
    qtbot.waitExposed(w)
    v.set_board(board, game.definition)
    e.attach(v, board)
    e.set_active(True)
    e.set_tool(TOOL_PAINT, "forest")
    vpw = v.viewport()
    QTest.mousePress(vpw, LEFT, NO_MOD, centre(v, "0303"))
    for label in ("0304", "0305", "0405"):
        QTest.mouseMove(vpw, centre(v, label))
    QTest.mouseRelease(vpw, LEFT, NO_MOD, centre(v, "0405"))
    for a, b in (("1010", "1011"), ("1011", "1111"), ("1111", "1112")):
        e.toggle_hexside(a, b, "river")
    e.set_tool(TOOL_RENAME)
    QTest.mouseClick(vpw, LEFT, NO_MOD, centre(v, "1202"))
    qtbot.wait(20)  # let the panel's layout settle before grabbing
    out = Path(os.environ.get("WARTABLE_SCREENSHOTS", tmp_path)) / "map_editor.png"
    assert w.grab().save(str(out))
    assert out.stat().st_size > 10_000


def test_the_main_window_offers_the_map_editor(qtbot: QtBot) -> None:
    """View > Map editor: the dock opens on the current hex map and paints it."""
    from wartable.ui.mainwindow import MainWindow
    from wartable.worker.commands import NewGame

    win = MainWindow(autosave=False, confirm_close=False)
    qtbot.addWidget(win)
    win.show()
    with qtbot.waitSignal(win.client.snapshotReady, timeout=10000):
        win.client.send(NewGame("skirmish", "meeting"))
    win.show_map_editor()
    qtbot.waitUntil(lambda: win.map_editor.is_active(), timeout=5000)
    before = win.map.board.info("0606").terrain
    target = "marsh" if before != "marsh" else "forest"
    assert win.map_editor.paint("0606", target)
    assert win.map.board.info("0606").terrain == target
    win.inspector_dock.raise_()  # another tab in front: the editor lets go of the mouse
    qtbot.waitUntil(lambda: not win.map_editor.is_active(), timeout=5000)
    win.close()
