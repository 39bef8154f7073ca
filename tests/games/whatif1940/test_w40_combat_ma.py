"""Mobile assaults [10.15-10.24]: who, where, the MP cost, the launch hex, supply, and what
success and failure do; resolved like prepared assaults (shared with test_w40_combat)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_w40_combat import (
    AIR,
    INF,
    PZ,
    RING,
    SUP,
    TGT,
    USSR,
    B,
    G,
    base,
    plain,
    roll_for,
    sov,
)
from w40_helpers import act, do, goto, moves, put

from wartable.core.errors import IllegalAction
from wartable.engine.loop import prompt
from wartable.games.whatif1940.ids import A_DONE, A_MP_USED, EAST, V_AIR_USED, V_PLOESTI, WEST
from wartable.games.whatif1940.steps import combat, mobile_assault
from wartable.model.state import GameState

STEP = "german_east_move_d"


def moving(s: GameState, turn: int = 2) -> GameState:
    s = goto(s, STEP, turn)
    s = s.with_var(V_AIR_USED, AIR)
    return replace(s, dice_mode="physical")


def ma(s: GameState, pieces: list[str], target: str) -> GameState:
    return act(s, mobile_assault.VERB, "german", pieces=tuple(pieces), target=target)


def result(s: GameState, res: str) -> GameState:
    fr = s.top_frame
    assert fr is not None and fr.kind == "dice"
    column = str(fr.data["purpose"]).split("(")[1].rstrip(")").replace(":", "-")
    return act(s, "dice", "german", values=(roll_for(column, res),))


def why(s: GameState, pieces: list[str], target: str) -> str:
    return mobile_assault.why_not(G, B, s, tuple(s.piece(i) for i in pieces), target, STEP)


def test_10_15_a_panzer_ma_costs_twice_the_entry_cost_and_the_victor_moves_on() -> None:
    s = moving(sov(put(base(), PZ[0], RING[0]), 1, TGT, 1, 1))
    labels = [b.label for b in prompt(G, s).buttons if b.id == mobile_assault.VERB]
    # Clear terrain: 2 x 1 MP; 8:1 is 5:1 (the label shows the odds before air support).
    assert any(f"{RING[0]} → {TGT} (2 MP, 5:1 before air)" in x for x in labels)
    s = ma(s, [PZ[0]], TGT)
    s = result(s, "DE")  # 8:1 -> 5:1
    p = s.piece(PZ[0])
    assert p.location == TGT and p.attrs.get(A_MP_USED) == 2.0  # [10.20]
    assert moves(s, PZ[0])  # it may keep moving with its remaining MP
    assert "already made its mobile assault" in why(s, [PZ[0]], RING[3])


def test_10_19_a_failed_ma_leaves_the_survivors_in_the_launch_hex_and_stops_them() -> None:
    s = moving(sov(put(base(), PZ[0], RING[0]), 1, TGT, 1, 20))  # 8:20 = 1:3
    s = ma(s, [PZ[0]], TGT)
    s = result(s, "AS")
    p = s.piece(PZ[0])
    assert p.location == RING[0] and p.attrs.get(A_DONE)
    assert PZ[0] not in prompt(G, s).moves


def test_10_15_only_panzers_and_never_after_ploesti() -> None:
    s = moving(sov(put(put(base(), PZ[0], RING[0]), INF[0], RING[1]), 1, TGT, 1, 1))
    assert "may not mobile assault" in why(s, [INF[0]], TGT)
    assert why(s, [PZ[0]], TGT) == ""
    assert "may not mobile assault" in why(s.with_var(V_PLOESTI, True), [PZ[0]], TGT)
    with pytest.raises(IllegalAction, match=r"\[10.15"):
        ma(s, [INF[0]], TGT)


def test_10_18_only_units_that_began_the_phase_together_assault_together() -> None:
    s = moving(sov(put(put(base(), PZ[0], RING[0]), PZ[1], RING[1]), 1, TGT, 1, 1))
    s = act(s, "move", "german", piece=PZ[1], to=RING[0])
    assert "began the phase stacked together" in why(s, [PZ[0], PZ[1]], TGT)


def test_10_16_no_ma_into_marsh_or_a_semi_permanent_fort_or_without_the_mp() -> None:
    a, m = next((a, t) for t in B.labels(EAST) if B.hex(t).terrain == "marsh"
                and B.hex(t).region == USSR for a in B.neighbors[t]
                if plain(a) and a in SUP and not B.side_features(a, t))
    s = moving(sov(put(base(), PZ[0], a), 1, m, 1, 1))
    assert "marsh [10.16]" in why(s, [PZ[0]], m)
    s = moving(put(sov(put(base(), PZ[0], RING[0]), 1, TGT, 1, 1), "soviet.sov_fort.1", TGT))
    assert "semi-permanent fort [9.8]" in why(s, [PZ[0]], TGT)
    s = moving(sov(put(base(), PZ[0], RING[0]), 1, TGT, 1, 1))
    s = s.with_piece(s.piece(PZ[0]).with_attr(A_MP_USED, 11.0))  # 1 MP left of 12
    assert "costs 2 MP and the force has 1 left" in why(s, [PZ[0]], TGT)


def test_10_23_no_ma_across_a_major_river_and_one_column_left_across_a_river() -> None:
    a, t = next((a, t) for t in B.labels(EAST) if plain(t) and B.hex(t).region == USSR
                for a in B.neighbors[t] if plain(a) and a in SUP
                and set(B.side_features(a, t)) == {"major_river"})
    s = moving(sov(put(base(), PZ[0], a), 1, t, 1, 1))
    assert "major river [10.23]" in why(s, [PZ[0]], t)
    a, t = next((a, t) for t in B.labels(EAST) if plain(t) and B.hex(t).region == USSR
                for a in B.neighbors[t] if plain(a) and a in SUP
                and set(B.side_features(a, t)) == {"river"})
    s = moving(sov(put(base(), PZ[0], a), 1, t, 1, 4))
    assert why(s, [PZ[0]], t) == ""
    out = do(s, mobile_assault.VERB, "german", pieces=(PZ[0],), target=t)
    line = next(e for e in out.events if e.text.startswith("MA "))
    assert "-1 all attackers cross a river [10.23]" in line.text
    assert "(1:1)" in str(out.state.top_frame.data["purpose"])  # type: ignore[union-attr]


def test_10_22_ma_into_a_printed_fortification_costs_twice_plus_one() -> None:
    # The east map prints no forts: a top-rung British tank corps in France against a West
    # Wall fort in clear terrain pays 2 x 1 + 1 = 3.
    a, t = next((a, t) for t in B.labels(WEST) if B.hex(t).fortified
                and B.hex(t).region == "Greater Germany" and B.hex(t).terrain == "clear"
                and not B.hex(t).city for a in B.neighbors[t]
                if B.hex(a).region == "France" and B.hex(a).terrain == "clear"
                and not B.hex(a).city and not {"river", "major_river"} & B.side_features(a, t))
    tank = "anglo_french.brit_tank_top.1"
    s = put(base(), tank, a)
    assert mobile_assault.eligible(G, s, s.piece(tank))  # top rung [9.3, 10.15]
    assert mobile_assault.cost(G, B, s, (s.piece(tank),), a, t) == 2 * 1 + 1


def test_10_17_no_ma_without_a_regular_supply_line_at_the_launch_hex() -> None:
    far = next(h for h in B.labels(EAST) if h not in SUP and plain(h) and B.hex(h).region == USSR
               and any(plain(n) and not B.side_features(h, n) for n in B.neighbors[h]))
    t = next(n for n in B.neighbors[far] if plain(n) and not B.side_features(far, n))
    s = moving(sov(put(base(), PZ[0], far), 1, t, 1, 1))
    reason = why(s, [PZ[0]], t)
    assert "[6.7]" in reason or "[10.17]" in reason


def test_11_10_an_ma_never_gets_the_concentric_bonus() -> None:
    s = moving(sov(put(put(base(), PZ[0], RING[0]), PZ[1], RING[0]), 1, TGT, 2, 16))
    out = do(s, mobile_assault.VERB, "german", pieces=(PZ[0], PZ[1]), target=TGT)
    line = next(e for e in out.events if e.text.startswith("MA "))
    assert "11.10" not in line.text and combat.battle(out.state)["kind"] == "MA"
