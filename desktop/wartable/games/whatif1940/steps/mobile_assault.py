"""Mobile assaults [10.15-10.24] during a movement phase.

- Who: German panzer corps (none after Ploesti falls [6.10]) and top-rung Anglo-French tank
  corps (with the Tank Army) [10.15, 9.3]; never Soviets.
- A unit or part of a stack that began the phase together [10.18] enters an adjacent enemy
  hex from its launch hex (where it stands) for twice the normal MP cost of entering it,
  plus one into a printed fortification [10.15, 10.22]; it needs those MP (no minimum
  move [10.16]). Never into marsh [10.16] or a semi-permanent fort [9.8], nor across a
  major river [10.23] or an all-sea/all-lake hexside [10.11]. The launch hex may not be
  overstacked [10.18]; the force needs regular (not coastal) supply there [10.17] and may
  not have begun its move out of supply [6.7]. One MA per unit per phase [10.15].
- Resolved as a prepared assault (steps/combat.py) without the concentric bonus [11.10] or
  the fight/move shift [11.9]; across a river or canal one column left [10.23]; the GAST
  applies [6.11]. Cleared hex: the force enters it, pays the MP and may move on (no second
  MA) [10.20]; otherwise the survivors stay in the launch hex and stop for the phase [10.19]
  (steps/ma_result.py, applied as the battle ends).
"""

from __future__ import annotations

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Action, Button, Outcome
from wartable.engine.rules import Game
from wartable.games.whatif1940 import hidden, supply, units
from wartable.games.whatif1940.board import Board
from wartable.games.whatif1940.ids import (
    A_DONE,
    A_MA_DONE,
    A_MOVED,
    NAT_GERMAN,
    NAT_SOVIET,
    V_MOVING_PARENT,
    V_PLOESTI,
)
from wartable.games.whatif1940.steps import combat, combat_odds, movement, stacking
from wartable.model.state import GameState, Piece

VERB = "mobile_assault"


def eligible(game: Game, state: GameState, p: Piece) -> bool:
    """[10.15, 9.3, 6.10] Panzer corps (not after Ploesti) and top-rung tank corps."""
    nat = units.nation(game, p)
    if nat == NAT_SOVIET or not units.is_mech(game, p):
        return False
    if nat == NAT_GERMAN:
        return not state.var(V_PLOESTI, False)
    return units.is_top_rung(game, p)


def cost(game: Game, board: Board, state: GameState, force: tuple[Piece, ...], launch: str,
         target: str) -> float | None:
    """[10.15, 10.22] Twice the normal cost of entering, plus one into a printed fort."""
    worst = 0.0
    for p in force:
        c = movement.edge_costs(game, board, movement.cost_class(game, state, p)).get(
            (launch, target))
        if c is None:
            return None
        worst = max(worst, c)
    return 2 * worst + (1.0 if board.hex(target).fortified else 0.0)


def why_not(game: Game, board: Board, state: GameState, force: tuple[Piece, ...],
            target: str, step_id: str) -> str:
    """Why this force may not mobile assault `target` now ("" when it may)."""
    side, map_id = movement.STEP_MOVERS[step_id]
    launch = force[0].location
    if any(p.location != launch or movement.parent(p) != movement.parent(force[0])
           for p in force):
        return "Units mobile assault together only if they began the phase stacked " \
            "together and are still together [10.18]"
    for p in force:
        name = hidden.display_name(game, state, p)
        if p.side != side or board.map_of(p.location) != map_id or not eligible(game, state, p):
            return f"{name} may not mobile assault [10.15, 6.10]"
        if p.attrs.get(A_MA_DONE):
            return f"{name} has already made its mobile assault this phase [10.15]"
        if not movement.may_move(state, p):
            return f"{name} has finished moving this phase [10.2, 10.5, 10.19]"
        if movement.oos_at_start(game, state, p):
            return f"{name} began its move out of supply: no mobile assault [6.7]"
        if not supply.regular_supply(game, board, state, p):
            return f"{name} has no regular supply line at the launch hex [10.17]"
    if target not in board.neighbors[launch]:
        return f"{target} is not adjacent to the launch hex {launch} [10.15]"
    h = board.hex(target)
    if combat.target_reason(game, board, state, side, target).startswith(f"{target} holds"):
        return combat.target_reason(game, board, state, side, target)
    if not (combat_odds.defenders(game, state, target, side)
            or combat_odds.garrison_defends(game, board, state, target, side)):
        return f"{target} holds no enemy unit or garrison to assault [10.15]"
    if h.terrain == "marsh":
        return "No mobile assault into marsh [10.16]"
    if any(p.type == combat_odds.FORT_MARKER for p in state.pieces_at(target)):
        return "No mobile assault into a semi-permanent fort [9.8]"
    feats = board.side_features(launch, target)
    if "major_river" in feats:
        return "No mobile assault across a major river [10.23]"
    for p in force:
        why = movement.area_allowed(game, board, state, p, target)
        if why:
            return why
    here = stacking.friends(game, state, launch, side)
    if len(here) > stacking.limit(game, board, launch) or any(
            not stacking.compatible(game, state, a, b) for a in here for b in here):
        return f"The launch hex {launch} is overstacked [10.18]"
    c = cost(game, board, state, force, launch, target)
    if c is None:
        return f"{target} cannot be entered from {launch} [10.11]"
    left = min(movement.mp_left(game, state, p, map_id) for p in force)
    if left < c:
        return f"The assault costs {c:g} MP and the force has {left:g} left [10.15, 10.16]"
    return ""


def groups(game: Game, board: Board, state: GameState, step_id: str) -> list[tuple[Piece, ...]]:
    """Forces that may try a mobile assault: each parent stack still together, and each of
    its units alone [10.18]."""
    by: dict[tuple[str, str], list[Piece]] = {}
    for p in movement.movers(game, board, state, step_id):
        if eligible(game, state, p) and not p.attrs.get(A_MA_DONE) and \
                movement.may_move(state, p):
            by.setdefault((p.location, movement.parent(p)), []).append(p)
    out: list[tuple[Piece, ...]] = []
    for _, ps in sorted(by.items()):
        out.append(tuple(ps))
        if len(ps) > 1:
            out.extend((p,) for p in ps)
    return out


def buttons(game: Game, board: Board, state: GameState, step_id: str) -> tuple[Button, ...]:
    """One button per legal mobile assault (force and target)."""
    side, _ = movement.STEP_MOVERS[step_id]
    out: list[Button] = []
    for force in groups(game, board, state, step_id):
        launch = force[0].location
        for t in board.neighbors[launch]:
            if not any(units.is_ground(game, q) and units.enemies(q.side, side)
                       for q in state.pieces_at(t)) and \
                    not combat_odds.garrison_defends(game, board, state, t, side):
                continue
            if why_not(game, board, state, force, t, step_id):
                continue
            names = ", ".join(hidden.display_name(game, state, p) for p in force)
            c = cost(game, board, state, force, launch, t)
            pv = combat_odds.compute(game, board, state, force, t, mobile=True,
                                     known_only=True)  # [7.3] not yet committed
            odds = pv.column_text() + (" est." if pv.estimated else "") + (
                " at best, stack unseen [7.3]" if pv.hidden_defenders else "")
            out.append(Button(VERB, f"Mobile assault {launch} → {t} ({c:g} MP, {odds} before "
                              f"air): {names}",
                              "10.15", args=FrozenMap(pieces=tuple(p.id for p in force),
                                                      target=t)))
    return tuple(out)


def declare(game: Game, board: Board, state: GameState, action: Action,
            step_id: str) -> Outcome:
    side, map_id = movement.STEP_MOVERS[step_id]
    if action.side != side:
        raise IllegalAction("Only the moving player mobile assaults [10.15].")
    ids = action.args.get("pieces")
    target = action.args.get("target")
    if not isinstance(ids, tuple) or not ids or len(set(ids)) != len(ids) or \
            not all(isinstance(i, str) and i in state.pieces for i in ids):
        raise IllegalAction("Name the units that mobile assault [10.15].")
    if not isinstance(target, str) or board.map_of(target) != map_id:
        raise IllegalAction("Name the hex to assault on this map [10.15].")
    force = tuple(state.piece(i) for i in ids)
    reason = why_not(game, board, state, force, target, step_id)
    if reason:
        raise IllegalAction(reason + ".")
    launch = force[0].location
    c = cost(game, board, state, force, launch, target)
    assert c is not None
    # [10.2, 10.5] Starting another parent stack ends the earlier one's movement.
    was, now = str(state.var(V_MOVING_PARENT, "")), movement.parent(force[0])
    if was and was != now:
        for p in state.pieces.values():
            if movement.parent(p) == was and p.attrs.get(A_MOVED):
                state = state.with_piece(p.with_attr(A_DONE, True))
    state = state.with_var(V_MOVING_PARENT, now)
    for p in force:
        state = state.with_piece(state.piece(p.id).with_attr(A_MA_DONE, True)
                                 .with_attr(A_MOVED, True))
    return combat.begin(game, board, state, side, map_id, target, ids, "MA", launch=launch,
                        mp_cost=c)
