"""Pages, flowing layout and output: multi-page PDF or PNG pages at print resolution.

Every printed document is a `Document`: a title, a `PageSetup` (paper, margins, dpi) and a
way to draw page *i* onto a white `Page` (a Pillow RGB image plus a record of the text drawn
on it). `FlowDocument` lays out a list of `Block`s (headings, paragraphs, tables with counter
images, pictures, box grids) top to bottom, breaking pages where a block does not fit and
splitting tables between rows; the map tiles of `map_export` draw whole pages themselves.

Sizes. Layout is in millimetres and points, converted to pixels at the setup's dpi when a
page is measured or drawn, so one layout serves 300 dpi output and small test renders alike.

Output. `write_document(doc, path)` picks the format from the suffix:

- ``.pdf``: our own small PDF writer (Pillow's embeds RGB pages as JPEG, which blurs text).
  Each page is one image XObject compressed losslessly with Flate, using the PNG predictors
  (the IDAT stream of a PNG encoding *is* a valid PDF Flate stream with ``/Predictor 15``).
  Pages are stored as exact palette images when they use at most 256 colours, greyscale when
  they have no colour, and RGB otherwise (a page that would still exceed `PAGE_BUDGET`, a
  map tile full of colour gradations, is reduced to 256 colours without dithering: no blur,
  no artefacts, a third of the size). An invisible text layer (PDF text render mode 3)
  holds every string drawn, so the PDF can be searched and its text copied.
- ``.png``: one file for a one-page document; ``FILE-1.png``, ``FILE-2.png`` … otherwise.

Pages are drawn one at a time and compressed at once, so memory stays at about one page
(A4 at 300 dpi: 2480 x 3508 px, 26 MB) whatever the page count. `report(percent, text)` is
called as pages are done and `cancelled()` is polled between pages; on cancellation
`PrintCancelled` is raised and no output file is left behind.
"""

from __future__ import annotations

import io
import math
import os
import struct
import tempfile
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Literal, Protocol

from PIL import Image, ImageChops, ImageDraw

from wartable.core.errors import WartableError
from wartable.printing.fonts import FontT, font

__all__ = [
    "PAPERS", "Block", "BoxCell", "BoxGrid", "Cell", "CellImage", "Column", "Document",
    "FlowDocument", "Heading", "ImageBlock", "KeepTogether", "Output", "Page", "PageBreak",
    "PageSetup", "Paper", "Paragraph", "PrintCancelled", "Progress", "Row", "RunningHeader",
    "Spacer", "Table",
    "TextRun", "paper", "render_pages", "write_document",
]

MM_PER_INCH = 25.4
INK = "#1a1a1a"
MUTED = "#5a5a5a"
RULE = "#9a9a9a"
HEAD_FILL = "#e4e4e4"
GROUP_FILL = "#f1ede2"
ZEBRA = "#f7f7f7"
PROVISIONAL = "#d9822b"

Report = Callable[[float, str], None]
Cancelled = Callable[[], bool]


class PrintCancelled(WartableError):
    """The user cancelled printing; nothing was written."""


# --- paper ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Paper:
    name: str
    width_mm: float
    height_mm: float


PAPERS: dict[str, Paper] = {
    "a4": Paper("A4", 210.0, 297.0),
    "letter": Paper("Letter", 215.9, 279.4),
}


def paper(name: str | Paper) -> Paper:
    """A paper size by name, any case ("a4", "Letter")."""
    if isinstance(name, Paper):
        return name
    p = PAPERS.get(str(name).strip().lower())
    if p is None:
        raise WartableError(f"Unknown paper size {name!r}; choose {' or '.join(PAPERS)}.")
    return p


@dataclass(frozen=True, slots=True)
class PageSetup:
    """Paper, orientation, margins and resolution of a document."""

    paper: Paper = PAPERS["a4"]
    dpi: int = 300
    margin_mm: float = 12.0
    landscape: bool = False

    def __post_init__(self) -> None:
        if not 20 <= self.dpi <= 1200:
            raise WartableError(f"The resolution must be 20 to 1200 dpi, not {self.dpi}.")
        w, h = self.size_mm
        if not 0 <= self.margin_mm < min(w, h) / 3:
            raise WartableError(f"A margin of {self.margin_mm} mm does not fit the paper; "
                                f"use 0 to {min(w, h) / 3:.0f} mm.")

    @property
    def size_mm(self) -> tuple[float, float]:
        w, h = self.paper.width_mm, self.paper.height_mm
        return (h, w) if self.landscape else (w, h)

    @property
    def size_px(self) -> tuple[int, int]:
        w, h = self.size_mm
        return (round(self.px(w)), round(self.px(h)))

    def px(self, mm: float) -> float:
        """Millimetres in pixels."""
        return mm * self.dpi / MM_PER_INCH

    def pt(self, points: float) -> float:
        """Points (1/72 in) in pixels."""
        return points * self.dpi / 72.0

    @property
    def content_px(self) -> tuple[float, float, float, float]:
        """The printable box inside the margins (x0, y0, x1, y1)."""
        w, h = self.size_px
        m = self.px(self.margin_mm)
        return (m, m, w - m, h - m)


# --- pages ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TextRun:
    """One string as drawn: left x and baseline y in pixels, size in pixels (em)."""

    x: float
    y: float
    size: float
    text: str


def _rgb(c: str) -> tuple[int, int, int]:
    c = c.lstrip("#")
    return (int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16))


class Page:
    """A white page to draw on, recording the text it receives (for the PDF text layer)."""

    def __init__(self, setup: PageSetup, number: int = 1, count: int = 1) -> None:
        self.setup = setup
        self.number = number
        self.count = count
        self.image = Image.new("RGB", setup.size_px, "white")
        self.draw = ImageDraw.Draw(self.image)
        self.texts: list[TextRun] = []

    def font(self, size_pt: float, bold: bool = False, condensed: bool = False,
             italic: bool = False) -> FontT:
        return font(self.setup.pt(size_pt), bold, condensed, italic)

    def text(self, xy: tuple[float, float], text: str, size_pt: float, *, bold: bool = False,
             condensed: bool = False, italic: bool = False, fill: str = INK,
             anchor: str = "la") -> float:
        """Draw one line of text; returns its width in pixels."""
        if not text:
            return 0.0
        f = self.font(size_pt, bold, condensed, italic)
        self.draw.text(xy, text, font=f, fill=_rgb(fill), anchor=anchor)
        # Where the baseline and the left edge ended up, whatever the anchor.
        ax0, ay0, _, _ = f.getbbox(text, anchor=anchor)
        lx0, ly0, _, _ = f.getbbox(text, anchor="ls")
        self.texts.append(TextRun(xy[0] + ax0 - lx0, xy[1] + ay0 - ly0, f.size, text))
        return float(f.getlength(text))

    def rect(self, box: tuple[float, float, float, float], fill: str | None = None,
             outline: str | None = None, width_mm: float = 0.25, radius_mm: float = 0.0) -> None:
        w = max(1, round(self.setup.px(width_mm))) if outline else 0
        r = self.setup.px(radius_mm)
        args: dict[str, Any] = {"fill": _rgb(fill) if fill else None,
                                "outline": _rgb(outline) if outline else None, "width": w}
        if r > 0:
            self.draw.rounded_rectangle(box, radius=r, **args)
        else:
            self.draw.rectangle(box, **args)

    def line(self, points: Sequence[tuple[float, float]], colour: str = INK,
             width_mm: float = 0.25) -> None:
        self.draw.line(list(points), fill=_rgb(colour),
                       width=max(1, round(self.setup.px(width_mm))))

    def paste(self, img: Image.Image, xy: tuple[float, float]) -> None:
        pos = (round(xy[0]), round(xy[1]))
        if img.mode == "RGBA":
            self.image.paste(img, pos, img)
        else:
            self.image.paste(img.convert("RGB"), pos)


def text_width(setup: PageSetup, text: str, size_pt: float, bold: bool = False,
               condensed: bool = False, italic: bool = False) -> float:
    return float(font(setup.pt(size_pt), bold, condensed, italic).getlength(text))


def wrap(setup: PageSetup, text: str, width_px: float, size_pt: float, bold: bool = False,
         condensed: bool = False, italic: bool = False) -> list[str]:
    """Greedy word wrap to `width_px`; words longer than a line are broken between letters.
    Newlines in `text` start new lines."""
    f = font(setup.pt(size_pt), bold, condensed, italic)
    out: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split(" "):
            trial = f"{line} {word}" if line else word
            if f.getlength(trial) <= width_px:
                line = trial
                continue
            if line:
                out.append(line)
            line = word
            while line and f.getlength(line) > width_px and len(line) > 1:
                k = len(line) - 1
                while k > 1 and f.getlength(line[:k]) > width_px:
                    k -= 1
                out.append(line[:k])
                line = line[k:]
        out.append(line)
    return out


def line_height(setup: PageSetup, size_pt: float) -> float:
    return setup.pt(size_pt) * 1.25


# --- documents -----------------------------------------------------------------------------


class Document(Protocol):
    """Anything `write_document` can print."""

    @property
    def title(self) -> str: ...
    @property
    def setup(self) -> PageSetup: ...
    def page_count(self) -> int: ...
    def draw_page(self, index: int, page: Page) -> None: ...


class Block:
    """A piece of a flowing document. Subclasses measure and draw themselves in pixels."""

    keep_with_next = False
    page_break_before = False

    def height(self, setup: PageSetup, width: float) -> float:
        raise NotImplementedError

    def draw(self, page: Page, x: float, y: float, width: float) -> None:
        raise NotImplementedError

    def split(self, setup: PageSetup, width: float, avail: float) -> tuple[Block, Block] | None:
        """A first part no taller than `avail` and the rest, or None when it cannot split."""
        return None

    def min_height(self, setup: PageSetup, width: float) -> float:
        """The least room the block needs on a page (its first row, for a table)."""
        return self.height(setup, width)

    def texts(self) -> list[str]:
        """The strings the block shows (for tests and summaries)."""
        return []


@dataclass
class Spacer(Block):
    mm: float = 3.0

    def height(self, setup: PageSetup, width: float) -> float:
        return setup.px(self.mm)

    def draw(self, page: Page, x: float, y: float, width: float) -> None:
        pass


@dataclass
class PageBreak(Block):
    page_break_before = True

    def height(self, setup: PageSetup, width: float) -> float:
        return 0.0

    def draw(self, page: Page, x: float, y: float, width: float) -> None:
        pass


@dataclass
class RunningHeader(Block):
    """Zero-height marker: from its page on, the header's right side shows `text`."""

    text: str

    def height(self, setup: PageSetup, width: float) -> float:
        return 0.0

    def draw(self, page: Page, x: float, y: float, width: float) -> None:
        pass


@dataclass
class Heading(Block):
    """A section title; level 1 is the document's big title. `badge` adds a coloured tag
    (e.g. "PROVISIONAL") after the text."""

    text: str
    level: int = 2
    badge: str = ""
    badge_colour: str = PROVISIONAL
    keep_with_next = True

    @property
    def size_pt(self) -> float:
        return {1: 16.0, 2: 12.5, 3: 10.5}.get(self.level, 10.0)

    def height(self, setup: PageSetup, width: float) -> float:
        before = {1: 0.0, 2: 4.0, 3: 2.5}.get(self.level, 2.0)
        lines = wrap(setup, self.text, width - self._badge_w(setup), self.size_pt, bold=True)
        return setup.px(before + 1.5) + len(lines) * line_height(setup, self.size_pt)

    def _badge_w(self, setup: PageSetup) -> float:
        if not self.badge:
            return 0.0
        return text_width(setup, self.badge, self.size_pt * 0.62, bold=True) + setup.px(5)

    def draw(self, page: Page, x: float, y: float, width: float) -> None:
        s = page.setup
        y += s.px({1: 0.0, 2: 4.0, 3: 2.5}.get(self.level, 2.0))
        lh = line_height(s, self.size_pt)
        lines = wrap(s, self.text, width - self._badge_w(s), self.size_pt, bold=True)
        w = 0.0
        for i, line in enumerate(lines):
            w = page.text((x, y + i * lh), line, self.size_pt, bold=True)
        if self.badge:
            by = y + (len(lines) - 1) * lh
            bsize = self.size_pt * 0.62
            bx = x + w + s.px(2.5)
            bw = text_width(s, self.badge, bsize, bold=True) + s.px(2.5)
            top, bot = by + lh * 0.12, by + lh * 0.78
            page.rect((bx, top, bx + bw, bot), fill=self.badge_colour, radius_mm=0.8)
            page.text((bx + bw / 2, (top + bot) / 2), self.badge, bsize, bold=True,
                      fill="#ffffff", anchor="mm")
        if self.level <= 2:
            ly = y + len(lines) * lh + s.px(0.4)
            page.line([(x, ly), (x + width, ly)], RULE if self.level == 2 else INK,
                      0.35 if self.level == 2 else 0.6)

    def texts(self) -> list[str]:
        return [self.text] + ([self.badge] if self.badge else [])


@dataclass
class Paragraph(Block):
    text: str
    size_pt: float = 9.0
    bold: bool = False
    italic: bool = False
    colour: str = INK
    indent_mm: float = 0.0
    after_mm: float = 1.5
    fill: str | None = None  # a tinted box behind the text (notes, warnings)

    def _lines(self, setup: PageSetup, width: float) -> list[str]:
        pad = setup.px(2) if self.fill else 0.0
        return wrap(setup, self.text, width - setup.px(self.indent_mm) - 2 * pad, self.size_pt,
                    self.bold, italic=self.italic, condensed=self.italic)

    def height(self, setup: PageSetup, width: float) -> float:
        pad = setup.px(2) if self.fill else 0.0
        return (len(self._lines(setup, width)) * line_height(setup, self.size_pt) + 2 * pad
                + setup.px(self.after_mm))

    def draw(self, page: Page, x: float, y: float, width: float) -> None:
        s = page.setup
        pad = s.px(2) if self.fill else 0.0
        lines = self._lines(s, width)
        lh = line_height(s, self.size_pt)
        x0 = x + s.px(self.indent_mm)
        if self.fill:
            page.rect((x0, y, x + width, y + len(lines) * lh + 2 * pad), fill=self.fill)
        for i, line in enumerate(lines):
            page.text((x0 + pad, y + pad + i * lh), line, self.size_pt, bold=self.bold,
                      italic=self.italic, condensed=self.italic, fill=self.colour)

    def split(self, setup: PageSetup, width: float, avail: float) -> tuple[Block, Block] | None:
        if self.fill:
            return None
        lines = self._lines(setup, width)
        n = int(avail // line_height(setup, self.size_pt))
        if n < 1 or n >= len(lines):
            return None
        head = Paragraph("\n".join(lines[:n]), self.size_pt, self.bold, self.italic, self.colour,
                         self.indent_mm, 0.0)
        tail = Paragraph("\n".join(lines[n:]), self.size_pt, self.bold, self.italic,
                         self.colour, self.indent_mm, self.after_mm)
        return head, tail

    def min_height(self, setup: PageSetup, width: float) -> float:
        if self.fill:
            return self.height(setup, width)
        return min(self.height(setup, width), 2 * line_height(setup, self.size_pt))

    def texts(self) -> list[str]:
        return [self.text]


@dataclass
class ImageBlock(Block):
    """A picture drawn at print resolution when its page is drawn: `render(w_px, h_px)`
    returns an image of that size (a map excerpt, a legend). `caption` goes below it."""

    render: Callable[[int, int], Image.Image]
    width_mm: float
    height_mm: float
    caption: str = ""
    border: bool = True
    centre: bool = True
    words: tuple[str, ...] = ()  # what the picture shows in words (tests, the text layer)

    def _cap_h(self, setup: PageSetup, width: float) -> float:
        if not self.caption:
            return 0.0
        lines = wrap(setup, self.caption, width, 8, italic=True, condensed=True)
        return len(lines) * line_height(setup, 8) + setup.px(1)

    def height(self, setup: PageSetup, width: float) -> float:
        return setup.px(self.height_mm) + self._cap_h(setup, width) + setup.px(2.5)

    def draw(self, page: Page, x: float, y: float, width: float) -> None:
        s = page.setup
        w, h = max(1, round(s.px(self.width_mm))), max(1, round(s.px(self.height_mm)))
        x0 = x + (width - w) / 2 if self.centre else x
        img = self.render(w, h)
        if img.size != (w, h):
            img = img.resize((w, h), Image.Resampling.LANCZOS)
        page.paste(img, (x0, y))
        if self.border:
            page.rect((round(x0), round(y), round(x0) + w, round(y) + h), outline=MUTED,
                      width_mm=0.2)
        cy = y + h + s.px(1)
        for i, line in enumerate(wrap(s, self.caption, width, 8, italic=True, condensed=True)):
            page.text((x + width / 2, cy + i * line_height(s, 8)), line, 8, italic=True,
                      condensed=True, fill=MUTED, anchor="ma")

    def texts(self) -> list[str]:
        return ([self.caption] if self.caption else []) + list(self.words)


@dataclass
class KeepTogether(Block):
    """Blocks that go on one page (moved to the next page as a whole when needed)."""

    blocks: list[Block]

    def height(self, setup: PageSetup, width: float) -> float:
        return sum(b.height(setup, width) for b in self.blocks)

    def draw(self, page: Page, x: float, y: float, width: float) -> None:
        for b in self.blocks:
            b.draw(page, x, y, width)
            y += b.height(page.setup, width)

    def texts(self) -> list[str]:
        return [t for b in self.blocks for t in b.texts()]


# --- tables --------------------------------------------------------------------------------


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
                    rest.insert(0, Row(group=f"{r.group} (continued)", group_note=r.group_note))
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


# --- flowing documents ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Placed:
    block: Block
    y: float


class FlowDocument:
    """Blocks flowed over pages, with a running header (title, subtitle) and footer."""

    def __init__(self, title: str, blocks: Sequence[Block], setup: PageSetup | None = None,
                 subtitle: str = "", footer: str = "Printed with Wartable") -> None:
        self._title = title
        self._setup = setup or PageSetup()
        self.blocks = list(blocks)
        self.subtitle = subtitle
        self.footer = footer
        self._pages: list[list[_Placed]] | None = None

    @property
    def title(self) -> str:
        return self._title

    @property
    def setup(self) -> PageSetup:
        return self._setup

    def _frame(self) -> tuple[float, float, float, float]:
        """The body box: the content box less the header and footer bands."""
        x0, y0, x1, y1 = self.setup.content_px
        s = self.setup
        return (x0, y0 + line_height(s, 8) + s.px(3), x1, y1 - line_height(s, 7.5) - s.px(2))

    def paginate(self) -> list[list[_Placed]]:
        if self._pages is not None:
            return self._pages
        s = self.setup
        x0, top, x1, bottom = self._frame()
        width = x1 - x0
        pages: list[list[_Placed]] = [[]]
        y = top
        queue = list(self.blocks)
        i = 0
        while i < len(queue):
            b = queue[i]
            if b.page_break_before and pages[-1]:
                pages.append([])
                y = top
            h = b.height(s, width)
            avail = bottom - y
            need = h
            if b.keep_with_next and i + 1 < len(queue):
                need = h + queue[i + 1].min_height(s, width)
            if need <= avail or (not pages[-1] and h <= avail):
                pages[-1].append(_Placed(b, y))
                y += h
                i += 1
                continue
            if isinstance(b, KeepTogether) and not pages[-1]:
                queue[i:i + 1] = b.blocks  # taller than a page: let its parts flow
                continue
            parts = b.split(s, width, avail) if not b.keep_with_next else None
            if parts is not None:
                pages[-1].append(_Placed(parts[0], y))
                queue[i] = parts[1]
            elif not pages[-1]:
                # Taller than a whole page and unsplittable: place it and let it clip.
                pages[-1].append(_Placed(b, y))
                i += 1
            pages.append([])
            y = top
        if not pages[-1] and len(pages) > 1:
            pages.pop()
        self._pages = pages
        return pages

    def page_count(self) -> int:
        return len(self.paginate())

    def draw_page(self, index: int, page: Page) -> None:
        s = self.setup
        x0, y0, x1, y1 = s.content_px
        page.text((x0, y0), self.title, 8, bold=True, condensed=True, fill=MUTED)
        subtitle = self.subtitle
        for placed_page in self.paginate()[:index + 1]:
            for placed in placed_page:
                if isinstance(placed.block, RunningHeader):
                    subtitle = placed.block.text
        if subtitle:
            page.text((x1, y0), subtitle, 8, condensed=True, fill=MUTED, anchor="ra")
        hy = y0 + line_height(s, 8) + s.px(0.6)
        page.line([(x0, hy), (x1, hy)], RULE, 0.2)
        fy = y1 - line_height(s, 7.5)
        page.line([(x0, fy - s.px(0.8)), (x1, fy - s.px(0.8))], RULE, 0.2)
        page.text((x0, fy), self.footer, 7.5, condensed=True, fill=MUTED)
        page.text((x1, fy), f"Page {index + 1} of {self.page_count()}", 7.5, condensed=True,
                  fill=MUTED, anchor="ra")
        fx0, _, fx1, _ = self._frame()
        for placed in self.paginate()[index]:
            placed.block.draw(page, fx0, placed.y, fx1 - fx0)

    def texts(self) -> list[str]:
        """Every string the blocks show, in order (no need to draw)."""
        return [t for b in self.blocks for t in b.texts()]


# --- rendering and output ------------------------------------------------------------------


@dataclass
class Progress:
    """Wraps the caller's report/cancelled pair; maps sub-steps onto a percent range."""

    report: Report | None = None
    cancelled: Cancelled | None = None
    lo: float = 0.0
    hi: float = 100.0

    def __call__(self, fraction: float, text: str) -> None:
        self.check()
        if self.report is not None:
            self.report(round(self.lo + (self.hi - self.lo) * max(0.0, min(1.0, fraction)), 1),
                        text)

    def check(self) -> None:
        if self.cancelled is not None and self.cancelled():
            raise PrintCancelled("Printing was cancelled; no file was written.")

    def sub(self, lo: float, hi: float) -> Progress:
        span = self.hi - self.lo
        return Progress(self.report, self.cancelled, self.lo + span * lo, self.lo + span * hi)


def render_pages(doc: Document, progress: Progress | None = None) -> Iterator[Page]:
    """Draw the pages one at a time (each is dropped once the caller moves on)."""
    progress = progress or Progress()
    n = doc.page_count()
    for i in range(n):
        progress(i / n, f"Drawing page {i + 1} of {n}")
        page = Page(doc.setup, i + 1, n)
        doc.draw_page(i, page)
        yield page
    progress(1.0, f"{n} page{'s' if n != 1 else ''} drawn")


def compact(img: Image.Image) -> Image.Image:
    """The same pixels in the smallest lossless mode: greyscale when there is no colour, an
    exact palette for at most 256 colours, else RGB. The result is checked: a palette that
    would change a single pixel is not used."""
    img = img.convert("RGB") if img.mode != "RGB" else img
    r, g, b = img.split()
    if ImageChops.difference(r, g).getbbox() is None and \
            ImageChops.difference(g, b).getbbox() is None:
        return r
    colours = img.getcolors(256)
    if colours is not None:
        flat: list[int] = []
        for _, rgb in colours:
            flat.extend(rgb if isinstance(rgb, tuple) else (int(rgb),) * 3)
        pal = Image.new("P", (1, 1))
        pal.putpalette(flat + flat[:3] * (256 - len(colours)))  # pad with a used colour
        out = img.quantize(palette=pal, dither=Image.Dither.NONE)
        hi = out.getextrema()[1]
        if isinstance(hi, int) and hi < len(colours):
            out.putpalette(flat)  # only the colours in use
            if ImageChops.difference(out.convert("RGB"), img).getbbox() is None:
                return out
    return img


@dataclass(frozen=True)
class _Png:
    width: int
    height: int
    bits: int
    colour_type: int
    palette: bytes
    idat: bytes


def _png(img: Image.Image, dpi: int) -> tuple[bytes, _Png]:
    """PNG bytes of the image and its parsed chunks (for the PDF writer)."""
    buf = io.BytesIO()
    img.save(buf, "PNG", compress_level=6, dpi=(dpi, dpi))
    data = buf.getvalue()
    pos = 8
    ihdr = b""
    palette = b""
    idat: list[bytes] = []
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            ihdr = body
        elif kind == b"PLTE":
            palette = body
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + length
    w, h, bits, ctype, _, _, interlace = struct.unpack(">IIBBBBB", ihdr)
    if interlace or ctype not in (0, 2, 3):
        raise ValueError(f"unexpected PNG layout (colour type {ctype}, interlace {interlace})")
    return data, _Png(w, h, bits, ctype, palette, b"".join(idat))


PAGE_BUDGET = 1_800_000  # bytes: a page above this lossless is reduced to 256 colours


def encode_page(img: Image.Image, dpi: int,
                budget: int | None = PAGE_BUDGET) -> tuple[bytes, _Png, bool]:
    """PNG bytes, parsed chunks, and whether the colours were reduced.

    Pages are lossless. A page whose lossless encoding is over `budget` (a big map tile full
    of colour gradations) is reduced to its 256 most used colours, without dithering: edges
    and text stay exactly as sharp (no blur, no JPEG artefacts) and the page shrinks about
    three times; the smaller encoding is kept. `budget=None` keeps every page lossless.
    """
    small = compact(img)
    data, png = _png(small, dpi)
    if budget is None or len(data) <= budget or small.mode != "RGB":
        return data, png, False
    reduced = small.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    data2, png2 = _png(reduced, dpi)
    if len(data2) < len(data):
        return data2, png2, True
    return data, png, False


# Characters the text layer's WinAnsi font lacks, as the nearest plain text.
_PLAIN = str.maketrans({"✓": "", "→": "->", "←": "<-", "↑": "^", "↓": "v", "⊕": "(+)",
                        "≤": "<=", "≥": ">=", "−": "-", "\u00a0": " "})


def _pdf_string(text: str) -> bytes:
    raw = text.translate(_PLAIN).encode("cp1252", errors="replace")
    return b"(" + raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


class _PdfWriter:
    """A minimal PDF 1.4 writer: one full-page image per page plus invisible text."""

    def __init__(self, f: BinaryIO, n_pages: int, title: str) -> None:
        self.f = f
        self.n = n_pages
        self.offsets: dict[int, int] = {}
        self.next_page = 0
        f.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
        kids = " ".join(f"{self._page_obj(i)} 0 R" for i in range(n_pages))
        self._obj(1, b"<< /Type /Catalog /Pages 2 0 R >>")
        self._obj(2, f"<< /Type /Pages /Kids [{kids}] /Count {n_pages} >>".encode())
        self._obj(3, b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica "
                     b"/Encoding /WinAnsiEncoding >>")
        title_hex = ("feff" + title.encode("utf-16-be").hex()).encode()
        self._obj(4, b"<< /Title <" + title_hex + b"> /Producer (Wartable) /Creator "
                  b"(Wartable) >>")

    @staticmethod
    def _page_obj(i: int) -> int:
        return 5 + 3 * i

    def _obj(self, num: int, body: bytes, stream: bytes | None = None) -> None:
        self.offsets[num] = self.f.tell()
        self.f.write(f"{num} 0 obj\n".encode())
        self.f.write(body)
        if stream is not None:
            self.f.write(b"\nstream\n")
            self.f.write(stream)
            self.f.write(b"\nendstream")
        self.f.write(b"\nendobj\n")

    def add_page(self, png: _Png, texts: Sequence[TextRun], dpi: int,
                 size_mm: tuple[float, float] | None = None) -> None:
        """One page: the image fills the paper (`size_mm`, else its pixels at `dpi`)."""
        i = self.next_page
        self.next_page += 1
        pno, cno, ino = self._page_obj(i), self._page_obj(i) + 1, self._page_obj(i) + 2
        if size_mm is not None:
            w_pt, h_pt = size_mm[0] * 72.0 / MM_PER_INCH, size_mm[1] * 72.0 / MM_PER_INCH
        else:
            w_pt, h_pt = png.width * 72.0 / dpi, png.height * 72.0 / dpi
        k = w_pt / png.width  # points per pixel
        self._obj(pno, (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {w_pt:.3f} {h_pt:.3f}] "
                        f"/Resources << /XObject << /Im0 {ino} 0 R >> /Font << /F1 3 0 R >> "
                        f"/ProcSet [/PDF /Text /ImageB /ImageC /ImageI] >> "
                        f"/Contents {cno} 0 R >>").encode())
        parts = [f"q {w_pt:.3f} 0 0 {h_pt:.3f} 0 0 cm /Im0 Do Q\n".encode()]
        if texts:
            parts.append(b"BT 3 Tr\n")
            for t in texts:
                size = t.size * k
                parts.append(f"/F1 {size:.2f} Tf 1 0 0 1 {t.x * k:.2f} {h_pt - t.y * k:.2f} "
                             f"Tm ".encode() + _pdf_string(t.text) + b" Tj\n")
            parts.append(b"ET\n")
        content = zlib.compress(b"".join(parts), 6)
        self._obj(cno, f"<< /Length {len(content)} /Filter /FlateDecode >>".encode(), content)
        colours = {0: 1, 2: 3, 3: 1}[png.colour_type]
        if png.colour_type == 3:
            n = len(png.palette) // 3
            cs = f"[/Indexed /DeviceRGB {n - 1} <{png.palette.hex()}>]"
        else:
            cs = "/DeviceGray" if png.colour_type == 0 else "/DeviceRGB"
        self._obj(ino, (f"<< /Type /XObject /Subtype /Image /Width {png.width} "
                        f"/Height {png.height} /ColorSpace {cs} /BitsPerComponent {png.bits} "
                        f"/Length {len(png.idat)} /Filter /FlateDecode /DecodeParms << "
                        f"/Predictor 15 /Colors {colours} /BitsPerComponent {png.bits} "
                        f"/Columns {png.width} >> >>").encode(), png.idat)

    def close(self) -> None:
        if self.next_page != self.n:
            raise ValueError(f"wrote {self.next_page} of {self.n} pages")
        xref = self.f.tell()
        count = 5 + 3 * self.n
        self.f.write(f"xref\n0 {count}\n".encode())
        self.f.write(b"0000000000 65535 f \n")
        for num in range(1, count):
            self.f.write(f"{self.offsets[num]:010d} 00000 n \n".encode())
        self.f.write(f"trailer\n<< /Size {count} /Root 1 0 R /Info 4 0 R >>\nstartxref\n"
                     f"{xref}\n%%EOF\n".encode())


@dataclass(frozen=True)
class Output:
    """What `write_document` wrote."""

    paths: tuple[Path, ...]
    pages: int
    page_size_px: tuple[int, int]
    dpi: int
    paper: str
    bytes_per_file: tuple[int, ...]
    page_bytes: tuple[int, ...] = ()  # compressed size of each page image
    reduced_pages: int = 0  # pages over the size budget, stored in 256 colours

    @property
    def total_bytes(self) -> int:
        return sum(self.bytes_per_file)

    def describe(self) -> str:
        size = _size_text(self.total_bytes)
        what = f"{self.pages} page{'s' if self.pages != 1 else ''}"
        fmt = f"{self.paper}, {self.dpi} dpi"
        if self.reduced_pages:
            fmt += f"; {self.reduced_pages} map-heavy page{'s' if self.reduced_pages > 1 else ''}"
            fmt += " in 256 colours to stay small"
        if len(self.paths) == 1:
            return f"Wrote {what} to {self.paths[0]} ({fmt}, {size})"
        return (f"Wrote {what} as {len(self.paths)} PNG files: {self.paths[0]} … "
                f"{self.paths[-1].name} ({fmt}, {size} in all)")


def _size_text(n: int) -> str:
    if n >= 1024 * 1024:
        return f"{n / (1024 * 1024):.1f} MB"
    return f"{max(1, round(n / 1024))} kB"


def png_paths(path: Path, pages: int) -> list[Path]:
    """FILE.png for one page; FILE-1.png, FILE-2.png … for more."""
    if pages == 1:
        return [path]
    return [path.with_name(f"{path.stem}-{i}{path.suffix}") for i in range(1, pages + 1)]


def output_format(path: Path, fmt: str | None = None) -> Literal["pdf", "png"]:
    kind = (fmt or path.suffix.lstrip(".")).lower()
    if kind not in ("pdf", "png"):
        raise WartableError(f"Cannot tell the output format of {path.name!r}: name the file "
                            "with .pdf (one multi-page PDF) or .png (one PNG per page).")
    return "pdf" if kind == "pdf" else "png"


def write_document(doc: Document, path: str | os.PathLike[str], *, fmt: str | None = None,
                   report: Report | None = None, cancelled: Cancelled | None = None,
                   progress: Progress | None = None,
                   page_budget: int | None = PAGE_BUDGET) -> Output:
    """Render `doc` and write it as one PDF or as PNG pages (by suffix, or `fmt`).

    Files appear only when every page is done (temporary files, then renamed); a failure or
    `PrintCancelled` leaves no partial output.
    """
    target = Path(path)
    kind = output_format(target, fmt)
    progress = progress or Progress(report, cancelled)
    progress.check()
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        raise WartableError(f"Cannot write {target}: the folder {directory} does not exist.")
    n = doc.page_count()
    temps: list[Path] = []
    finals: list[Path] = []
    page_bytes: list[int] = []
    reduced = 0
    try:
        if kind == "pdf":
            fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
            temps.append(Path(name))
            finals.append(target)
            with os.fdopen(fd, "wb") as f:
                writer = _PdfWriter(f, n, doc.title)
                for page in render_pages(doc, progress):
                    _, png, cut = encode_page(page.image, doc.setup.dpi, page_budget)
                    page_bytes.append(len(png.idat))
                    reduced += cut
                    writer.add_page(png, page.texts, doc.setup.dpi, doc.setup.size_mm)
                writer.close()
        else:
            finals = png_paths(target, n)
            for page, final in zip(render_pages(doc, progress), finals, strict=True):
                data, _, cut = encode_page(page.image, doc.setup.dpi, page_budget)
                page_bytes.append(len(data))
                reduced += cut
                fd, name = tempfile.mkstemp(prefix=f".{final.name}.", suffix=".tmp",
                                            dir=directory)
                temps.append(Path(name))
                with os.fdopen(fd, "wb") as f:
                    f.write(data)
        progress.check()
        for done, final in zip(temps, finals, strict=True):
            os.replace(done, final)
        temps = []
    except OSError as e:
        raise WartableError(f"Cannot write {target}: {e.strerror or e}; choose another folder "
                            "or free some disk space.") from e
    finally:
        for left in temps:
            try:
                left.unlink()
            except OSError:
                pass
    sizes = tuple(p.stat().st_size for p in finals)
    return Output(tuple(finals), n, doc.setup.size_px, doc.setup.dpi, doc.setup.paper.name,
                  sizes, tuple(page_bytes), reduced)
