"""Which games are installed. Built-in games are listed here; others (the test game)
register themselves. Nothing here reads files: a game names the package that holds
its data and the loader (persistence.gamedata) reads it."""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from wartable.engine.bots import Bot
from wartable.engine.overlays import Overlay
from wartable.engine.rules import Rules
from wartable.model.definition import GameDefinition


@dataclass(frozen=True)
class GameModule:
    id: str
    title: str
    data_package: str  # importable package holding the game's TOML data files
    map_package: str  # importable package holding the built map files
    rules: Callable[[], Rules]  # factory, so importing the registry stays cheap
    bot: Callable[[], Bot] | None = None  # factory of the game's bot, None without one
    # The module that registers the game's widgets (ui/plugin.py); "" for generic panels.
    ui_module: str = ""
    overlays: tuple[Overlay, ...] = ()  # map overlays the View menu offers
    # Game-specific command-line commands (`wartable battle-calc`): adds its subparsers,
    # each with set_defaults(game_command=handler); cli.py prints handler(args, definition).
    commands: Callable[[Any], None] | None = None
    bot_match: Callable[[], BotMatch] | None = None  # `wartable selfplay --bot`


GameCommand = Callable[[argparse.Namespace, GameDefinition], str]  # returns what to print


@dataclass(frozen=True)
class BotMatch:
    """How `wartable selfplay --bot LEVEL --vs LEVEL` plays this game's bots: play(game,
    scenario, bot_level, vs_level, games, rounds, seed, turn_budget=...) returns the report
    (results, win_rate...)."""

    play: Callable[..., dict[str, Any]]
    default_rounds: int  # where a match stops unless told (the game's last turn)
    alliances: str  # what the bot plays in turn, for the help and the report


# Built-in games land here as their issues do (DESIGN.md, the games table).
BUILTIN: tuple[str, ...] = ("wartable.games.aa_anniversary", "wartable.games.whatif1940",
                            "wartable.games.eto_bailey")

# The game the start screen offers first (the most complete one).
DEFAULT_GAME = "aa_anniversary"

_registered: dict[str, GameModule] = {}


def register(module: GameModule) -> None:
    _registered[module.id] = module


def installed() -> tuple[GameModule, ...]:
    for mod in BUILTIN:
        importlib.import_module(mod)  # each built-in module calls register() on import
    return tuple(sorted(_registered.values(), key=lambda m: m.title))


def get(game_id: str) -> GameModule:
    for m in installed():
        if m.id == game_id:
            return m
    known = ", ".join(m.id for m in installed()) or "none"
    from wartable.core.errors import WartableError

    raise WartableError(f"Unknown game {game_id!r}. Installed games: {known}.")
