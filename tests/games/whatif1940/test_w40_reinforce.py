"""Soviet reinforcements, replacements, the 1st Shock Army and semi-permanent forts
[9.5-9.8, 9.10] (II.E), and Juggernaut conversions [9.6]."""

from __future__ import annotations

from dataclasses import replace

import pytest
from w40_helpers import act, board, clear, do, game, goto, ids, put, ready

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.loop import prompt
from wartable.games.whatif1940 import hidden
from wartable.games.whatif1940.ids import (
    DEAD,
    MOSCOW,
    SAFHB,
    SOVIET_FORTS,
    SOVIET_REPLACEMENTS,
    SSWFHB_JUST_ARRIVED,
    V_CONTROL,
    V_EVER_GERMAN,
    V_FORTS_ALLOWED,
    trt_box,
)
from wartable.games.whatif1940.steps import losses
from wartable.model.state import GameState

# A city that began Soviet, far from the front (the red row is in the south and east).
CITY = "4922"
RED = "4215"  # a red row hex [12.9]


def _base(turn: int = 2) -> GameState:
    """Turn `turn`, no unit on the maps, every regular still on the track."""
    s = clear(ready())
    return s


def _at_ii_e(s: GameState, turn: int) -> GameState:
    s = replace(s, dice_mode="physical")  # forts from turn 5 wait for a typed roll
    return goto(s, "soviet_reinforcement", turn=turn)


def _moves(s: GameState) -> dict[str, tuple[str, ...]]:
    return dict(prompt(game(), s).moves)


def _one_waiting(s: GameState) -> str:
    return sorted(_moves(s))[0]


def test_9_5_reinforcements_come_from_this_and_earlier_turn_boxes_only() -> None:
    s = _at_ii_e(_base(), 2)
    movers = set(_moves(s))
    track = {t: {p.id for p in s.pieces_at(trt_box(t))} for t in (1, 2, 3)}
    assert track[1] and track[2] and track[3]
    assert track[1] <= movers and track[2] <= movers  # turn 1's were delayed: still may enter
    assert not (track[3] & movers)  # never accelerated [9.5]


def test_9_5_reinforcement_may_enter_a_red_row_hex() -> None:
    s = _at_ii_e(_base(), 2)
    pid = _one_waiting(s)
    assert RED in _moves(s)[pid]
    s = act(s, "move", "soviet", piece=pid, to=RED)
    assert s.piece(pid).location == RED


def test_9_5_reinforcement_may_enter_a_never_german_soviet_city() -> None:
    s = _at_ii_e(_base(), 2)
    pid = _one_waiting(s)
    assert CITY in _moves(s)[pid]


def test_9_5_reinforcement_may_not_enter_city_ever_german() -> None:
    s = _base()
    # German-controlled once, even briefly, and back in Soviet hands now [9.5, 3.12].
    s = s.with_var(V_EVER_GERMAN, (CITY,))
    s = _at_ii_e(s, 2)
    pid = _one_waiting(s)
    assert CITY not in _moves(s)[pid]
    with pytest.raises(IllegalAction):
        do(s, "move", "soviet", piece=pid, to=CITY)


def test_9_5_reinforcement_may_not_enter_city_with_a_german_unit_adjacent() -> None:
    s = _base()
    ger = ids(s, "ger_infantry", 1)[0]
    s = put(s, ger, board().neighbors[CITY][0])
    s = _at_ii_e(s, 2)
    assert CITY not in _moves(s)[_one_waiting(s)]


def test_9_5_reinforcement_may_not_enter_a_city_that_began_german() -> None:
    s = _at_ii_e(_base(), 2)
    # 5102 is a Greater Germany city; 4906 a Lithuanian one (German at the start [3.12]).
    dests = _moves(s)[_one_waiting(s)]
    assert "5102" not in dests and "4906" not in dests


def test_9_5_reinforcements_obey_stacking_in_red_row_hexes() -> None:
    s = _base()
    for pid in [p.id for p in s.pieces_at(trt_box(3))][:3]:  # three armies fill an east hex
        s = put(s, pid, RED)
    s = _at_ii_e(s, 2)
    assert RED not in _moves(s)[_one_waiting(s)]


def test_9_5_reinforcements_may_go_to_the_southwest_or_arctic_box() -> None:
    s = _at_ii_e(_base(), 2)
    pid = _one_waiting(s)
    assert SSWFHB_JUST_ARRIVED in _moves(s)[pid] and SAFHB in _moves(s)[pid]
    s = act(s, "move", "soviet", piece=pid, to=SSWFHB_JUST_ARRIVED)
    assert s.piece(pid).location == SSWFHB_JUST_ARRIVED


def test_9_5_delayed_reinforcements_wait_in_the_next_turn_box() -> None:
    s = _at_ii_e(_base(), 2)
    waiting = {p.id for t in (1, 2) for p in s.pieces_at(trt_box(t))}
    pid = sorted(waiting)[0]
    s = act(s, "move", "soviet", piece=pid, to=RED)
    s = act(s, "end_step", "soviet")
    assert {p.id for p in s.pieces_at(trt_box(3))} >= waiting - {pid}
    assert not s.pieces_at(trt_box(1)) and not s.pieces_at(trt_box(2))


def test_2_12_reinforcements_enter_untried() -> None:
    s = _at_ii_e(_base(), 2)
    pid = next(p for p in _moves(s) if s.piece(p).type == "sov_regular")
    s = act(s, "move", "soviet", piece=pid, to=RED)
    p = s.piece(pid)
    assert hidden.is_untried(p) and "name" not in p.attrs


def test_9_7_first_shock_enters_face_up_from_the_turn_10_box() -> None:
    s = _base()
    shock = ids(s, "sov_1st_shock", 1)[0]
    assert s.piece(shock).location == trt_box(10)
    assert shock not in _moves(_at_ii_e(s, 9))
    s = _forts(_at_ii_e(s, 10), 1)  # the fort roll first (1: none)
    assert RED in _moves(s)[shock]
    s = act(s, "move", "soviet", piece=shock, to=RED)
    assert not hidden.is_untried(s.piece(shock)) and s.piece(shock).attrs.get("name") == "1S"


# --- replacements [9.10] and Juggernaut conversions [9.6] ----------------------------------

def _pile(s: GameState, n: int) -> tuple[GameState, list[str]]:
    regs = sorted(p.id for p in s.pieces_at(trt_box(11)))[:1] + \
        sorted(p.id for p in s.pieces_at(trt_box(9)))[:n - 1]
    for pid in regs:
        s = put(s, pid, SOVIET_REPLACEMENTS)
    return s, regs


def test_9_10_no_soviet_replacements_before_turn_4() -> None:
    s, regs = _pile(_base(), 3)
    s = _at_ii_e(s, 3)
    assert {p.id for p in s.pieces_at(SOVIET_REPLACEMENTS)} == set(regs)


def test_9_10_replacements_drawn_from_the_pile_enter_as_reinforcements() -> None:
    s, regs = _pile(_base(), 3)
    per_turn = game().definition.tables["turn_record"]["sov_replacements"]
    s = _forts(_at_ii_e(s, 6), 1)
    drawn = [pid for pid in regs if s.piece(pid).location == trt_box(6)]
    assert len(drawn) == per_turn[5]  # the track's number for turn 6 (provisional: 2)
    assert set(drawn) <= set(_moves(s))


def test_9_10_replacements_never_far_east_armies_first_shock_or_mg() -> None:
    s = _base()
    g = game()
    gone = [ids(s, "sov_far_east", 1)[0], ids(s, "sov_far_east_cavalry", 1)[0],
            ids(s, "sov_1st_shock", 1)[0], ids(s, "sov_moscow_garrison", 1)[0]]
    for pid in gone:
        s = losses.eliminate(g, s, s.piece(pid), "test").state
    assert all(s.piece(pid).location == DEAD for pid in gone)
    s = _forts(_at_ii_e(s, 11), 1)  # three replacements due, nothing in the pile
    assert all(s.piece(pid).location == DEAD for pid in gone)


def test_9_10_an_eliminated_regular_goes_untried_to_the_replacement_pile() -> None:
    s = _base()
    pid = sorted(p.id for p in s.pieces_at(trt_box(2)))[0]
    s = put(s, pid, RED)
    s, shown = hidden.reveal(s, s.piece(pid))
    assert not hidden.is_untried(shown)
    s = losses.eliminate(game(), s, shown, "test").state
    assert s.piece(pid).location == SOVIET_REPLACEMENTS and hidden.is_untried(s.piece(pid))


def test_9_6_juggernaut_eliminated_its_red_dot_substitute_joins_the_replacement_pile() -> None:
    s = ready()
    jug = next(p for p in s.pieces.values() if p.type == "sov_juggernaut"
               and board().on_map(p.location))
    army = hidden.true_name(s, jug)
    s = losses.eliminate(game(), s, jug, "test").state
    assert s.piece(jug.id).location == DEAD  # out of play for good
    subs = [p for p in s.pieces_at(SOVIET_REPLACEMENTS) if p.attrs.get("red_dot")]
    assert [hidden.true_name(s, p) for p in subs] == [army]


# --- semi-permanent forts [9.8] -------------------------------------------------------------

def _forts(s: GameState, roll: int) -> GameState:
    return act(s, "dice", "soviet", values=(roll,))


def _fort_dests(s: GameState) -> tuple[str, ...]:
    fort = next(pid for pid in _moves(s) if s.piece(pid).type == "sov_fort")
    return _moves(s)[fort]


def test_9_8_no_forts_before_turn_5() -> None:
    s = _at_ii_e(_base(), 4)
    assert not s.frames and s.var(V_FORTS_ALLOWED) == 0
    assert not any(s.piece(pid).type == "sov_fort" for pid in _moves(s))


def test_9_8_forts_from_turn_5_roll_d6_minus_one() -> None:
    s = _at_ii_e(_base(), 5)
    assert s.frames and s.frames[-1].kind == "dice"
    s = _forts(s, 4)
    assert s.var(V_FORTS_ALLOWED) == 3
    s = _forts(_at_ii_e(_base(), 5), 1)
    assert s.var(V_FORTS_ALLOWED) == 0


def test_9_8_forts_beyond_the_markers_left_are_forfeit() -> None:
    s = _base()
    forts = sorted(p.id for p in s.pieces_at(SOVIET_FORTS))
    for pid, h in zip(forts[2:], ("4620", "4621", "4622", "4623", "4625", "4626", "4627"),
                      strict=False):
        s = put(s, pid, h)
    s = _forts(_at_ii_e(s, 5), 6)
    assert s.var(V_FORTS_ALLOWED) == 2


def test_9_8_fort_range_is_five_hexes_from_moscow_vyazma_4519_counts_five() -> None:
    s = _forts(_at_ii_e(_base(), 5), 6)
    dests = _fort_dests(s)
    assert "4519" in dests
    dist = board().distances([MOSCOW])
    from wartable.games.whatif1940.steps.control import initial_controller
    six = [h for h, d in dist.items() if d == 6 and board().hex(h).region == "USSR"
           and initial_controller(board(), s, h) == "soviet"
           and board().distances(["5917"]).get(h, 99) > 5]
    assert six and not set(six) & set(dests)


def test_9_8_forts_never_in_a_city_nor_outside_the_ussr() -> None:
    s = _forts(_at_ii_e(_base(), 5), 6)
    dests = _fort_dests(s)
    b = board()
    assert dests and all(b.hex(h).region == "USSR" and not b.hex(h).city for h in dests)
    assert "4624" not in dests  # Moscow itself is a city


def test_9_8_no_fort_next_to_a_german_unit() -> None:
    near = set(board().neighbors["4519"])
    before = set(_fort_dests(_forts(_at_ii_e(_base(), 5), 6)))
    assert near & before  # Vyazma's neighbours are in range with no German about
    s = _base()
    s = put(s, ids(s, "ger_infantry", 1)[0], "4519")
    s = s.with_var(V_CONTROL, FrozenMap({"4519": "german"}))
    dests = set(_fort_dests(_forts(_at_ii_e(s, 5), 6)))
    assert not near & dests


def test_9_8_no_fort_in_moscow_range_while_a_german_unit_is_next_to_moscow() -> None:
    s = _base()
    ger = ids(s, "ger_infantry", 1)[0]
    s = put(s, ger, board().neighbors[MOSCOW][0])
    s = s.with_var(V_CONTROL, FrozenMap({board().neighbors[MOSCOW][0]: "german"}))
    s = _forts(_at_ii_e(s, 5), 6)
    dests = _fort_dests(s)
    assert "4519" not in dests  # Moscow's range is closed; Leningrad's stays open
    assert any(board().distances(["5917"]).get(h, 99) <= 5 for h in dests)


def test_9_8_one_fort_per_hex() -> None:
    s = _forts(_at_ii_e(_base(), 5), 6)
    s = act(s, "move", "soviet", piece=next(pid for pid in _moves(s)
                                            if s.piece(pid).type == "sov_fort"), to="4519")
    assert s.var(V_FORTS_ALLOWED) == 4
    assert "4519" not in _fort_dests(s)


def test_9_8_fort_lost_when_the_germans_take_its_hex() -> None:
    s = _base()
    fort = ids(s, "sov_fort", 1)[0]
    s = put(s, fort, "4519")
    s = s.with_var(V_CONTROL, FrozenMap({"4519": "german"}))
    s = _at_ii_e(s, 4)
    assert s.piece(fort).location == SOVIET_FORTS


def test_9_8_fort_returns_to_the_pool_the_moment_a_german_unit_takes_its_hex() -> None:
    s = _base()
    fort = ids(s, "sov_fort", 1)[0]
    inf = ids(s, "ger_infantry", 1)[0]
    start = board().neighbors["4519"][0]
    s = put(put(s, fort, "4519"), inf, start)
    s = s.with_var(V_CONTROL, FrozenMap({start: "german"}))
    s = goto(s, "german_east_move_d", turn=2)
    assert "4519" in prompt(game(), s).moves[inf]
    s = act(s, "move", "german", piece=inf, to="4519")
    assert s.piece(inf).location == "4519" and s.piece(fort).location == SOVIET_FORTS
    assert all("sov_fort" not in x for x in game().rules.invariants(game(), s))
