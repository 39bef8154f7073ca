"""Fog of war [7.3]: neither player may examine the units beneath the top unit of an enemy
stack until a combat resolution begins for it; then the attack may not be called off.
Untried Soviet fronts stay hidden from both sides [2.12].

Each test puts the exact stack on an emptied east map and reads what each side is shown:
its view (`rules.view`), its prompt, and the odds preview."""

from __future__ import annotations

from dataclasses import replace

import pytest
from w40_helpers import (
    AIR,
    act,
    base,
    board,
    do,
    game,
    goto,
    plain,
    put,
    ready_default,
)

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.loop import prompt
from wartable.games.whatif1940 import fog
from wartable.games.whatif1940.ids import EAST, USSR, V_AIR_USED
from wartable.games.whatif1940.steps import combat_odds
from wartable.model.state import GameState

G = game()
B = board()
PZ = "german.ger_panzer.1"
INF = "german.ger_infantry.1"
INF2 = "german.ger_infantry.2"


def open_hex() -> str:
    """A clear USSR hex whose six neighbours are clear USSR hexes with no hexside features."""
    for t in B.labels(EAST):
        ns = B.neighbors[t]
        if B.hex(t).region == USSR and plain(t) and len(ns) == 6 and all(
                plain(n) and B.hex(n).region == USSR and not B.side_features(t, n)
                for n in ns):
            return t
    raise AssertionError("no such hex")


TGT = open_hex()
NEXT = sorted(B.neighbors[TGT])


def sov(s: GameState, i: int, where: str, a: int, d: int) -> GameState:
    """A face-up Soviet regular with known factors."""
    return put(s, f"soviet.sov_regular.{i}", where, untried=False, factors=(a, d))


def at_hex(s: GameState, side: str, where: str) -> list:  # type: ignore[type-arg]
    return [p for p in G.rules.view(G, s, side).pieces.values() if p.location == where]


def last_in_state_order(s: GameState, ids: list[str]) -> str:
    order = list(s.pieces)
    return max(ids, key=order.index)


# --- what each side sees ---------------------------------------------------------------------

def test_7_3_enemy_sees_only_top_unit_of_stack() -> None:
    s = put(put(put(base(), PZ, TGT), INF, TGT), INF2, TGT)
    top = last_in_state_order(s, [PZ, INF, INF2])  # the documented default top
    seen = at_hex(s, "soviet", TGT)
    assert len(seen) == 3  # the height of the stack shows, as on a table
    shown = [p for p in seen if not p.id.startswith(fog.PREFIX)]
    assert [p.id for p in shown] == [top]
    assert seen[-1].id == top  # drawn on top
    for p in seen[:-1]:
        # Anonymous: an opaque id, no type, name, values or steps.
        assert p.type == fog.UNKNOWN_TYPE and p.side == "german"
        assert "panzer" not in p.id and "infantry" not in p.id
        assert dict(p.attrs) == {"name": fog.HIDDEN_NAME, "factors": "?"}
    # The Anglo-French (the Soviets' ally [4.1]) see no more than the Soviets.
    assert [p.id for p in at_hex(s, "anglo_french", TGT)
            if not p.id.startswith(fog.PREFIX)] == [top]


def test_7_3_hidden_ids_are_renamed_in_the_views_vars_too() -> None:
    s = put(put(base(), PZ, TGT), INF, TGT)
    top = last_in_state_order(s, [PZ, INF])
    under = INF if top == PZ else PZ
    s = s.with_var("combat_phase", FrozenMap(attacked=(under, "soviet.sov_regular.9")))
    v = G.rules.view(G, s, "soviet")
    assert under not in repr(v.vars) and under not in v.pieces
    assert fog.leaks(G, s, "soviet", v, prompt(G, s, "soviet")) == []


def test_7_3_own_stack_fully_visible() -> None:
    s = sov(sov(put(put(base(), PZ, TGT), INF, TGT), 1, NEXT[0], 4, 5), 2, NEXT[0], 2, 3)
    ger = at_hex(s, "german", TGT)
    assert {p.id for p in ger} == {PZ, INF}
    assert all(p.type != fog.UNKNOWN_TYPE for p in ger)
    assert {p.id for p in at_hex(s, "soviet", NEXT[0])} == {"soviet.sov_regular.1",
                                                             "soviet.sov_regular.2"}
    # Allies see each other's stacks [1.3, 4.1].
    assert {p.id for p in at_hex(s, "anglo_french", NEXT[0])} == {"soviet.sov_regular.1",
                                                                   "soviet.sov_regular.2"}


def test_7_3_a_lone_unit_is_its_own_top() -> None:
    s = put(base(), PZ, TGT)
    assert [p.id for p in at_hex(s, "soviet", TGT)] == [PZ]


def test_7_3_owner_puts_a_unit_on_top() -> None:
    s = goto(put(put(base(), PZ, TGT), INF, TGT), "german_east_move_d", 2)
    for choice, other in ((PZ, INF), (INF, PZ)):
        out = do(s, fog.VERB, "german", piece=choice)
        seen = at_hex(out.state, "soviet", TGT)
        assert seen[-1].id == choice and other not in {p.id for p in seen}
        ev = out.events[-1]
        assert ev.rule == "7.3" and ev.private_to == "german"  # the log keeps it to himself
    with pytest.raises(IllegalAction):
        do(s, fog.VERB, "german", piece="soviet.sov_regular.1")  # not his unit
    # Moving the chosen unit away: the choice goes with it (the rest keep their order).
    moved = put(act(s, fog.VERB, "german", piece=PZ), PZ, NEXT[1])
    assert [p.id for p in at_hex(moved, "soviet", TGT)] == [INF]


def test_7_3_fog_off_shows_everything_and_needs_no_curtain() -> None:
    s = put(put(base(), PZ, TGT), INF, TGT)
    assert G.rules.hidden_information(G, s)  # on by default: the hotseat curtain
    off = replace(s, options=s.options.set(fog.OPTION, False))
    assert not G.rules.hidden_information(G, off)
    assert {p.id for p in at_hex(off, "soviet", TGT)} == {PZ, INF}


def test_7_3_untried_fronts_stay_hidden_from_both_sides() -> None:
    s = ready_default()
    untried = [p for p in s.pieces.values() if p.attrs.get("untried")]
    assert untried
    for side in ("german", "soviet", "anglo_french"):
        v = G.rules.view(G, s, side)
        assert "untried" not in v.vars  # [2.12] the fronts are nobody's to read
        for p in untried:
            if p.id in v.pieces:
                assert "name" not in v.pieces[p.id].attrs
                assert v.pieces[p.id].attrs["factors"] == "?"


# --- the stack check at combat resolution ----------------------------------------------------

def fight(s: GameState) -> GameState:
    s = goto(s, "german_east_combat_e", 2)
    s = s.with_var(V_AIR_USED, AIR)  # no air support frames
    return replace(s, dice_mode="physical")


def soviet_stack(s: GameState) -> GameState:
    return sov(sov(s, 1, TGT, 4, 2), 2, TGT, 2, 6)


def test_7_3_attack_reveals_stack_at_resolution() -> None:
    s = fight(soviet_stack(put(put(base(), PZ, NEXT[0]), INF, NEXT[1])))
    top = last_in_state_order(s, ["soviet.sov_regular.1", "soviet.sov_regular.2"])
    under = ({"soviet.sov_regular.1", "soviet.sov_regular.2"} - {top}).pop()
    assert under not in {p.id for p in at_hex(s, "german", TGT)}
    out = do(s, "attack", "german", target=TGT, attackers=(PZ, INF))
    assert out.revealed  # an undo barrier: the stack has been examined [7.3]
    assert out.state.top_frame is not None and out.state.top_frame.kind == "dice"
    seen = at_hex(out.state, "german", TGT)
    assert {p.id for p in seen} == {top, under}  # both shown, as themselves
    # The attack is committed: the CRT roll is all that is left (no button calls it off).
    assert prompt(G, out.state, "german").buttons == ()


def test_7_3_a_moved_examined_unit_is_hidden_again() -> None:
    s = fight(soviet_stack(put(put(base(), PZ, NEXT[0]), INF, NEXT[1])))
    out = do(s, "attack", "german", target=TGT, attackers=(PZ, INF))
    st = out.state
    # Both defenders leave for a hex where a third Soviet army stands on top of them.
    st = put(put(st, "soviet.sov_regular.1", NEXT[3]), "soviet.sov_regular.2", NEXT[3])
    st = sov(st, 3, NEXT[3], 1, 1)
    st = st.with_var(fog.V_STACK_TOP, FrozenMap({NEXT[3]: "soviet.sov_regular.3"}))
    seen = at_hex(st, "german", NEXT[3])
    assert [p.id for p in seen if not p.id.startswith(fog.PREFIX)] == ["soviet.sov_regular.3"]
    assert len(seen) == 3


def test_7_3_defender_sees_the_attacking_units() -> None:
    s = fight(soviet_stack(put(put(put(base(), PZ, NEXT[0]), INF, NEXT[0]), INF2, NEXT[0])))
    hidden_before = {p.id for p in at_hex(s, "soviet", NEXT[0])}
    assert len(hidden_before & {PZ, INF, INF2}) == 1
    out = do(s, "attack", "german", target=TGT, attackers=(PZ, INF, INF2))
    assert {PZ, INF, INF2} <= {p.id for p in at_hex(out.state, "soviet", NEXT[0])}


def test_7_3_preview_shows_only_known_strength() -> None:
    # Top: a 4-2 army; beneath it a 2-6. Panzer 8 + infantry 5 = 13.
    s = soviet_stack(put(put(base(), PZ, NEXT[0]), INF, NEXT[1]))
    s = s.with_var(fog.V_STACK_TOP, FrozenMap({TGT: "soviet.sov_regular.1"}))
    pv = combat_odds.preview(G, B, s, [PZ, INF], TGT)
    assert pv is not None
    assert (pv.attack, pv.defense, pv.hidden_defenders) == (13, 2, 1)  # 13:2 -> 6:1
    assert pv.odds.raw_column == "6-1"
    assert [x.piece for x in pv.defense_parts] == ["soviet.sov_regular.1"]
    assert "hidden beneath the top" in pv.text() and "[7.3]" in pv.text()
    # Once committed the true odds count both: 13:8 -> 1:1.
    true = combat_odds.compute(G, B, s, [s.piece(PZ), s.piece(INF)], TGT)
    assert (true.defense, true.odds.raw_column, true.hidden_defenders) == (8, "1-1", 0)
    # After the stack check the preview shows everything the attacker now knows.
    s2, _ = fog.examine(s, "german", [s.piece("soviet.sov_regular.2")])
    pv2 = combat_odds.preview(G, B, s2, [PZ, INF], TGT)
    assert pv2 is not None and (pv2.defense, pv2.hidden_defenders) == (8, 0)


def test_7_3_fog_off_preview_is_the_true_odds() -> None:
    s = soviet_stack(put(put(base(), PZ, NEXT[0]), INF, NEXT[1]))
    s = replace(s, options=s.options.set(fog.OPTION, False))
    pv = combat_odds.preview(G, B, s, [PZ, INF], TGT)
    assert pv is not None and (pv.defense, pv.hidden_defenders) == (8, 0)


# --- the leak invariant -------------------------------------------------------------------------

def test_7_3_the_leak_invariant_can_fail() -> None:
    s = put(put(base(), PZ, TGT), INF, TGT)
    top = last_in_state_order(s, [PZ, INF])
    under = INF if top == PZ else PZ
    assert fog.problems(G, s) == []
    # A view that forgot the fog: the hidden unit's id is readable.
    raw = G.rules.view(G, replace(s, options=s.options.set(fog.OPTION, False)), "soviet")
    assert any(under in x for x in fog.leaks(G, s, "soviet", raw, ()))
    # A prompt naming it.
    v = G.rules.view(G, s, "soviet")
    assert any("prompt" in x for x in fog.leaks(G, s, "soviet", v, f"Attack {under}."))
    # A view with the untried fronts in it.
    u = ready_default()
    assert any("2.12" in x for x in fog.leaks(G, u, "german", u, ()))


def test_7_3_moves_are_logged_only_for_the_mover() -> None:
    s = goto(put(base(), INF, TGT), "german_east_move_d", 2)
    to = sorted(prompt(G, s).moves[INF])[0]
    out = do(s, "move", "german", piece=INF, to=to)
    moves = [e for e in out.events if e.kind == "move"]
    assert moves and all(e.private_to == "german" for e in moves)
    assert not any(e.visible_to(frozenset({"soviet", "anglo_french"})) for e in moves)
    off = replace(s, options=s.options.set(fog.OPTION, False))
    out = do(off, "move", "german", piece=INF, to=to)
    assert all(e.private_to == "" for e in out.events if e.kind == "move")
