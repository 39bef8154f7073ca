"""Supply [6.1-6.12, 8.2]: sources, lines, the checks and the terminal supply phases.

Each test builds the exact situation on a cleared board. Hex facts used below were read off
the built east and west maps (see the comments); expected outcomes come from the rules."""

from __future__ import annotations

from dataclasses import replace

from w40_helpers import act, board, clear, game, goto, ids, moves, pair, put, ready

from wartable.core.frozen import FrozenMap
from wartable.games.whatif1940 import supply
from wartable.games.whatif1940.ids import (
    A_STEP,
    DEAD,
    EAST,
    GERMAN,
    GREATER_GERMANY,
    HOLLAND,
    MOSCOW,
    SOVIET,
    V_AIR_SUPPRESSED,
    V_CONTROL,
    V_EVER_GERMAN,
    V_HOLLAND,
    WEST,
)
from wartable.games.whatif1940.steps import movement
from wartable.games.whatif1940.steps.losses import SOVIET_REPLACEMENTS
from wartable.model.state import GameState

B = board()
PZ = "german.ger_panzer.1"
INF = "german.ger_infantry.1"
FLIEGER = "german.ger_7th_flieger.1"


def base() -> GameState:
    return clear(ready())


def status(s: GameState, pid: str) -> supply.SupplyStatus:
    return supply.status(game(), B, s, s.piece(pid))


def germans(n: int, s: GameState) -> list[str]:
    return ids(s, "ger_infantry", n + 1)[1:]  # not INF


def soviets(n: int, s: GameState) -> list[str]:
    return ids(s, "sov_regular", n)


def surround(s: GameState, pids: list[str], hexes: list[str]) -> GameState:
    for pid, h in zip(pids, hexes, strict=True):
        s = put(s, pid, h)
    return s


def east_cities_german(s: GameState) -> GameState:
    """Every east-map city German-controlled: the Rollbahnen are open all the way."""
    ctl = dict(s.var(V_CONTROL, FrozenMap()))
    for h, x in B.hexes.items():
        if x.map_id == EAST and x.city:
            ctl[h] = GERMAN
    return s.with_var(V_CONTROL, FrozenMap(ctl))


# --- sources and Rollbahnen [6.5] --------------------------------------------------------

def test_6_5_german_seven_hexes_from_rollbahn_is_oos_six_is_in() -> None:
    # 5625 and 5626 lie far outside the six-hex belt around Greater Germany, on dry land.
    # Counting over land hexes, the nearest Rollbahn hexes are six hexes from 5625 and
    # seven from 5626 (Rollbahn hexes as data/supply.toml lists them).
    rb = set(supply.static(game(), B).cfg.rollbahn)
    d = B.distances(rb, 10)
    assert (d["5625"], d["5626"]) == (6, 7)
    s = east_cities_german(base())
    assert status(put(s, INF, "5625"), INF).supplied
    far = status(put(s, INF, "5626"), INF)
    assert not far.supplied and "[6.5]" in far.reason and "7 hexes" in far.reason


def test_6_5_rollbahn_cut_by_an_enemy_controlled_city_on_it() -> None:
    # 5625's Rollbahn hexes within six are 5121 and 5022, on the route Vilnius - Polotsk -
    # Kalinin, which runs through Vilnius 4808 (a city). Soviet-held Vilnius closes the
    # road [6.7]: the line may not leave the Rollbahn before 5005 [6.5].
    s = put(east_cities_german(base()), INF, "5625")
    assert status(s, INF).supplied
    cut = status(s.with_var(V_CONTROL, s.var(V_CONTROL).set("4808", SOVIET)), INF)
    assert not cut.supplied and "Rollbahn" in cut.reason


def test_6_5_greater_germany_units_trace_straight_to_the_west_edge() -> None:
    s = base()
    gg = next(h for h in B.labels(EAST) if B.hex(h).region == GREATER_GERMANY
              and not B.hex(h).city and B.hex(h).terrain == "clear")
    st = status(put(s, INF, gg), INF)
    assert st.supplied and not st.coastal_only and "4300–5200" in st.reason


def test_6_5_baltic_coastal_hex_gives_coastal_supply_only() -> None:
    # Parnu 5710 (Estonia) touches the Baltic across an all-sea hexside at 5709; no Rollbahn
    # is open near it while the Soviets hold Daugavpils 5011.
    s = put(base(), PZ, "5710")
    st = status(s, PZ)
    assert st.supplied and st.coastal_only and "[6.5]" in st.reason
    assert not supply.regular_supply(game(), B, s, s.piece(PZ))  # no MA [10.17]
    inland = status(put(s, PZ, "5711"), PZ)  # 5711 is not coastal
    assert not inland.supplied


def test_6_5_moscow_stops_being_a_source_once_ever_german() -> None:
    s = base()
    sov = soviets(7, s)
    s = put(s, sov[0], MOSCOW)
    s = surround(s, germans(6, s), list(B.neighbors[MOSCOW]))
    inside = status(s, sov[0])
    assert inside.supplied and "Moscow" in inside.reason
    # Once German-controlled, even briefly (and retaken), Moscow supplies no one again.
    s = s.with_var(V_EVER_GERMAN, (MOSCOW,))
    assert not status(s, sov[0]).supplied


def test_6_5_soviets_trace_to_the_red_row() -> None:
    s = base()
    sov = soviets(1, s)[0]
    st = status(put(s, sov, "4616"), sov)
    assert st.supplied and "red row" in st.reason


# --- lines [6.3, 6.7] ---------------------------------------------------------------------

def test_6_7_soviet_line_crosses_a_lake_hexside_german_may_not() -> None:
    # 5418 borders Novgorod 5517 across Lake Ilmen (a lake hexside); its other five
    # neighbours are land. 5517 is two hexes from the north Rollbahn (5515).
    assert "lake" in B.side_features("5418", "5517")
    others = [n for n in B.neighbors["5418"] if n != "5517"]
    s = base()
    sov = soviets(1, s)[0]
    s1 = surround(put(s, sov, "5418"), germans(5, s), others)
    assert status(s1, sov).supplied  # across the lake to 5517 and on to the red row
    s2 = east_cities_german(surround(put(s, INF, "5418"), soviets(5, s), others))
    st = status(s2, INF)
    assert not st.supplied
    assert status(put(s2, INF, "5517"), INF).supplied  # the other shore is in supply


def test_6_3_line_may_not_enter_enemy_occupied_hexes() -> None:
    s = base()
    sov = soviets(7, s)
    s = put(s, INF, "5625")
    s = east_cities_german(s)
    assert status(s, INF).supplied
    s = surround(s, sov[:6], list(B.neighbors["5625"]))
    st = status(s, INF)
    assert not st.supplied and "Soviet units at" in st.reason


def test_6_7_enemy_controlled_empty_city_blocks_the_line() -> None:
    def ok(a: str, c: str) -> bool:
        x, y = B.hex(a), B.hex(c)
        return not x.city and not x.red_row and x.terrain == "clear" and y.city \
            and y.map_id == EAST and not B.side_features(a, c) and y.region == "USSR" \
            and all(B.hex(n).terrain == "clear" and not B.hex(n).red_row
                    for n in B.neighbors[a])
    a, c = pair(ok, EAST)
    s = base()
    sov = soviets(1, s)[0]
    others = [n for n in B.neighbors[a] if n != c]
    s = surround(put(s, sov, a), germans(len(others), s), others)
    assert status(s, sov).supplied  # through the Soviet city c
    taken = s.with_var(V_CONTROL, s.var(V_CONTROL).set(c, GERMAN))  # empty, German-held
    st = status(taken, sov)
    assert not st.supplied and f"German-controlled city {c}" in st.reason


def test_6_7_german_west_lines_stay_inside_germany() -> None:
    # A German unit in Germany next to Holland: with its German neighbours held by the
    # Allies, the only open hexes lead into Holland, where German lines may not go.
    def ok(a: str, n: str) -> bool:
        return B.hex(a).region == GREATER_GERMANY and B.hex(n).region == HOLLAND \
            and not B.hex(a).city and B.hex(a).terrain == "clear"
    a, _ = pair(ok, WEST)
    s = base()
    ger_nbrs = [n for n in B.neighbors[a] if B.hex(n).region == GREATER_GERMANY]
    allies = ids(s, "fr_infantry", len(ger_nbrs))
    s = surround(put(s, INF, a), allies, ger_nbrs)
    st = status(s, INF)
    assert not st.supplied and "Ruhr" in st.reason
    assert status(put(s, INF, "2108"), INF).supplied  # a Ruhr city hex is its own source


# --- west map [6.4] ------------------------------------------------------------------------

def test_6_4_anglo_french_trace_to_the_french_edge() -> None:
    s = base()
    fr = ids(s, "fr_infantry", 1)[0]
    st = status(put(s, fr, "1305"), fr)
    assert st.supplied and "1700–1011" in st.reason


def test_6_4_north_sea_coastal_hex_gives_coastal_supply_only() -> None:
    # 2602 (Holland) is on the North Sea (2601 and 2701 are all-sea); with Holland at war
    # and its four land neighbours German-held the unit has no line, only the coast.
    assert {n for n in B.neighbors["2602"] if B.hex(n).terrain == "sea"} == {"2601", "2701"}
    s = base().with_var(V_HOLLAND, "violated")
    br = ids(s, "brit_infantry", 1)[0]
    land = [n for n in B.neighbors["2602"] if B.hex(n).terrain not in ("sea", "lake")]
    s = surround(put(s, br, "2602"), germans(len(land), s), land)
    st = status(s, br)
    assert st.supplied and st.coastal_only and "[6.4]" in st.reason


def test_6_4_dutch_and_belgians_are_in_supply_in_their_own_country() -> None:
    s = base()
    nl = ids(s, "nl_infantry", 1)[0]
    be = ids(s, "bel_infantry", 1)[0]
    s = put(put(s, nl, "2605"), be, "1803")
    assert B.hex("2605").region == HOLLAND and B.hex("1803").region == "Belgium"
    s = surround(s, germans(6, s), list(B.neighbors["2605"]))
    assert status(s, nl).supplied and status(s, be).supplied


# --- 7th Flieger Corps [6.6, 8.2] ------------------------------------------------------

def test_6_6_8_2_seventh_flieger_needs_no_line_unless_enemy_air_is_up() -> None:
    s = put(base(), FLIEGER, "5626")  # no line: far from any open Rollbahn
    sov_air = sorted(p.id for p in s.pieces.values() if p.type == "sov_aircraft")
    assert sov_air  # the Soviet aircraft is in its east-map box, unsuppressed
    st = status(s, FLIEGER)
    assert not st.supplied and "[8.2]" in st.reason
    quiet = s.with_var(V_AIR_SUPPRESSED, tuple(sov_air))
    assert status(quiet, FLIEGER).supplied


# --- aircraft and boxes need none ------------------------------------------------------------

def test_8_6_aircraft_and_units_in_boxes_are_not_traced() -> None:
    s = base()
    air = status(s, "german.ger_aircraft.1")
    assert air.supplied and not air.traced
    boxed = status(put(s, INF, "box:gsrhb_eligible"), INF)
    assert boxed.supplied and not boxed.traced


# --- Former Poland [6.12] ------------------------------------------------------------------

def test_6_12_soviet_line_through_former_poland_is_flagged() -> None:
    # 4601 is in Greater Germany; its neighbours 4602 and 4501 are Former Poland, 4500 is
    # Warsaw (a German city, closed to Soviet lines), 4600, 4700 and 4701 are German
    # Greater Germany hexes. Free, it reaches the red row north through Lithuania and
    # Latvia without Former Poland; with 4600, 4700 and 4701 held, every line starts
    # through Former Poland.
    s = base()
    sov = soviets(1, s)[0]
    s = put(s, sov, "4601")
    free = status(s, sov)
    assert free.supplied and not free.via_former_poland
    s = surround(s, germans(3, s), ["4600", "4700", "4701"])
    st = status(s, sov)
    assert st.supplied and st.via_former_poland


# --- retreat toward supply -----------------------------------------------------------------

def test_6_5_distance_to_supply_counts_hexes_to_the_nearest_supplied_hex() -> None:
    s = put(east_cities_german(base()), INF, "5626")
    g = game()
    p = s.piece(INF)
    assert supply.distance_to_supply(g, B, s, p, "5626") == 1  # 5625 is in supply
    assert supply.distance_to_supply(g, B, s, p, "5625") == 0


# --- the supply checks [6.7, 6.8] ------------------------------------------------------------

def test_6_7_oos_unit_has_its_movement_factor_halved_rounding_up() -> None:
    # Turn 6: German non-mechanized MF 5 (GEMMF 10/5) -> 3 when out of supply.
    s = base()
    gg = "4802"  # Greater Germany, in supply
    assert B.hex(gg).region == GREATER_GERMANY
    s = put(put(s, INF, "5626"), "german.ger_infantry.2", gg)
    s = goto(s, "german_east_move_d", turn=6)
    g = game()
    assert movement.mp_left(g, s, s.piece(INF), EAST) == 3
    assert movement.mp_left(g, s, s.piece("german.ger_infantry.2"), EAST) == 5
    assert max(moves(s, INF).values()) <= 3
    # Panzers: 10 -> 5.
    s2 = goto(put(base(), PZ, "5626"), "german_east_move_d", turn=6)
    assert movement.mp_left(g, s2, s2.piece(PZ), EAST) == 5


def test_6_7_halving_holds_for_the_phase_after_moving_into_supply() -> None:
    s = east_cities_german(put(base(), INF, "5626"))
    sov = soviets(6, s)
    s = surround(s, sov[:5], [n for n in B.neighbors["5626"] if n != "5625"])
    s = put(s, sov[5], "5625")  # cut: 5625 is held
    s = goto(s, "german_east_move_d", turn=6)
    assert not status(s, INF).supplied
    s = put(s, sov[5], "box:dead")  # 5625 is free again, but the move began OOS
    g = game()
    s = s.with_piece(s.piece(INF).with_attr("mp_used", 1.0).with_attr("oos_move", True))
    assert movement.mp_left(g, s, s.piece(INF), EAST) == 2  # 3 - 1


def test_6_8_two_step_unit_oos_twice_is_eliminated() -> None:
    s = put(base(), PZ, "5626")  # no line, no coast
    s = goto(s, "german_supply")
    p = s.piece(PZ)
    assert p.location == "5626" and p.attrs.get(A_STEP) == 2  # reduced
    s = goto(s, "german_supply", turn=2)
    assert s.piece(PZ).location == DEAD


def test_6_8_supplied_units_and_other_sides_are_untouched() -> None:
    s = base()
    sov = soviets(1, s)[0]
    s = put(put(put(s, INF, "4802"), sov, "5626"), PZ, "5626")
    s = goto(s, "german_supply")
    assert s.piece(INF).attrs.get(A_STEP) is None and s.piece(INF).location == "4802"
    assert s.piece(sov).location == "5626"  # Soviets are checked in their own phase


def test_6_8_oos_soviet_one_step_unit_is_eliminated() -> None:
    s = base()
    sov = soviets(7, s)
    s = put(s, sov[0], "4616")
    s = surround(s, germans(6, s), list(B.neighbors["4616"]))
    g = game()
    pos = next(p for p in g.positions if p.step.id == "soviet_supply")
    st = replace(s, step_index=pos.index, active_side=SOVIET)
    out = g.rules.enter_step(g, st, pos)
    assert out.auto_end
    assert out.state.piece(sov[0]).location == SOVIET_REPLACEMENTS  # [9.10]
    assert any(e.rule == "6.8" and "last step" in e.text for e in out.events)


def test_6_9_units_may_move_out_of_supply_deliberately() -> None:
    # A German unit may move to a hex where it will be OOS: 5626 is reachable and offered.
    s = east_cities_german(put(base(), INF, "5625"))
    s = goto(s, "german_east_move_d", turn=1)
    assert "5626" in moves(s, INF)
    s2 = act(s, "move", GERMAN, piece=INF, to="5626")
    assert not status(s2, INF).supplied


def test_6_7_oos_soviet_and_west_units_move_at_half_speed() -> None:
    # Soviet MF 4 -> 2; west-map MF 6 -> 3 [2.10, 6.7].
    s = base()
    sov = soviets(7, s)
    s = put(s, sov[0], "4616")
    s = surround(s, germans(6, s), list(B.neighbors["4616"]))
    s = goto(s, "soviet_move")
    g = game()
    assert movement.mp_left(g, s, s.piece(sov[0]), EAST) == 2
    fr = ids(s, "fr_infantry", 2)
    s2 = put(put(base(), fr[0], "1305"), fr[1], "2108")
    ring = list(B.neighbors["2108"])
    s2 = surround(s2, germans(len(ring), s2), ring)  # 2108 cut off all round
    s2 = goto(s2, "af_move", turn=2)
    assert movement.mp_left(g, s2, s2.piece(fr[0]), WEST) == 6
    assert movement.mp_left(g, s2, s2.piece(fr[1]), WEST) == 3


def test_6_8_anglo_french_units_lose_a_step_in_their_own_phase() -> None:
    # A French corps in the Ruhr city 2108 with every neighbour German-held.
    s = base()
    fr = ids(s, "fr_infantry", 1)[0]
    s = put(s, fr, "2108")
    s = surround(s, germans(len(B.neighbors["2108"]), s), list(B.neighbors["2108"]))
    assert not status(s, fr).supplied
    s = goto(s, "af_supply")
    assert s.piece(fr).attrs.get(A_STEP) == 2 and s.piece(fr).location == "2108"


def test_2_11_supply_invariants_catch_a_bad_step_marker() -> None:
    g = game()
    s = put(base(), INF, "4802")
    assert supply.problems(g, B, s) == []
    dutch = ids(s, "nl_infantry", 1)[0]  # one-step: may never be "reduced"
    bad = put(s, dutch, "2605", step=2)
    assert any("invalid step marker" in x for x in supply.problems(g, B, bad))
    worse = put(s, INF, "4802", step=3)
    assert any("invalid step marker" in x for x in g.rules.invariants(g, worse))


def test_6_3_a_units_own_hex_never_blocks_its_line() -> None:
    # A French corps in the (still German-controlled) Ruhr city 2108: the city blocks other
    # lines, but this unit's line starts there and steps out into Germany [6.3].
    s = base()
    fr = ids(s, "fr_infantry", 1)[0]
    s = put(s, fr, "2108")
    assert status(s, fr).supplied


def test_issue15_finding5_supply_loss_beneath_the_top_is_told_only_to_its_owner() -> None:
    # Two French corps stacked in the Ruhr city 2108, every neighbour German-held: both are
    # out of supply in the Anglo-French terminal supply phase [6.8]. The Germans see only
    # the top one [7.3], so the log may name only that one to them.
    s = base()
    fr = ids(s, "fr_infantry", 2)
    s = put(put(s, fr[0], "2108"), fr[1], "2108")
    s = surround(s, germans(len(B.neighbors["2108"]), s), list(B.neighbors["2108"]))
    g = game()
    from wartable.games.whatif1940 import fog, hidden

    (under,) = [p.id for p in fog.hidden_from(g, s, GERMAN)["2108"]]
    top = next(i for i in fr if i != under)
    pos = next(p for p in g.positions if p.step.id == "af_supply")
    st = replace(s, step_index=pos.index, active_side="anglo_french")
    out = g.rules.enter_step(g, st, pos)
    public = [e for e in out.events if not e.private_to]
    reduced = [e for e in out.events if "is reduced" in e.text and "beneath" not in e.text]
    assert len(reduced) == 2
    # The hidden unit's own line is private to its owner...
    assert [e.private_to for e in reduced if e.private_to] == ["anglo_french"]
    # ...and the Germans read an anonymous line instead.
    anon = [e for e in public if "beneath the top of the stack at 2108" in e.text]
    assert len(anon) == 1 and "out of supply" in anon[0].text
    named = [e for e in public if "is reduced" in e.text and "beneath" not in e.text]
    assert [hidden.display_name(g, st, st.piece(top)) in e.text for e in named] == [True]
    assert out.state.piece(under).attrs.get(A_STEP) == 2
