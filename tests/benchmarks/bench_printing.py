"""Printing benchmark: time and peak memory to render the largest setup sheet and a tiled
A4 map, at print resolution.

    PYTHONPATH=desktop:tests python tests/benchmarks/bench_printing.py [--dpi 300] [--map ID]

Cases:

- ``setup``: the scenario with the most units among the installed games, every side, as one
  PDF (the largest setup sheet there is);
- ``tiles``: the installed games' largest map (or ``--map ID``, e.g. whatif1940/east) tiled
  over A4 as one PDF.

Each case runs in a fresh interpreter so its memory is its own. Peak memory is reported two
ways: ``tracemalloc`` (Python objects only: Pillow's pixel buffers are allocated in C and do
not show there) and the process's peak resident set size (everything, interpreter and
libraries included). `test_bench_printing.py` runs a reduced version (low dpi, in process)
so CI exercises this code; the numbers are reported, never asserted.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

_ROOT = Path(__file__).resolve().parents[2]
for _p in (_ROOT / "desktop", _ROOT / "tests"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

from figures import report  # noqa: E402

import testgame  # noqa: E402,F401  (registers the test game)
from wartable.games import registry  # noqa: E402
from wartable.persistence.gamedata import load_game  # noqa: E402
from wartable.printing.commands import find_map  # noqa: E402
from wartable.printing.jobs import print_setup  # noqa: E402
from wartable.printing.map_export import export_map, parse_region  # noqa: E402


def largest_scenario() -> tuple[str, str, int]:
    """(game, scenario, units) of the scenario with the most units."""
    best = ("", "", -1)
    for mod in registry.installed():
        d = load_game(mod.id).definition
        for sc in d.scenarios.values():
            n = sum(p.count for p in sc.setup)
            if n > best[2]:
                best = (mod.id, sc.id, n)
    return best


def largest_map() -> str:
    best, size = "", -1
    for mod in registry.installed():
        for map_id, board in load_game(mod.id).maps.items():
            n = len(board.location_ids())
            if n > size:
                best, size = map_id, n
    return best


def rss_mb() -> float:
    """Peak resident set size of this process so far, in MB (Linux reports kB)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 1024 if sys.platform != "darwin" else peak / (1024 * 1024)


def run_case(case: str, dpi: int, map_id: str | None, region: str | None = None) -> dict[str, Any]:
    """Render one case into a temporary folder and measure it."""
    # Inputs are loaded first: the numbers are printing's, not the game or map loader's.
    if case == "setup":
        game_id, scenario, units = largest_scenario()
        game = load_game(game_id)
        what = f"{game_id} {scenario}: {units} units, every side"
    elif case == "tiles":
        mid = map_id or largest_map()
        board = find_map(mid)
        bounds = parse_region(board, region)
        what = f"{mid}: {len(board.location_ids())} locations, A4 tiles"
    else:
        raise SystemExit(f"unknown case {case!r}")
    with tempfile.TemporaryDirectory() as d:
        base_rss = rss_mb()
        tracemalloc.start()
        t = time.perf_counter()
        if case == "setup":
            out = print_setup(game, scenario, Path(d) / "setup.pdf", dpi=dpi)
        else:
            out = export_map(board, Path(d) / "tiles.pdf", dpi=dpi, paper_name="a4",
                             region=bounds)
        seconds = time.perf_counter() - t
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        return {
            "case": case, "what": what, "dpi": dpi, "pages": out.pages,
            "seconds": seconds, "s_per_page": seconds / max(1, out.pages),
            "pdf_kb": out.total_bytes / 1024, "reduced_pages": out.reduced_pages,
            "max_page_kb": max(out.page_bytes) / 1024 if out.page_bytes else 0.0,
            "tracemalloc_peak_mb": peak / (1024 * 1024),
            "rss_peak_mb": rss_mb(), "rss_before_mb": base_rss,
        }


def measure(dpi: int = 300, map_id: str | None = None, in_process: bool = False,
            region: str | None = None) -> list[dict[str, Any]]:
    rows = []
    for case in ("setup", "tiles"):
        if in_process:
            rows.append(run_case(case, dpi, map_id, region))
            continue
        cmd = [sys.executable, __file__, "--case", case, "--dpi", str(dpi)]
        if map_id:
            cmd += ["--map", map_id]
        if region:
            cmd += ["--region", region]
        r = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=_ROOT)
        rows.append(json.loads(r.stdout.strip().splitlines()[-1]))
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    head = (f"{'case':6s} {'pages':>5s} {'time s':>7s} {'s/page':>7s} {'PDF kB':>8s} "
            f"{'max page kB':>11s} {'256c':>4s} {'tracemalloc MB':>14s} {'peak RSS MB':>11s}  "
            "what")
    lines = [head]
    for r in rows:
        lines.append(f"{r['case']:6s} {r['pages']:5d} {r['seconds']:7.2f} {r['s_per_page']:7.2f} "
                     f"{r['pdf_kb']:8.0f} {r['max_page_kb']:11.0f} {r['reduced_pages']:4d} "
                     f"{r['tracemalloc_peak_mb']:14.1f} {r['rss_peak_mb']:11.0f}  {r['what']} "
                     f"at {r['dpi']} dpi")
    return "\n".join(lines)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--dpi", type=int, default=300)
    p.add_argument("--map", help="the map to tile (default: the largest of the games' maps)")
    p.add_argument("--region", help="only this part of the map (as `map export --region`)")
    p.add_argument("--case", choices=("setup", "tiles"), help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.case:  # a child run: one JSON line
        print(json.dumps(run_case(args.case, args.dpi, args.map, args.region)))
        return 0
    rows = measure(args.dpi, args.map, region=args.region)
    for r in rows:
        report(f"printing/{r['case']}/{args.dpi}dpi", r)
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
