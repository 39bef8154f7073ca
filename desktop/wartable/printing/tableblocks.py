"""Tables and box grids for flowing documents: `Table` (columns fixed or by weight, group
rows, zebra stripes, counter images in cells, split between rows with the header repeated)
and `BoxGrid` (turn record tracks: numbered boxes with lines of text)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from PIL import Image

from wartable.printing.blocks import Block
from wartable.printing.page import (
    GROUP_FILL,
    HEAD_FILL,
    INK,
    MUTED,
    RULE,
    ZEBRA,
    Page,
    PageSetup,
    line_height,
    text_width,
    wrap,
)

# --- tables --------------------------------------------------------------------------------


CONTINUED = " (continued)"  # a group heading repeated on the next page


@dataclass(frozen=True)
class CellImage:
    """A picture in a table cell, `width_mm` x `height_mm` on paper, drawn at print
    resolution: `render(w_px, h_px)` returns an RGBA or RGB image."""

    render: Callable[[int, int], Image.Image]
    width_mm: float
    height_mm: float


@dataclass(frozen=True)
class Cell:
    text: str = ""
    bold: bool = False
    italic: bool = False
    colour: str = INK
    fill: str | None = None  # cell background
    swatch: str | None = None  # a small colour square before the text
    images: tuple[CellImage, ...] = ()  # drawn side by side, before the text
    size_pt: float | None = None


@dataclass(frozen=True)
class Column:
    title: str
    weight: float = 1.0  # share of the width left after fixed columns
    fixed_mm: float | None = None
    align: Literal["l", "c", "r"] = "l"


@dataclass(frozen=True)
class Row:
    cells: tuple[Cell | str, ...] = ()
    group: str = ""  # a full-width group heading row instead of cells
    group_note: str = ""  # smaller text after the group heading


@dataclass
class Table(Block):
    columns: Sequence[Column]
    rows: Sequence[Row]
    size_pt: float = 8.5
    header: bool = True
    zebra: bool = True
    pad_mm: float = 1.0
    after_mm: float = 2.0
    _cache: dict[tuple[int, float], tuple[list[float], list[float], float]] = field(
        default_factory=dict, repr=False)

    # layout -----------------------------------------------------------------------------
    def _widths(self, setup: PageSetup, width: float) -> list[float]:
        fixed = sum(setup.px(c.fixed_mm) for c in self.columns if c.fixed_mm is not None)
        weights = sum(c.weight for c in self.columns if c.fixed_mm is None) or 1.0
        rest = max(0.0, width - fixed)
        return [setup.px(c.fixed_mm) if c.fixed_mm is not None else rest * c.weight / weights
                for c in self.columns]

    def _cell(self, c: Cell | str) -> Cell:
        return Cell(c) if isinstance(c, str) else c

    def _cell_lines(self, setup: PageSetup, cell: Cell, w: float) -> list[str]:
        pad = setup.px(self.pad_mm)
        room = w - 2 * pad - self._lead(setup, cell)
        size = cell.size_pt or self.size_pt
        return wrap(setup, cell.text, max(room, setup.px(4)), size, cell.bold,
                    condensed=True, italic=cell.italic) if cell.text else []

    def _lead(self, setup: PageSetup, cell: Cell) -> float:
        """Room taken before the text by images and a swatch."""
        lead = sum(setup.px(im.width_mm) + setup.px(1) for im in cell.images)
        if cell.swatch:
            lead += setup.px(4)
        return lead

    def _layout(self, setup: PageSetup, width: float) -> tuple[list[float], list[float], float]:
        key = (setup.dpi, round(width, 2))
        if key in self._cache:
            return self._cache[key]
        widths = self._widths(setup, width)
        pad = setup.px(self.pad_mm)
        heights: list[float] = []
        for row in self.rows:
            if row.group:
                below = self._group_note_lines(setup, row, width)
                heights.append(line_height(setup, self.size_pt + 0.5) + 2 * pad
                               + len(below) * line_height(setup, self.size_pt - 0.5))
                continue
            h = line_height(setup, self.size_pt)
            for c, w in zip(row.cells, widths, strict=False):
                cell = self._cell(c)
                lines = self._cell_lines(setup, cell, w)
                th = len(lines) * line_height(setup, cell.size_pt or self.size_pt)
                ih = max((setup.px(im.height_mm) for im in cell.images), default=0.0)
                h = max(h, th, ih)
            heights.append(h + 2 * pad)
        head_h = 0.0
        if self.header:
            head_h = max(len(wrap(setup, col.title, w - 2 * pad, self.size_pt, True,
                                  condensed=True))
                         for col, w in zip(self.columns, widths, strict=True))
            head_h = head_h * line_height(setup, self.size_pt) + 2 * pad
        out = (widths, heights, head_h)
        self._cache[key] = out
        return out

    def _group_note_lines(self, setup: PageSetup, row: Row, width: float) -> list[str]:
        """The group note's lines under the heading; [] when it fits beside the heading."""
        if not row.group_note:
            return []
        pad = setup.px(self.pad_mm)
        gw = text_width(setup, row.group, self.size_pt + 0.5, bold=True)
        room = width - gw - 4 * pad
        if text_width(setup, row.group_note, self.size_pt - 0.5, condensed=True) <= room:
            return []
        return wrap(setup, row.group_note, width - 2 * pad, self.size_pt - 0.5, condensed=True)

    def height(self, setup: PageSetup, width: float) -> float:
        _, heights, head = self._layout(setup, width)
        return head + sum(heights) + setup.px(self.after_mm)

    def min_height(self, setup: PageSetup, width: float) -> float:
        _, heights, head = self._layout(setup, width)
        first = heights[0] if heights else 0.0
        if self.rows and self.rows[0].group and len(heights) > 1:
            first += heights[1]
        return head + first

    def split(self, setup: PageSetup, width: float, avail: float) -> tuple[Block, Block] | None:
        _, heights, head = self._layout(setup, width)
        used, k = head, 0
        while k < len(heights) and used + heights[k] <= avail:
            used += heights[k]
            k += 1
        while k > 0 and self.rows[k - 1].group:  # never end a page on a group heading
            k -= 1
        if k == 0 or k >= len(self.rows):
            return None
        def mk(rows: list[Row]) -> Table:
            return Table(self.columns, rows, self.size_pt, self.header, self.zebra, self.pad_mm,
                         self.after_mm)

        first, rest = list(self.rows[:k]), list(self.rows[k:])
        if not rest[0].group:
            # Repeat the current group's heading at the top of the next page.
            for r in reversed(first):
                if r.group:
                    title = r.group if r.group.endswith(CONTINUED) else r.group + CONTINUED
                    rest.insert(0, Row(group=title, group_note=r.group_note))
                    break
        head_t = mk(first)
        head_t.after_mm = 0.0
        return head_t, mk(rest)

    # drawing ----------------------------------------------------------------------------
    def draw(self, page: Page, x: float, y: float, width: float) -> None:
        s = page.setup
        widths, heights, head_h = self._layout(s, width)
        pad = s.px(self.pad_mm)
        xs = [x]
        for w in widths:
            xs.append(xs[-1] + w)
        top = y
        if self.header:
            page.rect((x, y, x + width, y + head_h), fill=HEAD_FILL)
            for col, x0, w in zip(self.columns, xs, widths, strict=False):
                lines = wrap(s, col.title, w - 2 * pad, self.size_pt, True, condensed=True)
                for i, line in enumerate(lines):
                    self._aligned(page, col.align, x0, w, y + pad + i * line_height(
                        s, self.size_pt), line, self.size_pt, bold=True)
            y += head_h
        shade = False
        for row, h in zip(self.rows, heights, strict=True):
            if row.group:
                page.rect((x, y, x + width, y + h), fill=GROUP_FILL)
                gw = page.text((x + pad, y + pad), row.group, self.size_pt + 0.5, bold=True)
                below = self._group_note_lines(s, row, width)
                if row.group_note and not below:
                    page.text((x + gw + 3 * pad, y + pad + s.pt(0.5)), row.group_note,
                              self.size_pt - 0.5, condensed=True, fill=MUTED)
                ny = y + pad + line_height(s, self.size_pt + 0.5)
                for i, line in enumerate(below):
                    page.text((x + pad, ny + i * line_height(s, self.size_pt - 0.5)), line,
                              self.size_pt - 0.5, condensed=True, fill=MUTED)
                shade = False
                y += h
                continue
            if self.zebra and shade:
                page.rect((x, y, x + width, y + h), fill=ZEBRA)
            shade = not shade
            middle = any(self._cell(c).images for c in row.cells)
            for c, col, x0, w in zip(row.cells, self.columns, xs, widths, strict=False):
                cell = self._cell(c)
                if cell.fill:
                    page.rect((x0, y, x0 + w, y + h), fill=cell.fill)
                cx = x0 + pad
                for im in cell.images:
                    iw, ih = round(s.px(im.width_mm)), round(s.px(im.height_mm))
                    page.paste(im.render(iw, ih), (cx, y + (h - ih) / 2))
                    cx += iw + s.px(1)
                if cell.swatch:
                    sw = s.px(3)
                    page.rect((cx, y + pad + s.px(0.3), cx + sw, y + pad + s.px(0.3) + sw),
                              fill=cell.swatch, outline=MUTED, width_mm=0.15)
                    cx += s.px(4)
                size = cell.size_pt or self.size_pt
                lines = self._cell_lines(s, cell, w)
                lh = line_height(s, size)
                ty = y + (h - len(lines) * lh) / 2 if middle else y + pad
                for i, line in enumerate(lines):
                    if cell.images or cell.swatch:
                        page.text((cx, ty + i * lh), line, size, bold=cell.bold,
                                  italic=cell.italic, condensed=True, fill=cell.colour)
                    else:
                        self._aligned(page, col.align, x0, w, ty + i * lh, line, size,
                                      bold=cell.bold, italic=cell.italic, fill=cell.colour)
            y += h
            page.line([(x, y), (x + width, y)], "#d0d0d0", 0.12)
        page.rect((x, top, x + width, y), outline=RULE, width_mm=0.25)

    def _aligned(self, page: Page, align: str, x0: float, w: float, y: float, text: str,
                 size: float, bold: bool = False, italic: bool = False, fill: str = INK) -> None:
        pad = page.setup.px(self.pad_mm)
        if align == "c":
            page.text((x0 + w / 2, y), text, size, bold=bold, italic=italic, condensed=True,
                      fill=fill, anchor="ma")
        elif align == "r":
            page.text((x0 + w - pad, y), text, size, bold=bold, italic=italic, condensed=True,
                      fill=fill, anchor="ra")
        else:
            page.text((x0 + pad, y), text, size, bold=bold, italic=italic, condensed=True,
                      fill=fill)

    def texts(self) -> list[str]:
        out = [c.title for c in self.columns] if self.header else []
        for r in self.rows:
            if r.group:
                out.append(r.group)
                if r.group_note:
                    out.append(r.group_note)
            out.extend(self._cell(c).text for c in r.cells)
        return out


def _ellipsize(setup: PageSetup, text: str, width: float, size_pt: float) -> str:
    if text_width(setup, text, size_pt, condensed=True) <= width:
        return text
    while text and text_width(setup, text + "…", size_pt, condensed=True) > width:
        text = text[:-1]
    return text + "…" if text else ""


# --- box grids (turn record tracks) --------------------------------------------------------


@dataclass(frozen=True)
class BoxCell:
    title: str
    lines: tuple[str, ...] = ()
    fill: str | None = None
    subtitle: str = ""


@dataclass
class BoxGrid(Block):
    """Equal boxes in rows, wrapping at the page width: a turn record track."""

    cells: Sequence[BoxCell]
    box_w_mm: float = 22.0
    box_h_mm: float = 17.0
    after_mm: float = 2.0

    def _per_row(self, setup: PageSetup, width: float) -> int:
        return max(1, int(width // setup.px(self.box_w_mm)))

    def _rows(self, setup: PageSetup, width: float) -> int:
        n = self._per_row(setup, width)
        return math.ceil(len(self.cells) / n) if self.cells else 0

    def height(self, setup: PageSetup, width: float) -> float:
        return self._rows(setup, width) * setup.px(self.box_h_mm) + setup.px(self.after_mm)

    def min_height(self, setup: PageSetup, width: float) -> float:
        return setup.px(self.box_h_mm)

    def split(self, setup: PageSetup, width: float, avail: float) -> tuple[Block, Block] | None:
        rows = int(avail // setup.px(self.box_h_mm))
        n = self._per_row(setup, width)
        if rows < 1 or rows * n >= len(self.cells):
            return None
        k = rows * n
        return (BoxGrid(self.cells[:k], self.box_w_mm, self.box_h_mm, 0.0),
                BoxGrid(self.cells[k:], self.box_w_mm, self.box_h_mm, self.after_mm))

    def draw(self, page: Page, x: float, y: float, width: float) -> None:
        s = page.setup
        n = self._per_row(s, width)
        bw, bh = width / n, s.px(self.box_h_mm)  # boxes stretch to fill the row
        pad = s.px(0.8)
        for i, c in enumerate(self.cells):
            x0 = x + (i % n) * bw
            y0 = y + (i // n) * bh
            page.rect((x0, y0, x0 + bw, y0 + bh), fill=c.fill or "#ffffff", outline=INK,
                      width_mm=0.3)
            page.text((x0 + pad, y0 + pad), c.title, 10, bold=True)
            if c.subtitle:
                page.text((x0 + bw - pad, y0 + pad + s.pt(1.5)), c.subtitle, 6.5,
                          condensed=True, fill=MUTED, anchor="ra")
            ly = y0 + pad + line_height(s, 10)
            for line in c.lines:
                if ly + line_height(s, 6.5) > y0 + bh:
                    break
                page.text((x0 + pad, ly), _ellipsize(s, line, bw - 2 * pad, 6.5), 6.5,
                          condensed=True)
                ly += line_height(s, 6.5)

    def texts(self) -> list[str]:
        return [t for c in self.cells for t in (c.title, c.subtitle, *c.lines) if t]


