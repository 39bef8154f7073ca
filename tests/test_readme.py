"""The README keeps exactly two set-up commands and .ci/run runs the test one verbatim."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _sh_blocks(text: str) -> list[str]:
    return [b.strip() for b in re.findall(r"```sh\n(.*?)```", text, flags=re.S)]


def test_readme_has_exactly_two_setup_commands() -> None:
    blocks = _sh_blocks((ROOT / "README.md").read_text(encoding="utf-8"))
    assert len(blocks) == 2
    start, tests = blocks
    assert "\n" not in start and "\n" not in tests  # one command each
    assert start.endswith(".venv/bin/wartable")
    assert tests.endswith("-m pytest")


def test_ci_runs_the_readme_test_command() -> None:
    tests = _sh_blocks((ROOT / "README.md").read_text(encoding="utf-8"))[1]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert tests in ci.splitlines()


def test_readme_screenshot_exists() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for rel in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text):
        assert (ROOT / rel).is_file(), rel
