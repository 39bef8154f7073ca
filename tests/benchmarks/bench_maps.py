"""Benchmark each built map: load time, scene build, full redraw at fit, 100 % and 400 %,
and memory (issue 3).

Run: PYTHONPATH=desktop:tests python tests/benchmarks/bench_maps.py [--frames N]

Memory: tracemalloc's peak while loading the file (Python objects), and the process's
resident size after the view is built (Qt's paths and pixmaps are not Python objects).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(_HERE), str(_HERE.parents[1] / "desktop")]

from bench_render import (  # noqa: E402
    VIEW_H,
    VIEW_W,
    bench_definition,
    bench_pieces,
    make_view,
    map_bytes,
    render_frame,
    timed,
)
from figures import report  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from wartable.maps import load_map  # noqa: E402

MAPS = ("whatif1940/west", "whatif1940/east", "aeto/west", "aeto/east", "eto/europe",
        "aa_anniversary/world")


def measure(map_id: str, frames: int = 5, pieces: int = 200) -> dict[str, float]:
    data = map_bytes(map_id)
    # Timed without tracemalloc, which slows allocation-heavy parsing several times over
    # (the 1.3 s of issue 20 for the world map was mostly tracemalloc); memory is a second pass.
    loads = []
    for _ in range(3):
        t = time.perf_counter()
        board = load_map(data, map_id)
        loads.append(time.perf_counter() - t)
    load_ms = statistics.median(loads) * 1000
    tracemalloc.start()
    load_map(data, map_id)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    defn = bench_definition()
    t = time.perf_counter()
    view = make_view(board, bench_pieces(board, defn, pieces), defn)
    build_ms = (time.perf_counter() - t) * 1000
    QApplication.processEvents()
    out = {"file KB": len(data) / 1024, "load ms": load_ms, "scene build ms": build_ms}
    for name, zoom in (("fit", None), ("100 %", 100.0), ("400 %", 400.0)):
        if zoom is None:
            view.fit()
        else:
            view.set_zoom(zoom)
        render_frame(view)  # warm-up: caches of this zoom level
        wall, cpu, _ = timed(lambda: render_frame(view), frames)
        out[f"frame {name} ms"] = wall
        out[f"frame {name} cpu ms"] = cpu
    out["load peak MB"] = peak / 1e6
    out["RSS MB"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    view.close()
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=5)
    args = ap.parse_args()
    app = QApplication.instance() or QApplication(sys.argv[:1])
    print(f"{'map':22s} {'file KB':>8s} {'load':>7s} {'build':>7s} {'fit':>7s} {'100%':>7s} "
          f"{'400%':>7s} {'load MB':>8s} {'RSS MB':>7s}   ({VIEW_W}x{VIEW_H}, "
          f"200 counters, ms median of {args.frames})")
    for m in MAPS:
        r = measure(m, args.frames)
        report(f"maps/{m}", r)
        print(f"{m:22s} {r['file KB']:8.0f} {r['load ms']:7.0f} {r['scene build ms']:7.0f} "
              f"{r['frame fit ms']:7.1f} {r['frame 100 % ms']:7.1f} {r['frame 400 % ms']:7.1f} "
              f"{r['load peak MB']:8.1f} {r['RSS MB']:7.0f}")
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
