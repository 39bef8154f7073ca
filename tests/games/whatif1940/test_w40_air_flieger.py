"""The 7th Flieger Corps [8.2, 8.7, 10.19-10.24, 11.8, 11.10, 12.2, 12.3, 12.9]: where and
when it may drop, the landing table (ours, provisional), and its airborne assault.

Each test sets up the exact situation on the real maps and plays it through the engine with
physical dice, so every roll is the test's. CRT results are read from the combat part's
provisional table by result (the test names the result it needs, not a die face)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from w40_helpers import act, base, board, game, goto, plain, put

from wartable.core.errors import IllegalAction
from wartable.engine.loop import prompt
from wartable.games.whatif1940.ids import (
    A_STEP,
    DEAD,
    EAST,
    GERMAN,
    GSRHB_ELIGIBLE,
    V_AIR_SUPPRESSED,
    V_AIR_USED,
    V_FLIEGER_DROPPED,
    WEST,
)
from wartable.games.whatif1940.steps import (
    combat,
    combat_odds,
    combat_table,
    control,
    flieger,
    movement,
)
from wartable.model.state import GameState

G = game()
B = board()
T = combat_table.tables_of(G)
SEVENTH = "german.ger_7th_flieger.1"
LW = ("german.ger_aircraft.1", "german.ger_aircraft.2", "german.ger_aircraft.3",
      "german.ger_aircraft.4")
BRIT, FR, VVS = ("anglo_french.brit_aircraft.1", "anglo_french.fr_aircraft.1",
                 "soviet.sov_aircraft.1")
SOV = "soviet.sov_regular.1"
INF = "german.ger_infantry.1"
MOVE, FIGHT = "german_east_move_d", "german_east_combat_e"


def quiet(h: str) -> bool:
    """A plain USSR hex whose neighbours are plain with no hexside features."""
    return plain(h) and B.hex(h).region == "USSR" and len(B.neighbors[h]) == 6 and all(
        plain(n) and not B.side_features(h, n) for n in B.neighbors[h])


TGT = next(h for h in B.labels(EAST) if quiet(h))
NEXT = B.neighbors[TGT][0]


def at(s: GameState, step: str = MOVE, suppressed: tuple[str, ...] = (VVS,)) -> GameState:
    """Enter a German step on turn 2 with physical dice; every Luftwaffe unit has flown (no
    air support questions) and `suppressed` are suppressed."""
    s = goto(s, step, turn=2)
    s = s.with_var(V_AIR_USED, LW).with_var(V_AIR_SUPPRESSED, suppressed)
    return replace(s, dice_mode="physical")


def sov(s: GameState, where: str, a: int = 4, d: int = 5) -> GameState:
    return put(s, SOV, where, untried=False, factors=(a, d))


def dice(s: GameState, value: int) -> GameState:
    fr = s.top_frame
    assert fr is not None and fr.kind == "dice", fr
    return act(s, "dice", GERMAN, values=(value,))


def crt(s: GameState, res: str) -> GameState:
    fr = s.top_frame
    assert fr is not None and fr.kind == "dice"
    column = str(fr.data["purpose"]).split("(")[1].rstrip(")").replace(":", "-")
    return dice(s, T.row(column).index(res) + 1)


def drop_button(s: GameState) -> tuple[bool, str]:
    b = next(b for b in prompt(G, s).buttons if b.id == flieger.VERB)
    return b.enabled, b.reason


# --- when and where it may drop ----------------------------------------------------------

def test_8_2_no_drop_while_enemy_aircraft_unsuppressed_on_map() -> None:
    s = at(base(), suppressed=())
    enabled, reason = drop_button(s)
    assert not enabled and "8.2" in reason
    with pytest.raises(IllegalAction, match="8.2"):
        act(s, flieger.VERB, GERMAN, to=TGT)
    s = s.with_var(V_AIR_SUPPRESSED, (VVS,))
    assert drop_button(s) == (True, "")
    # West map: both Anglo-French aircraft must be suppressed (the Soviet one does not fly
    # there [8.5]).
    w = at(base(), "german_west_move", suppressed=(VVS, BRIT))
    assert not drop_button(w)[0] and "8.2" in drop_button(w)[1]
    w = w.with_var(V_AIR_SUPPRESSED, (BRIT, FR))
    assert drop_button(w)[0]


def test_8_7_the_drop_button_is_in_german_movement_and_combat_phases_only() -> None:
    for step in (MOVE, FIGHT, "german_west_move", "german_west_combat"):
        assert any(b.id == flieger.VERB for b in prompt(G, at(base(), step, (VVS, BRIT, FR)))
                   .buttons), step
    s = at(base(), "soviet_move")
    assert not any(b.id == flieger.VERB for b in prompt(G, s).buttons)


def test_8_7_no_drop_into_marsh_or_hills() -> None:
    s = at(base())
    marsh = next(h for h in B.labels(EAST) if B.hex(h).terrain == "marsh")
    hill = next(h for h in B.labels(EAST) if B.hex(h).terrain == "hill")
    assert "marsh [8.7]" in flieger.hex_why_not(G, B, s, MOVE, marsh)
    assert "hill [8.7]" in flieger.hex_why_not(G, B, s, MOVE, hill)
    assert flieger.hex_why_not(G, B, s, MOVE, TGT) == ""
    with pytest.raises(IllegalAction, match="8.7"):
        act(s, flieger.VERB, GERMAN, to=marsh)


def test_12_2_no_drop_in_hunsruck() -> None:
    s = at(base(), "german_west_move", (BRIT, FR))
    huns = next(h for h in B.labels(WEST) if "hunsruck" in B.hex(h).features)
    assert "Hunsruck" in flieger.hex_why_not(G, B, s, "german_west_move", huns)
    france = next(h for h in B.labels(WEST) if B.hex(h).region == "France" and plain(h))
    assert "Greater Germany [12.2]" in flieger.hex_why_not(G, B, s, "german_west_move",
                                                           france)
    gg = next(h for h in B.labels(WEST) if B.hex(h).region == "Greater Germany" and plain(h))
    assert flieger.hex_why_not(G, B, s, "german_west_move", gg) == ""
    hexes = flieger.drop_hexes(G, B, s, "german_west_move")
    assert gg in hexes and huns not in hexes and france not in hexes


def test_12_9_no_drop_into_red_row_hexes() -> None:
    s = at(base())
    red = next(h for h in B.labels(EAST) if B.hex(h).red_row and B.hex(h).terrain == "clear")
    assert "12.9" in flieger.hex_why_not(G, B, s, MOVE, red)


def test_8_7_the_7th_drops_once_per_game() -> None:
    s = act(at(base()), flieger.VERB, GERMAN, to=TGT)
    s = dice(s, 6)
    assert s.var(V_FLIEGER_DROPPED) is True
    assert not any(b.id == flieger.VERB for b in prompt(G, s).buttons)
    with pytest.raises(IllegalAction, match="once per game"):
        act(s, flieger.VERB, GERMAN, to=NEXT)


def test_8_7_the_drop_asks_for_a_hex_and_may_be_called_off() -> None:
    s = act(at(base()), flieger.VERB, GERMAN)
    p = prompt(G, s)
    assert TGT in p.moves[SEVENTH]
    s = act(s, flieger.CANCEL, GERMAN)
    assert s.piece(SEVENTH).location == GSRHB_ELIGIBLE and not s.var(V_FLIEGER_DROPPED)


# --- the landing (FCLT, ours) [8.7] ----------------------------------------------------------

def test_8_7_fclt_a_1_scatters_the_7th() -> None:
    s = dice(act(at(base()), flieger.VERB, GERMAN, to=TGT), 1)
    assert s.piece(SEVENTH).location == DEAD


def test_8_7_fclt_a_2_lands_it_reduced() -> None:
    s = dice(act(at(base()), flieger.VERB, GERMAN, to=TGT), 2)
    p = s.piece(SEVENTH)
    assert p.location == TGT and p.attrs.get(A_STEP) == 2


def test_8_7_fclt_a_4_lands_it_intact_static_and_in_control() -> None:
    s = dice(act(at(base()), flieger.VERB, GERMAN, to=TGT), 4)
    p = s.piece(SEVENTH)
    assert p.location == TGT and p.attrs.get(A_STEP) != 2
    assert control.controller(B, s, TGT) == GERMAN  # [3.12]
    assert p.id not in {q.id for q in movement.movers(G, B, s, MOVE)}  # static [8.7]


def test_8_7_fclt_forest_drm_turns_a_4_into_a_step_loss() -> None:
    forest = next(h for h in B.labels(EAST) if B.hex(h).terrain == "forest"
                  and B.hex(h).region == "USSR" and not B.hex(h).red_row
                  and not B.hex(h).city)
    s = dice(act(at(base()), flieger.VERB, GERMAN, to=forest), 4)  # 4 - 1 = 3
    assert s.piece(SEVENTH).attrs.get(A_STEP) == 2


# --- the airborne assault [8.7, 10.19-10.24, 11.8, 11.10] ---------------------------------

def test_8_7_aa_the_7th_attacks_with_its_defence_factor() -> None:
    s = sov(put(base(), SEVENTH, TGT), TGT, 4, 4)
    pv = flieger.odds(G, B, s, [s.piece(SEVENTH)], TGT)
    assert (pv.attack, pv.defense) == (8, 4) and pv.odds.final_column == "2-1"
    s = put(s, SEVENTH, TGT, step=2)
    pv = flieger.odds(G, B, s, [s.piece(SEVENTH)], TGT)
    assert (pv.attack, pv.odds.final_column) == (7, "1-1")


def test_10_24_a_pure_aa_has_no_river_and_no_concentric_shift() -> None:
    river = next(h for h in B.labels(EAST) if plain(h) and B.hex(h).region == "USSR" and
                 any("river" in B.side_features(h, n) for n in B.neighbors[h]))
    s = sov(put(base(), SEVENTH, river), river, 4, 4)
    pv = flieger.odds(G, B, s, [s.piece(SEVENTH)], river)
    assert pv.odds.shifts == ()


def test_11_10_pa_aa_is_concentric_even_against_a_city() -> None:
    city = next(h for h in B.labels(EAST) if B.hex(h).city and B.hex(h).region == "USSR"
                and B.hex(h).terrain == "clear")
    s = sov(put(put(base(), SEVENTH, city), INF, B.neighbors[city][0]), city, 4, 4)
    pv = flieger.odds(G, B, s, [s.piece(SEVENTH), s.piece(INF)], city)
    assert [x.amount for x in pv.odds.shifts if x.rule == "11.10"] == [1]
    # The same infantry alone: no concentric shift against a city [11.10].
    alone = combat_odds.compute(G, B, s, [s.piece(INF)], city)
    assert not [x for x in alone.odds.shifts if x.rule == "11.10"]


def test_11_8_pa_aa_defenders_lose_their_river_shift() -> None:
    a, t = next((a, t) for t in B.labels(EAST) for a in B.neighbors[t]
                if plain(t) and plain(a) and B.hex(t).region == "USSR"
                and B.side_features(a, t) == {"river"})
    s = sov(put(put(base(), SEVENTH, t), INF, a), t, 4, 4)
    alone = combat_odds.compute(G, B, s, [s.piece(INF)], t)
    assert [x.rule for x in alone.odds.shifts] == ["11.8"]  # the river, without the 7th
    pv = flieger.odds(G, B, s, [s.piece(SEVENTH), s.piece(INF)], t)
    assert not [x for x in pv.odds.shifts if "river" in x.reason]


def test_10_19_aa_that_does_not_clear_the_hex_eliminates_the_7th() -> None:
    s = act(at(sov(base(), TGT)), flieger.VERB, GERMAN, to=TGT)
    s = dice(s, 5)  # 5 - 1 (opposed drop) = 4: lands intact
    assert s.piece(SEVENTH).location == TGT
    s = crt(s, "AS")
    assert s.piece(SEVENTH).location == DEAD
    assert s.piece(SOV).location == TGT
    assert not s.frames and not combat.battle(s)


def test_10_20_aa_that_clears_the_hex_leaves_the_7th_there() -> None:
    s = act(at(sov(base(), TGT, 4, 2)), flieger.VERB, GERMAN, to=TGT)  # 8:2 = 4:1
    s = crt(dice(s, 6), "DE")
    assert s.piece(SOV).location != TGT
    assert s.piece(SEVENTH).location == TGT
    assert control.controller(B, s, TGT) == GERMAN
    assert not s.frames and not combat.battle(s)


def test_8_7_a_landing_that_eliminates_the_7th_makes_no_assault() -> None:
    s = act(at(sov(base(), TGT)), flieger.VERB, GERMAN, to=TGT)
    s = dice(s, 2)  # 2 - 1 = 1: scattered
    assert s.piece(SEVENTH).location == DEAD and not s.frames
    assert s.piece(SOV).location == TGT


def test_8_7_pa_aa_in_a_combat_phase_with_an_adjacent_unit() -> None:
    s = at(put(sov(base(), TGT), INF, NEXT), FIGHT)
    s = act(s, flieger.VERB, GERMAN, to=TGT)
    s = dice(s, 4)  # 4 - 1 opposed + 1 German adjacent = 4: intact
    fr = s.top_frame
    assert fr is not None and fr.kind == flieger.F_JOIN and (INF,) in fr.data["forces"]
    s = act(s, flieger.JOIN, GERMAN, attackers=(INF,))
    assert INF in combat.record(s)["attacked"] and TGT in combat.record(s)["hexes"]
    s = crt(s, "DE")
    # [11.13] the infantry may advance into the cleared hex beside the 7th; the 7th's
    # fate is settled once the combat part's battle ends (after this frame).
    fr = s.top_frame
    assert fr is not None and fr.kind == combat.F_ADVANCE
    s = act(s, "advance", GERMAN, piece=INF)
    assert s.piece(INF).location == TGT
    assert s.piece(SEVENTH).location == TGT
    assert not s.frames and not combat.battle(s)
    with pytest.raises(IllegalAction):  # the hex has been attacked this phase [11.4]
        act(s, "attack", GERMAN, target=TGT, attackers=(INF,))


# --- the GAST on an east PA/AA [6.11] --------------------------------------------------------

def purpose(s: GameState) -> str:
    fr = s.top_frame
    assert fr is not None and fr.kind == "dice", fr
    return str(fr.data["purpose"])


def _pa_aa(turn: int) -> GameState:
    s = put(sov(base(), TGT), INF, NEXT)
    s = goto(s, FIGHT, turn=turn)
    s = s.with_var(V_AIR_USED, LW).with_var(V_AIR_SUPPRESSED, (VVS,))
    s = dice(act(replace(s, dice_mode="physical"), flieger.VERB, GERMAN, to=TGT), 4)
    return act(s, flieger.JOIN, GERMAN, attackers=(INF,))


def test_6_11_gast_is_rolled_for_an_east_pa_aa_from_turn_6() -> None:
    assert T.gast_first_turn == 6
    s = _pa_aa(6)
    assert purpose(s).startswith("GAST")
    s = dice(s, 2)  # provisional GAST: 2 -> 2 columns left
    assert s.var("airborne_assault")["gast"] == 2
    assert purpose(s).startswith("Airborne assault") and "1:1" in purpose(s)  # 3:1 - 2
    # A GAST "cancel" (a 1) leaves the 7th to assault alone (ours).
    s = dice(_pa_aa(6), 1)
    assert s.var("airborne_assault")["attackers"] == (SEVENTH,)


def test_6_11_no_gast_before_turn_6_nor_for_a_pure_aa() -> None:
    assert purpose(_pa_aa(5)).startswith("Airborne assault")
    s = goto(sov(base(), TGT), FIGHT, turn=7)
    s = replace(s.with_var(V_AIR_USED, LW).with_var(V_AIR_SUPPRESSED, (VVS,)),
                dice_mode="physical")
    s = dice(act(s, flieger.VERB, GERMAN, to=TGT), 5)  # lands; no partner adjacent
    assert purpose(s).startswith("Airborne assault")


# --- data ------------------------------------------------------------------------------------

def test_8_7_the_fclt_is_provisional_data_checked_on_load() -> None:
    from wartable.core.errors import DataError
    from wartable.engine.procedures import Procedure, check_predicates

    d = dict(G.definition.tables[flieger.TABLE])
    proc = Procedure.from_dict(d, "air.toml")
    assert proc.provisional and "Ours" in proc.note and proc.rule == "8.7"
    bad = dict(d, modifiers=[dict(d["modifiers"][0], condition="rough_grund")])
    with pytest.raises(DataError, match="rough_grund"):
        check_predicates(Procedure.from_dict(bad, "air.toml"), flieger.CONDITIONS)


# --- the combined MA/AA in a movement phase [10.24, 10.15, 10.19, 10.20] -------------------

PZ = "german.ger_panzer.1"


def _ma_aa(d: int) -> GameState:
    s = at(put(sov(base(), TGT, 4, d), PZ, NEXT))
    s = dice(act(s, flieger.VERB, GERMAN, to=TGT), 4)  # 4 - 1 opposed + 1 adjacent = 4
    fr = s.top_frame
    assert fr is not None and fr.kind == flieger.F_JOIN
    assert (PZ,) in [tuple(f) for f in fr.data["forces"]]
    with pytest.raises(IllegalAction, match="10.24"):  # not a force of its own
        act(s, flieger.JOIN, GERMAN, attackers=(PZ, INF))
    return act(s, flieger.JOIN, GERMAN, attackers=(PZ,))


def test_10_24_ma_aa_a_panzer_force_joins_the_7th_and_moves_on_when_it_clears() -> None:
    s = _ma_aa(2)
    assert s.piece(PZ).attrs.get("ma_done") is True  # its one MA of the phase [10.15]
    # 8 (7th) + the panzer's attack against 2, concentric [11.10]: the top of the ladder.
    s = crt(s, "DE")
    assert s.piece(SOV).location != TGT
    assert s.piece(PZ).location == TGT and s.piece(SEVENTH).location == TGT
    assert s.piece(PZ).attrs.get("mp_used") == 2.0  # [10.15] twice clear's 1 MP
    assert not s.frames and not combat.battle(s)


def test_10_19_ma_aa_that_fails_stops_the_panzers_and_eliminates_the_7th() -> None:
    s = crt(_ma_aa(12), "AS")
    assert s.piece(SEVENTH).location == DEAD
    assert s.piece(PZ).location == NEXT and s.piece(PZ).attrs.get("done") is True
    assert not s.frames and not combat.battle(s)


def test_7_3_an_airborne_assault_examines_the_stack_it_lands_on() -> None:
    """[7.3, 8.7] Like any assault, the airborne one begins with the stack check: the
    German sees beneath the top of the Soviet stack once the 7th has landed on it."""
    sov2 = "soviet.sov_regular.2"
    s = put(sov(base(), TGT), sov2, TGT, untried=False, factors=(3, 4))

    def seen_real(st: GameState) -> set[str]:
        view = G.rules.view(G, st, GERMAN)
        return {p.id for p in view.pieces_at(TGT) if p.side == "soviet"} & {SOV, sov2}

    s = act(at(s), flieger.VERB, GERMAN, to=TGT)
    assert len(seen_real(s)) == 1  # before the landing: only the top unit
    s = dice(s, 5)  # 5 - 1 (opposed drop) = 4: lands intact, the assault begins
    assert s.piece(SEVENTH).location == TGT
    assert seen_real(s) == {SOV, sov2}
