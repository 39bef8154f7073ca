"""Start-up imports only what the start screen needs (issue 20): shapely and numpy come with
the first area map, the printing pipeline with the print dialog."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import sys
import testgame
from wartable.ui.mainwindow import MainWindow
from wartable.maps import load_map, rectangular_hex_map, dump_map
load_map(dump_map(rectangular_hex_map("t/hex", 3, 3)))  # a hex map needs no geometry library
heavy = [m for m in ("shapely", "numpy", "wartable.printing.jobs", "wartable.ui.printdialog")
         if m in sys.modules]
print("HEAVY", heavy)
"""


def test_main_window_and_hex_maps_leave_heavy_modules_unloaded() -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen",
           "PYTHONPATH": os.pathsep.join([str(ROOT / "desktop"), str(ROOT / "tests")])}
    r = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "HEAVY []" in r.stdout, r.stdout

