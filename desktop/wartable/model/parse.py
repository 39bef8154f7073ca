"""Small checked accessors for parsing data files; each failure names the field."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from wartable.core.errors import DataError

T = TypeVar("T")


class Reader:
    """Reads fields of one table in a data file, raising DataError(source, where, what)."""

    def __init__(self, data: Any, source: str, where: str) -> None:
        if not isinstance(data, Mapping):
            raise DataError(source, where, f"expected a table, got {type(data).__name__}")
        self.data = data
        self.source = source
        self.where = where

    def _fail(self, key: str, what: str) -> DataError:
        return DataError(self.source, f"{self.where}.{key}" if self.where else key, what)

    def _get(self, key: str, typ: type | tuple[type, ...], default: Any, tname: str) -> Any:
        if key not in self.data:
            if default is _REQUIRED:
                raise self._fail(key, "is missing")
            return default
        v = self.data[key]
        # bool is an int subclass; never accept it where a number is meant
        if isinstance(v, bool) and bool not in (typ if isinstance(typ, tuple) else (typ,)):
            raise self._fail(key, f"must be {tname}, got {v!r}")
        if not isinstance(v, typ):
            raise self._fail(key, f"must be {tname}, got {type(v).__name__} {v!r}")
        return v

    def text(self, key: str, default: Any = None) -> Any:
        return self._get(key, str, _REQUIRED if default is None else default, "text")

    def opt_str(self, key: str) -> str | None:
        return self._get(key, str, None, "text")  # type: ignore[no-any-return]

    def integer(self, key: str, default: Any = None) -> Any:
        return self._get(key, int, _REQUIRED if default is None else default, "a whole number")

    def number(self, key: str, default: Any = None) -> Any:
        return self._get(key, (int, float), _REQUIRED if default is None else default, "a number")

    def flag(self, key: str, default: Any = None) -> Any:
        return self._get(key, bool, _REQUIRED if default is None else default, "true or false")

    def seq(self, key: str, default: Any = None) -> Any:
        return self._get(key, (list, tuple), _REQUIRED if default is None else default, "a list")

    def table(self, key: str, default: Any = None) -> Any:
        return self._get(key, Mapping, _REQUIRED if default is None else default, "a table")

    def sub(self, key: str, index: int | None = None) -> Reader:
        where = f"{self.where}.{key}" if self.where else key
        data = self.data.get(key)
        if index is not None:
            where += f"[{index}]"
            data = data[index]  # type: ignore[index]
        return Reader(data, self.source, where)

    def items(self, key: str) -> list[Reader]:
        """Each entry of a list of tables."""
        return [self.sub(key, i) for i in range(len(self.seq(key, [])))]

    def fail(self, key: str, what: str) -> DataError:
        return self._fail(key, what)


class _Required:
    pass


_REQUIRED = _Required()
