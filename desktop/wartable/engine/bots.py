"""What every game's bot shares: its levels and the time-limit callable (issue 7)."""

from __future__ import annotations

from collections.abc import Callable

LEVELS = ("strong", "fast", "random")
Budget = Callable[[], bool]  # True while the bot may keep thinking (a time limit per turn)
