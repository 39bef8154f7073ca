"""What the sheets share: finding sides and locations in a game, counter cells, sort keys."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from wartable.core.errors import WartableError
from wartable.engine.rules import Game
from wartable.maps.model import BOX_PREFIX, AreaMap, BoardMap, HexMap
from wartable.model.definition import GameDefinition, Scenario, Side
from wartable.printing.counterart import Palette, factor_text
from wartable.printing.mapdraw import counter_image
from wartable.printing.tableblocks import CellImage

LocationKind = Literal["hex", "area", "box", "region", "free"]

REGION_PREFIX = "region:"


def find_side(definition: GameDefinition, text: str) -> Side:
    """A side by id or name, any case ("german", "Germany", "GERMAN")."""
    want = text.strip().casefold()
    for s in definition.sides:
        if want in (s.id.casefold(), s.name.casefold()):
            return s
    names = ", ".join(f"{s.name} ({s.id})" for s in definition.sides)
    raise WartableError(f"{definition.title} has no side {text!r}; its sides are {names}.")


def sides_of(definition: GameDefinition, side: str | None) -> tuple[Side, ...]:
    """One side (by id or name, any case) or every side when `side` is None."""
    return definition.sides if side is None else (find_side(definition, side),)


@dataclass(frozen=True, slots=True)
class Where:
    """A setup or piece location as printed: which map, which locations to mark, its label."""

    kind: LocationKind
    raw: str  # as written in the data
    label: str  # "0205", "Germany", "Eliminated units", "region West", the free text
    description: str = ""  # the map's description of the location
    map_id: str | None = None
    locations: tuple[str, ...] = ()  # map locations to mark (one, or a region's hexes)


def _natural(text: str) -> tuple[Any, ...]:
    return tuple(int(t) if t.isdigit() else t.casefold() for t in re.split(r"(\d+)", text))


def locate(game: Game, loc: str) -> Where:
    """Where a location string points, on any of the game's maps.

    Understood: a hex label (any spelling the map accepts), an area-map space id or name,
    ``box:<id>``, and ``region:<name>`` (every hex of that region: free placement). Anything
    else is free text: an instruction the players follow ("anywhere in France").
    """
    text = loc.strip()
    if text.casefold().startswith(REGION_PREFIX):
        name = text[len(REGION_PREFIX):].strip()
        for map_id, board in game.maps.items():
            hexes = region_hexes(board, name)
            if hexes:
                return Where("region", loc, f"Anywhere in {name}",
                             f"{len(hexes)} hexes of {name}", map_id, hexes)
        return Where("free", loc, f"Anywhere in {name}")
    for map_id, board in game.maps.items():
        if text.startswith(BOX_PREFIX):
            box = next((b for b in board.boxes if BOX_PREFIX + b.id == text), None)
            if box is not None:
                return Where("box", loc, box.name, "off-map box", map_id, (text,))
            continue
        if isinstance(board, HexMap):
            try:
                label = board.label_of(board.hex_of(text))
            except KeyError:
                continue
            return Where("hex", loc, label, board.describe(label), map_id, (label,))
        if isinstance(board, AreaMap):
            sid = text if text in board.spaces else next(
                (s.id for s in board.spaces.values() if s.name.casefold() == text.casefold()),
                None)
            if sid is not None:
                return Where("area", loc, board.spaces[sid].name, board.describe(sid), map_id,
                             (sid,))
    return Where("free", loc, text)


def region_locations(game: Game, name: str) -> tuple[str | None, tuple[str, ...]]:
    """The map and hexes of a named region ((None, ()) when no map has it)."""
    for map_id, board in game.maps.items():
        hexes = region_hexes(board, name)
        if hexes:
            return map_id, hexes
    return None, ()


def region_hexes(board: BoardMap, name: str) -> tuple[str, ...]:
    """The hexes (or the space) of a named region on one map."""
    want = name.casefold()
    if isinstance(board, HexMap):
        return tuple(sorted(board.label_of(h) for h, info in board.hexes.items()
                            if info.region and info.region.casefold() == want))
    if isinstance(board, AreaMap):
        return tuple(sorted(s.id for s in board.spaces.values()
                            if s.id.casefold() == want or s.name.casefold() == want))
    return ()


_KIND_ORDER = {"hex": 0, "area": 0, "region": 1, "box": 2, "free": 3}


def setup_order(game: Game, where: Where) -> tuple[Any, ...]:
    """How a player sets up: map by map, fixed locations in label order (column by column
    on a hex map, by name on an area map), then regions, boxes and free placements."""
    maps = list(game.maps)
    mi = maps.index(where.map_id) if where.map_id in maps else len(maps)
    return (mi, _KIND_ORDER[where.kind], _natural(where.label))


def values_text(game: Game, type_id: str, attrs: Mapping[str, Any]) -> str:
    """The counter's printed values ("4-4-4"), with the reduced side marked."""
    ut = game.definition.unit_types[type_id]
    text = factor_text(ut, attrs)
    if attrs.get("step") == 2 or attrs.get("reduced"):
        text += " (reduced)"
    return text


def counter_cell(game: Game, type_id: str, side_id: str, attrs: Mapping[str, Any],
                 size_mm: float, palette: Palette = "standard") -> CellImage:
    """A table cell image of a counter at `size_mm` on paper (drawn at print resolution)."""
    frozen = dict(attrs)

    def render(w: int, h: int) -> Any:
        return counter_image(game.definition, type_id, side_id, frozen, min(w, h), palette)

    return CellImage(render, size_mm, size_mm)


def open_ended(game: Game, sc: Scenario) -> bool:
    """A scenario without a turn limit (model/definition.py: Scenario.turn_limit)."""
    return sc.turn_limit is None
