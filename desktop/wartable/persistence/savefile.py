"""Save files: a readable JSON document (optionally gzip) holding the action log and the
final position, and the loader that replays the log and checks it (DESIGN.md, Save files).

Layout of format version 1 (keys sorted, indent 1, UTF-8)::

    format          "wartable-save"
    format_version  1
    app_version     wartable.__version__ of the writer
    game_id, data_version, scenario, options, seed, dice_mode
    saved_at        ISO 8601 time given by the caller (no clock in here)
    actions         [Action.to_dict(), ...]
    state           state_to_dict(final state)
    state_hash      state_hash(final state)
    title, note     optional text
    table_overrides optional {table id: table}: the player's own printed values the game
                    was played with (persistence/tables.py); replayed with them, not with
                    the player's current file. Older saves have none.
    bots            optional {side or command id: bot level}: the seats the bot plays now
                    (issue 7), which may differ from the "table.bots" the game started with
                    (Game > Bot Plays This Power). `options` keeps the starting value, so
                    the replay matches; older saves have none (their options' seats hold).

Loading never trusts `state`: it replays `actions` from Session.start and insists the
result equals the saved position. A bad file raises SaveFileError with one line naming
the problem and what to do; the file itself is only ever read.
"""

from __future__ import annotations

import contextlib
import errno
import gzip
import hashlib
import json
import os
import re
import secrets
import stat
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from wartable import __version__
from wartable.core.errors import DataError, IllegalAction, SaveFileError, WartableError
from wartable.core.jsonkind import json_kind
from wartable.engine.actions import Action
from wartable.engine.rules import Game
from wartable.engine.session import Session
from wartable.model.serialize import canonical_json, state_from_dict, state_hash, state_to_dict
from wartable.model.values import freeze, thaw
from wartable.persistence import boundedread, gamedata, scramble

FORMAT_TAG = "wartable-save"
FORMAT_VERSION = 1
SAVE_SUFFIX = ".wartable.json"
SAVE_SUFFIX_GZ = ".wartable.json.gz"
GZIP_MAGIC = b"\x1f\x8b"

# Far above any real game (a long A&A game is a few MB of JSON); the limits exist so a
# wrong or hostile file cannot eat the machine's memory.
MAX_FILE_BYTES = 64 * 1024 * 1024
# A 255 KB gzip unpacking to 256 MB of JSON peaked at 6.7 GB while parsing (issue 15): the
# unpacked text and the number of values are capped so parsing stays within a few hundred MB.
MAX_JSON_BYTES = 64 * 1024 * 1024
LIMITS = boundedread.Limits(MAX_FILE_BYTES, MAX_JSON_BYTES, max_nodes=4_000_000)
_CHUNK = 1024 * 1024

Migration = Callable[[dict[str, Any]], dict[str, Any]]

# format_version N -> a function turning a version-N document into version N+1. The loader
# sets format_version itself after each step. A migration that changes `state` must keep
# `state_hash` consistent (see rehash_state).
MIGRATIONS: dict[int, Migration] = {}

# (game_id, data_version) -> (next data_version, function upgrading the document): for a
# game whose data changed incompatibly. The loader sets data_version after each step.
DATA_MIGRATIONS: dict[tuple[str, str], tuple[str, Migration]] = {}

# Table options that may change during play (worker SetTable): the save's `options` keep
# their starting values (the replay starts from them), the current ones go in their own field.
BOTS_OPTION = "table.bots"

_DAMAGED = "the file is damaged or was not written by Wartable"
_TAMPERED = ("the file was changed by hand or by another version: the replayed game does not "
             "match its saved position")


@dataclass(frozen=True, slots=True)
class SaveHeader:
    """What a save holds, read without loading the game (Open dialogs, `wartable show`)."""

    format_version: int
    app_version: str
    game_id: str
    data_version: str
    scenario: str
    saved_at: str
    actions: int
    turn: int | None
    title: str | None
    note: str | None


# --- writing ------------------------------------------------------------------------------

def _iso(saved_at: datetime | str) -> str:
    if isinstance(saved_at, datetime):
        return saved_at.isoformat(timespec="seconds")
    datetime.fromisoformat(saved_at)  # a caller bug should fail here, not in the file
    return saved_at


def session_to_save(session: Session, saved_at: datetime | str, *, title: str | None = None,
                    note: str | None = None) -> dict[str, Any]:
    """The save document of a session (a JSON-ready dict)."""
    final = session.state
    d = session.game.definition
    doc: dict[str, Any] = {
        "format": FORMAT_TAG,
        "format_version": FORMAT_VERSION,
        "app_version": __version__,
        "game_id": d.id,
        "data_version": d.data_version,
        "scenario": session.scenario,
        "options": _start_options(session),
        "seed": session.seed,
        "dice_mode": session.dice_mode,
        "saved_at": _iso(saved_at),
        "actions": [a.to_dict() for a in session.log],
        "state": state_to_dict(final),
        "state_hash": state_hash(final),
    }
    # Secrets unreadable at a glance; the hash is of the plain state (issue 15).
    if scramble.scramble_state(session.game, final, doc["state"]):
        doc[scramble.NOTE_KEY] = scramble.SECRETS_NOTE
    overrides = gamedata.table_overrides_of(session.game)
    if overrides:
        doc["table_overrides"] = overrides
    if session.options.get(BOTS_OPTION) or session.state.options.get(BOTS_OPTION):
        doc["bots"] = thaw(session.options.get(BOTS_OPTION) or {})
    if title is not None:
        doc["title"] = title
    if note is not None:
        doc["note"] = note
    return doc


def _start_options(session: Session) -> dict[str, Any]:
    """The options the game started with: the session's, with the bot seats as at the start
    (the game's state keeps them; they are replayed, so they must not change)."""
    opts: dict[str, Any] = thaw(session.options)
    if BOTS_OPTION in session.state.options:
        opts[BOTS_OPTION] = thaw(session.state.options[BOTS_OPTION])
    else:
        opts.pop(BOTS_OPTION, None)
    return opts


def encode_save(doc: dict[str, Any], gz: bool = False) -> bytes:
    """The bytes of a save document: sorted keys, indent 1, so a person can read and diff it."""
    data = (json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")
    # mtime=0: the same game gives the same bytes, compressed or not.
    return gzip.compress(data, compresslevel=6, mtime=0) if gz else data


def dump_save(session: Session, saved_at: datetime | str, gz: bool = False, *,
              title: str | None = None, note: str | None = None) -> bytes:
    return encode_save(session_to_save(session, saved_at, title=title, note=note), gz)


def rehash_state(doc: dict[str, Any]) -> dict[str, Any]:
    """Set doc["state_hash"] from doc["state"]; for migrations that rewrite the state."""
    doc["state_hash"] = hashlib.sha256(canonical_json(doc["state"]).encode("utf-8")).hexdigest()
    return doc


# --- reading ------------------------------------------------------------------------------

def _short(value: Any, limit: int = 40) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _fail(source: str, problem: str, todo: str) -> SaveFileError:
    # Parts may quote file content or rule text: collapse all whitespace so it stays one line.
    return SaveFileError(" ".join(f"Cannot open {source}: {problem}; {todo}.".split()))


def _mib(n: int) -> str:
    return f"{n / (1024 * 1024):.0f} MB"


def _gunzip(data: bytes, source: str) -> bytes:
    """Decompress in bounded chunks so a gzip bomb stops at the limit, not at the end."""
    try:
        return boundedread.gunzip(data, MAX_JSON_BYTES, source, _DAMAGED)
    except boundedread.InputFileError as e:
        todo = ("it was cut short while copying or saving; open an autosave instead"
                if "truncated" in e.problem else e.todo)
        raise _fail(source, e.problem, todo) from e


def _parse(data: bytes, source: str) -> dict[str, Any]:
    """bytes -> the top-level JSON object, with a precise reason when that fails."""
    if len(data) > MAX_FILE_BYTES:
        raise _fail(source, f"the file is {_mib(len(data))}, more than the "
                    f"{_mib(MAX_FILE_BYTES)} a save may have", "it is not a Wartable save")
    if not data.strip():
        raise _fail(source, "the file is empty", "open another save or an autosave")
    if data[:2] == GZIP_MAGIC:
        data = _gunzip(data, source)
        if not data.strip():
            raise _fail(source, "the file is empty once unpacked",
                        "open another save or an autosave")
    try:
        text = data.decode("utf-8-sig")  # -sig: a BOM from a hand edit in Notepad is harmless
    except UnicodeDecodeError as e:
        if data.lstrip()[:1] == b"{":  # JSON with a bad byte: damaged, not foreign
            raise _fail(source, f"the file is not UTF-8 text (bad byte at offset {e.start})",
                        _DAMAGED) from e
        raise _fail(source, "it is not a Wartable save: neither gzip nor UTF-8 JSON text "
                    f"(bad byte at offset {e.start})", "choose a .wartable.json file") from e
    try:
        doc = boundedread.parse_json(text, LIMITS, source, _DAMAGED)
    except boundedread.InputFileError as e:  # too deep, too many values, a huge number
        raise _fail(source, e.problem, e.todo) from e
    except json.JSONDecodeError as e:
        stripped = text.rstrip()
        if e.pos == 0 or (stripped and stripped[0] not in "{["):
            raise _fail(source, "it is not a Wartable save: the file does not hold JSON",
                        "choose a .wartable.json file") from e
        if e.pos >= len(stripped) or e.msg.startswith("Unterminated string"):
            raise _fail(source, "the file is truncated (the JSON ends too early)",
                        "it was cut short while copying or saving; open an autosave "
                        "instead") from e
        raise _fail(source, f"the JSON is broken at line {e.lineno} column {e.colno} "
                    f"({e.msg})", _DAMAGED) from e
    except RecursionError as e:
        raise _fail(source, "the JSON is nested too deeply", _DAMAGED) from e
    except ValueError as e:  # e.g. an integer longer than Python's digit limit
        raise _fail(source, f"the JSON holds an impossible value ({_short(str(e), 80)})",
                    _DAMAGED) from e
    if not isinstance(doc, dict):
        raise _fail(source, f"it is not a Wartable save: the JSON is {json_kind(doc, 'text')}, "
                    "not a save", "choose a .wartable.json file")
    if "format" not in doc:
        raise _fail(source, "it is not a Wartable save file (it has no 'format' tag)",
                    "choose a .wartable.json file")
    if doc["format"] != FORMAT_TAG:
        raise _fail(source, "it is not a Wartable save file (its format tag is "
                    f"{_short(doc['format'])!r}, not {FORMAT_TAG!r})",
                    "choose a .wartable.json file")
    return doc


def _upgrade_format(doc: dict[str, Any], source: str) -> dict[str, Any]:
    version = doc.get("format_version")
    if version is None:
        raise _fail(source, "the field 'format_version' is missing", _DAMAGED)
    if isinstance(version, bool) or not isinstance(version, int):
        raise _fail(source, "the field 'format_version' should be a whole number, not "
                    f"{json_kind(version, 'text')}", _DAMAGED)
    if version > FORMAT_VERSION:
        raise _fail(source, f"made by a newer Wartable (format {_short(str(version), 20)})",
                    "update Wartable to open it")
    # Older than the chain reaches: refused before walking it (-2**63 once meant a list of
    # 2**63 versions, issue 15).
    if version < FORMAT_VERSION - len(MIGRATIONS) or \
            any(n not in MIGRATIONS for n in range(version, FORMAT_VERSION)):
        raise _fail(source, f"it uses save format {_short(str(version), 20)}, which this "
                    "Wartable can no longer read",
                    "open and save it again with an older Wartable first")
    for n in range(version, FORMAT_VERSION):
        try:
            upgraded = MIGRATIONS[n](doc)
        except Exception as e:  # a migration meeting data it never expected: a bad file
            raise _fail(source, f"it could not be upgraded from save format {n} "
                        f"({type(e).__name__}: {_short(str(e), 80)})", _DAMAGED) from e
        if not isinstance(upgraded, dict):
            raise _fail(source, f"it could not be upgraded from save format {n}", _DAMAGED)
        doc = upgraded
        doc["format_version"] = n + 1
    return doc


_REQUIRED: tuple[tuple[str, tuple[type, ...], str], ...] = (
    ("app_version", (str,), "text"),
    ("game_id", (str,), "text"),
    ("data_version", (str,), "text"),
    ("scenario", (str,), "text"),
    ("options", (dict,), "an object"),
    ("seed", (int, str), "a whole number or text"),
    ("dice_mode", (str,), "text"),
    ("saved_at", (str,), "text"),
    ("actions", (list,), "a list"),
    ("state", (dict,), "an object"),
    ("state_hash", (str,), "text"),
)
_OPTIONAL: tuple[tuple[str, tuple[type, ...], str], ...] = (
    ("title", (str,), "text"),
    ("note", (str,), "text"),
    ("table_overrides", (dict,), "an object"),
    ("bots", (dict,), "an object"),
)
DICE_MODES = ("digital", "physical")


def _check_fields(doc: dict[str, Any], source: str) -> None:
    for required, fields in ((True, _REQUIRED), (False, _OPTIONAL)):
        for key, types, what in fields:
            if key not in doc:
                if required:
                    raise _fail(source, f"the field '{key}' is missing", _DAMAGED)
                continue
            v = doc[key]
            if isinstance(v, bool) or not isinstance(v, types):
                raise _fail(source, f"the field '{key}' should be {what}, not "
                            f"{json_kind(v, 'text')}", _DAMAGED)
    for seat, level in doc.get("bots", {}).items():
        if not isinstance(level, str):
            raise _fail(source, f"the bot level of {_short(seat)!r} should be text, not "
                        f"{json_kind(level, 'text')}", _DAMAGED)
    if doc["dice_mode"] not in DICE_MODES:
        raise _fail(source, f"the field 'dice_mode' is {_short(doc['dice_mode'])!r}, not "
                    "'digital' or 'physical'", _DAMAGED)


def _read_doc(data: bytes, source: str) -> dict[str, Any]:
    doc = _upgrade_format(_parse(data, source), source)
    _check_fields(doc, source)
    try:  # the plain state from here on (persistence/scramble.py)
        scramble.unscramble_state(doc["state"])
    except scramble.ScrambleError as e:
        raise _fail(source, str(e), _DAMAGED) from e
    return doc


def read_save_header(data: bytes, source_name: str) -> SaveHeader:
    """Check the file's shape and return its header, without loading or replaying the game."""
    doc = _read_doc(data, source_name)
    turn = doc["state"].get("turn")
    return SaveHeader(
        format_version=doc["format_version"], app_version=doc["app_version"],
        game_id=doc["game_id"], data_version=doc["data_version"], scenario=doc["scenario"],
        saved_at=doc["saved_at"], actions=len(doc["actions"]),
        turn=turn if isinstance(turn, int) and not isinstance(turn, bool) else None,
        title=doc.get("title"), note=doc.get("note"),
    )


def _load_game(doc: dict[str, Any], source: str, load_game: Callable[[str], Game]) -> Game:
    gid = doc["game_id"]
    try:
        return load_game(gid)
    except DataError as e:
        raise _fail(source, f"the installed game {_short(gid)!r} failed to load ({e})",
                    "reinstall Wartable") from e
    except (WartableError, LookupError) as e:
        raise _fail(source, f"this save is for game {_short(gid)!r}, which is not installed",
                    "open it with a Wartable that includes that game") from e


def _upgrade_data(doc: dict[str, Any], game: Game, source: str) -> dict[str, Any]:
    installed = game.definition.data_version
    gid = doc["game_id"]
    seen: set[str] = set()
    while doc["data_version"] != installed:
        have = doc["data_version"]
        step = DATA_MIGRATIONS.get((gid, have))
        if step is None or have in seen:
            raise _fail(source, f"it uses version {_short(have)!r} of the data of "
                        f"{game.definition.title}, but the installed game has version "
                        f"{installed!r} and no upgrade from it exists",
                        f"open it with the Wartable that saved it ({_short(doc['app_version'])})")
        seen.add(have)
        to, fn = step
        try:
            upgraded = fn(doc)
        except Exception as e:  # as in _upgrade_format: unexpected data means a bad file
            raise _fail(source, f"it could not be upgraded from data version {have!r} "
                        f"({type(e).__name__}: {_short(str(e), 80)})", _DAMAGED) from e
        if not isinstance(upgraded, dict):
            raise _fail(source, f"it could not be upgraded from data version {have!r}",
                        _DAMAGED)
        doc = upgraded
        doc["data_version"] = to
        _check_fields(doc, source)
    return doc


@dataclass(frozen=True, slots=True)
class OpenedSave:
    """A save opened at its saved position, its action log not yet replayed (issue 20: a
    long game shows at once; `check_replay` then proves the log leads to that position)."""

    session: Session  # the saved state, the log, no events or undo history yet
    source: str
    start_options: Any  # FrozenMap: the options the game started with (the replay's)
    state_json: str  # canonical JSON of the saved state, for the comparison
    state_hash: str

    @property
    def actions(self) -> int:
        return len(self.session.log)


def open_save(data: bytes, source_name: str,
              load_game: Callable[[str], Game] = gamedata.load_game) -> OpenedSave:
    """Parse, upgrade and check a save's shape, and build the session at its saved position
    without replaying anything (the state and its hash are checked against each other).
    Raises SaveFileError (one line, naming the problem and what to do) for any bad file."""
    source = source_name
    # Our own parsed copy: migrations may change it freely.
    doc = _read_doc(data, source)
    game = _load_game(doc, source, load_game)
    doc = _upgrade_data(doc, game, source)
    if doc.get("table_overrides"):
        try:  # the save's own printed values, so the replay matches [issue 5]
            game = gamedata.game_with_tables(game, doc["table_overrides"])
        except (DataError, TypeError, ValueError) as e:
            raise _fail(source, f"its own rule tables are not usable ({_short(str(e), 120)})",
                        _DAMAGED) from e

    raw = doc["actions"]
    n = len(raw)
    actions: list[Action] = []
    for i, a in enumerate(raw, 1):
        try:
            actions.append(Action.from_dict(a))
        except (ValueError, TypeError) as e:
            raise _fail(source, f"action {i} of {n} is malformed ({_short(str(e), 80)})",
                        _DAMAGED) from e

    state_json = canonical_json(doc["state"])
    digest = hashlib.sha256(state_json.encode("utf-8")).hexdigest()
    if digest != doc["state_hash"]:  # no replay can match a position that fails its hash
        raise _fail(source, _TAMPERED, "open an earlier save or an autosave")
    try:
        state = state_from_dict(doc["state"])
        start_options = game.definition.default_options().update(freeze(doc["options"]))
    except Exception as e:  # as for the replay below: odd data must not crash the app
        raise _fail(source, f"its saved position could not be read ({_short(str(e), 120)})",
                    _DAMAGED) from e
    options = start_options
    if "bots" in doc:  # the seats the bot played when saved, not at the start (issue 7)
        options = options.update({BOTS_OPTION: freeze(doc["bots"])})
    session = Session(game, doc["scenario"], options, doc["seed"], doc["dice_mode"], state,
                      log=tuple(actions))
    return OpenedSave(session, source, start_options, state_json, digest)


def check_replay(opened: OpenedSave,
                 progress: Callable[[int, int], None] | None = None) -> Session:
    """Replay the action log from the start and insist it ends at the saved position.

    Returns the replayed session (the same position, with the game's events and undo
    history); `progress(done, total)` is told how far it is, about fifty times for a long
    log. Raises SaveFileError when an action is illegal or the result differs.
    """
    source = opened.source
    quick = opened.session
    actions = quick.log
    n = len(actions)
    # Game code is written for legal play, not for hostile files: whatever it raises on odd
    # data becomes a SaveFileError, since opening a file must never crash the app.
    try:
        session = Session.start(quick.game, quick.scenario, opened.start_options, quick.seed,
                                quick.dice_mode)
    except Exception as e:
        raise _fail(source, f"the game could not be set up ({_short(str(e), 120)})",
                    _DAMAGED) from e
    every = max(1, n // 50)
    for i, action in enumerate(actions, 1):
        if progress is not None and (i % every == 0 or i == n):
            progress(i, n)
        verb = _short(action.verb, 20)
        try:
            session = session.submit(action)
        except IllegalAction as e:
            raise _fail(source, f"action {i} of {n} ({verb}) is illegal: {_short(str(e), 160)}",
                        "the file was changed by hand or by an incompatible version") from e
        except Exception as e:
            raise _fail(source, f"action {i} of {n} ({verb}) could not be replayed "
                        f"({type(e).__name__}: {_short(str(e), 80)})", _DAMAGED) from e

    final = session.state
    if state_hash(final) != opened.state_hash or \
            canonical_json(state_to_dict(final)) != opened.state_json:
        raise _fail(source, _TAMPERED, "open an earlier save or an autosave")
    return replace(session, options=quick.options)


def load_save(data: bytes, source_name: str,
              load_game: Callable[[str], Game] = gamedata.load_game,
              progress: Callable[[int, int], None] | None = None) -> Session:
    """Open a save: parse, upgrade, replay the action log and check it against the position
    (`open_save`, then `check_replay`).

    `progress(done, total)` is told how far the replay is, about fifty times for a long log.
    Raises SaveFileError (one line, naming the problem and what to do) for any bad file.
    """
    return check_replay(open_save(data, source_name, load_game), progress)


# --- files --------------------------------------------------------------------------------

def _fsync_dir(directory: Path) -> None:
    """Make the rename itself durable (POSIX); Windows has no directory handles for this."""
    if sys.platform == "win32":
        return
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # some file systems refuse fsync on directories; the data is synced
        pass
    finally:
        os.close(fd)


_TEMP_HEX = 6
_TEMP_RE = re.compile(r"^\.(?P<name>.+)\.[0-9a-f]{12}\.tmp$")


def remove_stale_temps(directory: Path, name: str | None = None,
                       older_than: float = 0.0) -> int:
    """Delete temp files write_atomic left behind when it was killed mid-write (issue 15:
    they piled up forever): those for `name` only, or every one in a folder Wartable owns
    (None), last written at least `older_than` seconds ago. Returns how many went."""
    removed = 0
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return 0
    now = time.time()
    for entry in entries:
        m = _TEMP_RE.match(entry.name)
        if m is None or (name is not None and m.group("name") != name):
            continue
        try:
            if not entry.is_file(follow_symlinks=False) or \
                    now - entry.stat(follow_symlinks=False).st_mtime < older_than:
                continue
            os.unlink(entry.path)
            removed += 1
        except OSError:
            continue  # held open elsewhere (Windows) or already gone: next time
    return removed


def _check_target(target: Path) -> SaveFileError | None:
    """Why a save must not go to `target` (issue 15: a read-only save was silently
    replaced, a FIFO turned into a file), or None."""
    try:
        st = os.stat(target)
    except FileNotFoundError:
        return None
    except OSError as e:
        return SaveFileError(f"Cannot save {target.name}: {e.strerror or e}; choose another "
                             "name or folder. The game is still open.")
    if not stat.S_ISREG(st.st_mode):
        return SaveFileError(f"Cannot save {target.name}: it is not a regular file (a pipe, "
                             "device or folder); choose another name. The game is still open.")
    if not st.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or \
            not os.access(target, os.W_OK):
        return SaveFileError(f"Cannot save {target.name}: the file is read-only; save under "
                             "another name, or make it writable first. The game is still "
                             "open.")
    return None


def write_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Replace `path` with `data` all at once: readers see the old file or the new, never half.

    Temp file in the same folder (rename is atomic only within one file system), write,
    flush, fsync, os.replace, fsync the folder. On failure the old file is untouched and the
    temp file removed; the OSError propagates.
    """
    target = Path(path)
    if target.is_symlink():
        target = Path(os.path.realpath(target))  # replace the file, keep the user's link
    with contextlib.suppress(FileNotFoundError):
        if not stat.S_ISREG(os.stat(target).st_mode):  # never replace a pipe or a device
            raise OSError(errno.EINVAL, "it is not a regular file (a pipe, device or folder)")
    directory = target.parent
    remove_stale_temps(directory, target.name)  # left by a save that was killed
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    while True:
        tmp = directory / f".{target.name}.{secrets.token_hex(_TEMP_HEX)}.tmp"
        try:
            fd = os.open(tmp, flags, 0o666)  # 0o666 & umask: the mode a normal write gets
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        with contextlib.suppress(OSError):  # keep an existing file's permissions
            os.chmod(tmp, stat.S_IMODE(os.stat(target).st_mode))
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(directory)


def save_to_path(session: Session, path: str | os.PathLike[str], saved_at: datetime | str, *,
                 title: str | None = None, note: str | None = None) -> Path:
    """Write the session's save atomically; gzip when the name ends in .gz."""
    target = Path(path)
    refused = _check_target(Path(os.path.realpath(target)))
    if refused is not None:
        raise refused
    data = dump_save(session, saved_at, gz=target.name.endswith(".gz"), title=title, note=note)
    try:
        write_atomic(target, data)
    except OSError as e:
        reason = e.strerror or str(e)
        raise SaveFileError(f"Cannot save {target.name}: {reason}; choose another folder or "
                            "free some disk space. The game is still open.") from e
    return target


def load_from_path(path: str | os.PathLike[str],
                   load_game: Callable[[str], Game] = gamedata.load_game,
                   progress: Callable[[int, int], None] | None = None) -> Session:
    """Read and open a save file, its log replayed and checked (`load_save`)."""
    data, source = _read_path(path)
    return load_save(data, source, load_game, progress)


def open_from_path(path: str | os.PathLike[str],
                   load_game: Callable[[str], Game] = gamedata.load_game) -> OpenedSave:
    """Read a save file and open it at its saved position (`open_save`); the caller runs
    `check_replay` after showing it."""
    data, source = _read_path(path)
    return open_save(data, source, load_game)


def _read_path(path: str | os.PathLike[str]) -> tuple[bytes, str]:
    """A save file's bytes and the name to report it by (read only, size-checked before
    reading)."""
    p = Path(path)
    source = p.name or str(p)
    try:  # regular files only, size-capped, never blocking on a pipe (issue 15)
        data = boundedread.read_bytes(p, replace(LIMITS, max_unpacked=0),
                                      "choose a .wartable.json file", source)
    except boundedread.InputFileError as e:
        raise _fail(source, e.problem, e.todo) from e
    except OSError as e:
        raise _fail(source, f"the file could not be read ({e.strerror or e})",
                    "check that it exists and that you may read it") from e
    return data, source
