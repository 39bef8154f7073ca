"""Pan and zoom the largest map in the real main window with mouse and wheel input (issue 20).

    xvfb-run -s "-screen 0 1600x1000x24" python tests/benchmarks/map_interaction.py OUT_DIR

Opens A&A Anniversary (the world map), then: wheel-zooms in at the cursor, pans by dragging
the map with the left button, zooms back out; after every input event it lets Qt paint once
and times that, grabs the screen (the X server's pixels, not a re-render) right then — before
the tile workers deliver — and again once they have. Prints the frame times, the count of
tiles drawn from geometry after the first frame (should be 0), the resident memory, and
writes the screenshots to OUT_DIR to look at.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(_HERE), str(_HERE.parents[1] / "desktop")]

from PySide6.QtCore import QPoint, QPointF, Qt  # noqa: E402
from PySide6.QtGui import QGuiApplication, QWheelEvent  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from wartable.ui.map.tiles import wait_for_tiles  # noqa: E402
from wartable.ui.map.view import MapView  # noqa: E402


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def settle(view: MapView) -> None:
    for _ in range(200):
        wait_for_tiles()
        QApplication.processEvents()
        if not view.map_scene.tiles.pending:
            break
    QApplication.processEvents()  # the repaint the last tiles asked for


def frame() -> float:
    """Deliver the queued input's consequences and paint: ms."""
    t = time.perf_counter()
    QApplication.processEvents()
    return (time.perf_counter() - t) * 1000


def wheel(view: MapView, at: QPoint, notches: int) -> None:
    vp = view.viewport()
    ev = QWheelEvent(QPointF(at), QPointF(vp.mapToGlobal(at)), QPoint(0, 0),
                     QPoint(0, 120 * notches), Qt.MouseButton.NoButton,
                     Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(vp, ev)


def main() -> int:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "map_shots")
    out.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    from wartable.ui.mainwindow import MainWindow
    from wartable.worker.commands import NewGame

    win = MainWindow(autosave=False, confirm_close=False)
    win.resize(1600, 1000)
    win.show()
    got: list[object] = []
    win.client.snapshotReady.connect(got.append)
    win.client.send(NewGame("aa_anniversary", "1941"))
    deadline = time.time() + 60
    while not got and time.time() < deadline:
        QApplication.processEvents()
        time.sleep(0.01)
    view: MapView = win.map
    settle(view)
    print(f"resident memory with the world map open: {rss_mb():.0f} MB")
    screen = QGuiApplication.primaryScreen()

    def shot(name: str) -> None:
        screen.grabWindow(0).save(str(out / f"{name}.png"))

    shot("00_fit")
    cache = view.map_scene.tiles
    times: list[float] = []
    direct0 = cache.direct
    vp = view.viewport()
    centre = QPoint(vp.width() // 2, vp.height() // 2)
    n = 0

    def zoom(steps: tuple[int, ...], name: str) -> None:
        """Wheel steps at the centre; the screen right after each and once tiles came."""
        nonlocal n
        for notches in steps:
            wheel(view, centre, notches)
            times.append(frame())
            n += 1
            shot(f"{n:02d}_{name}_{view.zoom_percent():.0f}_during")
            settle(view)
            shot(f"{n:02d}_{name}_{view.zoom_percent():.0f}_after")

    zoom((2, 2, 2, 2, 2, 2, 3, 3, 3), "zoom_in")  # fit -> about 400 %
    # Pan: drag the map with the left button from a spot with no counter.
    start = next(QPoint(x, y) for y in range(100, vp.height() - 100, 40)
                 for x in range(100, vp.width() - 100, 40)
                 if view._stack_item_at(QPointF(x, y)) is None)
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    for i in range(1, 25):
        QTest.mouseMove(vp, start + QPoint(-20 * i, -12 * i))
        times.append(frame())
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                       start + QPoint(-480, -288))
    n += 1
    shot(f"{n:02d}_panned_during")
    settle(view)
    shot(f"{n:02d}_panned_after")
    zoom((-3, -3, -3, -3), "zoom_out")
    print(f"frames after input: {len(times)}, median {statistics.median(times):.1f} ms, "
          f"max {max(times):.1f} ms")
    print("each:", " ".join(f"{t:.0f}" for t in times))
    print(f"tiles drawn from geometry after the first frame: {cache.direct - direct0}; "
          f"shown scaled from another level: {cache.fallbacks}")
    print(f"tile cache: {len(cache.tiles)} tiles, {cache.nbytes() / 2**20:.0f} MB "
          f"(budget {cache.budget / 2**20:.0f} MB)")
    print(f"resident memory: {rss_mb():.0f} MB")
    win.close()
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
