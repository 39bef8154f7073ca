"""Random legal play of both scenarios with the invariants checked after every action:
unit counts conserved except by purchase and casualties, IPCs never negative, every unit
in a legal place (land units on land or aboard a transport, sea units at sea)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from wartable.core.frozen import FrozenMap
from wartable.engine.randomplay import play_random
from wartable.engine.rules import Game
from wartable.engine.session import Session
from wartable.games.aa_anniversary.rules import AARules
from wartable.maps.mapfile import load_map
from wartable.persistence.gamedata import load_definition

ROOT = Path(__file__).resolve().parents[3]
SEEDS = 20
ROUNDS = 2


@lru_cache(maxsize=1)
def game() -> Game:
    d = load_definition("wartable.games.aa_anniversary.data")
    m = load_map((ROOT / "maps/aa_anniversary/world.json.gz").read_bytes(), "world")
    return Game(d, AARules(), FrozenMap({"aa_anniversary/world": m}))


@pytest.mark.parametrize("scenario", ["1941", "1942"])
def test_random_play_keeps_the_invariants(scenario: str) -> None:
    for seed in range(SEEDS):
        s = Session.start(game(), scenario, seed=f"aa{seed}")
        rep = play_random(s, seed, max_actions=5000,
                          until=lambda x: x.state.turn > ROUNDS)
        assert rep.problems == (), (seed, rep.problems[:3])
        st = rep.session.state
        assert st.turn > ROUNDS or st.result is not None, (seed, st.turn)
