"""Quick run of the save benchmark so CI exercises it (numbers are reported, not asserted)."""

from bench_saves import measure


def test_save_and_load_benchmark_runs_on_a_long_log() -> None:
    r = measure(actions=300, repeats=1)
    assert r["size gzip KB"] < r["size json KB"]
