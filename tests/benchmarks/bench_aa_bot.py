"""Benchmark: the Axis & Allies bot's time per turn at each level (issue 7).

Every power of a 1941 game is played by the level for `--rounds` rounds; the time spent
choosing actions (not applying them) is summed per power's turn. "strong@1s" is the strong
level under a time limit of one second per turn (the budget the app and the CLI pass).

Run: PYTHONPATH=desktop:tests python tests/benchmarks/bench_aa_bot.py [--rounds N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parents[1] / "desktop"), str(HERE.parent / "games" / "aa_anniversary")]

from test_aa_bot import game  # noqa: E402

from wartable.core.rng import Rng  # noqa: E402
from wartable.engine.loop import deciding_side  # noqa: E402
from wartable.engine.session import Session  # noqa: E402
from wartable.games.aa_anniversary.bot import explained_action  # noqa: E402

LEVELS: dict[str, tuple[str, float | None]] = {  # name -> (level, seconds per turn)
    "random": ("random", None),
    "fast": ("fast", None),
    "strong": ("strong", None),
    "strong@1s": ("strong", 1.0),
}


def _budget(seconds: float | None) -> Callable[[], bool] | None:
    if seconds is None:
        return None
    deadline = time.monotonic() + seconds
    return lambda: time.monotonic() < deadline


def turn_times(level: str, seconds: float | None, rounds: int, seed: str) -> list[float]:
    """Wall seconds the bot spent choosing, per power's turn."""
    s = Session.start(game(), "1941", seed=seed)
    rng = Rng.from_seed(seed)
    per: dict[tuple[int, str], float] = {}
    key: tuple[int, str] = (-1, "")
    budget = None
    while s.state.result is None and s.state.turn <= rounds:
        k = (s.state.turn, s.state.active_side)
        if k != key:
            key, budget = k, _budget(seconds)
        t = time.perf_counter()
        a, rng, _why = explained_action(s, rng, level, budget)
        per[k] = per.get(k, 0.0) + time.perf_counter() - t
        assert a.side == deciding_side(s.state)
        s = s.submit(a)
    return list(per.values())


def measure(rounds: int = 3, seed: str = "bench", levels: tuple[str, ...] = tuple(LEVELS)
            ) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for name in levels:
        level, seconds = LEVELS[name]
        ts = sorted(turn_times(level, seconds, rounds, seed))
        out[name] = {
            "turns": float(len(ts)),
            "mean ms": statistics.mean(ts) * 1000,
            "median ms": statistics.median(ts) * 1000,
            "p90 ms": ts[int(0.9 * (len(ts) - 1))] * 1000,
            "max ms": ts[-1] * 1000,
        }
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", default="bench")
    a = ap.parse_args()
    print(f"A&A bot, 1941, every power at the level, {a.rounds} rounds: "
          "time choosing actions per power's turn (wall)")
    print(f"  {'level':10s} {'turns':>5s} {'mean ms':>9s} {'median ms':>10s} {'p90 ms':>9s} "
          f"{'max ms':>9s}")
    for name, r in measure(a.rounds, a.seed).items():
        print(f"  {name:10s} {r['turns']:5.0f} {r['mean ms']:9.0f} {r['median ms']:10.0f} "
              f"{r['p90 ms']:9.0f} {r['max ms']:9.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
