"""The command line: `wartable` starts the GUI; subcommands work headless (DESIGN.md).

Each subcommand prints something a person can read and exits non-zero with a
one-line reason on error.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from wartable import __version__
from wartable.core.errors import WartableError

EXIT_ERROR = 1
EXIT_USAGE = 2


def load_extra_games() -> None:
    """Import game modules named in WARTABLE_GAME_MODULES (comma-separated); each
    registers itself. Lets tests and developers add games that are not built in."""
    for name in filter(None, (os.environ.get("WARTABLE_GAME_MODULES", "")).split(",")):
        try:
            importlib.import_module(name.strip())
        except ImportError as e:
            raise WartableError(f"Cannot import game module {name!r} from "
                                f"WARTABLE_GAME_MODULES: {e}") from e


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _parse_options(items: Sequence[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for it in items:
        key, sep, raw = it.partition("=")
        if not sep or not key:
            raise WartableError(f"--option takes NAME=VALUE, got {it!r}")
        try:
            out[key] = json.loads(raw)
        except json.JSONDecodeError:
            out[key] = raw
    return out


def cmd_games(args: argparse.Namespace) -> int:
    from wartable.games import registry
    from wartable.persistence.gamedata import load_game

    mods = registry.installed()
    if not mods:
        print("No games are installed yet.")
    for m in mods:
        d = load_game(m.id).definition
        scen = ", ".join(f"{s.id} ({s.name})" for s in d.scenarios.values())
        print(f"{m.id}: {d.title} — scenarios: {scen}")
    return 0


def cmd_new(args: argparse.Namespace) -> int:
    from wartable.core.frozen import FrozenMap
    from wartable.engine.session import Session
    from wartable.persistence.gamedata import load_game
    from wartable.persistence.savefile import save_to_path

    game = load_game(args.game)
    s = Session.start(game, args.scenario, FrozenMap(_parse_options(args.option)),
                      args.seed, args.dice)
    save_to_path(s, Path(args.output), _now())
    print(f"New {game.definition.title}, scenario {args.scenario}, seed {args.seed}: "
          f"saved to {args.output}")
    return 0


def describe_session(s: Any, reveal: bool = True) -> str:
    """What a save holds. Unless `reveal`, a game with secrets shows only what both
    players may know: public events, and whose decision it is, not its prompt (which may
    name hidden units) [issue 15]."""
    from wartable.engine.loop import deciding_side

    g = s.game
    st = s.state
    pos = g.position(st)
    secret = not reveal and g.rules.hidden_information(g, st)
    lines = [
        f"{g.definition.title} — scenario {g.definition.scenarios[st.scenario].name}",
        f"{g.definition.scenarios[st.scenario].turn_word} {st.turn}, {pos.label}; "
        f"{len(s.log)} actions played",
    ]
    if st.result:
        lines.append(f"Game over: {st.result}")
    elif secret:
        who = g.definition.side(deciding_side(st)).name
        lines.append(f"Now: {who} to decide (its prompt is private; --reveal shows it)")
    else:
        p = s.prompt(deciding_side(st))
        lines.append(f"Now: {g.definition.side(p.side).name} — {p.text}")
    for side in g.definition.sides:
        ps = [p for p in st.pieces.values() if p.side == side.id]
        locs = len({p.location for p in ps})
        lines.append(f"{side.name}: {len(ps)} pieces in {locs} locations")
    events = [e for e in s.events if not secret or not e.private_to]
    if events:
        lines.append("Last events:")
        lines.extend(f"  {e.text}" for e in events[-8:])
    return "\n".join(lines)


def cmd_show(args: argparse.Namespace) -> int:
    from wartable.persistence.savefile import load_from_path

    print(describe_session(load_from_path(Path(args.file)), reveal=args.reveal))
    return 0


def _read_actions(path: Path) -> list[Any]:
    from wartable.engine.actions import Action
    from wartable.persistence import boundedread

    todo = "give a JSON list of actions (or JSON lines) in UTF-8"
    limits = boundedread.Limits(16 * 1024 * 1024, max_nodes=1_000_000, max_depth=32)
    try:  # bounded: a FIFO or /dev/zero here once hung or ate memory (issue 15)
        text = boundedread.read_text(path, limits, todo, str(path))
        try:
            data = boundedread.parse_json(text, limits, str(path), todo)
        except json.JSONDecodeError:
            try:  # JSON lines
                data = [boundedread.parse_json(line, limits, str(path), todo)
                        for line in text.splitlines() if line.strip()]
            except json.JSONDecodeError as e:
                raise WartableError(f"{path} is neither a JSON list nor JSON lines of "
                                    f"actions (line {e.lineno}: {e.msg})") from e
    except OSError as e:
        raise WartableError(f"Cannot read actions file {path}: {e.strerror or e}") from e
    if not isinstance(data, list):
        raise WartableError(f"{path} must hold a JSON list of actions")
    out = []
    for i, d in enumerate(data, 1):
        try:
            out.append(Action.from_dict(d))
        except ValueError as e:
            raise WartableError(f"{path}: action {i}: {e}") from e
    return out


def cmd_play(args: argparse.Namespace) -> int:
    from wartable.core.errors import IllegalAction
    from wartable.persistence.savefile import load_from_path, save_to_path

    s = load_from_path(Path(args.file))
    actions = _read_actions(Path(args.actions))
    for i, a in enumerate(actions, 1):
        before = len(s.events)
        try:
            s = s.submit(a)
        except IllegalAction as e:
            reason = str(e).rstrip(".")
            raise WartableError(f"action {i} of {len(actions)} ({a.verb}) is illegal: "
                                f"{reason}; nothing was saved") from e
        except Exception as e:  # game code meeting an action it never expected: one line
            raise WartableError(f"action {i} of {len(actions)} ({a.verb[:20]}) could not be "
                                f"applied ({type(e).__name__}: {str(e)[:80]}); nothing was "
                                "saved") from e
        for ev in s.events[before:]:
            print(ev.text)
    out = Path(args.output or args.file)
    save_to_path(s, out, _now())
    print(f"Applied {len(actions)} actions; saved to {out}")
    return 0


def cmd_selfplay(args: argparse.Namespace) -> int:
    from wartable.engine.randomplay import play_random
    from wartable.engine.session import Session
    from wartable.persistence.gamedata import load_game

    game = load_game(args.game)
    if args.bot:
        return _bot_selfplay(game, args)
    first = game.definition.scenarios[args.scenario].first_turn if \
        args.scenario in game.definition.scenarios else 1
    results = []
    failures = 0
    for g in range(args.games):
        seed = f"{args.seed}" if args.games == 1 else f"{args.seed}.{g}"
        s = Session.start(game, args.scenario, seed=seed)
        last = first + args.rounds - 1 if args.rounds else None
        until: Callable[[Session], bool] | None = None
        if last:
            def until(x: Session, last: int = last) -> bool:
                return x.state.turn > last
        rep = play_random(s, seed, max_actions=args.max_actions, until=until)
        st = rep.session.state
        res = {"seed": seed, "actions": rep.actions, "turn": st.turn,
               "result": st.result, "problems": list(rep.problems)}
        results.append(res)
        failures += bool(rep.problems)
        if not args.json:
            status = st.result or f"stopped at turn {st.turn}"
            print(f"seed {seed}: {rep.actions} actions, {status}"
                  + (f"; PROBLEMS: {rep.problems[0]}" if rep.problems else ""))
    if args.json:
        print(json.dumps({"game": args.game, "scenario": args.scenario, "games": len(results),
                          "failures": failures, "results": results}, indent=1))
    else:
        print(f"{len(results)} games, {failures} with invariant problems")
    return EXIT_ERROR if failures else 0


def cmd_game_command(args: argparse.Namespace) -> int:
    """A command a game registered (GameModule.commands), run with the game's definition."""
    from wartable.persistence.gamedata import load_definition

    module = args.game_module
    print(args.game_command(args, load_definition(module.data_package)))
    return 0


def _bot_selfplay(game: Any, args: argparse.Namespace) -> int:
    """Bot against bot or random play; games stopped by --rounds are scored by the victory
    conditions, then victory cities held, then income (issue 7)."""
    from wartable.games import registry

    module = registry.get(args.game)
    if module.bot_match is None:
        with_bots = sorted(m.id for m in registry.installed() if m.bot_match is not None)
        names = " and ".join([", ".join(with_bots[:-1]), *with_bots[-1:]] if len(with_bots) > 1
                             else with_bots) or "no game"
        raise WartableError(f"--bot is available for {names} only, not {args.game!r}")
    if args.scenario not in game.definition.scenarios:
        raise WartableError(f"no scenario {args.scenario!r}; this game has "
                            f"{', '.join(game.definition.scenarios)}")
    match = module.bot_match()
    rounds = args.rounds or match.default_rounds

    def turn_budget() -> Callable[[], bool]:  # a fresh time limit for each power's turn
        deadline = time.monotonic() + args.turn_seconds
        return lambda: time.monotonic() < deadline

    started = time.monotonic()
    rep = match.play(game, args.scenario, args.bot, args.vs, args.games, rounds, args.seed,
                       turn_budget=turn_budget)
    rep["seconds"] = round(time.monotonic() - started, 1)
    if args.json:
        print(json.dumps(rep, indent=1))
        return 0
    for r in rep["results"]:
        print(f"seed {r['seed']}: {args.bot} as {r['bot_alliance']}: winner {r['winner']} "
              f"(turn {r['turn']}, {r['actions']} actions)")
    print(f"{rep['games']} games of {rounds} rounds, {args.bot} vs {args.vs}: "
          f"win rate {rep['win_rate']:.2f} ({rep['seconds']} s)")
    return 0


def cmd_screenshot(args: argparse.Namespace) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from wartable.app import screenshot

    try:
        w, h = (int(x) for x in args.size.lower().split("x"))
    except ValueError as e:
        raise WartableError(f"--size takes WIDTHxHEIGHT, got {args.size!r}") from e
    screenshot(Path(args.save) if args.save else None, Path(args.output), (w, h),
               game=args.game, scenario=args.scenario)
    print(f"Wrote {args.output} ({w}x{h})")
    return 0


_LAZY_COMMANDS = {
    "map": "build, inspect, locate, render and export maps",
    "print-setup": "print a scenario's setup sheets (PDF or PNG)",
    "print-position": "print the position of a saved game",
    "print-charts": "print a game's charts and tables",
}


def full_parser() -> argparse.ArgumentParser:
    """The parser of the heavy command groups, built when one of them is used."""
    from wartable.mapbuild.commands import add_map_commands
    from wartable.persistence.gamedata import load_game
    from wartable.persistence.savefile import load_from_path
    from wartable.printing.commands import add_map_export_command, add_print_commands
    from wartable.printing.maprender import render_hex_map

    p = argparse.ArgumentParser(prog="wartable")
    sub = p.add_subparsers(dest="command")
    add_map_export_command(add_map_commands(sub, render=render_hex_map))
    add_print_commands(sub, load_game=load_game, load_save=load_from_path)
    return p


def cmd_lazy(args: argparse.Namespace) -> int:
    return run_lazy([args.lazy, *args.rest])


def run_lazy(argv: list[str]) -> int:
    p = full_parser()
    inner = p.parse_args(argv)
    if getattr(inner, "func", None) is None:
        p.parse_args([argv[0], "-h"])  # prints the group's commands and exits
    return int(inner.func(inner))


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="wartable", description="Wartable: a desktop table for "
                                "historical board wargames. With no command, starts the app.")
    p.add_argument("--version", action="version", version=f"wartable {__version__}")
    sub = p.add_subparsers(dest="command")
    sp = sub.add_parser("games", help="list the installed games and scenarios")
    sp.set_defaults(func=cmd_games)
    sp = sub.add_parser("new", help="start a game and save it")
    sp.add_argument("game")
    sp.add_argument("scenario")
    sp.add_argument("-o", "--output", required=True)
    sp.add_argument("--seed", default="0")
    sp.add_argument("--dice", choices=("digital", "physical"), default="digital")
    sp.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    sp.set_defaults(func=cmd_new)
    sp = sub.add_parser("show", help="describe a saved game (public information only)")
    sp.add_argument("file")
    sp.add_argument("--reveal", action="store_true",
                    help="also print private events and the full prompt of the side to move")
    sp.set_defaults(func=cmd_show)
    sp = sub.add_parser("play", help="apply a JSON script of actions to a saved game")
    sp.add_argument("file")
    sp.add_argument("--actions", required=True)
    sp.add_argument("-o", "--output", help="write here instead of over FILE")
    sp.set_defaults(func=cmd_play)
    sp = sub.add_parser("selfplay", help="random legal play with invariants checked")
    sp.add_argument("game")
    sp.add_argument("scenario")
    sp.add_argument("--rounds", type=int, default=0, help="stop after this many turns")
    sp.add_argument("--seed", default="1")
    sp.add_argument("--games", type=int, default=1)
    sp.add_argument("--max-actions", type=int, default=20_000)
    sp.add_argument("--json", action="store_true")
    sp.add_argument("--bot", choices=("strong", "fast", "random"), help="a bot plays one "
                    "alliance, switching sides every game (games with bots only)")
    sp.add_argument("--vs", choices=("strong", "fast", "random"), default="random",
                    help="what plays the other alliance (default random)")
    sp.add_argument("--turn-seconds", type=float, default=10.0,
                    help="the strong bot's time limit per power's turn (default 10)")
    sp.set_defaults(func=cmd_selfplay)
    # Heavy command groups (shapely, Pillow) load only when used, so `wartable`,
    # `--version` and the GUI start without them: a stub forwards to the real parser.
    for name, text in _LAZY_COMMANDS.items():
        sp = sub.add_parser(name, help=f"{text} ({'wartable ' + name} -h)", add_help=False)
        sp.add_argument("rest", nargs=argparse.REMAINDER)
        sp.set_defaults(func=cmd_lazy, lazy=name)
    _add_game_commands(sub)
    sp = sub.add_parser("screenshot", help="render the main window offscreen to a PNG")
    sp.add_argument("save", nargs="?")
    sp.add_argument("-o", "--output", required=True)
    sp.add_argument("--size", default="1400x900")
    sp.add_argument("--game", help="with no SAVE: open a new game of this id")
    sp.add_argument("--scenario")
    sp.set_defaults(func=cmd_screenshot)
    return p


def _add_game_commands(sub: Any) -> None:
    """The commands games register (`battle-calc`); each runs with its game's definition."""
    from wartable.games import registry

    for module in registry.installed():
        if module.commands is not None:
            before = set(sub.choices)
            module.commands(sub)
            for name in set(sub.choices) - before:
                sub.choices[name].set_defaults(func=cmd_game_command, game_module=module)


def file_to_open(argv: Sequence[str]) -> Path | None:
    """`wartable FILE` (how a file association starts the app) opens that save in the GUI;
    the save, or None when the one argument is a command, an option or no file."""
    if len(argv) != 1 or argv[0].startswith("-"):
        return None
    commands: set[str] = set()
    for action in build_parser()._actions:  # argparse lists subcommands only here
        if isinstance(getattr(action, "choices", None), dict):
            commands.update(action.choices)  # type: ignore[arg-type]
    path = Path(argv[0])
    return path if argv[0] not in commands and path.is_file() else None


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        load_extra_games()  # before the parser: extra games may register commands
        if argv and argv[0] in _LAZY_COMMANDS:
            # Straight to the full parser: the stub's REMAINDER never sees a leading
            # option, so `wartable print-setup -h` would be refused.
            return run_lazy(argv)
        save = file_to_open(argv)
        args = build_parser().parse_args([] if save else argv)
        if args.command is None:
            from wartable.app import run_gui

            return run_gui(save)
        return int(args.func(args))
    except WartableError as e:
        print(f"wartable: error: {str(e).splitlines()[0]}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`wartable show X | head`): not an error worth a traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
