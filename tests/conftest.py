"""Shared test setup: Qt offscreen, a private WARTABLE_HOME, the test game registered."""

from __future__ import annotations

import os
import sys
from pathlib import Path

# Before any Qt import: no display is needed, and fonts come from the system.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QT_QUICK_BACKEND", "software")

TESTS = Path(__file__).resolve().parent
sys.path.insert(0, str(TESTS))  # makes `testgame` importable everywhere

import pytest  # noqa: E402

import assistedgame  # noqa: E402,F401  (registers "kitgame", the assisted-play kit's test game)
import testgame  # noqa: E402,F401  (registers the "skirmish" test game)


@pytest.fixture(autouse=True)
def _private_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Every test gets its own data/config/autosave folders; nothing touches the real ones."""
    home = tmp_path_factory.mktemp("wartable-home")
    monkeypatch.setenv("WARTABLE_HOME", str(home))
    return home
