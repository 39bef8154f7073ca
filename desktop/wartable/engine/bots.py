"""What every game's bot shares: its levels, the time-limit callable, and the entry a game
registers so the app can play it and ask it for hints (issue 7)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from wartable.core.rng import Rng
    from wartable.engine.actions import Action
    from wartable.engine.session import Session

LEVELS = ("strong", "fast", "random")
Budget = Callable[[], bool]  # True while the bot may keep thinking (a time limit per turn)


@dataclass(frozen=True)
class Bot:
    """A game's bot. `play`: the deciding side's next action at a level, with the reason a
    player reads ("" when there is none). `hint`: the strong level's suggestion for a
    human's next decision (None: nothing to suggest; rolls are hinted by the app)."""

    play: Callable[[Session, Rng, str, Budget], tuple[Action, Rng, str]]
    hint: Callable[[Session, Budget], tuple[Action, str] | None]
