"""Strategic bombing raids, rockets, factory damage and repair (steps/bombing.py), one test per
rule, named after the rulebook section it checks. Expected values come from the rulebook's
text and hand calculation; battles use physical dice so each test says what was rolled.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from aa_helpers import act, at, board, dice_asked, escorted_raid, game, no_problems, start

from wartable.core.errors import IllegalAction
from wartable.engine.actions import DICE, END_STEP
from wartable.engine.loop import prompt
from wartable.games.aa_anniversary import research
from wartable.games.aa_anniversary.steps import bombing, mobilize
from wartable.games.aa_anniversary.steps.battle import forces
from wartable.games.aa_anniversary.steps.common import MOBILIZATION, controller, ipcs
from wartable.model.state import GameState


def damaged(state: GameState, pid: str, n: int) -> GameState:
    return state.with_piece(state.piece(pid).with_attr("damage", n))


def raid_karelia(*extra: tuple[str, str, str]) -> GameState:
    """Two German bombers over Karelia S.S.R. (2 IPCs) and its Soviet industrial complex."""
    st = board(start(), ("germany.bomber.1", "bomber", "karelia_ssr"),
               ("germany.bomber.2", "bomber", "karelia_ssr"),
               ("ussr.factory.1", "factory", "karelia_ssr"), *extra)
    return at(st, "germany", "conduct_combat")


# --- Conduct Combat, 1. Strategic Bombing Raids (pg. 17) ------------------------------------

def test_strategic_bombing_raids_worked_example_aa_then_damage_dice() -> None:
    # The rulebook's example: two bombers raid, the AA gun rolls a 1 against one and destroys
    # it, the survivor rolls a 3: 3 damage markers.
    st = raid_karelia(("ussr.aa_gun.1", "aa_gun", "karelia_ssr"))
    raids = [b for b in prompt(game(), st).buttons if b.id == "raid"]
    assert raids and raids[0].args["bombers"] == 2
    st = act(st, "raid", "germany", space="karelia_ssr", bombers=2)
    assert dice_asked(st) == 2 and prompt(game(), st).side == "ussr"  # one die per bomber
    st = act(st, DICE, "ussr", values=(1, 4))
    assert "germany.bomber.1" not in st.pieces and "germany.bomber.2" in st.pieces
    assert dice_asked(st) == 1  # the surviving bomber's damage die
    st = act(st, DICE, "germany", values=(3,))
    assert bombing.damage(game(), st, "karelia_ssr") == 3
    assert not st.frames and st.var("raid") is None
    st = act(st, END_STEP, "germany")  # the raid was the only combat: nothing left to fight
    no_problems(st)


def test_strategic_bombing_raids_damage_capped_at_twice_the_ipc_value() -> None:
    # Karelia S.S.R. is worth 2 IPCs: at most 4 markers; with 3 already, a 6 adds only 1
    # ("Any excess damage is not applied").
    st = raid_karelia()
    st = damaged(st, "ussr.factory.1", 3)
    st = act(st, "raid", "germany", space="karelia_ssr", bombers=1)
    st = act(st, DICE, "germany", values=(6,))
    assert bombing.damage(game(), st, "karelia_ssr") == 4
    assert bombing.damage_cap(game(), "karelia_ssr") == 4


def test_strategic_bombing_raids_come_before_every_other_battle() -> None:
    st = raid_karelia(("germany.infantry.1", "infantry", "east_poland"),
                      ("ussr.infantry.1", "infantry", "east_poland"))
    fights = [b for b in prompt(game(), st).buttons if b.id == "fight"]
    assert fights and not any(b.enabled for b in fights)
    with pytest.raises(IllegalAction, match="strategic bombing raids first"):
        act(st, "fight", "germany", space="east_poland")
    st = act(st, "raid", "germany", space="karelia_ssr", bombers=2)
    st = act(st, DICE, "germany", values=(1, 1))
    assert bombing.damage(game(), st, "karelia_ssr") == 2
    st = act(st, "fight", "germany", space="east_poland")  # now the other battles
    assert dice_asked(st) == 2


def test_bombers_raiding_bomber_fights_no_other_battle() -> None:
    # One bomber raids, the other joins the infantry's attack on Karelia: the raider is not
    # on the battle board (Bombers: "either ... normal combat or ... an economic attack").
    st = raid_karelia(("germany.infantry.1", "infantry", "karelia_ssr"),
                      ("ussr.infantry.1", "infantry", "karelia_ssr"))
    st = act(st, "raid", "germany", space="karelia_ssr", bombers=1)
    st = act(st, DICE, "germany", values=(5,))
    assert st.piece("germany.bomber.1").attrs.get("raided")
    att = forces.attackers(game(), st, "karelia_ssr", "germany")
    assert [p.id for p in att] == ["germany.bomber.2", "germany.infantry.1"]
    st = act(st, "fight", "germany", space="karelia_ssr")
    assert dice_asked(st) == 3  # bomber 2 and the infantry attack, one defender


def test_bombers_no_raid_join_the_battle() -> None:
    st = raid_karelia(("ussr.infantry.1", "infantry", "karelia_ssr"))
    st = act(st, "no_raid", "germany", space="karelia_ssr")
    assert bombing.raid_targets(game(), st, "germany") == ()
    st = act(st, "fight", "germany", space="karelia_ssr")
    assert dice_asked(st) == 3  # both bombers attack, the infantry defends
    assert bombing.damage(game(), st, "karelia_ssr") == 0


def test_raid_needs_an_enemy_industrial_complex() -> None:
    st = board(start(), ("germany.bomber.1", "bomber", "east_poland"),
               ("ussr.infantry.1", "infantry", "east_poland"))
    st = at(st, "germany", "conduct_combat")
    assert not [b for b in prompt(game(), st).buttons if b.id == "raid"]
    with pytest.raises(IllegalAction, match="No strategic bombing raid"):
        act(st, "raid", "germany", space="east_poland")


# --- Research & Development: Heavy Bombers, Radar, Rockets ---------------------------------

def test_heavy_bombers_roll_two_dice_and_keep_the_best_in_a_raid() -> None:
    st = board(start(), ("germany.bomber.1", "bomber", "united_kingdom"),
               ("germany.bomber.2", "bomber", "united_kingdom"),
               ("uk.factory.1", "factory", "united_kingdom"))
    st = research.with_development(st, "germany", research.HEAVY_BOMBERS)
    st = at(st, "germany", "conduct_combat")
    st = act(st, "raid", "germany", space="united_kingdom", bombers=2)
    assert dice_asked(st) == 4
    st = act(st, DICE, "germany", values=(2, 5, 6, 1))
    assert bombing.damage(game(), st, "united_kingdom") == 5 + 6  # under the cap of 16


def test_radar_aa_guns_hit_on_1_or_2_against_raiders() -> None:
    st = raid_karelia(("ussr.aa_gun.1", "aa_gun", "karelia_ssr"))
    st = research.with_development(st, "ussr", research.RADAR)
    st = act(st, "raid", "germany", space="karelia_ssr", bombers=2)
    st = act(st, DICE, "ussr", values=(2, 3))
    assert "germany.bomber.1" not in st.pieces and "germany.bomber.2" in st.pieces


def test_rockets_aa_gun_attacks_an_enemy_complex_within_3_spaces() -> None:
    # Germany -> Poland -> Baltic States -> Karelia S.S.R.: 3 spaces; Russia is farther.
    st = board(start(), ("germany.aa_gun.1", "aa_gun", "germany"),
               ("ussr.factory.1", "factory", "karelia_ssr"),
               ("ussr.factory.2", "factory", "russia"))
    st = research.with_development(st, "germany", research.ROCKETS)
    st = at(st, "germany", "conduct_combat")
    rockets = [dict(b.args) for b in prompt(game(), st).buttons if b.id == "rocket"]
    assert rockets == [{"launch": "germany", "target": "karelia_ssr"}]
    st = act(st, "rocket", "germany", launch="germany", target="karelia_ssr")
    st = act(st, DICE, "germany", values=(5,))
    assert bombing.damage(game(), st, "karelia_ssr") == 4  # 1d6 = 5, capped at 2 x 2 IPCs
    with pytest.raises(IllegalAction):  # one rocket per territory's guns, per complex
        act(st, "rocket", "germany", launch="germany", target="karelia_ssr")


def test_rockets_need_the_development() -> None:
    st = board(start(), ("germany.aa_gun.1", "aa_gun", "germany"),
               ("ussr.factory.1", "factory", "karelia_ssr"))
    st = at(st, "germany", "conduct_combat")
    assert not [b for b in prompt(game(), st).buttons if b.id == "rocket"]


# --- Industrial Complexes: Damaged Factories (pg. 25); Phase 2 repairs; Phase 6 -------------

def test_damaged_factories_one_unit_less_per_marker_at_mobilization() -> None:
    st = board(start(), ("italy.factory.1", "factory", "italy"))
    st = damaged(st, "italy.factory.1", 4)
    st = at(st, "italy", "purchase")
    st = st.with_var("ipcs", st.var("ipcs").set("italy", 100))
    for _ in range(3):
        st = act(st, "buy", "italy", unit="infantry")
    st = at(st, "italy", "mobilize")
    assert mobilize.room(game(), st, "italy") == 6 - 4
    new = sorted(p.id for p in st.pieces_at(MOBILIZATION))
    for pid in new[:2]:
        st = act(st, "move", "italy", piece=pid, to="italy")
    assert prompt(game(), st).moves.get(new[2], ()) == ()
    no_problems(st)


def test_damaged_factories_at_twice_the_value_produce_nothing() -> None:
    st = board(start(), ("italy.factory.1", "factory", "italy"))
    st = damaged(st, "italy.factory.1", 12)
    assert mobilize.room(game(), st, "italy") <= 0


def test_pay_for_units_and_repairs_one_ipc_per_marker() -> None:
    st = board(start(), ("italy.factory.1", "factory", "italy"))
    st = damaged(st, "italy.factory.1", 3)
    st = at(st, "italy", "purchase")
    st = st.with_var("ipcs", st.var("ipcs").set("italy", 10))
    labels = [b.label for b in prompt(game(), st).buttons if b.id == "repair"]
    assert labels and all("Italy" in x for x in labels)
    st = act(st, "repair", "italy", space="italy", markers=2)
    assert bombing.damage(game(), st, "italy") == 1 and ipcs(st, "italy") == 8
    with pytest.raises(IllegalAction, match="has 1 damage"):
        act(st, "repair", "italy", space="italy", markers=2)


def test_increased_factory_production_repairs_two_markers_per_ipc() -> None:
    st = board(start(), ("italy.factory.1", "factory", "italy"))
    st = damaged(st, "italy.factory.1", 4)
    st = research.with_development(st, "italy", research.INCREASED_FACTORY_PRODUCTION)
    st = at(st, "italy", "purchase")
    st = st.with_var("ipcs", st.var("ipcs").set("italy", 10))
    st = act(st, "repair", "italy", space="italy", markers=4)
    assert bombing.damage(game(), st, "italy") == 0 and ipcs(st, "italy") == 8


def test_usable_by_invading_forces_captured_complex_keeps_its_damage() -> None:
    st = board(start(), ("ussr.armour.1", "armour", "germany"),
               ("germany.factory.1", "factory", "germany"))
    st = damaged(st, "germany.factory.1", 5)
    st = at(st, "ussr", "conduct_combat")
    st = act(st, "fight", "ussr", space="germany")
    assert controller(st, "germany") == "ussr"
    f = st.piece("germany.factory.1")
    assert f.side == "ussr" and f.attrs.get("damage") == 5


# --- Additional Optional Rules: Fighter Escorts and Interceptors (pg. 24) -------------------

def test_fighter_escorts_and_interceptors_one_round_air_battle() -> None:
    st = escorted_raid()
    st = act(st, "raid", "germany", space="united_kingdom", bombers=1, escorts=1)
    p = prompt(game(), st)
    assert p.side == "uk" and [b.args["count"] for b in p.buttons] == [2, 1, 0]
    st = act(st, "intercept", "uk", count=2)
    # One escort die (attack 1) and two interceptor dice (defense 2); bombers do not fire.
    assert dice_asked(st) == 3
    st = act(st, DICE, "germany", values=(1, 2, 6))
    assert "uk.fighter.1" not in st.pieces  # the escort's 1 hits
    p = prompt(game(), st)
    assert p.side == "germany"  # the attacker chooses its loss to the interceptor's hit
    assert dict(p.buttons[0].args["lost"]) == {"bomber": 0, "fighter": 1}
    st = act(st, "casualties", "germany", lost={"bomber": 0, "fighter": 1})
    assert "germany.fighter.1" not in st.pieces
    st = act(st, DICE, "germany", values=(4,))  # the surviving bomber bombs as normal
    assert bombing.damage(game(), st, "united_kingdom") == 4
    # The interceptor stays out of any other battle in the territory this turn.
    assert forces.defenders(game(), st, "united_kingdom", "germany") == ()
    st = act(st, END_STEP, "germany")
    assert not st.piece("uk.fighter.2").attrs.get("intercepting")
    no_problems(st)


def test_fighter_escorts_and_interceptors_only_with_the_option() -> None:
    st = escorted_raid()
    st = replace(st, options=st.options.set("escorts_interceptors", False))
    raids = [b for b in prompt(game(), st).buttons if b.id == "raid"]
    assert [dict(b.args) for b in raids] == [
        {"space": "united_kingdom", "bombers": 1, "escorts": 0}]
    st = act(st, "raid", "germany", space="united_kingdom", bombers=1)
    assert prompt(game(), st).side == "germany" and dice_asked(st) == 1  # no air battle


def test_fighter_escorts_and_interceptors_land_one_space_away_if_captured() -> None:
    # "If that territory is captured, they may move one space to land in a friendly
    # territory ... after all of the attacker's combats have been resolved."
    st = raid_karelia(("ussr.fighter.1", "fighter", "karelia_ssr"),
                      ("germany.infantry.1", "infantry", "karelia_ssr"))
    st = replace(st, options=st.options.set("escorts_interceptors", True))
    st = act(st, "raid", "germany", space="karelia_ssr", bombers=2)
    st = act(st, "intercept", "ussr", count=1)
    st = act(st, DICE, "germany", values=(6,))  # the interceptor (defense 2) misses
    st = act(st, DICE, "germany", values=(1, 1))  # the bombers: 2 damage
    assert bombing.damage(game(), st, "karelia_ssr") == 2
    # The interceptor takes no part in the battle for the territory: the infantry walks in.
    st = act(st, "fight", "germany", space="karelia_ssr")
    assert controller(st, "karelia_ssr") == "germany"
    st = act(st, END_STEP, "germany")
    p = prompt(game(), st)  # the owner chooses where (Fighter Escorts and Interceptors)
    assert p.side == "ussr" and {b.args["to"] for b in p.buttons} == {
        "archangel", "baltic_states", "belorussia"}
    st = act(st, "land", "ussr", to="archangel")
    f = st.piece("ussr.fighter.1")
    assert f.location == "archangel" and not f.attrs.get("intercepting")
    assert controller(st, f.location) == "ussr"
    no_problems(st)


def test_rockets_fire_only_in_the_strategic_bombing_raid_step() -> None:
    st = board(start(), ("germany.aa_gun.1", "aa_gun", "germany"),
               ("ussr.factory.1", "factory", "karelia_ssr"),
               ("germany.infantry.1", "infantry", "east_poland"),
               ("ussr.infantry.1", "infantry", "east_poland"))
    st = research.with_development(st, "germany", research.ROCKETS)
    st = at(st, "germany", "conduct_combat")
    assert [b for b in prompt(game(), st).buttons if b.id == "rocket"]
    st = act(st, "fight", "germany", space="east_poland")
    st = act(st, DICE, "germany", values=(1, 6))  # the attacker hits, the defender misses
    st = act(st, "casualties", "ussr", lost={"infantry": 1})
    assert not st.frames and st.var("battle") is None  # back at the step's own prompt
    assert not [b for b in prompt(game(), st).buttons if b.id == "rocket"]
    with pytest.raises(IllegalAction, match="No rocket"):
        act(st, "rocket", "germany", launch="germany", target="karelia_ssr")
