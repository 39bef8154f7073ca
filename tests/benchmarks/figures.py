"""Benchmark figures as JSON with stable keys, so runs can be compared between versions.

`python tests/benchmarks/run_all.py --json FILE` names FILE in the environment variable
WARTABLE_BENCH_JSON; every bench_*.py passes its figures to `report`, which merges them into
that file as a flat object {key: number}. Keys are slash-separated paths made of the bench's
own fixed names (`aa_calc/sea/40v40/exact_cpu_s`, `maps/aa_anniversary/world/load_ms`,
`saves/2000_actions/load_json_ms`), never of run-dependent text, so they stay the same from
one version to the next. Run on its own, a bench writes nothing unless the variable is set.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from pathlib import Path

ENV = "WARTABLE_BENCH_JSON"


def slug(text: str) -> str:
    """A key part from a column label: `frame 100 % ms` -> `frame_100_pct_ms`."""
    text = text.lower().replace("%", " pct ")
    return re.sub(r"[^a-z0-9.]+", "_", text).strip("_")


def write_json(path: str | Path, figures: Mapping[str, float]) -> None:
    """Merge these figures into the JSON object at `path` (created if missing)."""
    p = Path(path)
    old = json.loads(p.read_text(encoding="utf-8")) if p.is_file() else {}
    old.update({k: float(v) for k, v in figures.items()})
    p.write_text(json.dumps(old, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def report(prefix: str, figures: Mapping[str, float]) -> None:
    """Figures under `prefix/`, their labels made into key parts, into the run's JSON file
    (when run_all.py --json set one). Non-numbers are left out."""
    path = os.environ.get(ENV)
    if not path:
        return
    write_json(path, {f"{prefix}/{slug(k)}": v for k, v in figures.items()
                      if isinstance(v, int | float) and not isinstance(v, bool)})
