"""Run every benchmark and print its table: `python tests/benchmarks/run_all.py [--json FILE]`.

Each bench_*.py also runs on its own. The test_bench_*.py files run reduced versions with
the tests, so CI exercises the code; numbers are reported here, never asserted.
With --json FILE, every figure is also written to FILE under a stable key (figures.py), so
two versions can be compared key by key.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from figures import ENV  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", help="also write every figure to this JSON file")
    ap.add_argument("--only", help="run only the bench_*.py whose name contains this")
    a = ap.parse_args()
    env = dict(os.environ)
    if a.json:
        out = Path(a.json).resolve()
        out.unlink(missing_ok=True)
        env[ENV] = str(out)
    failed = 0
    for script in sorted(HERE.glob("bench_*.py")):
        if a.only and a.only not in script.stem:
            continue
        print(f"== {script.stem}", flush=True)
        r = subprocess.run([sys.executable, str(script)], cwd=HERE.parents[1], env=env)
        failed += r.returncode != 0
    if a.json:
        n = len(json.loads(out.read_text(encoding="utf-8"))) if out.is_file() else 0
        print(f"== {n} figures written to {out}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
