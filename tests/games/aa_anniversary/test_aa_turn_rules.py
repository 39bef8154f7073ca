"""The A&A turn on the world map, one test per rule, each named after its rulebook section.

States are built by hand: a new game, then `dataclasses.replace` with only the units the
rule needs, positioned at the step under test. Battles use physical dice so each test says
exactly what was rolled.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from aa_helpers import act, at, board, game, moves, no_problems, start

from wartable.core.errors import IllegalAction
from wartable.engine.actions import DICE, END_STEP, Action
from wartable.engine.loop import apply, prompt
from wartable.games.aa_anniversary.steps.common import MOBILIZATION, controller, ipcs, world
from wartable.model.state import GameState

# --- Order of Play (pg. 11), Setup --------------------------------------------------------

def test_order_of_play_1941_germany_first_1942_japan_first() -> None:
    s41, s42 = start("1941"), start("1942")
    assert s41.active_side == "germany"
    assert s42.active_side == "japan"
    assert prompt(game(), s42).side == "japan"
    # Japan's whole turn, then the second power of the 1942 order (the Soviet Union).
    st = s42
    while st.active_side == "japan":
        st = apply(game(), st, Action(END_STEP, "japan")).state
    assert st.active_side == "ussr"


def test_setup_starting_ipcs_and_cargo_aboard_transports() -> None:
    st = start("1941")
    assert ipcs(st, "germany") == 31 and ipcs(st, "uk") == 43 and ipcs(st, "china") == 0
    assert controller(st, "egypt") == "uk"
    cargo = [p for p in st.pieces.values() if p.location == "sz61" and p.type == "infantry"]
    assert cargo and all(str(p.attrs["on"]).startswith("japan.transport") for p in cargo)
    no_problems(st)


def test_capturing_capitals_capital_lost_skips_purchase() -> None:
    st = start("1941")
    g = game()
    assert g.rules.condition(g, "capital_held", st)
    lost = st.with_var("control", st.var("control").set("germany", "ussr"))
    assert not g.rules.condition(g, "capital_held", lost)


# --- Phase 2: Purchase Units (pg. 12), China Rules (pg. 10) ----------------------------------

def test_phase2_purchase_pays_ipcs_and_waits_in_mobilization_zone() -> None:
    st = at(start(), "germany", "purchase")
    st = act(st, "buy", "germany", unit="armour")
    assert ipcs(st, "germany") == 26
    new = [p for p in st.pieces.values() if p.location == MOBILIZATION]
    assert [p.type for p in new] == ["armour"]
    no_problems(st)
    poor = st.with_var("ipcs", st.var("ipcs").set("germany", 4))
    with pytest.raises(IllegalAction, match="costs 5 IPCs"):
        act(poor, "buy", "germany", unit="armour")


def test_china_rules_no_purchase_one_infantry_per_two_free_territories() -> None:
    st = at(start(), "china", "purchase")
    new = [p for p in st.pieces.values() if p.location == MOBILIZATION and p.side == "china"]
    assert new and all(p.type == "infantry" for p in new)
    with pytest.raises(IllegalAction, match="China"):
        act(st, "buy", "china", unit="infantry")


# --- Phase 3: Combat Move (pg. 14) ------------------------------------------------------------

def test_phase3_land_units_stop_in_hostile_territory() -> None:
    st = board(start(), ("germany.armour.1", "armour", "poland"),
               ("ussr.infantry.1", "infantry", "east_poland"))
    st = at(st, "germany", "combat_move")
    m = moves(st, "germany.armour.1")
    assert "east_poland" in m  # hostile: enter and stop
    assert "eastern_ukraine" not in m  # only through the defended east_poland


def test_phase3_blitzing_captures_empty_enemy_territory() -> None:
    st = board(start(), ("germany.armour.1", "armour", "poland"))
    st = at(st, "germany", "combat_move")
    assert "eastern_ukraine" in moves(st, "germany.armour.1")  # only through east_poland
    st = act(st, "move", "germany", piece="germany.armour.1", to="eastern_ukraine")
    assert controller(st, "east_poland") == "germany"  # captured while passing
    assert "east_poland" in st.var("captured")


def test_game_board_neutral_territories_are_impassable() -> None:
    st = board(start(), ("germany.armour.1", "armour", "germany"),
               ("germany.fighter.1", "fighter", "germany"))
    st = at(st, "germany", "combat_move")
    assert "switzerland" not in moves(st, "germany.armour.1")
    assert "switzerland" not in moves(st, "germany.fighter.1")


def test_canals_suez_closed_while_the_enemy_holds_egypt() -> None:
    # A British transport in sz34 to attack: ships end a Combat Move in hostile spaces.
    st = board(start(), ("italy.cruiser.1", "cruiser", "sz15"),
               ("uk.transport.1", "transport", "sz34"))
    st = at(st, "italy", "combat_move")
    assert "sz34" not in moves(st, "italy.cruiser.1")
    ctl = st.var("control").set("egypt", "italy").set("trans_jordan", "italy")
    st2 = at(st.with_var("control", ctl), "italy", "combat_move")
    assert "sz34" in moves(st2, "italy.cruiser.1")


def test_china_rules_chinese_units_stay_in_china() -> None:
    st = board(start(), ("china.infantry.1", "infantry", "yunnan"))
    m = moves(at(st, "china", "noncombat_move"), "china.infantry.1")
    assert "hupeh" in m and "burma" not in m  # British Burma is friendly but not Chinese
    # Japanese Kiangsu is a hostile Chinese territory; Japanese French Indo-China is not.
    st = board(start(), ("china.infantry.1", "infantry", "hupeh"),
               ("china.infantry.2", "infantry", "yunnan"))
    assert "kiangsu" in moves(at(st, "china", "combat_move"), "china.infantry.1")
    assert moves(at(st, "china", "combat_move"), "china.infantry.2") == ()


def test_transports_load_carry_and_unload_amphibious_assault() -> None:
    st = board(start(), ("germany.infantry.1", "infantry", "germany"),
               ("germany.transport.1", "transport", "sz05"),
               ("ussr.infantry.1", "infantry", "karelia_ssr"))
    st = at(st, "germany", "combat_move")
    st = act(st, "move", "germany", piece="germany.infantry.1", to="sz05")
    assert st.piece("germany.infantry.1").attrs["on"] == "germany.transport.1"
    st = act(st, "move", "germany", piece="germany.transport.1", to="sz06")
    assert st.piece("germany.infantry.1").location == "sz06"  # cargo moves with it
    no_problems(st)
    # Loaded in Combat Move: it may only offload to attack (Transports, pg. 15), not in Norway.
    assert "norway" not in moves(st, "germany.infantry.1")
    st = act(st, "move", "germany", piece="germany.infantry.1", to="united_kingdom")
    p = st.piece("germany.infantry.1")
    assert p.location == "united_kingdom" and p.attrs.get("amphibious")
    assert "germany.transport.1" not in prompt(game(), st).moves  # unloaded: moves no more


# --- Phase 5: Noncombat Move (pg. 21) -----------------------------------------------------------

def test_phase5_noncombat_move_enters_no_hostile_space_and_combat_movers_stay() -> None:
    st = board(start(), ("germany.infantry.1", "infantry", "poland"),
               ("germany.infantry.2", "infantry", "poland"))
    st = at(st, "germany", "combat_move")
    st = act(st, "move", "germany", piece="germany.infantry.2", to="east_poland")
    st = at(st, "germany", "noncombat_move")
    m = moves(st, "germany.infantry.1")
    assert "germany" in m and "east_poland" not in m
    assert "germany.infantry.2" not in prompt(game(), st).moves


def test_air_units_landing_aircraft_that_cannot_land_are_lost() -> None:
    st = board(start(), ("germany.fighter.1", "fighter", "east_poland"),
               ("germany.fighter.2", "fighter", "poland"))
    st = at(st, "germany", "noncombat_move")
    st = st.with_var("control", st.var("control").set("east_poland", "germany")) \
        .with_var("captured", ("east_poland",))
    assert "east_poland" not in moves(st, "germany.fighter.2")  # captured this turn
    st = apply(game(), st, Action(END_STEP, "germany")).state
    assert "germany.fighter.1" not in st.pieces and "germany.fighter.2" in st.pieces
    no_problems(st)


# --- Phase 4: Conduct Combat (pg. 16-20) --------------------------------------------------------

def _battle(st: GameState) -> GameState:
    st = at(st, "germany", "conduct_combat")
    return act(st, "fight", "germany", space="east_poland")


def test_general_combat_defender_chooses_casualties_and_capture() -> None:
    st = board(start(), ("germany.armour.1", "armour", "east_poland"),
               ("germany.infantry.1", "infantry", "east_poland"),
               ("ussr.infantry.1", "infantry", "east_poland"),
               ("ussr.artillery.1", "artillery", "east_poland"))
    st = _battle(st)
    # Dice: attacker armour (3) then infantry (1), then the defenders (2, 2).
    st = act(st, DICE, "germany", values=(1, 1, 6, 6))
    p = prompt(game(), st)
    assert p.side == "ussr"  # the DEFENDING power chooses its casualties (Step 5)
    assert p.buttons[0].label.startswith("Default:")
    with pytest.raises(IllegalAction, match="exactly 2"):
        act(st, "casualties", "ussr", lost={"infantry": 1})
    st = act(st, "casualties", "ussr", lost={"infantry": 1, "artillery": 1})
    assert controller(st, "east_poland") == "germany"  # Step 7: land unit captures
    assert st.var("battle") is None and not st.frames
    no_problems(st)


def test_general_combat_attacker_casualties_then_press_or_retreat() -> None:
    st = board(start(), ("germany.infantry.1", "infantry", "east_poland"),
               ("germany.infantry.2", "infantry", "east_poland"),
               ("ussr.infantry.1", "infantry", "east_poland"),
               ("ussr.infantry.2", "infantry", "east_poland"))
    for pid, via in (("germany.infantry.1", "poland"), ("germany.infantry.2", "poland")):
        pc = st.piece(pid)
        st = st.with_piece(replace(pc, attrs=pc.attrs.set("via", via)))
    st = _battle(st)
    st = act(st, DICE, "germany", values=(6, 6, 1, 6))  # one defender hit
    assert prompt(game(), st).side == "germany"
    st = act(st, "casualties", "germany", lost={"infantry": 1})
    p = prompt(game(), st)
    assert [(b.id, dict(b.args)) for b in p.buttons] == [("press", {}),
                                                        ("retreat", {"to": "poland"})]
    with pytest.raises(IllegalAction, match="Retreat to one of: poland"):
        act(st, "retreat", "germany", to="belorussia")  # not where they came from
    st = act(st, "retreat", "germany", to="poland")
    assert st.piece("germany.infantry.2").location == "poland"
    assert controller(st, "east_poland") == "ussr"
    assert "east_poland" in st.var("resolved")


def test_antiaircraft_guns_fire_before_the_first_round() -> None:
    st = board(start(), ("germany.fighter.1", "fighter", "east_poland"),
               ("germany.infantry.1", "infantry", "east_poland"),
               ("ussr.infantry.1", "infantry", "east_poland"),
               ("ussr.aa_gun.1", "aa_gun", "east_poland"))
    st = _battle(st)
    st = act(st, DICE, "ussr", values=(1,))  # AA hit: the fighter is shot down
    assert "germany.fighter.1" not in st.pieces
    assert prompt(game(), st).dice is not None  # the first round's dice follow


def test_capturing_capitals_captor_takes_the_treasury() -> None:
    st = board(start(), ("ussr.armour.1", "armour", "germany"),
               ("germany.factory.1", "factory", "germany"))
    st = at(st, "ussr", "conduct_combat")
    before = ipcs(st, "ussr")
    st = act(st, "fight", "ussr", space="germany")
    assert controller(st, "germany") == "ussr"
    assert ipcs(st, "ussr") == before + 31 and ipcs(st, "germany") == 0
    assert st.piece("germany.factory.1").side == "ussr"  # industrial complex changes sides


def test_liberating_a_territory_returns_it_to_its_original_owner() -> None:
    st = start()
    st = st.with_var("control", st.var("control").set("karelia_ssr", "germany"))
    st = board(st, ("uk.infantry.1", "infantry", "karelia_ssr"))
    st = at(st, "uk", "conduct_combat")
    st = act(st, "fight", "uk", space="karelia_ssr")
    assert controller(st, "karelia_ssr") == "ussr"


def test_defenseless_transports_are_destroyed_at_once() -> None:
    st = board(start(), ("germany.cruiser.1", "cruiser", "sz06"),
               ("uk.transport.1", "transport", "sz06"))
    st = at(st, "germany", "conduct_combat")
    st = act(st, "fight", "germany", space="sz06")
    assert "uk.transport.1" not in st.pieces
    no_problems(st)


def test_conduct_combat_every_battle_must_be_fought() -> None:
    st = board(start(), ("germany.infantry.1", "infantry", "east_poland"),
               ("ussr.infantry.1", "infantry", "east_poland"))
    st = at(st, "germany", "conduct_combat")
    with pytest.raises(IllegalAction, match="Resolve every battle"):
        act(st, END_STEP, "germany")


# --- Phase 6: Mobilize New Units (pg. 21), Phase 7: Collect Income (pg. 22) ----------------------

def test_phase6_mobilize_at_factories_up_to_the_ipc_value() -> None:
    st = board(start(), ("italy.factory.1", "factory", "italy"))
    st = at(st, "italy", "purchase")
    st = st.with_var("ipcs", st.var("ipcs").set("italy", 100))
    for _ in range(6):
        st = act(st, "buy", "italy", unit="infantry")
    st = act(st, "buy", "italy", unit="destroyer")
    st = at(st, "italy", "mobilize")
    new = sorted(p.id for p in st.pieces_at(MOBILIZATION) if p.type == "infantry")
    dd = next(p.id for p in st.pieces_at(MOBILIZATION) if p.type == "destroyer")
    assert set(moves(st, dd)) <= {"sz14", "sz15"} and moves(st, dd)
    st = act(st, "move", "italy", piece=dd, to="sz14")
    for pid in new[:5]:
        st = act(st, "move", "italy", piece=pid, to="italy")
    assert moves(st, new[5]) == ()  # Italy is worth 6 IPCs: 6 units, the destroyer counts
    with pytest.raises(IllegalAction):
        act(st, "move", "italy", piece=new[5], to="italy")
    no_problems(st)


def test_phase6_mobilize_may_not_end_while_a_bought_transport_can_be_placed() -> None:
    """Phase 6 (pg. 21): all purchased units move from the mobilization zone; End step is
    refused while the transport could still go to a sea zone next to Italy's complex."""
    st = board(start(), ("italy.factory.1", "factory", "italy"))
    st = at(st, "italy", "purchase")
    st = act(st, "buy", "italy", unit="transport")
    st = at(st, "italy", "mobilize")
    tr = next(p.id for p in st.pieces_at(MOBILIZATION) if p.type == "transport")
    end = next(b for b in prompt(game(), st).buttons if b.id == END_STEP)
    assert not end.enabled and "Transport can still be mobilized" in end.reason
    with pytest.raises(IllegalAction, match="must be"):
        act(st, END_STEP, "italy")
    st = act(st, "move", "italy", piece=tr, to="sz14")
    assert next(b for b in prompt(game(), st).buttons if b.id == END_STEP).enabled
    st = act(st, END_STEP, "italy")
    assert st.piece(tr).location == "sz14"


def test_phase6_mobilize_ends_when_production_limits_keep_units_waiting() -> None:
    """Phase 6 (pg. 21): units that the complex's IPC value cannot take wait in the
    mobilization zone; End step is then allowed. Italy is worth 6 IPCs: a seventh unit
    waits."""
    st = board(start(), ("italy.factory.1", "factory", "italy"))
    st = at(st, "italy", "purchase")
    st = st.with_var("ipcs", st.var("ipcs").set("italy", 100))
    for _ in range(7):
        st = act(st, "buy", "italy", unit="infantry")
    st = at(st, "italy", "mobilize")
    new = sorted(p.id for p in st.pieces_at(MOBILIZATION) if p.type == "infantry")
    for pid in new[:5]:
        st = act(st, "move", "italy", piece=pid, to="italy")
    with pytest.raises(IllegalAction, match="can still be mobilized"):
        act(st, END_STEP, "italy")
    st = act(st, "move", "italy", piece=new[5], to="italy")
    st = act(st, END_STEP, "italy")
    assert st.piece(new[6]).location == MOBILIZATION


def test_phase7_collect_income_adds_the_production_level() -> None:
    st = start()
    st = at(st, "germany", "mobilize")
    before = ipcs(st, "germany")
    st = apply(game(), st, Action(END_STEP, "germany")).state
    assert ipcs(st, "germany") == before + 31


def test_how_to_win_victory_cities_checked_at_the_end_of_the_round() -> None:
    st = start()
    cities = sorted(world(game()).victory)
    assert len(cities) == 18
    st = at(st, "usa", "collect_income")
    end = apply(game(), st, Action(END_STEP, "usa")).state
    assert end.result is None  # 1941: neither side holds 15
    ctl = st.var("control")
    for vc in cities[:15]:
        ctl = ctl.set(vc, "germany")
    st = apply(game(), st.with_var("control", ctl), Action(END_STEP, "usa")).state
    assert st.result is not None and "Axis win: 15 victory cities" in st.result


def test_air_units_combat_move_keeps_movement_to_land() -> None:
    st = start()
    ctl = st.var("control")
    for sp in ctl:
        ctl = ctl.set(sp, "ussr" if sp != "germany" else "germany")
    st = board(st.with_var("control", ctl), ("germany.fighter.1", "fighter", "germany"))
    st = at(st, "germany", "combat_move")
    m = moves(st, "germany.fighter.1")
    assert "poland" in m and "east_poland" in m  # 2 out, 2 back to Germany
    assert "belorussia" not in m  # 3 out would leave 1: no landing space in reach


def test_general_combat_step2_submarine_surprise_strike() -> None:
    st = board(start(), ("germany.submarine.1", "submarine", "sz06"),
               ("uk.cruiser.1", "cruiser", "sz06"))
    st = at(st, "germany", "conduct_combat")
    st = act(st, "fight", "germany", space="sz06")
    st = act(st, "submerge", "germany", count=0)  # strike rather than submerge (pg. 30)
    ask = prompt(game(), st).dice
    assert ask is not None and ask.count == 1
    st = act(st, DICE, "germany", values=(2,))  # the sub strikes first and hits
    st = act(st, "casualties", "uk", lost={"cruiser": 1})
    # The struck cruiser never fires back (pg. 30): the battle is over, the sub survives.
    assert "germany.submarine.1" in st.pieces and st.var("battle") is None


def test_unit_profiles_destroyer_cancels_the_surprise_strike() -> None:
    st = board(start(), ("germany.submarine.1", "submarine", "sz06"),
               ("uk.destroyer.1", "destroyer", "sz06"))
    st = at(st, "germany", "conduct_combat")
    st = act(st, "fight", "germany", space="sz06")
    ask = prompt(game(), st).dice
    assert ask is not None and ask.count == 2  # sub and destroyer roll together


def test_how_to_win_aa_counts_rounds_with_no_last_one() -> None:
    """How to Win (pg. 7): A&A is played in rounds until a side holds enough victory cities;
    there is no last turn, so the game says "Round 2", never "Turn 2 of 99"."""
    sc = game().definition.scenarios["1941"]
    assert sc.turns_text(2) == "Round 2"
    assert sc.turns_text() == "From round 1, no round limit"
    st = start("1941")
    st = at(st, "usa", "collect_income")
    events = apply(game(), st, Action(END_STEP, "usa")).events
    heads = [e.text for e in events if e.kind == "phase"]
    assert heads and heads[-1].startswith("Round 2: Germany turn —")
