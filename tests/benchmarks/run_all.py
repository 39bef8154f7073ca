"""Run every benchmark and print its table: `python tests/benchmarks/run_all.py`.

Each bench_*.py also runs on its own. The test_bench_*.py files run reduced versions with
the tests, so CI exercises the code; numbers are reported here, never asserted.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    failed = 0
    for script in sorted(HERE.glob("bench_*.py")):
        print(f"== {script.stem}", flush=True)
        r = subprocess.run([sys.executable, str(script)], cwd=HERE.parents[1])
        failed += r.returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
