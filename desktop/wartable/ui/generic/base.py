"""What every generic panel of assisted play shares (issue 18): the view it draws from and
the way it acts. Panels read only the game's data (GameDefinition's tracks, flags, tables,
cups, unit types, counter mix) and the state: they never name a game."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtWidgets import QWidget

from wartable.engine.actions import Action, Event
from wartable.engine.rules import Game
from wartable.model.state import GameState


def ref(rule: str) -> str:
    """A rule reference as shown: "[K5.1]" (data stores it bare; never doubled)."""
    rule = rule.strip().removeprefix("[").removesuffix("]").strip()
    return f"[{rule}]" if rule else ""


def with_ref(text: str, rule: str) -> str:
    """`text [rule]`, unless the text already names that rule."""
    r = ref(rule)
    return text if not r or r in text else f"{text} {r}"


PROVISIONAL = " (provisional)"


@dataclass(frozen=True)
class KitView:
    """One snapshot as the player at the screen may see it."""

    game: Game
    state: GameState
    side: str  # the deciding side: who acts for the table's verbs
    viewer: frozenset[str] | None  # the sides whose secrets may be shown (None: all)
    events: tuple[Event, ...]

    def may_read(self, side: str) -> bool:
        return self.viewer is None or side in self.viewer


Act = Callable[[Action], None]


class Panel(QWidget):
    """A panel drawn from a KitView; `act` sends a verb to the engine (logged, undoable)."""

    def __init__(self, act: Act, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._act = act
        self.view: KitView | None = None

    def send(self, verb: str, side: str | None = None, **args: Any) -> None:
        if self.view is None:
            return
        self._act(Action.make(verb, side or self.view.side, **args))

    def refresh(self, view: KitView) -> None:
        self.view = view
        self.redraw(view)

    def redraw(self, view: KitView) -> None:
        raise NotImplementedError
