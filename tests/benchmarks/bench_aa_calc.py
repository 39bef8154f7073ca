"""Benchmark: the Anniversary Edition exact battle calculator.

1. Timings of 10 vs 10, 20 vs 20 and 40 vs 40 battles (infantry only, mixed land armies with
   air and an AA gun, mixed fleets with subs, destroyers, battleships, carriers and fighters).
2. Agreement with Monte Carlo: the 22 battles of tests/games/aa_anniversary/aa_battles.py,
   each simulated N times (default 100,000) with combat.fight_round, against the exact odds;
   a statistic agrees when |p - p^| < 4.5 * sqrt(p(1-p)/N) + 0.001.

Run: PYTHONPATH=desktop:tests python tests/benchmarks/bench_aa_calc.py [--mc N] [--no-mc]
     [--ref 500] [--sizes 10,20,40] [--json FILE]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parents[1] / "desktop"),
                str(HERE.parent / "games" / "aa_anniversary")]

from aa_battles import BATTLES, catalog  # noqa: E402
from figures import report, write_json  # noqa: E402

from wartable.core.rng import Rng  # noqa: E402
from wartable.games.aa_anniversary.calculator import calculate  # noqa: E402
from wartable.games.aa_anniversary.combat import Force  # noqa: E402
from wartable.games.aa_anniversary.montecarlo import simulate  # noqa: E402

CAT = catalog()


def armies(kind: str, n: int) -> tuple[Force, Force]:
    k = n // 10
    if kind == "infantry":
        return Force.of(infantry=n), Force.of(infantry=n)
    if kind == "land":
        return (Force.of(infantry=4 * k, artillery=2 * k, armour=2 * k, fighter=k, bomber=k),
                Force.of(infantry=6 * k, artillery=2 * k, armour=k, fighter=k, aa_gun=1))
    return (Force.of(submarine=3 * k, destroyer=2 * k, cruiser=k, battleship=k, carrier=k,
                     fighter=2 * k),
            Force.of(submarine=2 * k, destroyer=2 * k, cruiser=k, battleship=k, carrier=2 * k,
                     fighter=2 * k))


def timings(sizes: tuple[int, ...] = (10, 20, 40), mc: int = 500,
            ) -> list[tuple[str, int, float, float, int, float, float]]:
    """Per battle: (kind, size, CPU s, wall s, states, unresolved mass, CPU s of `mc` Monte
    Carlo battles of the same armies run just after: the same-run reference of issue 20)."""
    rows = []
    for kind in ("infantry", "land", "sea"):
        for n in sizes:
            att, dfn = armies(kind, n)
            w, t = time.perf_counter(), time.process_time()
            r = calculate(att, dfn, CAT)
            cpu, wall = time.process_time() - t, time.perf_counter() - w
            t = time.process_time()
            if mc:
                simulate(att, dfn, None, mc, Rng.from_seed(f"ref:{kind}:{n}"), catalog=CAT)
            rows.append((kind, n, cpu, wall, r.states, r.unresolved, time.process_time() - t))
    return rows


def figures(rows: list[tuple[str, int, float, float, int, float, float]], mc: int,
            ) -> dict[str, float]:
    """Stable keys for run_all.py --json."""
    out: dict[str, float] = {}
    for kind, n, cpu, wall, states, _, ref in rows:
        key = f"aa_calc/{kind}/{n}v{n}"
        out[f"{key}/exact_cpu_s"] = cpu
        out[f"{key}/exact_wall_s"] = wall
        out[f"{key}/states"] = states
        if mc:
            out[f"{key}/montecarlo_{mc}_cpu_s"] = ref
    return out


def agreement(n: int) -> tuple[list[str], int, float]:
    lines = [f"{'battle':42s} {'stat':13s} {'exact':>8s} {'MC':>8s} {'|diff|':>7s} {'tol':>7s}"]
    failures = 0
    seconds = 0.0
    for b in BATTLES:
        r = calculate(b.attacker, b.defender, CAT, bombard=b.bombard, max_rounds=b.max_rounds)
        t = time.process_time()
        m, _ = simulate(b.attacker, b.defender, None, n, Rng.from_seed(f"bench:{b.name}"),
                        catalog=CAT, bombard=b.bombard, max_rounds=b.max_rounds)
        seconds += time.process_time() - t
        for stat in ("attacker_win", "defender_win", "draw", "stalemate", "retreat"):
            p, ph = getattr(r, stat), getattr(m, stat)
            if p == 0.0 and ph == 0.0:
                continue
            tol = 4.5 * math.sqrt(p * (1 - p) / n) + 1e-3
            ok = abs(p - ph) < tol
            failures += not ok
            lines.append(f"{b.name[:42]:42s} {stat:13s} {p:8.4f} {ph:8.4f} {abs(p - ph):7.4f} "
                         f"{tol:7.4f}{'' if ok else '  DISAGREES'}")
        lines.append(f"{'':42s} {'IPC loss A/D':13s} {r.attacker_ipc_loss:8.3f} "
                     f"{m.attacker_ipc_loss:8.3f} / {r.defender_ipc_loss:.3f} "
                     f"{m.defender_ipc_loss:.3f}")
    return lines, failures, seconds


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mc", type=int, default=100_000, help="battles simulated per case")
    ap.add_argument("--no-mc", action="store_true")
    ap.add_argument("--ref", type=int, default=500, help="Monte Carlo battles timed beside "
                    "each exact calculation (0: none)")
    ap.add_argument("--sizes", default="10,20,40")
    ap.add_argument("--json", help="write the figures to this file (stable keys)")
    a = ap.parse_args()
    print(f"Exact calculator timings (CPU and wall seconds, states solved, unresolved mass; "
          f"reference: CPU seconds of {a.ref} Monte Carlo battles of the same armies)")
    rows = timings(tuple(int(x) for x in a.sizes.split(",")), a.ref)
    for kind, n, cpu, wall, states, lost, ref in rows:
        print(f"  {kind:8s} {n:3d} vs {n:<3d} {cpu:8.3f} s cpu {wall:8.3f} s wall "
              f"{states:7d} states  unresolved {lost:.1e}   MC x{a.ref} {ref:7.3f} s cpu")
    report("aa_calc", {k.removeprefix("aa_calc/"): v for k, v in figures(rows, a.ref).items()})
    if a.json:
        write_json(a.json, figures(rows, a.ref))
    if a.no_mc:
        return 0
    lines, failures, seconds = agreement(a.mc)
    print(f"\nMonte Carlo agreement, {len(BATTLES)} battles x {a.mc} "
          f"({seconds:.0f} s cpu simulating)")
    print("\n".join(lines))
    print(f"\n{failures} disagreement(s)")
    report("aa_calc/agreement", {f"{a.mc}_battles_disagreements": failures})
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
