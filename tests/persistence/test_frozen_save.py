"""Frozen saves: files written by earlier formats must keep loading (DESIGN.md, Save files).

Never regenerate a frozen file to make this pass; write a migration instead. A new
format version adds a new frozen file beside the old ones.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from savetest_helpers import FROZEN_DIR, FROZEN_V1

from wartable.model.serialize import state_to_dict
from wartable.persistence import savefile


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WARTABLE_HOME", str(tmp_path))


def test_frozen_format_1_save_loads() -> None:
    """The frozen file predates the test game's data version 2 (the fog option [S7]), so it
    loads through that data migration: the position must be exactly the saved one, and
    the only differences the ones the migration adds."""
    before = FROZEN_V1.read_bytes()
    doc = json.loads(before)
    assert doc["format_version"] == 1 and doc["data_version"] == "1"
    session = savefile.load_from_path(FROZEN_V1)
    assert len(session.log) == len(doc["actions"]) > 0
    loaded = state_to_dict(session.state)
    saved = doc["state"]
    assert loaded["options"] == {**saved["options"], "fog": False}
    assert loaded["data_version"] == "2"
    for key in ("pieces", "vars", "turn", "step_index", "active_side", "frames", "rng",
                "serial", "result", "dice_mode"):
        assert loaded[key] == saved[key], key
    assert FROZEN_V1.read_bytes() == before


@pytest.mark.parametrize("path", sorted(FROZEN_DIR.glob("*.wartable.json*")),
                         ids=lambda p: p.name)
def test_every_frozen_save_loads(path: Path) -> None:
    assert savefile.load_from_path(path).log
