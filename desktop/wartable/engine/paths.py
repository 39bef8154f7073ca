"""Path and reach searches over any map: Dijkstra with a movement budget."""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable
from dataclasses import dataclass

Neighbors = Callable[[str], Iterable[str]]
# cost of entering `to` from `frm`; None means it may not be entered.
StepCost = Callable[[str, str], float | None]


@dataclass(frozen=True, slots=True)
class Reach:
    """Cheapest cost and predecessor for every location reachable within the budget."""

    start: str
    cost: dict[str, float]
    prev: dict[str, str]

    def path_to(self, goal: str) -> tuple[str, ...]:
        if goal not in self.cost:
            return ()
        out = [goal]
        while out[-1] != self.start:
            out.append(self.prev[out[-1]])
        return tuple(reversed(out))


def reachable(start: str, budget: float, neighbors: Neighbors, cost: StepCost,
              stop: Callable[[str], bool] | None = None) -> Reach:
    """Every location within `budget`. `stop(loc)`: may be entered but not left (e.g. enemy ZOC)."""
    best: dict[str, float] = {start: 0.0}
    prev: dict[str, str] = {}
    heap: list[tuple[float, str]] = [(0.0, start)]
    while heap:
        c, loc = heapq.heappop(heap)
        if c > best.get(loc, float("inf")):
            continue
        if loc != start and stop is not None and stop(loc):
            continue
        for nb in neighbors(loc):
            step = cost(loc, nb)
            if step is None:
                continue
            nc = c + step
            if nc <= budget + 1e-9 and nc < best.get(nb, float("inf")):
                best[nb] = nc
                prev[nb] = loc
                heapq.heappush(heap, (nc, nb))
    return Reach(start, best, prev)
