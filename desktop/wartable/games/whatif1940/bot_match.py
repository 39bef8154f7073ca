"""Bot matches for 1940: What If? (issue 7): `play_match` and `bot_selfplay`, the same
report shape as the Axis & Allies bot's.

Scoring a game: the result if the game ended (the Ruhr sudden death [4.2], Moscow falls
[4.3], the turn-11 default or draw [4.4]); a game stopped by --rounds before its end has
no victory condition met, so it is scored by the city hexes won or lost against the
start of play [3.12] (net, for the German), then by the units each camp has in the dead
pile, and last by the end-of-game default as it would stand now [4.4] ("Allies" or
"draw"). Pure: no clock; a time limit per side's turn comes in as `turn_budget`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from wartable.core.errors import IllegalAction
from wartable.core.rng import Rng
from wartable.engine.bots import Budget
from wartable.engine.loop import deciding_side
from wartable.engine.rules import Game
from wartable.engine.session import Session
from wartable.games.whatif1940 import bot, units, victory
from wartable.games.whatif1940.board import board_of
from wartable.games.whatif1940.ids import ALLIED_SIDES, DEAD, GERMAN, SOVIET
from wartable.games.whatif1940.steps import control
from wartable.model.state import GameState

CAMPS = ("german", "allied")  # units.camp() of the sides [1.3, 4.1]
LAST_TURN = 11  # the game ends after turn 11 (Nov II) [4.4]: --rounds defaults to it


def camp_of_result(result: str) -> str:
    """"german", "allied" or "draw" from the game's result text [4.2-4.4]."""
    if result.startswith("The Germans win"):
        return "german"
    if result.startswith("The Allies win"):
        return "allied"
    return "draw"


def city_balance(game: Game, state: GameState) -> int:
    """Cities the German camp took minus those it lost, against the start of play [3.12]."""
    board = board_of(game)
    net = 0
    for h, x in board.hexes.items():
        if not x.city:
            continue
        was = control.initial_controller(board, state, h)
        now = control.controller(board, state, h)
        if was == now:
            continue
        if now == GERMAN:
            net += 1
        elif was == GERMAN and now in ALLIED_SIDES:
            net -= 1
    return net


def dead_units(game: Game, state: GameState) -> dict[str, int]:
    out = dict.fromkeys(CAMPS, 0)
    for p in state.pieces_at(DEAD):
        if units.is_ground(game, p) and not units.is_neutral_nation(game, p):
            out[units.camp(p.side)] += 1
    return out


def score(game: Game, state: GameState) -> tuple[str, str]:
    """(winner camp or "draw", how it was decided)."""
    if state.result:
        return camp_of_result(state.result), "result"
    net = city_balance(game, state)
    if net:
        return ("german" if net > 0 else "allied"), "cities"
    dead = dead_units(game, state)
    if dead["german"] != dead["allied"]:
        return ("german" if dead["german"] < dead["allied"] else "allied"), "losses"
    return camp_of_result(victory.default_result(game, state)), "default"


def play_match(game: Game, scenario: str, seed: int | str, bots: Mapping[str, str],
               rounds: int, max_actions: int = 20_000,
               turn_budget: Callable[[], Budget] | None = None,
               check: bool = False) -> dict[str, Any]:
    """Play one game, each side at its level ("strong", "fast", "random"; missing =
    random) until it ends or `rounds` game turns are over. `check`: run the invariants after
    every action and report what broke."""
    session = Session.start(game, scenario, seed=seed)
    first = game.definition.scenarios[scenario].first_turn \
        if scenario in game.definition.scenarios else 1
    last = first + rounds - 1
    rng = Rng.from_seed(f"bot:{seed}")
    applied = refused = 0
    problems: list[str] = []
    key: tuple[int, str] = (-1, "")
    budget: Budget | None = None
    while session.state.result is None and session.state.turn <= last and \
            applied < max_actions:
        side = deciding_side(session.state)
        k = (session.state.turn, session.state.active_side)
        if k != key:
            key = k
            budget = turn_budget() if turn_budget is not None else None
        action, rng = bot.choose_action(session, rng, bots.get(side, "random"), budget)
        try:
            session = session.submit(action)
        except IllegalAction:
            refused += 1
            if refused > 50 * (applied + 10):
                problems.append(f"stuck at serial {session.state.serial}")
                break
            continue
        applied += 1
        if check:
            problems.extend(game.rules.invariants(game, session.state))
            if problems:
                break
    st = session.state
    winner, how = score(game, st)
    return {
        "seed": str(seed), "winner": winner, "decided_by": how, "turn": st.turn,
        "result": st.result, "actions": applied, "refused": refused,
        "city_balance": city_balance(game, st), "dead": dead_units(game, st),
        "problems": problems, "bots": dict(sorted(bots.items())),
    }


def bot_selfplay(game: Game, scenario: str, bot_level: str, vs_level: str, games: int,
                 rounds: int, seed: int | str = 1,
                 turn_budget: Callable[[], Budget] | None = None,
                 sides: tuple[str, ...] = CAMPS) -> dict[str, Any]:
    """`bot_level` plays the camps of `sides` in turn (German in even games, the Allies in
    odd ones by default), `vs_level` the other camp. win_rate counts a win 1, a draw 1/2."""
    results: list[dict[str, Any]] = []
    total = 0.0
    for g in range(games):
        mine = sides[g % len(sides)]
        bots = {s: (bot_level if units.camp(s) == mine else vs_level)
                for s in (GERMAN, SOVIET, *sorted(ALLIED_SIDES - {SOVIET}))}
        r = play_match(game, scenario, f"{seed}.{g}", bots, rounds, turn_budget=turn_budget)
        r["bot_camp"] = r["bot_alliance"] = mine  # (the A&A report's name for it)
        total += 1.0 if r["winner"] == mine else 0.5 if r["winner"] == "draw" else 0.0
        results.append(r)
    by_camp = {c: [r for r in results if r["bot_camp"] == c] for c in sides}
    return {
        "game": game.definition.id, "scenario": scenario, "bot": bot_level, "vs": vs_level,
        "games": games, "rounds": rounds,
        "win_rate": total / games if games else 0.0,
        "win_rate_by_camp": {c: (sum(1.0 if r["winner"] == c else 0.5
                                     if r["winner"] == "draw" else 0.0 for r in rs) / len(rs))
                             for c, rs in by_camp.items() if rs},
        "results": results,
    }
