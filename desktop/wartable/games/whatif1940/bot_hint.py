"""Game > Hint in 1940: What If? (issue 7): the strong bot's next action for the deciding
side, not played. A roll to type in is not a decision: the app explains it instead."""

from __future__ import annotations

from wartable.core.rng import Rng
from wartable.engine.actions import Action
from wartable.engine.bots import Budget
from wartable.engine.loop import deciding_side
from wartable.engine.session import Session
from wartable.games.whatif1940.bot import explained_action


def hint(session: Session, budget: Budget) -> tuple[Action, str] | None:
    if session.prompt(deciding_side(session.state)).dice is not None:
        return None
    # Seeded from the position, so the same position always gets the same hint.
    action, _rng, why = explained_action(session, Rng.from_seed(f"hint:{session.state.serial}"),
                                         "strong", budget)
    return action, why
