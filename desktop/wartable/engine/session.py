"""A game in progress: state, action log, readable events, undo and redo.

Undo is a bounded stack of named snapshots. A barrier (dice rolled, hidden
information revealed, the deciding side changed) clears it: nobody may take back
a roll or what the other side has now seen (DESIGN.md, The engine).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from wartable.core.frozen import FrozenMap
from wartable.engine.actions import DICE, Action, Event, Prompt
from wartable.engine.loop import apply, deciding_side, new_game, prompt
from wartable.engine.rules import Game
from wartable.model.state import GameState

MAX_UNDO = 200


@dataclass(frozen=True, slots=True)
class UndoEntry:
    label: str
    before: GameState
    log_len: int
    events_len: int


@dataclass(frozen=True, slots=True)
class Session:
    game: Game
    scenario: str
    options: FrozenMap[str, Any]
    seed: int | str
    dice_mode: str
    state: GameState
    log: tuple[Action, ...] = ()
    events: tuple[Event, ...] = ()
    undo_stack: tuple[UndoEntry, ...] = ()
    redo_stack: tuple[tuple[str, Action], ...] = ()
    barrier: str = ""  # why undo is blocked now ("dice were rolled"...), for the UI
    max_undo: int = field(default=MAX_UNDO)

    @staticmethod
    def start(game: Game, scenario: str, options: FrozenMap[str, Any] | None = None,
              seed: int | str = 0, dice_mode: str = "digital") -> Session:
        opts = game.definition.default_options().update(options or {})
        state, events = new_game(game, scenario, opts, seed, dice_mode)
        return Session(game, scenario, opts, seed, dice_mode, state, events=events)

    def prompt(self, side: str | None = None) -> Prompt:
        return prompt(self.game, self.state, side)

    def submit(self, action: Action) -> Session:
        """Apply an action (IllegalAction propagates, the session is unchanged)."""
        return self._submit(action, keep_redo=False)

    def _submit(self, action: Action, keep_redo: bool) -> Session:
        before = self.state
        out = apply(self.game, before, action)
        events = out.events
        label = _label(action, events)
        reason = ""
        if out.state.rng != before.rng or action.verb == DICE:  # a typed roll counts too
            reason = "dice were rolled"
        elif out.revealed:
            reason = "hidden information was revealed"
        elif deciding_side(out.state) != deciding_side(before):
            reason = "the other side is deciding now"
        if reason:
            undo: tuple[UndoEntry, ...] = ()
        else:
            entry = UndoEntry(label, before, len(self.log), len(self.events))
            undo = (self.undo_stack + (entry,))[-self.max_undo:]
        return replace(
            self, state=out.state, log=self.log + (action,), events=self.events + events,
            undo_stack=undo, redo_stack=self.redo_stack if keep_redo else (),
            barrier=reason or (self.barrier if not undo else ""),
        )

    @property
    def undo_label(self) -> str | None:
        return self.undo_stack[-1].label if self.undo_stack else None

    @property
    def redo_label(self) -> str | None:
        return self.redo_stack[-1][0] if self.redo_stack else None

    def undo(self) -> Session:
        if not self.undo_stack:
            return self
        e = self.undo_stack[-1]
        undone = self.log[e.log_len]
        return replace(
            self, state=e.before, log=self.log[: e.log_len], events=self.events[: e.events_len],
            undo_stack=self.undo_stack[:-1], redo_stack=self.redo_stack + ((e.label, undone),),
        )

    def redo(self) -> Session:
        if not self.redo_stack:
            return self
        _, action = self.redo_stack[-1]
        s = replace(self, redo_stack=self.redo_stack[:-1])
        return s._submit(action, keep_redo=True)

    def replay(self, actions: tuple[Action, ...]) -> Session:
        s = self
        for a in actions:
            s = s.submit(a)
        return s


def _label(action: Action, events: tuple[Event, ...]) -> str:
    """The undo menu's name for an action: its first non-phase event, else the verb."""
    for e in events:
        if e.kind != "phase":
            return e.text
    for e in events:
        return e.text
    return action.verb.replace("_", " ")
