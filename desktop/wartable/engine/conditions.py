"""Conditions written in the data, read from tracks, flags, the turn and the calendar
(issue 18): a sequence step's `condition`, a computed modifier's `condition`.

    flag:sitzkrieg                 the flag is set
    not flag:sitzkrieg             it is not
    track:us_entry>=1              a single-value track compared (= != >= <= > <)
    track:status.norway=invaded    one key of a track; statuses compare by their order
    turn>=3                        the game turn
    date>=1941-06                  the calendar date of the turn
    flag:a and not track:b.x<3     all of the parts

`check_condition` at load proves every name; `eval_condition` reads the state. A name the
game's code answers (a predicate) is not a kit condition: `is_kit_condition` tells them apart.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from wartable.model.parse import is_number
from wartable.model.state import GameState
from wartable.model.tracks import TrackDef, flag, parse_date, track

if TYPE_CHECKING:
    from wartable.engine.rules import Game

_OPS: dict[str, Callable[[Any, Any], bool]] = {
    "=": operator.eq, "!=": operator.ne, ">=": operator.ge, "<=": operator.le,
    ">": operator.gt, "<": operator.lt,
}
_PART = re.compile(
    r"^(?P<not>not\s+)?(?:"
    r"flag:(?P<flag>[A-Za-z0-9_\-]+)"
    r"|track:(?P<track>[A-Za-z0-9_\-]+)(?:\.(?P<key>[A-Za-z0-9_\-]+))?\s*(?P<top>!=|>=|<=|=|>|<)"
    r"\s*(?P<tval>[^\s].*?)"
    r"|(?P<what>turn|date)\s*(?P<op>!=|>=|<=|=|>|<)\s*(?P<val>\S+)"
    r")\s*$")
_KIT_START = re.compile(r"^\s*(not\s+)?(flag:|track:|turn\s*[!=<>]|date\s*[!=<>])")


@dataclass(frozen=True, slots=True)
class Part:
    negate: bool
    kind: str  # "flag", "track", "turn", "date"
    name: str = ""
    key: str = ""
    op: str = ""
    value: Any = None


def is_kit_condition(text: str) -> bool:
    """Is `text` written in this module's language (else it names a game's predicate)?"""
    return bool(_KIT_START.match(text))


def parse_condition(text: str) -> tuple[Part, ...]:
    """The parts of a condition; ValueError saying what is wrong."""
    parts: list[Part] = []
    for raw in re.split(r"\s+and\s+", text.strip()):
        m = _PART.match(raw.strip())
        if m is None:
            raise ValueError(
                f"{raw.strip()!r} is not a condition; write flag:<id>, not flag:<id>, "
                "track:<id>.<key>>=N, turn>=N or date>=YYYY-MM, joined by 'and'")
        neg = bool(m.group("not"))
        if m.group("flag"):
            parts.append(Part(neg, "flag", m.group("flag")))
        elif m.group("track"):
            parts.append(Part(neg, "track", m.group("track"), m.group("key") or "",
                              m.group("top"), _value(m.group("tval").strip())))
        else:
            what, op, val = m.group("what"), m.group("op"), m.group("val")
            if what == "turn":
                if not val.isdigit():
                    raise ValueError(f"turn{op}{val}: the turn is a whole number")
                parts.append(Part(neg, "turn", op=op, value=int(val)))
            else:
                date = parse_date(val)
                if date is None:
                    raise ValueError(f"date{op}{val}: write the date as YYYY-MM")
                parts.append(Part(neg, "date", op=op, value=date))
    return tuple(parts)


def _value(text: str) -> Any:
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    if text in ("true", "false"):
        return text == "true"
    return text.strip("'\"")


def check_condition(text: str, known_tracks: Mapping[str, TrackDef] | Collection[str],
                    known_flags: Collection[str], *, has_calendar: bool = True) -> None:
    """ValueError (a message to put in a DataError) for a condition naming an unknown track,
    key, status or flag, or comparing a status track with a number."""
    for p in parse_condition(text):
        if p.kind == "flag" and p.name not in known_flags:
            raise ValueError(f"{text!r}: no flag {p.name!r} (known: "
                             f"{', '.join(sorted(known_flags)) or 'none'})")
        if p.kind == "date" and not has_calendar:
            raise ValueError(f"{text!r}: the game has no [calendar] to give dates")
        if p.kind != "track":
            continue
        if p.name not in known_tracks:
            raise ValueError(f"{text!r}: no track {p.name!r} (known: "
                             f"{', '.join(sorted(known_tracks)) or 'none'})")
        if not isinstance(known_tracks, Mapping):
            continue
        td = known_tracks[p.name]
        if p.key not in td.keys:
            shown = ", ".join(repr(k) for k in td.keys)
            raise ValueError(f"{text!r}: track {p.name!r} has no key {p.key!r} "
                             f"(its keys: {shown}; a single-value track takes none)")
        if td.values:
            if p.value not in td.values:
                raise ValueError(f"{text!r}: {p.value!r} is not a status of {td.name} "
                                 f"({', '.join(td.values)})")
        elif not is_number(p.value):
            raise ValueError(f"{text!r}: {td.name} is a number; compare it with a number")


def eval_condition(game: Game, state: GameState, text: str) -> bool:
    """Whether the condition holds now (every part)."""
    return all(_holds(game, state, p) for p in parse_condition(text))


def _holds(game: Game, state: GameState, p: Part) -> bool:
    if p.kind == "flag":
        got = flag(state, p.name)
    elif p.kind == "turn":
        got = _OPS[p.op](state.turn, p.value)
    elif p.kind == "date":
        date = game.definition.calendar.date(state.turn)
        got = date is not None and _OPS[p.op](date, p.value)
    else:
        value = track(state, p.name, p.key)
        td = game.definition.tracks.get(p.name)
        if td is not None and td.values and value in td.values and p.value in td.values:
            got = _OPS[p.op](td.values.index(value), td.values.index(p.value))
        elif value is None:
            got = p.op == "!="
        else:
            try:
                got = bool(_OPS[p.op](value, p.value))
            except TypeError:  # a status compared with a number: only = and != mean anything
                got = p.op == "!="
    return not got if p.negate else bool(got)
