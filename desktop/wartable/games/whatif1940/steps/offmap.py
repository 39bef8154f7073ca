"""What the holding-box, reinforcement and front steps share [4.3, 5.5, 9.5-9.11, 12.1-12.8]:
the die-roll tables read from the data, and a step whose verbs are "move this unit there"
with the step's own list of legal places.

The tables (data/fronts.toml) are engine procedures (engine/procedures.py), parsed and
checked once per loaded game; a misspelt condition is a data error at the first use.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine import procflow
from wartable.engine.actions import Action, Button, Event, Outcome, Prompt
from wartable.engine.loop import end_step_button
from wartable.engine.procedures import Procedure, check_predicates
from wartable.engine.rules import Game
from wartable.games.whatif1940 import hidden
from wartable.games.whatif1940.board import Board
from wartable.games.whatif1940.handlers import FrameHandler, StepHandler
from wartable.games.whatif1940.ids import V_FRONT
from wartable.model.sequence import Position
from wartable.model.state import Frame, GameState, Piece

CONFIRM = procflow.CONFIRM_FRAME  # the frame kind of the DRM confirmations
def procedure(game: Game, key: str, conditions: tuple[str, ...] | None = None) -> Procedure:
    """The die-roll table `tables.<key>`, parsed once per game (held with it: Game.derived),
    checked against the conditions the rules give (None: already checked, e.g. when a
    confirmation frame looks it up again)."""
    parsed = game.derived(_procedures)
    proc = parsed.get(key)
    if proc is None:
        d = game.definition
        proc = Procedure.from_dict(d.tables[key], f"{d.id}: tables.{key}")
        if conditions is not None:
            check_predicates(proc, conditions)
        parsed[key] = proc
    return proc


def _procedures(game: Game) -> dict[str, Procedure]:
    """The game's parsed die-roll tables by key, filled as procedure() reads each."""
    return {}


def table(game: Game, key: str) -> FrozenMap[str, Any]:
    value: FrozenMap[str, Any] = game.definition.tables[key]
    return value


def box_name(game: Game, location: str) -> str:
    """A box's printed name ("GSRHB: Just Arrived"), or the hex label."""
    for b in game.definition.tables["boxes"]["list"]:
        if "box:" + str(b["id"]) == location:
            return str(b["name"])
    return location


def name(game: Game, state: GameState, piece: Piece) -> str:
    """How the log names a unit without giving away an untried counter [2.12]."""
    return hidden.display_name(game, state, piece)


def relocate(game: Game, state: GameState, piece: Piece, to: str, rule: str,
             **attrs: Any) -> Outcome:
    """Move a unit off or onto the maps with a log line."""
    a = piece.attrs
    for k, v in attrs.items():
        a = a.set(k, v)
    text = f"{name(game, state, piece)}: {box_name(game, piece.location)} → {box_name(game, to)}"
    state = state.with_piece(replace(piece, location=to, attrs=a))
    return Outcome(state, (Event("move", text, piece.side, rule),))


def memo(state: GameState) -> FrozenMap[str, Any]:
    """What the current step has done so far (reset when each such step starts)."""
    value: FrozenMap[str, Any] = state.var(V_FRONT, FrozenMap())
    return value


def remember(state: GameState, **kv: Any) -> GameState:
    m = memo(state)
    for k, v in kv.items():
        m = m.set(k, v)
    return state.with_var(V_FRONT, m)


class ConfirmFrame(FrameHandler):
    """The players' answers to a table's "confirm" modifiers (engine/procflow.py); the
    frame names its table by the procedure id, which is the table's key here."""

    def prompt(self, game: Game, board: Board, state: GameState, frame: Frame) -> Prompt:
        return procflow.confirm_prompt(procedure(game, str(frame.data["proc"])), frame)

    def apply(self, game: Game, board: Board, state: GameState, frame: Frame,
              action: Action) -> Outcome:
        return procflow.confirm_apply(game, state, procedure(game, str(frame.data["proc"])),
                                      frame, action)


class MoveStep(StepHandler):
    """A step whose verb is "move" (a unit to one of its legal places) plus some buttons.

    Subclasses give `movers`, `destinations`, optionally `buttons`, `verb` and `moved`."""

    rule = ""
    sample = 6  # destinations per unit offered to random play (the prompt offers all)

    def movers(self, game: Game, board: Board, state: GameState, pos: Position) -> list[Piece]:
        return []

    def destinations(self, game: Game, board: Board, state: GameState, pos: Position,
                     piece: Piece) -> list[str]:
        return []

    def buttons(self, game: Game, board: Board, state: GameState,
                pos: Position) -> tuple[Button, ...]:
        return ()

    def text(self, game: Game, board: Board, state: GameState, pos: Position) -> str:
        return pos.step.prompt or pos.step.name

    def verb(self, game: Game, board: Board, state: GameState, pos: Position,
             action: Action) -> Outcome | None:
        return None

    def moved(self, game: Game, board: Board, state: GameState, pos: Position, piece: Piece,
              to: str) -> Outcome:
        return relocate(game, state, piece, to, pos.step.rule)

    def all_moves(self, game: Game, board: Board, state: GameState,
                  pos: Position) -> dict[str, tuple[str, ...]]:
        out: dict[str, tuple[str, ...]] = {}
        for p in self.movers(game, board, state, pos):
            dests = tuple(self.destinations(game, board, state, pos, p))
            if dests:
                out[p.id] = dests
        return out

    def prompt(self, game: Game, board: Board, state: GameState, pos: Position) -> Prompt:
        return Prompt(pos.side, self.text(game, board, state, pos), pos.step.rule,
                      moves=FrozenMap(self.all_moves(game, board, state, pos)),
                      buttons=(*self.buttons(game, board, state, pos),
                               end_step_button(self.can_end(game, board, state, pos))))

    def apply(self, game: Game, board: Board, state: GameState, pos: Position,
              action: Action) -> Outcome | None:
        if action.verb != "move":
            return self.verb(game, board, state, pos, action)
        pid, to = action.args.get("piece"), action.args.get("to")
        if not isinstance(pid, str) or pid not in state.pieces:
            raise IllegalAction(f"There is no unit {pid!r}.")
        p = state.piece(pid)
        if p.id not in {q.id for q in self.movers(game, board, state, pos)}:
            raise IllegalAction(f"{name(game, state, p)} may not be moved in this step "
                                f"[{pos.step.rule}].")
        if not isinstance(to, str) or to not in self.destinations(game, board, state, pos, p):
            raise IllegalAction(f"{name(game, state, p)} may not go to {to!r} now "
                                f"[{pos.step.rule}].")
        return self.moved(game, board, state, pos, p, to)

    def candidates(self, game: Game, board: Board, state: GameState, pos: Position,
                   prompt: Prompt) -> tuple[Action, ...] | None:
        return sampled(prompt, self.sample)


def sampled(prompt: Prompt, per_unit: int) -> tuple[Action, ...]:
    """The prompt's enabled buttons and, per unit, its first destinations (boxes come first
    in the lists), so random play stays quick on steps that offer hundreds of hexes."""
    out = [Action("move", prompt.side, FrozenMap(piece=pid, to=d))
           for pid, dests in sorted(prompt.moves.items()) for d in dests[:per_unit]]
    out.extend(Action(b.id, prompt.side, b.args) for b in prompt.buttons if b.enabled)
    return tuple(out)


Pred = Callable[[], bool | int]
