"""The plug-in shape of a step kind, a frame kind and a dice resumption in 1940: What If?.

The engine's handlers (engine/steps.py) with the game's board passed in: every part of the
rules reads the hex map, built once per game (board.py). `rules.py` keeps one registry of
each (STEP_HANDLERS, FRAME_HANDLERS, RESUMES) and registers them, adapted by `on_board`, in
the game's RuleTable; a new part of the rules (combat, supply, reinforcements...) is a module
with a handler object and one line in each registry, so the rules class does not grow a
branch per kind.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from wartable.core.frozen import FrozenMap
from wartable.engine import steps
from wartable.engine.actions import Action, Outcome, Prompt
from wartable.engine.loop import end_step_button
from wartable.engine.rules import Game
from wartable.games.whatif1940.board import Board, board_of
from wartable.model.sequence import Position
from wartable.model.state import Frame, GameState


class StepHandler:
    """A step kind's hooks. The defaults: nothing on entry or exit, the step's prompt with an
    End step button, no verbs of its own."""

    def enter(self, game: Game, board: Board, state: GameState, pos: Position) -> Outcome:
        return Outcome(state)

    def exit(self, game: Game, board: Board, state: GameState, pos: Position) -> Outcome:
        return Outcome(state)

    def can_end(self, game: Game, board: Board, state: GameState, pos: Position) -> str | None:
        """Why the step may not end yet, or None."""
        return None

    def prompt(self, game: Game, board: Board, state: GameState, pos: Position) -> Prompt:
        return Prompt(pos.side, pos.step.prompt or pos.step.name, pos.step.rule,
                      buttons=(end_step_button(),))

    def apply(self, game: Game, board: Board, state: GameState, pos: Position,
              action: Action) -> Outcome | None:
        """The outcome of one of this kind's verbs, or None when the verb is not ours."""
        return None

    def candidates(self, game: Game, board: Board, state: GameState, pos: Position,
                   prompt: Prompt) -> tuple[Action, ...] | None:
        """Legal actions for random play and bots, or None for the generic ones (the prompt's
        moves and enabled buttons)."""
        return None


class FrameHandler:
    """A frame kind's hooks: the question it asks and the answer it takes."""

    def prompt(self, game: Game, board: Board, state: GameState, frame: Frame) -> Prompt:
        raise NotImplementedError

    def apply(self, game: Game, board: Board, state: GameState, frame: Frame,
              action: Action) -> Outcome:
        raise NotImplementedError

    def candidates(self, game: Game, board: Board, state: GameState, frame: Frame,
                   prompt: Prompt) -> tuple[Action, ...] | None:
        return None


# A dice resumption: (game, board, state, data, dice) -> outcome.
Resume = Callable[[Game, Board, GameState, FrozenMap[str, Any], tuple[int, ...]], Outcome]


# --- the engine's view of these handlers -----------------------------------------------------

@dataclass(frozen=True)
class _StepOnBoard(steps.StepHandler):
    inner: StepHandler

    def enter(self, game: Game, state: GameState, pos: Position) -> Outcome:
        return self.inner.enter(game, board_of(game), state, pos)

    def exit(self, game: Game, state: GameState, pos: Position) -> Outcome:
        return self.inner.exit(game, board_of(game), state, pos)

    def can_end(self, game: Game, state: GameState, pos: Position) -> str | None:
        return self.inner.can_end(game, board_of(game), state, pos)

    def prompt(self, game: Game, state: GameState, pos: Position) -> Prompt:
        return self.inner.prompt(game, board_of(game), state, pos)

    def apply(self, game: Game, state: GameState, pos: Position,
              action: Action) -> Outcome | None:
        return self.inner.apply(game, board_of(game), state, pos, action)

    def candidates(self, game: Game, state: GameState, pos: Position,
                   prompt: Prompt) -> tuple[Action, ...] | None:
        return self.inner.candidates(game, board_of(game), state, pos, prompt)


@dataclass(frozen=True)
class _FrameOnBoard(steps.FrameHandler):
    inner: FrameHandler

    def prompt(self, game: Game, state: GameState, frame: Frame) -> Prompt:
        return self.inner.prompt(game, board_of(game), state, frame)

    def apply(self, game: Game, state: GameState, frame: Frame, action: Action) -> Outcome:
        return self.inner.apply(game, board_of(game), state, frame, action)

    def candidates(self, game: Game, state: GameState, frame: Frame,
                   prompt: Prompt) -> tuple[Action, ...] | None:
        return self.inner.candidates(game, board_of(game), state, frame, prompt)


def _resume_on_board(fn: Resume) -> steps.Resume:
    def resume(game: Game, state: GameState, data: FrozenMap[str, Any],
               dice: tuple[int, ...]) -> Outcome:
        return fn(game, board_of(game), state, data, dice)
    return resume


def on_board(step_handlers: Mapping[str, StepHandler], frame_handlers: Mapping[str, FrameHandler],
             resumes: Mapping[str, Resume]) -> tuple[dict[str, steps.StepHandler],
                                                     dict[str, steps.FrameHandler],
                                                     dict[str, steps.Resume]]:
    """The registries as the engine's handlers, each given the game's board."""
    return ({k: _StepOnBoard(h) for k, h in step_handlers.items()},
            {k: _FrameOnBoard(h) for k, h in frame_handlers.items()},
            {k: _resume_on_board(f) for k, f in resumes.items()})
