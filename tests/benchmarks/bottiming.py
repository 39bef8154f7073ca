"""Shared part of the bot benchmarks (bench_aa_bot.py, bench_w40_bot.py): the levels measured,
the wall time a bot spends choosing per side's turn, and the printed table.

Not named bench_*.py, so run_all.py does not run it as a benchmark of its own.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from figures import report, slug

from wartable.core.rng import Rng
from wartable.engine.actions import Action
from wartable.engine.loop import deciding_side
from wartable.engine.session import Session

LEVELS: dict[str, tuple[str, float | None]] = {  # name -> (level, seconds per turn)
    "random": ("random", None),
    "fast": ("fast", None),
    "strong": ("strong", None),
    "strong@1s": ("strong", 1.0),
}

Budget = Callable[[], bool]
Chooser = Callable[[Session, Rng, str, Budget | None], tuple[Action, Rng, str]]


def _budget(seconds: float | None) -> Budget | None:
    if seconds is None:
        return None
    deadline = time.monotonic() + seconds
    return lambda: time.monotonic() < deadline


def turn_times(s: Session, choose: Chooser, level: str, seconds: float | None, rounds: int,
               seed: str) -> list[float]:
    """Wall seconds the bot spent choosing, per side's turn, from `s` for `rounds` turns."""
    rng = Rng.from_seed(seed)
    per: dict[tuple[int, str], float] = {}
    key: tuple[int, str] = (-1, "")
    budget = None
    while s.state.result is None and s.state.turn <= rounds:
        k = (s.state.turn, s.state.active_side)
        if k != key:
            key, budget = k, _budget(seconds)
        t = time.perf_counter()
        a, rng, _why = choose(s, rng, level, budget)
        per[k] = per.get(k, 0.0) + time.perf_counter() - t
        assert a.side == deciding_side(s.state)
        s = s.submit(a)
    return list(per.values())


def measure_levels(start: Callable[[str], Session], choose: Chooser, rounds: int, seed: str,
            levels: tuple[str, ...]) -> dict[str, dict[str, float]]:
    """Per level: the number of turns and the mean, median, 90th percentile and maximum ms."""
    out: dict[str, dict[str, float]] = {}
    for name in levels:
        level, seconds = LEVELS[name]
        ts = sorted(turn_times(start(seed), choose, level, seconds, rounds, seed))
        out[name] = {
            "turns": float(len(ts)),
            "mean ms": statistics.mean(ts) * 1000,
            "median ms": statistics.median(ts) * 1000,
            "p90 ms": ts[int(0.9 * (len(ts) - 1))] * 1000,
            "max ms": ts[-1] * 1000,
        }
    return out


def print_table(title: str, results: dict[str, dict[str, float]], key: str = "") -> None:
    """The table; with `key` (a stable name), also the figures for run_all.py --json."""
    if key:
        for name, r in results.items():
            report(f"{key}/{slug(name)}", r)
    print(title)
    print(f"  {'level':10s} {'turns':>5s} {'mean ms':>9s} {'median ms':>10s} {'p90 ms':>9s} "
          f"{'max ms':>9s}")
    for name, r in results.items():
        print(f"  {name:10s} {r['turns']:5.0f} {r['mean ms']:9.0f} {r['median ms']:10.0f} "
              f"{r['p90 ms']:9.0f} {r['max ms']:9.0f}")
