"""The static map as cached tiles: rasterised per zoom level on worker threads, then blitted.

A frame of the map view blits 256-px tiles of the static layers (terrain, underlay, hexsides,
grid, places, labels) at the view's exact scale and device pixel ratio, so text stays as sharp
as drawing it directly. A tile nobody has drawn yet is requested from a small thread pool
(QImage painting is thread-safe) and, for this frame, shown from the nearest zoom level's tiles
scaled (blurry for a moment, never blank); only when no level covers it (the very first frame
of a board) is it drawn from geometry, as every frame was before. A low-resolution *base
level* of the whole map is drawn in the background after a board is set, so zooming out always
has something to scale.

Invalidation is by scene rectangle (`invalidate`): an edit of the map, a new underlay. Tiles of
the current level there stay on screen (stale) until their new image arrives; tiles of other
levels there are dropped. A new board drops everything (its epoch discards late results).

Memory: tiles are kept most-recently-used first within `TILE_BUDGET_MB` (the tiles of the frame
on screen and the base level are never evicted), about 5 full 1600x1000 screenfuls.

PySide6 keeps the GIL while a Qt call runs (measured: a 2 s QPainter call in a worker stalls
the GUI thread's Python for 2 s), so the workers give concurrency, not parallelism: tiles are
small and drawn layer by layer, and the workers start no tile for QUIET_S after each zoom or
scroll step (`hold_workers`), so frames during a zoom or a pan do not wait behind them.
"""

from __future__ import annotations

import atexit
import heapq
import math
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

import shiboken6
from PySide6.QtCore import QObject, QPointF, QRectF, QRunnable, Qt, QThreadPool, Signal
from PySide6.QtGui import QColor, QImage, QPainter, QTransform
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsScene,
    QStyleOptionGraphicsItem,
    QWidget,
)

from wartable.ui.map.layers import StaticMap
from wartable.ui.map.scale import lod_of, visible_rect
from wartable.ui.map.style import BACKGROUND, Z_TERRAIN
from wartable.ui.map.text import TextCache

TILE_PX = 256  # a tile's side in device pixels
TILE_BYTES = TILE_PX * TILE_PX * 4
TILE_BUDGET_MB = 48
BASE_LEVEL_PX = 2048  # the base level draws the whole map this many device pixels across
WORKERS = 2
# Workers hold the GIL through each Qt call; a short switch interval lets the GUI thread in
# between calls sooner (Python's default is 5 ms).
SWITCH_INTERVAL_S = 0.001
QUIET_S = 0.04  # workers pause this long after each zoom or scroll step of the view



@dataclass(eq=False)
class _Job:
    cache: TileCache
    static: StaticMap
    key: TileKey
    epoch: int
    gen: int
    cancelled: bool = False


class _Queue(QObject):
    """The tiles waiting to be drawn (most urgent first) and the workers that draw them.

    Workers are QRunnables that Qt deletes when they return (no Python reference is kept:
    PySide hands them to the pool); each takes jobs until the queue is empty. Results come
    back to the GUI thread as a queued signal on this object, which lives as long as the app.
    """

    finished = Signal(object, object)  # _Job, QImage

    def __init__(self) -> None:
        super().__init__()
        self.lock = threading.Lock()
        self.heap: list[tuple[int, int, _Job]] = []
        self.seq = 0
        self.workers = 0
        self.quiet_until = 0.0  # monotonic time before which workers start no tile
        self.pool = QThreadPool()
        self.pool.setMaxThreadCount(WORKERS)
        self.finished.connect(self._deliver)

    def push(self, job: _Job, priority: int) -> None:
        with self.lock:
            self.seq += 1
            heapq.heappush(self.heap, (-priority, self.seq, job))
            start = self.workers < WORKERS
            if start:
                self.workers += 1
        if start:
            self.pool.start(_Worker(self))

    def hold(self, seconds: float = QUIET_S) -> None:
        """Keep the workers from starting a tile for a moment: the view is being zoomed or
        panned, and its frames should not wait for the GIL behind a worker's long Qt call."""
        self.quiet_until = time.monotonic() + seconds

    def take(self) -> _Job | None:
        while (wait := self.quiet_until - time.monotonic()) > 0:
            time.sleep(min(wait, QUIET_S))  # sleeping releases the GIL
        with self.lock:
            while self.heap:
                job = heapq.heappop(self.heap)[2]
                if not job.cancelled:
                    return job
            self.workers -= 1
            return None

    def _deliver(self, job: _Job, img: QImage) -> None:
        job.cache.finished(job, img)


class _Worker(QRunnable):
    def __init__(self, queue: _Queue) -> None:
        super().__init__()
        self.queue = queue

    def run(self) -> None:
        texts = getattr(_LOCAL, "texts", None)
        if texts is None:  # fonts and static texts are per thread
            texts = _LOCAL.texts = TextCache()
        while (job := self.queue.take()) is not None:
            if not job.cancelled:
                self.queue.finished.emit(job, render_tile(job.static, job.key, texts))


_QUEUE: _Queue | None = None
_LOCAL = threading.local()


def _queue() -> _Queue:
    global _QUEUE
    if _QUEUE is None:
        _QUEUE = _Queue()
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL_S))
        atexit.register(_drain)
    return _QUEUE


def _drain() -> None:
    """Drop queued tiles and wait for the running ones (before Python shuts down)."""
    if _QUEUE is not None:
        with _QUEUE.lock:
            for _, _, job in _QUEUE.heap:
                job.cancelled = True
        _QUEUE.pool.waitForDone()


def hold_workers() -> None:
    """The view moved: let its next frames run before any new tile is started."""
    _queue().hold()


def wait_for_tiles(timeout_ms: int = 10000) -> bool:
    """Block until no tile is queued or being drawn (tests and benchmarks); the results are
    delivered as queued signals, so process events afterwards."""
    return _queue().pool.waitForDone(timeout_ms)


def level_of(scale: float) -> float:
    """A zoom level's key: device pixels per map unit, to 6 significant digits."""
    return round(scale, 5 - math.floor(math.log10(scale))) if scale > 0 else 0.0


class TileKey(NamedTuple):  # a tuple: hashed many times a frame
    level: float  # device pixels per map unit
    dpr: float  # device pixel ratio the tile is drawn for (labels are sized in logical px)
    i: int
    j: int

    def rect(self) -> QRectF:
        """The scene rectangle the tile covers."""
        s = TILE_PX / self.level
        return QRectF(self.i * s, self.j * s, s, s)


def keys_for(level: float, dpr: float, rect: QRectF) -> list[TileKey]:
    """The tiles of a level covering a scene rectangle."""
    if rect.isEmpty():
        return []
    i0 = math.floor(rect.left() * level / TILE_PX)
    i1 = math.ceil(rect.right() * level / TILE_PX)
    j0 = math.floor(rect.top() * level / TILE_PX)
    j1 = math.ceil(rect.bottom() * level / TILE_PX)
    return [TileKey(level, dpr, i, j) for j in range(j0, j1) for i in range(i0, i1)]


def render_tile(static: StaticMap, key: TileKey, texts: TextCache) -> QImage:
    """One tile of the static map, opaque (the view's background where there is no map)."""
    img = QImage(TILE_PX, TILE_PX, QImage.Format.Format_RGB32)
    img.setDevicePixelRatio(key.dpr)
    img.fill(QColor(BACKGROUND))
    p = QPainter(img)
    p.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing
                     | QPainter.RenderHint.SmoothPixmapTransform)
    lod = key.level / key.dpr  # logical pixels per map unit, what the layers size things by
    off = TILE_PX / key.dpr
    p.setWorldTransform(QTransform(lod, 0, 0, lod, -key.i * off, -key.j * off))
    static.draw(p, key.rect(), lod, texts)
    p.end()
    return img


class TileCache:
    """The tiles of one scene's static map, their rendering and their memory budget."""

    def __init__(self, scene: QGraphicsScene, budget_mb: float = TILE_BUDGET_MB) -> None:
        self.scene = scene  # repainted where a tile arrives
        self.budget = int(budget_mb * 1024 * 1024)
        self.static: StaticMap | None = None
        self.tiles: OrderedDict[TileKey, QImage] = OrderedDict()  # least recently used first
        self.stale: dict[TileKey, QImage] = {}  # invalidated, shown until redrawn
        self.pending: dict[TileKey, _Job] = {}  # queued or being drawn
        self.epoch = 0  # a new board: results of older epochs are dropped
        self.gen = 0  # counts invalidations
        self.dirty: dict[TileKey, int] = {}  # key -> gen of its last invalidation
        self.pinned: set[tuple[float, float]] = set()  # base levels (level, dpr)
        self.frame_keys: set[TileKey] = set()  # the tiles of the last frame
        self.rendered: list[TileKey] = []  # every tile drawn by a worker (tests, benchmarks)
        self.fallbacks = 0  # tiles shown scaled from another level
        self.direct = 0  # tiles drawn from geometry in a frame (no level had them)
        self.texts = TextCache()  # the GUI thread's, for direct draws
        self._asked: tuple[float, float, tuple[float, float, float, float]] | None = None

    # -- what is cached ----------------------------------------------------------------------

    def nbytes(self) -> int:
        return (len(self.tiles) + len(self.stale)) * TILE_BYTES

    def image(self, key: TileKey) -> QImage | None:
        img = self.tiles.get(key)
        if img is not None:
            self.tiles.move_to_end(key)
            return img
        return self.stale.get(key)

    def levels(self, dpr: float) -> set[float]:
        return {k.level for k in (*self.tiles, *self.stale) if k.dpr == dpr}

    # -- board changes -------------------------------------------------------------------------

    def set_static(self, static: StaticMap, changed: QRectF | None) -> None:
        """A new static map: `changed` is where it differs from the last (None: everywhere)."""
        self.static = static
        self._asked = None
        if changed is None:
            self.epoch += 1
            self._cancel(list(self.pending))
            self.tiles.clear()
            self.stale.clear()
            self.dirty.clear()
            self.pinned.clear()
        elif not changed.isEmpty():
            self.invalidate(changed)

    def invalidate(self, rect: QRectF) -> None:
        """Redraw the tiles over `rect`: those of the frame on screen stay there until their
        new image arrives; the others are dropped."""
        self.gen += 1
        self._asked = None
        shown = {(k.level, k.dpr) for k in self.frame_keys}
        for key in [k for k in (*self.tiles, *self.stale) if k.rect().intersects(rect)]:
            img = self.tiles.pop(key, None)
            if img is None:
                img = self.stale.pop(key)
            if (key.level, key.dpr) in shown or (key.level, key.dpr) in self.pinned:
                self.stale[key] = img
            self.dirty[key] = self.gen
        for key in [k for k in self.pending if k.rect().intersects(rect)]:
            self.dirty[key] = self.gen
        self._repaint(rect)

    # -- rendering -----------------------------------------------------------------------------

    def request(self, keys: Iterable[TileKey], priority: int) -> None:
        """Queue the tiles not cached nor pending (first given, first drawn)."""
        static = self.static
        if static is None:
            return
        queue = _queue()
        for n, key in enumerate(keys):
            if key in self.tiles or key in self.pending:
                continue
            job = self.pending[key] = _Job(self, static, key, self.epoch, self.gen)
            queue.push(job, priority - min(n, 999))

    def _cancel(self, keys: Iterable[TileKey]) -> None:
        for key in keys:
            job = self.pending.pop(key, None)
            if job is not None:
                job.cancelled = True  # a worker skips it (one being drawn is dropped after)

    def finished(self, job: _Job, img: QImage) -> None:
        """A worker's tile, on the GUI thread."""
        key = job.key
        if self.pending.get(key) is job:
            del self.pending[key]
        if job.cancelled or job.epoch != self.epoch:
            return
        if job.gen < self.dirty.get(key, -1):  # invalidated while it was drawn
            self._asked = None  # the next frame asks for it again
            self._repaint(key.rect())
            return
        self.stale.pop(key, None)
        self.tiles[key] = img
        self.rendered.append(key)
        self._evict()
        self._repaint(key.rect())

    def _repaint(self, rect: QRectF) -> None:
        if shiboken6.isValid(self.scene):
            self.scene.update(rect)

    def _evict(self) -> None:
        """Least recently used first (stale ones before them), never the frame's or the
        base level's, until the cache fits its budget."""
        if self.nbytes() <= self.budget:
            return
        for store in (self.stale, self.tiles):
            for key in list(store):
                if self.nbytes() <= self.budget:
                    return
                if key in self.frame_keys or (key.level, key.dpr) in self.pinned:
                    continue
                del store[key]

    def base_level(self, dpr: float) -> float:
        static = self.static
        assert static is not None
        r = static.map_rect
        return level_of(BASE_LEVEL_PX / max(r.width(), r.height(), 1e-9))

    # -- a frame -------------------------------------------------------------------------------

    def paint(self, painter: QPainter, exposed: QRectF, dpr: float) -> None:
        """Blit the tiles over `exposed` (scene), requesting and standing in for missing ones."""
        static = self.static
        if static is None:
            return
        world = painter.worldTransform()
        level = level_of(world.m11() * dpr)
        keys = keys_for(level, dpr, exposed)
        self.frame_keys = set(keys)
        ox, oy = round(world.dx() * dpr), round(world.dy() * dpr)
        missing: list[TileKey] = []
        painter.save()
        painter.setWorldTransform(QTransform())
        for key in keys:
            img = self.image(key)
            if img is None:
                missing.append(key)
            else:
                painter.drawImage(QPointF((ox + key.i * TILE_PX) / dpr,
                                          (oy + key.j * TILE_PX) / dpr), img)
        painter.restore()
        # Drop queued tiles of levels no longer on screen; queue this frame's, nearest the
        # centre first, then a ring around it for panning, then the base level. A repaint of
        # the same view with every tile there (counters moving, highlights) skips all that.
        asked = (level, dpr, (exposed.x(), exposed.y(), exposed.width(), exposed.height()))
        if asked == self._asked and not missing:
            return
        self._asked = asked
        base = self.base_level(dpr)
        self._cancel([k for k in self.pending if k.level not in (level, base)])
        c = exposed.center()

        def dist(k: TileKey) -> float:
            r = k.rect().center()
            return (r.x() - c.x()) ** 2 + (r.y() - c.y()) ** 2

        self.request(sorted((k for k in keys if k not in self.tiles), key=dist), 3000)
        w, h = exposed.width() / 2, exposed.height() / 2
        ring = [k for k in keys_for(level, dpr, exposed.adjusted(-w, -h, w, h))
                if k not in self.frame_keys]
        self.request(sorted(ring, key=dist), 1000)
        if (base, dpr) not in self.pinned:
            self.pinned.add((base, dpr))
            self.request(keys_for(base, dpr, static.map_rect.adjusted(-1, -1, 1, 1)), 0)
        if missing:
            self._stand_in(painter, missing, level, dpr, exposed)

    def _stand_in(self, painter: QPainter, missing: list[TileKey], level: float, dpr: float,
                  exposed: QRectF) -> None:
        """Missing tiles from the nearest level that has them all, scaled; else drawn."""
        static = self.static
        assert static is not None
        world = painter.worldTransform()
        k_dev, ox, oy = world.m11() * dpr, round(world.dx() * dpr), round(world.dy() * dpr)

        def snap(r: QRectF) -> QRectF:
            """A scene rectangle on screen, its edges rounded to device pixels (logical)."""
            x0, x1 = round(r.left() * k_dev) + ox, round(r.right() * k_dev) + ox
            y0, y1 = round(r.top() * k_dev) + oy, round(r.bottom() * k_dev) + oy
            return QRectF(x0 / dpr, y0 / dpr, (x1 - x0) / dpr, (y1 - y0) / dpr)

        others = sorted(self.levels(dpr) - {level}, key=lambda lv: abs(math.log(lv / level)))
        unresolved = QRectF()
        for key in missing:
            area = key.rect().intersected(exposed)
            for lv in others:
                subs = keys_for(lv, dpr, area)
                imgs = [self.image(k) for k in subs]
                if all(img is not None for img in imgs):
                    painter.save()
                    painter.setWorldTransform(QTransform())
                    painter.setClipRect(snap(area))
                    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
                    # Edges on whole device pixels, shared by neighbours: no seams.
                    painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
                    for k, img in zip(subs, imgs, strict=True):
                        assert img is not None
                        painter.drawImage(snap(k.rect()), img, QRectF(0, 0, TILE_PX, TILE_PX))
                    painter.restore()
                    self.fallbacks += 1
                    break
            else:
                unresolved = unresolved.united(area)
                self.direct += 1
        if not unresolved.isEmpty():
            painter.save()
            painter.setClipRect(unresolved)
            painter.fillRect(unresolved, QColor(BACKGROUND))
            static.draw(painter, unresolved, world.m11(), self.texts)
            painter.restore()


class MapTilesItem(QGraphicsItem):
    """The static map in the scene: tiles on screen; drawn from geometry into anything else
    (QGraphicsView.render into an image, printing), exactly and at once."""

    def __init__(self, cache: TileCache, rect: QRectF) -> None:
        super().__init__()
        self.cache = cache
        self._rect = rect
        self.setZValue(Z_TERRAIN)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        static = self.cache.static
        if static is None:
            return
        exposed = visible_rect(painter, option).intersected(self._rect)
        dev = painter.device()
        t = painter.worldTransform()
        on_screen = isinstance(dev, QWidget) and t.m12() == 0 and t.m21() == 0 and \
            abs(t.m11() - t.m22()) < 1e-9 * t.m11()
        if on_screen:
            self.cache.paint(painter, exposed, dev.devicePixelRatioF())
        else:
            painter.save()
            painter.setClipRect(static.map_rect.adjusted(-1, -1, 1, 1).intersected(self._rect))
            static.draw(painter, exposed, lod_of(painter), self.cache.texts, record=True)
            painter.restore()
