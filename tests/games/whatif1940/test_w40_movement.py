"""Movement [10.1-10.14], movement factors [2.10], map limits [3.6-3.9, 12.9]."""

from __future__ import annotations

from dataclasses import replace

import pytest
from w40_helpers import act, board, clear, game, goto, ids, moves, pair, put, ready

from wartable.core.errors import IllegalAction
from wartable.games.whatif1940 import units
from wartable.games.whatif1940.ids import EAST, V_ARDENNES_OPEN, V_PLOESTI, WEST
from wartable.games.whatif1940.steps import movement
from wartable.model.state import GameState

B = board()


def plain(h: str) -> bool:
    """A hex with nothing special: no red row, city, water or garrison."""
    x = B.hex(h)
    return not x.red_row and not x.city and not x.fortified and x.terrain not in ("sea", "lake")


def base() -> GameState:
    return clear(ready())


def german_east(state: GameState, turn: int = 1) -> GameState:
    return goto(state, "german_east_move_d", turn=turn)


PZ = "german.ger_panzer.1"
INF = "german.ger_infantry.1"
INF2 = "german.ger_infantry.2"


def test_2_10_movement_factors_by_class_nation_map_and_turn() -> None:
    g, s = game(), base()
    mf = units.movement_factor
    assert mf(g, s, s.piece(INF), WEST) == 6
    assert mf(g, s, s.piece(PZ), EAST) == 12 and mf(g, s, s.piece(INF), EAST) == 6  # GEMMF 12/6
    assert mf(g, s, s.piece(ids(s, "sov_regular", 1)[0]), EAST) == 4
    assert mf(g, s, s.piece("soviet.sov_moscow_garrison.1"), EAST) == 0
    assert mf(g, s, s.piece("german.ger_7th_flieger.1"), EAST) == 0
    assert mf(g, s, s.piece(ids(s, "fr_tank_top", 1)[0]), WEST) == 8
    assert mf(g, s, s.piece(ids(s, "fr_tank_inferior", 1)[0]), WEST) == 6
    assert mf(g, s.with_var(V_PLOESTI, True), s.piece(PZ), EAST) == 6  # [6.10] halved


def test_10_9_forest_costs_mech_two_non_mech_one() -> None:
    a, f = pair(lambda a, b: plain(a) and plain(b) and B.hex(a).terrain == "clear"
                and B.hex(b).terrain == "forest" and not B.side_features(a, b), EAST)
    s = german_east(put(put(base(), PZ, a), INF2, a))
    assert moves(s, PZ)[f] == 2
    assert moves(s, INF2)[f] == 1


def test_10_12_hill_costs_mech_three_and_costs_add_up() -> None:
    a, h = pair(lambda a, b: plain(a) and plain(b) and B.hex(b).terrain == "hill"
                and not B.side_features(a, b), EAST)
    s = german_east(put(base(), PZ, a))
    assert moves(s, PZ)[h] == 3
    # [10.12] a mechanized unit entering a mountain across a major river pays 3 + 3 = 6.
    a, h = pair(lambda a, b: plain(a) and plain(b) and B.hex(b).terrain == "hill"
                and "major_river" in B.side_features(a, b), EAST)
    s = german_east(put(base(), PZ, a))
    assert moves(s, PZ)[h] == 6


def test_10_11_river_and_major_river_hexsides() -> None:
    a, r = pair(lambda a, b: plain(a) and plain(b) and B.hex(b).terrain == "clear"
                and B.side_features(a, b) == {"river"}, EAST)
    s = german_east(put(put(base(), PZ, a), INF2, a))
    assert moves(s, PZ)[r] == 1 + 2 and moves(s, INF2)[r] == 1 + 1
    a, m = pair(lambda a, b: plain(a) and plain(b) and B.hex(b).terrain == "clear"
                and B.side_features(a, b) == {"major_river"}, EAST)
    s = german_east(put(put(base(), PZ, a), INF2, a))
    assert moves(s, PZ)[m] == 1 + 3 and moves(s, INF2)[m] == 1 + 2


def test_10_11_all_sea_and_all_lake_are_impassable() -> None:
    a, w = pair(lambda a, b: plain(a) and B.hex(b).terrain in ("sea", "lake"), EAST)
    s = german_east(put(base(), INF2, a))
    assert w not in moves(s, INF2)
    a, c = pair(lambda a, b: plain(a) and plain(b) and "lake" in B.side_features(a, b), EAST)
    s = german_east(put(base(), INF2, a))
    assert movement.edge_costs(game(), B, "nonmech")[(a, c)] is None
    assert moves(s, INF2).get(c, 99) >= 2  # only the long way round
    # Not even the minimum move crosses it [10.3]: spend nothing, the hex next door
    # across the lake stays out of reach at a cost of 1.


def test_10_11_a_city_negates_rivers_but_not_major_rivers() -> None:
    sov = ids(ready(), "sov_regular", 1)[0]
    a, c = pair(lambda a, b: B.hex(b).city and B.hex(b).region == "USSR" and not B.hex(a).city
                and B.side_features(a, b) == {"river"} and plain(a), EAST)
    s = goto(put(base(), sov, a), "soviet_move")
    assert moves(s, sov)[c] == 1  # the river is negated: Soviets pay 1
    a, c = pair(lambda a, b: B.hex(b).city and B.hex(b).region == "USSR" and not B.hex(a).city
                and B.side_features(a, b) == {"major_river"} and plain(a), EAST)
    s = goto(put(base(), sov, a), "soviet_move")
    assert moves(s, sov)[c] == 2


def test_10_2_soviets_pay_one_per_hex_plus_one_for_a_river() -> None:
    sov = ids(ready(), "sov_regular", 1)[0]
    a, f = pair(lambda a, b: plain(a) and plain(b) and B.hex(b).terrain in ("forest", "hill",
                "marsh") and not B.side_features(a, b) and B.hex(b).region == "USSR", EAST)
    s = goto(put(base(), sov, a), "soviet_move")
    assert moves(s, sov)[f] == 1
    a, r = pair(lambda a, b: plain(a) and plain(b) and B.side_features(a, b) == {"river"}
                and B.hex(b).region == "USSR", EAST)
    s = goto(put(base(), sov, a), "soviet_move")
    assert moves(s, sov)[r] == 2
    a, m = pair(lambda a, b: plain(a) and plain(b) and B.side_features(a, b) == {"major_river"}
                and B.hex(b).region == "USSR", EAST)
    s = goto(put(base(), sov, a), "soviet_move")
    assert moves(s, sov)[m] == 2  # our reading: +1 for any river (NOTES.md)
    s = goto(put(base(), sov, a), "soviet_move")
    s2 = replace(s, options=s.options.set("soviet_major_river_plus_two", True))
    assert moves(s2, sov)[m] == 3
    assert max(moves(s, sov).values()) <= 4  # Soviet MF 4 [2.10]


def test_10_3_minimum_move_one_hex_for_the_whole_mf() -> None:
    # Turn 9 and Ploesti fallen: panzers have 6 / 2 = 3 MP [6.10]; clear across a major
    # river costs 1 + 3 = 4, so only the minimum move gets them there.
    g = game()
    for a in B.labels(EAST):
        h = next((n for n in B.neighbors[a] if plain(a) and plain(n)
                  and B.side_features(a, n) == {"major_river"}), None)
        if h is None:
            continue
        s = german_east(put(base(), PZ, a).with_var(V_PLOESTI, True), turn=9)
        if h not in movement.force_reach(g, B, s, (s.piece(PZ),), 3, False).costs:
            break
    else:
        raise AssertionError("no hex only the minimum move reaches")
    assert moves(s, PZ)[h] == 3
    s = act(s, "move", "german", piece=PZ, to=h)
    assert s.piece(PZ).location == h and s.piece(PZ).attrs["mp_used"] == 3
    assert moves(s, PZ) == {}
    # Once any MP are spent the guarantee is gone.
    a2 = next(n for n in B.neighbors[a] if plain(n) and B.side_features(a, n) <= {"border"}
              and B.hex(n).terrain == "clear" and n != h)
    s = german_east(put(base(), PZ, a2).with_var(V_PLOESTI, True), turn=9)
    s = act(s, "move", "german", piece=PZ, to=a)
    assert h not in moves(s, PZ)


def test_10_7_enemy_occupied_hexes_may_not_be_entered() -> None:
    a, e = pair(lambda a, b: plain(a) and plain(b) and not B.side_features(a, b)
                and B.hex(b).region == "USSR", EAST)
    sov = ids(ready(), "sov_regular", 1)[0]
    s = german_east(put(put(base(), PZ, a), sov, e))
    assert e not in moves(s, PZ)
    with pytest.raises(IllegalAction, match="10.7"):
        act(s, "move", "german", piece=PZ, to=e)


def test_10_4_stacks_move_together_only_if_they_began_together() -> None:
    a, f = pair(lambda a, b: plain(a) and plain(b) and B.hex(a).terrain == "clear"
                and B.hex(b).terrain == "forest" and not B.side_features(a, b), EAST)
    s = german_east(put(put(base(), PZ, a), INF, a))
    s = act(s, "move", "german", pieces=(PZ, INF), to=f)
    # [10.6] the stack moves at the pace of its slowest: both pay the panzer's 2.
    assert s.piece(PZ).location == f == s.piece(INF).location
    assert s.piece(PZ).attrs["mp_used"] == 2 == s.piece(INF).attrs["mp_used"]
    # A unit that began the phase elsewhere may not join the stack's move.
    n = next(x for x in B.neighbors[a] if plain(x) and x != f and not B.side_features(a, x))
    s = german_east(put(put(put(base(), PZ, a), INF, a), INF2, n))
    s = act(s, "move", "german", piece=INF2, to=a)
    with pytest.raises(IllegalAction, match="10.4"):
        act(s, "move", "german", pieces=(PZ, INF2), to=f)


def test_10_5_an_earlier_stack_may_not_resume_once_another_moves() -> None:
    a, b_ = pair(lambda a, b: plain(a) and plain(b) and not B.side_features(a, b)
                 and B.hex(a).region == "Greater Germany", EAST)
    c = next(x for x in B.labels(EAST) if plain(x) and x not in (a, b_)
             and B.hex(x).region == "Greater Germany" and B.distances([a]).get(x, 9) > 3)
    s = german_east(put(put(put(base(), PZ, a), INF, a), INF2, c))
    s = act(s, "move", "german", piece=PZ, to=b_)
    s = act(s, "move", "german", piece=PZ, to=a)  # the same unit may keep moving
    s = act(s, "move", "german", piece=INF, to=b_)  # so may its parent stack
    other = next(n for n in B.neighbors[c] if plain(n) and not B.side_features(c, n))
    s = act(s, "move", "german", piece=INF2, to=other)  # a different parent stack
    with pytest.raises(IllegalAction, match="10.5"):
        act(s, "move", "german", piece=PZ, to=b_)
    assert moves(s, PZ) == {}  # the prompt no longer offers it


def test_10_10_closed_ardennes_only_for_french_and_belgian_cavalry() -> None:
    s = base()
    fr, cav = ids(s, "fr_infantry", 1)[0], ids(s, "fr_cavalry", 1)[0]
    s = goto(put(put(s, fr, "1403"), cav, "1402"), "af_move")  # 1403-1502: no river
    assert "1502" not in moves(s, fr)
    assert "1502" in moves(s, cav)
    s = goto(s.with_var(V_ARDENNES_OPEN, True), "af_move")
    assert moves(s, fr)["1502"] == 1  # open: forest, 1 for non-mechanized [10.9]


def test_10_10_the_ardennes_roll_on_a_one() -> None:
    from wartable.engine.actions import Action
    from wartable.engine.loop import apply

    s = replace(ready(), dice_mode="physical", turn=2)
    s = goto(s, "af_replacement", turn=1)
    s = act(s, "end_step", "anglo_french")  # into turn 2: the German turn
    s = goto(s, "soviet_reinforcement", turn=2)
    s = act(s, "end_step", "soviet")  # III.A: the roll is asked for
    assert s.top_frame is not None and s.top_frame.kind == "dice"
    s6 = apply(game(), s, Action.make("dice", "anglo_french", values=(6,))).state
    assert not s6.var(V_ARDENNES_OPEN)
    s1 = apply(game(), s, Action.make("dice", "anglo_french", values=(1,))).state
    assert s1.var(V_ARDENNES_OPEN) is True


def test_3_9_west_map_germans_stay_in_greater_germany() -> None:
    s = base()
    s = goto(put(s, INF, "1306"), "german_west_move", turn=2)
    m = moves(s, INF)
    assert m and all(B.hex(h).region == "Greater Germany" for h in m)
    assert "1406" not in m and "1505" not in m  # Luxembourg [3.7]


def test_3_6_germans_never_enter_holland() -> None:
    s = act(goto(base(), "af_move"), "violate_neutrality", "anglo_french", country="holland")
    a, h = pair(lambda a, b: B.hex(a).region == "Greater Germany" and plain(a)
                and B.hex(b).region == "Holland" and plain(b), WEST)
    s = goto(put(s, INF, a), "german_west_move", turn=2)
    assert h not in moves(s, INF)


def test_12_9_red_row_hexes() -> None:
    sov = ids(ready(), "sov_regular", 1)[0]
    a, r = pair(lambda a, b: plain(a) and B.hex(b).red_row and B.hex(b).terrain not in
                ("sea", "lake") and not B.hex(b).city and not (B.side_features(a, b)
                & {"sea", "lake"}), EAST)
    s = german_east(put(base(), INF, a))
    assert r not in moves(s, INF)  # never for Germans
    s = goto(put(base(), sov, a), "soviet_move")
    assert r not in moves(s, sov)  # no way back onto the red row
    r1, r2 = pair(lambda a, b: B.hex(a).red_row and B.hex(b).red_row and plain_red(a)
                  and plain_red(b) and not (B.side_features(a, b) & {"sea", "lake"}), EAST)
    s = goto(put(base(), sov, r1), "soviet_move")
    assert r2 in moves(s, sov)  # entering units may move along it


def plain_red(h: str) -> bool:
    x = B.hex(h)
    return x.red_row and not x.city and x.terrain not in ("sea", "lake")


def test_3_6_neutrals_closed_until_violated() -> None:
    s = base()
    br = ids(s, "brit_infantry", 1)[0]
    a, bel = pair(lambda a, b: B.hex(a).region == "France" and plain(a)
                  and B.hex(b).region == "Belgium" and plain(b)
                  and B.hex(b).terrain == "clear", WEST)
    s = goto(put(s, br, a), "af_move")
    assert bel not in moves(s, br)
    with pytest.raises(IllegalAction, match="3.6"):
        act(s, "move", "anglo_french", piece=br, to=bel)


def test_3_6_dutch_violation_hands_the_dutch_to_the_german() -> None:
    s = goto(ready(), "af_move")
    s = act(s, "violate_neutrality", "anglo_french", country="holland")
    dutch = [p for p in s.pieces.values() if p.type == "nl_infantry"]
    assert dutch and all(p.side == "german" for p in dutch)
    assert s.var("holland") == "violated"
    with pytest.raises(IllegalAction, match="already"):
        act(s, "violate_neutrality", "anglo_french", country="holland")
    # The Dutch move in the German west phase, inside Holland only.
    s = goto(s, "german_west_move", turn=2)
    m = moves(s, dutch[0].id)
    assert m and all(B.hex(h).region == "Holland" for h in m)


@pytest.mark.parametrize(("roll", "six", "result"), [
    (1, False, "allied"), (6, False, "frozen"), (3, False, "frozen"),
    (6, True, "allied"), (1, True, "frozen"),
])
def test_3_6_belgian_coup_roll(roll: int, six: bool, result: str) -> None:
    from wartable.engine.actions import Action
    from wartable.engine.loop import apply

    s = replace(goto(ready(), "af_move"), dice_mode="physical")
    s = replace(s, options=s.options.set("belgian_coup_on_six", six))
    s = act(s, "violate_neutrality", "anglo_french", country="belgium")
    s = apply(game(), s, Action.make("dice", "anglo_french", values=(roll,))).state
    assert s.var("belgium") == result
    bel = ids(s, "bel_infantry", 1)[0]
    movable = bool(moves(goto(s, "af_move"), bel))
    assert movable == (result == "allied")  # frozen Belgians never move [3.6]


def test_3_7_luxembourg_is_open_to_the_anglo_french() -> None:
    s = base()
    fr = ids(s, "fr_infantry", 1)[0]
    s = goto(put(s, fr, "1305"), "af_move")
    assert "1406" in moves(s, fr) or "1505" in moves(s, fr)
    lux = "1406" if "1406" in moves(s, fr) else "1505"
    s = act(s, "move", "anglo_french", piece=fr, to=lux)
    assert s.var("luxembourg_entered") is True


def test_10_2_prompt_lists_destinations_with_costs() -> None:
    s = goto(ready(), "german_east_move_d")
    from wartable.engine.loop import prompt

    p = prompt(game(), s)
    assert p.moves and set(p.moves) == set(p.costs)
    for pid, dests in p.moves.items():
        assert set(dests) == set(p.costs[pid])
        assert all(0 < c <= 12 for c in p.costs[pid].values())
