"""Amphibious assault bombardment and the submarines' submerge choice on the map
(steps/battle/amphibious.py, submarines.py), one test per rule, named after the rulebook
section it checks. Battles use physical dice so each test says what was rolled; expected
values come from the rulebook.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from aa_helpers import act, at, board, dice_asked, game, moves, no_problems, start

from wartable.core.errors import IllegalAction
from wartable.engine.actions import DICE, END_STEP, Action
from wartable.engine.loop import apply, new_game, prompt
from wartable.games.aa_anniversary.rules import AARules
from wartable.games.aa_anniversary.steps.battle import amphibious, forces
from wartable.model.state import GameState

# --- Amphibious Assaults, Step 2: Battleship & Cruiser Bombardment (pg. 17) -----------------

def _landing(*ships: tuple[str, str, str], landed: int = 1) -> GameState:
    """German infantry carried from Germany across sea zone 5 into Karelia S.S.R. (2 Soviet
    infantry), with these ships in sea zone 5; `landed` of the two infantry go ashore."""
    st = board(start(), ("germany.infantry.1", "infantry", "germany"),
               ("germany.infantry.2", "infantry", "germany"),
               ("germany.transport.1", "transport", "sz05"), *ships,
               ("ussr.infantry.1", "infantry", "karelia_ssr"),
               ("ussr.infantry.2", "infantry", "karelia_ssr"))
    st = at(st, "germany", "combat_move")
    for i in (1, 2):
        st = act(st, "move", "germany", piece=f"germany.infantry.{i}", to="sz05")
    for i in range(1, landed + 1):
        st = act(st, "move", "germany", piece=f"germany.infantry.{i}", to="karelia_ssr")
    st = at(st, "germany", "conduct_combat")
    return act(st, "fight", "germany", space="karelia_ssr")


def test_amphibious_assaults_step2_one_ship_per_land_unit_offloaded() -> None:
    st = _landing(("germany.battleship.1", "battleship", "sz05"),
                  ("germany.cruiser.1", "cruiser", "sz05"))
    p = prompt(game(), st)
    assert p.side == "germany"
    choices = [tuple(b.args["ships"]) for b in p.buttons]
    # One land unit landed: one ship at most, the battleship offered first, or none.
    assert choices == [("germany.battleship.1",), ("germany.cruiser.1",), ()]
    with pytest.raises(IllegalAction, match="one per land unit"):
        act(st, "bombard", "germany", ships=("germany.battleship.1", "germany.cruiser.1"))


def test_amphibious_assaults_step2_two_land_units_two_ships() -> None:
    st = _landing(("germany.battleship.1", "battleship", "sz05"),
                  ("germany.cruiser.1", "cruiser", "sz05"), landed=2)
    first = prompt(game(), st).buttons[0]
    assert tuple(first.args["ships"]) == ("germany.battleship.1", "germany.cruiser.1")
    st = act(st, "bombard", "germany", ships=tuple(first.args["ships"]))
    assert dice_asked(st) == 2
    # Battleship hits on 4 or less, cruiser on 3 or less: the 4s give one hit, not two.
    st = act(st, DICE, "germany", values=(4, 4))
    p = prompt(game(), st)
    assert p.side == "ussr" and "(1 hit)" in p.text
    st = act(st, "casualties", "ussr", lost={"infantry": 1})
    assert sum(1 for q in st.pieces.values() if q.attrs.get("pending")) == 1


def test_amphibious_assaults_step2_casualties_still_defend_in_the_first_round() -> None:
    st = _landing(("germany.battleship.1", "battleship", "sz05"))
    st = act(st, "bombard", "germany", ships=("germany.battleship.1",))
    assert dice_asked(st) == 1
    st = act(st, DICE, "germany", values=(4,))  # the battleship hits on a 4
    assert prompt(game(), st).side == "ussr"  # the defender picks the casualty
    st = act(st, "casualties", "ussr", lost={"infantry": 1})
    assert st.piece("ussr.infantry.1").attrs.get("pending")
    # Round one: the German infantry rolls 1 die, both Soviet infantry roll (the casualty
    # zone fires too): 3 dice.
    assert dice_asked(st) == 3
    st = act(st, DICE, "germany", values=(6, 6, 6))  # every die misses
    assert "ussr.infantry.1" not in st.pieces  # removed after it defended
    assert "ussr.infantry.2" in st.pieces
    no_problems(st)


def test_amphibious_assaults_step2_no_bombardment_after_combat_in_the_sea_zone() -> None:
    st = board(start(), ("germany.infantry.1", "infantry", "germany"),
               ("germany.transport.1", "transport", "sz05"),
               ("germany.battleship.1", "battleship", "sz05"),
               ("ussr.infantry.1", "infantry", "karelia_ssr"))
    st = at(st, "germany", "combat_move")
    st = act(st, "move", "germany", piece="germany.infantry.1", to="sz05")
    st = act(st, "move", "germany", piece="germany.infantry.1", to="karelia_ssr")
    st = at(st, "germany", "conduct_combat").with_var("resolved", ("sz05",))
    st = act(st, "fight", "germany", space="karelia_ssr")
    assert dice_asked(st) == 2  # straight to round one: no bombardment choice


def test_amphibious_assaults_step2_each_ship_supports_one_assault() -> None:
    st = _landing(("germany.cruiser.1", "cruiser", "sz05"))
    st = act(st, "bombard", "germany", ships=("germany.cruiser.1",))
    assert st.piece("germany.cruiser.1").attrs.get("bombarded")
    assert amphibious.bombard_zones(game(), st, "karelia_ssr", "germany") == ()


def test_amphibious_assaults_step1_enemy_submarines_may_be_ignored_then_bombard() -> None:
    # Step 1: "If there are only defending submarines and/or transports, the attacker may
    # choose to ignore those units or conduct sea combat"; ignoring is no combat, so Step 2
    # bombardment follows. A zone with only a submarine is not hostile: offloading is direct.
    st = board(start(), ("germany.infantry.1", "infantry", "germany"),
               ("germany.transport.1", "transport", "sz05"),
               ("germany.battleship.1", "battleship", "sz05"),
               ("uk.submarine.1", "submarine", "sz05"),
               ("ussr.infantry.1", "infantry", "karelia_ssr"))
    st = at(st, "germany", "combat_move")
    st = act(st, "move", "germany", piece="germany.infantry.1", to="sz05")
    st = act(st, "move", "germany", piece="germany.infantry.1", to="karelia_ssr")
    assert st.piece("germany.infantry.1").location == "karelia_ssr"
    st = at(st, "germany", "conduct_combat")
    ignores = [dict(b.args) for b in prompt(game(), st).buttons if b.id == "ignore"]
    assert ignores == [{"space": "sz05"}]
    st = act(st, "ignore", "germany", space="sz05")
    assert "sz05" not in forces.battles(game(), st, "germany")
    st = act(st, "fight", "germany", space="karelia_ssr")
    assert [tuple(b.args["ships"]) for b in prompt(game(), st).buttons] == [
        ("germany.battleship.1",), ()]


def test_amphibious_assaults_step1_surface_warships_cannot_be_ignored() -> None:
    st = board(start(), ("germany.battleship.1", "battleship", "sz06"),
               ("uk.destroyer.1", "destroyer", "sz06"))
    st = at(st, "germany", "conduct_combat")
    assert not [b for b in prompt(game(), st).buttons if b.id == "ignore"]
    with pytest.raises(IllegalAction, match="may be ignored"):
        act(st, "ignore", "germany", space="sz06")


# --- Unit Profiles: Submarines, Submersible (pg. 30) -----------------------------------------

def test_submarines_submersible_attacker_submerges_and_leaves_the_combat() -> None:
    st = board(start(), ("germany.submarine.1", "submarine", "sz06"),
               ("uk.cruiser.1", "cruiser", "sz06"))
    st = at(st, "germany", "conduct_combat")
    st = act(st, "fight", "germany", space="sz06")
    p = prompt(game(), st)
    assert p.dice is None and p.side == "germany"  # decided before any dice
    assert [b.args["count"] for b in p.buttons] == [0, 1]
    st = act(st, "submerge", "germany", count=1)
    assert st.var("battle") is None and not st.frames  # no attacker left on the board
    sub = st.piece("germany.submarine.1")
    assert sub.location == "sz06" and not sub.attrs.get("submerged")  # back on the map
    assert "uk.cruiser.1" in st.pieces


def test_submarines_submersible_attacker_decides_first_then_defender() -> None:
    st = board(start(), ("germany.submarine.1", "submarine", "sz06"),
               ("uk.submarine.1", "submarine", "sz06"),
               ("uk.cruiser.1", "cruiser", "sz06"))
    st = at(st, "germany", "conduct_combat")
    st = act(st, "fight", "germany", space="sz06")
    assert prompt(game(), st).side == "germany"
    st = act(st, "submerge", "germany", count=0)  # the German sub strikes
    assert prompt(game(), st).side == "uk"
    st = act(st, "submerge", "uk", count=1)
    # Only the German sub rolls its Surprise Strike; the submerged British sub takes no hit.
    assert dice_asked(st) == 1
    st = act(st, DICE, "germany", values=(1,))
    assert [b.args["lost"] for b in prompt(game(), st).buttons] == [{"cruiser": 1}]
    st = act(st, "casualties", "uk", lost={"cruiser": 1})
    assert st.var("battle") is None and "uk.submarine.1" in st.pieces
    assert not st.piece("uk.submarine.1").attrs.get("submerged")
    no_problems(st)


def test_submarines_submerged_defender_leaves_transports_defenseless() -> None:
    # General Combat, Step 6: Defenseless Transports: once the sub has submerged, the lone
    # transport is destroyed at once, without dice.
    st = board(start(), ("germany.submarine.1", "submarine", "sz06"),
               ("uk.submarine.1", "submarine", "sz06"),
               ("uk.transport.1", "transport", "sz06"))
    st = at(st, "germany", "conduct_combat")
    st = act(st, "fight", "germany", space="sz06")
    st = act(st, "submerge", "germany", count=0)
    st = act(st, "submerge", "uk", count=1)
    assert "uk.transport.1" not in st.pieces and "uk.submarine.1" in st.pieces
    assert st.var("battle") is None


def test_submarines_submersible_not_with_an_enemy_destroyer() -> None:
    st = board(start(), ("germany.submarine.1", "submarine", "sz06"),
               ("uk.destroyer.1", "destroyer", "sz06"))
    st = at(st, "germany", "conduct_combat")
    st = act(st, "fight", "germany", space="sz06")
    assert dice_asked(st) == 2  # no choice: the sub fires with the others (Step 3)
    with pytest.raises(IllegalAction):
        act(st, "submerge", "germany", count=1)


# --- Unit Profiles: Transports (pg. 31); Amphibious Assaults (pg. 17) ------------------------


def test_transports_carry_land_units_of_friendly_powers() -> None:
    # "Land units belonging to friendly powers must load on their owner's turn, be carried
    # on your turn, and offload on a later turn of their owner."
    st = board(start(), ("uk.infantry.1", "infantry", "united_kingdom"),
               ("usa.transport.1", "transport", "sz06"))
    st = at(st, "uk", "combat_move")
    assert "sz06" in moves(st, "uk.infantry.1")
    st = act(st, "move", "uk", piece="uk.infantry.1", to="sz06")
    assert st.piece("uk.infantry.1").attrs["on"] == "usa.transport.1"
    assert moves(st, "uk.infantry.1") == ()  # not offloaded on the turn it loaded
    st = at(st, "usa", "noncombat_move")
    st = act(st, "move", "usa", piece="usa.transport.1", to="sz07")
    assert st.piece("uk.infantry.1").location == "sz07"  # carried on the owner's turn
    assert "uk.infantry.1" not in prompt(game(), st).moves  # not the U.S. player's to land
    no_problems(st)
    st = at(at(st, "uk", "combat_move"), "uk", "noncombat_move")  # the U.K.'s next turn
    st = act(st, "move", "uk", piece="uk.infantry.1", to="united_kingdom")
    assert st.piece("uk.infantry.1").location == "united_kingdom"


def test_transports_offload_into_one_territory_a_turn() -> None:
    # Transports, Loading and Offloading: "A transport cannot offload in two territories
    # during a single turn."
    st = board(start(), ("germany.infantry.1", "infantry", "germany"),
               ("germany.infantry.2", "infantry", "germany"),
               ("germany.transport.1", "transport", "sz05"))
    st = at(st, "germany", "combat_move")
    for i in (1, 2):
        st = act(st, "move", "germany", piece=f"germany.infantry.{i}", to="sz05")
    # (loaded in Combat Move, they may only land to attack: Soviet Karelia and Baltic States)
    assert {"karelia_ssr", "baltic_states"} <= set(moves(st, "germany.infantry.2"))
    st = act(st, "move", "germany", piece="germany.infantry.1", to="karelia_ssr")
    assert moves(st, "germany.infantry.2") == ("karelia_ssr",)


def test_transports_enter_a_hostile_sea_zone_only_with_an_escort() -> None:
    st = board(start(), ("germany.transport.1", "transport", "sz05"),
               ("germany.battleship.1", "battleship", "sz05"),
               ("uk.destroyer.1", "destroyer", "sz06"))
    st = at(st, "germany", "combat_move")
    assert "sz06" not in moves(st, "germany.transport.1")  # may not attack alone
    st = act(st, "move", "germany", piece="germany.battleship.1", to="sz06")
    assert "sz06" in moves(st, "germany.transport.1")
    st = act(st, "move", "germany", piece="germany.transport.1", to="sz06")
    assert "sz07" not in moves(st, "germany.transport.1")  # it stopped there


def test_amphibious_assaults_sea_combat_first_then_the_landing() -> None:
    st = board(start(), ("germany.infantry.1", "infantry", "northwestern_europe"),
               ("germany.transport.1", "transport", "sz05"),
               ("germany.battleship.1", "battleship", "sz05"),
               ("uk.destroyer.1", "destroyer", "sz06"),
               ("uk.infantry.1", "infantry", "united_kingdom"))
    st = at(st, "germany", "combat_move")
    st = act(st, "move", "germany", piece="germany.infantry.1", to="sz05")
    st = act(st, "move", "germany", piece="germany.battleship.1", to="sz06")
    st = act(st, "move", "germany", piece="germany.transport.1", to="sz06")
    dests = moves(st, "germany.infantry.1")
    assert "united_kingdom" in dests and "norway" not in dests  # only hostile: an assault
    st = act(st, "move", "germany", piece="germany.infantry.1", to="united_kingdom")
    p = st.piece("germany.infantry.1")
    assert p.location == "sz06" and p.attrs["assault"] == "united_kingdom"  # still aboard
    no_problems(st)
    st = at(st, "germany", "conduct_combat")
    assert {"sz06", "united_kingdom"} <= set(forces.battles(game(), st, "germany"))
    with pytest.raises(IllegalAction, match="sea battle in Sea Zone 6 first"):
        act(st, "fight", "germany", space="united_kingdom")
    # The prompt says so before anyone clicks: the land battle's button waits, with why.
    fights = {b.args["space"]: b for b in prompt(game(), st).buttons if b.id == "fight"}
    assert not fights["united_kingdom"].enabled
    assert fights["united_kingdom"].reason.startswith("Fight the sea battle in Sea Zone 6 first")
    assert fights["sz06"].enabled
    st = act(st, "fight", "germany", space="sz06")
    st = act(st, DICE, "germany", values=(1, 6))  # the battleship hits, the destroyer misses
    st = act(st, "casualties", "uk", lost={"destroyer": 1})
    st = act(st, "fight", "germany", space="united_kingdom")
    p = st.piece("germany.infantry.1")
    assert p.location == "united_kingdom" and p.attrs.get("amphibious")
    # No bombardment: there was a sea battle in sz06 (Step 2); round one at once.
    assert dice_asked(st) == 2


def test_amphibious_assaults_cargo_stays_aboard_when_the_transport_retreats() -> None:
    st = board(start(), ("germany.infantry.1", "infantry", "northwestern_europe"),
               ("germany.transport.1", "transport", "sz05"),
               ("germany.submarine.1", "submarine", "sz05"),
               ("uk.battleship.1", "battleship", "sz06"),
               ("uk.infantry.1", "infantry", "united_kingdom"))
    st = at(st, "germany", "combat_move")
    st = act(st, "move", "germany", piece="germany.infantry.1", to="sz05")
    st = act(st, "move", "germany", piece="germany.submarine.1", to="sz06")
    st = act(st, "move", "germany", piece="germany.transport.1", to="sz06")
    st = act(st, "move", "germany", piece="germany.infantry.1", to="united_kingdom")
    st = at(st, "germany", "conduct_combat")
    st = act(st, "fight", "germany", space="sz06")
    st = act(st, "submerge", "germany", count=1)  # the sub dives: the escort is gone
    # Step 6, Defenseless Transports: an attacking transport that can retreat does so, with
    # its cargo, which cannot offload this turn ("If a transport retreats, it cannot
    # offload that turn").
    p = st.piece("germany.infantry.1")
    assert p.location == "sz05" and p.attrs["on"] == "germany.transport.1"
    assert "assault" not in p.attrs
    assert "united_kingdom" not in forces.battles(game(), st, "germany")
    no_problems(st)


# --- Additional Optional Rules: Dardanelles Closed to Sea Movement (pg. 24) -----------------

def test_dardanelles_closed_no_sea_unit_moves_into_or_out_of_sz16() -> None:
    st = board(start(), ("italy.destroyer.1", "destroyer", "sz15"),
               ("italy.cruiser.1", "cruiser", "sz16"),
               ("italy.fighter.1", "fighter", "bulgaria_romania"))
    st = at(st, "italy", "noncombat_move")
    assert "sz16" in moves(st, "italy.destroyer.1")
    assert moves(st, "italy.cruiser.1")
    st = replace(st, options=st.options.set("dardanelles_closed", True))
    assert "sz16" not in moves(st, "italy.destroyer.1")
    assert moves(st, "italy.cruiser.1") == ()  # nor out of it
    st = at(st, "italy", "combat_move")  # air units still fly over sea zone 16
    st = replace(st, options=st.options.set("dardanelles_closed", True))
    # Something to attack there: air ends a Combat Move in a hostile space (pg. 14).
    st = board(st, *((p.id, p.type, p.location) for p in st.pieces.values()),
               ("ussr.submarine.1", "submarine", "sz16"))
    assert "sz16" in moves(st, "italy.fighter.1")


# --- Special Combat Movement: Aircraft Carriers (pg. 15); Aircraft Carriers (pg. 28) ---------

def test_aircraft_carriers_guest_fighters_stay_aboard_as_cargo_and_sink_with_it() -> None:
    st = board(start(), ("usa.carrier.1", "carrier", "sz06"),
               ("usa.destroyer.1", "destroyer", "sz06"),
               ("uk.fighter.1", "fighter", "sz06"),
               ("germany.submarine.1", "submarine", "sz07"))
    st = at(st, "usa", "combat_move")
    st = act(st, "move", "usa", piece="usa.carrier.1", to="sz07")
    st = act(st, "move", "usa", piece="usa.destroyer.1", to="sz07")
    f = st.piece("uk.fighter.1")
    assert f.location == "sz07" and f.attrs["on"] == "usa.carrier.1"
    st = at(st, "usa", "conduct_combat")
    # Guests "cannot take part in combat": only the carrier and the destroyer attack.
    assert [p.id for p in forces.attackers(game(), st, "sz07", "usa")] == [
        "usa.carrier.1", "usa.destroyer.1"]
    st = act(st, "fight", "usa", space="sz07")
    assert dice_asked(st) == 3  # carrier, destroyer, submarine (no Surprise Strike: destroyer)
    st = act(st, DICE, "usa", values=(6, 6, 1))  # only the submarine hits
    st = act(st, "casualties", "usa", lost={"carrier": 1})
    assert "uk.fighter.1" not in st.pieces  # "destroyed if the carrier is destroyed"
    no_problems(st)


def test_aircraft_carriers_guests_are_cargo_only_on_the_carrier_owners_turn() -> None:
    st = board(start(), ("usa.carrier.1", "carrier", "sz06"),
               ("uk.fighter.1", "fighter", "sz06"))
    st = at(st, "usa", "noncombat_move")
    st = act(st, "move", "usa", piece="usa.carrier.1", to="sz07")
    assert st.piece("uk.fighter.1").attrs["on"] == "usa.carrier.1"
    st = apply(game(), st, Action(END_STEP, "usa")).state
    f = st.piece("uk.fighter.1")
    assert f.location == "sz07" and "on" not in f.attrs  # it defends with the carrier again


def test_amphibious_assaults_step2_calculator_limits_ships_to_land_units() -> None:
    from wartable.core.errors import WartableError
    from wartable.games.aa_anniversary.calculator import calculate
    from wartable.games.aa_anniversary.combat import Force
    from wartable.games.aa_anniversary.steps.common import world

    cat = world(game()).catalog
    with pytest.raises(WartableError, match="one ship per land unit"):
        calculate(Force.of(infantry=1, fighter=1), Force.of(infantry=1), cat,
                  bombard=Force.of(battleship=1, cruiser=1))
    r = calculate(Force.of(infantry=1), Force.of(infantry=1), cat,
                  bombard=Force.of(battleship=1))
    # By hand: the battleship hits on 4 (2/3); its casualty still defends in round one
    # (1/3 to hit) and is then removed, so the attacker wins if it survives: 2/3 * 2/3.
    # On a miss (1/3) a plain 1-against-2 fight: wins (1/6 * 2/3) / (1 - 5/6 * 2/3) = 1/4.
    assert r.attacker_win == pytest.approx(2 / 3 * 2 / 3 + 1 / 3 * 1 / 4, abs=1e-9)


# --- Order of Play (pg. 11): the 1942 scenario's phase names --------------------------------

def test_order_of_play_1942_phases_named_after_the_1942_order() -> None:
    g = game()
    rules = g.rules
    assert isinstance(rules, AARules)
    names = {}
    for scenario in ("1941", "1942"):
        st = start(scenario)
        names[scenario] = [rules.phase_name(g, st, pos)
                           for pos in g.positions if pos.step.kind == "purchase"]
    assert names["1941"] == ["Germany turn", "Soviet Union turn", "Japan turn",
                             "United Kingdom turn", "Italy turn", "China turn",
                             "United States turn"]
    assert names["1942"] == ["Japan turn", "Soviet Union turn", "Germany turn",
                             "United Kingdom turn", "Italy turn", "China turn",
                             "United States turn"]


def test_order_of_play_1942_prompt_and_log_name_japan_first() -> None:
    """What players see: the first prompt of 1942 and its log line say Japan's turn."""
    from wartable.model.values import freeze

    g = game()
    state, events = new_game(g, "1942", freeze({}), 1)
    p = prompt(g, state)
    assert p.phase == "Japan turn" and p.side == "japan"
    assert any(e.text.startswith("Round 1: Japan turn —") for e in events)
