"""The last combat-move rules: a failed sea battle before an amphibious landing, units loaded
in Combat Move must assault, and interceptors landing (Fighter Escorts and Interceptors).
One test per rule, named after the rulebook section it checks; expected values come from the
rulebook's text and hand calculation. Battles use physical dice: each test says what was
rolled.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from aa_helpers import act, at, board, dice_asked, game, moves, no_problems, start

from wartable.core.errors import IllegalAction
from wartable.engine.actions import DICE, END_STEP, Action
from wartable.engine.loop import apply, prompt
from wartable.games.aa_anniversary.steps.battle import forces
from wartable.games.aa_anniversary.steps.common import controller, set_control, world
from wartable.model.state import GameState

# --- Amphibious Assaults, Step 3: Land Combat (pg. 17) ----------------------------------------


def _assault_on_karelia(*extra: tuple[str, str, str]) -> GameState:
    """German infantry boards in sz06 (from Norway) and is announced for Karelia S.S.R. from
    sz05, where a Soviet destroyer waits; the battleship escorts the transport in."""
    st = board(start(), ("germany.infantry.1", "infantry", "norway"),
               ("germany.transport.1", "transport", "sz06"),
               ("germany.battleship.1", "battleship", "sz06"),
               ("ussr.destroyer.1", "destroyer", "sz05"),
               ("ussr.infantry.1", "infantry", "karelia_ssr"), *extra)
    st = at(st, "germany", "combat_move")
    st = act(st, "move", "germany", piece="germany.infantry.1", to="sz06")
    st = act(st, "move", "germany", piece="germany.battleship.1", to="sz05")
    st = act(st, "move", "germany", piece="germany.transport.1", to="sz05")
    st = act(st, "move", "germany", piece="germany.infantry.1", to="karelia_ssr")
    assert st.piece("germany.infantry.1").attrs["assault"] == "karelia_ssr"
    return st


def test_amphibious_assaults_step3_sea_units_withdrew_overland_units_still_fight() -> None:
    # "If ... the attacking sea units withdrew from the sea combat, then any other units that
    # were designated to participate in the land attack ... must still conduct one round of
    # land combat in a regular attack on the intended hostile territory before they can
    # retreat."
    st = _assault_on_karelia(("germany.infantry.2", "infantry", "finland"))
    st = act(st, "move", "germany", piece="germany.infantry.2", to="karelia_ssr")
    st = act(st, END_STEP, "germany")  # every unit loaded in Combat Move is committed
    st = at(st, "germany", "conduct_combat")
    st = act(st, "fight", "germany", space="sz05")
    st = act(st, DICE, "germany", values=(6, 6))  # battleship and destroyer both miss
    st = act(st, "retreat", "germany", to="sz06")  # the sea units withdraw
    cargo = st.piece("germany.infantry.1")
    assert cargo.location == "sz06" and cargo.attrs["on"] == "germany.transport.1"
    assert "assault" not in cargo.attrs  # it will not land this turn
    assert "karelia_ssr" in forces.battles(game(), st, "germany")  # the overland attack stays
    st = act(st, "fight", "germany", space="karelia_ssr")
    assert st.piece("germany.infantry.1").location == "sz06"  # the seaborne unit never lands
    # Round one at once: one German infantry die and one Soviet infantry die, no retreat yet.
    assert dice_asked(st) == 2
    st = act(st, DICE, "germany", values=(6, 6))  # both miss
    p = prompt(game(), st)  # only now may the overland attackers retreat (to Finland)
    assert p.side == "germany" and {b.args.get("to") for b in p.buttons if b.id == "retreat"} \
        == {"finland"}
    st = act(st, "retreat", "germany", to="finland")
    assert st.piece("germany.infantry.2").location == "finland"
    no_problems(st)


def test_amphibious_assaults_step3_no_cargo_survived_air_units_still_fight_one_round() -> None:
    # "If no land units (carried as cargo) survived the sea combat ... any other units that
    # were designated to participate in the land attack (including air units) must still
    # conduct one round of land combat." A Soviet destroyer was mobilized into sz05, where a
    # German destroyer and a loaded transport (cargo from an earlier turn) lie; neither
    # German ship moved in, so neither can retreat.
    st = board(start(), ("germany.infantry.1", "infantry", "sz05"),
               ("germany.transport.1", "transport", "sz05"),
               ("germany.destroyer.1", "destroyer", "sz05"),
               ("ussr.destroyer.1", "destroyer", "sz05"),
               ("ussr.infantry.1", "infantry", "karelia_ssr"),
               ("germany.fighter.1", "fighter", "finland"))
    st = game().rules.setup(game(), st)  # the infantry is aboard the transport
    st = at(st, "germany", "combat_move")
    st = act(st, "move", "germany", piece="germany.infantry.1", to="karelia_ssr")
    assert st.piece("germany.infantry.1").attrs["assault"] == "karelia_ssr"
    st = act(st, "move", "germany", piece="germany.fighter.1", to="karelia_ssr")
    st = at(st, "germany", "conduct_combat")
    st = act(st, "fight", "germany", space="sz05")
    st = act(st, DICE, "germany", values=(6, 1))  # the German destroyer misses, the Soviet hits
    st = act(st, "casualties", "germany", lost={"destroyer": 1})  # transports are chosen last
    # Defenseless Transports: the transport cannot retreat and sinks; its cargo with it.
    assert "germany.transport.1" not in st.pieces and "germany.infantry.1" not in st.pieces
    assert "karelia_ssr" in forces.battles(game(), st, "germany")
    st = act(st, "fight", "germany", space="karelia_ssr")
    assert dice_asked(st) == 2  # the fighter (attack 3) and the Soviet infantry (defense 2)
    st = act(st, DICE, "germany", values=(1, 6))  # the fighter hits, the infantry misses
    st = act(st, "casualties", "ussr", lost={"infantry": 1})
    # No land unit survives to take the territory: aircraft alone cannot capture it.
    assert controller(st, "karelia_ssr") == "ussr"
    assert "karelia_ssr" in set(st.var("resolved", ()))
    no_problems(st)


# --- Phase 3: Combat Move, Transports (pg. 15); Unit Profiles: Transports (pg. 31) ------------

def test_combat_move_transports_units_loaded_must_offload_to_attack() -> None:
    # "If a transport loads land units during the Combat Move phase, it must offload those
    # units to attack a hostile territory as part of an amphibious assault."
    st = board(start(), ("germany.infantry.1", "infantry", "germany"),
               ("germany.transport.1", "transport", "sz05"),
               ("ussr.infantry.1", "infantry", "karelia_ssr"))
    st = at(st, "germany", "combat_move")
    st = act(st, "move", "germany", piece="germany.infantry.1", to="sz05")
    # Only the hostile Soviet coasts of sz05; not German Norway, Finland or Poland.
    assert set(moves(st, "germany.infantry.1")) == {"karelia_ssr", "baltic_states"}
    end = [b for b in prompt(game(), st).buttons if b.id == END_STEP][0]
    assert not end.enabled and "must offload to attack a hostile territory" in end.reason
    with pytest.raises(IllegalAction, match="as part of an amphibious assault"):
        act(st, END_STEP, "germany")
    st = act(st, "move", "germany", piece="germany.infantry.1", to="karelia_ssr")
    assert st.piece("germany.infantry.1").attrs.get("amphibious")
    st = act(st, END_STEP, "germany")  # now Combat Move may end
    assert "karelia_ssr" in forces.battles(game(), st, "germany")


def test_combat_move_transports_cargo_from_an_earlier_turn_may_stay_aboard() -> None:
    # Unit Profiles: Transports: it "may also remain at sea with the cargo still aboard (but
    # only if the cargo remaining aboard was loaded in a previous turn ...)".
    st = board(start(), ("germany.infantry.1", "infantry", "sz05"),
               ("germany.transport.1", "transport", "sz05"))
    st = game().rules.setup(game(), st)  # the infantry is aboard from the start
    st = at(st, "germany", "combat_move")
    # In Combat Move it offloads only to attack (Phase 3, pg. 14: not into friendly Norway).
    assert set(moves(st, "germany.infantry.1")) == {"karelia_ssr", "baltic_states"}
    end = [b for b in prompt(game(), st).buttons if b.id == END_STEP][0]
    assert end.enabled


def test_combat_move_transports_end_in_a_sea_zone_from_which_to_assault() -> None:
    # "A transport that is part of an amphibious assault must end its movement in a friendly
    # sea zone ... from which it can conduct the assault." Sea zones 2, 8, 9, 10 and 11 touch
    # no enemy coast (hand-checked on the map: Canada, Greenland, the U.S. only).
    st = board(start(), ("uk.transport.1", "transport", "sz01"),
               ("uk.infantry.1", "infantry", "eastern_canada"))
    st = at(st, "uk", "combat_move")
    # Empty, it may not end in a friendly sea zone in Combat Move (Phase 3, pg. 14).
    assert moves(st, "uk.transport.1") == ()
    st = act(st, "move", "uk", piece="uk.infantry.1", to="sz01")
    assert set(moves(st, "uk.transport.1")) == {"sz03", "sz07", "sz12"}
    # No hostile coast at sz01: the transport must still sail, so Combat Move cannot end.
    with pytest.raises(IllegalAction, match="still aboard"):
        act(st, END_STEP, "uk")
    st = act(st, "move", "uk", piece="uk.transport.1", to="sz07")
    assert set(moves(st, "uk.infantry.1")) == {"france", "northwestern_europe"}
    st = act(st, "move", "uk", piece="uk.infantry.1", to="france")
    st = act(st, END_STEP, "uk")
    no_problems(st)


# --- Additional Optional Rules: Fighter Escorts and Interceptors (pg. 24) ---------------------

def _intercepted_and_captured(*extra: tuple[str, str, str]) -> GameState:
    """A Soviet fighter intercepts a raid on Karelia S.S.R., then German infantry walks in."""
    st = board(start(), ("germany.bomber.1", "bomber", "karelia_ssr"),
               ("ussr.factory.1", "factory", "karelia_ssr"),
               ("ussr.fighter.1", "fighter", "karelia_ssr"),
               ("germany.infantry.1", "infantry", "karelia_ssr"), *extra)
    st = replace(st, options=st.options.set("escorts_interceptors", True))
    st = at(st, "germany", "conduct_combat")
    st = act(st, "raid", "germany", space="karelia_ssr", bombers=1)
    st = act(st, "intercept", "ussr", count=1)
    st = act(st, DICE, "germany", values=(6,))  # the interceptor misses
    st = act(st, DICE, "germany", values=(2,))  # 2 damage
    st = act(st, "fight", "germany", space="karelia_ssr")  # the fighter does not defend
    assert controller(st, "karelia_ssr") == "germany"
    return st


def test_fighter_escorts_and_interceptors_land_on_a_friendly_carrier() -> None:
    # "If that territory is captured, they may move one space to land in a friendly territory
    # or on a friendly aircraft carrier. This movement occurs after all of the attacker's
    # combats have been resolved": the fighter is still over Karelia until Germany ends
    # Conduct Combat, then its owner chooses.
    st = _intercepted_and_captured(("ussr.carrier.1", "carrier", "sz04"))
    assert st.piece("ussr.fighter.1").location == "karelia_ssr"
    st = act(st, END_STEP, "germany")
    p = prompt(game(), st)
    assert p.side == "ussr"
    assert {b.args["to"] for b in p.buttons} == {"archangel", "baltic_states", "belorussia",
                                                  "sz04"}
    with pytest.raises(IllegalAction):
        act(st, "land", "ussr", to="finland")  # German: not a friendly territory
    st = act(st, "land", "ussr", to="sz04")
    f = st.piece("ussr.fighter.1")
    assert f.location == "sz04" and not f.attrs.get("intercepting")
    assert not st.frames  # then the German Noncombat Move goes on
    no_problems(st)


def test_fighter_escorts_and_interceptors_lost_without_a_landing_space() -> None:
    # "If no such landing space is available, the fighters are lost."
    st = _intercepted_and_captured()
    for t in ("archangel", "baltic_states", "belorussia"):
        st = set_control(st, t, "germany")
    st = act(st, END_STEP, "germany")
    assert "ussr.fighter.1" not in st.pieces and not st.frames
    no_problems(st)


def test_fighter_escorts_and_interceptors_land_back_when_not_captured() -> None:
    # "Defending interceptors must land in their original territory after the combat."
    st = board(start(), ("germany.bomber.1", "bomber", "karelia_ssr"),
               ("ussr.factory.1", "factory", "karelia_ssr"),
               ("ussr.fighter.1", "fighter", "karelia_ssr"),
               ("ussr.carrier.1", "carrier", "sz04"))
    st = replace(st, options=st.options.set("escorts_interceptors", True))
    st = at(st, "germany", "conduct_combat")
    st = act(st, "raid", "germany", space="karelia_ssr", bombers=1)
    st = act(st, "intercept", "ussr", count=1)
    st = act(st, DICE, "germany", values=(6,))
    st = act(st, DICE, "germany", values=(2,))
    st = act(st, END_STEP, "germany")
    f = st.piece("ussr.fighter.1")
    assert f.location == "karelia_ssr" and not f.attrs.get("intercepting") and not st.frames


# --- How to Win: Adjusting Game Length (pg. 6) ------------------------------------------------

def _vc_check(st: GameState, axis: int, goal: int) -> GameState:
    """The first `axis` victory cities (board order) German, the others American, then the
    U.S. ends Collect Income: the round ends and victory is checked."""
    cities = sorted(world(game()).victory)
    assert len(cities) == 18
    ctl = st.var("control")
    for i, vc in enumerate(cities):
        ctl = ctl.set(vc, "germany" if i < axis else "usa")
    st = replace(st.with_var("control", ctl), options=st.options.set("victory_cities", goal))
    st = at(st, "usa", "collect_income")
    return apply(game(), st, Action(END_STEP, "usa")).state


def test_how_to_win_adjusting_game_length_13_victory_cities() -> None:
    # "If you want a shorter game, play to 13 victory city tokens." (Adjusting Game Length)
    assert _vc_check(start(), 12, 13).result is None
    res = _vc_check(start(), 13, 13).result
    assert res is not None and "Axis win: 13 victory cities" in res


def test_how_to_win_adjusting_game_length_18_victory_cities() -> None:
    # "... play to a complete victory of all 18 victory city tokens": 17 is not enough.
    assert _vc_check(start(), 17, 18).result is None
    res = _vc_check(start(), 18, 18).result
    assert res is not None and "Axis win: 18 victory cities" in res


# --- Game Board: Canals (pg. 7) ---------------------------------------------------------------

def test_canals_panama_closed_while_the_enemy_holds_panama() -> None:
    # "If you want to move sea units through a canal, your side ... must control it at the
    # start of your turn." "The side that controls Panama controls the Panama Canal." The
    # U.S. holds Panama: a Japanese cruiser cannot pass sz20-sz19, an American one can.
    st = board(start(), ("japan.cruiser.1", "cruiser", "sz20"),
               ("usa.cruiser.1", "cruiser", "sz20"))
    assert "sz19" not in moves(at(st, "japan", "combat_move"), "japan.cruiser.1")
    assert "sz19" in moves(at(st, "usa", "combat_move"), "usa.cruiser.1")
    ctl = st.var("control").set("panama", "japan")
    st2 = st.with_var("control", ctl)
    assert "sz19" in moves(at(st2, "japan", "combat_move"), "japan.cruiser.1")
    assert "sz19" not in moves(at(st2, "usa", "combat_move"), "usa.cruiser.1")


# --- China Rules (pg. 10) -----------------------------------------------------------------------

def test_china_rules_chinese_units_cannot_be_loaded_onto_transports() -> None:
    # "Chinese units cannot be loaded onto transports." A British infantry in the same
    # territory may board the same American transport.
    st = board(start(), ("china.infantry.1", "infantry", "fukien"),
               ("uk.infantry.1", "infantry", "fukien"),
               ("usa.transport.1", "transport", "sz61"))
    assert "sz61" not in moves(at(st, "china", "combat_move"), "china.infantry.1")
    assert "sz61" in moves(at(st, "uk", "combat_move"), "uk.infantry.1")


def test_china_rules_kwangtung_occupied_by_china_goes_to_the_uk() -> None:
    # "Chinese forces can attack Axis units there and occupy it, but the IPCs generated go to
    # the United Kingdom."
    st = board(start(), ("china.infantry.1", "infantry", "fukien"),
               ("japan.infantry.1", "infantry", "kwangtung"))
    st = st.with_var("control", st.var("control").set("kwangtung", "japan"))
    st = at(st, "china", "combat_move")
    assert "kwangtung" in moves(st, "china.infantry.1")
    st = act(st, "move", "china", piece="china.infantry.1", to="kwangtung")
    st = at(st, "china", "conduct_combat")
    st = act(st, "fight", "china", space="kwangtung")
    st = act(st, DICE, "china", values=(1, 6))  # the Chinese infantry hits, the Japanese misses
    st = act(st, "casualties", "japan", lost={"infantry": 1})
    assert controller(st, "kwangtung") == "uk"
    no_problems(st)


# --- Unit Profiles: Antiaircraft Guns, Limited Move (pg. 25) ----------------------------------

def test_antiaircraft_guns_limited_move_not_in_combat_move() -> None:
    # "An antiaircraft gun cannot move during the Combat Move phase."
    st = board(start(), ("germany.aa_gun.1", "aa_gun", "germany"))
    assert moves(at(st, "germany", "combat_move"), "germany.aa_gun.1") == ()
    assert "poland" in moves(at(st, "germany", "noncombat_move"), "germany.aa_gun.1")
