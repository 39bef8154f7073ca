"""Fighters, carriers, Noncombat Move and Mobilization: landing where a new carrier will be
placed, carriers that must move to their fighters, a fighter's full move in Combat Move,
two fighters per carrier, transports in Noncombat Move, and the Phase 6 placement rules.
One test per rule, named after the rulebook section it checks; expected values come from
the rulebook's text and from counting spaces on the map by hand (noted in each test).

Map facts used (data/territories.toml): Eastern United States (12 IPCs, U.S. complex)
touches sz10; sz10 touches sz09, sz11, sz19, Eastern U.S. and Panama; sz11 touches sz09,
sz10, sz12, sz18, sz19 and no territory; Central United States touches Eastern U.S.
"""

from __future__ import annotations

import pytest
from aa_helpers import act, at, board, game, moves, no_problems, start

from wartable.core.errors import IllegalAction
from wartable.engine.actions import END_STEP, Action
from wartable.engine.loop import apply, prompt
from wartable.games.aa_anniversary.steps import landing, movement
from wartable.games.aa_anniversary.steps.battle import conclude
from wartable.games.aa_anniversary.steps.common import MOBILIZATION, controller, set_control
from wartable.model.state import GameState

US_COMPLEX = ("usa.factory.1", "factory", "eastern_united_states")
NEW_CARRIER = ("usa.carrier.n1", "carrier", MOBILIZATION)


def _attrs(st: GameState, pid: str, **attrs: object) -> GameState:
    p = st.piece(pid)
    for k, v in attrs.items():
        p = p.with_attr(k, v)
    return st.with_piece(p)


def _end(st: GameState, side: str) -> GameState:
    return act(st, END_STEP, side)


def _events(st: GameState, side: str) -> tuple[str, ...]:
    out = apply(game(), st, Action(END_STEP, side))
    return tuple(f"{e.text} [{e.rule}]" for e in out.events)


# --- Unit Profiles: Fighters, a sea zone where a new carrier will be placed (pg. 26) ------------


def test_air_units_fighter_lands_where_a_new_carrier_will_be_mobilized() -> None:
    # pg. 21: "A fighter may land in a sea zone ... adjacent to an industrial complex you own
    # if you will be placing an aircraft carrier that you previously purchased in that zone."
    # The U.S. fighter in Central U.S. reaches sz10 in two spaces (Eastern U.S., sz10) and
    # sz11 in three; only sz10 touches the complex.
    base = board(start(), US_COMPLEX, ("usa.fighter.1", "fighter", "central_united_states"))
    st = at(base, "usa", "noncombat_move")
    assert "sz10" not in moves(st, "usa.fighter.1")  # no carrier bought: no landing at sea
    st = at(board(start(), US_COMPLEX, NEW_CARRIER,
                  ("usa.fighter.1", "fighter", "central_united_states")), "usa", "noncombat_move")
    assert "sz10" in moves(st, "usa.fighter.1")
    assert "sz11" not in moves(st, "usa.fighter.1")  # not next to the complex
    assert landing.pending_carrier_room(game(), st, "sz10", "usa") == 2  # two per carrier
    st = act(st, "move", "usa", piece="usa.fighter.1", to="sz10")
    st = _end(st, "usa")  # not lost at the end of Noncombat Move
    assert st.piece("usa.fighter.1").location == "sz10"
    no_problems(st)


def test_air_units_new_carrier_room_is_two_fighters() -> None:
    # "as long as there is a landing space available on it" (pg. 26): one new carrier takes
    # two fighters; the third fighter is not offered the zone.
    st = board(start(), US_COMPLEX, NEW_CARRIER,
               *[(f"usa.fighter.{i}", "fighter", "central_united_states") for i in (1, 2, 3)])
    st = at(st, "usa", "noncombat_move")
    st = act(st, "move", "usa", piece="usa.fighter.1", to="sz10")
    st = act(st, "move", "usa", piece="usa.fighter.2", to="sz10")
    assert "sz10" not in moves(st, "usa.fighter.3")
    with pytest.raises(IllegalAction):
        act(st, "move", "usa", piece="usa.fighter.3", to="sz10")


def test_air_units_one_new_carrier_serves_one_sea_zone() -> None:
    # A carrier is placed in one sea zone: once a fighter counts on the only new carrier in
    # sz10 (Eastern U.S.), sz56 (Western U.S., two spaces from Central U.S. too) is no
    # landing space; with a second new carrier it is.
    def fighters_and(*extra: tuple[str, str, str]) -> GameState:
        st = board(start(), US_COMPLEX, NEW_CARRIER,
                   ("usa.factory.2", "factory", "western_united_states"),
                   ("usa.fighter.1", "fighter", "central_united_states"),
                   ("usa.fighter.2", "fighter", "central_united_states"), *extra)
        st = at(st, "usa", "noncombat_move")
        assert "sz56" in moves(st, "usa.fighter.2")
        return act(st, "move", "usa", piece="usa.fighter.1", to="sz10")

    assert "sz56" not in moves(fighters_and(), "usa.fighter.2")
    st = fighters_and(("usa.carrier.n2", "carrier", MOBILIZATION))
    assert "sz56" in moves(st, "usa.fighter.2")
    st = act(st, "move", "usa", piece="usa.fighter.2", to="sz56")
    st = _end(st, "usa")
    assert {"usa.fighter.1", "usa.fighter.2"} <= set(st.pieces)  # both wait for a carrier


def test_air_units_new_carrier_must_be_mobilized_where_the_fighter_waits() -> None:
    # pg. 26: "if you declared that a new carrier will be mobilized to provide a safe landing
    # zone for a fighter, it must be mobilized in that sea zone". The U.S. also has a complex
    # in Western U.S. (sz56), and could otherwise place the carrier there.
    st = board(start(), US_COMPLEX, NEW_CARRIER,
               ("usa.factory.2", "factory", "western_united_states"),
               ("usa.fighter.1", "fighter", "central_united_states"))
    st = at(st, "usa", "noncombat_move")
    st = act(st, "move", "usa", piece="usa.fighter.1", to="sz10")
    st = _end(st, "usa")
    st = at(st, "usa", "mobilize")
    assert moves(st, "usa.carrier.n1") == ("sz10",)
    p = prompt(game(), st)
    end = next(b for b in p.buttons if b.id == END_STEP)
    assert not end.enabled and "must be mobilized in" in end.reason and "pg. 26" in end.reason
    with pytest.raises(IllegalAction, match="must be mobilized in"):
        _end(st, "usa")
    with pytest.raises(IllegalAction):
        act(st, "move", "usa", piece="usa.carrier.n1", to="sz56")
    st = act(st, "move", "usa", piece="usa.carrier.n1", to="sz10")
    st = _end(st, "usa")
    assert st.piece("usa.fighter.1").location == "sz10"  # it has its carrier
    no_problems(st)


def test_air_units_new_carrier_production_is_kept_for_it() -> None:
    # The carrier counts against the complex it is placed at (Phase 6, pg. 21): Panama (1 IPC)
    # is the only U.S. complex next to sz10 here, so its one unit of production is kept for
    # the carrier while the fighter waits; the infantry cannot take it.
    st = board(start(), ("usa.factory.1", "factory", "panama"), NEW_CARRIER,
               ("usa.infantry.n2", "infantry", MOBILIZATION),
               ("usa.fighter.1", "fighter", "central_united_states"))
    st = at(st, "usa", "noncombat_move")
    st = act(st, "move", "usa", piece="usa.fighter.1", to="sz10")
    st = _end(st, "usa")
    st = at(st, "usa", "mobilize")
    assert moves(st, "usa.infantry.n2") == ()
    st = act(st, "move", "usa", piece="usa.carrier.n1", to="sz10")
    assert moves(st, "usa.infantry.n2") == ()  # Panama's 1 unit is used
    st = _end(st, "usa")
    assert st.piece("usa.infantry.n2").location == MOBILIZATION  # it waits (pg. 22)
    no_problems(st)


def test_air_units_fighter_without_a_carrier_after_mobilization_is_lost() -> None:
    # pg. 26 note and "If any fighter is not in an eligible landing space by the end of the
    # Noncombat Move phase, it is destroyed": a fighter left at sea with no carrier once
    # mobilization is over is lost, and the log says why.
    st = board(start(), US_COMPLEX, ("usa.fighter.1", "fighter", "sz10"),
               ("usa.fighter.2", "fighter", "eastern_united_states"))
    st = at(st, "usa", "mobilize")
    texts = _events(st, "usa")
    assert any("is lost" in t and "pg. 26" in t for t in texts), texts
    st = _end(st, "usa")
    assert "usa.fighter.1" not in st.pieces and "usa.fighter.2" in st.pieces
    no_problems(st)


# --- Phase 3: Combat Move, Air Units: a fighter's full move (pg. 15, 26) ------------------------


def _attack_sz11(*extra: tuple[str, str, str]) -> GameState:
    """A German destroyer in sz11; a U.S. fighter in Central U.S. reaches it in three spaces
    (Eastern U.S., sz10, sz11) and the nearest friendly territory from sz11 is two more
    (sz10 then Eastern U.S. or Panama; sz09 then Eastern Canada): 5 > 4 without a carrier."""
    st = board(start(), ("germany.destroyer.1", "destroyer", "sz11"),
               ("usa.fighter.1", "fighter", "central_united_states"), *extra)
    return at(st, "usa", "combat_move")


def test_air_units_full_move_needs_a_landing_space() -> None:
    assert "sz11" not in moves(_attack_sz11(), "usa.fighter.1")


def test_air_units_full_move_if_a_new_carrier_could_be_there() -> None:
    # pg. 15: "A fighter can move its full four spaces to attack instead of saving movement,
    # but only if a carrier could be there by the conclusion of the Mobilize New Units
    # phase": a carrier bought this turn placed in sz10 is one space from sz11 (3 + 1 = 4).
    assert "sz11" in moves(_attack_sz11(US_COMPLEX, NEW_CARRIER), "usa.fighter.1")


def test_air_units_full_move_if_an_unmoved_carrier_could_be_there() -> None:
    # pg. 26: the landing may count on "noncombat moves by a carrier ... then the carrier
    # cannot move in the Combat Move phase": a U.S. carrier in sz20 (two spaces from sz11,
    # by sz19) that has not moved counts; one that moved in Combat Move does not (sz20 is
    # then a landing place two spaces from sz11: 3 + 2 = 5 > 4).
    st = _attack_sz11(("usa.carrier.1", "carrier", "sz20"))
    assert "sz11" in moves(st, "usa.fighter.1")
    assert "sz11" not in moves(_attrs(st, "usa.carrier.1", cm=True), "usa.fighter.1")


def test_air_units_carrier_counted_on_cannot_sail_away_in_combat_move() -> None:
    # pg. 26: "If it does include noncombat moves by a carrier, then the carrier cannot move
    # in the Combat Move phase." The fighter attacks sz11 with three of its four moves,
    # counting on the carrier in sz20 (sz11 is two spaces from any friendly territory).
    # Before, the carrier could sail to fight the Japanese submarine in sz21; after, only
    # into sz11 itself (two spaces, by sz19), where the fighter can land if the battle is
    # won. sz21 is three spaces from sz11 (sz19, sz20, sz21): out of the fighter's last move.
    st = _attack_sz11(("usa.carrier.1", "carrier", "sz20"),
                      ("japan.submarine.1", "submarine", "sz21"))
    assert {"sz11", "sz21"} <= set(moves(st, "usa.carrier.1"))
    st = act(st, "move", "usa", piece="usa.fighter.1", to="sz11")
    assert set(moves(st, "usa.carrier.1")) == {"sz11"}
    with pytest.raises(IllegalAction):
        act(st, "move", "usa", piece="usa.carrier.1", to="sz21")


def test_air_units_carrier_free_when_the_fighter_can_land_elsewhere() -> None:
    # The same carrier is free when the fighter attacked with moves to spare: from Eastern
    # U.S. sz11 is two spaces, and two more reach Eastern U.S. again.
    st = board(start(), ("germany.destroyer.1", "destroyer", "sz11"),
               ("usa.fighter.1", "fighter", "eastern_united_states"),
               ("usa.carrier.1", "carrier", "sz20"),
               ("japan.submarine.1", "submarine", "sz21"))
    st = at(st, "usa", "combat_move")
    st = act(st, "move", "usa", piece="usa.fighter.1", to="sz11")
    assert "sz21" in moves(st, "usa.carrier.1")


# --- Phase 5: Noncombat Move, carriers must move to pick up fighters (pg. 21) -------------------


def _fighter_stranded_in_sz11(*extra: tuple[str, str, str]) -> GameState:
    """A U.S. fighter that attacked sz11 with all its four moves (the destroyer sank): sz11
    is the only place it can be at the end of the turn."""
    st = board(start(), ("usa.fighter.1", "fighter", "sz11"), *extra)
    st = at(st, "usa", "noncombat_move")
    return _attrs(st, "usa.fighter.1", cm=True, mp=4.0)


def test_noncombat_move_carrier_must_move_to_pick_up_a_fighter() -> None:
    # pg. 21: carriers "must move there, range permitting, if they did not move in the Combat
    # Move phase and the friendly sea zone is the only valid landing zone for the fighters".
    st = _fighter_stranded_in_sz11(("usa.carrier.1", "carrier", "sz19"))
    reason = movement.noncombat_can_end(game(), st, "usa")
    assert reason is not None and "Fighter" in reason and "Carrier" in reason
    assert "pg. 21" in reason
    with pytest.raises(IllegalAction, match="only landing zone"):
        _end(st, "usa")
    st = act(st, "move", "usa", piece="usa.carrier.1", to="sz11")
    st = _end(st, "usa")
    assert st.piece("usa.fighter.1").location == "sz11"  # it landed on the carrier
    no_problems(st)


def test_noncombat_move_carrier_that_moved_in_combat_move_need_not_come() -> None:
    # "if they did not move in the Combat Move phase": a carrier that moved may not, and the
    # fighter with nowhere to land is lost at the end of Noncombat Move (pg. 26).
    st = _fighter_stranded_in_sz11(("usa.carrier.1", "carrier", "sz19"))
    st = _attrs(st, "usa.carrier.1", cm=True)
    assert movement.noncombat_can_end(game(), st, "usa") is None
    st = _end(st, "usa")
    assert "usa.fighter.1" not in st.pieces
    no_problems(st)


def test_noncombat_move_carrier_need_not_come_when_the_fighter_can_land_elsewhere() -> None:
    # "the only valid landing zone": with two moves left the fighter reaches Eastern U.S.
    # (sz10, Eastern U.S.), so the carrier is free.
    st = _fighter_stranded_in_sz11(("usa.carrier.1", "carrier", "sz19"))
    st = _attrs(st, "usa.fighter.1", mp=2.0)
    assert movement.noncombat_can_end(game(), st, "usa") is None
    assert "eastern_united_states" in moves(st, "usa.fighter.1")


def test_noncombat_move_fighter_may_end_where_its_carrier_can_come() -> None:
    # pg. 26: "Your aircraft carrier can move to a sea zone where one of your fighters has
    # ended its move (and in fact, it must do so if it is able)". The fighter in Eastern U.S.
    # flies to sz11 (two spaces); the carrier in sz19 reaches it (one space) and must.
    st = board(start(), ("usa.fighter.1", "fighter", "eastern_united_states"),
               ("usa.carrier.1", "carrier", "sz19"))
    st = at(st, "usa", "noncombat_move")
    assert "sz11" in moves(st, "usa.fighter.1")
    st = act(st, "move", "usa", piece="usa.fighter.1", to="sz11")
    with pytest.raises(IllegalAction, match="must move to"):
        _end(st, "usa")
    p = prompt(game(), st)
    assert p.moves["usa.carrier.1"] and "sz11" in p.moves["usa.carrier.1"]
    st = act(st, "move", "usa", piece="usa.carrier.1", to="sz11")
    st = _end(st, "usa")
    assert st.piece("usa.fighter.1").location == "sz11"
    no_problems(st)


# --- Phase 5: Noncombat Move, fighters on a friendly carrier with room (pg. 21, 27) -------------


def test_noncombat_move_fighters_land_on_a_friendly_carrier_with_room() -> None:
    # Aircraft Carriers (pg. 27): "An aircraft carrier can carry up to two fighters,
    # including those belonging to friendly powers". A U.K. carrier in sz10 takes two U.S.
    # fighters; a third fighter in sz10 at the end of Noncombat Move is lost, only one.
    st = board(start(), ("uk.carrier.1", "carrier", "sz10"),
               *[(f"usa.fighter.{i}", "fighter", "central_united_states") for i in (1, 2)],
               ("usa.fighter.3", "fighter", "sz10"))
    st = at(st, "usa", "noncombat_move")
    st = _attrs(st, "usa.fighter.3", cm=True, mp=4.0)  # it attacked there: no move left
    assert "sz10" in moves(st, "usa.fighter.1")  # two places, one taken: room for one more
    st = act(st, "move", "usa", piece="usa.fighter.1", to="sz10")
    assert "sz10" not in moves(st, "usa.fighter.2")  # full
    st = _end(st, "usa")
    left = sorted(p.id for p in st.pieces_at("sz10") if p.type == "fighter")
    assert len(left) == 2  # two per carrier; the third is lost
    assert "usa.fighter.2" in st.pieces
    no_problems(st)


# --- Phase 5: Noncombat Move, transports (pg. 21) ------------------------------------------------


def test_noncombat_move_transports_load_move_and_offload() -> None:
    # pg. 21: "Transports can move to friendly coastal territories and load or offload cargo,
    # unless they loaded, moved, or offloaded, or were involved in combat during the Combat
    # Move or Conduct Combat phase." A U.S. transport in sz10 that took no part: the infantry
    # in Eastern U.S. boards, the transport sails to sz09 and the infantry lands in Eastern
    # Canada (U.K., friendly).
    st = board(start(), ("usa.transport.1", "transport", "sz10"),
               ("usa.infantry.1", "infantry", "eastern_united_states"))
    st = at(st, "usa", "noncombat_move")
    st = act(st, "move", "usa", piece="usa.infantry.1", to="sz10")
    assert st.piece("usa.infantry.1").attrs["on"] == "usa.transport.1"
    st = act(st, "move", "usa", piece="usa.transport.1", to="sz09")
    assert st.piece("usa.infantry.1").location == "sz09"
    st = act(st, "move", "usa", piece="usa.infantry.1", to="eastern_canada")
    assert st.piece("usa.infantry.1").location == "eastern_canada"
    no_problems(st)


def test_noncombat_move_transports_that_moved_in_combat_move_stay() -> None:
    # "unless they ... moved ... during the Combat Move": a transport that moved in Combat
    # Move does not move again in Noncombat Move.
    st = board(start(), ("usa.transport.1", "transport", "sz10"))
    st = at(st, "usa", "noncombat_move")
    st = _attrs(st, "usa.transport.1", cm=True)
    assert moves(st, "usa.transport.1") == ()


# --- Phase 6: Mobilize New Units (pg. 21-22) ----------------------------------------------------


def test_phase6_mobilize_not_at_a_friendly_powers_complex() -> None:
    # pg. 22: "You cannot place your new units at an industrial complex owned by a friendly
    # power": a new U.K. infantry goes to the U.K., not to the U.S. complex.
    st = board(start(), US_COMPLEX, ("uk.factory.1", "factory", "united_kingdom"),
               ("uk.infantry.n1", "infantry", MOBILIZATION))
    st = at(st, "uk", "mobilize")
    assert moves(st, "uk.infantry.n1") == ("united_kingdom",)
    with pytest.raises(IllegalAction):
        act(st, "move", "uk", piece="uk.infantry.n1", to="eastern_united_states")


def test_phase6_mobilize_at_an_allys_complex_taken_back_while_its_capital_is_held() -> None:
    # pg. 22: "... unless that power's capital is in enemy control and you have taken control
    # of the industrial complex from an enemy power after the friendly power's capital was
    # captured." Germany holds Eastern U.S. (the U.S. capital) and Western U.S.; the U.K.
    # takes Western U.S. back: it keeps it (Liberating a Territory) and may use the complex
    # from its next turn (a complex captured this turn does not produce, pg. 21).
    st = board(start(), ("germany.factory.1", "factory", "western_united_states"),
               ("uk.factory.1", "factory", "united_kingdom"),
               ("uk.infantry.n1", "infantry", MOBILIZATION))
    st = set_control(set_control(st, "eastern_united_states", "germany"),
                     "western_united_states", "germany")
    st = at(st, "uk", "combat_move")
    st = conclude.capture(game(), st, "western_united_states", "uk").state
    assert controller(st, "western_united_states") == "uk"
    st = at(st, "uk", "mobilize")
    assert "western_united_states" not in moves(st, "uk.infantry.n1")  # captured this turn
    st = at(at(st, "uk", "combat_move"), "uk", "mobilize")  # the U.K.'s next turn
    assert "western_united_states" in moves(st, "uk.infantry.n1")


def test_phase6_mobilize_fighters_on_a_new_or_own_carrier_next_to_the_complex() -> None:
    # pg. 22: "Place fighters ... on an aircraft carrier owned by your power in a sea zone
    # ... adjacent to a territory with such an industrial complex. The aircraft carrier may be
    # either a new one or an existing one already in place. You cannot place a new fighter on
    # a carrier owned by a friendly power."
    st = board(start(), US_COMPLEX, NEW_CARRIER, ("uk.carrier.1", "carrier", "sz10"),
               *[(f"usa.fighter.n{i}", "fighter", MOBILIZATION) for i in (2, 3, 4)])
    st = at(st, "usa", "mobilize")
    assert moves(st, "usa.fighter.n2") == ("eastern_united_states",)  # not on the U.K. carrier
    st = act(st, "move", "usa", piece="usa.carrier.n1", to="sz10")
    assert set(moves(st, "usa.fighter.n2")) == {"eastern_united_states", "sz10"}
    st = act(st, "move", "usa", piece="usa.fighter.n2", to="sz10")
    st = act(st, "move", "usa", piece="usa.fighter.n3", to="sz10")
    assert moves(st, "usa.fighter.n4") == ("eastern_united_states",)  # the new carrier is full
    assert st.var("placed")["eastern_united_states"] == 3  # they use the complex's production
    no_problems(st)


def test_phase6_mobilize_fighter_on_an_existing_own_carrier() -> None:
    st = board(start(), US_COMPLEX, ("usa.carrier.1", "carrier", "sz10"),
               ("usa.fighter.n2", "fighter", MOBILIZATION))
    st = at(st, "usa", "mobilize")
    assert set(moves(st, "usa.fighter.n2")) == {"eastern_united_states", "sz10"}


def test_phase6_mobilize_new_industrial_complexes() -> None:
    # pg. 22: "Place new industrial complexes in any territory that you have controlled since
    # the start of your turn and that has an income value of at least 1. You cannot have more
    # than one industrial complex per territory." Central U.S. (6 IPCs) qualifies; Eastern
    # U.S. has one; Mexico counts as captured this turn here; Greenland is worth 0.
    st = board(start(), US_COMPLEX, ("usa.factory.n2", "factory", MOBILIZATION))
    st = at(st, "usa", "mobilize")
    st = st.with_var("captured", ("mexico",))
    dests = moves(st, "usa.factory.n2")
    assert "central_united_states" in dests
    assert "eastern_united_states" not in dests  # one complex per territory
    assert "mexico" not in dests  # not controlled since the start of the turn
    assert "greenland" not in dests  # income value 0
    assert "united_kingdom" not in dests  # not the U.S.'s
    st = act(st, "move", "usa", piece="usa.factory.n2", to="central_united_states")
    assert st.piece("usa.factory.n2").location == "central_united_states"


def test_phase6_mobilize_units_that_cannot_be_placed_wait() -> None:
    # pg. 22: "the excess units are not lost. You can place them on one of your future turns."
    # Panama is worth 1 IPC: one unit a turn.
    st = board(start(), ("usa.factory.1", "factory", "panama"),
               ("usa.infantry.n1", "infantry", MOBILIZATION),
               ("usa.infantry.n2", "infantry", MOBILIZATION))
    st = at(st, "usa", "mobilize")
    st = act(st, "move", "usa", piece="usa.infantry.n1", to="panama")
    assert moves(st, "usa.infantry.n2") == ()
    st = _end(st, "usa")
    assert st.piece("usa.infantry.n2").location == MOBILIZATION
    st = at(st, "usa", "mobilize")  # a later U.S. turn
    st = act(st, "move", "usa", piece="usa.infantry.n2", to="panama")
    assert st.piece("usa.infantry.n2").location == "panama"
    no_problems(st)


# --- China Rules (pg. 10) ----------------------------------------------------------------------


def test_china_rules_new_units_only_where_fewer_than_three_chinese_units() -> None:
    # pg. 10: "New units may only be placed on Chinese-controlled territories ... that already
    # contain less than three Chinese units ... Any number of new units may be placed in such
    # a territory, regardless of the number already there." Yunnan holds three, Hupeh two.
    st = board(start(), *[(f"china.infantry.{i}", "infantry", "yunnan") for i in (1, 2, 3)],
               *[(f"china.infantry.{i}", "infantry", "hupeh") for i in (4, 5)],
               *[(f"china.infantry.n{i}", "infantry", MOBILIZATION) for i in (6, 7)])
    st = at(st, "china", "mobilize")
    assert "yunnan" not in moves(st, "china.infantry.n6")
    assert "hupeh" in moves(st, "china.infantry.n6")
    st = act(st, "move", "china", piece="china.infantry.n6", to="hupeh")
    assert "hupeh" in moves(st, "china.infantry.n7")  # three now, but any number may come
    st = act(st, "move", "china", piece="china.infantry.n7", to="hupeh")
    assert len(st.pieces_at("hupeh")) == 4


def test_noncombat_move_transports_that_moved_in_combat_move_neither_load_nor_offload() -> None:
    # pg. 21: "unless they loaded, moved, or offloaded, or were involved in combat during the
    # Combat Move or Conduct Combat phase". A U.S. transport that moved in Combat Move to
    # sz10 with an infantry aboard from an earlier turn: the infantry does not offload into
    # Eastern U.S., and the infantry in Eastern U.S. does not board it.
    st = board(start(), ("usa.transport.1", "transport", "sz10"),
               ("usa.infantry.1", "infantry", "sz10"),
               ("usa.infantry.2", "infantry", "eastern_united_states"))
    st = _attrs(st, "usa.infantry.1", on="usa.transport.1")
    st = at(st, "usa", "noncombat_move")
    free = set(moves(st, "usa.infantry.2"))
    assert "eastern_united_states" in set(moves(st, "usa.infantry.1"))  # it may offload now
    assert "sz10" in free  # and the other may board
    st = _attrs(st, "usa.transport.1", cm=True)
    assert moves(st, "usa.infantry.1") == ()
    assert "sz10" not in moves(st, "usa.infantry.2")


def test_noncombat_move_transport_that_fought_does_not_offload() -> None:
    # The same rule, "involved in combat during the ... Conduct Combat phase": a battle was
    # fought in sz10 this turn.
    st = board(start(), ("usa.transport.1", "transport", "sz10"),
               ("usa.infantry.1", "infantry", "sz10"))
    st = _attrs(st, "usa.infantry.1", on="usa.transport.1")
    st = at(st, "usa", "noncombat_move").with_var("resolved", ("sz10",))
    assert moves(st, "usa.infantry.1") == ()


def test_noncombat_move_carrier_ends_its_move_once_a_fighter_has_landed() -> None:
    # pg. 21: "An aircraft carrier must end its move once a fighter has landed on it." The
    # U.S. fighter in Eastern U.S. lands on the unmoved carrier in sz10: the carrier, free
    # to sail before, moves no more.
    st = board(start(), ("usa.fighter.1", "fighter", "eastern_united_states"),
               ("usa.carrier.1", "carrier", "sz10"))
    st = at(st, "usa", "noncombat_move")
    assert moves(st, "usa.carrier.1")
    st = act(st, "move", "usa", piece="usa.fighter.1", to="sz10")
    assert moves(st, "usa.carrier.1") == ()
    st = _end(st, "usa")
    assert st.piece("usa.fighter.1").location == "sz10"
    no_problems(st)


def test_noncombat_move_end_button_says_the_carrier_must_come() -> None:
    # The prompt's End button carries the refusal (pg. 21), so a player sees why before
    # pressing it, and a bot reads it.
    st = _fighter_stranded_in_sz11(("usa.carrier.1", "carrier", "sz19"))
    end = next(b for b in prompt(game(), st).buttons if b.id == END_STEP)
    assert not end.enabled and "only landing zone" in (end.reason or "")


def test_phase6_mobilize_new_sea_units_even_in_a_hostile_sea_zone() -> None:
    # pg. 22: "New sea units can enter play even in a hostile sea zone. No combat occurs
    # because the Conduct Combat phase is over." A Soviet destroyer in sz14, next to Italy's
    # complex: Italy's new destroyer may still be placed there, and no battle follows.
    st = board(start(), ("italy.factory.1", "factory", "italy"),
               ("ussr.destroyer.1", "destroyer", "sz14"))
    st = at(st, "italy", "purchase")
    st = act(st, "buy", "italy", unit="destroyer")
    st = at(st, "italy", "mobilize")
    dd = next(p.id for p in st.pieces_at(MOBILIZATION) if p.type == "destroyer")
    assert "sz14" in moves(st, dd)
    st = act(st, "move", "italy", piece=dd, to="sz14")
    assert st.piece(dd).location == "sz14" and "ussr.destroyer.1" in st.pieces
    no_problems(st)


def test_air_units_fighter_waits_for_a_new_carrier_even_in_a_hostile_sea_zone() -> None:
    # pg. 26 note: "an eligible landing space may include a sea zone in which a new carrier
    # will be placed"; pg. 22: "New sea units can enter play even in a hostile sea zone." A
    # U.S. fighter that attacked the German destroyer in sz10 (next to the Eastern U.S.
    # complex) and has no move left stays there; with a carrier bought this turn it is not
    # lost at the end of Noncombat Move, and the carrier is placed under it.
    def stranded(*extra: tuple[str, str, str]) -> GameState:
        st = board(start(), US_COMPLEX, ("germany.destroyer.1", "destroyer", "sz10"),
                   ("usa.fighter.1", "fighter", "sz10"),
                   ("usa.fighter.2", "fighter", "central_united_states"), *extra)
        st = at(st, "usa", "noncombat_move")
        return _attrs(st, "usa.fighter.1", cm=True, mp=4.0)

    lost = _end(stranded(), "usa")  # no new carrier: lost (pg. 26)
    assert "usa.fighter.1" not in lost.pieces
    st = stranded(NEW_CARRIER)
    assert "sz10" not in moves(st, "usa.fighter.2")  # Noncombat Move enters no hostile space
    st = _end(st, "usa")
    assert st.piece("usa.fighter.1").location == "sz10"
    st = at(st, "usa", "mobilize")
    st = act(st, "move", "usa", piece="usa.carrier.n1", to="sz10")
    st = _end(st, "usa")
    assert st.piece("usa.fighter.1").location == "sz10"
    assert st.piece("usa.carrier.n1").location == "sz10"
    no_problems(st)
