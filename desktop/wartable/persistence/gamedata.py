"""Load a game's data files (TOML) and maps into a playable `Game`.

Engine and games never read files (DESIGN.md); this is where their data comes in.
Data files are merged: list-valued keys (units, scenarios, sides...) concatenate,
tables merge, and a key defined twice is an error naming both files.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from wartable.core.errors import DataError, WartableError
from wartable.core.frozen import FrozenMap
from wartable.engine.rules import Game
from wartable.games import registry
from wartable.maps.files import package_dir
from wartable.maps.mapfile import MAX_MAP_BYTES, load_map
from wartable.maps.model import BoardMap, HexMap
from wartable.maps.overrides import MapOverrides, apply_overrides, load_overrides
from wartable.model.definition import GameDefinition
from wartable.model.values import freeze, thaw
from wartable.persistence import boundedread, locations

_cache: dict[str, Game] = {}
# Game data: a game's TOML files are a few hundred KB; built maps a few MB each.
DATA_LIMITS = boundedread.Limits(16 * 1024 * 1024, max_nodes=2_000_000, max_depth=40)
MAP_LIMITS = boundedread.Limits(MAX_MAP_BYTES)  # load_map unpacks, capped the same
_definitions: dict[str, GameDefinition] = {}


def _walk(root: Traversable, prefix: str = "") -> list[tuple[str, Traversable]]:
    out: list[tuple[str, Traversable]] = []
    for entry in sorted(root.iterdir(), key=lambda e: e.name):
        name = f"{prefix}{entry.name}"
        if entry.is_dir():
            out.extend(_walk(entry, name + "/"))
        elif entry.name.endswith(".toml"):
            out.append((name, entry))
    return out


def merge_data_files(files: list[tuple[str, str]],
                     sources: dict[str, str] | None = None) -> dict[str, Any]:
    """Merge (name, TOML text) pairs into one dict; errors name the file. `sources` receives
    the file of each top-level key and each key of a top-level table ("tables.crt")."""
    merged: dict[str, Any] = {}
    origin: dict[str, str] = {}
    found = sources if sources is not None else {}
    for name, text in files:
        try:  # bounded: nesting, values and number digits capped (issue 15)
            data = boundedread.parse_toml(text, DATA_LIMITS, name, "")
        except boundedread.InputFileError as e:
            raise DataError(name, "", e.problem.removeprefix("it ")) from e
        for key, value in data.items():
            found.setdefault(key, name)
            if isinstance(value, dict):
                for sub in value:
                    found.setdefault(f"{key}.{sub}", name)
            if key not in merged:
                merged[key], origin[key] = value, name
            elif isinstance(value, list) and isinstance(merged[key], list):
                merged[key] = merged[key] + value
            elif isinstance(value, dict) and isinstance(merged[key], dict):
                clash = set(value) & set(merged[key])
                if clash:
                    raise DataError(name, f"{key}.{sorted(clash)[0]}",
                                    f"is also defined in {origin[key]}")
                merged[key] = {**merged[key], **value}
            else:
                raise DataError(name, key, f"is also defined in {origin[key]}")
    return merged


def _data_text(entry: Traversable, name: str) -> str:
    """A data file's text, size-capped and checked to be UTF-8 (a one-line DataError)."""
    todo = "reinstall Wartable"
    try:
        if isinstance(entry, Path):  # the usual case: regular files only, bounded
            data = boundedread.read_bytes(entry, DATA_LIMITS, todo, name)
        else:  # inside a zip (a frozen app): already in memory
            data = entry.read_bytes()
        return boundedread.decode_text(data, name, todo)
    except boundedread.InputFileError as e:
        raise DataError(name, "", e.problem.removeprefix("it ")) from e
    except OSError as e:
        raise DataError(name, "", f"cannot be read ({e.strerror or e})") from e


def data_files(data_package: str) -> list[tuple[str, str]]:
    """The (file name, TOML text) pairs of a game's data package, in a stable order."""
    root = resources.files(data_package)
    return [(f"{data_package}/{n}", _data_text(t, f"{data_package}/{n}"))
            for n, t in _walk(root)]


def load_definition(data_package: str) -> GameDefinition:
    files = data_files(data_package)
    if not files:
        raise DataError(data_package, "", "holds no .toml data files")
    return definition_from_files(files, data_package)


def definition_from_files(files: list[tuple[str, str]], source: str) -> GameDefinition:
    """A game's definition from its (file name, TOML text) pairs, remembering which file
    defined what (GameDefinition.source_of) for the checks made after merging."""
    sources: dict[str, str] = {}
    merged = merge_data_files(files, sources)
    definition = GameDefinition.from_dict(merged, source, sources)
    return dataclasses.replace(definition, sources=FrozenMap(sources))


def game_definition(game_id: str) -> GameDefinition:
    """The installed game's data alone, without its maps: what the start screen shows
    (sides, scenarios, options, players). The maps load with the game, on the worker."""
    if game_id in _cache:
        return _cache[game_id].definition
    got = _definitions.get(game_id)
    if got is None:
        got = _definitions[game_id] = load_definition(registry.get(game_id).data_package)
    return got


def load_game(game_id: str) -> Game:
    """The installed game with its data and maps, loaded once per process."""
    if game_id in _cache:
        return _cache[game_id]
    mod = registry.get(game_id)
    definition = load_definition(mod.data_package)
    maps = {}
    # Installed: the package's files; a source checkout: the top-level maps/ folder.
    root: Traversable | Path = package_dir(mod.map_package) or resources.files(mod.map_package)
    for map_id in definition.maps:
        name = map_id.split("/", 1)[-1]
        for fname in (f"{name}.json.gz", f"{name}.json"):
            f = root / fname
            if f.is_file():
                board = load_map(_map_bytes(f, f"{mod.map_package}/{fname}"),
                                 f"{mod.map_package}/{fname}")
                break
        else:
            raise DataError(mod.map_package, map_id, f"map file {name}.json(.gz) is missing")
        maps[map_id] = with_corrections(board, root / f"{name}.overrides.json")
    game = Game(definition, mod.rules(), FrozenMap(maps))
    game.rules.check_definition(game)  # every step kind, condition... has its handler
    game.rules.check_tables(game)  # parses the tables: the derived data is built now, once
    _cache[game_id] = game
    return game


def _map_bytes(entry: Traversable | Path, name: str) -> bytes:
    """A built map file's bytes: regular files only; load_map caps the size and unpacks."""
    if not isinstance(entry, Path):
        return entry.read_bytes()
    try:
        return boundedread.read_bytes(entry, MAP_LIMITS, "reinstall Wartable", name)
    except boundedread.InputFileError as e:
        raise DataError(name, "", e.problem.removeprefix("it ")) from e
    except OSError as e:
        raise DataError(name, "", f"cannot be read ({e.strerror or e})") from e


def game_with_tables(game: Game, overrides: Mapping[str, Any]) -> Game:
    """`game` with whole tables replaced by `overrides` (table id -> table): the player's
    own printed values (persistence/tables.py). A distinct Game, definition and rules, so
    the games' per-Game caches never mix the two; no overrides: `game` itself."""
    if not overrides:
        return game
    unknown = sorted(set(overrides) - set(game.definition.tables))
    if unknown:
        raise DataError(game.definition.id, f"tables.{unknown[0]}",
                        "is not a table of this game")
    key = json.dumps(thaw(freeze(dict(overrides))), sort_keys=True)
    variants = game.derived(_table_variants)
    hit = variants.get(key)
    if hit is not None:
        return hit
    tables = FrozenMap({**game.definition.tables,
                        **{k: freeze(dict(v)) for k, v in overrides.items()}})
    definition = dataclasses.replace(game.definition, tables=tables)
    made = Game(definition, registry.get(definition.id).rules(), game.maps)
    if len(variants) > 4:  # a player keeps one set of values; saves may bring others
        variants.clear()
    variants[key] = made
    return made


def _table_variants(game: Game) -> dict[str, Game]:
    """The overrides as JSON -> the game with them, held with the base game: one Game per set
    of values, so its board and parsed tables are built once."""
    return {}


def table_overrides_of(game: Game) -> dict[str, Any]:
    """The tables of `game` that differ from the installed game's (plain dicts): what a save
    records so it replays with the same values."""
    if _cache.get(game.definition.id) is game:
        return {}
    try:
        base = load_game(game.definition.id)
    except (WartableError, LookupError):  # a game built in memory (tests): nothing to record
        return {}
    shipped = base.definition.tables
    return {k: thaw(v) for k, v in sorted(game.definition.tables.items())
            if shipped.get(k) is not v and shipped.get(k) != v}


def user_corrections_path(map_id: str) -> Path:
    """Where the map editor keeps this player's corrections to a map."""
    return locations.data_dir() / "map-overrides" / f"{map_id}.overrides.json"


def with_corrections(board: BoardMap, shipped: Traversable | None = None) -> BoardMap:
    """The built map with corrections applied: those shipped beside it, then the user's
    own (DESIGN.md, Maps: overrides survive rebuilds because they are applied on load)."""
    if not isinstance(board, HexMap):
        return board
    if shipped is not None and shipped.is_file():
        board = apply_overrides(board, load_overrides(shipped.read_bytes(), str(shipped)),
                                str(shipped))
    mine = user_corrections_path(board.id)
    try:
        return apply_overrides(board, read_corrections(mine), str(mine))
    except FileNotFoundError:
        return board
    except (DataError, boundedread.InputFileError) as e:
        # The player's own file, not ours: "reinstall Wartable" cannot mend it, and it
        # must not block every game on this map (issue 15). Moved aside, the map is used
        # without it, and the player is told once.
        moved = boundedread.set_aside(mine)
        _notices[board.id] = (f"Your map corrections for {board.title} were not used: "
                              f"{e}; {moved}; the map is used without them.")
        return board


# map id -> what happened to the player's damaged corrections file, told once (take_notices)
_notices: dict[str, str] = {}


def take_notices() -> list[str]:
    """Notices about the player's own files set aside while loading games, each told once."""
    out = list(_notices.values())
    _notices.clear()
    return out


CORRECTIONS_LIMITS = boundedread.Limits(16 * 1024 * 1024, max_nodes=1_000_000, max_depth=20)


def read_corrections(path: Path) -> MapOverrides:
    """The player's corrections file, bounded; FileNotFoundError when there is none."""
    data = boundedread.read_bytes(path, CORRECTIONS_LIMITS, "fix it or delete it",
                                  str(path))
    try:  # nesting and numbers capped before load_overrides parses it
        boundedread.parse_json(boundedread.decode_text(data, str(path), "fix it or delete it"),
                               CORRECTIONS_LIMITS, str(path), "fix it or delete it")
    except json.JSONDecodeError:
        pass  # load_overrides names the broken spot
    return load_overrides(data, str(path))


def forget(game_id: str) -> None:
    """Drop a loaded game so the next load_game reads its data and maps again."""
    _cache.pop(game_id, None)
    _definitions.pop(game_id, None)


HOW_TO_PLAY = "howto.md"  # beside a game's TOML files: a short page for Help → How to Play


def how_to_play(game_id: str) -> str:
    """The game's how-to-play page (Markdown), or "" when its data has none."""
    f = resources.files(registry.get(game_id).data_package) / HOW_TO_PLAY
    return f.read_text(encoding="utf-8") if f.is_file() else ""
