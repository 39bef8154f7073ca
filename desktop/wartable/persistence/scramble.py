"""Secrets in save files, kept unreadable at a glance (issue 15).

A save holds the final position, and with it what no player may see: the untried Soviet
fronts of 1940 [2.12], for one. Written in plain text, either player could read them in
any text editor. The state variables a game's public view leaves out or changes
(`rules.view(game, state, None)`) are written scrambled instead:

    "vars": {"untried": {"wartable-scrambled": "<base64>"}}

This guards against peeking, not against cheating: the key is in this file, and the save
also holds the seed and the action log, from which the game can be replayed. The save says
so itself (SECRETS_NOTE). Old saves, with nothing scrambled, load as before.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import zlib
from typing import Any

from wartable.engine.rules import Game
from wartable.model.state import GameState
from wartable.model.values import thaw

MARK = "wartable-scrambled"
NOTE_KEY = "secrets_note"
SECRETS_NOTE = ("Hidden information (the state's variables marked wartable-scrambled) is "
                "scrambled so that nobody reads it by accident. It is not encrypted: this "
                "guards against peeking, not against cheating.")
_KEY = b"wartable: no peeking at the other side's counters"


class ScrambleError(ValueError):
    """A scrambled value that does not unscramble: the file is damaged."""


def secret_vars(game: Game, state: GameState) -> list[str]:
    """The state variables nobody may read: those the public view drops or changes."""
    if not game.rules.hidden_information(game, state):
        return []
    public = game.rules.view(game, state, None).vars
    return sorted(k for k, v in state.vars.items() if k not in public or public[k] != v)


def _stream(n: int) -> bytes:
    out = bytearray()
    block = 0
    while len(out) < n:
        out += hashlib.sha256(_KEY + block.to_bytes(8, "big")).digest()
        block += 1
    return bytes(out[:n])


def _xor(data: bytes) -> bytes:
    return bytes(a ^ b for a, b in zip(data, _stream(len(data)), strict=True))


def encode(value: Any) -> dict[str, str]:
    raw = zlib.compress(json.dumps(value, sort_keys=True, ensure_ascii=False).encode("utf-8"))
    return {MARK: base64.b64encode(_xor(raw)).decode("ascii")}


def decode(packed: Any) -> Any:
    try:
        raw = zlib.decompress(_xor(base64.b64decode(packed[MARK], validate=True)),
                              bufsize=1 << 16)
        if len(raw) > 64 * 1024 * 1024:
            raise ScrambleError("a scrambled value is too large")
        return json.loads(raw.decode("utf-8"))
    except (binascii.Error, zlib.error, UnicodeDecodeError, ValueError, TypeError) as e:
        raise ScrambleError(f"a scrambled value is damaged ({e})") from e


def is_scrambled(value: Any) -> bool:
    return isinstance(value, dict) and set(value) == {MARK} and isinstance(value[MARK], str)


def scramble_state(game: Game, state: GameState, doc_state: dict[str, Any]) -> bool:
    """Scramble the secret variables of `doc_state` (state_to_dict of `state`) in place;
    True when there were any."""
    keys = secret_vars(game, state)
    for k in keys:
        doc_state["vars"][k] = encode(thaw(state.vars[k]))
    return bool(keys)


def unscramble_state(doc_state: dict[str, Any]) -> None:
    """Undo scramble_state in place (nothing to do for an old save); ScrambleError."""
    vars_ = doc_state.get("vars")
    if not isinstance(vars_, dict):
        return
    for k, v in vars_.items():
        if is_scrambled(v):
            vars_[k] = decode(v)
