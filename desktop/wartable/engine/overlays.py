"""Map overlays as data (issue 14): a game computes marks on pieces from a state; the map
view draws them, whatever the game. A mark is a coloured disc on the counter's corner, with
a letter or, without one, a barred ring ("no"), and a tooltip giving the reason and rule."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from wartable.model.state import GameState

if TYPE_CHECKING:
    from wartable.engine.rules import Game


@dataclass(frozen=True, slots=True)
class PieceMark:
    kind: str  # what the mark means ("oos", "coastal"): tests and summaries count by it
    colour: str  # "#rrggbb"
    letter: str  # "" draws a barred ring
    tooltip: str


@dataclass(frozen=True)
class Overlay:
    """One overlay a game offers in the View menu."""

    id: str
    title: str  # the menu entry ("Supply Overlay")
    rule: str
    marks: Callable[[Game, GameState], Mapping[str, PieceMark]]  # piece id -> its mark
    summary: Callable[[Mapping[str, PieceMark]], str]  # the status line when turned on
    shortcut: str = ""
