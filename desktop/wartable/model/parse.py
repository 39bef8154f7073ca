"""The one checked reader for parsed data files: every failure names the field.

Game data, die-roll procedures and combat ladders (TOML) and map files (JSON) are all read
through `Reader`. Each accessor reads one field of one table; when the field is missing or
of the wrong kind it raises the reader's error class (DataError unless told otherwise: the
map loader passes MapError) with

- where: the table's location joined with the field, ``scenarios[0].last_turn``,
  ``hex 0101.terrain``, ``modifiers[finland].value``;
- what: what was expected against what was found, ``must be a whole number, not text ('x')``.

A required accessor (`text`, `integer`, `number`, `flag`, `choice`, `seq`, `table`, `sub`,
`items`, `point`) says "is missing" for an absent field; its `opt_*` partner returns a default
instead, and treats a JSON null like an absent field (TOML has no null). `known(*keys)` makes
unknown fields errors, so a misspelt key fails on load instead of being silently ignored.
"""

from __future__ import annotations

import difflib
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any, Literal, TypeAlias, TypeVar, overload

from wartable.core.errors import DataError
from wartable.core.jsonkind import json_kind

ItemKind: TypeAlias = Literal["text", "integer", "number"]
_S = TypeVar("_S", bound=str)
_SHOWN_MAX = 40


def is_number(v: Any) -> bool:
    """A finite int or float, never a bool (TOML and JSON booleans are not numbers)."""
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def shown(v: Any) -> str:
    """A short form of a value for messages: 'x' for text, JSON for the rest (true, [1, 2])."""
    if isinstance(v, str):
        text = repr(v)
    else:
        try:
            text = json.dumps(v, ensure_ascii=False, default=str)
        except (TypeError, ValueError):
            text = repr(v)
    return text if len(text) <= _SHOWN_MAX else text[: _SHOWN_MAX - 3] + "..."


def found(v: Any, table_word: str = "a table") -> str:
    """What was found, for "must be X, not <found>": "text ('x')", "a list ([1])", "null"."""
    if v is None:
        return "null"
    if isinstance(v, Mapping):
        kind = table_word
    elif isinstance(v, list | tuple):  # frozen data holds tuples where the file had lists
        kind = "a list"
    else:
        kind = json_kind(v, "text")
    return f"{kind} ({shown(v)})"


def one_of(options: Sequence[str]) -> str:
    """ "'a'", "'a' or 'b'", "one of 'a', 'b', 'c'"."""
    quoted = [repr(o) for o in options]
    if len(quoted) <= 2:
        return " or ".join(quoted)
    return "one of " + ", ".join(quoted)


class Reader:
    """Reads the fields of one table of a data file, raising `error(source, where, what)`.

    `where` is the table's location ("" for the top level); `table_word` is what messages call
    a table ("a table" in TOML data, "an object" in JSON files).
    """

    __slots__ = ("data", "error", "source", "table_word", "where")

    def __init__(
        self,
        data: Any,
        source: str,
        where: str = "",
        *,
        error: type[DataError] = DataError,
        table_word: str = "a table",
    ) -> None:
        if not isinstance(data, Mapping):
            raise error(source, where, f"must be {table_word}, not {found(data, table_word)}")
        self.data: Mapping[str, Any] = data
        self.source = source
        self.where = where
        self.error = error
        self.table_word = table_word

    # --- locations and errors ----------------------------------------------------------------

    def loc(self, key: str) -> str:
        """The location of a field: "where.key", or "where[0]" for a list index."""
        if not self.where:
            return key
        if not key:
            return self.where
        return self.where + key if key.startswith("[") else f"{self.where}.{key}"

    def fail(self, key: str, what: str) -> DataError:
        """The error to raise about field `key` (it may carry an index: "features[2]")."""
        return self.error(self.source, self.loc(key), what)

    def fail_here(self, what: str) -> DataError:
        """The error to raise about this table as a whole."""
        return self.error(self.source, self.where, what)

    def at(self, where: str) -> Reader:
        """The same table, its errors reported at `where` (e.g. named by id once it is read)."""
        return self._reader(where, self.data)

    def has(self, key: str) -> bool:
        """Whether the field is given (a null counts as not given)."""
        return self.data.get(key) is not None

    def known(self, *keys: str) -> None:
        """Fail on the first field that is not one of `keys`."""
        for k in self.data:
            if k not in keys:
                close = difflib.get_close_matches(str(k), keys, n=1, cutoff=0.75)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise self.fail(str(k), f"unknown field{hint}; expected one of {', '.join(keys)}")

    # --- text, numbers, flags ----------------------------------------------------------------

    def text(self, key: str, *, nonempty: bool = False) -> str:
        return self._text(key, self._required(key), nonempty)

    @overload
    def opt_text(self, key: str, default: str, *, nonempty: bool = False) -> str: ...
    @overload
    def opt_text(self, key: str, default: None = None, *, nonempty: bool = False) -> str | None: ...
    def opt_text(
        self, key: str, default: str | None = None, *, nonempty: bool = False
    ) -> str | None:
        v = self.data.get(key)
        return default if v is None else self._text(key, v, nonempty)

    def integer(self, key: str, *, minimum: int | None = None) -> int:
        """A whole number (never a bool), at least `minimum` if given."""
        return self._integer(key, self._required(key), minimum)

    @overload
    def opt_integer(self, key: str, default: int, *, minimum: int | None = None) -> int: ...
    @overload
    def opt_integer(
        self, key: str, default: None = None, *, minimum: int | None = None
    ) -> int | None: ...
    def opt_integer(
        self, key: str, default: int | None = None, *, minimum: int | None = None
    ) -> int | None:
        v = self.data.get(key)
        return default if v is None else self._integer(key, v, minimum)

    def number(self, key: str) -> float:
        """A finite number (int or float, never a bool), as a float."""
        return self._number(key, self._required(key))

    @overload
    def opt_number(self, key: str, default: float) -> float: ...
    @overload
    def opt_number(self, key: str, default: None = None) -> float | None: ...
    def opt_number(self, key: str, default: float | None = None) -> float | None:
        v = self.data.get(key)
        return default if v is None else self._number(key, v)

    def flag(self, key: str) -> bool:
        return self._flag(key, self._required(key))

    def opt_flag(self, key: str, default: bool = False) -> bool:
        v = self.data.get(key)
        return default if v is None else self._flag(key, v)

    def choice(self, key: str, options: Sequence[_S]) -> _S:
        """Text that must be one of `options` (typed as they are: Literal options stay so)."""
        return self._choice(key, self._required(key), options)

    def opt_choice(self, key: str, options: Sequence[_S], default: _S) -> _S:
        v = self.data.get(key)
        return default if v is None else self._choice(key, v, options)

    def point(self, key: str) -> tuple[float, float]:
        """A point written [x, y] with finite numbers."""
        return self._point(key, self._required(key))

    def opt_point(self, key: str) -> tuple[float, float] | None:
        v = self.data.get(key)
        return None if v is None else self._point(key, v)

    # --- lists and tables --------------------------------------------------------------------

    def seq(self, key: str, *, nonempty: bool = False, of: ItemKind | None = None) -> Sequence[Any]:
        """A list; with `of`, every item is checked (and errors name it: "factors[2]")."""
        return self._seq(key, self._required(key), nonempty, of)

    def opt_seq(self, key: str, *, of: ItemKind | None = None) -> Sequence[Any]:
        """A list, empty when absent."""
        v = self.data.get(key)
        return () if v is None else self._seq(key, v, False, of)

    def table(self, key: str) -> Mapping[str, Any]:
        """A table's raw contents (for data the caller keeps as it is)."""
        return self.sub(key).data

    def opt_table(self, key: str) -> Mapping[str, Any]:
        """A table's raw contents, empty when absent."""
        sub = self.opt_sub(key)
        return {} if sub is None else sub.data

    def sub(self, key: str) -> Reader:
        """A Reader for a nested table, located at "where.key"."""
        return self._reader(self.loc(key), self._required(key))

    def opt_sub(self, key: str) -> Reader | None:
        v = self.data.get(key)
        return None if v is None else self._reader(self.loc(key), v)

    def items(self, key: str) -> list[Reader]:
        """A Reader for each table of a list of tables, located at "where.key[i]"."""
        return self._items(key, self._seq(key, self._required(key), False, None))

    def opt_items(self, key: str) -> list[Reader]:
        """As `items`, empty when absent."""
        return self._items(key, self.opt_seq(key))

    # --- the checks --------------------------------------------------------------------------

    def _reader(self, where: str, data: Any) -> Reader:
        return Reader(data, self.source, where, error=self.error, table_word=self.table_word)

    def _items(self, key: str, items: Sequence[Any]) -> list[Reader]:
        return [self._reader(self.loc(f"{key}[{i}]"), v) for i, v in enumerate(items)]

    def _required(self, key: str) -> Any:
        if key not in self.data:
            raise self.fail(key, "is missing")
        return self.data[key]

    def _wrong(self, key: str, wanted: str, v: Any) -> DataError:
        return self.fail(key, f"must be {wanted}, not {found(v, self.table_word)}")

    def _text(self, key: str, v: Any, nonempty: bool = False) -> str:
        if not isinstance(v, str):
            raise self._wrong(key, "text", v)
        if nonempty and not v.strip():
            raise self.fail(key, "must not be empty")
        return v

    def _integer(self, key: str, v: Any, minimum: int | None = None) -> int:
        if isinstance(v, bool) or not isinstance(v, int):
            raise self._wrong(key, "a whole number", v)
        if minimum is not None and v < minimum:
            raise self.fail(key, f"must be at least {minimum}, not {v}")
        return v

    def _number(self, key: str, v: Any) -> float:
        if isinstance(v, bool) or not isinstance(v, int | float):
            raise self._wrong(key, "a number", v)
        if not math.isfinite(v):
            raise self.fail(key, f"must be a finite number, not {v}")
        return float(v)

    def _flag(self, key: str, v: Any) -> bool:
        if not isinstance(v, bool):
            raise self._wrong(key, "true or false", v)
        return v

    def _choice(self, key: str, v: Any, options: Sequence[_S]) -> _S:
        text = self._text(key, v)
        if text not in options:
            raise self.fail(key, f"must be {one_of(options)}, not {text!r}")
        return options[options.index(text)]

    def _point(self, key: str, v: Any) -> tuple[float, float]:
        if not (isinstance(v, list | tuple) and len(v) == 2 and all(is_number(c) for c in v)):
            raise self._wrong(key, "a point [x, y]", v)
        return (float(v[0]), float(v[1]))

    def _seq(self, key: str, v: Any, nonempty: bool, of: ItemKind | None) -> Sequence[Any]:
        if not isinstance(v, list | tuple):
            raise self._wrong(key, "a list", v)
        if nonempty and not v:
            raise self.fail(key, "must not be empty")
        if of == "text":
            return [self._text(f"{key}[{i}]", x) for i, x in enumerate(v)]
        if of == "integer":
            return [self._integer(f"{key}[{i}]", x) for i, x in enumerate(v)]
        if of == "number":
            return [self._number(f"{key}[{i}]", x) for i, x in enumerate(v)]
        return v
