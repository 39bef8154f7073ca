"""The pieces of a flowing document: `Block` (measure, draw, split) and the simple blocks:
spacers, page breaks, running headers, headings, paragraphs, pictures, kept-together groups.
`Document` is what `output.write_document` prints."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from PIL import Image

from wartable.printing.page import (
    INK,
    MUTED,
    PROVISIONAL,
    RULE,
    Page,
    PageSetup,
    line_height,
    text_width,
    wrap,
)

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


