"""Quick run of the 1940: What If? bot benchmark so CI exercises it (numbers are reported,
not asserted)."""

from bench_w40_bot import measure


def test_w40_bot_turn_time_benchmark_runs_at_each_level() -> None:
    r = measure(rounds=1, levels=("fast", "strong@1s"))
    assert set(r) == {"fast", "strong@1s"}
    for row in r.values():
        # Turn 1: the Soviet, German and Anglo-French set-ups and player turns [3.1, 5.2];
        # the German east interdiction steps in the Soviet turn count as the Soviet's.
        assert row["turns"] >= 3
        assert row["max ms"] >= row["median ms"] > 0
