"""Benchmark: the Axis & Allies bot's time per turn at each level (issue 7).

Every power of a 1941 game is played by the level for `--rounds` rounds; the time spent
choosing actions (not applying them) is summed per power's turn. "strong@1s" is the strong
level under a time limit of one second per turn (the budget the app and the CLI pass).

Run: PYTHONPATH=desktop:tests python tests/benchmarks/bench_aa_bot.py [--rounds N]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parents[1] / "desktop"),
                str(HERE.parent / "games" / "aa_anniversary")]

from aa_helpers import game  # noqa: E402
from bottiming import LEVELS, measure_levels, print_table  # noqa: E402

from wartable.engine.session import Session  # noqa: E402
from wartable.games.aa_anniversary.bot import explained_action  # noqa: E402


def measure(rounds: int = 3, seed: str = "bench", levels: tuple[str, ...] = tuple(LEVELS)
            ) -> dict[str, dict[str, float]]:
    """Every power of a 1941 game played by each level for `rounds` rounds."""
    return measure_levels(lambda sd: Session.start(game(), "1941", seed=sd), explained_action,
                          rounds, seed, levels)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", default="bench")
    a = ap.parse_args()
    print_table(f"A&A bot, 1941, every power at the level, {a.rounds} rounds: "
                "time choosing actions per power's turn (wall)", measure(a.rounds, a.seed),
                key=f"aa_bot/{a.rounds}_rounds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
