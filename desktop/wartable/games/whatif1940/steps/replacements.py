"""German (I.F) and Anglo-French (III.E) Replacement Phases [9.9, 9.11]: from turn 1, one
supplied, reduced unit of each kind is restored to full strength; unused capacity is
lost, never saved or swapped between kinds; the dead never come back.

German [9.9]: one infantry corps and one panzer corps, anywhere on either map, in the
GSRHB (either portion) or In Romania; never the 7th Flieger; never Dutch or Belgians.
Anglo-French [9.11]: one French corps and one British corps (tank corps included, by
nation even in the Tank Army), anywhere on the west map.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Action, Button, Event, Outcome, Prompt
from wartable.engine.loop import end_step_button
from wartable.engine.rules import Game
from wartable.games.whatif1940 import supply, units
from wartable.games.whatif1940.board import Board
from wartable.games.whatif1940.handlers import StepHandler
from wartable.games.whatif1940.ids import (
    A_STEP,
    ANGLO_FRENCH,
    GERMAN,
    GSRHB_ELIGIBLE,
    GSRHB_JUST_ARRIVED,
    NAT_BRITISH,
    NAT_FRENCH,
    NAT_GERMAN,
    SSWFHB_ROMANIA,
    V_REPLACED,
    WEST,
)
from wartable.games.whatif1940.steps import reinforce
from wartable.games.whatif1940.steps.offmap import name
from wartable.model.sequence import Position
from wartable.model.state import GameState, Piece

VERB = "replace_step"
SEVENTH = "ger_7th_flieger"
GERMAN_BOXES = (GSRHB_JUST_ARRIVED, GSRHB_ELIGIBLE, SSWFHB_ROMANIA)
KIND_NAMES = {"infantry": "infantry corps", "panzer": "panzer corps",
              "french": "French corps", "british": "British corps"}


def kind_of(game: Game, piece: Piece) -> str | None:
    """The replacement a unit may take, or None [9.9, 9.11]."""
    nat = units.nation(game, piece)
    if nat == NAT_GERMAN:
        if piece.type == SEVENTH or not units.is_ground(game, piece):
            return None
        return "panzer" if units.is_mech(game, piece) else "infantry"
    if nat == NAT_FRENCH:
        return "french"
    if nat == NAT_BRITISH:
        return "british"
    return None  # Dutch, Belgians and Soviets never take step replacements [9.9, 9.10]


def _where_ok(board: Board, side: str, piece: Piece) -> bool:
    if side == GERMAN:
        return board.on_map(piece.location) or piece.location in GERMAN_BOXES
    return board.map_of(piece.location) == WEST


def _in_supply(game: Game, board: Board, state: GameState, piece: Piece) -> bool:
    if piece.location == SSWFHB_ROMANIA:
        return True  # Germans in Romania are always in supply [12.4]
    if not board.on_map(piece.location):
        return True  # the GSRHB is off the fighting maps: our reading, NOTES.md
    return supply.supplied(game, board, state, piece)


def eligible(game: Game, board: Board, state: GameState, side: str) -> list[Piece]:
    """Reduced, supplied units whose kind has not been replaced this phase."""
    used = set(state.var(V_REPLACED, ()))
    out = []
    for p in state.pieces.values():
        if p.side != side or p.attrs.get(A_STEP) != 2:
            continue
        kind = kind_of(game, p)
        if kind is None or kind in used or not _where_ok(board, side, p):
            continue
        if side == ANGLO_FRENCH and kind not in ("french", "british"):
            continue
        if _in_supply(game, board, state, p):
            out.append(p)
    return sorted(out, key=lambda p: p.id)


@dataclass(frozen=True)
class Replacement(StepHandler):
    rule: str = "9.9"

    def enter(self, game: Game, board: Board, state: GameState, pos: Position) -> Outcome:
        # I.F follows the German east phases: forts in hexes taken there go back [9.8].
        out = reinforce.return_lost_forts(game, board, state.with_var(V_REPLACED, ()))
        if not eligible(game, board, out.state, pos.side):
            ev = Event("info", "No supplied reduced unit to replace", pos.side, self.rule)
            return Outcome(out.state, (*out.events, ev), auto_end=True)
        return out

    def exit(self, game: Game, board: Board, state: GameState, pos: Position) -> Outcome:
        return Outcome(state.with_var(V_REPLACED, ()))  # unused capacity is lost

    def prompt(self, game: Game, board: Board, state: GameState, pos: Position) -> Prompt:
        buttons = []
        for p in eligible(game, board, state, pos.side):
            kind = kind_of(game, p) or ""
            buttons.append(Button(VERB, f"Restore {name(game, state, p)} at {p.location} "
                                  f"({KIND_NAMES[kind]})", self.rule,
                                  args=FrozenMap(piece=p.id)))
        return Prompt(pos.side, pos.step.prompt or pos.step.name, self.rule,
                      buttons=(*buttons, end_step_button()))

    def apply(self, game: Game, board: Board, state: GameState, pos: Position,
              action: Action) -> Outcome | None:
        if action.verb != VERB:
            return None
        pid = action.args.get("piece")
        if not isinstance(pid, str) or pid not in state.pieces:
            raise IllegalAction(f"There is no unit {pid!r}.")
        p = state.piece(pid)
        if p.id not in {q.id for q in eligible(game, board, state, pos.side)}:
            raise IllegalAction(self._why_not(game, board, state, pos.side, p))
        kind = kind_of(game, p) or ""
        state = state.with_piece(replace(p, attrs=p.attrs.remove(A_STEP)))
        state = state.with_var(V_REPLACED, (*state.var(V_REPLACED, ()), kind))
        ev = Event("replace", f"{name(game, state, p)} at {p.location} is restored to full "
                   f"strength (the {KIND_NAMES[kind]} replacement)", pos.side, self.rule)
        return Outcome(state, (ev,))

    def _why_not(self, game: Game, board: Board, state: GameState, side: str, p: Piece) -> str:
        kind = kind_of(game, p)
        who = name(game, state, p)
        if p.side != side or kind is None:
            return f"{who} never receives replacements here [{self.rule}]."
        if p.attrs.get(A_STEP) != 2:
            return f"{who} is not reduced [{self.rule}]."
        if kind in state.var(V_REPLACED, ()):
            return f"This phase's {KIND_NAMES[kind]} replacement is used [{self.rule}]."
        if not _where_ok(board, side, p):
            return f"{who} is not where replacements reach ({p.location}) [{self.rule}]."
        return f"{who} is out of supply [{self.rule}]."
