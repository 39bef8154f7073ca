"""`FlowDocument`: blocks laid out top to bottom over pages, breaking where a block does not
fit and splitting tables between rows, under a running header and footer; `render_pages`
draws any `Document` one page at a time, reporting `Progress` and honouring cancellation."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from wartable.printing.blocks import Block, Document, KeepTogether, RunningHeader
from wartable.printing.page import (
    MUTED,
    RULE,
    Cancelled,
    Page,
    PageSetup,
    PrintCancelled,
    Report,
    line_height,
)

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


