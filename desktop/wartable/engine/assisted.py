"""The assisted-play kit's verbs (issue 18): what players do at a table that records,
reminds and calculates but never blocks them.

The engine (engine/loop.py) sends every verb named here to `apply_verb` for any game; each
is logged as events with its rule and undone like any action. Which verbs a step allows
depends on its enforcement (the step's, else the game's, `enforcement_at`):

- "enforced": only what changes no rule's outcome: ticking a checklist, notes, markers,
  plain dice.
- "assisted": every verb; moves are normal moves (not house rules) and the checks the data
  declares (stacking limit, forbidden places, the counter mix, a track's bounds) give a
  WARNING event naming the rule, never a refusal.
- "free": every verb, no warnings.

Hidden information: a drawn chit is named only in an event private to the drawer; the
others read "Germany draws a chit from the Ultra cup" (Rules.view scrubs hands and notes).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import FREE_MOVE, Action, Event, Outcome
from wartable.engine.dice import dice_text
from wartable.engine.effects import WARNING, apply_effects, track_label
from wartable.engine.kitsteps import band_effects, procedure, start_roll
from wartable.engine.rules import Game, locations
from wartable.maps.model import HexMap
from wartable.model.state import GameState, Piece
from wartable.model.tracks import (
    CHECKED,
    DEAD_PILE,
    FORCE_POOL,
    MARKERS,
    checked,
    cup,
    cup_key,
    flag,
    hand,
    hand_key,
    markers,
    notes_key,
    track,
    with_flag,
    with_track,
)
from wartable.model.values import freeze

ROLL = "assist.roll"
APPLY = "assist.apply"  # apply a proposed result's effects: table, result
DICE = "assist.dice"
SET_TRACK = "assist.set_track"
SET_FLAG = "assist.set_flag"
PLACE = "assist.place"
EDIT = "assist.edit"
REMOVE = "assist.remove"
CHECK = "assist.check"
DRAW = "assist.draw"
PLAY = "assist.play"
RETURN = "assist.return"
NOTE = "assist.note"
MARKER = "assist.marker"
MOVE = "move"

VERBS = frozenset({ROLL, APPLY, DICE, SET_TRACK, SET_FLAG, PLACE, EDIT, REMOVE, CHECK, DRAW,
                   PLAY, RETURN, NOTE, MARKER})
# What any step allows, enforced ones included: nothing here changes a rule's outcome.
ALWAYS = frozenset({CHECK, NOTE, MARKER, DICE})
REMOVE_TO = {"dead": DEAD_PILE, "pool": FORCE_POOL, "delete": ""}
MAX_NOTE = 5000
MAX_DICE = 100


def enforcement_at(game: Game, state: GameState) -> str:
    """The enforcement of the current step: "enforced", "assisted" or "free"."""
    return game.definition.enforcement_of(game.position(state).step.enforcement)


def is_kit_verb(verb: str) -> bool:
    return verb in VERBS


def allowed(game: Game, state: GameState, verb: str) -> str | None:
    """Why `verb` may not be used now, else None."""
    if verb in ALWAYS:
        return None
    mode = enforcement_at(game, state)
    if mode == "enforced":
        return (f"{game.position(state).step.name} is played by the rules; the table's "
                "assisted tools are for assisted or free steps.")
    if state.frames and verb not in (NOTE,):
        return f"Answer first: {state.frames[-1].text}"
    return None


def apply_verb(game: Game, state: GameState, action: Action) -> Outcome:
    """Apply one kit verb (or a move in an assisted step); IllegalAction with the reason."""
    reason = allowed(game, state, action.verb)
    if reason:
        raise IllegalAction(reason)
    handler = _HANDLERS.get(action.verb)
    if handler is None:
        raise IllegalAction(f"'{action.verb}' is not a verb of assisted play.")
    return handler(game, state, action)


def _side_name(game: Game, side: str) -> str:
    return game.definition.side(side).name


def _arg(action: Action, key: str, kind: type | tuple[type, ...], what: str) -> Any:
    v = action.args.get(key)
    if not isinstance(v, kind) or (isinstance(v, bool) and bool not in (
            kind if isinstance(kind, tuple) else (kind,))):
        raise IllegalAction(f"{action.verb} needs {what}.")
    return v


def _warnings(game: Game, state: GameState) -> bool:
    return enforcement_at(game, state) == "assisted"


def _warn(text: str, side: str, rule: str) -> Event:
    ref = f" [{rule}]" if rule else ""
    return Event(WARNING, f"Warning: {text}{ref}", side, rule)


# --------------------------------------------------------------------------- rolls


def _roll(game: Game, state: GameState, action: Action) -> Outcome:
    table = action.args.get("table")
    procedure(game, table)
    answers = action.args.get("answers", FrozenMap())
    if not isinstance(answers, Mapping):
        raise IllegalAction("assist.roll: answers are {modifier id: true/false or a count}.")
    dice = action.args.get("dice")
    if dice is not None and not isinstance(dice, tuple):
        raise IllegalAction("assist.roll: dice are the list of dice as rolled.")
    apply = action.args.get("apply", True)
    if not isinstance(apply, bool):
        raise IllegalAction("assist.roll: apply is true or false.")
    return start_roll(game, state, str(table), side=action.side, answers=answers, dice=dice,
                      apply=apply)


def _apply_result(game: Game, state: GameState, action: Action) -> Outcome:
    table = action.args.get("table")
    proc = procedure(game, table)
    result = _arg(action, "result", str, "the result whose effects to apply")
    effects = band_effects(game, str(table), result)
    if not effects:
        raise IllegalAction(f"{proc.title}: the result {result!r} has no effects.")
    return apply_effects(game, state, effects, side=action.side, rule=proc.rule)


def _dice(game: Game, state: GameState, action: Action) -> Outcome:
    count = action.args.get("count", 1)
    sides = action.args.get("sides", 6)
    mod = action.args.get("modifier", 0)
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (count, sides, mod)) \
            or not 1 <= count <= MAX_DICE or not 2 <= sides <= 1000:
        raise IllegalAction(f"Dice: 1 to {MAX_DICE} dice of 2 to 1000 sides, a whole "
                            "number modifier.")
    typed = action.args.get("dice")
    if typed is not None:
        if not isinstance(typed, tuple) or len(typed) != count or not all(
                isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= sides
                for d in typed):
            raise IllegalAction(f"Type {count} dice from 1 to {sides}.")
        rolled, how = tuple(typed), " (physical dice)"
    else:
        rolled, rng = state.rng.roll_many(count, sides)
        state, how = replace(state, rng=rng), ""
    total = sum(rolled) + mod
    spec = f"{count}d{sides}" + (f"{mod:+d}" if mod else "")
    text = f"{_side_name(game, action.side)} rolls {spec}: {dice_text(rolled)}"
    text += (f" {mod:+d} = {total}" if mod else "") + how
    purpose = action.args.get("purpose")
    if isinstance(purpose, str) and purpose:
        text = f"{purpose[:200]}: {text}"
    return Outcome(state, (Event("dice", text, action.side,
                                 data=FrozenMap(dice=rolled, total=total, modifier=mod)),))


# --------------------------------------------------------------------------- tracks, flags


def _set_track(game: Game, state: GameState, action: Action) -> Outcome:
    tid = action.args.get("track")
    td = game.definition.tracks.get(tid) if isinstance(tid, str) else None
    if td is None:
        raise IllegalAction(f"There is no track {tid!r}.")
    key = action.args.get("key", "")
    if key not in td.keys:
        raise IllegalAction(f"{td.name} has no entry {key!r} (its keys: "
                            f"{', '.join(repr(k) for k in td.keys)}).")
    value = action.args.get("value")
    problem = td.problem(value)
    if problem:
        raise IllegalAction(problem + ".")
    old = track(state, td.id, key)
    if old == value:
        raise IllegalAction(f"{td.name} is already {value}.")
    rule = td.rule
    events = [Event("track", f"{_side_name(game, action.side)} sets "
                    f"{track_label(td.name, td.key_names.get(key, key))}: {old} → {value}",
                    action.side, rule, data=FrozenMap(track=td.id, key=key, value=value))]
    bound = td.out_of_bounds(value)
    if bound and _warnings(game, state):
        events.append(_warn(bound, action.side, rule))
    return Outcome(with_track(state, td.id, str(key), value), tuple(events))


def _set_flag(game: Game, state: GameState, action: Action) -> Outcome:
    fid = action.args.get("flag")
    fd = game.definition.flags.get(fid) if isinstance(fid, str) else None
    if fd is None:
        raise IllegalAction(f"There is no flag {fid!r}.")
    value = _arg(action, "value", bool, "value true or false")
    if flag(state, fd.id) == value:
        raise IllegalAction(f"{fd.name} is already {'set' if value else 'not set'}.")
    return Outcome(with_flag(state, fd.id, value), (Event(
        "flag", f"{_side_name(game, action.side)} sets {fd.name}: {'yes' if value else 'no'}",
        action.side, fd.rule, data=FrozenMap(flag=fd.id, value=value)),))


# --------------------------------------------------------------------------- counters


def _known_place(game: Game, location: Any) -> str:
    if not isinstance(location, str) or not location:
        raise IllegalAction("Name the place.")
    if game.maps and location not in locations(game):
        raise IllegalAction(f"There is no place {location!r} on this game's maps.")
    return location


def place_checks(game: Game, state: GameState, pieces: tuple[Piece, ...], side: str) -> \
        tuple[Event, ...]:
    """The data's checks on pieces now in their places: stacking limit, forbidden places."""
    checks = game.definition.checks
    out: list[Event] = []
    seen: set[tuple[str, str]] = set()
    for p in pieces:
        if checks.stacking_limit is not None and (p.location, p.side) not in seen:
            seen.add((p.location, p.side))
            n = sum(1 for q in state.pieces_at(p.location) if q.side == p.side)
            if n > checks.stacking_limit and not p.location.startswith("kit:"):
                out.append(_warn(f"{n} {_side_name(game, p.side)} pieces in "
                                 f"{game.rules.place_name(game, p.location)}, above the "
                                 f"stacking limit of {checks.stacking_limit}", side,
                                 checks.stacking_rule))
        terrain = _terrain(game, p.location)
        for f in checks.forbidden:
            if (f.types and p.type not in f.types) or (f.sides and p.side not in f.sides):
                continue
            if p.location in f.locations or (terrain is not None and terrain in f.terrain):
                out.append(_warn(f"{game.rules.piece_name(game, p)} in "
                                 f"{game.rules.place_name(game, p.location)}: {f.text}",
                                 side, f.rule))
    return tuple(out)


def _terrain(game: Game, location: str) -> str | None:
    """The terrain of a hex of the game's hex maps (None elsewhere)."""
    for m in game.maps.values():
        if isinstance(m, HexMap):
            try:
                return m.info(location).terrain
            except KeyError:
                continue
    return None


def _move(game: Game, state: GameState, action: Action) -> Outcome:
    raw = action.args.get("pieces", action.args.get("piece"))
    ids = raw if isinstance(raw, tuple) else (raw,)
    if not ids or not all(isinstance(i, str) and i in state.pieces for i in ids):
        raise IllegalAction("Name the pieces to move.")
    to = _known_place(game, action.args.get("to"))
    moved: list[Piece] = []
    events: list[Event] = []
    for pid in dict.fromkeys(ids):
        p = state.pieces[pid]
        if p.location == to:
            continue
        events.append(Event("move", f"{game.rules.piece_name(game, p)}: "
                            f"{game.rules.place_name(game, p.location)} → "
                            f"{game.rules.place_name(game, to)}", action.side,
                            data=FrozenMap(piece=pid, came_from=p.location, to=to)))
        p = replace(p, location=to)
        state = state.with_piece(p)
        moved.append(p)
    if not moved:
        raise IllegalAction(f"Already in {game.rules.place_name(game, to)}.")
    if _warnings(game, state):
        events.extend(place_checks(game, state, tuple(moved), action.side))
    return Outcome(state, tuple(events))


def _place(game: Game, state: GameState, action: Action) -> Outcome:
    d = game.definition
    utype = action.args.get("type")
    if not isinstance(utype, str) or utype not in d.unit_types:
        raise IllegalAction(f"There is no unit type {utype!r}.")
    side = action.args.get("side", action.side)
    if side not in d.side_ids:
        raise IllegalAction(f"There is no side {side!r}.")
    where = _known_place(game, action.args.get("location"))
    attrs = action.args.get("attrs", FrozenMap())
    if not isinstance(attrs, Mapping):
        raise IllegalAction("A counter's attributes are {name: value}.")
    n = 1
    while f"{side}.{utype}.{n}" in state.pieces:
        n += 1
    p = Piece(f"{side}.{utype}.{n}", utype, str(side), where, FrozenMap(freeze(dict(attrs))))
    state = state.with_piece(p)
    events = [Event("place", f"{_side_name(game, action.side)} places "
                    f"{game.rules.piece_name(game, p)} in {game.rules.place_name(game, where)}",
                    action.side, data=FrozenMap(piece=p.id, location=where))]
    if _warnings(game, state):
        mix = {(m.type, m.side): m.count for m in d.counter_mix}
        cap = mix.get((utype, str(side)))
        have = sum(1 for q in state.pieces.values() if q.type == utype and q.side == side)
        if cap is not None and have > cap:
            events.append(_warn(f"the counter mix has {cap} {d.side(str(side)).name} "
                                f"{d.unit_types[utype].name}; {have} are in play", action.side,
                                ""))
        events.extend(place_checks(game, state, (p,), action.side))
    return Outcome(state, tuple(events))


def in_tray(game: Game, state: GameState, side: str, utype: str) -> int | None:
    """How many more counters of a type the counter mix allows a side (None: unlimited)."""
    for m in game.definition.counter_mix:
        if m.type == utype and m.side == side:
            return max(0, m.count - sum(1 for q in state.pieces.values()
                                        if q.type == utype and q.side == side))
    return None


def _edit(game: Game, state: GameState, action: Action) -> Outcome:
    pid = action.args.get("piece")
    if not isinstance(pid, str) or pid not in state.pieces:
        raise IllegalAction(f"There is no piece {pid!r}.")
    attrs = action.args.get("attrs")
    if not isinstance(attrs, Mapping) or not attrs:
        raise IllegalAction("Say which attributes to change.")
    p = state.pieces[pid]
    new = dict(p.attrs)
    changes = []
    for k, v in attrs.items():
        if k in ("id", "type", "side", "location"):
            raise IllegalAction(f"A counter's {k} is not an attribute; place a new one or "
                                "move it.")
        if v is None:
            if k in new:
                del new[k]
                changes.append(f"{k} cleared")
        else:
            new[k] = freeze(v)
            changes.append(f"{k} = {v}")
    if not changes:
        raise IllegalAction("Nothing changes.")
    q = replace(p, attrs=FrozenMap(new))
    return Outcome(state.with_piece(q), (Event(
        "edit", f"{_side_name(game, action.side)} edits {game.rules.piece_name(game, p)}: "
        + ", ".join(changes), action.side, data=FrozenMap(piece=pid)),))


def _remove(game: Game, state: GameState, action: Action) -> Outcome:
    pid = action.args.get("piece")
    if not isinstance(pid, str) or pid not in state.pieces:
        raise IllegalAction(f"There is no piece {pid!r}.")
    to = action.args.get("to", "dead")
    if to not in REMOVE_TO:
        raise IllegalAction("Send a counter to 'dead', to 'pool', or 'delete' it.")
    p = state.pieces[pid]
    name = game.rules.piece_name(game, p)
    if to == "delete":
        return Outcome(state.without_piece(pid), (Event(
            "remove", f"{_side_name(game, action.side)} deletes {name}", action.side,
            data=FrozenMap(piece=pid)),))
    where = REMOVE_TO[str(to)]
    if p.location == where:
        raise IllegalAction(f"{name} is already there.")
    word = {"dead": "to the dead pile", "pool": "to the force pool"}[str(to)]
    return Outcome(state.with_piece(replace(p, location=where)), (Event(
        "remove", f"{_side_name(game, action.side)} sends {name} {word}", action.side,
        data=FrozenMap(piece=pid, to=where)),))


# --------------------------------------------------------------------------- checklists


def _check(game: Game, state: GameState, action: Action) -> Outcome:
    step_id = action.args.get("step", game.position(state).step.id)
    item = action.args.get("item")
    value = action.args.get("value", True)
    pos = next((p for p in game.positions if p.step.id == step_id and p.step.checklist), None)
    if pos is None:
        raise IllegalAction(f"No step {step_id!r} has a checklist.")
    items = pos.step.checklist
    if not isinstance(item, int) or isinstance(item, bool) or not 0 <= item < len(items):
        raise IllegalAction(f"The checklist of {pos.step.name} has items 0 to {len(items) - 1}.")
    if not isinstance(value, bool):
        raise IllegalAction("Tick (true) or untick (false).")
    done = set(checked(state, str(step_id)))
    if (item in done) == value:
        raise IllegalAction("Already " + ("ticked." if value else "not ticked."))
    done = done | {item} if value else done - {item}
    table = state.vars.get(CHECKED, FrozenMap())
    state = state.with_var(CHECKED, table.set(str(step_id), tuple(sorted(done))))
    it = items[item]
    return Outcome(state, (Event("check", f"{'Done' if value else 'Not done'}: {it.text}",
                                 action.side, it.rule,
                                 data=FrozenMap(step=step_id, item=item, value=value)),))


# --------------------------------------------------------------------------- chits


def _cup_def(game: Game, cup_id: Any) -> Any:
    cd = game.definition.cups.get(cup_id) if isinstance(cup_id, str) else None
    if cd is None:
        raise IllegalAction(f"There is no cup {cup_id!r}.")
    return cd


def _draw(game: Game, state: GameState, action: Action) -> Outcome:
    cd = _cup_def(game, action.args.get("cup"))
    who = _side_name(game, action.side)
    if cd.drawn_by and action.side not in cd.drawn_by:
        raise IllegalAction(f"{who} does not draw from the {cd.name} [{cd.rule}].")
    left = cup(state, cd.id)
    if not left:
        raise IllegalAction(f"The {cd.name} cup is empty.")
    i, rng = state.rng.below(len(left))
    chit = left[i]
    state = replace(state, rng=rng).with_var(cup_key(cd.id), left[:i] + left[i + 1:])
    state = state.with_var(hand_key(action.side), hand(state, action.side) + ((cd.id, chit),))
    text = cd.chit(chit).text
    return Outcome(state, (
        Event("chit", f"{who} draws a chit from the {cd.name} cup", action.side, cd.rule,
              data=FrozenMap(cup=cd.id)),
        Event("chit", f"{who} drew: {text}", action.side, cd.rule, private_to=action.side,
              data=FrozenMap(cup=cd.id, chit=chit)),
    ), revealed=True)


def _held(game: Game, state: GameState, action: Action) -> tuple[int, str, str]:
    chit = action.args.get("chit")
    cup_id = action.args.get("cup")
    for i, (c, ch) in enumerate(hand(state, action.side)):
        if ch == chit and (cup_id is None or c == cup_id):
            return i, c, ch
    raise IllegalAction(f"{_side_name(game, action.side)} holds no chit {chit!r}.")


def _play(game: Game, state: GameState, action: Action) -> Outcome:
    i, cup_id, chit = _held(game, state, action)
    cd = _cup_def(game, cup_id)
    held = hand(state, action.side)
    state = state.with_var(hand_key(action.side), held[:i] + held[i + 1:])
    cdef = cd.chit(chit)
    return Outcome(state, (Event(
        "chit", f"{_side_name(game, action.side)} plays a chit from the {cd.name} cup: "
        f"{cdef.text}", action.side, cdef.rule or cd.rule,
        data=FrozenMap(cup=cd.id, chit=chit)),))


def _return(game: Game, state: GameState, action: Action) -> Outcome:
    i, cup_id, chit = _held(game, state, action)
    cd = _cup_def(game, cup_id)
    held = hand(state, action.side)
    state = state.with_var(hand_key(action.side), held[:i] + held[i + 1:])
    state = state.with_var(cup_key(cd.id), cup(state, cd.id) + (chit,))
    return Outcome(state, (Event(
        "chit", f"{_side_name(game, action.side)} returns a chit to the {cd.name} cup",
        action.side, cd.rule, data=FrozenMap(cup=cd.id)),))


# --------------------------------------------------------------------------- notes, markers


def _note(game: Game, state: GameState, action: Action) -> Outcome:
    text = _arg(action, "text", str, "the text of the notes")
    if len(text) > MAX_NOTE:
        raise IllegalAction(f"Notes hold up to {MAX_NOTE} characters.")
    return Outcome(state.with_var(notes_key(action.side), text), (Event(
        "note", "Notes updated", action.side, private_to=action.side),))


def _marker(game: Game, state: GameState, action: Action) -> Outcome:
    where = _known_place(game, action.args.get("location"))
    text = _arg(action, "text", str, "the marker's text ('' removes it)")
    if len(text) > 200:
        raise IllegalAction("A marker holds up to 200 characters.")
    now = markers(state)
    place = game.rules.place_name(game, where)
    if not text:
        if where not in now:
            raise IllegalAction(f"There is no marker in {place}.")
        return Outcome(state.with_var(MARKERS, now.remove(where)), (Event(
            "marker", f"{_side_name(game, action.side)} removes the marker in {place}",
            action.side, data=FrozenMap(location=where)),))
    return Outcome(state.with_var(MARKERS, now.set(where, text)), (Event(
        "marker", f"{_side_name(game, action.side)} marks {place}: {text}", action.side,
        data=FrozenMap(location=where, text=text)),))


_HANDLERS = {
    ROLL: _roll, APPLY: _apply_result, DICE: _dice, SET_TRACK: _set_track,
    SET_FLAG: _set_flag, PLACE: _place, EDIT: _edit, REMOVE: _remove, CHECK: _check,
    DRAW: _draw, PLAY: _play, RETURN: _return, NOTE: _note, MARKER: _marker,
    MOVE: _move, FREE_MOVE: _move,
}


def assisted_move(game: Game, state: GameState, action: Action) -> Outcome:
    """A move (or free_move) in an assisted or free step: a normal move, with warnings."""
    return _move(game, state, action)

