"""The 1940: What If? bot under fog of war [7.3] (issue 7): it decides from its side's view
(bot_view.view), where each unit beneath the top of an enemy stack is an anonymous
placeholder counted as a stand-in (the side's most numerous ground type, full strength;
the Soviet regular army face down, its type's typical 4-5 [2.12]).

Two real states that differ only in what lies beneath an enemy top give the bot the same
view and so the same decision; a bot reading the real state would decide differently.
Expected odds by hand from the odds ladder [11.3] (defender's fractions dropped)."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import pytest
from w40_helpers import AIR, base, board, game, goto, plain, put

from wartable.core.frozen import FrozenMap
from wartable.engine.session import Session
from wartable.games.whatif1940 import bot, bot_eval, bot_view, fog, supply
from wartable.games.whatif1940.ids import EAST, GERMAN, SOVIET, USSR, V_AIR_USED
from wartable.games.whatif1940.steps import combat
from wartable.model.state import GameState

G = game()
B = board()
INF = [f"german.ger_infantry.{i}" for i in range(1, 4)]
TOP, UNDER = "soviet.sov_regular.1", "soviet.sov_regular.2"


@cache
def _open_target() -> str:
    """A plain USSR hex in German supply whose neighbours are plain, in supply, of the USSR
    and cross no hexside feature: no terrain or river shift [11.8]."""
    probe = put(base(), INF[0], "4725")
    sup = supply.supplied_hexes(G, B, probe, probe.piece(INF[0]))
    for t in B.labels(EAST):
        ns = B.neighbors[t]
        if B.hex(t).region == USSR and plain(t) and t in sup and len(ns) == 6 and all(
                plain(n) and n in sup and B.hex(n).region == USSR
                and not B.side_features(t, n) for n in ns):
            return t
    raise AssertionError("no open hex")


def position(under: tuple[int, int] | None) -> tuple[GameState, str]:
    """The German east combat step (no aircraft left): three German infantry corps (5
    attack each = 15) in two adjacent neighbouring hexes (not concentric [11.10]) of a
    Soviet stack whose top is a face-up 4-5 regular; beneath it a face-up regular with the
    factors `under` (None: the top is alone)."""
    t = _open_target()
    n = B.neighbors[t]
    s = put(base(), TOP, t, untried=False, factors=(4, 5))
    if under is not None:
        s = put(s, UNDER, t, untried=False, factors=under)
    s = put(put(put(s, INF[0], n[0]), INF[1], n[0]), INF[2], n[1])
    s = s.with_var(fog.V_STACK_TOP, FrozenMap({t: TOP}))
    s = goto(s, "german_east_combat_e", 2).with_var(V_AIR_USED, AIR)
    return s, t


def session_at(s: GameState) -> Session:
    return replace(Session.start(G, "standard", seed=1), state=s)


def test_7_3_the_view_shows_the_height_of_a_stack_but_nothing_beneath_the_top() -> None:
    weak, t = position((2, 2))
    strong, _ = position((4, 10))
    v1, v2 = bot_view.view(G, weak, GERMAN), bot_view.view(G, strong, GERMAN)
    assert v1 == v2  # the bot's whole input is the same
    assert UNDER in bot_view.hidden_ids(G, weak, GERMAN)
    assert UNDER not in v1.pieces and TOP in v1.pieces  # the top shows as it is [7.3]
    there = [p for p in v1.pieces_at(t) if p.side == SOVIET]
    assert len(there) == 2  # the height shows
    (est,) = [p for p in there if p.id != TOP]
    assert est.id.startswith(fog.PREFIX) and est.type == "sov_regular"  # the stand-in
    assert v1.piece(INF[0]) == weak.piece(INF[0])  # own units: the same ids and values


def test_7_3_a_hidden_unit_counts_as_a_typical_soviet_regular_4_5() -> None:
    """Alone, the 4-5 top: 15:5 = 3:1. With one unit beneath, whatever it is, the bot counts
    5 + 5 (the stand-in's typical defence) = 10: 15:10 = 1.5, rounded for the defender to
    1:1 [11.3]."""
    alone, t = position(None)
    a = bot_eval.evaluate_attack(G, B, bot_view.view(G, alone, GERMAN), GERMAN, t,
                                 tuple(INF))
    assert a is not None and a.column == "3-1"
    for under in ((2, 2), (4, 10)):
        s, _ = position(under)
        e = bot_eval.evaluate_attack(G, B, bot_view.view(G, s, GERMAN), GERMAN, t,
                                     tuple(INF))
        assert e is not None and e.column == "1-1"


@pytest.mark.parametrize("level", ["fast", "strong"])
def test_7_3_states_differing_only_beneath_the_top_get_the_same_bot_decision(
        level: str) -> None:
    weak, t = position((2, 2))  # really 15:7 = 2:1 (the bot's minimum for an attack)
    strong, _ = position((4, 10))  # really 15:15 = 1:1
    # A bot reading the real state would attack the weak stack and not the strong one:
    real_weak = bot_eval.attack_options(G, B, weak, GERMAN, EAST, level)
    real_strong = bot_eval.attack_options(G, B, strong, GERMAN, EAST, level)
    assert [(a.target, a.column) for a in real_weak] == [(t, "2-1")]
    assert real_strong == []
    # The bot sees the same stack (height 2, a 4-5 on top) and decides the same.
    r1 = bot.ranked(session_at(weak), level)
    r2 = bot.ranked(session_at(strong), level)
    assert r1 == r2
    assert r1[0][0].verb == "end_step"  # 1:1 on what it may see: no attack [11.3, 7.3]
    assert all(a.verb != combat.VERB for a, _ in r1)


@pytest.mark.parametrize("level", ["fast", "strong"])
def test_7_3_the_bot_moves_the_same_whatever_lies_beneath_an_enemy_top(level: str) -> None:
    """The same two positions in the German east movement step (turn 2): the bot's moves
    are the same, whatever the hidden regular is [7.3]."""
    weak, _ = position((2, 2))
    strong, _ = position((4, 10))
    weak, strong = (goto(s, "german_east_move_e", 2) for s in (weak, strong))
    r1 = bot.ranked(session_at(weak), level)
    r2 = bot.ranked(session_at(strong), level)
    assert r1 == r2
    assert r1[0][0].verb == "move"
