"""Benchmark: app start to first painted map, in a fresh process.

The child process starts the interpreter, imports Wartable, builds the main window,
starts a game of the test game through the worker and waits for the map viewport's
first paint after the game arrived. Reported: wall time from spawning the process, and
the same measured inside the child from its first line (imports included), and the
child's CPU time (user + system, all threads), which a busy machine changes far less.

Run: PYTHONPATH=desktop:tests python tests/benchmarks/bench_app_start.py
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from figures import report

ROOT = Path(__file__).resolve().parents[2]

CHILD = r"""
import time
t0, c0 = time.perf_counter(), time.process_time()
import json, os, sys
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication
import testgame
from wartable.ui.mainwindow import MainWindow

app = QApplication(sys.argv[:1])
marks = {"imports": time.perf_counter() - t0, "imports cpu": time.process_time() - c0}

class FirstPaint(QObject):
    armed = False
    def eventFilter(self, obj, ev):
        if self.armed and ev.type() == QEvent.Type.Paint and "painted" not in marks:
            marks["painted"] = time.perf_counter() - t0
            marks["painted cpu"] = time.process_time() - c0
            QTimer.singleShot(0, app.quit)
        return False

win = MainWindow(autosave=False, confirm_close=False)
win.resize(1400, 900)
win.show()
marks["window"] = time.perf_counter() - t0
f = FirstPaint()
win.map.viewport().installEventFilter(f)
def arrived(_snap):
    marks.setdefault("game", time.perf_counter() - t0)
    f.armed = True
    win.map.viewport().update()
win.client.snapshotReady.connect(arrived)
win.new_game("skirmish", "meeting")
QTimer.singleShot(30000, app.quit)
app.exec()
win.close()
print("MARKS " + json.dumps(marks))
"""


def measure(runs: int = 3) -> dict[str, float]:
    # Bytecode as an installed app has it: a PYTHONDONTWRITEBYTECODE environment would
    # otherwise compile every module on every start (the first run below writes the caches).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env = {**env, "QT_QPA_PLATFORM": "offscreen",
           "PYTHONPATH": os.pathsep.join([str(ROOT / "desktop"), str(ROOT / "tests")])}
    rows: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory() as home:
        env["WARTABLE_HOME"] = home
        for i in range(runs + 1):
            t = time.perf_counter()
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            r = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True,
                               text=True, timeout=120)
            wall = time.perf_counter() - t
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            # CPU seconds of the child: on a shared machine wall time mostly measures the
            # neighbours, CPU time the start-up's own work.
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            line = next((x for x in r.stdout.splitlines() if x.startswith("MARKS ")), None)
            if line is None:
                raise RuntimeError(f"child failed: {r.stderr[-2000:]}")
            marks = json.loads(line[6:])
            if "painted" not in marks:
                raise RuntimeError(f"the map was never painted: {marks}")
            if i:  # run 0 only warms the bytecode and file caches
                rows.append({**marks, "process wall": wall, "process cpu": cpu})
    return {k: statistics.median(r[k] for r in rows) * 1000 for k in rows[0]}


if __name__ == "__main__":
    figs = measure()
    report("app_start", {f"{k} ms": v for k, v in figs.items()})
    for k, v in figs.items():
        print(f"{k:14s} {v:8.0f} ms")
