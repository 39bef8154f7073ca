"""Quick run of the start-up benchmark so CI exercises it (numbers reported, not asserted)."""

from bench_app_start import measure


def test_app_start_reaches_a_painted_map() -> None:
    r = measure(runs=1)
    assert r["imports"] < r["window"] < r["game"] <= r["painted"]
