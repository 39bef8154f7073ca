"""Benchmark: the 1940: What If? bot's time per turn at each level (issue 7).

Every side of a standard game is played by the level for `--rounds` game turns; the time
spent choosing actions (not applying them) is summed per side's player turn (the set-up
included in turn 1). "strong@1s" is the strong level under a time limit of one second per
side's turn (the budget the CLI passes with --turn-seconds 1). Fog of war is on (the
default option): every level decides from its side's view (bot_view.view [7.3]), and that
view's cost is part of the time.

Run: PYTHONPATH=desktop:tests python tests/benchmarks/bench_w40_bot.py [--rounds N]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent), str(HERE.parents[1] / "desktop")]

from bottiming import LEVELS, measure_levels, print_table  # noqa: E402

from wartable.engine.session import Session  # noqa: E402
from wartable.games.whatif1940.bot import explained_action  # noqa: E402
from wartable.persistence.gamedata import load_game  # noqa: E402


def measure(rounds: int = 2, seed: str = "bench", levels: tuple[str, ...] = tuple(LEVELS)
            ) -> dict[str, dict[str, float]]:
    """Every side of a standard game played by each level for `rounds` game turns."""
    return measure_levels(lambda sd: Session.start(load_game("whatif1940"), "standard", seed=sd),
                          explained_action, rounds, seed, levels)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--seed", default="bench")
    a = ap.parse_args()
    print_table(f"1940: What If? bot, standard, every side at the level, {a.rounds} game "
                "turns: time choosing actions per side's player turn (wall)",
                measure(a.rounds, a.seed), key=f"w40_bot/{a.rounds}_turns")
    return 0


if __name__ == "__main__":
    sys.exit(main())
