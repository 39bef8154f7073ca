"""GameState <-> JSON-shaped dicts, and a stable hash of a state.

Pure: no files. The save format (persistence/) embeds these dicts.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from wartable.core.errors import SaveFileError
from wartable.core.frozen import FrozenMap
from wartable.core.rng import Rng
from wartable.model.state import Frame, GameState, Piece
from wartable.model.values import freeze, thaw


def state_to_dict(s: GameState) -> dict[str, Any]:
    return {
        "game_id": s.game_id,
        "data_version": s.data_version,
        "scenario": s.scenario,
        "options": thaw(s.options),
        "turn": s.turn,
        "step_index": s.step_index,
        "active_side": s.active_side,
        "pieces": [
            {"id": p.id, "type": p.type, "side": p.side, "location": p.location,
             "attrs": thaw(p.attrs)}
            for p in sorted(s.pieces.values(), key=lambda p: p.id)
        ],
        "vars": thaw(s.vars),
        "frames": [
            {"kind": f.kind, "side": f.side, "text": f.text, "rule": f.rule, "data": thaw(f.data)}
            for f in s.frames
        ],
        "rng": str(s.rng.state),  # as text: JSON readers elsewhere lose 64-bit ints
        "dice_mode": s.dice_mode,
        "serial": s.serial,
        "result": s.result,
    }


def state_from_dict(d: Any) -> GameState:
    try:
        pieces = {
            p["id"]: Piece(p["id"], p["type"], p["side"], p["location"], freeze(p["attrs"]))
            for p in d["pieces"]
        }
        frames = tuple(
            Frame(f["kind"], f["side"], f["text"], f["rule"], freeze(f["data"]))
            for f in d["frames"]
        )
        return GameState(
            game_id=str(d["game_id"]),
            data_version=str(d["data_version"]),
            scenario=str(d["scenario"]),
            options=freeze(d["options"]),
            turn=int(d["turn"]),
            step_index=int(d["step_index"]),
            active_side=str(d["active_side"]),
            pieces=FrozenMap(pieces),
            vars=freeze(d["vars"]),
            frames=frames,
            rng=Rng(int(d["rng"])),
            dice_mode=str(d["dice_mode"]),
            serial=int(d["serial"]),
            result=d["result"],
        )
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise SaveFileError(f"the game state in the file is malformed ({e!r})") from e


def canonical_json(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def state_hash(s: GameState) -> str:
    """sha256 of the canonical JSON of the state: equal states, equal hashes."""
    return hashlib.sha256(canonical_json(state_to_dict(s)).encode("utf-8")).hexdigest()
