"""Stacking [7.1-7.7, 9.4]: per player per hex, 2 on the west map and 3 on the east; static
units and markers count nothing; holding boxes are unlimited. British, French, Allied
Belgian and Dutch units keep apart [7.4]; the 1st Allied Tank Army's two tank corps may
stack together [9.4].

The limits hold "at all times" [7.2]: with the option strict_pass_through (default) a
moving force may not even pass through a hex it would overstack. British, French and
Allied Belgian units may pass through each other's hexes but not stop together [7.4];
nobody passes through Dutch or neutral Belgian hexes (our reading, NOTES.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Action, Button, Outcome, Prompt
from wartable.engine.rules import Game
from wartable.games.whatif1940 import units
from wartable.games.whatif1940.board import Board
from wartable.games.whatif1940.ids import (
    NAT_BELGIAN,
    NAT_BRITISH,
    NAT_DUTCH,
    NAT_FRENCH,
    V_BELGIUM,
)
from wartable.games.whatif1940.steps import losses
from wartable.model.state import Frame, GameState, Piece

OVERSTACK = "overstack"
SEPARATE_PASSABLE = frozenset({NAT_BRITISH, NAT_FRENCH, NAT_BELGIAN})


def limit(game: Game, board: Board, label: str) -> int:
    limits = board.memo.get("stacking")
    if limits is None:
        table = game.definition.tables["stacking"]
        limits = board.memo["stacking"] = (int(table["west"]), int(table["east"]))
    return int(limits[0] if board.hex(label).west else limits[1])


def compatible(game: Game, state: GameState, a: Piece, b: Piece) -> bool:
    """May two friendly units end a phase in one hex? [7.4, 9.4]"""
    na, nb = units.nation(game, a), units.nation(game, b)
    if na == nb:
        return True
    both_tanks = units.is_top_rung(game, a) and units.is_top_rung(game, b)
    return bool(both_tanks and state.var("tank_army_formed", False))


def may_pass(game: Game, state: GameState, mover: Piece, other: Piece) -> bool:
    """May `mover` move through a hex held by friendly `other`? [7.4, 3.6]"""
    if compatible(game, state, mover, other):
        return True
    nm, no = units.nation(game, mover), units.nation(game, other)
    if NAT_DUTCH in (nm, no):
        return False
    belgians_neutral = state.var(V_BELGIUM, "neutral") != "allied"
    if NAT_BELGIAN in (nm, no) and belgians_neutral:
        return False
    return nm in SEPARATE_PASSABLE and no in SEPARATE_PASSABLE


def friends(game: Game, state: GameState, label: str, side: str,
            moving: Sequence[Piece] = ()) -> list[Piece]:
    """The side's stacking units in a hex, less those moving out of it."""
    ids = {m.id for m in moving}
    return [p for p in state.pieces_at(label)
            if p.side == side and p.id not in ids and units.stacks(game, p)]


def why_not(game: Game, board: Board, state: GameState, label: str,
            moving: Sequence[Piece], stop: bool) -> str:
    """Why this force may not be in the hex for a moment (stop=False) or stay there
    (stop=True); "" when it may."""
    if not moving:
        return ""
    side = moving[0].side
    here = friends(game, state, label, side, moving)
    count = sum(1 for m in moving if units.stacks(game, m))
    lim = limit(game, board, label)
    if (stop or state.option("strict_pass_through", True)) and len(here) + count > lim:
        return f"{label} has no room: at most {lim} units per hex on this map [7.2, 7.4, 7.5]"
    for m in moving:
        for o in here:
            if not (compatible(game, state, m, o) if stop else may_pass(game, state, m, o)):
                return (f"{units.nation(game, m).capitalize()} and "
                        f"{units.nation(game, o).capitalize()} units may not stack together "
                        "[7.4]")
    return ""


def can_enter(game: Game, board: Board, state: GameState, label: str,
              moving: Sequence[Piece], stop: bool) -> bool:
    """May this force be in the hex for a moment (stop=False) or stay there (stop=True)?"""
    return not why_not(game, board, state, label, moving, stop)


def problems(game: Game, board: Board, state: GameState) -> list[tuple[str, str, str]]:
    """(hex, side, what) for every overstacked or mixed hex on the maps [7.2]."""
    out: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    for p in state.pieces.values():
        if p.location in seen or not board.on_map(p.location):
            continue
        seen.add(p.location)
        by_side: dict[str, list[Piece]] = {}
        for q in state.pieces_at(p.location):
            if units.stacks(game, q):
                by_side.setdefault(q.side, []).append(q)
        for side, ps in sorted(by_side.items()):
            lim = limit(game, board, p.location)
            if len(ps) > lim:
                out.append((p.location, side, f"{len(ps)} units, the limit is {lim} [7.4, 7.5]"))
            elif any(not compatible(game, state, a, b) for a in ps for b in ps):
                out.append((p.location, side, "nationalities that may not stack together [7.4]"))
    return out


def check(game: Game, board: Board, state: GameState) -> Outcome:
    """[7.2] At the start and end of every phase: the owner removes excess units of his choice.
    Pushes one frame per offending hex; each answer re-checks."""
    found = problems(game, board, state)
    if not found:
        return Outcome(state)
    label, side, what = found[0]
    who = game.definition.side(side).name
    frame = Frame(OVERSTACK, side, f"{who}: hex {label} is overstacked ({what}). "
                  "Eliminate the excess units of your choice.", "7.2",
                  FrozenMap(hex=label))
    return Outcome(state.push_frame(frame))


def frame_prompt(game: Game, state: GameState, frame: Frame,
                 name: Callable[[Piece], str]) -> Prompt:
    label = str(frame.data["hex"])
    ids = sorted(p.id for p in state.pieces_at(label)
                 if p.side == frame.side and units.stacks(game, p))
    buttons = tuple(Button("eliminate", f"Eliminate {name(state.piece(p))}", "7.2",
                           args=FrozenMap(piece=p)) for p in ids)
    return Prompt(frame.side, frame.text, frame.rule, targets=FrozenMap(eliminate=tuple(ids)),
                  buttons=buttons)


def frame_apply(game: Game, board: Board, state: GameState, frame: Frame,
                action: Action) -> Outcome:
    pid = action.args.get("piece")
    label = str(frame.data["hex"])
    if action.verb != "eliminate" or not isinstance(pid, str) or pid not in state.pieces:
        raise IllegalAction(f"Choose a unit in {label} to eliminate [7.2].")
    p = state.piece(pid)
    if p.location != label or p.side != frame.side or not units.stacks(game, p):
        raise IllegalAction(f"Choose one of your units in {label} [7.2].")
    _, state = state.pop_frame()
    out = losses.eliminate(game, state, p, "7.2")
    return out.then(check(game, board, out.state))
