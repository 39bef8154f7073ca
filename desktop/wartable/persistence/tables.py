"""The player's own printed values for a game's rule tables (issue 5, "Data the text does
not give"): a TOML file per game in the user's data folder holding only the `[tables.<id>]`
the player changed. An override replaces a whole table. Before use the game is loaded with
the overrides and must pass its own table checks (Rules.check_tables); a bad file is never
touched, the shipped values are used and the player is told which table and field is wrong.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wartable.core.errors import DataError
from wartable.engine.rules import Game
from wartable.model.values import thaw
from wartable.persistence import boundedread, gamedata, locations
from wartable.persistence.savefile import write_atomic

# The player's printed values: a few KB of TOML.
_LIMITS = boundedread.Limits(4 * 1024 * 1024, max_nodes=200_000, max_depth=20)
FOLDER = "tables"


def overrides_path(game_id: str) -> Path:
    return locations.data_dir() / FOLDER / f"{game_id}.toml"


@dataclass(frozen=True)
class PlayerTables:
    """What a new game runs with: the game (overrides applied when valid), the ids of the
    tables the player's file overrides, and a one-line problem when the file was refused."""

    game: Game
    overridden: tuple[str, ...]
    problem: str | None = None


def parse_overrides(text: str, source: str) -> dict[str, Any]:
    """TOML text -> {table id: table}; only `[tables.<id>]` tables are allowed."""
    try:
        data = boundedread.parse_toml(text, _LIMITS, source, "")
    except boundedread.InputFileError as e:
        raise DataError(source, "", e.problem.removeprefix("it ")) from e
    extra = sorted(set(data) - {"tables"})
    if extra:
        raise DataError(source, extra[0], "is not allowed here; the file holds only "
                        "[tables.<id>] sections")
    tables = data.get("tables", {})
    for k, v in tables.items():
        if not isinstance(v, dict):
            raise DataError(source, f"tables.{k}", "must be a table ([tables.<id>] section)")
    return dict(tables)


def check_overrides(base: Game, overrides: Mapping[str, Any], source: str) -> Game:
    """The game with `overrides`, after the game's own table checks; raises DataError."""
    try:
        game = gamedata.game_with_tables(base, overrides)
        game.rules.check_tables(game)
    except DataError as e:
        # The game's readers name its own data files; the values came from the player's.
        raise DataError(source, e.where, e.what) from e if source else e
    except (KeyError, TypeError, ValueError, IndexError) as e:
        # Table readers without a checked Reader fail with plain Python errors.
        names = ", ".join(f"tables.{k}" for k in sorted(overrides))
        raise DataError(source, names, f"could not be read ({type(e).__name__}: {e})") from e
    return game


def read_overrides(game_id: str) -> dict[str, Any]:
    """The player's file as {table id: table}; {} when there is none. Raises DataError."""
    path = overrides_path(game_id)
    try:  # bounded, regular files only (issue 15)
        text = boundedread.read_text(path, _LIMITS, "fix the file or use Game → Rule Tables")
        boundedread.check_shape(text, _LIMITS, str(path), "")
    except FileNotFoundError:
        return {}
    except boundedread.InputFileError as e:
        # Not text a player could mend in an editor (binary, UTF-16, a pipe, absurdly deep
        # or big): moved aside so the next start is clean; a TOML mistake stays to be fixed.
        raise DataError(str(path), "", f"{e.problem}; {boundedread.set_aside(path)}") from e
    return parse_overrides(text, str(path))


def player_tables(game_id: str) -> PlayerTables:
    """The installed game with the player's printed values, or with ours when the player's
    file is wrong (the file is left as it is; `problem` says what to fix)."""
    base = gamedata.load_game(game_id)
    path = overrides_path(game_id)
    try:
        overrides = read_overrides(game_id)
        game = check_overrides(base, overrides, str(path))
    except (DataError, OSError, UnicodeDecodeError) as e:
        return PlayerTables(base, (), f"Your printed values in {path} were not used: {e}. "
                            "Fix the file or use Game → Rule Tables to reset the table; "
                            "this game uses the shipped values.")
    return PlayerTables(game, tuple(sorted(overrides)), None)


def differing_tables(game: Game) -> tuple[str, ...]:
    """Table ids where `game` (e.g. a loaded save) differs from what a new game would use
    now with the player's current file: for "This game uses its own printed values for"."""
    try:
        mine = check_overrides(gamedata.load_game(game.definition.id),
                               read_overrides(game.definition.id), "")
    except (DataError, OSError, UnicodeDecodeError):
        mine = gamedata.load_game(game.definition.id)
    a, b = game.definition.tables, mine.definition.tables
    return tuple(sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k)))


# How players name the printed charts (the rulebooks' abbreviations); other tables by id.
SHORT_NAMES = {
    "combat": "CRT", "terrain_effects": "TEC", "gast": "GAST", "moscow_falls": "MFT",
    "east_front_surprise": "EFST", "japan_invades": "JIFET", "finland_joins": "FJWT",
    "flieger_landing": "FCLT",
}


def short_name(table_id: str) -> str:
    return SHORT_NAMES.get(table_id, table_id)


def save_notice(game: Game) -> str | None:
    """The status line for a loaded save whose tables differ from the player's own."""
    differ = differing_tables(game)
    if not differ:
        return None
    return ("This game uses its own printed values for: "
            + ", ".join(short_name(t) for t in differ)
            + " (kept from its save; your Rule Tables apply to new games).")


def write_overrides(game_id: str, overrides: Mapping[str, Any]) -> Path:
    """Check `overrides` against the game and write the file atomically (removed when
    empty). Raises DataError, leaving the file as it was, when a table is wrong."""
    path = overrides_path(game_id)
    plain = {k: thaw(v) for k, v in overrides.items()}
    check_overrides(gamedata.load_game(game_id), plain, str(path))
    if not plain:
        path.unlink(missing_ok=True)
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, to_toml(plain).encode("utf-8"))
    return path


# --- writing TOML (the standard library only reads it) -----------------------------------

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(k: str) -> str:
    return k if _BARE.match(k) else json.dumps(k, ensure_ascii=False)


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)  # a JSON string is a TOML basic string
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{_key(str(k))} = {_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(f"{type(v).__name__} cannot be written to TOML")


def _section(path: str, table: Mapping[str, Any], out: list[str]) -> None:
    out.append(f"[{path}]")
    subs = []
    for k, v in table.items():
        if isinstance(v, Mapping):
            subs.append((k, v))
        else:
            out.append(f"{_key(str(k))} = {_value(v)}")
    out.append("")
    for k, v in subs:
        _section(f"{path}.{_key(str(k))}", v, out)


def to_toml(overrides: Mapping[str, Any]) -> str:
    """`[tables.<id>]` sections, sub-tables as their own sections, rows one per line."""
    out = ["# Your printed values for this game's rule tables (Game → Rule Tables).",
           "# Each [tables.<id>] replaces the shipped table of that id as a whole.", ""]
    for tid, table in overrides.items():
        _section(f"tables.{_key(tid)}", table, out)
    return "\n".join(out)
