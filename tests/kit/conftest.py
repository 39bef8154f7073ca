"""Fixtures of the assisted-play kit's tests: the Kit Front test game (tests/assistedgame)."""

from __future__ import annotations

import pytest

from wartable.engine.rules import Game
from wartable.persistence.gamedata import load_game


@pytest.fixture(scope="module")
def game() -> Game:
    return load_game("kitgame")
