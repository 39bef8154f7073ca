"""The map view: zoom, fit, hover, drag and drop, highlights, labels by zoom, overview, stacks."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot
from shapely.geometry import box

from wartable.core.frozen import FrozenMap
from wartable.maps.model import AreaMap, HexMap, OffMapBox, Space
from wartable.maps.synthetic import rectangular_hex_map
from wartable.model.definition import Side, UnitType
from wartable.model.state import Piece
from wartable.ui.map.inspector import StackInspector
from wartable.ui.map.items import CostBadgeItem
from wartable.ui.map.overview import OverviewMap
from wartable.ui.map.scale import (
    HEX_PX_AT_100,
    MAX_ZOOM,
    MIN_ZOOM,
    ZOOM_PRESETS,
    hex_across,
    labels_visible,
)
from wartable.ui.map.view import MapView


@dataclass(frozen=True)
class Defn:
    sides: tuple[Side, ...]
    unit_types: FrozenMap[str, UnitType]


DEFN = Defn(
    (Side("blue", "Blue", "#7fa7d9", alt_colour="#4477aa"),
     Side("red", "Red", "#e08070", alt_colour="#ee6677")),
    FrozenMap({u.id: u for u in (UnitType("inf", "Infantry", "infantry", (4, 4), 4, "XX"),
                                 UnitType("arm", "Armour", "armour", (6, 3), 6, "XX"))}),
)


def piece(pid: str, loc: str, side: str = "blue", kind: str = "inf", **attrs: object) -> Piece:
    return Piece(pid, kind, side, loc, FrozenMap(attrs))


@pytest.fixture(scope="module")
def board() -> HexMap:
    return rectangular_hex_map("test/map", 30, 20)


@pytest.fixture
def view(qtbot: QtBot, board: HexMap) -> Iterator[MapView]:
    v = MapView()
    qtbot.addWidget(v)
    v.resize(800, 600)
    v.show()
    qtbot.waitExposed(v)
    v.set_board(board, DEFN)
    yield v


def view_point(view: MapView, board: HexMap, label: str) -> QPoint:
    x, y = board.center(label)
    return view.viewportTransform().map(QPointF(x, y)).toPoint()


def render(view: MapView) -> QImage:
    img = QImage(view.viewport().size(), QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(QColor(0, 0, 0, 0))
    p = QPainter(img)
    view.render(p)
    p.end()
    return img


def wheel(view: MapView, pos: QPointF, notches: float) -> None:
    ev = QWheelEvent(pos, view.viewport().mapToGlobal(pos), QPoint(0, 0),
                     QPoint(0, int(120 * notches)), Qt.MouseButton.NoButton,
                     Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(view.viewport(), ev)


# --- zoom ------------------------------------------------------------------------------------


def test_100_percent_means_a_64_px_hex(view: MapView, board: HexMap) -> None:
    view.set_zoom(100)
    a = view.viewportTransform().map(QPointF(*board.center("0505")))
    b = view.viewportTransform().map(QPointF(*board.center("0506")))  # the hex below
    assert abs((b - a).y()) == pytest.approx(HEX_PX_AT_100, abs=0.01)
    assert hex_across(board) * view.transform().m11() == pytest.approx(64.0)


@pytest.mark.parametrize("pos", [(200.0, 150.0), (611.0, 433.0), (400.0, 300.0)])
def test_wheel_zooms_at_the_cursor(view: MapView, pos: tuple[float, float]) -> None:
    view.set_zoom(150)
    view.center_on_location("1510")
    p = QPointF(*pos)
    for notches in (1, 2, -1, 3, -2, 0.5):
        before = view.scene_point(p)
        wheel(view, p, notches)
        after = view.viewportTransform().map(before)
        assert abs(after.x() - p.x()) <= 1.0 and abs(after.y() - p.y()) <= 1.0, notches
    assert view.zoom_percent() == pytest.approx(150 * 1.15 ** 3.5)


def test_set_zoom_anchor_and_signal(view: MapView, qtbot: QtBot) -> None:
    view.set_zoom(200)
    anchor = QPointF(100, 500)
    before = view.scene_point(anchor)
    with qtbot.waitSignal(view.zoomChanged) as sig:
        view.set_zoom(300, anchor)
    assert sig.args == [300.0]
    after = view.viewportTransform().map(before)
    assert abs(after.x() - 100) <= 1 and abs(after.y() - 500) <= 1


def test_presets_step_and_clamp(view: MapView) -> None:
    view.set_zoom(100)
    view.zoom_in()
    assert view.zoom_percent() == 150
    view.zoom_in()
    assert view.zoom_percent() == 200
    view.set_zoom(110)
    view.zoom_in()
    assert view.zoom_percent() == 150
    view.set_zoom(110)
    view.zoom_out()
    assert view.zoom_percent() == 100
    view.set_zoom(600)
    view.zoom_in()
    assert view.zoom_percent() == 800
    view.zoom_in()
    assert view.zoom_percent() == MAX_ZOOM
    view.set_zoom(25)
    view.zoom_out()
    assert view.zoom_percent() == MIN_ZOOM
    view.zoom_out()
    assert view.zoom_percent() == MIN_ZOOM
    view.set_zoom(3)
    assert view.zoom_percent() == 10
    view.set_zoom(5000)
    assert view.zoom_percent() == 800
    # Walking up from the minimum visits every preset in order.
    view.set_zoom(MIN_ZOOM)
    seen = []
    for _ in ZOOM_PRESETS:
        view.zoom_in()
        seen.append(view.zoom_percent())
    assert tuple(seen) == ZOOM_PRESETS


def test_keys_zoom_and_pan(view: MapView) -> None:
    view.set_zoom(100)
    QTest.keyClick(view, Qt.Key.Key_Plus)
    assert view.zoom_percent() == 150
    QTest.keyClick(view, Qt.Key.Key_Minus)
    assert view.zoom_percent() == 100
    h = view.horizontalScrollBar().value()
    QTest.keyClick(view, Qt.Key.Key_Right)
    assert view.horizontalScrollBar().value() > h
    QTest.keyClick(view, Qt.Key.Key_Home)
    assert view.visible_scene_rect().contains(view.map_scene.map_rect)


def test_fit_shows_the_whole_map(view: MapView) -> None:
    view.set_zoom(400)
    view.fit()
    visible = view.visible_scene_rect()
    assert visible.contains(view.map_scene.map_rect)
    # ...and fills the view: no more than a few percent of slack on the tighter axis.
    r = view.map_scene.map_rect
    assert max(r.width() / visible.width(), r.height() / visible.height()) > 0.95


def test_center_on_location(view: MapView, board: HexMap) -> None:
    view.set_zoom(300)
    view.center_on_location("2010")
    c = view.visible_scene_rect().center()
    x, y = board.center("2010")
    assert abs(c.x() - x) < 0.1 and abs(c.y() - y) < 0.1


# --- hover, click, drag -------------------------------------------------------------------------


def test_hover_emits_the_hex_description(view: MapView, board: HexMap, qtbot: QtBot) -> None:
    view.set_zoom(200)
    view.center_on_location("0707")
    QTest.mouseMove(view.viewport(), view_point(view, board, "0808"))
    with qtbot.waitSignal(view.hoverChanged) as sig:
        QTest.mouseMove(view.viewport(), view_point(view, board, "0707"))
    assert sig.args == [board.describe("0707")]
    assert sig.args[0].startswith("0707")


def test_hover_on_a_box_gives_its_name(view: MapView, board: HexMap, qtbot: QtBot) -> None:
    b = board.boxes[0]
    view.set_zoom(100)
    view.centerOn(QPointF(*b.center()))
    with qtbot.waitSignal(view.hoverChanged) as sig:
        QTest.mouseMove(view.viewport(),
                        view.viewportTransform().map(QPointF(*b.center())).toPoint())
    assert sig.args == [b.name]


def drag(view: MapView, start: QPoint, end: QPoint,
         modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier,
         before_release: list[int] | None = None) -> None:
    vp = view.viewport()
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, modifier, start)
    for k in range(1, 6):
        QTest.mouseMove(vp, start + (end - start) * (k / 5))
    if before_release is not None:
        before_release.append(len(view.highlight_items("legal")))
        before_release.append(len(view.cost_badges()))
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, modifier, end)


def test_dragging_a_counter_emits_piece_dropped(view: MapView, board: HexMap,
                                                qtbot: QtBot) -> None:
    view.set_zoom(200)
    view.center_on_location("0808")
    view.set_pieces([piece("a", "0808"), piece("b", "0808", kind="arm")])
    legal = ("0809", "0909", "1009", "1010")
    view.set_legal_moves({"b": legal}, {"b": {"0809": 1, "0909": 2, "1009": 2.5, "1010": 3}})
    counts: list[int] = []
    with qtbot.waitSignal(view.pieceDropped) as sig:
        drag(view, view_point(view, board, "0808"), view_point(view, board, "1009"),
             before_release=counts)
    assert sig.args == ["b", "1009"]  # the top of the stack, onto the hex under the cursor
    # While dragging: one highlight and one cost badge per legal destination.
    assert counts == [len(legal), len(legal)]
    # Afterwards the highlights are gone and the counter is back until set_pieces moves it.
    assert view.highlight_items("legal") == [] and view.cost_badges() == []
    item = view.piece_item("b")
    assert item is not None
    x, y = board.center("0808")
    assert abs(item.pos().x() - x) < 0.3 and abs(item.pos().y() - y) < 0.3
    view.set_pieces([piece("a", "0808"), piece("b", "1009", kind="arm")])
    assert view.piece_item("b") is item  # reused
    x, y = board.center("1009")
    assert abs(item.pos().x() - x) < 1e-6 and abs(item.pos().y() - y) < 1e-6


def test_an_illegal_drop_is_still_reported(view: MapView, board: HexMap, qtbot: QtBot) -> None:
    view.set_zoom(150)
    view.center_on_location("0505")
    view.set_pieces([piece("a", "0505")])
    with qtbot.waitSignal(view.pieceDropped) as sig:
        drag(view, view_point(view, board, "0505"), view_point(view, board, "0808"))
    assert sig.args == ["a", "0808"]  # the engine decides, and the window shows its reason


def test_shift_drag_moves_the_stack(view: MapView, board: HexMap, qtbot: QtBot) -> None:
    view.set_zoom(150)
    view.center_on_location("0505")
    view.set_pieces([piece("a", "0505"), piece("b", "0505"), piece("c", "0606")])
    with qtbot.assertNotEmitted(view.pieceDropped), \
            qtbot.waitSignal(view.stackDropped) as sig:
        drag(view, view_point(view, board, "0505"), view_point(view, board, "0607"),
             Qt.KeyboardModifier.ShiftModifier)
    assert sig.args == ["0505", "0607"]


def test_click_on_a_stack(view: MapView, board: HexMap, qtbot: QtBot) -> None:
    view.set_zoom(150)
    view.center_on_location("0505")
    view.set_pieces([piece("a", "0505"), piece("b", "0505")])
    view.set_legal_moves({"b": ("0506", "0606")}, {"b": {"0506": 1, "0606": 1}})
    got: list[tuple[str, str]] = []
    view.pieceSelected.connect(lambda pid: got.append(("piece", pid)))
    view.locationClicked.connect(lambda loc: got.append(("location", loc)))
    view.stackClicked.connect(lambda loc: got.append(("stack", loc)))
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                     Qt.KeyboardModifier.NoModifier, view_point(view, board, "0505"))
    assert got == [("piece", "b"), ("location", "0505"), ("stack", "0505")]
    assert view.selected_piece() == "b"
    # The selected piece shows its legal moves.
    assert sorted(h.loc for h in view.highlight_items("legal")) == ["0506", "0606"]
    item = view.piece_item("b")
    assert item is not None and item.selected


def test_click_on_empty_map_emits_location(view: MapView, board: HexMap, qtbot: QtBot) -> None:
    view.set_zoom(150)
    view.center_on_location("1010")
    with qtbot.waitSignal(view.locationClicked) as sig:
        QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                         Qt.KeyboardModifier.NoModifier, view_point(view, board, "1010"))
    assert sig.args == ["1010"]


def test_drag_on_empty_map_pans(view: MapView, board: HexMap) -> None:
    view.set_zoom(200)
    view.center_on_location("1010")
    before = view.visible_scene_rect().center()
    start = view_point(view, board, "1010")
    vp = view.viewport()
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    for k in range(1, 6):
        QTest.mouseMove(vp, start + QPoint(-20 * k, -10 * k))
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                       start + QPoint(-100, -50))
    after = view.visible_scene_rect().center()
    scale = view.transform().m11()
    assert (after.x() - before.x()) * scale == pytest.approx(100, abs=2)
    assert (after.y() - before.y()) * scale == pytest.approx(50, abs=2)


# --- pieces, highlights ---------------------------------------------------------------------------


def test_set_pieces_reuses_items_and_stacks(view: MapView) -> None:
    pieces = [piece(f"p{i}", "0303") for i in range(6)] + [piece("x", "0404", "red")]
    view.set_pieces(pieces)
    items = {pid: view.piece_item(pid) for pid in ("p0", "x")}
    top = view.piece_item("p5")
    assert top is not None and top.is_top and top.stack_count == 6  # gets the count badge
    bottom = view.piece_item("p0")
    assert bottom is not None and not bottom.is_top
    assert bottom.zValue() < top.zValue()
    assert bottom.pos() != top.pos()  # offset diagonally
    view.set_pieces(pieces[:1] + [piece("x", "0505", "red")])
    assert view.piece_item("p0") is items["p0"] and view.piece_item("x") is items["x"]
    assert view.piece_item("p5") is None
    assert len(view.map_scene.piece_items) == 2


def test_set_highlights_by_kind(view: MapView) -> None:
    view.set_highlights(["0101", "0102", "nowhere"], "attack")
    view.set_highlights(["0303"], "target")
    assert sorted(h.loc for h in view.highlight_items("attack")) == ["0101", "0102"]
    assert len(view.highlight_items()) == 3
    view.set_highlights([], "attack")
    assert [h.kind for h in view.highlight_items()] == ["target"]


def test_palette_switch_redraws_counters(view: MapView) -> None:
    view.set_zoom(400)
    view.center_on_location("0505")
    view.set_pieces([piece("a", "0505")])
    def colour_at_counter() -> QColor:
        img = render(view)
        c = view.viewportTransform().map(QPointF(*view.board.center("0505")))  # type: ignore[union-attr]
        s = view.map_scene.counter * view.transform().m11()
        return img.pixelColor(int(c.x() + 0.4 * s), int(c.y()))
    standard = colour_at_counter()
    view.set_palette("colourblind")
    cb = colour_at_counter()
    assert standard.name() != cb.name()
    assert abs(cb.red() - 0x44) < 8 and abs(cb.blue() - 0xAA) < 8
    with pytest.raises(ValueError):
        view.set_palette("neon")  # type: ignore[arg-type]


# --- labels by level of detail ------------------------------------------------------------------


def test_labels_only_when_legible(view: MapView, board: HexMap) -> None:
    scale100 = view.base_scale()
    assert not labels_visible(board, scale100 * 0.25)  # a 16 px hex
    assert labels_visible(board, scale100 * 2.0)  # a 128 px hex
    assert labels_visible(board, scale100 * 0.57) and not labels_visible(board, scale100 * 0.55)
    labels = view.map_scene.labels
    assert labels is not None
    view.set_zoom(25)
    render(view)
    assert labels.drawn == 0
    view.set_zoom(200)
    view.center_on_location("1010")
    render(view)
    # Only the hexes in view are labelled: a 800x600 view at 200 % shows about 6 x 5 hexes.
    assert 20 <= labels.drawn <= 80


def test_render_is_not_empty(view: MapView) -> None:
    view.set_pieces([piece("a", "0505")])
    for z in (25, 100, 400):
        view.set_zoom(z)
        img = render(view)
        colours = {img.pixel(x, y) for x in range(0, img.width(), 37)
                   for y in range(0, img.height(), 29)}
        assert len(colours) > 3, z


# --- overview ---------------------------------------------------------------------------------


def test_overview_click_recentres_the_view(view: MapView, qtbot: QtBot) -> None:
    ov = OverviewMap(view)
    qtbot.addWidget(ov)
    ov.resize(300, 200)
    ov.show()
    qtbot.waitExposed(ov)
    view.set_zoom(300)
    view.center_on_location("0303")
    ov.grab()
    assert ov.renders == 1
    r = view.map_scene.map_rect
    # Click at three quarters across and half-way down the map's image.
    t = ov._map_target()
    QTest.mouseClick(ov, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     QPoint(int(t.left() + 0.75 * t.width()), int(t.center().y())))
    c = view.visible_scene_rect().center()
    assert c.x() == pytest.approx(r.left() + 0.75 * r.width(), abs=r.width() / 100)
    assert c.y() == pytest.approx(r.center().y(), abs=r.height() / 50)
    ov.grab()
    assert ov.renders == 1  # panning does not re-render the map image


# --- stack inspector ----------------------------------------------------------------------------


def test_stack_inspector_lists_pieces(qtbot: QtBot) -> None:
    insp = StackInspector()
    qtbot.addWidget(insp)
    pieces = [piece("a", "0505", name="3rd"), piece("b", "0505", "red", "arm", step=2)]
    # The step reads in the game's words (its piece notes), not as "step: 2" (issue 16).
    insp.set_stack("0505", pieces, DEFN, notes={"b": ("Reduced (second step)",)})
    assert insp.piece_ids() == ["b", "a"]  # top of the stack first
    texts = [insp.list.item(i).text() for i in range(insp.list.count())]
    assert "Armour" in texts[0] and "6-3-6" in texts[0]
    assert "Reduced (second step)" in texts[0] and "step: 2" not in texts[0]
    assert texts[1].startswith("3rd") and "Blue Infantry" in texts[1]
    assert not insp.list.item(0).icon().isNull()
    assert "0505" in insp.title.text()
    with qtbot.waitSignal(insp.pieceSelected) as sig:
        insp.list.setCurrentRow(1)
    assert sig.args == ["a"]
    with qtbot.assertNotEmitted(insp.pieceSelected):
        insp.select("b")
    insp.set_stack("", [], DEFN)
    assert insp.list.count() == 0


# --- area maps ------------------------------------------------------------------------------------


def small_area_map() -> AreaMap:
    spaces = {
        "west": Space("west", "Westland", "land", box(0, 0, 100, 100), (50, 50)),
        "east": Space("east", "Eastland", "land", box(100, 0, 200, 100), (150, 50)),
        "sea": Space("sea", "North Sea", "sea", box(0, -80, 200, 0), (100, -40)),
    }
    adj = frozenset({frozenset(("west", "east")), frozenset(("west", "sea")),
                     frozenset(("east", "sea"))})
    return AreaMap("test/area", "Area", 1, FrozenMap(spaces), adj,
                   boxes=(OffMapBox("pool", "Pool", 220, 0, 60, 40),))


def test_area_map_view(qtbot: QtBot) -> None:
    amap = small_area_map()
    v = MapView()
    qtbot.addWidget(v)
    v.resize(800, 600)
    v.show()
    qtbot.waitExposed(v)
    v.set_board(amap, DEFN)
    assert v.visible_scene_rect().contains(v.map_scene.map_rect)
    v.set_pieces([piece("a", "west"), piece("b", "box:pool", "red")])
    img = render(v)
    assert not img.isNull()
    assert v.map_scene.labels is not None and v.map_scene.labels.drawn == 3
    p = v.viewportTransform().map(QPointF(150, 60)).toPoint()
    with qtbot.waitSignal(v.hoverChanged) as sig:
        QTest.mouseMove(v.viewport(), p)
    assert sig.args == ["Eastland (land)"]
    with qtbot.waitSignal(v.pieceDropped) as sig2:
        drag(v, v.viewportTransform().map(QPointF(50, 50)).toPoint(), p)
    assert sig2.args == ["a", "east"]


def test_cost_badges_format(view: MapView) -> None:
    view.set_pieces([piece("a", "0505")])
    view.set_legal_moves({"a": ("0506", "0606")}, {"a": {"0506": 1.0, "0606": 2.5}})
    view.select_piece("a")
    badges = sorted((b.loc, b.text) for b in view.cost_badges())
    assert badges == [("0506", "1"), ("0606", "2.5")]
    assert all(isinstance(b, CostBadgeItem) for b in view.cost_badges())
    view.select_piece(None)
    assert view.cost_badges() == []


def test_pieces_in_a_box_lie_side_by_side(view: MapView, board: HexMap, qtbot: QtBot) -> None:
    b = board.boxes[0]
    loc = "box:" + b.id
    view.set_pieces([piece(f"e{i}", loc) for i in range(5)])
    items = [view.piece_item(f"e{i}") for i in range(5)]
    xs = {round(it.pos().x(), 3) for it in items if it is not None}
    assert len(xs) >= 3  # a row, not a stack
    for it in items:
        assert it is not None and b.contains(it.pos().x(), it.pos().y())
    # Dragging one out of the box moves that piece, not the "top" one.
    view.set_zoom(150)
    view.centerOn(QPointF(*b.center()))
    second = items[1]
    assert second is not None
    start = view.viewportTransform().map(second.pos()).toPoint()
    with qtbot.waitSignal(view.pieceDropped) as sig:
        drag(view, start, view_point(view, board, "3005"))
    assert sig.args == ["e1", "3005"]


def test_place_names_never_overlap_and_the_capital_keeps_its_name(qtbot: QtBot,
                                                                  board: HexMap) -> None:
    """Issue 3: place names at middle zoom. Five long names crowd four neighbouring hexes
    around a capital; every drawn name's box is clear of every other, and the capital's
    name (the most important) is among them, below its symbol."""
    import dataclasses

    from wartable.maps.model import Place

    crowd = (Place("Zentralhauptstadt", "capital", "1010"),
             Place("Nordwestlichdorf", "town", "1009"),
             Place("Suedoestlichdorf", "town", "1011"),
             Place("Westlicherhafen", "port", "0910"),
             Place("Oestlichefestung", "fortress", "1110"))
    from wartable.maps.model import places_index

    index = places_index(crowd)
    hexes = {h: dataclasses.replace(info, places=index.get(board.label_of(h), ()))
             for h, info in board.hexes.items()}
    crowded = dataclasses.replace(board, places=crowd, hexes=FrozenMap(hexes))
    v = MapView()
    qtbot.addWidget(v)
    v.resize(800, 600)
    v.show()
    qtbot.waitExposed(v)
    v.set_board(crowded, DEFN)
    v.set_zoom(40)  # a 25.6 px hex: names are shown (from 24 px), far wider than the hexes
    v.center_on_location("1010")
    render(v)
    labels = v.map_scene.labels
    assert labels is not None
    drawn = labels.placed
    names = [n for n, _ in drawn]
    assert "Zentralhauptstadt" in names and 1 <= len(drawn) < 5
    for i, (_, a) in enumerate(drawn):
        for _, b in drawn[i + 1:]:
            assert not a.intersects(b)
    cap = dict(drawn)["Zentralhauptstadt"]
    centre = v.viewportTransform().map(QPointF(*crowded.center("1010")))
    assert cap.top() > centre.y() and abs(cap.center().x() - centre.x()) < 1.0
    # Zoomed in far enough, every name finds room.
    v.set_zoom(400)
    v.center_on_location("1010")
    render(v)
    assert sorted(n for n, _ in labels.placed) == sorted(p.name for p in crowd)
