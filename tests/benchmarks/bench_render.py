"""Map rendering benchmark: scene build and full-frame redraw times (issue 20).

    PYTHONPATH=desktop:tests python tests/benchmarks/bench_render.py [--frames N] [--real]

A 5,000-hex synthetic map (100 x 50) with 300 counters at fit, 100 % and 400 %, then a
synthetic 165-space area map at fit; with --real, the built maps (whatif1940/west,
eto/europe, aa_anniversary/world, 200 counters). Each frame is measured two ways:

* *direct*: `QGraphicsView.render` into a 1600 x 1000 QImage, every layer drawn from
  geometry (what every frame cost before the tile cache; images and prints still do this);
* *tiled*: a full repaint of the on-screen viewport (`repaint()`), the static map blitted
  from the tile cache (warm: after the workers drew this zoom level's tiles).

Beside them, the same run's *blit*: one 1600 x 1000 image drawn into another, the floor a
frame cannot go under. Prints a table of medians; `test_bench_render.py` runs one frame of
each so CI exercises this code.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
_ROOT = Path(__file__).resolve().parents[2]
for _p in (_ROOT / "desktop", _ROOT / "tests"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

from figures import report  # noqa: E402
from PySide6.QtGui import QColor, QImage, QPainter  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402
from shapely.geometry import MultiPoint, box  # noqa: E402
from shapely.ops import voronoi_diagram  # noqa: E402

from wartable.core.frozen import FrozenMap  # noqa: E402
from wartable.mapbuild.sources import maps_dir  # noqa: E402
from wartable.maps import load_map  # noqa: E402
from wartable.maps.model import AreaMap, BoardMap, OffMapBox, Space  # noqa: E402
from wartable.maps.synthetic import rectangular_hex_map  # noqa: E402
from wartable.model.definition import Side, UnitType  # noqa: E402
from wartable.model.state import Piece  # noqa: E402
from wartable.ui.map.tiles import wait_for_tiles  # noqa: E402
from wartable.ui.map.view import MapView  # noqa: E402

VIEW_W, VIEW_H = 1600, 1000
REAL_MAPS = ("whatif1940/west", "eto/europe", "aa_anniversary/world")
ZOOMS: tuple[tuple[str, float | None], ...] = (("fit", None), ("100 %", 100.0),
                                                ("400 %", 400.0))


@dataclass(frozen=True)
class BenchDefinition:
    """The two attributes the map needs of a GameDefinition."""

    sides: tuple[Side, ...]
    unit_types: FrozenMap[str, UnitType]


def bench_definition() -> BenchDefinition:
    sides = (Side("blue", "Blue", "#7fa7d9", alt_colour="#4477aa"),
             Side("red", "Red", "#e08070", alt_colour="#ee6677"),
             Side("grey", "Grey", "#b8b8a8", alt_colour="#bbbbbb"))
    types = (UnitType("inf", "Infantry", "infantry", (4, 4), 4, "XX"),
             UnitType("arm", "Armour", "armour", (6, 3), 6, "XX"),
             UnitType("mech", "Mechanized", "mechanized", (5, 4), 5, "XX"),
             UnitType("art", "Artillery", "artillery", (3, 1), 3, "III"),
             UnitType("hq", "Headquarters", "headquarters", (1, 2), 5, "XXX"),
             UnitType("ftr", "Fighter", "fighter", (3, 4), 4, ""))
    return BenchDefinition(sides, FrozenMap({t.id: t for t in types}))


def bench_pieces(board: BoardMap, defn: BenchDefinition, n: int = 300) -> list[Piece]:
    """n pieces spread over the map, deterministic; some stacked, some named or reduced."""
    locs = board.location_ids()
    types = list(defn.unit_types)
    out: list[Piece] = []
    for i in range(n):
        # Every 4th piece joins the previous one's location: stacks of 2-3 are common.
        loc = locs[(i * 7919) % len(locs)] if i % 4 else out[-1].location if out else locs[0]
        attrs: dict[str, object] = {}
        if i % 3 == 0:
            attrs["name"] = str(i)
        if i % 5 == 0:
            attrs["step"] = 2
        out.append(Piece(f"p{i}", types[i % len(types)], defn.sides[(i // 5) % 2].id, loc,
                         FrozenMap(attrs)))
    return out


def synthetic_area_map(n: int = 165, width: float = 3000.0, height: float = 1800.0) -> AreaMap:
    """A Voronoi area map: n spaces, land in the middle band, sea around (no real geography)."""
    pts = []
    for i in range(n):
        # A low-discrepancy (golden-ratio) point set: even spread, fully deterministic.
        u, v = (i * 0.6180339887) % 1.0, (i + 0.5) / n
        pts.append((u * width, v * height))
    frame = box(0, 0, width, height)
    cells = voronoi_diagram(MultiPoint(pts), envelope=frame)
    spaces: dict[str, Space] = {}
    polys = sorted((c.intersection(frame) for c in cells.geoms),
                   key=lambda g: (g.centroid.y, g.centroid.x))
    for i, poly in enumerate(polys):
        if poly.is_empty:
            continue
        c = poly.representative_point()
        dx, dy = (c.x - width / 2) / width, (c.y - height / 2) / height
        land = math.hypot(dx * 1.3, dy * 1.8) < 0.42
        sid = f"s{i:03d}"
        spaces[sid] = Space(sid, f"{'Land' if land else 'Sea Zone'} {i}",
                            "land" if land else "sea", poly, (c.x, c.y))
    ids = sorted(spaces)
    adj = set()
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            if spaces[a].polygon.touches(spaces[b].polygon):
                adj.add(frozenset((a, b)))
    boxes = (OffMapBox("pool", "Force pool", width + 60, 0, 400, 300),)
    return AreaMap("bench/area", "Synthetic area map", 1, FrozenMap(spaces), frozenset(adj),
                   boxes=boxes)


def make_view(board: BoardMap, pieces: Sequence[Piece], defn: BenchDefinition) -> MapView:
    view = MapView()
    view.resize(VIEW_W, VIEW_H)
    view.show()
    view.set_board(board, defn)
    view.set_pieces(pieces)
    return view


def render_frame(view: MapView) -> QImage:
    """One full redraw of the viewport into an image (every visible item painted)."""
    img = QImage(view.viewport().size(), QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(QColor(0, 0, 0, 0))
    p = QPainter(img)
    # The view's hints (antialiasing...), as its own paint events use; render() does not.
    p.setRenderHints(view.renderHints())
    view.render(p)
    p.end()
    return img


def settle(view: MapView) -> None:
    """Let the tile workers finish and their tiles arrive (the view is then warm)."""
    for _ in range(50):
        wait_for_tiles()
        QApplication.processEvents()
        if not view.map_scene.tiles.pending:
            return


def tiled_frame(view: MapView) -> None:
    """One full repaint of the viewport on screen: tiles blitted, counters drawn over."""
    view.viewport().repaint()


def warm(view: MapView) -> None:
    """Paint once (requests this zoom level's tiles and fills the counter pixmap cache), let
    the tiles be drawn, paint again."""
    tiled_frame(view)
    settle(view)
    tiled_frame(view)
    render_frame(view)


def blit_frame(src: QImage, dst: QImage) -> None:
    """The reference: a viewport-sized image drawn into a viewport-sized image."""
    p = QPainter(dst)
    p.drawImage(0, 0, src)
    p.end()


def blit_ms(repeat: int) -> float:
    src = QImage(VIEW_W, VIEW_H, QImage.Format.Format_RGB32)
    src.fill(QColor("#808080"))
    dst = QImage(VIEW_W, VIEW_H, QImage.Format.Format_ARGB32_Premultiplied)
    return timed(lambda: blit_frame(src, dst), max(repeat, 20))[0]


def map_bytes(map_id: str) -> bytes:
    """A built map's file (installed map data, or the checkout's maps/)."""
    game, name = map_id.split("/")
    root = maps_dir() / game
    for fname in (f"{name}.json.gz", f"{name}.json"):
        if (root / fname).is_file():
            return (root / fname).read_bytes()
    raise FileNotFoundError(map_id)


def zoom_to(view: MapView, zoom: float | None) -> None:
    if zoom is None:
        view.fit()
    else:
        view.set_zoom(zoom)
        view.centerOn(view.map_scene.map_rect.center())


def frame_figures(view: MapView, name: str, frames: int) -> dict[str, float]:
    """Direct and tiled frame medians (wall ms) at fit, 100 % and 400 %, stable keys."""
    out: dict[str, float] = {}
    for label, zoom in ZOOMS:
        zoom_to(view, zoom)
        warm(view)
        key = f"frame {name} {label.replace(' %', '%')}"
        for kind, fn in (("direct", lambda: render_frame(view)),
                         ("tiled", lambda: tiled_frame(view)),
                         ("pan step", lambda: pan_step(view))):
            wall, cpu, _ = timed(fn, frames)
            out[f"{key} {kind} ms"] = wall
            out[f"{key} {kind} cpu ms"] = cpu
    return out


def pan_step(view: MapView, px: int = 24) -> None:
    """Scroll by `px` and let Qt paint: the view moves the pixels on screen and repaints the
    strip that came into view (tiles there are warm: the ring around the view is drawn)."""
    hb = view.horizontalScrollBar()
    step = px if hb.value() + px <= hb.maximum() else -px
    hb.setValue(hb.value() + step)
    QApplication.processEvents()


def real_map_figures(frames: int = 5, pieces: int = 200,
                     maps: Sequence[str] = REAL_MAPS) -> dict[str, float]:
    """Every real map's frames, beside the same run's full-viewport blit ("blit ms")."""
    app = QApplication.instance() or QApplication([])
    assert app is not None
    defn = bench_definition()
    out = {"blit ms": blit_ms(frames)}
    for map_id in maps:
        board = load_map(map_bytes(map_id), map_id)
        view = make_view(board, bench_pieces(board, defn, pieces), defn)
        out.update(frame_figures(view, map_id, frames))
        view.close()
        view.deleteLater()
    out["blit ms (after)"] = blit_ms(frames)
    return out


def timed(fn: Callable[[], object], repeat: int) -> tuple[float, float, object]:
    """Median wall and CPU (this process) time in ms over `repeat` runs, and the last result.

    CPU time is reported beside wall time because shared or busy machines inflate wall time
    with waiting; rendering is single-threaded, so CPU time is the cost of the work itself.
    """
    walls, cpus, result = [], [], None
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        result = fn()
        cpus.append((time.process_time() - c) * 1000)
        walls.append((time.perf_counter() - w) * 1000)
    return statistics.median(walls), statistics.median(cpus), result


@dataclass(frozen=True)
class Row:
    case: str
    ms: float  # median wall-clock time
    cpu_ms: float  # median process CPU time
    note: str


def run(frames: int = 5, n_pieces: int = 300, area: bool = True) -> list[Row]:
    """The benchmark rows; each frame row is the median of `frames` renders (after one warm-up
    frame that fills the counter pixmap cache, as the first paint at a zoom level does)."""
    app = QApplication.instance() or QApplication([])
    assert app is not None
    defn = bench_definition()
    rows: list[Row] = []

    hex_board = rectangular_hex_map("bench/hex", 100, 50)
    build = timed(lambda: rectangular_hex_map("bench/hex", 100, 50), 1)
    rows.append(Row("hex map model 100x50 (5,000 hexes)", *build[:2], "rectangular_hex_map"))
    pieces = bench_pieces(hex_board, defn, n_pieces)

    view = MapView()
    view.resize(VIEW_W, VIEW_H)
    view.show()
    scene = timed(lambda: view.set_board(hex_board, defn), 1)
    rows.append(Row("scene build (set_board)", *scene[:2], "chunked paths, boxes, fit"))
    first = timed(lambda: view.set_pieces(pieces), 1)
    rows.append(Row(f"set_pieces ({n_pieces} counters)", *first[:2], "first call creates items"))
    again = timed(lambda: view.set_pieces(pieces), 3)
    rows.append(Row(f"set_pieces again ({n_pieces})", *again[:2], "items reused by id"))

    rows.append(Row("blit (reference)", blit_ms(frames), 0.0, f"{VIEW_W}x{VIEW_H} image"))
    for label, zoom in ZOOMS:
        zoom_to(view, zoom)
        warm(view)
        wall, cpu, img = timed(lambda: render_frame(view), frames)
        assert isinstance(img, QImage)
        labels = view.map_scene.labels.drawn if view.map_scene.labels else 0
        rows.append(Row(f"hex frame at {label} ({view.zoom_percent():.0f} %) direct", wall, cpu,
                        f"{VIEW_W}x{VIEW_H}, {labels} labels"))
        wall, cpu, _ = timed(lambda: tiled_frame(view), frames)
        rows.append(Row(f"hex frame at {label} ({view.zoom_percent():.0f} %) tiled", wall, cpu,
                        f"{len(view.map_scene.tiles.tiles)} tiles cached"))

    if area:
        amap = synthetic_area_map()
        area_build = timed(lambda: view.set_board(amap, defn), 1)
        rows.append(Row(f"area scene build ({len(amap.spaces)} spaces)", *area_build[:2],
                        "synthetic Voronoi map"))
        view.set_pieces(bench_pieces(amap, defn, n_pieces))
        view.fit()
        warm(view)
        frame = timed(lambda: render_frame(view), frames)
        labels = view.map_scene.labels.drawn if view.map_scene.labels else 0
        rows.append(Row(f"area frame at fit ({view.zoom_percent():.0f} %) direct", *frame[:2],
                        f"{VIEW_W}x{VIEW_H}, {labels} names"))
        frame = timed(lambda: tiled_frame(view), frames)
        rows.append(Row(f"area frame at fit ({view.zoom_percent():.0f} %) tiled", *frame[:2],
                        "from tiles"))
    view.close()
    view.deleteLater()
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=5, help="frames per median (default 5)")
    ap.add_argument("--pieces", type=int, default=300)
    ap.add_argument("--real", action="store_true", help="also the built maps (slower)")
    args = ap.parse_args(argv)
    rows = run(args.frames, args.pieces)
    if args.real:
        figs = real_map_figures(args.frames)
        rows += [Row(k.removesuffix(" ms"), v, figs.get(k.removesuffix(" ms") + " cpu ms", 0.0),
                     "") for k, v in figs.items() if not k.endswith("cpu ms")]
    for r in rows:  # run_all.py --json: the case names hold map, zoom and path
        report("render", {f"{r.case} ms": r.ms, f"{r.case} cpu ms": r.cpu_ms})
    width = max(len(r.case) for r in rows)
    print(f"{'case':<{width}}  {'wall ms':>8}  {'cpu ms':>7}  note")
    print("-" * (width + 50))
    for r in rows:
        print(f"{r.case:<{width}}  {r.ms:8.1f}  {r.cpu_ms:7.1f}  {r.note}")
    print(f"(medians of {args.frames} frames; wall = elapsed, cpu = this process's CPU time)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
