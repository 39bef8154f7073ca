"""I.G German Moscow-Capture Resolution Phase [4.3]: while Moscow (4624) is German-controlled
(supply irrelevant) the German rolls on the Moscow Falls Table, with its four DRMs combined
into one and recalculated every turn: Finland at war, Leningrad German-controlled, Japan at
war (anti-Soviet), Ploesti captured (pro-Soviet). A "falls" result wins the game at once.
The table and DRM values are ours (data/fronts.toml, provisional)."""

from __future__ import annotations

from typing import Any

from wartable.core.frozen import FrozenMap
from wartable.engine import procflow
from wartable.engine.actions import Event, Outcome
from wartable.engine.rules import Game
from wartable.games.whatif1940.board import Board
from wartable.games.whatif1940.handlers import StepHandler
from wartable.games.whatif1940.ids import (
    GERMAN,
    LENINGRAD,
    MOSCOW,
    V_FINLAND,
    V_GERMAN_WIN,
    V_JAPAN,
    V_PLOESTI,
)
from wartable.games.whatif1940.steps import control
from wartable.games.whatif1940.steps.offmap import Pred, procedure
from wartable.model.sequence import Position
from wartable.model.state import GameState

TABLE = "moscow_falls"
RESUME = "moscow_falls"
CONDITIONS = ("finland_at_war", "leningrad_german", "japan_at_war", "ploesti_captured")


def predicates(board: Board, state: GameState) -> dict[str, Pred]:
    return {
        "finland_at_war": lambda: bool(state.var(V_FINLAND, False)),
        "leningrad_german": lambda: control.controller(board, state, LENINGRAD) == GERMAN,
        "japan_at_war": lambda: bool(state.var(V_JAPAN, False)),
        "ploesti_captured": lambda: bool(state.var(V_PLOESTI, False)),
    }


class MoscowCapture(StepHandler):
    def enter(self, game: Game, board: Board, state: GameState, pos: Position) -> Outcome:
        if control.controller(board, state, MOSCOW) != GERMAN:
            ev = Event("info", "Moscow (4624) is not German-controlled: no Moscow Falls roll",
                       GERMAN, "4.3")
            return Outcome(state, (ev,), auto_end=True)
        proc = procedure(game, TABLE, CONDITIONS)
        return procflow.run_procedure(game, state, proc, predicates(board, state), side=GERMAN,
                                      purpose="Moscow Falls Table", resume=RESUME)


def resume(game: Game, board: Board, state: GameState, data: FrozenMap[str, Any],
           dice: tuple[int, ...]) -> Outcome:
    proc = procedure(game, TABLE, CONDITIONS)
    res = procflow.resolution(proc, data, dice)
    note = " (provisional table)" if proc.provisional else ""
    ev = Event("roll", f"Moscow Falls Table{note}: {res.text()}", GERMAN, "4.3")
    if res.result == "falls":
        state = state.with_var(V_GERMAN_WIN, f"The Germans win: Moscow has fallen "
                                             f"({res.text()}) [4.3].")
    return Outcome(state, (ev,))
