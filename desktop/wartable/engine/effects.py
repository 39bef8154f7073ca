"""Effects written in the data (issue 18): what a die-roll result band or a date trigger does.

    { set = "track.econ.germany", to = 40 }     { add = "track.econ.germany", by = -5 }
    { set = "track.us_entry", to = 1 }          (a single-value track)
    { set = "flag.sitzkrieg", to = false }
    { log = "Norway falls [9.2]" }              { remind = "Siberians due [10.8]" }
    { remove_tagged = "partisans" }             { move_tagged = "vichy", to = "box:vichy" }
    { end_game = "The Axis wins: ..." }         { code = "redeploy_fleet" }

Each may carry `rule = "9.2"`. `parse_effects` checks them when the game loads (DataError
naming the file and entry); `apply_effects` applies them and returns the engine's Outcome,
one logged event per effect. A `code` effect calls the function the game registers under
that name in its RuleTable (`effects`), `(game, state, side) -> Outcome`, for what needs
the map.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from wartable.core.errors import DataError
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Event, Outcome
from wartable.model.definition import GameDefinition
from wartable.model.parse import Reader, is_number, shown
from wartable.model.state import GameState, Piece
from wartable.model.tracks import flag, track, with_flag, with_track
from wartable.model.values import freeze

if TYPE_CHECKING:
    from wartable.engine.rules import Game

KINDS = ("set", "add", "log", "remind", "remove_tagged", "move_tagged", "end_game", "code")
WARNING = "warning"  # the event kind of a check assisted play warns about (never blocks)


@dataclass(frozen=True, slots=True)
class Effect:
    kind: str  # one of KINDS
    target: str = ""  # "track.<id>.<key>", "flag.<id>", a tag, a code name
    track: str = ""
    key: str = ""
    value: Any = None  # set: the value; add: the amount; move_tagged: the location
    text: str = ""
    rule: str = ""

    def describe(self) -> str:
        """How the effect reads before it is applied (Tables panel: "effects proposed")."""
        if self.kind == "set":
            return f"{self.target} → {shown(self.value)}"
        if self.kind == "add":
            return f"{self.target} {self.value:+g}"
        if self.kind in ("log", "remind", "end_game"):
            return {"log": "", "remind": "Reminder: ", "end_game": "Game ends: "}[self.kind] \
                + self.text
        if self.kind == "remove_tagged":
            return f"remove pieces tagged {self.target!r}"
        if self.kind == "move_tagged":
            return f"move pieces tagged {self.target!r} to {self.value}"
        return f"{self.target} (the game's code)"


def parse_effects(raw: Sequence[Any], definition: GameDefinition, source: str, where: str,
                  code_names: Mapping[str, Any] | frozenset[str] = frozenset()
                  ) -> tuple[Effect, ...]:
    """Parse and check a list of effect tables: every track, key, flag and code name known,
    every value of the right kind. DataError naming `source` and `where[i]`."""
    if not isinstance(raw, list | tuple):
        raise DataError(source, where, f"must be a list of effects, not {shown(raw)}")
    return tuple(parse_effect(e, definition, source, f"{where}[{i}]", code_names)
                 for i, e in enumerate(raw))


def parse_effect(raw: Any, definition: GameDefinition, source: str, where: str,
                 code_names: Mapping[str, Any] | frozenset[str] = frozenset()) -> Effect:
    r = Reader(raw, source, where)
    kinds = [k for k in KINDS if k in r.data]
    if len(kinds) != 1:
        raise r.fail_here(f"an effect names exactly one of {', '.join(KINDS)}; "
                          f"found {', '.join(kinds) or 'none'}")
    kind = kinds[0]
    rule = r.opt_text("rule", "").strip().removeprefix("[").removesuffix("]").strip()
    if kind in ("set", "add"):
        r.known(kind, "to" if kind == "set" else "by", "rule")
        target = r.text(kind, nonempty=True)
        if target.startswith("flag."):
            fid = target[5:]
            if kind == "add":
                raise r.fail(kind, "a flag is set, not added to")
            if fid not in definition.flags:
                raise r.fail(kind, f"no flag {fid!r} (known: "
                             f"{', '.join(sorted(definition.flags)) or 'none'})")
            return Effect("set", target, value=r.flag("to"), rule=rule)
        tid, key = _track_target(r, kind, target, definition)
        td = definition.tracks[tid]
        if kind == "add":
            if not td.numeric:
                raise r.fail(kind, f"{td.name} holds statuses; set it, do not add to it")
            r.number("by")  # checked: a finite number (an int stays an int)
            return Effect("add", target, tid, key, r.data["by"], rule=rule)
        value = r.data.get("to")
        if value is None:
            raise r.fail("to", "is missing")
        problem = td.problem(value)
        if problem:
            raise r.fail("to", problem)
        return Effect("set", target, tid, key, freeze(value), rule=rule)
    if kind in ("log", "remind", "end_game"):
        r.known(kind, "rule")
        return Effect(kind, text=r.text(kind, nonempty=True), rule=rule)
    if kind == "remove_tagged":
        r.known(kind, "rule")
        return Effect(kind, r.text(kind, nonempty=True), rule=rule)
    if kind == "move_tagged":
        r.known(kind, "to", "rule")
        return Effect(kind, r.text(kind, nonempty=True), value=r.text("to", nonempty=True),
                      rule=rule)
    r.known(kind, "rule")
    name = r.text(kind, nonempty=True)
    if name not in code_names:
        raise r.fail(kind, f"no rules register the effect {name!r} (known: "
                     f"{', '.join(sorted(code_names)) or 'none'})")
    return Effect("code", name, rule=rule)


def _track_target(r: Reader, field: str, target: str,
                  definition: GameDefinition) -> tuple[str, str]:
    parts = target.split(".")
    if parts[0] != "track" or len(parts) not in (2, 3):
        raise r.fail(field, f"{target!r}: write track.<id>.<key>, track.<id> or flag.<id>")
    tid, key = parts[1], parts[2] if len(parts) == 3 else ""
    td = definition.tracks.get(tid)
    if td is None:
        raise r.fail(field, f"no track {tid!r} (known: "
                     f"{', '.join(sorted(definition.tracks)) or 'none'})")
    if key not in td.keys:
        raise r.fail(field, f"track {tid!r} has no key {key!r} (its keys: "
                     f"{', '.join(repr(k) for k in td.keys)})")
    return tid, key


def as_effects(game: Game, effects: Sequence[Effect | Mapping[str, Any]], source: str = "",
               where: str = "effects") -> tuple[Effect, ...]:
    """Effects given parsed or raw (raw ones parsed now against the game's data)."""
    d = game.definition
    return tuple(
        e if isinstance(e, Effect) else parse_effect(
            e, d, source or d.id, f"{where}[{i}]", frozenset(game.rules.table.effects))
        for i, e in enumerate(effects))


def has_tag(piece: Piece, tag: str) -> bool:
    """A piece carries a tag in its `tags` attribute (a list) or its `tag` attribute."""
    tags = piece.attrs.get("tags", ())
    return piece.attrs.get("tag") == tag or (isinstance(tags, tuple) and tag in tags)


def apply_effects(game: Game, state: GameState,
                  effects: Sequence[Effect | Mapping[str, Any]], *, side: str = "",
                  rule: str = "") -> Outcome:
    """Apply the effects in order, logging each with its rule (else `rule`)."""
    out = Outcome(state)
    for e in as_effects(game, effects):
        if out.state.result is not None:
            break
        out = out.then(_apply_one(game, out.state, e, side, e.rule or rule))
    return out


def _apply_one(game: Game, state: GameState, e: Effect, side: str, rule: str) -> Outcome:
    d = game.definition
    if e.kind in ("set", "add") and e.target.startswith("flag."):
        fid = e.target[5:]
        fd = d.flags[fid]
        if flag(state, fid) == bool(e.value):
            return Outcome(state, (Event("flag", f"{fd.name}: already {_yes(e.value)}",
                                         side, rule),))
        return Outcome(with_flag(state, fid, bool(e.value)),
                       (Event("flag", f"{fd.name}: {_yes(e.value)}", side, rule,
                              data=FrozenMap(flag=fid, value=bool(e.value))),))
    if e.kind in ("set", "add"):
        td = d.tracks[e.track]
        old = track(state, e.track, e.key)
        if e.kind == "add":
            base = old if is_number(old) else 0
            new: Any = base + e.value
        else:
            new = e.value
        events = [Event("track", f"{track_label(td.name, td.key_names.get(e.key, e.key))}: "
                        f"{_shown(old)} → {_shown(new)}", side, rule,
                        data=FrozenMap(track=e.track, key=e.key, value=new))]
        bound = td.out_of_bounds(new)
        if bound:
            events.append(Event(WARNING, f"Warning: {bound} [{td.rule or rule}]", side,
                                td.rule or rule))
        return Outcome(with_track(state, e.track, e.key, new), tuple(events))
    if e.kind == "log":
        return Outcome(state, (Event("info", e.text, side, rule),))
    if e.kind == "remind":
        return Outcome(state, (Event("remind", f"Reminder: {e.text}", side, rule),))
    if e.kind == "end_game":
        return Outcome(replace(state, result=e.text), (Event("victory", e.text, side, rule),))
    if e.kind == "remove_tagged":
        gone = [p for p in state.pieces.values() if has_tag(p, e.target)]
        for p in gone:
            state = state.without_piece(p.id)
        return Outcome(state, (Event("info", f"Removed {len(gone)} piece(s) tagged "
                                     f"{e.target!r}", side, rule,
                                     data=FrozenMap(pieces=tuple(p.id for p in gone))),))
    if e.kind == "move_tagged":
        moved = [p for p in state.pieces.values() if has_tag(p, e.target)]
        for p in moved:
            state = state.with_piece(replace(p, location=str(e.value)))
        return Outcome(state, (Event("move", f"Moved {len(moved)} piece(s) tagged "
                                     f"{e.target!r} to {e.value}", side, rule,
                                     data=FrozenMap(pieces=tuple(p.id for p in moved))),))
    fn = game.rules.table.effects.get(e.target)
    if fn is None:
        raise DataError(d.id, "effects", f"no rules register the effect {e.target!r}")
    return fn(game, state, side)


def track_label(name: str, key_name: str) -> str:
    return f"{name} ({key_name})" if key_name else name


def _yes(v: Any) -> str:
    return "yes" if v else "no"


def _shown(v: Any) -> str:
    if v is None:
        return "—"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)
