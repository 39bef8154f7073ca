"""Prepared assaults [11.1-11.21]: odds, shifts, results, retreats, garrisons, air support
[8.4], combat supply [6.7], the GAST [6.11] and Former Poland [6.12].

Each test sets up the exact situation on the real maps (an empty board, then the units the
rule needs), plays the combat step through the engine with physical dice (so the roll is
the test's), and checks the outcome. CRT results are read from our provisional table by
result, so a test names the result it needs, not a die face."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from w40_helpers import AIR, act, base, board, do, game, goto, plain, put

from wartable.core.errors import IllegalAction
from wartable.engine.loop import prompt
from wartable.games.whatif1940 import air, supply
from wartable.games.whatif1940.ids import (
    A_STEP,
    DEAD,
    EAST,
    FIGHT_MOVE,
    FORMER_POLAND,
    USSR,
    V_AIR_USED,
    V_EAST_ORDER,
    WEST,
)
from wartable.games.whatif1940.steps import combat, combat_odds, combat_table, control
from wartable.maps.model import HexMap
from wartable.model.state import GameState

G = game()
B = board()
T = combat_table.tables_of(G)


INF = [f"german.ger_infantry.{i}" for i in range(1, 10)]
PZ = [f"german.ger_panzer.{i}" for i in range(1, 6)]


def _german_supply() -> frozenset[str]:
    probe = put(base(), INF[0], "4725")
    return supply.supplied_hexes(G, B, probe, probe.piece(INF[0]))


SUP = _german_supply()  # east hexes where a German corps is in supply on an empty map


def open_hex(region: str) -> str:
    """A plain hex of `region` in German supply whose six neighbours are plain hexes of
    `region` in German supply, with no hexside features."""
    for t in B.labels(EAST):
        ns = B.neighbors[t]
        if B.hex(t).region == region and plain(t) and t in SUP and len(ns) == 6 and all(
                plain(n) and n in SUP and B.hex(n).region == region
                and not B.side_features(t, n) for n in ns):
            return t
    raise AssertionError("no such hex")


TGT = open_hex(USSR)


def delta(a: str, b: str) -> tuple[int, int]:
    m = G.maps[B.hex(a).map_id]
    assert isinstance(m, HexMap)
    ha, hb = m.hex_of(a), m.hex_of(b)
    return ha.q - hb.q, ha.r - hb.r


def around(t: str) -> list[str]:
    """The six neighbours of t in turning order (each next to the one before)."""
    ns = list(B.neighbors[t])
    ring = [ns[0]]
    while len(ring) < 6:
        ring.append(next(n for n in ns if n not in ring and n in B.neighbors[ring[-1]]))
    return ring


RING = around(TGT)  # RING[i] and RING[i+3] are opposite; RING[0], [2], [4] alternate


def sov(s: GameState, i: int, where: str, a: int = 4, d: int = 5) -> GameState:
    """A face-up Soviet regular with known factors."""
    return put(s, f"soviet.sov_regular.{i}", where, untried=False, factors=(a, d))


def at(s: GameState, step: str = "german_east_combat_e", turn: int = 2,
       air_free: tuple[str, ...] = ()) -> GameState:
    """Enter a combat step with physical dice; every aircraft has flown except air_free."""
    s = goto(s, step, turn)
    s = s.with_var(V_AIR_USED, tuple(a for a in AIR if a not in air_free))
    return replace(s, dice_mode="physical")


def roll_for(column: str, result: str) -> int:
    return T.row(column).index(result) + 1


def attack(s: GameState, target: str, attackers: list[str], side: str = "german") -> GameState:
    return act(s, "attack", side, target=target, attackers=tuple(attackers))


def roll(s: GameState, value: int) -> GameState:
    fr = s.top_frame
    assert fr is not None and fr.kind == "dice", fr
    return act(s, "dice", fr.side, values=(value,))


def odds(s: GameState, attackers: list[str], target: str, **kw: Any) -> combat_odds.OddsPreview:
    return combat_odds.compute(G, B, s, [s.piece(i) for i in attackers], target, **kw)


# --- the CRT as data [11.3, 11.14] ---------------------------------------------------------

def test_11_3_crt_data_is_provisional_with_columns_1_3_to_5_1() -> None:
    assert T.provisional and "PROVISIONAL" in T.note
    assert T.ladder.columns == ("1-3", "1-2", "1-1", "2-1", "3-1", "4-1", "5-1")
    assert all(len(T.row(c)) == 6 for c in T.ladder.columns)


def test_11_3_bad_crt_data_fails_with_a_clear_error() -> None:
    from wartable.core.errors import DataError
    from wartable.core.frozen import FrozenMap

    tables = G.definition.tables
    bad = tables.set("combat", tables["combat"].set(
        "crt", tables["combat"]["crt"].set("2-1", ("AS", "XX", "DE", "DE", "DE", "DE"))))
    with pytest.raises(DataError, match=r"combat\.crt\.2-1\[1\].*'XX' is not a result"):
        combat_table.read(bad)
    short = tables.set("gast", FrozenMap(tables["gast"]).set("results", (0, 0)))
    with pytest.raises(DataError, match="must give 6 results"):
        combat_table.read(short)
    legend = dict(tables["combat"]["legend"])
    del legend["BB"]  # every result needs its meaning [11.20] for the dice hint
    no_bb = tables.set("combat", tables["combat"].set("legend", FrozenMap(legend)))
    with pytest.raises(DataError, match=r"combat\.legend.*BB"):
        combat_table.read(no_bb)


def test_11_3_odds_round_in_the_defenders_favour_13_to_4_is_3_to_1() -> None:
    # 8 (panzer) + 5 (infantry) = 13 against a 2-4 Soviet army: 3.25 rounds down to 3:1.
    s = sov(put(put(base(), PZ[0], RING[0]), INF[0], RING[1]), 1, TGT, 2, 4)
    pv = odds(s, [PZ[0], INF[0]], TGT)
    assert (pv.attack, pv.defense) == (13, 4)
    assert pv.odds.final_column == "3-1" and pv.odds.shifts == ()
    # 5 against 11 is 1:3 (1:2 would need 5.5).
    s = sov(put(base(), INF[0], RING[0]), 1, TGT, 2, 11)
    assert odds(s, [INF[0]], TGT).odds.final_column == "1-3"


def test_11_14_final_odds_above_5_to_1_resolve_at_5_to_1() -> None:
    # 8 + 8 + 8 = 24 against 2: 12:1, and a hill (2L) still leaves 10:1 -> 5:1.
    s = base()
    for i in range(3):
        s = put(s, PZ[i], RING[i])
    s = sov(s, 1, TGT, 1, 2)
    pv = odds(s, PZ[:3], TGT)
    assert pv.odds.raw_column == "12-1" and pv.odds.final_column == "5-1"
    s = at(s)
    s = attack(s, TGT, PZ[:3])
    assert s.top_frame is not None and s.top_frame.kind == "dice"
    assert "(5:1)" in s.top_frame.data["purpose"]


def test_11_14_shifts_count_on_the_unbounded_ladder_before_the_clamp() -> None:
    # 7:1 with two columns left is 5:1, not 3:1 (the shifts start from 7:1, not from 5:1).
    t = T.ladder.resolve(7, 1, [combat_odds.Shift(-2, "hill", "11.8")])
    assert t.final_column == "5-1"
    t = T.ladder.resolve(13, 1, [combat_odds.Shift(-2, "hill", "11.8")])
    assert t.target_column == "11-1" and t.final_column == "5-1"


def test_11_14_below_1_to_3_is_an_automatic_al1_without_a_roll() -> None:
    # A 3-3 reduced infantry corps against a 4-10 army: 3:10 is below 1:3.
    s = sov(put(base(), INF[0], RING[0], step=2), 1, TGT, 4, 10)
    s = at(s)
    out = do(s, "attack", "german", target=TGT, attackers=(INF[0],))
    assert not any(e.kind == "dice" for e in out.events)
    assert any("automatic AL1" in e.text and e.rule == "11.14" for e in out.events)
    assert out.state.piece(INF[0]).location == DEAD  # its last step [11.16]


# --- limits [11.2, 11.4-11.7] -----------------------------------------------------------------

def test_11_4_each_unit_attacks_once_and_each_hex_is_attacked_once() -> None:
    other = next(n for n in B.neighbors[RING[0]] if n != TGT and n not in B.neighbors[TGT]
                 and plain(n))
    s = sov(sov(put(put(base(), PZ[0], RING[0]), PZ[1], RING[1]), 1, TGT, 1, 1), 2, other, 1, 1)
    s = _fight(at(s), [PZ[0]], "DE")
    if s.top_frame is not None and s.top_frame.kind == combat.F_ADVANCE:
        s = act(s, "advance", "german", piece="")
    with pytest.raises(IllegalAction, match=r"already attacked this phase \[11.4\]"):
        attack(s, other, [PZ[0]])
    s = sov(s, 3, TGT, 1, 1)  # even with new defenders there, the hex was attacked
    with pytest.raises(IllegalAction, match=r"already been attacked this phase \[11.4\]"):
        attack(s, TGT, [PZ[1]])


def test_11_5_attackers_must_be_adjacent_to_the_one_target_hex() -> None:
    far = next(n for n in B.neighbors[RING[0]] if n != TGT and n not in B.neighbors[TGT])
    s = at(sov(put(base(), INF[0], far), 1, TGT))
    with pytest.raises(IllegalAction, match=r"not adjacent .*\[11.5\]"):
        attack(s, TGT, [INF[0]])


def test_11_2_static_units_never_attack() -> None:
    s = put(put(base(), "german.ger_7th_flieger.1", RING[0]), INF[0], RING[1])
    s = at(sov(s, 1, TGT))
    with pytest.raises(IllegalAction, match=r"may not attack .*\[11.1, 11.2\]"):
        attack(s, TGT, ["german.ger_7th_flieger.1"])
    p = prompt(G, s)
    assert "german.ger_7th_flieger.1" not in p.targets["attackers"]
    assert TGT in p.targets["attack"]


def test_11_6_all_defenders_in_the_hex_defend_together() -> None:
    s = sov(sov(put(base(), PZ[0], RING[0]), 1, TGT, 2, 3), 2, TGT, 2, 4)
    pv = odds(s, [PZ[0]], TGT)
    assert pv.defense == 7 and len(pv.defense_parts) == 2


# --- column shifts [11.8-11.10, 5.3, 9.7, 9.8, 6.12, 8.4] ------------------------------------

def _pair_with(pred: Any, feats: set[str], map_id: str = EAST) -> tuple[str, str]:
    for t in B.labels(map_id):
        if not pred(t):
            continue
        for a in B.neighbors[t]:
            if plain(a) and a in SUP and set(B.side_features(a, t)) == feats:
                return a, t
    raise AssertionError("no such hexes")


def hill(h: str) -> bool:
    x = B.hex(h)
    return x.terrain == "hill" and x.region == USSR and not (x.city or x.town or x.fortified)


def test_11_8_defender_in_hill_gets_two_columns_left() -> None:
    a, t = _pair_with(hill, set())
    s = sov(put(base(), PZ[0], a), 1, t, 2, 2)
    pv = odds(s, [PZ[0]], t)
    assert [(x.amount, x.rule) for x in pv.odds.shifts] == [(-2, "11.8")]
    assert pv.odds.raw_column == "4-1" and pv.odds.final_column == "2-1"


def test_11_8_river_shift_only_when_every_attacking_hex_crosses_a_river() -> None:
    a, t = _pair_with(lambda h: plain(h) and B.hex(h).region == USSR, {"river"})
    dry = next(n for n in B.neighbors[t] if plain(n) and not B.side_features(n, t))
    s = sov(put(put(base(), PZ[0], a), PZ[1], dry), 1, t, 1, 4)
    alone = odds(s, [PZ[0]], t).odds.shifts
    assert [(x.amount, x.rule) for x in alone] == [(-1, "11.8")]
    assert "river" in alone[0].reason
    both = odds(s, [PZ[0], PZ[1]], t).odds.shifts
    assert not any(x.rule == "11.8" for x in both)


def test_10_11_a_city_negates_the_river_shift_but_not_a_major_river() -> None:
    a, t = _pair_with(lambda h: B.hex(h).city and not B.hex(h).fortified
                      and B.hex(h).region == USSR, {"river"})
    s = sov(put(base(), PZ[0], a), 1, t, 1, 4)
    reasons = [x.reason for x in odds(s, [PZ[0]], t).odds.shifts]
    assert not any("river" in r for r in reasons) and any("city" in r for r in reasons)
    a, t = _pair_with(lambda h: B.hex(h).city and B.hex(h).region == USSR, {"major_river"})
    s = sov(put(base(), PZ[0], a), 1, t, 1, 4)
    assert any("major river" in x.reason for x in odds(s, [PZ[0]], t).odds.shifts)


def _concentric(hexes: list[str], side: str = "german") -> bool:
    s = base()
    if side == "german":
        for i, h in enumerate(hexes):
            s = put(s, INF[i], h)
        s = sov(s, 1, TGT, 1, 1)
        atk = INF[:len(hexes)]
    else:
        for i, h in enumerate(hexes):
            s = sov(s, i + 1, h, 4, 4)
        s = put(s, INF[0], TGT)
        atk = [f"soviet.sov_regular.{i + 1}" for i in range(len(hexes))]
    return any(x.rule == "11.10" for x in odds(s, atk, TGT).odds.shifts)


def test_11_10_concentric_from_opposite_sides() -> None:
    assert delta(RING[0], TGT) == tuple(-x for x in delta(RING[3], TGT))
    assert _concentric([RING[0], RING[3]])
    assert not _concentric([RING[0], RING[1]])  # neighbours of each other
    assert not _concentric([RING[0], RING[2]])  # one hex apart, only two


def test_11_10_concentric_from_three_alternating_hexes_or_more_than_three() -> None:
    assert _concentric([RING[0], RING[2], RING[4]])
    assert _concentric([RING[1], RING[3], RING[5]])
    assert not _concentric([RING[0], RING[1], RING[2]])  # three in a row
    assert not _concentric([RING[5], RING[0], RING[1]])  # three in a row, too
    assert _concentric([RING[0], RING[1], RING[3]])  # RING[0] and RING[3] are opposite
    assert _concentric([RING[0], RING[1], RING[2], RING[3]])  # more than three hexes


def test_11_10_soviet_attackers_never_get_the_concentric_bonus() -> None:
    assert not _concentric([RING[0], RING[3]], side="soviet")


def test_11_10_no_concentric_bonus_into_a_city() -> None:
    t = next(h for h in B.labels(EAST) if B.hex(h).city and B.hex(h).region == USSR
             and len(B.neighbors[h]) == 6 and all(B.hex(n).terrain not in ("sea", "lake")
                                                  for n in B.neighbors[h]))
    ring = around(t)
    s = sov(put(put(base(), INF[0], ring[0]), INF[1], ring[3]), 1, t, 1, 1)
    assert not any(x.rule == "11.10" for x in odds(s, INF[:2], t).odds.shifts)


def test_11_9_german_fight_move_gives_every_east_prepared_assault_one_right() -> None:
    s = sov(put(base(), PZ[0], RING[0]), 1, TGT, 2, 4)
    assert not any(x.rule == "5.3, 11.9" for x in odds(s, [PZ[0]], TGT).odds.shifts)
    s = s.with_var(V_EAST_ORDER, FIGHT_MOVE)
    assert [(x.amount, x.rule) for x in odds(s, [PZ[0]], TGT).odds.shifts] == [(1, "5.3, 11.9")]


def test_9_7_first_shock_army_attacks_one_column_right() -> None:
    s = put(put(base(), INF[0], TGT), "soviet.sov_1st_shock.1", RING[0])
    s = sov(s, 1, RING[3])
    got = odds(s, ["soviet.sov_1st_shock.1"], TGT).odds.shifts
    assert [(x.amount, x.rule) for x in got] == [(1, "9.7")]
    assert not odds(s, ["soviet.sov_regular.1"], TGT).odds.shifts


def test_9_8_soviets_in_a_semi_permanent_fort_one_column_left() -> None:
    s = put(sov(put(base(), PZ[0], RING[0]), 1, TGT, 2, 4), "soviet.sov_fort.1", TGT)
    assert [(x.amount, x.rule) for x in odds(s, [PZ[0]], TGT).odds.shifts] == [(-1, "9.8")]


def test_6_12_soviets_in_or_attacking_from_former_poland_one_column_toward_germans() -> None:
    t = next(h for h in B.labels(EAST) if B.hex(h).region == FORMER_POLAND and plain(h)
             and any(plain(n) and not B.side_features(n, h) and B.hex(n).region == FORMER_POLAND
                     for n in B.neighbors[h]))
    a = next(n for n in B.neighbors[t] if plain(n) and not B.side_features(n, t)
             and B.hex(n).region == FORMER_POLAND)
    s = sov(put(base(), PZ[0], a), 1, t, 2, 4)
    fp = [x for x in odds(s, [PZ[0]], t).odds.shifts if x.rule == "6.12"]
    assert [x.amount for x in fp] == [1]  # defending in Former Poland: right, for the German
    s = sov(put(base(), INF[0], t), 1, a, 6, 4)
    fp = [x for x in odds(s, ["soviet.sov_regular.1"], t).odds.shifts if x.rule == "6.12"]
    assert [x.amount for x in fp] == [-1]  # attacking from Former Poland: left
    s = sov(put(base(), PZ[0], RING[0]), 1, TGT, 2, 4)  # in the USSR: no shift
    assert not any(x.rule == "6.12" for x in odds(s, [PZ[0]], TGT).odds.shifts)


# --- air support [8.4-8.6] -----------------------------------------------------------------

def test_8_4_each_supporting_aircraft_shifts_one_column() -> None:
    s = sov(put(base(), PZ[0], RING[0]), 1, TGT, 2, 4)
    s = at(s, air_free=("german.ger_aircraft.1", "german.ger_aircraft.2",
                        "soviet.sov_aircraft.1"))
    s = attack(s, TGT, [PZ[0]])
    fr = s.top_frame
    assert fr is not None and fr.kind == combat.F_AIR and fr.side == "german"
    labels = [b.label for b in prompt(G, s).buttons]
    assert labels == ["No air support", "Commit 1 aircraft", "Commit 2 aircraft"]
    out = do(s, "air", "german", count=2)
    # The Soviet aircraft never supports a defence [8.4]: straight to the roll.
    assert out.state.top_frame is not None and out.state.top_frame.kind == "dice"
    line = next(e for e in out.events if e.text.startswith("PA "))
    assert "+2 air support of the attack (2 aircraft) [8.4]" in line.text
    assert "(4:1)" in out.state.top_frame.data["purpose"]  # 8:4 = 2:1, +2 = 4:1
    assert set(out.state.var(V_AIR_USED)) >= {"german.ger_aircraft.1", "german.ger_aircraft.2"}


def test_8_4_theatres_and_one_mission_per_game_turn() -> None:
    s = goto(base(), "af_combat", 2)
    assert air.available(G, s, "soviet", EAST, "defense") == ()
    assert air.available(G, s, "soviet", EAST, "attack") == ("soviet.sov_aircraft.1",)
    assert air.available(G, s, "anglo_french", EAST, "attack") == ()
    assert len(air.available(G, s, "anglo_french", WEST, "defense")) == 2
    assert len(air.available(G, s, "german", WEST, "attack")) == 4
    s = air.mark_used(s, ("german.ger_aircraft.1",))
    assert len(air.available(G, s, "german", EAST, "attack")) == 3
    s = goto(s, "german_east_combat_e", 3)  # [8.6] a new game turn: every aircraft is back
    assert len(air.available(G, s, "german", EAST, "attack")) == 4


# --- results [11.15-11.20] -----------------------------------------------------------------

def _fight(s: GameState, attackers: list[str], result: str, target: str = TGT,
           side: str = "german") -> GameState:
    s = attack(s, target, attackers, side)
    fr = s.top_frame
    assert fr is not None and fr.kind == "dice"
    column = str(fr.data["purpose"]).split("(")[1].rstrip(")").replace(":", "-")
    return roll(s, roll_for(column, result))


def test_11_15_as_nothing_happens_to_either_side() -> None:
    s = sov(put(put(base(), PZ[0], RING[0]), INF[0], RING[3]), 1, TGT, 4, 13)  # 13:13 = 1:1
    before = {i: (s.piece(i).location, s.piece(i).attrs.get(A_STEP))
              for i in (PZ[0], INF[0], "soviet.sov_regular.1")}
    s = _fight(at(s), [PZ[0], INF[0]], "AS")
    assert not s.frames and not combat.battle(s)
    assert {i: (s.piece(i).location, s.piece(i).attrs.get(A_STEP)) for i in before} == before


def test_8_5_the_luftwaffe_flies_on_both_maps_the_allies_on_their_own() -> None:
    """[8.5] German aircraft may operate on both maps; Anglo-French ones only on the west
    map; the Soviet aircraft only on the east map (and, [8.4], never in defence)."""
    assert air.may_fly("german", "whatif1940/west", "attack")
    assert air.may_fly("german", "whatif1940/east", "defense")
    assert air.may_fly("anglo_french", "whatif1940/west", "defense")
    assert not air.may_fly("anglo_french", "whatif1940/east", "attack")
    assert air.may_fly("soviet", "whatif1940/east", "attack")
    assert not air.may_fly("soviet", "whatif1940/west", "attack")
    assert not air.may_fly("soviet", "whatif1940/east", "defense")


def test_11_16_al1_the_attacker_chooses_which_unit_loses_the_step() -> None:
    s = sov(put(put(base(), PZ[0], RING[0]), INF[0], RING[3]), 1, TGT, 4, 13)  # 13:13 = 1:1
    s = _fight(at(s), [PZ[0], INF[0]], "AL1")
    fr = s.top_frame
    assert fr is not None and fr.kind == combat.F_LOSS and fr.side == "german"
    s = act(s, "lose_step", "german", piece=INF[0])
    assert s.piece(INF[0]).attrs.get(A_STEP) == 2 and s.piece(PZ[0]).attrs.get(A_STEP) is None
    assert s.piece(INF[0]).location == RING[3]  # survivors stay in place [11.16]


def test_11_17_de_one_step_units_die_two_step_units_lose_a_step() -> None:
    # 9 + 9 against 6 + 3 = 2:1.
    s = sov(put(put(base(), INF[0], TGT), INF[1], TGT, step=2), 1, RING[0], 9, 4)
    s = sov(s, 2, RING[3], 9, 4)
    s = at(s, "soviet_combat")
    s = _fight(s, ["soviet.sov_regular.1", "soviet.sov_regular.2"], "DE", side="soviet")
    assert s.piece(INF[1]).location == DEAD
    assert s.piece(INF[0]).location == TGT and s.piece(INF[0]).attrs.get(A_STEP) == 2


def test_11_18_dr_defenders_retreat_one_hex_and_the_attacker_may_advance() -> None:
    s = sov(put(put(base(), PZ[0], RING[0]), PZ[1], RING[1]), 1, TGT, 2, 4)
    s = _fight(at(s), [PZ[0], PZ[1]], "DR")
    # The retreat: one hex [11.11]; ties (equally near supply) are the Soviet's choice.
    while s.top_frame is not None and s.top_frame.kind == combat.F_RETREAT:
        h = s.top_frame.data["hexes"][0]
        s = act(s, "retreat", "soviet", piece=s.top_frame.data["piece"], to=h)
    where = s.piece("soviet.sov_regular.1").location
    assert where in B.neighbors[TGT] and where not in (RING[0], RING[1])
    fr = s.top_frame
    assert fr is not None and fr.kind == combat.F_ADVANCE  # [11.13]
    s = act(s, "advance", "german", piece=PZ[0])
    s = act(s, "advance", "german", piece="")
    assert s.piece(PZ[0]).location == TGT and s.piece(PZ[1]).location == RING[1]
    assert control.controller(B, s, TGT) == "german"  # entering takes control [3.12]


def test_11_11_the_retreat_goes_to_the_open_hex_nearest_supply() -> None:
    # A German corps east of its supply area: its neighbours are not equally near supply.
    s, sup = base(), SUP
    def land(h: str, n: str) -> bool:
        return plain(n) and not B.side_features(h, n) and B.hex(n).region == USSR

    t = next(h for h in B.labels(EAST) if plain(h) and B.hex(h).region == USSR
             and any(n in sup and land(h, n) for n in B.neighbors[h])
             and sum(1 for n in B.neighbors[h] if n not in sup and land(h, n)) >= 3)
    near = [n for n in B.neighbors[t] if n in sup and land(t, n)]
    far = [n for n in B.neighbors[t] if n not in sup and land(t, n)]
    assert supply.distance_to_supply(G, B, s, s.piece(INF[0]), far[2]) > 0
    s = put(s, INF[0], t)
    s = sov(sov(s, 1, far[0], 9, 4), 2, far[1], 9, 4)
    s = _fight(at(s, "soviet_combat"), ["soviet.sov_regular.1", "soviet.sov_regular.2"],
               "DR", target=t, side="soviet")
    if s.top_frame is not None and s.top_frame.kind == combat.F_DL1:
        s = act(s, "dl1", "german", choice="retreat")
    if s.top_frame is not None and s.top_frame.kind == combat.F_RETREAT:
        assert set(s.top_frame.data["hexes"]) <= set(near)
        s = act(s, "retreat", "german", piece=INF[0], to=s.top_frame.data["hexes"][0])
    assert s.piece(INF[0]).location in near


def test_11_11_a_unit_with_no_open_retreat_hex_takes_a_de_in_place() -> None:
    s = base()
    for i, h in enumerate(RING):
        s = put(s, INF[i], h)
    s = sov(s, 1, TGT, 1, 4)
    s = _fight(at(s), [INF[0], INF[1], INF[2]], "DR")
    assert s.piece("soviet.sov_regular.1").location != TGT  # one step: eliminated
    assert s.piece("soviet.sov_regular.1").location.startswith("box:")


def test_11_12_displacement_chain_when_the_only_hex_is_full() -> None:
    # The Soviet army at TGT is surrounded except RING[5], which holds three Soviet units
    # (the east-map limit [7.5]); one of them is displaced onward to make room.
    s = base()
    for i in range(5):
        s = put(s, INF[i], RING[i])
    s = sov(s, 1, TGT, 1, 4)
    for k in (2, 3, 4):
        s = sov(s, k, RING[5], 1, 4)
    s = _fight(at(s), INF[:3], "DR")
    while s.top_frame is not None and s.top_frame.kind == combat.F_ADVANCE:
        s = act(s, "advance", "german", piece="")
    assert s.piece("soviet.sov_regular.1").location == RING[5]
    here = [p for p in s.pieces_at(RING[5]) if p.side == "soviet"]
    assert len(here) == 3
    moved = [k for k in (2, 3, 4) if s.piece(f"soviet.sov_regular.{k}").location != RING[5]]
    assert len(moved) == 1
    dest = s.piece(f"soviet.sov_regular.{moved[0]}").location
    assert dest in B.neighbors[RING[5]] and dest != TGT


def test_11_19_dr_in_a_city_is_converted_by_the_attacker_to_al1_or_bb() -> None:
    t = next(h for h in B.labels(EAST) if B.hex(h).city and B.hex(h).region == USSR
             and not B.hex(h).red_row
             and any(plain(n) and not B.side_features(n, h) for n in B.neighbors[h]))
    a = next(n for n in B.neighbors[t] if plain(n) and not B.side_features(n, t))
    s = sov(put(base(), PZ[0], a), 1, t, 1, 1)
    s = _fight(at(s), [PZ[0]], "DR", target=t)
    fr = s.top_frame
    assert fr is not None and fr.kind == combat.F_CONVERT and fr.side == "german"
    s = act(s, "convert", "german", result="AL1")
    assert s.piece(PZ[0]).attrs.get(A_STEP) == 2  # the panzer corps loses a step
    assert s.piece("soviet.sov_regular.1").location == t  # nobody retreats


def test_11_19_a_german_may_convert_a_dr_to_dl1_but_not_with_his_only_step() -> None:
    s = put(put(base(), INF[0], TGT), INF[1], TGT)
    s = sov(sov(s, 1, RING[0], 9, 4), 2, RING[3], 9, 4)
    s = _fight(at(s, "soviet_combat"), ["soviet.sov_regular.1", "soviet.sov_regular.2"],
               "DR", side="soviet")
    assert s.top_frame is not None and s.top_frame.kind == combat.F_DL1
    s = act(s, "dl1", "german", choice="dl1")
    # Two alike corps: either may lose the step (no choice to make).
    assert [s.piece(i).attrs.get(A_STEP) for i in INF[:2]].count(2) == 1
    assert s.piece(INF[0]).location == TGT and s.piece(INF[1]).location == TGT
    # One reduced corps alone: one step only, so no DL1 option; it retreats.
    s = put(base(), INF[0], TGT, step=2)
    s = sov(sov(s, 1, RING[0], 9, 4), 2, RING[3], 9, 4)
    s = _fight(at(s, "soviet_combat"), ["soviet.sov_regular.1", "soviet.sov_regular.2"],
               "DR", side="soviet")
    assert s.top_frame is None or s.top_frame.kind != combat.F_DL1


def test_11_20_bloodbath_the_smaller_side_dies_the_larger_loses_as_many_steps() -> None:
    # Attackers: a panzer corps (2 steps) and an infantry corps (2 steps) = 4 steps.
    # Defender: one Soviet army (1 step). The Soviet is eliminated, the German loses 1 step.
    s = sov(put(put(base(), PZ[0], RING[0]), INF[0], RING[3]), 1, TGT, 1, 13)
    s = _fight(at(s), [PZ[0], INF[0]], "BB")
    assert s.piece("soviet.sov_regular.1").location.startswith("box:")
    if s.top_frame is not None and s.top_frame.kind == combat.F_LOSS:
        s = act(s, "lose_step", "german", piece=PZ[0])
    lost = [i for i in (PZ[0], INF[0]) if s.piece(i).attrs.get(A_STEP) == 2]
    assert len(lost) == 1


def test_11_20_equal_steps_the_attacker_names_the_number() -> None:
    # One full infantry corps (2 steps) against two Soviet armies (1 step each).
    s = sov(sov(put(base(), INF[0], RING[0]), 1, TGT, 1, 3), 2, TGT, 1, 2)
    s = _fight(at(s), [INF[0]], "BB")
    fr = s.top_frame
    assert fr is not None and fr.kind == combat.F_BB and fr.data["max"] == 2
    s = act(s, "bb", "german", steps=1)  # one step each
    assert s.piece(INF[0]).attrs.get(A_STEP) == 2 and s.piece(INF[0]).location == RING[0]
    if s.top_frame is not None and s.top_frame.kind == combat.F_LOSS:
        s = act(s, "lose_step", "soviet", piece="soviet.sov_regular.2")
    gone = [i for i in (1, 2) if s.piece(f"soviet.sov_regular.{i}").location.startswith("box:")]
    assert len(gone) == 1


# --- intrinsic garrisons [11.21] ------------------------------------------------------------

def _garrison_city() -> tuple[str, str]:
    s = base()
    for t in B.labels(EAST):
        if control.garrison_nation(B, s, t) == "soviet" and B.hex(t).city and \
                not B.hex(t).red_row:
            a = next((n for n in B.neighbors[t] if plain(n) and n in SUP
                      and not B.side_features(n, t)
                      and not control.garrison_nation(B, s, n)), None)
            if a is not None:
                return a, t
    raise AssertionError("no garrison city")


def test_11_21_a_garrison_defends_at_one_alone_and_is_ignored_with_real_units() -> None:
    a, t = _garrison_city()
    s = put(base(), INF[0], a)
    pv = odds(s, [INF[0]], t)
    assert pv.defense == 1 and "garrison" in pv.defense_parts[0].name
    s = sov(s, 1, t, 2, 4)
    pv = odds(s, [INF[0]], t)
    assert pv.defense == 4 and len(pv.defense_parts) == 1


def test_11_21_the_garrison_dies_when_the_real_defenders_are_cleared() -> None:
    a, t = _garrison_city()
    s = sov(put(put(base(), PZ[0], a), PZ[1], a), 1, t, 1, 1)
    s = _fight(at(s), [PZ[0], PZ[1]], "DE", target=t)
    assert s.piece("soviet.sov_regular.1").location.startswith("box:")
    assert t in s.var(control.GARRISONS_LOST)
    assert control.garrison_nation(B, s, t) is None  # it never returns


# --- supply [6.7], GAST [6.11], untried units [2.12] --------------------------------------

def test_6_7_out_of_supply_units_fight_at_half_rounded_up() -> None:
    far = next(h for h in B.labels(EAST) if B.hex(h).region == USSR and plain(h)
               and len(B.neighbors[h]) == 6 and all(plain(n) and not B.side_features(h, n)
                                                    and n not in SUP for n in B.neighbors[h]))
    ring = around(far)
    s = sov(put(base(), INF[0], ring[0]), 1, far, 2, 4)
    assert not supply.status(G, B, s, s.piece(INF[0])).supplied
    pv = odds(s, [INF[0]], far)
    assert pv.attack_parts[0].halved and pv.attack == 3  # 5 halved, rounded up [6.7]


def test_6_11_gast_from_turn_6_for_german_east_attacks() -> None:
    s = sov(put(base(), PZ[0], RING[0]), 1, TGT, 2, 4)
    early = attack(at(s, turn=5), TGT, [PZ[0]])
    assert "GAST" not in str(early.top_frame.data["purpose"])  # type: ignore[union-attr]
    late = attack(at(s, turn=6), TGT, [PZ[0]])
    fr = late.top_frame
    assert fr is not None and "GAST" in str(fr.data["purpose"])
    cancel = T.gast_results.index("cancel") + 1
    out = do(late, "dice", "german", values=(cancel,))
    assert any("cancelled" in e.text and e.rule == "6.11" for e in out.events)
    assert out.state.top_frame is None
    left2 = T.gast_results.index(2) + 1
    out = do(late, "dice", "german", values=(left2,))
    # 8:4 = 2:1, two columns left: 1:2.
    assert "(1:2)" in str(out.state.top_frame.data["purpose"])  # type: ignore[union-attr]


def test_6_10_after_ploesti_the_gast_roll_is_modified_against_the_german() -> None:
    """[6.10] "An anti-German DRM on the GAST": the roll that leaves an attack alone before
    Ploesti falls cancels or shifts it after."""
    s = sov(put(base(), PZ[0], RING[0]), 1, TGT, 2, 4)
    roll = T.gast_results.index(2) + 1  # the roll that shifts two columns left
    out = do(attack(at(s, turn=6), TGT, [PZ[0]]), "dice", "german", values=(roll,))
    assert "(1:2)" in str(out.state.top_frame.data["purpose"])  # type: ignore[union-attr]
    late = attack(at(s.with_var("ploesti_captured", True), turn=6), TGT, [PZ[0]])
    out = do(late, "dice", "german", values=(roll,))
    # The same roll, modified by Ploesti's DRM, reads the row above: the attack is cancelled.
    assert T.gast_results[roll - 1 + T.gast_ploesti_drm] == "cancel"
    assert any("cancelled" in e.text and "Ploesti [6.10]" in e.text for e in out.events)


def test_2_12_untried_units_flip_for_good_when_the_battle_begins() -> None:
    s = put(base(), PZ[0], RING[0])
    uid = "soviet.sov_regular.5"
    s = put(s, uid, TGT)
    assert s.piece(uid).attrs.get("untried")
    out = do(at(s), "attack", "german", target=TGT, attackers=(PZ[0],))
    assert out.revealed
    p = out.state.piece(uid)
    assert not p.attrs.get("untried") and isinstance(p.attrs.get("factors"), tuple)
    assert any(e.rule == "2.12" and "Revealed" in e.text for e in out.events)


# --- the log and the preview ---------------------------------------------------------------

def test_11_3_the_log_names_hexes_odds_shifts_roll_and_result_with_rules() -> None:
    a, t = _pair_with(hill, set())
    s = sov(put(base(), PZ[0], a), 1, t, 2, 2)
    first = do(at(s), "attack", "german", target=t, attackers=(PZ[0],))
    line = next(e for e in first.events if e.text.startswith("PA "))
    assert line.text == f"PA {t} ← {a}: 8:2 → 4:1; -2 defender in hill [11.8] → 2:1"
    assert line.rule == "11.3, 11.14, 11.8"
    out = do(first.state, "dice", "german", values=(3,))
    res = T.result("2-1", 3)
    assert any(e.text == f"PA {t} at 2:1: roll 3 → {res} (provisional CRT)"
               for e in out.events)


def test_preview_shows_raw_odds_each_shift_the_final_column_and_its_row() -> None:
    s = sov(put(put(base(), PZ[0], RING[0]), PZ[1], RING[3]), 1, TGT, 2, 4)
    pv = combat_odds.preview(G, B, s, [PZ[0], PZ[1]], TGT, air_attack=1)
    assert pv is not None
    assert pv.odds.raw_column == "4-1"
    assert [(x.amount, x.rule) for x in pv.odds.shifts] == [(1, "11.10"), (1, "8.4")]
    assert pv.odds.final_column == "5-1" and pv.row == T.row("5-1")
    assert pv.text().startswith("16:4 → 4:1; +1 concentric attack [11.10]")
    assert combat_odds.preview(G, B, s, [PZ[0]], RING[1]) is None  # nobody there


def test_11_13_advance_within_stacking_and_only_by_involved_attackers() -> None:
    # Three attackers clear the hex; a fourth German unit next to it did not attack.
    s = base()
    for i in range(3):
        s = put(s, PZ[i], RING[i])
    s = put(s, INF[0], RING[4])
    s = sov(s, 1, TGT, 1, 1)
    s = _fight(at(s), PZ[:3], "DE")
    fr = s.top_frame
    assert fr is not None and fr.kind == combat.F_ADVANCE
    assert set(fr.data["ids"]) == set(PZ[:3])  # never INF[0]
    for i in range(3):
        s = act(s, "advance", "german", piece=PZ[i])
    assert {p.id for p in s.pieces_at(TGT)} == set(PZ[:3])
    assert s.top_frame is None  # three is the east-map limit [7.5]: nobody else may come


def test_11_11_units_retreated_in_share_the_result_but_add_no_strength() -> None:
    # First battle: the army at TGT retreats into RING[5], where a 2-3 army stands.
    s = base()
    for i in range(4):
        s = put(s, INF[i], RING[i])
    s = put(s, PZ[0], RING[4])
    s = sov(sov(s, 1, TGT, 1, 9), 2, RING[5], 2, 3)
    s = _fight(at(s), INF[:2], "DR")  # 10:9 = 1:1
    while s.top_frame is not None and s.top_frame.kind == combat.F_ADVANCE:
        s = act(s, "advance", "german", piece="")
    assert s.piece("soviet.sov_regular.1").location == RING[5]
    # Second battle against RING[5]: the defence counts only the army that was there (3).
    pv = odds(s, [PZ[0]], RING[5], exclude=combat.record(s).get("retreated_in", ()))
    assert pv.defense == 3  # 8:3 = 2:1
    s = _fight(s, [PZ[0]], "DE", target=RING[5])
    assert s.piece("soviet.sov_regular.1").location.startswith("box:")  # it shares the DE


def test_9_3_an_unreduced_tank_corps_that_attacks_and_survives_unreduced_is_promoted() -> None:
    a, t = next((a, t) for t in B.labels(WEST) if B.hex(t).region == "Greater Germany"
                and not B.hex(t).city for a in B.neighbors[t] if B.hex(a).region == "France"
                and not B.hex(a).city and B.hex(a).terrain not in ("sea", "lake")
                and not {"river", "major_river", "sea", "lake"} & B.side_features(a, t))
    inferior = "anglo_french.fr_tank_inferior.1"
    s = put(put(base(), inferior, a), INF[0], t, step=2)  # 6 against 3
    s = _fight(at(s, "af_combat"), [inferior], "AS", target=t, side="anglo_french")
    here = [p for p in s.pieces_at(a) if p.side == "anglo_french"]
    assert [p.type for p in here] == ["fr_tank_top"]
    assert s.piece(inferior).location == "box:allied_tank_pool"
    assert s.piece(INF[0]).location == t


def test_12_9_germans_never_attack_into_a_red_row_hex() -> None:
    a, t = next((a, t) for t in B.labels(EAST) if B.hex(t).red_row for a in B.neighbors[t]
                if plain(a) and B.hex(a).region == USSR and not B.side_features(a, t))
    s = at(sov(put(base(), PZ[0], a), 1, t, 1, 1))
    assert t not in prompt(G, s).targets["attack"]
    with pytest.raises(IllegalAction, match=r"red row .*\[12.9\]"):
        attack(s, t, [PZ[0]])


def test_11_1_random_play_fights_prepared_assaults_and_keeps_the_invariants() -> None:
    from wartable.engine.randomplay import play_random
    from wartable.engine.session import Session

    rep = play_random(Session.start(G, "standard", seed=2), 2, until=lambda x: x.state.turn > 2)
    assert rep.problems == ()
    lines = [e.text for e in rep.session.events if e.kind == "combat"]
    assert any(x.startswith("PA ") and "roll" in x for x in lines)
    assert G.rules.invariants(G, rep.session.state) == []


def test_10_11_no_attack_across_an_all_sea_hexside() -> None:
    a, t = next((a, t) for t in B.labels(EAST) if plain(t) and B.hex(t).region == USSR
                for a in B.neighbors[t] if plain(a) and "sea" in B.side_features(a, t))
    s = at(sov(put(base(), INF[0], a), 1, t, 1, 1))
    with pytest.raises(IllegalAction, match=r"all-sea or all-lake hexside \[10.11\]"):
        attack(s, t, [INF[0]])


def test_11_19_a_dr_against_germans_in_their_own_west_wall_fort_is_converted() -> None:
    a, t = next((a, t) for t in B.labels(WEST) if B.hex(t).fortified and not B.hex(t).city
                and B.hex(t).region == "Greater Germany" for a in B.neighbors[t]
                if B.hex(a).region == "France" and not B.hex(a).city
                and B.hex(a).terrain == "clear"
                and not {"river", "major_river", "sea", "lake"} & B.side_features(a, t))
    fr1, fr2 = "anglo_french.fr_infantry.1", "anglo_french.fr_infantry.2"
    s = put(put(put(base(), fr1, a), fr2, a), INF[0], t, step=2)  # 8 against 3, fort L1
    s = _fight(at(s, "af_combat"), [fr1, fr2], "DR", target=t, side="anglo_french")
    fr = s.top_frame
    assert fr is not None and fr.kind == combat.F_CONVERT and fr.side == "anglo_french"
    s = act(s, "convert", "anglo_french", result="BB")  # [11.20] 4 steps against 1
    assert s.piece(INF[0]).location.startswith("box:")
    assert [s.piece(i).attrs.get(A_STEP) for i in (fr1, fr2)].count(2) == 1


def test_8_4_the_soviet_aircraft_supports_soviet_attacks_and_the_luftwaffe_defends() -> None:
    s = put(base(), INF[0], TGT)
    s = sov(s, 1, RING[0], 9, 4)
    s = at(s, "soviet_combat", air_free=("soviet.sov_aircraft.1", "german.ger_aircraft.1"))
    s = attack(s, TGT, ["soviet.sov_regular.1"], side="soviet")
    assert s.top_frame is not None and s.top_frame.side == "soviet"
    s = act(s, "air", "soviet", count=1)
    assert s.top_frame is not None and s.top_frame.kind == combat.F_AIR
    assert s.top_frame.side == "german" and s.top_frame.data["role"] == "defense"
    out = do(s, "air", "german", count=1)
    line = next(e for e in out.events if e.text.startswith("PA "))
    assert "+1 air support of the attack (1 aircraft) [8.4]" in line.text
    assert "-1 air support of the defence (1 aircraft) [8.4]" in line.text


def test_5_5_east_front_surprise_ignore_rivers_removes_the_soviet_river_shift_on_turn_1() -> None:
    from wartable.games.whatif1940.ids import V_IGNORE_RIVERS_T1

    a, t = _pair_with(lambda h: plain(h) and B.hex(h).region == USSR, {"river"})
    s = sov(put(base(), PZ[0], a), 1, t, 1, 4)
    assert any(x.rule == "11.8" for x in odds(s, [PZ[0]], t).odds.shifts)
    s1 = s.with_var(V_IGNORE_RIVERS_T1, True)
    assert s1.turn == 1 and not any(x.rule == "11.8" for x in odds(s1, [PZ[0]], t).odds.shifts)
    s2 = replace(s1, turn=2)  # turn 1 only
    assert any(x.rule == "11.8" for x in odds(s2, [PZ[0]], t).odds.shifts)


def test_11_19_hint_at_a_soviet_attack_on_german_corps_names_the_dl1_option() -> None:
    """Game > Hint at the CRT roll (physical dice): under the faces, what each result of the
    column does [11.15-11.20] from combat.toml; against German defenders a DR may become a
    DL1 [11.19], so DL1 is explained too (and not for a German attack: see
    tests/ui/test_dice_hint.py)."""
    s = put(put(base(), INF[0], TGT), INF[1], TGT)
    s = sov(sov(s, 1, RING[0], 9, 4), 2, RING[3], 9, 4)
    s = attack(at(s, "soviet_combat"), TGT, ["soviet.sov_regular.1", "soviet.sov_regular.2"],
               side="soviet")
    frame = s.top_frame
    assert frame is not None and frame.kind == "dice"
    notes = G.rules.explain_roll(G, s, frame)
    assert notes is not None and notes.with_faces  # the faces are listed too
    column = combat.battle(s)["column"]
    legend = dict(T.legend)
    codes = [code for code in legend if code in T.row(column) or code == "DL1"]
    assert "DR" in T.row(column)
    assert notes.lines == ("What the results do:",
                           *(f"{code} = {legend[code]}" for code in codes))


def test_11_5_the_hex_under_assault_is_marked_on_the_map_until_the_battle_ends() -> None:
    """The table's battle marker (issue 16) stands on the target while its roll is asked and
    is gone once the result is applied."""
    s = sov(put(put(base(), PZ[0], RING[0]), INF[0], RING[3]), 1, TGT, 4, 13)
    s = at(s)
    assert G.rules.pending_battles(G, s) == ()
    s = attack(s, TGT, [PZ[0], INF[0]])
    assert s.top_frame is not None and s.top_frame.kind == "dice"
    assert G.rules.pending_battles(G, s) == (TGT,)
    fr = s.top_frame
    column = str(fr.data["purpose"]).split("(")[1].rstrip(")").replace(":", "-")
    s = roll(s, roll_for(column, "AS"))
    assert not s.frames
    assert G.rules.pending_battles(G, s) == ()
