"""What the 1940: What If? bot may know [7.3] (issue 7): it decides from its side's view,
the fogged state the app shows that side (`fog.view`), never from the real state.

In that view each enemy unit beneath the top of a stack is an anonymous placeholder
[7.3]. The bot counts each as a stand-in: a counter of the enemy side's most numerous
ground type in the counter mix the side can see (the German infantry corps 5-6, the
French corps 4-5, the Soviet regular army), at full strength, face down if that type is
untried [2.12] (so its type's typical value counts). A stack's height shows on a real
table; its hidden units are estimated at the typical line unit of that side (ours: the
rules give no estimate; the player's own guess in the game). Aircraft, markers and the
top unit show as they are; the units a combat has examined stay shown [7.3].

The stand-ins keep the placeholders' ids, sides and hexes, so own units (same ids in
both) are moved and committed as in the real state, and every action is checked on the
real state by the engine.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from wartable.core.frozen import FrozenMap
from wartable.engine.rules import Game
from wartable.games.whatif1940 import fog, hidden, units
from wartable.games.whatif1940.ids import A_UNTRIED
from wartable.model.state import GameState, Piece

_LAST: list[tuple[GameState, str, GameState]] = []  # the last view worked out (per action)


def stand_in_type(game: Game, seen: GameState, side: str) -> str:
    """The side's most numerous ground unit type among the counters `seen` shows (the
    whole counter mix, dead pile and pools included; ties: the first id)."""
    count = Counter(p.type for p in seen.pieces.values()
                    if p.side == side and p.type != fog.UNKNOWN_TYPE
                    and units.is_ground(game, p) and not units.is_static(game, p))
    if not count:
        raise ValueError(f"No ground unit type of {side!r} to estimate hidden units with")
    return min(count, key=lambda t: (-count[t], t))


def stand_in(game: Game, placeholder: Piece, type_: str) -> Piece:
    """The estimate of one hidden unit: a full-strength counter of `type_` [7.3]; face
    down (typical value) when the type is untried [2.12]."""
    ut = game.definition.unit_types[type_]
    if ut.extra.get("untried"):
        attrs = FrozenMap({A_UNTRIED: True, "factors": hidden.UNKNOWN})
    else:
        attrs = FrozenMap({"factors": (int(ut.factors[0]), int(ut.factors[1]))})
    return replace(placeholder, type=type_, attrs=attrs)


def estimated(game: Game, seen: GameState) -> GameState:
    """The fogged view with each placeholder replaced by its stand-in."""
    holders = [p for p in seen.pieces.values() if p.type == fog.UNKNOWN_TYPE]
    if not holders:
        return seen
    types = {s: stand_in_type(game, seen, s) for s in {p.side for p in holders}}
    pieces = FrozenMap({pid: (stand_in(game, p, types[p.side])
                              if p.type == fog.UNKNOWN_TYPE else p)
                        for pid, p in seen.pieces.items()})
    return replace(seen, pieces=pieces)


def view(game: Game, state: GameState, side: str) -> GameState:
    """What `side`'s bot decides from: its fogged view [7.3, 2.12], hidden units estimated.
    (The last one is kept: the bot asks again for each proposal of one decision.)"""
    for s, sd, v in _LAST:
        if s is state and sd == side:
            return v
    v = estimated(game, fog.view(game, state, side))
    _LAST[:] = [(state, side, v)]
    return v


def hidden_ids(game: Game, state: GameState, side: str) -> frozenset[str]:
    """The real ids `side` may not see (for tests and checks: the bot never reads them)."""
    return frozenset(p.id for ps in fog.hidden_from(game, state, side).values() for p in ps)
