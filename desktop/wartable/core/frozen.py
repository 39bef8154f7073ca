"""An immutable, hashable mapping for values inside frozen game state."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class FrozenMap(Mapping[K, V]):
    """A read-only dict. Equality and hash ignore insertion order."""

    __slots__ = ("_d", "_h")
    _d: dict[K, V]
    _h: int | None

    def __init__(self, data: Mapping[K, V] | None = None, /, **kw: V) -> None:
        d: dict[Any, V] = dict(data or {})
        d.update(kw)
        object.__setattr__(self, "_d", d)
        object.__setattr__(self, "_h", None)

    def __getitem__(self, key: K) -> V:
        return self._d[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._d)

    def __len__(self) -> int:
        return len(self._d)

    def __hash__(self) -> int:
        h = self._h
        if h is None:
            h = hash(frozenset(self._d.items()))
            object.__setattr__(self, "_h", h)
        return h

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenMap):
            return self._d == other._d
        if isinstance(other, Mapping):
            return self._d == dict(other)
        return NotImplemented

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("FrozenMap is immutable")

    def __repr__(self) -> str:
        return f"FrozenMap({self._d!r})"

    def set(self, key: K, value: V) -> FrozenMap[K, V]:
        """A copy with key set to value."""
        d = dict(self._d)
        d[key] = value
        return FrozenMap(d)

    def remove(self, key: K) -> FrozenMap[K, V]:
        """A copy without key (no error if absent)."""
        d = dict(self._d)
        d.pop(key, None)
        return FrozenMap(d)

    def update(self, other: Mapping[K, V]) -> FrozenMap[K, V]:
        d = dict(self._d)
        d.update(other)
        return FrozenMap(d)

    def to_dict(self) -> dict[K, V]:
        return dict(self._d)
