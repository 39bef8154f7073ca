"""Small wording helpers shared by every layer, so a log line reads "1 hit", not "1 hits"."""

from __future__ import annotations


def plural(n: int, word: str, words: str | None = None) -> str:
    """"1 hit", "2 hits"; `words` for irregular plurals ("1 army", "2 armies")."""
    return f"{n} {word}" if n == 1 else f"{n} {words or word + 's'}"
