"""Commands the UI sends and the frozen results the worker sends back."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Action, Event, Prompt
from wartable.engine.session import Session


@dataclass(frozen=True)
class NewGame:
    game_id: str
    scenario: str
    options: FrozenMap[str, Any] = field(default_factory=FrozenMap)
    seed: int | str = 0
    dice_mode: str = "digital"


@dataclass(frozen=True)
class Load:
    path: Path


@dataclass(frozen=True)
class Save:
    path: Path


@dataclass(frozen=True)
class SetTable:
    """Table settings changed during play (issue 7: the bot seats, "table.bots"): merged
    into the session's options, so saves and autosaves keep them; never the game's state."""

    options: FrozenMap[str, Any]


@dataclass(frozen=True)
class Submit:
    action: Action


@dataclass(frozen=True)
class Undo:
    pass


@dataclass(frozen=True)
class Redo:
    pass


# Long or read-only work on the current session. `fn(session, report, cancelled)`:
# report(percent, text) shows progress; cancelled() is True once the user cancels.
TaskFn = Callable[[Session, Callable[[int, str], None], Callable[[], bool]], Any]


@dataclass(frozen=True)
class Query:
    name: str
    fn: TaskFn


Command = NewGame | Load | Save | SetTable | Submit | Undo | Redo | Query


@dataclass(frozen=True)
class Snapshot:
    """Everything the UI needs after a change; immutable, so safe across threads."""

    generation: int  # increases with every new session value
    session: Session
    prompt: Prompt  # for the deciding side
    new_events: tuple[Event, ...]
    path: Path | None = None  # the file the game was loaded from or saved to
    dirty: bool = False  # changed since last save
    # One line for the status bar: the player's rule tables were refused, or a loaded save
    # keeps its own printed values (persistence/tables.py, issue 5).
    notice: str | None = None
    # The same position with its history restored (a save's log checked after it opened,
    # issue 20): the UI redraws the log from session.events instead of appending.
    fresh: bool = False

    @property
    def undo_label(self) -> str | None:
        return self.session.undo_label

    @property
    def redo_label(self) -> str | None:
        return self.session.redo_label


@dataclass(frozen=True)
class QueryResult:
    request: int
    name: str
    generation: int  # of the session the query ran on; stale when older than the UI's
    value: Any


@dataclass(frozen=True)
class Failure:
    request: int
    message: str
    illegal: bool  # True: the rules refused the action (show as-is); False: something broke
