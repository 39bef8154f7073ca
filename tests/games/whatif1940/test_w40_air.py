"""Airpower [8.1-8.3]: air superiority in I.A and ground movement interdiction.

Each test sets up the exact situation on the real maps (an empty board, then the units the
rule needs) and plays the step through the engine. Expected costs are the rulebook's: a
Soviet unit pays 1 MP per hex [10.2], doubled inside an interdiction zone [8.3]."""

from __future__ import annotations

import pytest
from w40_helpers import act, base, board, game, goto, moves, plain, put

from wartable.core.errors import IllegalAction
from wartable.engine.loop import prompt
from wartable.games.whatif1940 import air
from wartable.games.whatif1940.ids import (
    ANGLO_FRENCH,
    EAST,
    GERMAN,
    SOVIET,
    V_AIR_SUPPRESSED,
    V_AIR_USED,
    V_INTERDICTION,
    WEST,
)
from wartable.games.whatif1940.steps import airpower, interdiction
from wartable.model.state import GameState

G = game()
B = board()
LW = ["german.ger_aircraft.1", "german.ger_aircraft.2", "german.ger_aircraft.3",
      "german.ger_aircraft.4"]
BRIT, FR, VVS = ("anglo_french.brit_aircraft.1", "anglo_french.fr_aircraft.1",
                 "soviet.sov_aircraft.1")
SOV = "soviet.sov_regular.1"
INF = "german.ger_infantry.1"


def open_line(region: str, map_id: str) -> tuple[str, str, str, str]:
    """Plain hexes a, b, x, c of `region` with no hexside features anywhere near: b is next
    to a and to x; x is two hexes from a; c is next to a and two hexes from x."""
    def ok(h: str) -> bool:
        return plain(h) and B.hex(h).region == region and all(
            not B.side_features(h, n) for n in B.neighbors[h])

    for a in B.labels(map_id):
        if not ok(a) or len(B.neighbors[a]) < 6:
            continue
        for b in B.neighbors[a]:
            if not ok(b):
                continue
            for x in B.neighbors[b]:
                if x == a or x in B.neighbors[a] or not ok(x):
                    continue
                far = set(B.neighbors[x]) | {x}
                c = next((n for n in B.neighbors[a] if ok(n) and n not in far and n != b),
                         None)
                if c is not None:
                    return a, b, x, c
    raise AssertionError("no such hexes")


A, BH, X, C = open_line("USSR", EAST)


def soviet_at(s: GameState, where: str) -> GameState:
    return put(s, SOV, where, untried=False, factors=(4, 5))


# --- air superiority [8.1] -----------------------------------------------------------------

def test_8_1_air_superiority_is_its_own_step_at_the_start_of_i_a() -> None:
    ids = [p.step.id for p in G.positions if p.phase.id == "german"]
    assert ids.index("german_air") == ids.index("german_air_transfer") - 1
    s = goto(base(), "german_air", turn=2)
    p = prompt(G, s)
    assert p.side == GERMAN
    assert {b.args.get("target") for b in p.buttons if b.id == airpower.VERB} == {BRIT, FR, VVS}


def test_8_1_suppressed_aircraft_cannot_support_this_turn() -> None:
    s = goto(base(), "german_air", turn=2)
    assert air.available(G, s, SOVIET, EAST, "attack") == (VVS,)
    s = act(s, airpower.VERB, GERMAN, target=VVS)
    assert VVS in s.var(V_AIR_SUPPRESSED)
    assert air.available(G, s, SOVIET, EAST, "attack") == ()
    # The Luftwaffe unit that flew is out for the game turn too; the other three are not.
    assert s.var(V_AIR_USED) == (LW[0],)
    assert air.available(G, s, GERMAN, EAST, "attack") == tuple(LW[1:])
    # The Anglo-French aircraft were not chosen: still free to fly.
    assert air.available(G, s, ANGLO_FRENCH, WEST, "defense") == (BRIT, FR)


def test_8_1_suppressed_aircraft_return_at_the_next_game_turn() -> None:
    s = goto(base(), "german_air", turn=2)
    s = act(s, airpower.VERB, GERMAN, target=BRIT)
    s = goto(s, "soviet_move", turn=2)  # same game turn: still out
    assert BRIT in s.var(V_AIR_SUPPRESSED) and LW[0] in s.var(V_AIR_USED)
    s = goto(s, "east_order", turn=3)
    assert not s.var(V_AIR_SUPPRESSED) and not s.var(V_AIR_USED)
    assert air.available(G, s, ANGLO_FRENCH, WEST, "attack") == (BRIT, FR)


def test_8_1_at_most_three_luftwaffe_units_fly_superiority() -> None:
    s = goto(base(), "german_air", turn=2)
    for t in (BRIT, FR, VVS):
        s = act(s, airpower.VERB, GERMAN, target=t)
    assert s.var(V_AIR_USED) == tuple(LW[:3])
    assert "three" in airpower.why_not(G, s)
    assert all(not b.enabled for b in prompt(G, s).buttons if b.id == airpower.VERB)
    assert air.available(G, s, GERMAN, WEST, "attack") == (LW[3],)  # one left for support


def test_8_1_a_luftwaffe_unit_that_has_flown_cannot_fly_superiority() -> None:
    s = goto(base(), "german_air", turn=2).with_var(V_AIR_USED, tuple(LW))
    with pytest.raises(IllegalAction, match="8.1"):
        act(s, airpower.VERB, GERMAN, target=VVS)
    s = goto(base(), "german_air", turn=2)
    with pytest.raises(IllegalAction, match="8.1"):  # a suppressed one cannot be again
        act(act(s, airpower.VERB, GERMAN, target=VVS), airpower.VERB, GERMAN, target=VVS)


# --- interdiction [8.3] ----------------------------------------------------------------------

def interdicting(s: GameState, where: list[str], step: str = "german_interdiction_east",
                 side: str = GERMAN) -> GameState:
    s = goto(s, step, turn=2)
    assert prompt(G, s).side == side
    for i, h in enumerate(where):
        pid = interdiction.available(G, s, interdiction.MOVE_OF[step])[0]
        s = act(s, interdiction.VERB, side, piece=pid, to=h)
        assert len(interdiction.placed(s)) == i + 1
    return act(s, "end_step", side)


def test_8_3_interdiction_doubles_cost_entering_adjacent_hex() -> None:
    s = soviet_at(base(), A)
    free = goto(s, "soviet_move", turn=2)
    assert moves(free, SOV)[BH] == 1 and moves(free, SOV)[C] == 1  # [10.2] 1 per hex
    s = interdicting(s, [X])
    assert s.var(V_INTERDICTION)["at"] == {LW[0]: X}
    got = moves(s, SOV)
    assert got[BH] == 2  # B is next to the interdictor: entering it costs double
    assert got[C] == 1  # outside the zone: normal


def test_8_3_leaving_an_interdicted_hex_costs_double() -> None:
    # The Soviet stands inside the zone (next to the interdictor); C is outside it.
    s = soviet_at(base(), A)
    s = interdicting(s, [BH])
    assert moves(s, SOV)[C] == 2


def test_8_3_overlapping_zones_double_only_once() -> None:
    s = soviet_at(base(), A)
    second = next(n for n in B.neighbors[BH] if n not in (A, X))
    s = interdicting(s, [X, second])
    assert moves(s, SOV)[BH] == 2  # in both zones: still only double


def test_8_3_one_interdictor_per_hex_and_it_is_out_for_the_game_turn() -> None:
    s = goto(soviet_at(base(), A), "german_interdiction_east", turn=2)
    s = act(s, interdiction.VERB, GERMAN, piece=LW[0], to=X)
    with pytest.raises(IllegalAction, match="one interdicting aircraft per hex"):
        act(s, interdiction.VERB, GERMAN, piece=LW[1], to=X)
    with pytest.raises(IllegalAction, match="8.3"):  # it has flown its mission
        act(s, interdiction.VERB, GERMAN, piece=LW[0], to=BH)
    assert LW[0] not in air.available(G, s, GERMAN, EAST, "defense")


def test_8_3_interdictors_leave_at_the_end_of_the_movement_phase() -> None:
    s = soviet_at(base(), A)
    s = interdicting(s, [X])
    assert interdiction.zone(B, s, SOVIET)
    s = act(s, "end_step", SOVIET)
    assert V_INTERDICTION not in s.vars and not interdiction.zone(B, s, SOVIET)
    assert LW[0] in s.var(V_AIR_USED)  # still out for the rest of the game turn [8.3]


def test_8_3_interdiction_hits_only_the_enemy_moving_side() -> None:
    s = soviet_at(base(), A)
    s = interdicting(s, [X])
    assert interdiction.zone(B, s, SOVIET) and not interdiction.zone(B, s, GERMAN)


def test_8_3_the_soviet_aircraft_never_interdicts_and_german_east_moves_are_free() -> None:
    assert all(side != SOVIET for side, _, _ in interdiction.INTERDICTORS.values())
    steps = [p.step for p in G.positions if p.phase.id == "german"]
    for move in ("german_east_move_d", "german_east_move_e"):
        i = [x.id for x in steps].index(move)
        assert steps[i - 1].kind != interdiction.KIND


def test_8_3_suppressed_anglo_french_aircraft_cannot_interdict() -> None:
    s = base().with_var(V_AIR_SUPPRESSED, (BRIT, FR))
    pos = next(p for p in G.positions if p.step.id == "af_interdiction")
    s = s.with_var("air_turn", 2)
    from dataclasses import replace

    st = replace(s, turn=2, step_index=pos.index)
    out = G.rules.enter_step(G, st, pos)
    assert out.auto_end  # nothing may fly: the step passes
    assert interdiction.available(G, out.state, "german_west_move") == ()
    s = base().with_var(V_AIR_SUPPRESSED, (BRIT,)).with_var("air_turn", 2)
    assert interdiction.available(G, replace(s, turn=2), "german_west_move") == (FR,)


def test_8_3_anglo_french_interdict_german_units_on_the_west_map() -> None:
    a, b, x, _ = open_line("Greater Germany", WEST)
    s = put(base(), INF, a)
    free = goto(s, "german_west_move", turn=2)
    normal = moves(free, INF)[b]
    s = interdicting(s, [x], step="af_interdiction", side=ANGLO_FRENCH)
    assert moves(s, INF)[b] == 2 * normal


def test_12_9_interdictors_may_be_placed_in_red_row_hexes() -> None:
    red = next(h for h in B.labels(EAST) if B.hex(h).red_row)
    s = interdicting(soviet_at(base(), A), [red])
    assert interdiction.placed(s)[LW[0]] == red


def test_8_3_random_play_candidates_offer_interdiction() -> None:
    s = goto(soviet_at(base(), A), "german_interdiction_east", turn=2)
    got = G.rules.candidate_actions(G, s, prompt(G, s))
    assert any(a.verb == interdiction.VERB and a.args["to"] == A for a in got)
    assert any(a.verb == "end_step" for a in got)
