"""Benchmark: 1940: What If? (issue 5): the legal moves of the largest German stack, a full
supply trace of every unit on both maps [6.3-6.7], and one game turn of random play.

Run: PYTHONPATH=desktop:tests python tests/benchmarks/bench_w40.py
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1]),
                str(Path(__file__).resolve().parents[2] / "desktop")]

from figures import report  # noqa: E402

from wartable.engine.actions import Action  # noqa: E402
from wartable.engine.loop import prompt  # noqa: E402
from wartable.engine.randomplay import play_random  # noqa: E402
from wartable.engine.rules import Game  # noqa: E402
from wartable.engine.session import Session  # noqa: E402
from wartable.games.whatif1940 import supply, units  # noqa: E402
from wartable.games.whatif1940.board import board_of  # noqa: E402
from wartable.games.whatif1940.ids import EAST, V_SETUP_DONE  # noqa: E402
from wartable.games.whatif1940.steps import movement  # noqa: E402
from wartable.model.state import GameState, Piece  # noqa: E402
from wartable.persistence.gamedata import load_game  # noqa: E402


def median_ms(fn: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


def set_up(game: Game, seed: int) -> Session:
    """Quick set-up of every side to the start of turn 1 (not timed)."""
    session = Session.start(game, "standard", seed=seed)
    for side in ("soviet", "german", "german", "anglo_french"):
        session = session.submit(Action.make("auto_setup", side))
        session = session.submit(Action.make("end_step", side))
    assert session.state.var(V_SETUP_DONE, False)
    return session


def at_step(game: Game, state: GameState, step: str) -> GameState:
    pos = next(p for p in game.positions if p.step.id == step)
    st = replace(state, step_index=pos.index, frames=(), active_side=pos.side)
    return game.rules.enter_step(game, st, pos).state


def largest_german_stack(game: Game, state: GameState) -> tuple[Piece, ...]:
    board = board_of(game)
    stacks: dict[str, list[Piece]] = {}
    for p in state.pieces.values():
        if p.side == "german" and board.map_of(p.location) == EAST and units.stacks(game, p):
            stacks.setdefault(p.location, []).append(p)
    return tuple(max(stacks.values(), key=lambda ps: (len(ps), ps[0].location)))


def measure(repeats: int = 7, seed: int = 3, turns: int = 1) -> dict[str, float]:
    game = load_game("whatif1940")
    board = board_of(game)
    out: dict[str, float] = {}
    session = set_up(game, seed)
    st = at_step(game, session.state, "german_east_move_d")
    force = largest_german_stack(game, st)
    out["largest German stack (units)"] = len(force)
    out["stack reach ms"] = median_ms(
        lambda: movement.reach_of(game, board, st, force, EAST), repeats)
    # The whole movement prompt (every German east unit) on a state not seen before.
    out["east movement prompt ms"] = median_ms(lambda: prompt(game, replace(st)), repeats)
    # Full supply trace: every ground unit on both maps, each time on a new state (cold
    # per-state cache, warm static tables).
    supply.all_statuses(game, board, st)
    on_map = sum(1 for p in st.pieces.values() if board.on_map(p.location)
                 and units.is_ground(game, p))
    out["units traced"] = on_map
    out["full supply trace ms"] = median_ms(
        lambda: supply.all_statuses(game, board, replace(st)), repeats)
    # The worst case for the reasons: every German east unit cut off deep in the USSR, so
    # each out-of-supply unit also gets its "what cut the line" search.
    deep = [h for h in board.labels(EAST) if board.hex(h).region == "USSR"
            and not board.hex(h).red_row and board.hex(h).terrain == "clear"
            and int(h[2:]) >= 18 and not any(True for _ in st.pieces_at(h))]
    cut = st
    ger = sorted((p for p in st.pieces.values() if p.side == "german"
                  and board.map_of(p.location) == EAST and units.stacks(game, p)),
                 key=lambda p: p.id)
    for p, h in zip(ger, deep, strict=False):
        cut = cut.with_piece(replace(p, location=h))
    oos = sum(1 for s in supply.all_statuses(game, board, cut).values() if not s.supplied)
    out["units cut off"] = oos
    out["full supply trace, cut off ms"] = median_ms(
        lambda: supply.all_statuses(game, board, replace(cut)), repeats)
    # One AI-free game turn of random play (actions checked, invariants off).
    start_turn = session.state.turn
    t = time.perf_counter()
    rep = play_random(session, seed, check=False,
                      until=lambda s: s.state.turn >= start_turn + turns)
    out["random game turn s"] = (time.perf_counter() - t) / turns
    out["random game turn actions"] = rep.actions / turns
    return out


if __name__ == "__main__":
    figs = measure()
    report("w40", figs)
    for k, v in figs.items():
        print(f"{k:32s} {v:10.2f}")
