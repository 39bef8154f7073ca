"""What a counter is: nationality, mobility class, steps and movement factor [2.5-2.12]."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from wartable.engine.rules import Game
from wartable.games.whatif1940.ids import (
    A_STEP,
    ALLIED_SIDES,
    GERMAN,
    NAT_BELGIAN,
    NAT_DUTCH,
    NAT_GERMAN,
    NAT_SOVIET,
    SOVIET,
    WEST,
)
from wartable.model.state import GameState, Piece

GROUND = frozenset({"mech", "nonmech", "static"})


@dataclass(frozen=True, slots=True)
class Info:
    """A unit type's keys, read once (the rules ask them hundreds of thousands of times)."""

    nation: str
    mobility: str
    cavalry: bool
    top_rung: bool


_LAST: list[tuple[object, dict[str, Info]]] = [(None, {})]  # the last definition asked


def info(game: Game, piece: Piece) -> Info:
    d = game.definition
    hit = _LAST[0]
    if hit[0] is not d:
        hit = _LAST[0] = (d, {})
    found = hit[1].get(piece.type)
    if found is None:
        ut = d.unit_types[piece.type]
        x = ut.extra
        found = Info(str(x.get("nation", "")), str(x.get("mobility", "")),
                     ut.symbol == "cavalry", bool(x.get("top_rung", False)))
        hit[1][piece.type] = found
    return found


def extra(game: Game, piece: Piece, key: str, default: Any = None) -> Any:
    return game.definition.unit_types[piece.type].extra.get(key, default)


def nation(game: Game, piece: Piece) -> str:
    return info(game, piece).nation


def mobility(game: Game, piece: Piece) -> str:
    return info(game, piece).mobility


def is_ground(game: Game, piece: Piece) -> bool:
    return mobility(game, piece) in GROUND


def is_static(game: Game, piece: Piece) -> bool:
    return mobility(game, piece) == "static"


def stacks(game: Game, piece: Piece) -> bool:
    """Counts against stacking: static units and markers do not [7.6]."""
    return mobility(game, piece) in ("mech", "nonmech")


def is_mech(game: Game, piece: Piece) -> bool:
    return mobility(game, piece) == "mech"


def is_cavalry(game: Game, piece: Piece) -> bool:
    return info(game, piece).cavalry


def is_top_rung(game: Game, piece: Piece) -> bool:
    return info(game, piece).top_rung


def is_neutral_nation(game: Game, piece: Piece) -> bool:
    return nation(game, piece) in (NAT_BELGIAN, NAT_DUTCH)


def camp(side: str) -> str:
    """German or Allied: the two sides of the war [1.3, 4.1]."""
    return "allied" if side in ALLIED_SIDES else GERMAN


def enemies(a: str, b: str) -> bool:
    return camp(a) != camp(b)


def full_steps(game: Game, piece: Piece) -> int:
    """[2.11] Two steps when the counter has a reduced side, else one."""
    return 2 if extra(game, piece, "reduced") else 1


def steps_left(game: Game, piece: Piece) -> int:
    return 1 if piece.attrs.get(A_STEP) == 2 else full_steps(game, piece)


def movement_factor(game: Game, state: GameState, piece: Piece, map_id: str) -> int:
    """[2.10] Not printed: by mobility class, nationality, map and turn."""
    if mobility(game, piece) not in ("mech", "nonmech"):
        return 0  # static units never move once placed [2.10]
    mf = game.definition.tables["movement_factors"]
    if nation(game, piece) == NAT_SOVIET or piece.side == SOVIET:
        return int(mf["soviet"])
    if map_id == WEST:
        return int(mf["top_rung_tank"] if is_top_rung(game, piece) else mf["west"])
    gemmf = mf["gemmf"]
    row = gemmf[min(max(state.turn, 1), len(gemmf)) - 1]
    value = int(row[0] if is_mech(game, piece) else row[1])
    if nation(game, piece) == NAT_GERMAN and is_mech(game, piece) and state.var("ploesti_captured"):
        value = (value + 1) // 2  # [6.10] halved, rounded up
    return value
