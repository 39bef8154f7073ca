"""Paper, page setup and the page canvas: sizes in millimetres and points turned into
pixels at the setup's dpi, so one layout serves 300 dpi output and small test renders alike.
`Page` is a white Pillow image that records every string drawn on it (for the PDF text
layer); `wrap` and `text_width` measure text in the bundled fonts."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from wartable.core.errors import WartableError
from wartable.printing.fonts import FontT, font

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


