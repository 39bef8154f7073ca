"""Supply [6.1-6.12] (placeholder interface: the supply part replaces the bodies).

Other parts ask only these questions:
  status(...)            is this unit in supply now, and why (or why not) [6.2-6.7]
  supplied(...)          the same, as a bool
  distance_to_supply(...) how many hexes from a hex to the nearest hex from which a unit of
                         that nationality would be in supply (retreat "toward supply" [11.x])
Until the supply part lands every unit is in supply.
"""

from __future__ import annotations

from dataclasses import dataclass

from wartable.engine.rules import Game
from wartable.games.whatif1940.board import Board
from wartable.model.state import GameState, Piece


@dataclass(frozen=True)
class SupplyStatus:
    supplied: bool
    coastal_only: bool = False  # in supply by the coast alone: no mobile assault [6.4, 6.5]
    reason: str = ""  # the source reached, or what cut the line, for the log and overlay


def status(game: Game, board: Board, state: GameState, piece: Piece) -> SupplyStatus:
    return SupplyStatus(True, reason="supply not enforced yet")


def supplied(game: Game, board: Board, state: GameState, piece: Piece) -> bool:
    return status(game, board, state, piece).supplied


def distance_to_supply(game: Game, board: Board, state: GameState, piece: Piece,
                       hex_id: str) -> int:
    """Hexes from hex_id to the nearest hex where `piece` would be in supply (0 = there)."""
    return 0
