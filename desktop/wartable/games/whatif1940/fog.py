"""Fog of war [7.3]: nobody may look beneath the top unit of an enemy stack until a combat
resolution begins against it (or with it); untried Soviet fronts stay hidden from both
sides [2.12] (hidden.py).

What a side sees (`view`):
- its own and its allies' units as they are (the Soviet and the Anglo-French are one side
  of the war [1.3, 4.1]);
- of each enemy stack on a map hex (two or more enemy ground units), only the top unit; the
  units beneath it become anonymous placeholders: the same side and hex (a stack's height
  shows on a real table) but an opaque id ("fog.<hex>.<n>"), the type `UNKNOWN_TYPE` and no
  name, values, steps or other attrs. Piece ids name the type ("german.panzer.3"), so
  hidden units never keep theirs; references to them in the state's vars and frames are
  renamed too.
- units that a combat has examined [7.3] stay shown to the side that examined them for as
  long as they stay in the hex where they fought (`V_SEEN`).

The top unit: the one its owner named with the free "stack_top" action [7.3] while it stays
in that hex, else the last of the hex's units in the state's order (the one the map draws
on top). Neutral Belgian and Dutch units are exempt: the German set them up himself and
they never move while neutral [3.4]. Holding boxes, pools and the dead pile are displays,
not stacks: no fog there. Aircraft and markers (forts) are never hidden.

The option `fog_of_war` (default on) turns all this off for open play.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import STACK_TOP, Action, Event, Outcome
from wartable.engine.loop import prompt
from wartable.engine.rules import Game
from wartable.games.whatif1940 import hidden, units
from wartable.games.whatif1940.ids import GERMAN, NAT_BELGIAN, NAT_DUTCH, V_BELGIUM, V_UNTRIED
from wartable.model.state import Frame, GameState, Piece

OPTION = "fog_of_war"
V_SEEN = "fog_seen"  # camp -> FrozenMap(piece id -> hex where combat examined it) [7.3]
V_STACK_TOP = "stack_top"  # hex -> the piece id its owner put on top [7.3]
UNKNOWN_TYPE = "unknown"  # not a unit type: the app draws it as an anonymous counter
HIDDEN_NAME = "Hidden beneath the top [7.3]"  # what a placeholder is called in the app
PREFIX = "fog."
VERB = STACK_TOP  # [7.3]


def enabled(state: GameState) -> bool:
    return bool(state.option(OPTION, True))


def _neutral(game: Game, state: GameState, p: Piece) -> bool:
    """[3.4, 3.6] Belgian and Dutch units not at war (as combat_odds.neutral_unit)."""
    nat = units.nation(game, p)
    if nat == NAT_BELGIAN:
        return bool(state.var(V_BELGIUM, "neutral") != "allied")
    return nat == NAT_DUTCH and p.side != GERMAN


def _on_map(location: str) -> bool:
    return not location.startswith("box:")


def top_of(state: GameState, location: str, pieces: list[Piece]) -> Piece:
    """The stack's top unit: the owner's choice while it stays there, else the last in the
    state's order [7.3]."""
    chosen = state.var(V_STACK_TOP, FrozenMap()).get(location)
    for p in pieces:
        if p.id == chosen:
            return p
    return pieces[-1]


def seen(state: GameState, camp: str) -> FrozenMap[str, str]:
    got: FrozenMap[str, str] = state.var(V_SEEN, FrozenMap()).get(camp, FrozenMap())
    return got


def hidden_from(game: Game, state: GameState, side: str) -> dict[str, list[Piece]]:
    """Hex -> the enemy units there that `side` may not see (beneath the top) [7.3]."""
    if not enabled(state):
        return {}
    camp = units.camp(side)
    known = seen(state, camp)
    stacks: dict[tuple[str, str], list[Piece]] = {}
    for p in state.pieces.values():
        if units.camp(p.side) == camp or not _on_map(p.location):
            continue
        if not units.is_ground(game, p) or _neutral(game, state, p):
            continue
        stacks.setdefault((p.location, units.camp(p.side)), []).append(p)
    out: dict[str, list[Piece]] = {}
    for (loc, _), ps in stacks.items():
        if len(ps) < 2:
            continue
        top = top_of(state, loc, ps)
        under = [p for p in ps if p.id != top.id and known.get(p.id) != loc]
        if under:
            out.setdefault(loc, []).extend(under)
    return out


def placeholder(location: str, n: int, side: str) -> Piece:
    return Piece(f"{PREFIX}{location}.{n}", UNKNOWN_TYPE, side, location,
                 FrozenMap({"name": HIDDEN_NAME, "factors": hidden.UNKNOWN}))


def view(game: Game, state: GameState, side: str | None) -> GameState:
    """What `side` may see (None: everything but untried fronts, for open play)."""
    state = hidden.view(state)
    if side is None or not enabled(state):
        return state
    under = hidden_from(game, state, side)
    tops: Mapping[str, str] = state.var(V_STACK_TOP, FrozenMap())
    if not under and not tops:
        return state
    rename: dict[str, str] = {}
    holders: dict[str, list[Piece]] = {}
    for loc, ps in under.items():
        for n, p in enumerate(ps, 1):
            ph = placeholder(loc, n, p.side)
            rename[p.id] = ph.id
            holders.setdefault(loc, []).append(ph)
    by_loc: dict[str, list[Piece]] = {}
    for p in state.pieces.values():
        if p.id not in rename:
            by_loc.setdefault(p.location, []).append(p)
    pieces: dict[str, Piece] = {}
    for loc, ps in by_loc.items():
        chosen = tops.get(loc)
        ps = [p for p in ps if p.id != chosen] + [p for p in ps if p.id == chosen]
        for p in holders.pop(loc, []) + ps:  # the map draws the last one on top
            pieces[p.id] = p
    for ps in holders.values():  # (every hidden unit has a visible top: none left here)
        for p in ps:
            pieces[p.id] = p
    # The fog's own bookkeeping (who examined what, who chose which top) is nobody's to read.
    vars_ = FrozenMap({k: _scrub(v, rename) for k, v in state.vars.items()
                       if k not in (V_SEEN, V_STACK_TOP)})
    if not rename:
        return replace(state, pieces=FrozenMap(pieces), vars=vars_)
    return replace(state, pieces=FrozenMap(pieces), vars=vars_,
                   frames=tuple(_scrub_frame(f, rename) for f in state.frames))


def _scrub(value: Any, rename: Mapping[str, str]) -> Any:
    """The value with every hidden piece id renamed; sorted tuples stay sorted, so the
    position of a renamed id says nothing about the real one."""
    if isinstance(value, str):
        return rename.get(value, value)
    if isinstance(value, tuple):
        out = tuple(_scrub(v, rename) for v in value)
        if out != value and all(isinstance(v, str) for v in value) and \
                list(value) == sorted(value):
            out = tuple(sorted(out))
        return out
    if isinstance(value, FrozenMap):
        return FrozenMap({_scrub(k, rename): _scrub(v, rename) for k, v in value.items()})
    return value


def _scrub_frame(frame: Frame, rename: Mapping[str, str]) -> Frame:
    return replace(frame, data=_scrub(frame.data, rename))


# --- the stack check at combat resolution [7.3] ------------------------------------------------

def examine(state: GameState, camp: str, pieces: Iterable[Piece]) -> tuple[GameState, bool]:
    """Record that `camp` has examined these units where they stand [7.3]; True when any
    was not yet known there (hidden information revealed: an undo barrier)."""
    if not enabled(state):
        return state, False
    allv: FrozenMap[str, FrozenMap[str, str]] = state.var(V_SEEN, FrozenMap())
    # Forget what has since moved: those units are beneath some other top now.
    mine = {pid: loc for pid, loc in seen(state, camp).items()
            if pid in state.pieces and state.piece(pid).location == loc}
    new = False
    for p in pieces:
        if mine.get(p.id) != p.location:
            mine[p.id] = p.location
            new = True
    return state.with_var(V_SEEN, allv.set(camp, FrozenMap(dict(sorted(mine.items()))))), new


def examine_battle(game: Game, state: GameState, attacker: str, target: str,
                   attackers: Iterable[str], defenders: Iterable[Piece]) -> tuple[GameState,
                                                                                  bool]:
    """[7.3] A combat resolution begins: the attacker sees the defending stack; the
    defender sees the units that attack it."""
    defending = list(defenders)
    state, a = examine(state, units.camp(attacker), defending)
    foe = "allied" if units.camp(attacker) == GERMAN else GERMAN
    state, d = examine(state, foe, [state.piece(i) for i in attackers])
    return state, a or d


# --- the log [7.3] --------------------------------------------------------------------------------

PRIVATE_KINDS = frozenset({"move", "setup"})  # log lines that say where a named unit went


def private_moves(out: Outcome) -> Outcome:
    """Under the fog, moves and set-up placements are read only by the moving side: the
    map shows the enemy what he may see, the log would tell him what is beneath [7.3]."""
    if not enabled(out.state) or not any(e.kind in PRIVATE_KINDS for e in out.events):
        return out
    return replace(out, events=tuple(
        replace(e, private_to=e.side) if e.kind in PRIVATE_KINDS and e.side
        and not e.private_to else e for e in out.events))


# --- the owner puts a unit on top [7.3] -------------------------------------------------------

def set_top(game: Game, state: GameState, action: Action,
            name: Callable[[Piece], str]) -> Outcome:
    """Free: the owner names the unit that shows on top of one of his stacks [7.3]."""
    pid = action.args.get("piece")
    if not isinstance(pid, str) or pid not in state.pieces:
        raise IllegalAction("Name one of your units to put on top of its stack [7.3].")
    p = state.piece(pid)
    if p.side != action.side or not _on_map(p.location) or not units.is_ground(game, p):
        raise IllegalAction("Only your own ground units on a map hex can go on top [7.3].")
    tops: FrozenMap[str, str] = state.var(V_STACK_TOP, FrozenMap())
    state = state.with_var(V_STACK_TOP, tops.set(p.location, p.id))
    ev = Event("info", f"{name(p)} is put on top of the stack at {p.location} [7.3]", p.side,
               "7.3", private_to=p.side)
    return Outcome(state, (ev,))


# --- what must never leak (invariants) ---------------------------------------------------------

def _named(ids: Iterable[str], value: Any) -> set[str]:
    """Which of `ids` appear as whole words anywhere in `value` (its repr: strings,
    tuples, maps and dataclasses alike)."""
    ids = sorted(ids, key=len, reverse=True)
    if not ids:
        return set()
    pattern = re.compile(r"(?<![\w.])(" + "|".join(map(re.escape, ids)) + r")(?!\w)")
    return set(pattern.findall(repr(value)))


def leaks(game: Game, state: GameState, side: str, seen_view: GameState,
          shown: Any) -> list[str]:
    """Identifying data of units hidden from `side` found in its view or in what it is
    shown (`shown`: its prompt) [7.3, 2.12]."""
    out: list[str] = []
    under = [p.id for ps in hidden_from(game, state, side).values() for p in ps]
    in_view = _named(under, (seen_view.vars, seen_view.frames))
    in_prompt = _named(under, shown)
    for pid in under:
        if pid in seen_view.pieces or pid in in_view:
            out.append(f"{side} can read the id of hidden {pid} [7.3]")
        if pid in in_prompt:
            out.append(f"{side}'s prompt names hidden {pid} [7.3]")
    for p in seen_view.pieces.values():
        if p.id.startswith(PREFIX) and (p.type != UNKNOWN_TYPE or p.attrs != placeholder(
                p.location, 0, p.side).attrs):
            out.append(f"placeholder {p.id} carries identifying data [7.3]")
    if V_UNTRIED in seen_view.vars:
        out.append(f"{side} can read the untried fronts [2.12]")
    for p in seen_view.pieces.values():
        if hidden.is_untried(p) and ("name" in p.attrs or "values" in p.attrs
                                     or p.attrs.get("factors") != hidden.UNKNOWN):
            out.append(f"{side} can read untried {p.id}'s front [2.12]")
    return out


CHECK_EVERY = 3  # invariants: every 3rd state (by serial): ~3.6 ms a check, ~1.2 ms a state


def problems(game: Game, state: GameState, every: int = CHECK_EVERY) -> list[str]:
    """[7.3, 2.12] Hidden information never leaks into another side's view or prompt."""
    if state.serial % every:
        return []
    out: list[str] = []
    for s in game.definition.sides:
        p = prompt(game, state, s.id)
        out.extend(leaks(game, state, s.id, view(game, state, s.id), p))
    return out
