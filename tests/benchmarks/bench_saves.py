"""Benchmark: save and load (replay + hash check) of a game with a 2,000-action log; and
the app's way (issue 20): `open` shows the saved position, `check` replays the log after.

Run: PYTHONPATH=desktop:tests python tests/benchmarks/bench_saves.py
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1]),
                str(Path(__file__).resolve().parents[2] / "desktop")]

from figures import report  # noqa: E402

import testgame  # noqa: E402,F401
from wartable.engine.randomplay import play_random  # noqa: E402
from wartable.engine.session import Session  # noqa: E402
from wartable.persistence.gamedata import load_game  # noqa: E402
from wartable.persistence.savefile import (  # noqa: E402
    check_replay,
    load_from_path,
    open_from_path,
    save_to_path,
)


def long_session(actions: int = 2000) -> Session:
    s = Session.start(load_game("skirmish"), "endurance", seed=2000)
    rep = play_random(s, 2000, max_actions=actions, check=False)
    assert rep.actions == actions, rep.actions
    return rep.session


def measure(actions: int = 2000, repeats: int = 5) -> dict[str, float]:
    session = long_session(actions)
    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as d:
        for gz in (False, True):
            path = Path(d) / ("g.wartable.json" + (".gz" if gz else ""))
            saves, loads, opens, checks = [], [], [], []
            for _ in range(repeats):
                t = time.perf_counter()
                save_to_path(session, path, "2026-01-01T00:00:00+00:00")
                saves.append(time.perf_counter() - t)
                t = time.perf_counter()
                loaded = load_from_path(path)
                loads.append(time.perf_counter() - t)
                assert len(loaded.log) == actions
                # What the app does (issue 20): the saved position shows after `open`; the
                # replay check runs after it, on the worker.
                t = time.perf_counter()
                opened = open_from_path(path)
                opens.append(time.perf_counter() - t)
                t = time.perf_counter()
                check_replay(opened)
                checks.append(time.perf_counter() - t)
            tag = "gzip" if gz else "json"
            out[f"save {tag} ms"] = statistics.median(saves) * 1000
            out[f"load {tag} ms"] = statistics.median(loads) * 1000
            out[f"open {tag} ms"] = statistics.median(opens) * 1000
            out[f"check {tag} ms"] = statistics.median(checks) * 1000
            out[f"size {tag} KB"] = path.stat().st_size / 1024
    return out


if __name__ == "__main__":
    figs = measure()
    report("saves/2000_actions", figs)
    for k, v in figs.items():
        print(f"{k:16s} {v:10.1f}")
