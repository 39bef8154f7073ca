"""Maps for print: any `BoardMap` region drawn at a given scale, with marks and counters.

`draw_map(board, region_bounds, px_per_unit, pieces, definition, marks)` returns an RGB image
exactly ``ceil(w * k) x ceil(h * k)`` pixels for a region ``w x h`` map units at ``k`` pixels
per unit, so tiles of a big map line up to the pixel.

- Hex maps: the terrain, hexsides, grid, labels and places come from
  `wartable.printing.maprender.render_hex_map` (the renderer of `wartable map render`), so a
  printed map looks like the checked one; off-map boxes, marks and counters are added here.
- Area maps: drawn here from the spaces' polygons (land and sea fills, borders, names,
  places) since `maprender` draws hex maps only.

Paper scale. Printed maps and setup sheets share one scale so a counter on the sheet, on the
map excerpt and on an exported paper map has the same size: by default a hex is
`DEFAULT_HEX_MM` across (a classic 1/2-inch counter fills 72 % of it, as on the app's board);
an area map's typical space is `DEFAULT_SPACE_MM` across.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from PIL import Image, ImageDraw
from shapely.geometry import Polygon  # type: ignore[import-untyped,unused-ignore]
from shapely.ops import unary_union  # type: ignore[import-untyped,unused-ignore]

from wartable.maps.model import AreaMap, BoardMap, Bounds, HexMap, OffMapBox
from wartable.model.definition import Side, UnitType
from wartable.printing.areadraw import (
    SUPERSAMPLE,
    area_base,
    box_title_size,
    draw_boxes,
    image_size,
    rgba,
    typical_space,
)
from wartable.printing.counter_pil import render_counter_pil
from wartable.printing.counterart import Palette, counter_primitives, visual_key
from wartable.printing.fonts import font
from wartable.printing.maprender import render_hex_map

__all__ = [
    "DEFAULT_COUNTER_MM", "DEFAULT_HEX_MM", "DEFAULT_SPACE_MM", "Mark", "MapPiece",
    "counter_image", "counter_mm", "draw_map", "location_bounds", "mm_per_unit",
]

DEFAULT_COUNTER_MM = 12.7  # 1/2 inch: the classic SPI / GMT counter
COUNTER_HEX_FRACTION = 0.72  # a counter's side as a share of the hex, as on the app's board
DEFAULT_HEX_MM = DEFAULT_COUNTER_MM / COUNTER_HEX_FRACTION  # 17.6 mm across the flats
DEFAULT_SPACE_MM = 40.0  # an area map's median space, sqrt(area), on paper
AREA_COUNTER_FRACTION = 46.0 / 160.0  # counter side / typical space (the app's board)
STACK_STEP = 0.07  # offset per counter in a stack, as a share of the counter side
STACK_SHOWN = 4



class CounterDefinition(Protocol):
    """What drawing counters needs of a game definition (GameDefinition satisfies it)."""

    @property
    def sides(self) -> tuple[Side, ...]: ...
    @property
    def unit_types(self) -> Mapping[str, UnitType]: ...


@dataclass(frozen=True, slots=True)
class MapPiece:
    """A counter to draw: a `wartable.model.state.Piece` has these fields too."""

    location: str
    type: str
    side: str
    attrs: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Mark:
    """A highlighted location or group of locations (a setup hex, a placement region).

    `locations` are outlined together (their union); `label` goes in a round tag at the
    first location's centre (or the region's middle).
    """

    locations: tuple[str, ...]
    label: str = ""
    colour: str = "#c01818"
    tint: int = 60  # fill alpha, 0 = outline only


# --- scale ---------------------------------------------------------------------------------


def hex_across(board: HexMap) -> float:
    """Centre-to-centre distance of neighbouring hexes (flats), in map units."""
    return math.sqrt(3.0) * board.layout.size_x


def mm_per_unit(board: BoardMap, hex_mm: float | None = None) -> float:
    """Paper millimetres per map unit: a hex `hex_mm` across (or a typical area-map space
    `DEFAULT_SPACE_MM` across, scaled by hex_mm / DEFAULT_HEX_MM when given)."""
    if isinstance(board, HexMap):
        return (hex_mm or DEFAULT_HEX_MM) / hex_across(board)
    if isinstance(board, AreaMap):
        k = (hex_mm or DEFAULT_HEX_MM) / DEFAULT_HEX_MM
        return DEFAULT_SPACE_MM * k / typical_space(board)
    x0, y0, x1, y1 = board.bounds()
    return 400.0 / max(x1 - x0, y1 - y0, 1e-9)


def counter_units(board: BoardMap) -> float:
    """A counter's side in map units, as on the app's board."""
    if isinstance(board, HexMap):
        return COUNTER_HEX_FRACTION * hex_across(board)
    if isinstance(board, AreaMap):
        return AREA_COUNTER_FRACTION * typical_space(board)
    x0, y0, x1, y1 = board.bounds()
    return max(x1 - x0, y1 - y0) / 40.0


def counter_mm(board: BoardMap | None, hex_mm: float | None = None) -> float:
    """A counter's side on paper "as on the board" at the paper scale."""
    if board is None:
        return DEFAULT_COUNTER_MM
    return counter_units(board) * mm_per_unit(board, hex_mm)


def location_bounds(board: BoardMap, locations: Iterable[str], pad: float = 0.0) -> Bounds:
    """The box around the outlines of some locations, grown by `pad` map units and clipped
    to the map."""
    xs: list[float] = []
    ys: list[float] = []
    for loc in locations:
        for x, y in board.outline(loc):
            xs.append(x)
            ys.append(y)
    if not xs:
        return board.bounds()
    mx0, my0, mx1, my1 = board.bounds()
    return (max(mx0, min(xs) - pad), max(my0, min(ys) - pad),
            min(mx1, max(xs) + pad), min(my1, max(ys) + pad))


# --- counters ------------------------------------------------------------------------------


@lru_cache(maxsize=512)
def _counter(unit_type: UnitType, side: Side, key: tuple[Any, ...], attrs_items: tuple[Any, ...],
             size_px: int, palette: Palette) -> Image.Image:
    prims = counter_primitives(unit_type, side, dict(attrs_items), 100.0, palette)
    return render_counter_pil(prims, size_px)


def counter_image(definition: CounterDefinition, type_id: str, side_id: str,
                  attrs: Mapping[str, Any], size_px: int,
                  palette: Palette = "standard") -> Image.Image:
    """The counter of a piece as an RGBA image `size_px` square (cached). A type the
    definition does not know (a side's view of a hidden enemy unit) is a blank counter in
    the side's colours: there is a unit, and nothing more is shown."""
    ut = definition.unit_types.get(type_id) or UnitType(type_id, "", "none")
    side = next(s for s in definition.sides if s.id == side_id)
    key = visual_key(attrs)
    items = tuple((k, _hashable(attrs[k])) for k in sorted(attrs) if k in
                  ("name", "step", "reduced", "factors"))
    return _counter(ut, side, key, items, max(1, int(size_px)), palette)


def _hashable(v: Any) -> Any:
    return tuple(v) if isinstance(v, list | tuple) else v


# --- drawing -------------------------------------------------------------------------------


def draw_map(
    board: BoardMap,
    region_bounds: Bounds | None,
    px_per_unit: float,
    pieces: Sequence[Any] | None = None,
    definition: CounterDefinition | None = None,
    marks: Sequence[Mark] | None = None,
    *,
    palette: Palette = "standard",
    labels: bool | None = None,
) -> Image.Image:
    """The map region (None = the whole map) at `px_per_unit`, as an RGB image.

    `pieces` (anything with location, type, side, attrs) are drawn as counters, stacked,
    when `definition` is given; `marks` outline locations on top of everything else.
    """
    region = region_bounds or board.bounds()
    if not (px_per_unit > 0 and math.isfinite(px_per_unit)):
        raise ValueError(f"px_per_unit must be a positive number, not {px_per_unit}")
    w, h = image_size(region, px_per_unit)
    if isinstance(board, HexMap):
        img = _hex_base(board, region, px_per_unit, labels)
    elif isinstance(board, AreaMap):
        img = area_base(board, region, px_per_unit, w, h, labels)
    else:
        img = Image.new("RGB", (w, h), "white")
    if img.size != (w, h):
        fixed = Image.new("RGB", (w, h), "white")
        fixed.paste(img, (0, 0))
        img = fixed
    draw_boxes(img, board.boxes, region, px_per_unit)
    if pieces and definition is not None:
        _pieces(img, board, pieces, definition, region, px_per_unit, palette)
    if marks:
        _marks(img, board, marks, region, px_per_unit)
    return img


def _hex_base(board: HexMap, region: Bounds, k: float, labels: bool | None) -> Image.Image:
    return render_hex_map(board, scale=k * hex_across(board), crop=region, title="", margin=0,
                          labels=labels)


def _pieces(img: Image.Image, board: BoardMap, pieces: Sequence[Any],
            definition: CounterDefinition, region: Bounds, k: float, palette: Palette) -> None:
    size = max(4, round(counter_units(board) * k))
    by_loc: dict[str, list[Any]] = {}
    for p in pieces:
        by_loc.setdefault(p.location, []).append(p)
    x0, y0 = region[0], region[1]
    d = ImageDraw.Draw(img)
    for loc, stack in by_loc.items():
        try:
            cx, cy = board.center(loc)
        except KeyError:
            continue
        box = next((b for b in board.boxes if f"box:{b.id}" == loc), None)
        if box is not None:
            _box_grid(img, box, stack, definition, region, k, size, palette)
            continue
        cx, cy = (cx - x0) * k, (cy - y0) * k
        shown = stack[:STACK_SHOWN]
        step = size * STACK_STEP
        n = len(shown)
        for i, p in enumerate(shown):
            off = (i - (n - 1) / 2) * step
            im = counter_image(definition, p.type, p.side, p.attrs, size, palette)
            img.paste(im, (round(cx - size / 2 + off), round(cy - size / 2 + off)), im)
        if len(stack) > STACK_SHOWN:
            r = size * 0.17
            bx, by = cx + size / 2, cy - size / 2
            d.ellipse((bx - r, by - r, bx + r, by + r), fill=(20, 20, 20), outline=(255, 255, 255))
            d.text((bx, by), str(len(stack)), font=font(r * 1.2, bold=True), fill=(255, 255, 255),
                   anchor="mm")


def _box_grid(img: Image.Image, box: OffMapBox, stack: Sequence[Any],
              definition: CounterDefinition, region: Bounds, k: float, size: int,
              palette: Palette) -> None:
    """Counters in an off-map box: a grid under its title, as many as fit."""
    x0, y0 = (box.x - region[0]) * k, (box.y - region[1]) * k
    gap = max(1, round(size * 0.08))
    top = y0 + box_title_size(box, k) * 1.6
    cols = max(1, int((box.w * k - gap) // (size + gap)))
    rows = max(1, int((y0 + box.h * k - top) // (size + gap)))
    for i, p in enumerate(stack[:cols * rows]):
        im = counter_image(definition, p.type, p.side, p.attrs, size, palette)
        img.paste(im, (round(x0 + gap + (i % cols) * (size + gap)),
                       round(top + (i // cols) * (size + gap))), im)


def _marks(img: Image.Image, board: BoardMap, marks: Sequence[Mark], region: Bounds,
           k: float) -> None:
    ss = SUPERSAMPLE
    x0, y0 = region[0], region[1]
    layer = Image.new("RGBA", (img.width * ss, img.height * ss), (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)

    def p(x: float, y: float) -> tuple[float, float]:
        return ((x - x0) * k * ss, (y - y0) * k * ss)

    unit = counter_units(board) * k * ss  # marks scale with the counters
    for m in marks:
        polys = []
        for loc in m.locations:
            try:
                polys.append(Polygon(board.outline(loc)))
            except (KeyError, ValueError):
                continue
        if not polys:
            continue
        shape = unary_union([q.buffer(0) for q in polys])
        parts = list(shape.geoms) if shape.geom_type == "MultiPolygon" else [shape]
        width = max(2, round(unit * 0.09))
        for part in parts:
            ring = [p(x, y) for x, y in part.exterior.coords]
            if m.tint:
                d.polygon(ring, fill=rgba(m.colour, m.tint))
            d.line(ring, fill=rgba(m.colour), width=width, joint="curve")
        if m.label:
            if len(m.locations) == 1:
                cx, cy = board.center(m.locations[0])
            else:
                pt = shape.representative_point()
                cx, cy = pt.x, pt.y
            tx, ty = p(cx, cy)
            r = unit * 0.3
            if isinstance(board, AreaMap) and len(m.locations) == 1:
                ty -= r * 2.2  # above the space's name, which sits on its label point
            d.ellipse((tx - r, ty - r, tx + r, ty + r), fill=rgba(m.colour),
                      outline=rgba("#ffffff"), width=max(1, round(r * 0.12)))
            size = r * (1.15 if len(m.label) <= 2 else 0.8)
            d.text((tx, ty), m.label, font=font(size, bold=True, condensed=len(m.label) > 2),
                   fill=rgba("#ffffff"), anchor="mm")
    small = layer.resize(img.size, Image.Resampling.LANCZOS)
    base = img.convert("RGBA")
    base.alpha_composite(small)
    img.paste(base.convert("RGB"))
