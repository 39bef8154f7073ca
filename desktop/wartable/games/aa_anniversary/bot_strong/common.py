"""What the strong bot's plans share: the plan's entries, the time budget, distances on
the map, and the enemy's threat to a space (bot_strong/__init__.py describes the plans)."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

from wartable.engine.actions import Action
from wartable.engine.bots import Budget
from wartable.engine.rules import Game
from wartable.games.aa_anniversary import research
from wartable.games.aa_anniversary.bot_fast import (
    battle_developments,
    battle_odds,
    enemy_land,
    force_of,
    land_distances,
)
from wartable.games.aa_anniversary.combat import Force
from wartable.games.aa_anniversary.steps import mobilize
from wartable.games.aa_anniversary.steps.common import (
    MOBILIZATION,
    allied,
    controller,
    space_name,
    stats,
    world,
)
from wartable.model.state import GameState, Piece

DEFEND_P = 0.2  # a capital/victory city is safe when the enemy's best attack wins this often
THREAT_ROUNDS = 3  # the enemy's attack is judged over this many rounds (keeps it fast)


@dataclass(frozen=True)
class Planned:
    action: Action
    reason: str = ""


def within_budget(budget: Budget | None) -> bool:
    return budget is None or budget()


def eval_budget(count: int) -> Budget:
    """A budget of `count` costly evaluations (for tests and benchmarks without a clock)."""
    left = [count]

    def more() -> bool:
        left[0] -= 1
        return left[0] >= 0

    return more


# --- map and threat helpers ----------------------------------------------------------------
def distances(game: Game, source: str) -> dict[str, int]:
    """Moves from `source` to every space, around neutrals."""
    return all_distances(game, [source])


def move_allowance(game: Game, unit: str) -> int:
    return int(game.definition.unit_types[unit].movement)


def _threat_force(game: Game, state: GameState, power: str, target: str
                  ) -> tuple[Force, set[str]]:
    """The enemy units that could attack `target` on their next turn, and their powers."""
    w = world(game)
    land = land_distances(game, [target])
    anyd = distances(game, target)
    units: list[str] = []
    sides: set[str] = set()
    for p in state.pieces.values():
        if p.location == MOBILIZATION or allied(game, p.side, power):
            continue
        s = stats(game, p)
        if not s.fights or s.sea:
            continue
        mv = move_allowance(game, p.type)
        if s.air:
            near = anyd.get(p.location, 99) <= (mv + 1) // 2 + 1
        elif p.attrs.get("on"):
            near = anyd.get(p.location, 99) <= 3  # a transport's move, then the landing
        else:
            near = p.location in w.land and land.get(p.location, 99) <= mv
        if near:
            units.append(p.type)
            sides.add(p.side)
    return force_of(units), sides


def _defence(game: Game, state: GameState, power: str, space: str,
             extra: Iterable[str] = (), less: Iterable[str] = ()) -> Force:
    gone = set(less)
    units = [
        p.type
        for p in state.pieces_at(space)
        if allied(game, p.side, power)
        and p.id not in gone
        and not stats(game, p).factory
        and not p.attrs.get("on")
    ]
    return force_of(units + list(extra))


def threat(game: Game, state: GameState, power: str, space: str,
           extra: Iterable[str] = (), less: Iterable[str] = ()) -> float:
    """P(the enemy's best next-turn attack on `space` takes it), with `extra` unit types
    added to its defenders and the pieces `less` gone."""
    att, sides = _threat_force(game, state, power, space)
    if not any(world(game).catalog[u].capture for u, _ in att.units):
        return 0.0
    # Both sides' developments change the odds (Phase 1: Research & Development).
    devs = battle_developments(game, state, sides, [power])
    return battle_odds(game, att, _defence(game, state, power, space, extra, less),
                       THREAT_ROUNDS, devs)[1]


def key_spaces(game: Game, state: GameState, power: str) -> list[str]:
    """The power's capital, victory cities and factory territories, most valuable first."""
    w = world(game)
    out: dict[str, int] = {}
    cap = w.capital.get(power)
    if cap and controller(state, cap) == power:
        out[cap] = 100
    for s in w.victory:
        if controller(state, s) == power:
            out.setdefault(s, 20 + w.ipc.get(s, 0))
    for f in mobilize.factories(game, state, power):
        out.setdefault(f, 10 + w.ipc.get(f, 0))
    return sorted(out, key=lambda s: (-out[s], s))


def all_distances(game: Game, sources: Iterable[str]) -> dict[str, int]:
    """Moves over land and sea from the nearest source to every space, around neutrals."""
    w = world(game)
    dist = {z: 0 for z in sorted(set(sources))}
    q: deque[str] = deque(dist)
    while q:
        s = q.popleft()
        for n in w.neighbors[s]:
            if n not in dist and n not in w.neutral:
                dist[n] = dist[s] + 1
                q.append(n)
    return dist


def sea_distances(game: Game, sources: Iterable[str]) -> dict[str, int]:
    """Sea moves from the nearest of the source zones to every sea zone."""
    w = world(game)
    dist = {z: 0 for z in sorted(set(sources)) if z in w.sea}
    q: deque[str] = deque(dist)
    while q:
        s = q.popleft()
        for n in w.neighbors[s]:
            if n in w.sea and n not in dist:
                dist[n] = dist[s] + 1
                q.append(n)
    return dist


def enemy_coast_distance(game: Game, state: GameState, power: str,
                          victory_only: bool = False) -> dict[str, int]:
    """Sea zone -> sea moves to a zone next to enemy land (or to an enemy victory city)."""
    w = world(game)
    enemy = set(enemy_land(game, state, power))
    if victory_only:
        enemy &= w.victory
    return sea_distances(game, (z for z in w.sea if any(n in enemy for n in w.neighbors[z])))


def carrier_capacity(game: Game, unit: str) -> int:
    return int(game.definition.unit_types[unit].extra.get("carrier_capacity", 0))


def is_carrier(game: Game, unit: str) -> bool:
    return carrier_capacity(game, unit) > 0


def place_name(game: Game, space: str) -> str:
    return space_name(game, space)


def describe_units(game: Game, types: Iterable[str]) -> str:
    return force_of(types).describe(world(game).catalog)


def transport_cost(game: Game, unit: str) -> int:
    return int(game.definition.unit_types[unit].extra.get("transport_cost", 0))


# --- noncombat move ------------------------------------------------------------------------
def air_left(game: Game, state: GameState, q: Piece) -> float:
    """The movement an aircraft has left this turn (Long-Range Aircraft counted)."""
    return float(research.movement(game, state, q.side, q.type)) - float(q.attrs.get("mp", 0))


def flies_to(game: Game, state: GameState, q: Piece, to: str) -> bool:
    return distances(game, q.location).get(to, 99) <= air_left(game, state, q)
