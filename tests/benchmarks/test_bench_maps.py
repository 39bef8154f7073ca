"""Quick run of the per-map benchmark so CI exercises it (numbers reported, not asserted)."""

import pytest
from bench_maps import MAPS, measure


@pytest.mark.parametrize("map_id", MAPS)
def test_each_built_map_loads_and_redraws(qtbot: object, map_id: str) -> None:
    r = measure(map_id, frames=1, pieces=20)
    assert r["load ms"] > 0 and r["frame 100 % ms"] > 0
