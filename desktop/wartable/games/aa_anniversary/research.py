"""Research & Development results (Phase 1: Research & Development): which developments each
power holds. The rest of the rules ask `has(state, power, dev)`; the R&D phase adds to it.

State: vars["developments"] = power -> tuple of development ids (sorted), absent = none.
"""

from __future__ import annotations

from wartable.core.frozen import FrozenMap
from wartable.model.state import GameState

V_DEVELOPMENTS = "developments"

# Breakthrough Chart 1 and Chart 2 (Phase 1: Research & Development), ids used in the data.
ADVANCED_ARTILLERY = "advanced_artillery"
ROCKETS = "rockets"
PARATROOPERS = "paratroopers"
INCREASED_FACTORY_PRODUCTION = "increased_factory_production"
WAR_BONDS = "war_bonds"
IMPROVED_MECHANIZED_INFANTRY = "improved_mechanized_infantry"
SUPER_SUBMARINES = "super_submarines"
JET_FIGHTERS = "jet_fighters"
IMPROVED_SHIPYARDS = "improved_shipyards"
RADAR = "radar"
LONG_RANGE_AIRCRAFT = "long_range_aircraft"
HEAVY_BOMBERS = "heavy_bombers"


def developments(state: GameState, power: str) -> frozenset[str]:
    held: FrozenMap[str, tuple[str, ...]] = state.var(V_DEVELOPMENTS, FrozenMap())
    return frozenset(held.get(power, ()))


def has(state: GameState, power: str, dev: str) -> bool:
    return dev in developments(state, power)


def with_development(state: GameState, power: str, dev: str) -> GameState:
    held: FrozenMap[str, tuple[str, ...]] = state.var(V_DEVELOPMENTS, FrozenMap())
    now = tuple(sorted(set(held.get(power, ())) | {dev}))
    return state.with_var(V_DEVELOPMENTS, held.set(power, now))
