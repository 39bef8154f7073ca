"""Map export: a map (or part of it) as one PNG, or tiled over paper pages to assemble.

Scale. Maps print at the paper scale of `mapdraw` (a hex 17.6 mm across, or ``hex_mm``),
so counters of the usual size fit the printed hexes; ``dpi`` sets the PNG's resolution
(its pixels per inch are stored in the file, so printing it at 100 % gives the same size).

Tiles. `TiledMap` cuts the map into page-sized tiles that overlap by ``overlap_mm``. Each
page shows:

- the tile, up to the edges of the printable area;
- crop marks in the margin at the tile's corners, and a dashed line plus "edge of A1"
  where a neighbouring tile's edge falls inside the overlap;
- registration crosses in every overlap, at the same map position on both tiles;
- a strip with the tile's name (row letter, column number: "B2"), the map, the scale, and a
  small plan of all tiles with this one filled in.

To assemble: trim the margin along the crop marks on the sides where a neighbour joins, lay
each trimmed edge on its neighbour's dashed line, match the crosses, and tape from behind.

Regions (``--region``): ``LABEL`` or ``LABEL,RADIUS`` (the hexes within RADIUS of a hex;
a space or box on an area map), ``A:B`` (the box spanning two locations), or
``X0,Y0,X1,Y1`` in map units.
"""

from __future__ import annotations

import math
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from wartable.core.errors import WartableError
from wartable.maps.model import BoardMap, Bounds, HexMap
from wartable.printing import areadraw, mapdraw
from wartable.printing.flow import Progress
from wartable.printing.output import PAGE_BUDGET, Output, compact, write_document
from wartable.printing.page import (
    INK,
    MUTED,
    Cancelled,
    Page,
    PageSetup,
    Report,
    line_height,
    paper,
)

__all__ = ["TiledMap", "export_map", "export_map_png", "parse_region", "tiled_map_document"]

MAX_PNG_PIXELS = 300_000_000  # about 900 MB of RGB: beyond this, ask for less
BAND_PX = 1024  # rows rendered at a time for a big PNG
STRIP_MM = 11.0  # the information strip under each tile
_NUM = r"-?\d+(?:\.\d+)?"


# --- regions -------------------------------------------------------------------------------


def parse_region(board: BoardMap, text: str | None) -> Bounds:
    """The map-unit box a ``--region`` names (see the module docstring); None = whole map."""
    if text is None or not text.strip():
        return board.bounds()
    t = text.strip()
    m = re.fullmatch(rf"\s*({_NUM})\s*,\s*({_NUM})\s*,\s*({_NUM})\s*,\s*({_NUM})\s*", t)
    if m:
        x0, y0, x1, y1 = (float(v) for v in m.groups())
        if x1 <= x0 or y1 <= y0:
            raise WartableError(f"The region {text!r} is empty: give X0,Y0,X1,Y1 with X1 > X0 "
                                "and Y1 > Y0.")
        return _clip(board, (x0, y0, x1, y1), text)
    if ":" in t and not t.startswith("box:"):
        a, b = (s.strip() for s in t.split(":", 1))
        return _clip(board, mapdraw.location_bounds(board, [_loc(board, a), _loc(board, b)]),
                     text)
    label, _, radius = t.partition(",")
    loc = _loc(board, label.strip())
    if isinstance(board, HexMap) and not loc.startswith("box:"):
        try:
            r = int(radius) if radius.strip() else 4
        except ValueError:
            raise WartableError(f"In --region {text!r}, the radius {radius!r} is not a whole "
                                "number of hexes.") from None
        centre = board.hex_of(loc)
        locs = [board.label_of(h) for h in board.hexes if h.distance(centre) <= r]
        return mapdraw.location_bounds(board, locs)
    return mapdraw.location_bounds(board, [loc])


def _loc(board: BoardMap, text: str) -> str:
    try:
        board.outline(text)
        return text
    except KeyError:
        pass
    if isinstance(board, HexMap):
        try:
            return board.label_of(board.hex_of(text))
        except KeyError:
            pass
    raise WartableError(f"{text!r} is not a location on map {board.id}; give a hex label, a "
                        "space id, box:<id>, or X0,Y0,X1,Y1 in map units.")


def _clip(board: BoardMap, b: Bounds, text: str) -> Bounds:
    mx0, my0, mx1, my1 = board.bounds()
    out = (max(b[0], mx0), max(b[1], my0), min(b[2], mx1), min(b[3], my1))
    if out[2] <= out[0] or out[3] <= out[1]:
        raise WartableError(f"The region {text!r} lies outside map {board.id} "
                            f"(its bounds are {mx0:g},{my0:g},{mx1:g},{my1:g}).")
    return out


# --- one PNG -------------------------------------------------------------------------------


def export_map_png(board: BoardMap, path: str | os.PathLike[str], *, region: Bounds | None = None,
                   dpi: int = 300, hex_mm: float | None = None, report: Report | None = None,
                   cancelled: Cancelled | None = None) -> Output:
    """The map (or `region`) as one PNG at paper scale and `dpi`, drawn in bands."""
    if not 20 <= dpi <= 1200:
        raise WartableError(f"The resolution must be 20 to 1200 dpi, not {dpi}.")
    progress = Progress(report, cancelled)
    region = region or board.bounds()
    k = mapdraw.mm_per_unit(board, hex_mm) * dpi / 25.4  # pixels per map unit
    w, h = areadraw.image_size(region, k)
    if w * h > MAX_PNG_PIXELS:
        raise WartableError(
            f"A {w} x {h} pixel image is too big to write; lower --dpi (now {dpi}) or export "
            "a --region, or write a .pdf to tile the map over pages.")
    target = Path(path)
    img = Image.new("RGB", (w, h), "white")
    x0, y0, x1, _ = region
    bands = max(1, math.ceil(h / BAND_PX))
    for i in range(bands):
        progress(i / bands, f"Drawing the map, part {i + 1} of {bands}")
        top = i * BAND_PX
        bh = min(BAND_PX, h - top)
        band = (x0, y0 + top / k, x1, y0 + (top + bh) / k)
        part = mapdraw.draw_map(board, band, k)
        img.paste(part.crop((0, 0, w, bh)), (0, top))
        del part
    progress(0.97, "Writing the PNG")
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        raise WartableError(f"Cannot write {target}: the folder {directory} does not exist.")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            compact(img).save(f, "PNG", compress_level=6, dpi=(dpi, dpi))
        progress.check()
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    progress(1.0, f"Wrote {target.name}")
    size = target.stat().st_size
    return Output((target,), 1, (w, h), dpi, "PNG", (size,), (size,))


# --- tiles ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tile:
    row: int
    col: int
    bounds: Bounds  # map units

    @property
    def name(self) -> str:
        return f"{_row_name(self.row)}{self.col + 1}"


def _row_name(r: int) -> str:
    out = ""
    r += 1
    while r:
        r, rem = divmod(r - 1, 26)
        out = chr(65 + rem) + out
    return out


class TiledMap:
    """A map cut into overlapping page tiles (a `blocks.Document`)."""

    def __init__(self, board: BoardMap, setup: PageSetup | None = None, *,
                 region: Bounds | None = None, hex_mm: float | None = None,
                 overlap_mm: float = 10.0, auto_orient: bool = False) -> None:
        self.board = board
        self.region = region or board.bounds()
        self.hex_mm = hex_mm
        self.mm_per_unit = mapdraw.mm_per_unit(board, hex_mm)
        if setup is None or auto_orient:
            setup = self._best_setup(setup or PageSetup(), overlap_mm)
        self._setup = setup
        self.overlap_mm = overlap_mm
        area_w, area_h = self._area_mm(setup)
        if not 0 <= overlap_mm < min(area_w, area_h) / 2:
            raise WartableError(f"An overlap of {overlap_mm} mm does not fit the page; use 0 "
                                f"to {min(area_w, area_h) / 2:.0f} mm.")
        self.tiles = self._tiles(setup, overlap_mm)

    @property
    def title(self) -> str:
        return f"{self.board.title} — map tiles"

    @property
    def setup(self) -> PageSetup:
        return self._setup

    @staticmethod
    def _area_mm(setup: PageSetup) -> tuple[float, float]:
        w, h = setup.size_mm
        return (w - 2 * setup.margin_mm, h - 2 * setup.margin_mm - STRIP_MM)

    def _grid(self, setup: PageSetup, overlap: float) -> tuple[int, int]:
        aw, ah = self._area_mm(setup)
        x0, y0, x1, y1 = self.region
        mw, mh = (x1 - x0) * self.mm_per_unit, (y1 - y0) * self.mm_per_unit
        cols = max(1, math.ceil((mw - overlap) / (aw - overlap) - 1e-9))
        rows = max(1, math.ceil((mh - overlap) / (ah - overlap) - 1e-9))
        return rows, cols

    def _best_setup(self, setup: PageSetup, overlap: float) -> PageSetup:
        """Portrait or landscape, whichever needs fewer pages (portrait on a tie)."""
        land = PageSetup(setup.paper, setup.dpi, setup.margin_mm, True)
        port = PageSetup(setup.paper, setup.dpi, setup.margin_mm, False)
        rp, cp = self._grid(port, overlap)
        rl, cl = self._grid(land, overlap)
        return land if rl * cl < rp * cp else port

    def _tiles(self, setup: PageSetup, overlap: float) -> list[Tile]:
        rows, cols = self._grid(setup, overlap)
        aw, ah = self._area_mm(setup)
        x0, y0, _, _ = self.region
        k = self.mm_per_unit
        out = []
        for r in range(rows):
            for c in range(cols):
                tx = x0 + c * (aw - overlap) / k
                ty = y0 + r * (ah - overlap) / k
                out.append(Tile(r, c, (tx, ty, tx + aw / k, ty + ah / k)))
        return out

    @property
    def rows(self) -> int:
        return max(t.row for t in self.tiles) + 1

    @property
    def cols(self) -> int:
        return max(t.col for t in self.tiles) + 1

    def page_count(self) -> int:
        return len(self.tiles)

    def tile(self, row: int, col: int) -> Tile | None:
        for t in self.tiles:
            if (t.row, t.col) == (row, col):
                return t
        return None

    def draw_page(self, index: int, page: Page) -> None:
        s = page.setup
        tile = self.tiles[index]
        ox, oy = s.px(s.margin_mm), s.px(s.margin_mm)
        aw, ah = self._area_mm(s)
        w, h = round(s.px(aw)), round(s.px(ah))
        k = w / (tile.bounds[2] - tile.bounds[0])  # px per map unit on this page
        # Draw only the part of the tile that is on the map (the rest stays white).
        mx0, my0, mx1, my1 = self.region
        bx0, by0 = max(tile.bounds[0], mx0), max(tile.bounds[1], my0)
        bx1, by1 = min(tile.bounds[2], mx1), min(tile.bounds[3], my1)
        if bx1 > bx0 and by1 > by0:
            img = mapdraw.draw_map(self.board, (bx0, by0, bx1, by1), k)
            px0 = round((bx0 - tile.bounds[0]) * k)
            py0 = round((by0 - tile.bounds[1]) * k)
            img = img.crop((0, 0, min(img.width, w - px0), min(img.height, h - py0)))
            page.paste(img, (ox + px0, oy + py0))
            del img
        page.rect((ox, oy, ox + w, oy + h), outline=MUTED, width_mm=0.15)
        self._marks(page, tile, (ox, oy, ox + w, oy + h), k)
        self._strip(page, tile, (ox, oy + h, ox + w, oy + h + s.px(STRIP_MM)))

    # marks --------------------------------------------------------------------------------
    def _marks(self, page: Page, tile: Tile, box: tuple[float, float, float, float],
               k: float) -> None:
        s = page.setup
        x0, y0, x1, y1 = box
        ov = s.px(self.overlap_mm)
        left, right = self.tile(tile.row, tile.col - 1), self.tile(tile.row, tile.col + 1)
        up, down = self.tile(tile.row - 1, tile.col), self.tile(tile.row + 1, tile.col)
        # Crop marks in the margin, at the corners of the printed tile.
        far, near = s.px(min(s.margin_mm - 1.0, 9.0)), s.px(1.5)
        short = s.px(3.5)  # under the tile, the strip starts below this
        for cx, cy, dx, dy in ((x0, y0, -1, -1), (x1, y0, 1, -1), (x0, y1, -1, 1),
                               (x1, y1, 1, 1)):
            page.line([(cx + dx * near, cy), (cx + dx * far, cy)], INK, 0.2)
            page.line([(cx, cy + dy * near), (cx, cy + dy * (far if dy < 0 else short))], INK,
                      0.2)
        # Where a neighbour's edge lies inside this tile's overlap.
        if ov > 0:
            if left is not None:
                self._dash(page, [(x0 + ov, y0), (x0 + ov, y1)], f"edge of {left.name}", "v")
            if up is not None:
                self._dash(page, [(x0, y0 + ov), (x1, y0 + ov)], f"edge of {up.name}", "h")
            # Registration crosses at fixed map positions in every overlap this tile shares.
            for other, vertical in ((left, True), (right, True), (up, False), (down, False)):
                if other is None:
                    continue
                for mx, my in self._cross_points(tile, other, vertical):
                    px = x0 + (mx - tile.bounds[0]) * k
                    py = y0 + (my - tile.bounds[1]) * k
                    if x0 <= px <= x1 and y0 <= py <= y1:
                        self._cross(page, px, py)
        # Arrows naming the neighbours, in the margin.
        size = 7.0
        if right is not None:
            page.text((x1 + s.px(1), (y0 + y1) / 2), f"{right.name} →", size, bold=True,
                      condensed=True, fill=MUTED, anchor="lm")
        if left is not None:
            page.text((x0 - s.px(1), (y0 + y1) / 2), f"← {left.name}", size, bold=True,
                      condensed=True, fill=MUTED, anchor="rm")
        if up is not None:
            page.text(((x0 + x1) / 2, y0 - s.px(1)), f"↑ {up.name}", size, bold=True,
                      condensed=True, fill=MUTED, anchor="md")

    def _cross_points(self, a: Tile, b: Tile, vertical: bool) -> list[tuple[float, float]]:
        """Map points in the middle of the overlap of two neighbouring tiles."""
        ov = self.overlap_mm / self.mm_per_unit
        first, second = (a, b) if (a.row, a.col) < (b.row, b.col) else (b, a)
        if vertical:
            mx = second.bounds[0] + ov / 2
            y0, y1 = first.bounds[1], first.bounds[3]
            return [(mx, y0 + (y1 - y0) * f) for f in (0.2, 0.8)]
        my = second.bounds[1] + ov / 2
        x0, x1 = first.bounds[0], first.bounds[2]
        return [(x0 + (x1 - x0) * f, my) for f in (0.2, 0.8)]

    def _cross(self, page: Page, x: float, y: float) -> None:
        s = page.setup
        r = s.px(2.2)
        page.draw.ellipse((x - r * 0.6, y - r * 0.6, x + r * 0.6, y + r * 0.6),
                          outline=(255, 255, 255), width=max(1, round(s.px(0.7))))
        page.draw.ellipse((x - r * 0.6, y - r * 0.6, x + r * 0.6, y + r * 0.6),
                          outline=(0, 0, 0), width=max(1, round(s.px(0.2))))
        for a, b in (((x - r, y), (x + r, y)), ((x, y - r), (x, y + r))):
            page.line([a, b], "#ffffff", 0.7)
            page.line([a, b], "#000000", 0.2)

    def _dash(self, page: Page, pts: list[tuple[float, float]], label: str, kind: str) -> None:
        s = page.setup
        (ax, ay), (bx, by) = pts
        length = math.hypot(bx - ax, by - ay)
        d = s.px(2.0)
        t = 0.0
        while t < length:
            t1 = min(length, t + d)
            seg = [(ax + (bx - ax) * t / length, ay + (by - ay) * t / length),
                   (ax + (bx - ax) * t1 / length, ay + (by - ay) * t1 / length)]
            page.line(seg, "#ffffff", 0.6)
            page.line(seg, "#000000", 0.25)
            t += 2 * d
        if kind == "v":
            page.text((ax + s.px(1), ay + s.px(1)), label, 6.5, condensed=True, anchor="la")
        else:
            page.text((ax + s.px(1), ay + s.px(1)), label, 6.5, condensed=True, anchor="la")

    def _strip(self, page: Page, tile: Tile, box: tuple[float, float, float, float]) -> None:
        s = page.setup
        x0, y0, x1, y1 = box
        ty = y0 + s.px(4.0)
        page.text((x0, ty), tile.name, 16, bold=True)
        scale = f"1 hex = {self.hex_mm or mapdraw.DEFAULT_HEX_MM:.1f} mm" \
            if isinstance(self.board, HexMap) else f"1 unit = {self.mm_per_unit:.2f} mm"
        info = (f"{self.board.title} — tile {tile.name}: row {tile.row + 1} of {self.rows}, "
                f"column {tile.col + 1} of {self.cols} — {scale}, overlap "
                f"{self.overlap_mm:g} mm. Print at 100 % (no fit to page).")
        tx = x0 + s.px(14)
        page.text((tx, ty), info, 7.5, condensed=True)
        page.text((tx, ty + line_height(s, 7.5)), "Trim along the crop marks where a "
                  "neighbour joins, lay the edge on its dashed line, match the ⊕ marks.", 7,
                  condensed=True, italic=True, fill=MUTED)
        # The plan of tiles, this one filled.
        cell = s.px(min(2.4, (STRIP_MM - 4.5) / self.rows, 40.0 / self.cols))
        px = x1 - self.cols * cell
        py = y0 + s.px(4.0)
        for t in self.tiles:
            r = (px + t.col * cell, py + t.row * cell, px + (t.col + 1) * cell,
                 py + (t.row + 1) * cell)
            page.rect(r, fill="#303030" if t is tile else "#ffffff", outline="#303030",
                      width_mm=0.15)


def tiled_map_document(board: BoardMap, *, paper_name: str = "a4", dpi: int = 300,
                       region: Bounds | None = None, hex_mm: float | None = None,
                       overlap_mm: float = 10.0, margin_mm: float = 12.0,
                       landscape: bool | None = None) -> TiledMap:
    """Tiles of `board` over pages of `paper_name`; orientation picked to use fewer pages
    unless `landscape` says."""
    setup = PageSetup(paper(paper_name), dpi, margin_mm, bool(landscape))
    return TiledMap(board, setup, region=region, hex_mm=hex_mm, overlap_mm=overlap_mm,
                    auto_orient=landscape is None)


def export_map(board: BoardMap, path: str | os.PathLike[str], *, region: Bounds | None = None,
               dpi: int = 300, paper_name: str = "a4", hex_mm: float | None = None,
               overlap_mm: float = 10.0, tiled: bool | None = None, margin_mm: float = 12.0,
               lossless: bool = False, report: Report | None = None,
               cancelled: Cancelled | None = None) -> Output:
    """`wartable map export`: ``.png`` writes one image (or tile pages with `tiled`),
    ``.pdf`` the tiles over paper pages."""
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix not in (".png", ".pdf"):
        raise WartableError(f"Cannot tell the output format of {target.name!r}: name the file "
                            ".png (one image) or .pdf (tiles over pages).")
    if suffix == ".png" and not tiled:
        return export_map_png(board, target, region=region, dpi=dpi, hex_mm=hex_mm,
                              report=report, cancelled=cancelled)
    doc = tiled_map_document(board, paper_name=paper_name, dpi=dpi, region=region,
                             hex_mm=hex_mm, overlap_mm=overlap_mm, margin_mm=margin_mm)
    return write_document(doc, target, report=report, cancelled=cancelled,
                          page_budget=None if lossless else PAGE_BUDGET)
