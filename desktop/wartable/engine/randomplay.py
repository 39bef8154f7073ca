"""Random legal play, for `wartable selfplay` and the fuzz tests.

Uses the core Rng (never `random`), so a seed replays the same game everywhere.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from wartable.core.errors import IllegalAction
from wartable.core.rng import Rng
from wartable.engine.actions import DICE, END_STEP, Action
from wartable.engine.loop import deciding_side
from wartable.engine.session import Session


@dataclass(frozen=True, slots=True)
class PlayReport:
    session: Session
    actions: int
    rejected: int  # candidates the engine refused (fine: candidates are only proposals)
    problems: tuple[str, ...]  # invariant violations found; empty means all held


def random_action(session: Session, rng: Rng, end_bias: int = 8) -> tuple[Action, Rng]:
    """One candidate action for the deciding side. Ends the step with chance 1/end_bias
    when other choices exist, so games move forward instead of shuffling forever."""
    state = session.state
    side = deciding_side(state)
    p = session.prompt(side)
    if p.dice is not None:
        vals, rng = rng.roll_many(p.dice.count, p.dice.sides)
        return Action.make(DICE, side, values=vals), rng
    cands = session.game.rules.candidate_actions(session.game, state, p)
    ends = [a for a in cands if a.verb == END_STEP]
    others = [a for a in cands if a.verb != END_STEP]
    if ends and others:
        k, rng = rng.below(end_bias)
        if k == 0:
            return ends[0], rng
    pool = others or ends
    if not pool:
        return Action(END_STEP, side), rng
    i, rng = rng.below(len(pool))
    return pool[i], rng


def play_random(session: Session, seed: int | str, max_actions: int = 10_000,
                until: Callable[[Session], bool] | None = None,
                check: bool = True) -> PlayReport:
    """Play random legal actions until the game ends, `until` holds, or max_actions."""
    rng = Rng.from_seed(f"randomplay:{seed}")
    applied = rejected = 0
    problems: list[str] = []
    while applied < max_actions and session.state.result is None:
        if until is not None and until(session):
            break
        action, rng = random_action(session, rng)
        try:
            session = session.submit(action)
        except IllegalAction:
            rejected += 1
            if rejected > 50 * (applied + 10):
                problems.append(f"stuck: {rejected} refused candidates at serial "
                                f"{session.state.serial}")
                break
            continue
        applied += 1
        if check:
            for pr in session.game.rules.invariants(session.game, session.state):
                problems.append(f"after action {applied} ({action.verb}): {pr}")
            if problems:
                break
    return PlayReport(session, applied, rejected, tuple(problems))
