"""Quick run of the A&A bot benchmark so CI exercises it (numbers are reported, not asserted)."""

from bench_aa_bot import measure


def test_bot_turn_time_benchmark_runs_at_each_level() -> None:
    r = measure(rounds=1, levels=("fast", "strong@1s"))
    assert set(r) == {"fast", "strong@1s"}
    for row in r.values():
        assert row["turns"] == 7  # round 1 of 1941: seven powers' turns, China's included
        assert row["max ms"] >= row["median ms"] > 0
