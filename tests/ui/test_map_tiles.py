"""The map's tile cache (issue 20): tiles look like the map drawn directly, an edit redraws only
the tiles it touches, zooming never shows a blank or waits for a drawing, memory is bounded."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from wartable.engine.rules import Game
from wartable.maps.model import HexMap
from wartable.persistence import gamedata
from wartable.ui.map.style import BACKGROUND
from wartable.ui.map.tiles import TILE_BYTES, TileKey, wait_for_tiles
from wartable.ui.map.view import MapView
from wartable.ui.mapeditor import TOOL_PAINT, MapEditor

MAP_ID = "skirmish/field"


@pytest.fixture
def game() -> Iterator[Game]:
    gamedata.forget("skirmish")  # another test's corrections must not leak in
    yield gamedata.load_game("skirmish")
    gamedata.forget("skirmish")


@pytest.fixture
def view(qtbot: QtBot, game: Game) -> MapView:
    v = MapView()
    qtbot.addWidget(v)
    v.resize(900, 620)
    v.show()
    qtbot.waitExposed(v)
    v.set_board(game.maps[MAP_ID], game.definition)
    return v


def settle(view: MapView) -> None:
    """Paint, let the workers draw every tile asked for, deliver them, paint again."""
    view.viewport().repaint()
    for _ in range(100):
        wait_for_tiles()
        QApplication.processEvents()
        if not view.map_scene.tiles.pending:
            break
    assert not view.map_scene.tiles.pending
    view.viewport().repaint()


def on_screen(view: MapView) -> QImage:
    """What the viewport shows (its paint event, tiles and all)."""
    return view.viewport().grab().toImage().convertToFormat(QImage.Format.Format_RGB32)


def drawn_directly(view: MapView) -> QImage:
    """The same view drawn from geometry (QGraphicsView.render into an image)."""
    img = QImage(view.viewport().size(), QImage.Format.Format_RGB32)
    img.fill(QColor(BACKGROUND))
    p = QPainter(img)
    p.setRenderHints(view.renderHints())
    view.render(p)
    p.end()
    return img


def differing(a: QImage, b: QImage, rect: QRectF | None = None, step: int = 2) -> float:
    """The fraction of sampled pixels that differ clearly (any channel by more than 40)."""
    r = rect.toAlignedRect() if rect is not None else a.rect()
    r = r.intersected(a.rect())
    n = diff = 0
    for y in range(r.top(), r.bottom() + 1, step):
        for x in range(r.left(), r.right() + 1, step):
            n += 1
            p, q = a.pixel(x, y), b.pixel(x, y)
            if max(abs(((p >> s) & 255) - ((q >> s) & 255)) for s in (0, 8, 16)) > 40:
                diff += 1
    return diff / max(n, 1)


@pytest.mark.parametrize("zoom", [None, 100.0, 400.0])
def test_tiles_show_what_drawing_the_map_directly_shows(view: MapView,
                                                        zoom: float | None) -> None:
    if zoom is None:
        view.fit()
    else:
        view.set_zoom(zoom)
        view.center_on_location("0505")
    settle(view)
    cache = view.map_scene.tiles
    assert cache.frame_keys and all(cache.image(k) is not None for k in cache.frame_keys)
    # Lines and text may sit half a pixel apart (tiles are pixel-aligned); nothing else.
    assert differing(on_screen(view), drawn_directly(view)) < 0.03


def test_painting_a_hex_in_the_editor_redraws_only_its_tiles(qtbot: QtBot,
                                                              view: MapView) -> None:
    editor = MapEditor()
    qtbot.addWidget(editor)
    board = view.board
    assert isinstance(board, HexMap)
    editor.attach(view, board)
    editor.set_active(True)
    view.set_zoom(200)
    view.center_on_location("0505")
    settle(view)
    cache = view.map_scene.tiles
    shown = set(cache.frame_keys)
    before = on_screen(view)
    cache.rendered.clear()
    editor.set_tool(TOOL_PAINT, "forest")
    x, y = board.center("0505")
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                     Qt.KeyboardModifier.NoModifier,
                     view.viewportTransform().map(QPointF(x, y)).toPoint())
    edited = view.board
    assert isinstance(edited, HexMap) and edited.info("0505").terrain == "forest"
    settle(view)
    after = on_screen(view)
    # Only the tiles over the painted hex were drawn again: 1-4 of the frame's tiles.
    r = 0.6 * view.map_scene.cell
    hex_rect = QRectF(x - r, y - r, 2 * r, 2 * r)
    redrawn = set(cache.rendered)
    assert redrawn and len(redrawn) <= 4 < len(shown)
    assert all(k.rect().intersects(hex_rect) for k in redrawn)
    assert redrawn <= shown
    # The hex shows its new terrain; the map away from it is unchanged, pixel for pixel.
    on_vp = view.viewportTransform().mapRect(hex_rect)
    assert differing(before, after, on_vp.adjusted(8, 8, -8, -8), 1) > 0.4
    far = QRectF(on_vp.right() + 260, 0, 200, after.height())
    assert differing(before, after, far, 1) == 0.0


def wheel(view: MapView, notches: int) -> None:
    """A real wheel event at the viewport's centre (what a mouse wheel sends)."""
    c = QPointF(view.viewport().width() / 2, view.viewport().height() / 2)
    ev = QWheelEvent(c, QPointF(view.viewport().mapToGlobal(c.toPoint())), QPoint(0, 0),
                     QPoint(0, 120 * notches), Qt.MouseButton.NoButton,
                     Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(view.viewport(), ev)


def blank_blocks(shown: QImage, truth: QImage, size: int = 24) -> int:
    """Blocks where the map should be but only the background shows."""
    bg = QColor(BACKGROUND).rgb() & 0xFFFFFF
    blank = 0
    for by in range(0, shown.height() - size, size):
        for bx in range(0, shown.width() - size, size):
            pts = [(bx + dx, by + dy) for dx in range(0, size, 6) for dy in range(0, size, 6)]
            if all(shown.pixel(x, y) & 0xFFFFFF == bg for x, y in pts) and \
                    any(truth.pixel(x, y) & 0xFFFFFF != bg for x, y in pts):
                blank += 1
    return blank


def test_zooming_shows_the_nearest_level_scaled_at_once_never_blank(view: MapView) -> None:
    view.set_zoom(100)
    view.center_on_location("0505")
    settle(view)  # this level and the whole-map base level are drawn
    cache = view.map_scene.tiles
    for notches in (3, 3, -8, -4):  # in, further in, out past the start, out to the base
        direct = cache.direct
        fallbacks = cache.fallbacks
        wheel(view, notches)
        shown = on_screen(view)  # before any worker's tile of the new level is delivered
        assert cache.direct == direct  # nothing had to be drawn from geometry (no wait)
        assert cache.fallbacks > fallbacks  # the new level's tiles came from another level
        assert blank_blocks(shown, drawn_directly(view)) == 0
        settle(view)
        assert differing(on_screen(view), drawn_directly(view)) < 0.03  # then sharp


def test_the_tile_cache_stays_within_its_budget(view: MapView) -> None:
    cache = view.map_scene.tiles
    cache.budget = 24 * TILE_BYTES
    for zoom in (100.0, 150.0, 300.0):
        view.set_zoom(zoom)
        for loc in ("0303", "0909", "0505"):
            view.center_on_location(loc)
            settle(view)
            kept = set(cache.tiles) | set(cache.stale)
            pinned = {k for k in kept if (k.level, k.dpr) in cache.pinned}
            assert len(kept - pinned - cache.frame_keys) * TILE_BYTES <= cache.budget
            assert all(isinstance(k, TileKey) for k in kept)
    # Tiles of the frame on screen are never evicted, however small the budget.
    assert all(k in cache.tiles for k in cache.frame_keys)
