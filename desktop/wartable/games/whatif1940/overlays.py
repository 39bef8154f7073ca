"""The supply overlay [6.2-6.8] as data: every ground unit out of supply gets a red barred
ring, every unit in supply by the coast alone an amber "C" [6.4, 6.5]; the tooltip gives
the reason with its rule numbers. One trace per state (1-2 ms for both maps, measured in
tests/benchmarks/bench_w40.py), cheap enough for the GUI thread."""

from __future__ import annotations

from collections.abc import Mapping

from wartable.engine.overlays import PieceMark
from wartable.engine.rules import Game
from wartable.games.whatif1940 import supply
from wartable.games.whatif1940.board import board_of
from wartable.model.state import GameState

OOS = "oos"
COASTAL = "coastal"


def supply_marks(game: Game, state: GameState) -> dict[str, PieceMark]:
    out: dict[str, PieceMark] = {}
    for pid, s in supply.all_statuses(game, board_of(game), state).items():
        if not s.supplied:
            out[pid] = PieceMark(OOS, "#c62828", "", s.reason)
        elif s.coastal_only:
            out[pid] = PieceMark(COASTAL, "#e08a00", "C", s.reason)
    return out


def supply_summary(marks: Mapping[str, PieceMark]) -> str:
    oos = sum(1 for m in marks.values() if m.kind == OOS)
    return (f"Supply overlay: {oos} unit(s) out of supply, {len(marks) - oos} on coastal "
            f"supply only [6.2-6.5]")
