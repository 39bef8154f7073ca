"""A quick run of the printing benchmark so CI exercises it (numbers reported, not asserted)."""

from __future__ import annotations

import bench_printing as bench
import pytest


@pytest.mark.benchmark
def test_printing_benchmark_runs_reduced() -> None:
    rows = bench.measure(dpi=40, in_process=True)
    assert [r["case"] for r in rows] == ["setup", "tiles"]
    for r in rows:
        assert r["pages"] >= 1 and r["seconds"] > 0 and r["pdf_kb"] > 0
        assert r["tracemalloc_peak_mb"] > 0 and r["rss_peak_mb"] > 0
    text = bench.table(rows)
    assert "setup" in text and "tiles" in text and "at 40 dpi" in text


def test_largest_scenario_and_map_are_found() -> None:
    game, scenario, units = bench.largest_scenario()
    assert game and scenario and units >= 20  # at least the test game's endurance scenario
    assert bench.largest_map()
