"""How error messages name the kind of a JSON value ("a list", "true/false", "null")."""

from __future__ import annotations

from typing import Any


def json_kind(v: Any, text: str = "a string") -> str:
    """The kind of a parsed JSON value, for messages like "must be a number, not a list".
    `text` is the word for strings (save files say "text", map files "a string")."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true/false"
    if isinstance(v, int | float):
        return "a number"
    if isinstance(v, str):
        return text
    if isinstance(v, list):
        return "a list"
    return "an object"
