"""The value types allowed inside game state: JSON-able and immutable.

State values are str, int, float, bool, None, tuples of values and FrozenMaps
with str keys. `freeze` turns parsed JSON/TOML into that shape, `thaw` back, so
state round-trips through save files exactly.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wartable.core.frozen import FrozenMap

Value = Any  # str | int | float | bool | None | tuple[Value, ...] | FrozenMap[str, Value]


def freeze(v: Any) -> Value:
    """Deep-convert lists to tuples and dicts to FrozenMaps."""
    if isinstance(v, FrozenMap):
        return v
    if isinstance(v, Mapping):
        return FrozenMap({str(k): freeze(x) for k, x in v.items()})
    if isinstance(v, list | tuple):
        return tuple(freeze(x) for x in v)
    if v is None or isinstance(v, str | int | float | bool):
        return v
    raise TypeError(f"not a state value: {type(v).__name__}")


def thaw(v: Value) -> Any:
    """Deep-convert FrozenMaps to dicts (sorted keys) and tuples to lists, for JSON."""
    if isinstance(v, Mapping):
        return {k: thaw(v[k]) for k in sorted(v)}
    if isinstance(v, tuple):
        return [thaw(x) for x in v]
    return v
