"""German strategic transfer through the GSRHB [12.1-12.4] (phase I.A)."""

from __future__ import annotations

import pytest
from w40_helpers import act, board, clear, do, game, goto, ids, put, ready

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.loop import prompt
from wartable.games.whatif1940.ids import (
    GSRHB_ELIGIBLE,
    GSRHB_JUST_ARRIVED,
    SSWFHB_ROMANIA,
    V_CONTROL,
)
from wartable.games.whatif1940.steps import control, transfer
from wartable.model.state import GameState


def _ia(s: GameState, turn: int = 2) -> GameState:
    return goto(s, "german_air_transfer", turn=turn)


def _moves(s: GameState) -> dict[str, tuple[str, ...]]:
    return dict(prompt(game(), s).moves)


def _empty_box(s: GameState) -> GameState:
    for p in list(s.pieces_at(GSRHB_ELIGIBLE)) + list(s.pieces_at(GSRHB_JUST_ARRIVED)):
        s = put(s, p.id, "box:dead")
    return s


def test_12_1_just_arrived_units_become_eligible_as_the_phase_starts() -> None:
    s = _empty_box(clear(ready()))
    inf = ids(s, "ger_infantry", 1)[0]
    s = _ia(put(s, inf, GSRHB_JUST_ARRIVED), turn=3)
    assert s.piece(inf).location == GSRHB_ELIGIBLE


def test_12_1_supplied_infantry_may_enter_just_arrived_panzers_never() -> None:
    s = _empty_box(clear(ready()))
    inf = ids(s, "ger_infantry", 1)[0]
    pz = ids(s, "ger_panzer", 1)[0]
    s = _ia(put(put(s, inf, "4500"), pz, "4808"))
    m = _moves(s)
    assert m[inf] == (GSRHB_JUST_ARRIVED,)
    assert pz not in m
    with pytest.raises(IllegalAction):
        do(s, "move", "german", piece=pz, to=GSRHB_JUST_ARRIVED)


def test_12_1_unit_may_not_enter_and_leave_gsrhb_same_turn() -> None:
    s = _empty_box(clear(ready()))
    inf = ids(s, "ger_infantry", 1)[0]
    s = _ia(put(s, inf, "4500"))
    s = act(s, "move", "german", piece=inf, to=GSRHB_JUST_ARRIVED)
    assert s.piece(inf).location == GSRHB_JUST_ARRIVED
    assert inf not in _moves(s)
    s = _ia(s, turn=3)  # next turn it is Eligible to Leave, and may come out
    assert s.piece(inf).location == GSRHB_ELIGIBLE and "4500" in _moves(s)[inf]
    s = act(s, "move", "german", piece=inf, to="4500")
    assert inf not in _moves(s)  # and, having come out, may not go back in this turn


def test_12_1_seventh_flieger_once_in_play_never_returns_to_the_box() -> None:
    s = _empty_box(clear(ready()))
    seventh = ids(s, "ger_7th_flieger", 1)[0]
    s = _ia(put(s, seventh, "4500"))
    assert seventh not in _moves(s)


def test_12_2_west_entry_on_greater_germany_edge_hexes_1014_to_2909() -> None:
    s = clear(ready())
    s = _ia(s)
    inf = next(p.id for p in s.pieces_at(GSRHB_ELIGIBLE) if p.type == "ger_infantry")
    dests = set(_moves(s)[inf])
    assert {"1014", "1019", "2919", "2909"} <= dests
    assert "1013" not in dests and "1012" not in dests  # before 1014 on the edge
    assert SSWFHB_ROMANIA in dests  # or to Romania [12.4]


def test_12_2_west_entry_edge_hex_must_be_free_of_enemy_units() -> None:
    s = clear(ready())
    fr = ids(s, "fr_infantry", 1)[0]
    s = _ia(put(s, fr, "1019"))
    inf = next(p.id for p in s.pieces_at(GSRHB_ELIGIBLE) if p.type == "ger_infantry")
    assert "1019" not in _moves(s)[inf]


def test_12_2_west_entry_city_needs_no_enemy_adjacent() -> None:
    s = clear(ready())
    b = board()
    town = next(h for h in b.labels("whatif1940/west") if b.hex(h).region == "Greater Germany"
                and (b.hex(h).city or b.hex(h).town) and not transfer.west_edge(h)
                and all(b.hex(n).region == "Greater Germany" for n in b.neighbors[h]))
    s1 = _ia(s)
    inf = next(p.id for p in s1.pieces_at(GSRHB_ELIGIBLE) if p.type == "ger_infantry")
    assert town in _moves(s1)[inf]
    fr = ids(s, "fr_infantry", 1)[0]
    s2 = _ia(put(s, fr, b.neighbors[town][0]))
    assert town not in _moves(s2)[inf]


def test_12_3_east_entry_on_greater_germany_edge_4300_to_5200() -> None:
    s = _ia(clear(ready()))
    inf = next(p.id for p in s.pieces_at(GSRHB_ELIGIBLE) if p.type == "ger_infantry")
    dests = set(_moves(s)[inf])
    assert {"4300", "4700", "5200"} <= dests
    assert "4200" not in dests and "4201" not in dests


def test_12_3_east_entry_outside_germany_only_in_a_german_rollbahn_city() -> None:
    b = board()
    roads = transfer.rollbahn(game(), b)
    assert "4808" in roads and b.hex("4808").region == "Lithuania"  # Kaunas, German at start
    s = _ia(clear(ready()))
    inf = next(p.id for p in s.pieces_at(GSRHB_ELIGIBLE) if p.type == "ger_infantry")
    dests = _moves(s)[inf]
    assert "4808" in dests  # German-controlled, supplied, on a Rollbahn, no Soviet adjacent
    assert "4510" not in dests  # a Rollbahn city still Soviet-controlled
    off_road = next(h for h in b.labels("whatif1940/east") if b.hex(h).region == "USSR"
                    and (b.hex(h).city or b.hex(h).town) and h not in roads)
    s = s.with_var(V_CONTROL, FrozenMap({off_road: "german"}))
    s = s.with_var(control.GARRISONS_LOST, (off_road,))
    assert "Rollbahn" in transfer.entry_why_not(game(), b, s, s.piece(inf), off_road)
    sov = next(p.id for p in s.pieces.values() if p.type == "sov_regular")
    s = put(_ia(s), sov, b.neighbors["4808"][0])
    assert "4808" not in _moves(s)[inf]  # a Soviet unit next to it [12.3]


def test_12_4_german_infantry_may_withdraw_from_romania_to_just_arrived() -> None:
    s = _empty_box(clear(ready()))
    inf = ids(s, "ger_infantry", 1)[0]
    s = _ia(put(s, inf, SSWFHB_ROMANIA))
    assert _moves(s)[inf] == (GSRHB_JUST_ARRIVED,)


def test_12_4_the_seventh_flieger_never_comes_back_from_romania() -> None:
    s = _empty_box(clear(ready()))
    seventh = ids(s, "ger_7th_flieger", 1)[0]
    s = _ia(put(s, seventh, SSWFHB_ROMANIA))
    assert seventh not in _moves(s)
