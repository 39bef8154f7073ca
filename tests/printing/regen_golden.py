"""Golden images of every printed sheet type, and the command that regenerates them.

    PYTHONPATH=desktop:tests python tests/printing/regen_golden.py [NAME ...]

writes tests/printing/golden/<name>.png for each case below (all when no NAME is given).
Regenerate after an intended change to how sheets look (a new layout, a counter or map
renderer change, test-game data), LOOK at the new images, and commit them with the change.
`test_print_golden.py` renders the same cases and compares them with a tolerance.

Goldens are small: pages rendered at 50 dpi (layout is in millimetres and points, so they
show the same layout as 300 dpi output), a map tile at 40 dpi and a map PNG at 60 dpi.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "golden"
if __name__ == "__main__":  # run as a script: make the packages importable
    sys.path[:0] = [str(HERE.parents[1] / "desktop"), str(HERE.parent)]

from PIL import Image  # noqa: E402

import testgame  # noqa: E402,F401  (registers the test game)
from wartable.engine.session import Session  # noqa: E402
from wartable.persistence.gamedata import load_game  # noqa: E402
from wartable.printing import mapdraw  # noqa: E402
from wartable.printing.charts import charts_document  # noqa: E402
from wartable.printing.map_export import TiledMap, parse_region  # noqa: E402
from wartable.printing.output import compact  # noqa: E402
from wartable.printing.page import Page, PageSetup, paper  # noqa: E402
from wartable.printing.position_sheet import position_document  # noqa: E402
from wartable.printing.setup_sheet import setup_sheet_document  # noqa: E402

DPI = 50


def _page(doc: object, index: int = 0) -> Image.Image:
    n = doc.page_count()  # type: ignore[attr-defined]
    page = Page(doc.setup, index + 1, n)  # type: ignore[attr-defined]
    doc.draw_page(index, page)  # type: ignore[attr-defined]
    return page.image


def setup_sheet() -> Image.Image:
    """Blue's first setup page of the meeting engagement: excerpt, table."""
    game = load_game("skirmish")
    return _page(setup_sheet_document(game, "meeting", "blue", setup=PageSetup(dpi=DPI)))


def charts() -> Image.Image:
    """The first page of the test game's charts."""
    return _page(charts_document(load_game("skirmish"), setup=PageSetup(dpi=DPI)))


def position_state() -> tuple[object, object]:
    """A fixed position (no random play, so rules changes elsewhere do not move it)."""
    game = load_game("skirmish")
    state = Session.start(game, "meeting", seed=1).state
    moves = {"blue.infantry.1": "0806", "blue.armour.1": "1109", "red.infantry.2": "1208",
             "red.armour.1": "1208", "red.artillery.1": "box:eliminated"}
    for pid, loc in moves.items():
        state = state.with_piece(replace(state.piece(pid), location=loc))
    return game, replace(state, turn=3)


def position() -> Image.Image:
    game, state = position_state()
    return _page(position_document(game, state, setup=PageSetup(dpi=DPI),  # type: ignore[arg-type]
                                   actions=12))


def map_tile() -> Image.Image:
    """Tile A2 of the test map over A4 portrait (neighbours on three sides)."""
    board = load_game("skirmish").maps["skirmish/field"]
    doc = TiledMap(board, PageSetup(paper("a4"), dpi=40), overlap_mm=10.0)
    return _page(doc, 1)


def map_png() -> Image.Image:
    """A region of the test map as exported to PNG at 60 dpi."""
    board = load_game("skirmish").maps["skirmish/field"]
    region = parse_region(board, "1208,3")
    return mapdraw.draw_map(board, region, mapdraw.mm_per_unit(board) * 60 / 25.4)


CASES: dict[str, Callable[[], Image.Image]] = {
    "setup_sheet": setup_sheet,
    "charts": charts,
    "position": position,
    "map_tile": map_tile,
    "map_png": map_png,
}


def main(names: list[str]) -> int:
    GOLDEN.mkdir(exist_ok=True)
    unknown = [n for n in names if n not in CASES]
    if unknown:
        print(f"unknown case(s) {', '.join(unknown)}; cases: {', '.join(CASES)}")
        return 2
    for name in names or list(CASES):
        path = GOLDEN / f"{name}.png"
        compact(CASES[name]()).save(path, optimize=True)
        print(f"wrote {path.relative_to(HERE.parents[1])} ({path.stat().st_size // 1024} kB)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
