"""The Axis & Allies Anniversary bot's levels and matches (issue 7): `explained_action` picks
the level ("fast": bot_fast.py, "strong": bot_strong/, else random play) and returns the
bot's reason with its action, and takes the caller's time budget (a callable: this code never
reads the clock); `play_match` and `bot_selfplay` play whole games between levels.
Pure: no `random`, no files, no clock. Tie-breaking uses `wartable.core.rng.Rng`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from wartable.core.errors import IllegalAction
from wartable.core.rng import Rng
from wartable.engine.actions import Action
from wartable.engine.bots import Budget, play_ranked
from wartable.engine.loop import deciding_side
from wartable.engine.rules import Game
from wartable.engine.session import Session
from wartable.games.aa_anniversary import bot_strong
from wartable.games.aa_anniversary.bot_fast import ranked_explained
from wartable.games.aa_anniversary.steps import income
from wartable.games.aa_anniversary.steps.common import world
from wartable.model.state import GameState


def choose_action(
    session: Session, rng: Rng, level: str = "fast", budget: Budget | None = None
) -> tuple[Action, Rng]:
    """The bot's action for the deciding power: the best candidate the engine accepts."""
    action, rng, _why = explained_action(session, rng, level, budget)
    return action, rng


def explained_action(
    session: Session, rng: Rng, level: str = "fast", budget: Budget | None = None
) -> tuple[Action, Rng, str]:
    """`choose_action` with the reason for it ("" when there is nothing worth saying).
    `budget` (strong level): called before each costly evaluation; False = stop thinking
    and play what is planned so far (the caller's time limit per turn). The random level,
    unknown levels, dice and refused proposals: engine/bots.play_ranked."""
    if level == "strong":
        return play_ranked(session, rng, level,
                           lambda p: bot_strong.ranked(session, budget, p))
    return play_ranked(session, rng, level, lambda p: ranked_explained(session))


# --- matches -----------------------------------------------------------------------------
def _alliance_scores(game: Game, state: GameState) -> dict[str, tuple[int, int, int]]:
    """(victory condition met, victory cities, income) per alliance."""
    w = world(game)
    res = state.result or ""
    out: dict[str, tuple[int, int, int]] = {}
    for al, name in (("axis", "The Axis"), ("allies", "The Allies")):
        won = int(res.startswith(f"{name} win"))
        vc = income.victory_cities(game, state, al)
        inc = sum(income.production(game, state, p) for p, a in w.alliance.items() if a == al)
        out[al] = (won, vc, inc)
    return out


def play_match(
    game: Game,
    scenario: str,
    seed: int | str,
    bots: Mapping[str, str],
    rounds: int,
    max_actions: int = 20_000,
    turn_budget: Callable[[], Budget] | None = None,
) -> dict[str, Any]:
    """Play a game with each power's bot level ("strong", "fast" or "random"; missing =
    random) until the game ends or `rounds` rounds are over. The winner: the victory
    conditions, then victory cities held, then income (issue 7's scoring). `turn_budget`
    makes a fresh budget (time limit) at the start of each power's turn."""
    session = Session.start(game, scenario, seed=seed)
    first = (
        game.definition.scenarios[scenario].first_turn
        if scenario in game.definition.scenarios
        else 1
    )
    last = first + rounds - 1
    rng = Rng.from_seed(f"bot:{seed}")
    applied = refused = 0
    turn_key: tuple[int, str] = (-1, "")
    budget: Budget | None = None
    while session.state.result is None and session.state.turn <= last and applied < max_actions:
        side = deciding_side(session.state)
        key = (session.state.turn, session.state.active_side)
        if key != turn_key:
            turn_key = key
            budget = turn_budget() if turn_budget is not None else None
        action, rng = choose_action(session, rng, bots.get(side, "random"), budget)
        try:
            session = session.submit(action)
        except IllegalAction:
            refused += 1
            if refused > 50 * (applied + 10):
                break
            continue
        applied += 1
    st = session.state
    scores = _alliance_scores(game, st)
    if scores["axis"] > scores["allies"]:
        winner = "axis"
    elif scores["allies"] > scores["axis"]:
        winner = "allies"
    else:
        winner = "draw"
    return {
        "seed": str(seed),
        "winner": winner,
        "turn": st.turn,
        "result": st.result,
        "actions": applied,
        "refused": refused,
        "scores": {k: list(v) for k, v in scores.items()},
        "bots": dict(sorted(bots.items())),
    }


def bot_selfplay(
    game: Game,
    scenario: str,
    bot_level: str,
    vs_level: str,
    games: int,
    rounds: int,
    seed: int | str = 1,
    turn_budget: Callable[[], Budget] | None = None,
) -> dict[str, Any]:
    """`bot_level` plays the Axis in even games and the Allies in odd ones, `vs_level` the
    other alliance. win_rate counts a win as 1 and a draw as 1/2; bot_victory_cities and
    bot_income are the means of what the bot's alliance holds at the end."""
    w = world(game)
    results: list[dict[str, Any]] = []
    score = 0.0
    vc = inc = 0
    for g in range(games):
        side = "axis" if g % 2 == 0 else "allies"
        bots = {p: (bot_level if a == side else vs_level) for p, a in w.alliance.items()}
        r = play_match(game, scenario, f"{seed}.{g}", bots, rounds, turn_budget=turn_budget)
        r["bot_alliance"] = side
        score += 1.0 if r["winner"] == side else 0.5 if r["winner"] == "draw" else 0.0
        vc += int(r["scores"][side][1])
        inc += int(r["scores"][side][2])
        results.append(r)
    n = max(1, games)
    return {
        "game": game.definition.id,
        "scenario": scenario,
        "bot": bot_level,
        "vs": vs_level,
        "games": games,
        "rounds": rounds,
        "win_rate": score / games if games else 0.0,
        "bot_victory_cities": vc / n,
        "bot_income": inc / n,
        "results": results,
    }
