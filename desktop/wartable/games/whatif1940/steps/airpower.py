"""I.A German Airpower: air superiority [8.1], a step of its own just before the strategic
transfer half of I.A (steps/transfer.py), so the phase runs in the rulebook's order.

The German may fly 0-3 of his Luftwaffe units on air superiority; each suppresses one
Anglo-French or Soviet aircraft of his choice for the rest of the game turn
(V_AIR_SUPPRESSED) and is itself out for the game turn (V_AIR_USED). Both return at the
start of the next game turn (air.new_turn).
"""

from __future__ import annotations

from dataclasses import replace

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Action, Button, Event, Outcome, Prompt
from wartable.engine.loop import end_step_button
from wartable.engine.rules import Game
from wartable.games.whatif1940 import air
from wartable.games.whatif1940.board import Board
from wartable.games.whatif1940.handlers import StepHandler
from wartable.games.whatif1940.ids import (
    ANGLO_FRENCH,
    GERMAN,
    SOVIET,
    V_AIR_SUPERIORITY,
    V_AIR_SUPPRESSED,
    V_AIR_USED,
)
from wartable.model.sequence import Position
from wartable.model.state import GameState

KIND = "air_superiority"
VERB = "suppress"
MAX_MISSIONS = 3  # [8.1] from zero to three of the four


def flown(state: GameState) -> tuple[str, ...]:
    """Luftwaffe units flown on air superiority in this I.A."""
    return tuple(state.var(V_AIR_SUPERIORITY, ()))


def luftwaffe_ready(game: Game, state: GameState) -> tuple[str, ...]:
    """Luftwaffe units that have not flown this game turn [8.6]."""
    out = set(state.var(V_AIR_USED, ())) | set(state.var(V_AIR_SUPPRESSED, ()))
    return tuple(p.id for p in air.aircraft(game, state, GERMAN) if p.id not in out)


def enemy_targets(game: Game, state: GameState) -> tuple[str, ...]:
    """Anglo-French and Soviet aircraft not yet suppressed this game turn [8.1]."""
    gone = set(state.var(V_AIR_SUPPRESSED, ()))
    return tuple(p.id for side in (ANGLO_FRENCH, SOVIET)
                 for p in air.aircraft(game, state, side) if p.id not in gone)


def why_not(game: Game, state: GameState) -> str:
    """Why no further air superiority mission may be flown now ("" when one may)."""
    if len(flown(state)) >= MAX_MISSIONS:
        return "At most three Luftwaffe units fly air superiority [8.1]"
    if not luftwaffe_ready(game, state):
        return "No Luftwaffe unit is still available this game turn [8.1, 8.6]"
    if not enemy_targets(game, state):
        return "Every enemy aircraft is already suppressed [8.1]"
    return ""


def suppress(game: Game, state: GameState, target: str, luftwaffe: str | None = None
             ) -> Outcome:
    """One air superiority mission: `luftwaffe` (default: the first ready) suppresses
    `target` for the rest of the game turn; both are out until the next [8.1]."""
    reason = why_not(game, state)
    if reason:
        raise IllegalAction(reason + ".")
    if target not in enemy_targets(game, state):
        raise IllegalAction("Choose an Anglo-French or Soviet aircraft not yet suppressed "
                            "[8.1].")
    ready = luftwaffe_ready(game, state)
    lw = luftwaffe if luftwaffe is not None else ready[0]
    if lw not in ready:
        raise IllegalAction("That Luftwaffe unit has already flown this game turn [8.1, 8.6].")
    state = air.mark_used(state, (lw,))
    gone = tuple(sorted({*state.var(V_AIR_SUPPRESSED, ()), target}))
    state = state.with_var(V_AIR_SUPPRESSED, gone)
    state = state.with_var(V_AIR_SUPERIORITY, (*flown(state), lw))
    text = (f"Air superiority: {_name(state, lw)} suppresses {_name(state, target)} for the "
            "rest of the game turn; both are out until the next game turn")
    return Outcome(state, (Event("info", text, GERMAN, "8.1"),))


def _name(state: GameState, pid: str) -> str:
    return str(state.piece(pid).attrs.get("name", pid))


class AirSuperiority(StepHandler):
    """The I.A air superiority step [8.1]."""

    def enter(self, game: Game, board: Board, state: GameState, pos: Position) -> Outcome:
        return Outcome(state.with_var(V_AIR_SUPERIORITY, ()))

    def exit(self, game: Game, board: Board, state: GameState, pos: Position) -> Outcome:
        if V_AIR_SUPERIORITY in state.vars:
            state = replace(state, vars=state.vars.remove(V_AIR_SUPERIORITY))
        return Outcome(state)

    def prompt(self, game: Game, board: Board, state: GameState, pos: Position) -> Prompt:
        reason = why_not(game, state)
        n = len(flown(state))
        text = (f"{pos.step.prompt or pos.step.name} Each Luftwaffe unit sent suppresses one "
                f"enemy aircraft until the next game turn and is out itself ({n} of at most "
                f"{MAX_MISSIONS} flown) [8.1].")
        buttons = tuple(Button(VERB, f"Suppress {_name(state, t)}", "8.1",
                               enabled=not reason, reason=reason,
                               args=FrozenMap(target=t))
                        for t in enemy_targets(game, state))
        return Prompt(GERMAN, text, pos.step.rule,
                      targets=FrozenMap({VERB: enemy_targets(game, state) if not reason
                                         else ()}),
                      buttons=(*buttons, end_step_button()))

    def apply(self, game: Game, board: Board, state: GameState, pos: Position,
              action: Action) -> Outcome | None:
        if action.verb != VERB:
            return None
        if action.side != GERMAN:
            raise IllegalAction("Only the German flies air superiority [8.1].")
        target = action.args.get("target")
        lw = action.args.get("luftwaffe")
        if not isinstance(target, str) or (lw is not None and not isinstance(lw, str)):
            raise IllegalAction("Name the enemy aircraft to suppress (target) [8.1].")
        return suppress(game, state, target, lw)
