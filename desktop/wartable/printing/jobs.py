"""Printing as jobs for the worker thread and the command line.

Each function renders one document and writes it, calling ``report(percent, text)`` as it
goes and polling ``cancelled()`` between pages; a cancelled job raises `PrintCancelled` and
leaves no file. They take loaded games and states: reading game data and save files is the
caller's business (`wartable.persistence`), as printing sits beside it in the layers.

    print_setup(game, "meeting", "setup.pdf", side="Blue")
    print_charts(game, "charts.pdf")
    print_position(session.game, session.state, "position.pdf", actions=len(session.log))
    export_map(board, "map.pdf", paper_name="letter")      # from map_export

Pages are lossless; ``lossless=False`` (the default) lets a page that would exceed
`output.PAGE_BUDGET` (a map-heavy page) be stored in 256 colours to stay small enough to
e-mail.
"""

from __future__ import annotations

import os

from wartable.engine.rules import Game
from wartable.model.state import GameState
from wartable.printing.charts import charts_document
from wartable.printing.counterart import Palette
from wartable.printing.flow import Progress
from wartable.printing.map_export import export_map
from wartable.printing.output import PAGE_BUDGET, Output, write_document
from wartable.printing.page import Cancelled, PageSetup, PrintCancelled, Report, paper
from wartable.printing.position_sheet import position_document
from wartable.printing.setup_sheet import setup_sheet_document

__all__ = ["Output", "PrintCancelled", "export_map", "page_setup", "print_charts",
           "print_position", "print_setup", "suggested_name"]


def page_setup(paper_name: str = "a4", dpi: int = 300, margin_mm: float = 12.0,
               landscape: bool = False) -> PageSetup:
    return PageSetup(paper(paper_name), dpi, margin_mm, landscape)


def print_setup(game: Game, scenario: str, path: str | os.PathLike[str], *,
                side: str | None = None, paper_name: str = "a4", dpi: int = 300,
                margin_mm: float = 12.0, counter_mm: float | None = None,
                hex_mm: float | None = None, palette: Palette = "standard",
                map_excerpt: bool = True, lossless: bool = False,
                report: Report | None = None, cancelled: Cancelled | None = None) -> Output:
    """Setup sheets of a scenario: `side` (id or name, any case) or every side."""
    progress = Progress(report, cancelled)
    progress(0.0, "Collecting the setup")
    doc = setup_sheet_document(game, scenario, side, setup=page_setup(paper_name, dpi, margin_mm),
                               counter_size_mm=counter_mm, hex_mm=hex_mm, palette=palette,
                               map_excerpt=map_excerpt)
    progress(0.03, "Laying out the pages")
    doc.paginate()
    return write_document(doc, path, progress=progress.sub(0.05, 1.0),
                          page_budget=None if lossless else PAGE_BUDGET)


def print_charts(game: Game, path: str | os.PathLike[str], *, paper_name: str = "a4",
                 dpi: int = 300, margin_mm: float = 12.0, palette: Palette = "standard",
                 lossless: bool = False, report: Report | None = None,
                 cancelled: Cancelled | None = None) -> Output:
    """Every chart and table of a game."""
    progress = Progress(report, cancelled)
    progress(0.0, "Reading the game's tables")
    doc = charts_document(game, setup=page_setup(paper_name, dpi, margin_mm), palette=palette)
    progress(0.03, "Laying out the pages")
    doc.paginate()
    return write_document(doc, path, progress=progress.sub(0.05, 1.0),
                          page_budget=None if lossless else PAGE_BUDGET)


def print_position(game: Game, state: GameState, path: str | os.PathLike[str], *,
                   viewer: str | None = None, reveal: bool = False, actions: int | None = None,
                   paper_name: str = "a4", dpi: int = 300, margin_mm: float = 12.0,
                   landscape: bool = False, palette: Palette = "standard",
                   lossless: bool = False, report: Report | None = None,
                   cancelled: Cancelled | None = None) -> Output:
    """The position of a game in progress (hidden information left out unless `reveal`,
    or as `viewer` sees it)."""
    progress = Progress(report, cancelled)
    progress(0.0, "Collecting the position")
    doc = position_document(game, state, viewer=viewer, reveal=reveal, actions=actions,
                            setup=page_setup(paper_name, dpi, margin_mm, landscape),
                            palette=palette)
    progress(0.03, "Laying out the pages")
    doc.paginate()
    return write_document(doc, path, progress=progress.sub(0.05, 1.0),
                          page_budget=None if lossless else PAGE_BUDGET)


_SHEET_WORDS = {"setup": "setup", "charts": "player-aids", "position": "position",
                "map": "map"}


def _slug(text: str) -> str:
    keep = "".join(c.lower() if c.isalnum() else "-" for c in text)
    return "-".join(part for part in keep.split("-") if part)


def suggested_name(game_title: str, kind: str, *, scenario: str = "", side: str = "",
                   turn: int | None = None, fmt: str = "pdf") -> str:
    """A file name from the game and the sheet: "1940-what-if-standard-german-setup.pdf",
    "axis-allies-anniversary-edition-player-aids.pdf", "...-position-turn-3.png"."""
    parts = [game_title]
    if kind in ("setup", "position"):
        parts += [scenario, side]
    parts.append(_SHEET_WORDS.get(kind, kind))
    if kind == "position" and turn is not None:
        parts.append(f"turn {turn}")
    return "-".join(s for s in (_slug(p) for p in parts) if s) + f".{fmt.lower()}"
