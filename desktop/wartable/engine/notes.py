"""What players read about a piece beyond its counter: the attributes its game's data
declares (`[[piece_notes]]`, model/definition.py), worded with the game's own names for
pieces and places. Undeclared attributes are bookkeeping and never shown (issue 16)."""

from __future__ import annotations

from wartable.engine.rules import Game
from wartable.model.state import GameState, Piece


def piece_notes(game: Game, state: GameState, piece: Piece) -> tuple[str, ...]:
    out: list[str] = []
    for n in game.definition.piece_notes:
        v = piece.attrs.get(n.attr)
        if v is None or v is False or v == "":
            continue
        if n.kind == "flag":
            out.append(n.text)
        elif n.kind == "piece":
            other = state.pieces.get(str(v))
            name = game.rules.piece_name(game, other) if other is not None else str(v)
            out.append(n.text.format(piece=name))
        elif n.kind == "place":
            out.append(n.text.format(place=game.rules.place_name(game, str(v))))
        else:
            out.append(n.text.format(value=v))
    return tuple(out)
