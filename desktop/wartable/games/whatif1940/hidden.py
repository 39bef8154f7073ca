"""Soviet untried units [2.12, 9.10]: printed on one side, set up face down, unknown to
both players until they first fight.

The engine is the neutral referee: an untried counter's designation and values live in
`V_UNTRIED` (piece id -> name, values), never in its attrs, and `view` strips them for
every viewer. At set-up the secrets are dealt to the counters by lot, so a piece id says
nothing about which army it is.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from wartable.core.frozen import FrozenMap
from wartable.engine.rules import Game
from wartable.games.whatif1940.ids import A_UNTRIED, V_UNTRIED
from wartable.model.state import GameState, Piece

UNKNOWN = "?"


def secrets(state: GameState) -> FrozenMap[str, Any]:
    value: FrozenMap[str, Any] = state.var(V_UNTRIED, FrozenMap())
    return value


def is_untried(piece: Piece) -> bool:
    return bool(piece.attrs.get(A_UNTRIED, False))


def conceal_all(game: Game, state: GameState) -> GameState:
    """[2.12, 3.2] Turn every untried-type counter face down, dealing the hidden fronts by
    lot among counters of the same type (and red-dot mark)."""
    groups: dict[tuple[str, bool], list[Piece]] = {}
    for p in sorted(state.pieces.values(), key=lambda p: p.id):
        if game.definition.unit_types[p.type].extra.get("untried"):
            groups.setdefault((p.type, bool(p.attrs.get("red_dot"))), []).append(p)
    hidden = dict(secrets(state))
    rng = state.rng
    for _, pieces in sorted(groups.items()):
        fronts: list[FrozenMap[str, Any]] = [FrozenMap(name=str(p.attrs.get("name", "")),
                            values=tuple(p.attrs.get("values", ()))) for p in pieces]
        for i in range(len(fronts) - 1, 0, -1):  # Fisher-Yates with the game's dice
            j, rng = rng.below(i + 1)
            fronts[i], fronts[j] = fronts[j], fronts[i]
        for p, front in zip(pieces, fronts, strict=True):
            hidden[p.id] = front
            state = state.with_piece(replace(p, attrs=_face_down(p.attrs)))
    return replace(state.with_var(V_UNTRIED, FrozenMap(hidden)), rng=rng)


def _face_down(attrs: FrozenMap[str, Any]) -> FrozenMap[str, Any]:
    out = attrs
    for k in ("name", "values"):
        if k in out:
            out = out.remove(k)
    return out.set(A_UNTRIED, True).set("factors", UNKNOWN)


def hide(state: GameState, piece: Piece) -> GameState:
    """Put a (possibly revealed) untried-type counter back face down [9.10]."""
    hidden = secrets(state)
    if piece.id not in hidden:
        hidden = hidden.set(piece.id, FrozenMap(name=str(piece.attrs.get("name", "")),
                                                values=tuple(piece.attrs.get("factors", ()))))
    attrs = piece.attrs.remove("factors") if "factors" in piece.attrs else piece.attrs
    state = state.with_var(V_UNTRIED, hidden)
    return state.with_piece(replace(piece, attrs=_face_down(attrs)))


def reveal(state: GameState, piece: Piece) -> tuple[GameState, Piece]:
    """[2.12] Flip face up for good the first time it fights."""
    hidden = secrets(state)
    front = hidden.get(piece.id)
    if front is None or not is_untried(piece):
        return state, piece
    attrs = piece.attrs.remove(A_UNTRIED).set("name", front["name"])
    attrs = attrs.set("factors", tuple(front["values"]))
    shown = replace(piece, attrs=attrs)
    state = state.with_var(V_UNTRIED, hidden.remove(piece.id)).with_piece(shown)
    return state, shown


def true_name(state: GameState, piece: Piece) -> str:
    front = secrets(state).get(piece.id)
    if front is not None and is_untried(piece):
        return str(front["name"])
    return str(piece.attrs.get("name", ""))


def display_name(game: Game, state: GameState, piece: Piece) -> str:
    """How logs may name a piece without giving away an untried counter."""
    side = game.definition.side(piece.side).name
    ut = game.definition.unit_types[piece.type]
    if is_untried(piece):
        return f"{side} untried {ut.name}"
    name = piece.attrs.get("name")
    return f"{side} {name} {ut.name}" if name else f"{side} {ut.name}"


def view(state: GameState) -> GameState:
    """What any player may see: untried fronts are nobody's to read [2.12]."""
    if V_UNTRIED not in state.vars:
        return state
    return replace(state, vars=state.vars.remove(V_UNTRIED))
