"""Issue 15: the fuzzing and fault-injection campaigns of tests/reliability.py, bounded for
CI (about 30 s together). A bigger run is made by hand: `python tests/reliability.py`."""

from __future__ import annotations

from pathlib import Path

import reliability


def _clean(rep: reliability.Report) -> None:
    assert not rep.failures, rep.text() + "\n" + "\n".join(
        f"{k}: {v}" for k, v in sorted(rep.examples.items()))
    assert rep.cases > 0


def test_issue15_fuzz_mutated_saves_load_or_refuse_in_one_line_quickly() -> None:
    _clean(reliability.fuzz_saves(40, seed=15))


def test_issue15_fuzz_malformed_actions_are_illegal_never_another_error() -> None:
    _clean(reliability.fuzz_actions(400, seed=15))


def test_issue15_fuzz_hidden_units_never_leak_into_views_prompts_or_saves() -> None:
    _clean(reliability.hidden_checks(30, seed=15))


def test_issue15_fault_injection_kill_during_save_leaves_a_good_save_and_no_temp(
        tmp_path: Path) -> None:
    _clean(reliability.kill_during_save(3, tmp_path, seed=15))


def test_issue15_the_campaigns_can_fail() -> None:
    """Each campaign's check is live: a report with a failure is not clean."""
    rep = reliability.Report("x")
    rep.fail("KeyError", "example")
    rep.timed(reliability.CASE_SECONDS + 1, "slow case")
    assert rep.failures == {"KeyError": 1, "slow": 1}
