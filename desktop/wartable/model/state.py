"""The immutable game state. Change it with dataclasses.replace or the helpers here."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from wartable.core.frozen import FrozenMap
from wartable.core.rng import Rng

EMPTY: FrozenMap[str, Any] = FrozenMap()


@dataclass(frozen=True, slots=True)
class Piece:
    """One counter or piece on the table."""

    id: str
    type: str  # unit type id in the game definition
    side: str  # owning side id
    location: str  # hex label, area id, or "box:<id>"
    attrs: FrozenMap[str, Any] = field(default=EMPTY)  # game-specific: step, moved, damaged...

    def with_attr(self, key: str, value: Any) -> Piece:
        return replace(self, attrs=self.attrs.set(key, value))


@dataclass(frozen=True, slots=True)
class Frame:
    """A pending sub-decision (retreat path, casualties, a physical dice roll...).

    Frames stack: the top frame's `side` decides next, whatever the step, so any
    choice can interrupt any step and a save captures it (DESIGN.md, The engine).
    """

    kind: str
    side: str
    text: str
    rule: str = ""
    data: FrozenMap[str, Any] = field(default=EMPTY)


@dataclass(frozen=True, slots=True)
class GameState:
    game_id: str
    data_version: str
    scenario: str
    options: FrozenMap[str, Any]
    turn: int
    step_index: int  # index into the definition's flattened sequence of play
    active_side: str
    pieces: FrozenMap[str, Piece]
    vars: FrozenMap[str, Any]  # game-specific values (IPCs, political states, flags)
    frames: tuple[Frame, ...]
    rng: Rng
    dice_mode: str = "digital"  # "digital" rolls from rng; "physical" asks the players
    serial: int = 0  # actions applied so far
    result: str | None = None  # set when the game is over: who won and why
    # Location -> pieces, built on first use. Not a field of the value: replace() starts
    # every new state without it, so it can never describe another state's pieces.
    _where: dict[str, tuple[Piece, ...]] | None = field(
        default=None, init=False, repr=False, compare=False, hash=False)

    # --- small helpers so game code reads like the rules -------------------
    def piece(self, piece_id: str) -> Piece:
        return self.pieces[piece_id]

    def pieces_at(self, location: str) -> tuple[Piece, ...]:
        where = self._where
        if where is None:
            index: dict[str, list[Piece]] = {}
            for p in self.pieces.values():
                index.setdefault(p.location, []).append(p)
            where = {loc: tuple(ps) for loc, ps in index.items()}
            object.__setattr__(self, "_where", where)  # a cache, not a change of state
        return where.get(location, ())

    def with_piece(self, piece: Piece) -> GameState:
        return replace(self, pieces=self.pieces.set(piece.id, piece))

    def without_piece(self, piece_id: str) -> GameState:
        return replace(self, pieces=self.pieces.remove(piece_id))

    def var(self, key: str, default: Any = None) -> Any:
        return self.vars.get(key, default)

    def with_var(self, key: str, value: Any) -> GameState:
        return replace(self, vars=self.vars.set(key, value))

    def option(self, key: str, default: Any = None) -> Any:
        return self.options.get(key, default)

    def push_frame(self, frame: Frame) -> GameState:
        return replace(self, frames=self.frames + (frame,))

    def pop_frame(self) -> tuple[Frame, GameState]:
        if not self.frames:
            raise IndexError("no frame to pop")
        return self.frames[-1], replace(self, frames=self.frames[:-1])

    @property
    def top_frame(self) -> Frame | None:
        return self.frames[-1] if self.frames else None
