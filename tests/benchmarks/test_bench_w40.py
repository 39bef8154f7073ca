"""Quick run of the 1940: What If? benchmark so CI exercises it (numbers are reported, not
asserted)."""

from bench_w40 import measure


def test_w40_benchmark_runs_moves_supply_trace_and_a_random_turn() -> None:
    r = measure(repeats=1)
    assert r["largest German stack (units)"] >= 2
    assert r["units traced"] > 50
    assert r["random game turn actions"] > 0
