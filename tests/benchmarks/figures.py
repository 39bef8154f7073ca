"""Benchmark figures as JSON with stable keys, so runs can be compared between versions.

Each bench_*.py that takes `--json FILE` writes a flat object {key: number}; keys are
slash-separated paths (`aa_calc/sea/40v40/exact_cpu_s`, `maps/aa_anniversary/world/load_ms`)
that stay the same from one version to the next. `run_all.py --json FILE` merges them.
"""

from __future__ import annotations

import json
from pathlib import Path


def write_json(path: str | Path, figures: dict[str, float]) -> None:
    """Merge these figures into the JSON object at `path` (created if missing)."""
    p = Path(path)
    old = json.loads(p.read_text(encoding="utf-8")) if p.is_file() else {}
    old.update({k: float(v) for k, v in figures.items()})
    p.write_text(json.dumps(old, indent=1, sort_keys=True) + "\n", encoding="utf-8")
