"""The printing commands of `wartable`:

    wartable print-setup GAME SCENARIO [--side SIDE] -o FILE [page options] [--counter-mm MM]
                                       [--hex-mm MM] [--no-map] [--palette colourblind]
    wartable print-position SAVE -o FILE [--side SIDE | --reveal] [page options] [--landscape]
    wartable print-charts GAME -o FILE [page options]
    wartable map export MAP -o FILE [--region R] [--dpi N] [--paper a4|letter] [--hex-mm MM]
                                    [--overlap MM] [--tiled]

Page options: ``--paper a4|letter``, ``--dpi N`` (300), ``--margin MM`` (12). The output
format follows the suffix: ``.pdf`` (one multi-page PDF) or ``.png`` (FILE.png for one page,
FILE-1.png, FILE-2.png … for more; the message lists them). ``--side`` takes a side's id or
name in any case; without it every side is printed. MAP is a map id ("whatif1940/east") or
a map file.

Layering: printing sits beside `persistence`, so loading games and saves is the caller's:
`add_print_commands(subparsers, load_game=..., load_save=...)` takes the loaders, and looks
them up by name at run time when not given (as `mapbuild.commands` does for its renderer).
"""

from __future__ import annotations

import argparse
import importlib
import os
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

from wartable.core.errors import WartableError
from wartable.maps.mapfile import load_map
from wartable.maps.model import BoardMap

__all__ = ["add_map_export_arguments", "add_map_export_command", "add_print_commands",
           "find_map", "map_export_command"]

GAMEDATA = "wartable.persistence.gamedata"
SAVEFILE = "wartable.persistence.savefile"

_LOSSLESS = ("keep every page lossless (by default a map-heavy page over 1.8 MB is stored in "
             "256 colours to stay small enough to e-mail)")
_loaders: dict[str, Callable[..., Any] | None] = {"game": None, "save": None}


def _load_game(game_id: str) -> Any:
    fn = _loaders["game"] or importlib.import_module(GAMEDATA).load_game
    return fn(game_id)


def _load_save(path: str) -> Any:
    fn = _loaders["save"] or importlib.import_module(SAVEFILE).load_from_path
    return fn(Path(path))


def _page_options(p: argparse.ArgumentParser, dpi: int = 300) -> None:
    p.add_argument("-o", "--output", required=True, metavar="FILE",
                   help="FILE.pdf (one PDF) or FILE.png (one PNG per page)")
    p.add_argument("--paper", default="a4", type=str.lower, choices=("a4", "letter"),
                   help="paper size (default a4)")
    p.add_argument("--dpi", type=int, default=dpi, help=f"resolution (default {dpi})")
    p.add_argument("--margin", type=float, default=12.0, metavar="MM",
                   help="page margin in millimetres (default 12)")
    p.add_argument("--palette", choices=("standard", "colourblind"), default="standard",
                   help="counter colours")
    p.add_argument("--lossless", action="store_true", help=_LOSSLESS)


def add_print_commands(subparsers: Any, *, load_game: Callable[[str], Any] | None = None,
                       load_save: Callable[[Path], Any] | None = None) -> None:
    """Register print-setup, print-position and print-charts (each sets ``func``)."""
    if load_game is not None:
        _loaders["game"] = load_game
    if load_save is not None:
        _loaders["save"] = load_save
    sp = subparsers.add_parser("print-setup", help="print a scenario's setup sheets")
    sp.add_argument("game")
    sp.add_argument("scenario")
    sp.add_argument("--side", help="a side's id or name (any case); default: every side")
    _page_options(sp)
    sp.add_argument("--counter-mm", type=float, metavar="MM",
                    help="counter size on paper (default: as on the printed map, 12.7)")
    sp.add_argument("--hex-mm", type=float, metavar="MM",
                    help="hex size of the printed map, across the flats (default 17.6)")
    sp.add_argument("--no-map", action="store_true", help="leave out the map excerpts")
    sp.set_defaults(func=cmd_print_setup)

    sp = subparsers.add_parser("print-position", help="print the position of a saved game")
    sp.add_argument("save", metavar="SAVE")
    who = sp.add_mutually_exclusive_group()
    who.add_argument("--side", help="print what this side sees (default: public information)")
    who.add_argument("--reveal", action="store_true",
                     help="include hidden information (every unit, as it is)")
    _page_options(sp)
    sp.add_argument("--landscape", action="store_true", help="landscape pages")
    sp.set_defaults(func=cmd_print_position)

    sp = subparsers.add_parser("print-charts", help="print a game's charts and tables")
    sp.add_argument("game")
    _page_options(sp)
    sp.set_defaults(func=cmd_print_charts)


def add_map_export_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments of `wartable map export` (for the lead's `map` subcommand)."""
    p.add_argument("map", metavar="MAP", help='a map id ("whatif1940/east") or a map file')
    p.add_argument("-o", "--output", required=True, metavar="FILE",
                   help="FILE.png (one image) or FILE.pdf (tiles over pages)")
    p.add_argument("--region", metavar="R",
                   help="LABEL[,RADIUS], A:B (two locations) or X0,Y0,X1,Y1 (map units)")
    p.add_argument("--dpi", type=int, default=300, help="resolution (default 300)")
    p.add_argument("--paper", default="a4", type=str.lower, choices=("a4", "letter"),
                   help="paper of the PDF tiles (default a4)")
    p.add_argument("--hex-mm", type=float, metavar="MM",
                   help="hex size across the flats on paper (default 17.6)")
    p.add_argument("--overlap", type=float, default=10.0, metavar="MM",
                   help="overlap of neighbouring tiles (default 10)")
    p.add_argument("--margin", type=float, default=12.0, metavar="MM",
                   help="page margin of the tiles (default 12)")
    p.add_argument("--tiled", action="store_true",
                   help="with a .png name: write the tiles as FILE-1.png, FILE-2.png …")
    p.add_argument("--lossless", action="store_true", help=_LOSSLESS)


def add_map_export_command(map_subparsers: Any) -> None:
    """Register ``export`` under the `map` command's subparsers."""
    p = map_subparsers.add_parser("export", help="export a map as PNG, or as PDF tiles to "
                                  "print and assemble")
    add_map_export_arguments(p)
    p.set_defaults(func=map_export_command)


# --- handlers ------------------------------------------------------------------------------


def _report(out: Any) -> None:
    print(out.describe())
    if len(out.paths) > 1:
        names = ", ".join(p.name for p in out.paths)
        print(f"One PNG per page: {names}")


def cmd_print_setup(args: argparse.Namespace) -> int:
    from wartable.printing.jobs import print_setup
    from wartable.printing.setup_sheet import build_setup_sheet, describe_sheet

    game = _load_game(args.game)
    sheet = build_setup_sheet(game, args.scenario, args.side)
    out = print_setup(game, args.scenario, args.output, side=args.side, paper_name=args.paper,
                      dpi=args.dpi, margin_mm=args.margin, counter_mm=args.counter_mm,
                      hex_mm=args.hex_mm, palette=args.palette, map_excerpt=not args.no_map,
                      lossless=args.lossless)
    print(describe_sheet(sheet))
    _report(out)
    return 0


def cmd_print_position(args: argparse.Namespace) -> int:
    from wartable.printing.jobs import print_position

    session = _load_save(args.save)
    out = print_position(session.game, session.state, args.output, viewer=args.side,
                         reveal=args.reveal, actions=len(session.log), paper_name=args.paper,
                         dpi=args.dpi, margin_mm=args.margin, landscape=args.landscape,
                         palette=args.palette, lossless=args.lossless)
    _report(out)
    return 0


def cmd_print_charts(args: argparse.Namespace) -> int:
    from wartable.printing.jobs import print_charts

    game = _load_game(args.game)
    out = print_charts(game, args.output, paper_name=args.paper, dpi=args.dpi,
                       margin_mm=args.margin, palette=args.palette, lossless=args.lossless)
    _report(out)
    return 0


def map_export_command(args: argparse.Namespace) -> int:
    """`wartable map export MAP -o FILE [--region …] [--dpi] [--paper a4|letter] …`."""
    from wartable.printing.map_export import export_map, parse_region

    board = find_map(args.map)
    region = parse_region(board, args.region)
    out = export_map(board, args.output, region=region, dpi=args.dpi, paper_name=args.paper,
                     hex_mm=getattr(args, "hex_mm", None),
                     overlap_mm=getattr(args, "overlap", 10.0),
                     tiled=getattr(args, "tiled", False), margin_mm=getattr(args, "margin", 12.0),
                     lossless=getattr(args, "lossless", False))
    _report(out)
    return 0


# --- finding a map -------------------------------------------------------------------------


def _mapdata_dir() -> Path:
    env = os.environ.get("WARTABLE_MAPS_DIR")
    if env:
        return Path(env)
    try:
        return Path(str(resources.files("wartable.mapdata")))
    except ModuleNotFoundError:  # a source checkout run with PYTHONPATH=desktop
        return Path(__file__).resolve().parents[3] / "maps"


def find_map(ref: str) -> BoardMap:
    """A map by file path, by the id a game declares ("skirmish/field"), or by the id of a
    built map in the map data folder ("whatif1940/east")."""
    path = Path(ref)
    if path.is_file():
        return load_map(path)
    game_id, _, name = ref.partition("/")
    if name:
        for fname in (f"{name}.json.gz", f"{name}.json"):
            cand = _mapdata_dir() / game_id / fname
            if cand.is_file():
                return load_map(cand)
    from wartable.games import registry

    for mod in registry.installed():
        if mod.id != game_id:
            continue
        game = _load_game(mod.id)
        if ref in game.maps:
            return game.maps[ref]  # type: ignore[no-any-return]
    raise WartableError(f"{ref!r} is neither a map file nor a known map id; map ids look "
                        "like 'whatif1940/east' (see `wartable games`).")
