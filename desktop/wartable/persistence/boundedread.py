"""The one bounded reader for every file the app reads (issue 15).

Saves, actions files, settings, table and map overrides, underlays, scenario and OOB files
and game data all come in here, so that no file, however odd, can hang the app, eat the
machine's memory or end in a traceback:

- regular files only: a FIFO, a device (/dev/zero) or a folder is refused at once, before
  a single byte is read (the file is opened non-blocking and checked with fstat);
- a size cap, read in bounded chunks, and a cap on what a gzip file unpacks to;
- UTF-8 text, with a clear message otherwise (UTF-16, binary, gzip where text belongs);
- a nesting cap and a node-count cap checked by a linear scan before parsing, and a cap
  on the digits of a number, so the parsers never recurse or allocate without bound.

Every error is an InputFileError: one line naming the file, the problem and what to do.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import re
import stat
import tomllib
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wartable.core.errors import WartableError

GZIP_MAGIC = b"\x1f\x8b"
BAD_SUFFIX = ".bad"

MAX_DEPTH = 100  # a real save nests about a dozen levels; Python's parsers recurse
MAX_DIGITS = 100  # no game value needs more digits; 5,000 would stall int()
_CHUNK = 1 << 20


class InputFileError(WartableError):
    """A file that cannot be read or parsed; str() is one line: file, problem, what to do."""

    def __init__(self, source: str, problem: str, todo: str) -> None:
        self.source = source
        self.problem = problem
        self.todo = todo
        super().__init__(f"{source}: {problem}; {todo}.")


@dataclass(frozen=True, slots=True)
class Limits:
    """The caps for one kind of file."""

    max_bytes: int  # on disk
    max_unpacked: int = 0  # once gunzipped; 0: gzip is not accepted
    max_nodes: int = 1_000_000  # values and containers in the parsed document
    max_depth: int = MAX_DEPTH
    max_digits: int = MAX_DIGITS


def _mib(n: int) -> str:
    if n < 1024 * 1024:
        return f"{n / 1024:.0f} KB"
    return f"{n / (1024 * 1024):.1f}".removesuffix(".0") + " MB"


def _open_checked(path: str | os.PathLike[str], max_bytes: int, todo: str, name: str) -> int:
    """An open descriptor of a regular file no larger than `max_bytes`; the caller closes
    it. FileNotFoundError propagates; everything else is an InputFileError."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)  # non-blocking: opening a FIFO must not wait for a writer
    except FileNotFoundError:
        raise
    except IsADirectoryError as e:  # Windows refuses to open folders
        raise InputFileError(name, "it is not a regular file (it is a folder)", todo) from e
    except OSError as e:
        raise InputFileError(name, f"it cannot be read ({e.strerror or e})",
                             "check that you may read it") from e
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise InputFileError(name, "it is not a regular file (it is a folder)", todo)
        if not stat.S_ISREG(st.st_mode):
            raise InputFileError(name, "it is not a regular file (a pipe or a device)", todo)
        if st.st_size > max_bytes:
            raise InputFileError(name, f"the file is {_mib(st.st_size)}, more than the "
                                 f"{_mib(max_bytes)} such a file may have", todo)
    except BaseException:
        os.close(fd)
        raise
    return fd


def check_file(path: str | os.PathLike[str], max_bytes: int, todo: str,
               source: str | None = None) -> None:
    """Refuse a path that is not a regular file of at most `max_bytes`, before another
    reader (an image decoder) opens it and blocks on a pipe or reads a device forever."""
    os.close(_open_checked(path, max_bytes, todo, source or os.fspath(path)))


def read_bytes(path: str | os.PathLike[str], limits: Limits, todo: str,
               source: str | None = None) -> bytes:
    """The file's bytes (gunzipped when it is gzip and `limits` allow it).

    Raises FileNotFoundError when the file does not exist (callers often treat that as
    "none yet"), InputFileError for everything else.
    """
    name = source or os.fspath(path)
    fd = _open_checked(path, limits.max_bytes, todo, name)
    chunks: list[bytes] = []
    size = 0
    try:
        while size <= limits.max_bytes:  # bounded even if the file grows meanwhile
            chunk = os.read(fd, min(_CHUNK, limits.max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as e:
        raise InputFileError(name, f"it cannot be read ({e.strerror or e})",
                             "check that you may read it") from e
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limits.max_bytes:
        raise InputFileError(name, f"the file grew past the {_mib(limits.max_bytes)} "
                             "such a file may have", todo)
    if data[:2] == GZIP_MAGIC and limits.max_unpacked:
        data = gunzip(data, limits.max_unpacked, name, todo)
    return data


def gunzip(data: bytes, cap: int, source: str, todo: str) -> bytes:
    """Decompress in bounded chunks so a gzip bomb stops at `cap`, not at its end."""
    out = bytearray()
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data), mode="rb") as f:
            while chunk := f.read(_CHUNK):
                out += chunk
                if len(out) > cap:
                    raise InputFileError(source, f"it unpacks to more than {_mib(cap)}, far "
                                         "more than such a file holds", todo)
    except EOFError as e:
        raise InputFileError(source, "the compressed file is truncated (it ends too early)",
                             todo) from e
    except (OSError, zlib.error) as e:  # gzip.BadGzipFile is an OSError
        raise InputFileError(source, f"the compressed data is damaged ({e})", todo) from e
    return bytes(out)


def decode_text(data: bytes, source: str, todo: str) -> str:
    """UTF-8 text (a BOM from Notepad is harmless); anything else is named."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise InputFileError(source, "the file is UTF-16 text, not UTF-8",
                             f"save it as UTF-8 in your editor, or {todo}")
    if data[:2] == GZIP_MAGIC:
        raise InputFileError(source, "the file is gzip-compressed, not text",
                             f"unpack it first, or {todo}")
    nul = data.find(b"\x00")
    if nul >= 0:  # valid UTF-8, but no text file of ours holds a NUL byte
        raise InputFileError(source, f"the file is binary data (a NUL byte at offset {nul})",
                             todo)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        what = "binary data" if b"\x00" in data[:4096] else "not UTF-8 text"
        raise InputFileError(source, f"the file is {what} (bad byte at offset {e.start})",
                             todo) from e


# A JSON string, unrolled so the regex engine runs in linear time.
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_BRACKETS = re.compile(r"[\[\]{}]")


def check_shape(text: str, limits: Limits, source: str, todo: str) -> None:
    """Refuse nesting deeper than the cap and more values than the cap, in one linear pass
    that never recurses (JSON; TOML arrays and inline tables are close enough)."""
    bare = _JSON_STRING.sub('""', text)
    nodes = bare.count(",") + bare.count("[") + bare.count("{") + bare.count("\n")
    if nodes > limits.max_nodes * 2:  # newlines count too: TOML puts a value on each
        raise InputFileError(source, f"it holds more than {limits.max_nodes:,} values, far "
                             "more than such a file holds", todo)
    depth = 0
    for m in _BRACKETS.finditer(bare):
        if m.group() in "[{":
            depth += 1
            if depth > limits.max_depth:
                raise InputFileError(source, f"it is nested more than {limits.max_depth} "
                                     "levels deep", todo)
        else:
            depth -= 1


def _number(limit: int, source: str, todo: str, kind: type) -> Any:
    def parse(s: str) -> Any:
        if len(s) > limit:
            raise InputFileError(source, f"it holds a number of {len(s):,} digits "
                                 f"(at most {limit} are allowed)", todo)
        return kind(s)
    return parse


def parse_json(text: str, limits: Limits, source: str, todo: str) -> Any:
    """Bounded json.loads; JSONDecodeError propagates for callers that explain it better."""
    check_shape(text, limits, source, todo)
    try:
        return json.loads(text, parse_int=_number(limits.max_digits, source, todo, int),
                          parse_float=_number(limits.max_digits, source, todo, float))
    except RecursionError as e:  # the scan should stop this first; belt and braces
        raise InputFileError(source, "it is nested too deeply", todo) from e


def read_json(path: str | os.PathLike[str], limits: Limits, todo: str,
              source: str | None = None) -> Any:
    """A JSON file, every cap applied; InputFileError (or FileNotFoundError) otherwise."""
    name = source or os.fspath(path)
    text = decode_text(read_bytes(path, limits, todo, name), name, todo)
    try:
        return parse_json(text, limits, name, todo)
    except json.JSONDecodeError as e:
        raise InputFileError(name, f"it is not valid JSON (line {e.lineno} column {e.colno}: "
                             f"{e.msg})", todo) from e


def parse_toml(text: str, limits: Limits, source: str, todo: str) -> dict[str, Any]:
    """Bounded tomllib.loads: nesting, values and number digits capped."""
    check_shape(text, limits, source, todo)
    try:
        return tomllib.loads(text, parse_float=_number(limits.max_digits, source, todo, float))
    except tomllib.TOMLDecodeError as e:
        raise InputFileError(source, f"it is not valid TOML: {e}", todo) from e
    except RecursionError as e:
        raise InputFileError(source, "it is nested too deeply", todo) from e
    except ValueError as e:  # an integer past Python's digit limit
        raise InputFileError(source, f"it holds an impossible value ({str(e)[:80]})",
                             todo) from e


def read_toml(path: str | os.PathLike[str], limits: Limits, todo: str,
              source: str | None = None) -> dict[str, Any]:
    name = source or os.fspath(path)
    return parse_toml(decode_text(read_bytes(path, limits, todo, name), name, todo),
                      limits, name, todo)


def read_text(path: str | os.PathLike[str], limits: Limits, todo: str,
              source: str | None = None) -> str:
    name = source or os.fspath(path)
    return decode_text(read_bytes(path, limits, todo, name), name, todo)


def set_aside(path: Path) -> str:
    """Move a user's own damaged file to `<name>.bad` (replacing an older one) so the
    defaults can be used without losing it; returns the sentence that says so."""
    bad = path.with_name(path.name + BAD_SUFFIX)
    try:
        if not path.is_file():  # a folder or a pipe: not ours to move
            return "it was left where it is"
        os.replace(path, bad)
    except OSError as e:
        return f"it could not be moved aside ({e.strerror or e}) and was left where it is"
    return f"it was moved to {bad}"
