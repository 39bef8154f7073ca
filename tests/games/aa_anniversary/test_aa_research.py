"""Phase 1: Research & Development (optional rule, pg. 12) and every breakthrough's effect.

Each test sets up the situation its rule describes; expected values come from the rulebook's
text or from hand calculation. Battles and research rolls use physical dice so each test says
exactly what was rolled.
"""

from __future__ import annotations

from typing import Any

import pytest
from aa_helpers import act, at, board, game, no_problems

from wartable.core.errors import DataError, IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import DICE, END_STEP, Action
from wartable.engine.loop import apply, new_game, prompt
from wartable.engine.randomplay import play_random
from wartable.engine.session import Session
from wartable.games.aa_anniversary import combat as c
from wartable.games.aa_anniversary import research as rd
from wartable.games.aa_anniversary.calculator import calculate
from wartable.games.aa_anniversary.steps import mobilize
from wartable.games.aa_anniversary.steps.common import MOBILIZATION, ipcs, world
from wartable.model.state import GameState


def start(dice: str = "physical", research: bool = True) -> GameState:
    return new_game(game(), "1941", FrozenMap(research=research), seed=1, dice_mode=dice)[0]


def events(state: GameState, verb: str, side: str, **args: Any) -> tuple[GameState, list[str]]:
    out = apply(game(), state, Action.make(verb, side, **args))
    return out.state, [e.text for e in out.events]


def dev(state: GameState, power: str, *devs: str) -> GameState:
    for d in devs:
        state = rd.with_development(state, power, d)
    return state


def with_ipcs(state: GameState, power: str, n: int) -> GameState:
    return state.with_var("ipcs", state.var("ipcs").set(power, n))


def cat() -> c.Catalog:
    return world(game()).catalog


def table() -> rd.ResearchTable:
    return rd.research_table(game())


# --- data: the option and the Breakthrough Charts ---------------------------------------------

def test_rd_optional_rule_is_an_option_off_by_default() -> None:
    opt = next(o for o in game().definition.options if o.id == "research")
    assert opt.default is False and "Research & Development" in opt.rule
    st = start(research=False)
    # The optional rule off: the first step of Germany's turn is Purchase Units.
    assert game().position(st).step.kind == "purchase"
    assert game().position(start()).step.kind == "research"


def test_breakthrough_charts_1_and_2_as_printed() -> None:
    t = table()
    assert t.researcher_cost == 5 and t.success_face == 6
    assert [d.name for d in t.chart(1)] == [
        "Advanced Artillery", "Rockets", "Paratroopers", "Increased Factory Production",
        "War Bonds", "Mechanized Infantry"]
    assert [d.name for d in t.chart(2)] == [
        "Super Submarines", "Jet Fighters", "Improved Shipyards", "Radar",
        "Long-Range Aircraft", "Heavy Bombers"]
    assert [d.face for d in t.chart(2)] == [1, 2, 3, 4, 5, 6]


def _raw() -> dict[str, Any]:
    import tomllib
    from importlib import resources
    text = resources.files("wartable.games.aa_anniversary.data").joinpath(
        "research.toml").read_text(encoding="utf-8")
    return dict(tomllib.loads(text)["tables"]["research"])


def test_research_toml_is_checked_on_load() -> None:
    units = game().definition.unit_types
    raw = _raw()
    assert rd.parse_research(raw, units).get(rd.RADAR).aa_value == FrozenMap(aa_gun=2)
    twice = dict(raw, developments=[dict(raw["developments"][0], face=2),
                                    *raw["developments"][1:]])
    with pytest.raises(DataError, match="Chart 1 must list results 1 to 6"):
        rd.parse_research(twice, units)
    bad_unit = dict(raw, developments=[dict(raw["developments"][0], support={"howitzer": 2}),
                                       *raw["developments"][1:]])
    with pytest.raises(DataError, match="howitzer"):
        rd.parse_research(bad_unit, units)
    typo = dict(raw, developments=[dict(raw["developments"][0], atack={"fighter": 4}),
                                   *raw["developments"][1:]])
    with pytest.raises(DataError, match="unknown field"):
        rd.parse_research(typo, units)
    silent = dict(raw, developments=[dict(raw["developments"][0], provisional=True),
                                     *raw["developments"][1:]])
    with pytest.raises(DataError, match="note"):
        rd.parse_research(silent, units)
    # Our readings where the text is silent are marked provisional with a note.
    assert {d.id for d in table().developments if d.provisional} == {
        rd.PARATROOPERS, rd.INCREASED_FACTORY_PRODUCTION, rd.IMPROVED_MECHANIZED_INFANTRY}


# --- Research & Development Sequence, Steps 1-4 -----------------------------------------------

def test_rd_step1_researcher_tokens_cost_5_ipcs_each() -> None:
    st = at(start(), "germany", "research")
    assert ipcs(st, "germany") == 31  # Germany's 1941 treasury
    st, log = events(st, rd_step_buy(), "germany")
    assert log == ["Germany buys Researcher token (5 IPCs, 26 left)"]  # as purchases read
    for _ in range(2):
        st = act(st, rd_step_buy(), "germany")
    assert ipcs(st, "germany") == 16 and rd.researchers(st, "germany") == 3
    poor = with_ipcs(st, "germany", 4)
    with pytest.raises(IllegalAction, match="costs 5 IPCs"):
        act(poor, rd_step_buy(), "germany")
    no_problems(st)


def rd_step_buy() -> str:
    return "buy_researcher"


def test_rd_step2_no_six_keeps_all_researchers() -> None:
    st = at(start(), "germany", "research")
    st = act(act(st, rd_step_buy(), "germany"), rd_step_buy(), "germany")
    with pytest.raises(IllegalAction, match="Roll your research dice first"):
        act(st, END_STEP, "germany")  # Step 2: one die for each researcher you have
    st = act(st, "research", "germany")
    assert prompt(game(), st).dice is not None and prompt(game(), st).dice.count == 2
    st = act(st, DICE, "germany", values=(5, 1))
    assert rd.researchers(st, "germany") == 2 and rd.developments(st, "germany") == frozenset()
    assert not st.frames
    with pytest.raises(IllegalAction, match="before the research dice are rolled"):
        act(st, rd_step_buy(), "germany")
    # Next turn: the 2 kept researchers and 1 new one roll 3 dice.
    st = at(st, "germany", "research")
    st = act(act(st, rd_step_buy(), "germany"), "research", "germany")
    assert prompt(game(), st).dice.count == 3


def test_rd_step2_a_six_discards_all_researchers_and_step3_chooses_a_chart() -> None:
    st = at(start(), "germany", "research")
    for _ in range(3):
        st = act(st, rd_step_buy(), "germany")
    st = act(act(st, "research", "germany"), DICE, "germany", values=(2, 6, 6))
    assert rd.researchers(st, "germany") == 0  # discard ALL researcher tokens
    p = prompt(game(), st)
    assert p.side == "germany" and [dict(b.args) for b in p.buttons] == [{"chart": 1}, {"chart": 2}]
    st = act(st, "chart", "germany", chart=2)
    assert prompt(game(), st).dice.count == 1
    st, log = events(st, DICE, "germany", values=(5,))
    assert rd.developments(st, "germany") == {rd.LONG_RANGE_AIRCRAFT}  # chart 2, result 5
    assert any("Long-Range Aircraft" in t and "develops" in t for t in log)
    assert not st.frames
    act(st, END_STEP, "germany")  # one advance per turn: the phase is over


def test_rd_step3_reroll_until_a_new_advance() -> None:
    st = dev(at(start(), "germany", "research"), "germany", rd.ADVANCED_ARTILLERY, rd.ROCKETS)
    st = act(st, rd_step_buy(), "germany")
    st = act(act(st, "research", "germany"), DICE, "germany", values=(6,))
    st = act(st, "chart", "germany", chart=1)
    st, log = events(st, DICE, "germany", values=(1,))  # Advanced Artillery: held already
    assert any("already held: roll again" in t for t in log)
    assert prompt(game(), st).dice is not None
    st = act(st, DICE, "germany", values=(2,))  # Rockets: held too
    st = act(st, DICE, "germany", values=(5,))
    assert rd.developments(st, "germany") == {rd.ADVANCED_ARTILLERY, rd.ROCKETS, rd.WAR_BONDS}


def test_rd_step3_provisional_readings_are_said_in_the_log() -> None:
    st = at(start(), "germany", "research")
    st = act(st, rd_step_buy(), "germany")
    st = act(act(st, "research", "germany"), DICE, "germany", values=(6,))
    st = act(st, "chart", "germany", chart=1)
    st, log = events(st, DICE, "germany", values=(3,))
    assert any("develops Paratroopers" in t and "Provisional:" in t for t in log)


def test_rd_step3_a_complete_chart_gives_no_more() -> None:
    st = dev(at(start(), "germany", "research"), "germany", *(d.id for d in table().chart(1)))
    st = act(st, rd_step_buy(), "germany")
    st = act(act(st, "research", "germany"), DICE, "germany", values=(6,))
    p = prompt(game(), st)
    assert [b.enabled for b in p.buttons] == [False, True]
    with pytest.raises(IllegalAction, match="Choose Breakthrough Chart 2"):
        act(st, "chart", "germany", chart=1)
    everything = dev(at(start(), "germany", "research"), "germany", *rd.ALL)
    everything = act(everything, rd_step_buy(), "germany")
    everything = act(act(everything, "research", "germany"), DICE, "germany", values=(6,))
    assert not everything.frames and rd.researchers(everything, "germany") == 0


def test_rd_step4_developments_are_not_shared() -> None:
    st = dev(start(), "germany", rd.JET_FIGHTERS)
    assert rd.has(st, "germany", rd.JET_FIGHTERS)
    assert not rd.has(st, "italy", rd.JET_FIGHTERS)  # an ally gets nothing


def test_rd_capital_lost_no_research() -> None:
    st = start()
    st = st.with_var("control", st.var("control").set("germany", "ussr"))
    st = at(st, "germany", "research")
    g = game()
    out = g.rules.enter_step(g, st, g.position(st))
    assert out.auto_end and any("capital" in e.text for e in out.events)


def test_rd_digital_dice_run_the_whole_sequence() -> None:
    st = at(start(dice="digital"), "uk", "research")
    for _ in range(8):
        st = act(st, rd_step_buy(), "uk")
    st = act(st, "research", "uk")
    if st.frames:  # a breakthrough (1 - (5/6)^8 = 77% with seed-dependent dice)
        st = act(st, "chart", "uk", chart=1)
        assert len(rd.developments(st, "uk")) == 1 and rd.researchers(st, "uk") == 0
    else:
        assert rd.researchers(st, "uk") == 8
    act(st, END_STEP, "uk")


# --- Breakthrough Chart 1 ---------------------------------------------------------------------

def test_advanced_artillery_one_artillery_supports_two_infantry() -> None:
    force = c.Force.of(infantry=3, artillery=1)
    plain = c.fire_groups(force, c.ATTACK, cat())
    # Without it: one infantry at 2, two at 1, the artillery at 2 (Supported by Artillery).
    assert {(g.value, g.count) for g in plain} == {(1, 2), (2, 2)}
    adv = rd.apply_developments(cat(), table(), frozenset({rd.ADVANCED_ARTILLERY}), frozenset())
    # With it: two infantry and the artillery at 2, the third infantry at 1.
    assert {(g.value, g.count) for g in c.fire_groups(force, c.ATTACK, adv)} == {(1, 1), (2, 3)}
    # Defending, nothing changes.
    assert c.fire_groups(force, c.DEFENSE, adv) == c.fire_groups(force, c.DEFENSE, cat())


def test_rockets_range_3_and_1d6_damage_for_strategic_bombing() -> None:
    st = start()
    assert rd.rocket_range(game(), st, "germany") == 0
    st = dev(st, "germany", rd.ROCKETS)
    assert rd.rocket_range(game(), st, "germany") == 3
    assert rd.rocket_dice(game(), st, "germany") == 1
    assert rd.rocket_range(game(), st, "japan") == 0


def test_paratroopers_bomber_carries_one_infantry_to_the_first_hostile_territory() -> None:
    units = (("germany.bomber.1", "bomber", "germany"),
             ("germany.infantry.1", "infantry", "germany"),
             ("germany.infantry.2", "infantry", "germany"),
             ("ussr.infantry.1", "infantry", "east_poland"))
    st = at(board(dev(start(), "germany", rd.PARATROOPERS), *units), "germany", "combat_move")
    assert "east_poland" not in prompt(game(), st).moves.get("germany.infantry.1", ())
    # Germany -> Poland (German) -> East Poland (Soviet): the first hostile territory entered.
    st = act(st, "move", "germany", piece="germany.bomber.1", to="east_poland")
    assert "east_poland" in prompt(game(), st).moves.get("germany.infantry.1", ())
    st = act(st, "move", "germany", piece="germany.infantry.1", to="east_poland")
    assert st.piece("germany.infantry.1").attrs["para"] == "germany.bomber.1"
    assert rd.carried_paratrooper(st, "germany.bomber.1")  # no strategic bombing run for it
    # One infantry per bomber.
    assert "east_poland" not in prompt(game(), st).moves.get("germany.infantry.2", ())
    no_problems(st)
    # Without the development the infantry stays on the ground.
    plain = at(board(start(), *units), "germany", "combat_move")
    plain = act(plain, "move", "germany", piece="germany.bomber.1", to="east_poland")
    assert "east_poland" not in prompt(game(), plain).moves.get("germany.infantry.1", ())


def test_paratroopers_bomber_must_stop_in_the_first_hostile_territory() -> None:
    units = (("germany.bomber.1", "bomber", "germany"),
             ("germany.infantry.1", "infantry", "germany"))
    st = at(board(dev(start(), "germany", rd.PARATROOPERS), *units), "germany", "combat_move")
    # Belorussia lies behind Soviet East Poland / Baltic States: no drop there.
    st = act(st, "move", "germany", piece="germany.bomber.1", to="belorussia")
    assert "belorussia" not in prompt(game(), st).moves.get("germany.infantry.1", ())
    # Noncombat Move carries no one ("during combat movement").
    nc = at(board(dev(start(), "germany", rd.PARATROOPERS), *units), "germany", "noncombat_move")
    nc = act(nc, "move", "germany", piece="germany.bomber.1", to="bulgaria_romania")
    assert "bulgaria_romania" not in prompt(game(), nc).moves.get("germany.infantry.1", ())


def test_paratroopers_lost_with_a_bomber_shot_down_by_aa() -> None:
    units = (("germany.bomber.1", "bomber", "germany"),
             ("germany.infantry.1", "infantry", "germany"),
             ("ussr.infantry.1", "infantry", "east_poland"),
             ("ussr.aa_gun.1", "aa_gun", "east_poland"))
    st = at(board(dev(start(), "germany", rd.PARATROOPERS), *units), "germany", "combat_move")
    st = act(st, "move", "germany", piece="germany.bomber.1", to="east_poland")
    st = act(st, "move", "germany", piece="germany.infantry.1", to="east_poland")
    st = at(st, "germany", "conduct_combat")
    st = act(st, "fight", "germany", space="east_poland")
    st = act(st, DICE, "ussr", values=(1,))  # the AA gun hits the bomber
    assert "germany.bomber.1" not in st.pieces and "germany.infantry.1" not in st.pieces
    no_problems(st)


def test_mechanized_infantry_moves_two_spaces_with_a_tank() -> None:
    units = (("germany.armour.1", "armour", "germany"),
             ("germany.infantry.1", "infantry", "germany"),
             ("germany.infantry.2", "infantry", "germany"),
             ("ussr.infantry.1", "infantry", "east_poland"))
    st = at(board(dev(start(), "germany", rd.IMPROVED_MECHANIZED_INFANTRY), *units), "germany",
            "combat_move")
    assert "east_poland" not in prompt(game(), st).moves.get("germany.infantry.1", ())
    st = act(st, "move", "germany", piece="germany.armour.1", to="east_poland")
    assert "east_poland" in prompt(game(), st).moves.get("germany.infantry.1", ())
    st = act(st, "move", "germany", piece="germany.infantry.1", to="east_poland")
    assert st.piece("germany.infantry.1").attrs["mech"] == "germany.armour.1"
    # One infantry per tank: the second has no tank left to move with.
    assert "east_poland" not in prompt(game(), st).moves.get("germany.infantry.2", ())
    no_problems(st)
    plain = at(board(start(), *units), "germany", "combat_move")
    plain = act(plain, "move", "germany", piece="germany.armour.1", to="east_poland")
    assert "east_poland" not in prompt(game(), plain).moves.get("germany.infantry.1", ())
    # Noncombat Move too: two German territories on (Germany -> Poland -> Bulgaria/Romania).
    nc = at(board(dev(start(), "germany", rd.IMPROVED_MECHANIZED_INFANTRY), *units), "germany",
            "noncombat_move")
    nc = act(nc, "move", "germany", piece="germany.armour.1", to="bulgaria_romania")
    assert "bulgaria_romania" in prompt(game(), nc).moves.get("germany.infantry.1", ())


def test_increased_factory_production_two_more_units_where_worth_3() -> None:
    st = dev(start(), "germany", rd.INCREASED_FACTORY_PRODUCTION)
    assert mobilize.room(game(), st, "germany") == 12  # "Germany with 10 IPCs ... 12 units"
    assert mobilize.room(game(), start(), "germany") == 10
    g = game()
    assert rd.factory_bonus(g, st, "germany", 3) == 2
    assert rd.factory_bonus(g, st, "germany", 2) == 0  # worth less than 3 IPCs
    # Repairs: two damage markers for 1 IPC (half price).
    assert rd.repair_cost(g, st, "germany", 4) == 2
    assert rd.repair_cost(g, start(), "germany", 4) == 4


def test_increased_factory_production_mobilize_12_in_germany() -> None:
    st = board(dev(start(), "germany", rd.INCREASED_FACTORY_PRODUCTION),
               ("germany.factory.1", "factory", "germany"))
    st = at(st, "germany", "purchase")
    st = with_ipcs(st, "germany", 100)
    for _ in range(13):
        st = act(st, "buy", "germany", unit="infantry")
    st = at(st, "germany", "mobilize")
    new = sorted(p.id for p in st.pieces_at(MOBILIZATION))
    for pid in new[:12]:
        st = act(st, "move", "germany", piece=pid, to="germany")
    assert prompt(game(), st).moves.get(new[12], ()) == ()  # the 13th has no room
    no_problems(st)


def test_war_bonds_roll_1d6_at_collect_income() -> None:
    st = dev(start(), "germany", rd.WAR_BONDS)
    st = at(st, "germany", "mobilize")
    before = ipcs(st, "germany")
    st = act(st, END_STEP, "germany")  # to Collect Income: income, then the War Bonds die
    assert prompt(game(), st).dice is not None and prompt(game(), st).dice.count == 1
    assert ipcs(st, "germany") == before + 31
    st, log = events(st, DICE, "germany", values=(4,))
    assert ipcs(st, "germany") == before + 31 + 4
    assert any("War Bonds" in t for t in log)
    # Without it nothing is rolled and the turn passes on.
    plain = act(at(start(), "germany", "mobilize"), END_STEP, "germany")
    assert not plain.frames and plain.active_side != "germany"


def test_war_bonds_digital_dice_pass_on() -> None:
    st = dev(start(dice="digital"), "germany", rd.WAR_BONDS)
    st = at(st, "germany", "mobilize")
    before = ipcs(st, "germany")
    st = act(st, END_STEP, "germany")
    assert st.active_side != "germany" and not st.frames
    assert before + 31 + 1 <= ipcs(st, "germany") <= before + 31 + 6


# --- Breakthrough Chart 2 ---------------------------------------------------------------------

def _battle(st: GameState, power: str = "germany", space: str = "east_poland") -> GameState:
    st = at(st, power, "conduct_combat")
    return act(st, "fight", power, space=space)


def test_super_submarines_attack_3_defense_stays_1() -> None:
    sub = c.Force.of(submarine=1)
    att = rd.apply_developments(cat(), table(), frozenset({rd.SUPER_SUBMARINES}), frozenset())
    assert c.fire_groups(sub, c.ATTACK, att) == (c.FireGroup(3, 1, c.SUB),)
    assert c.fire_groups(sub, c.ATTACK, cat()) == (c.FireGroup(2, 1, c.SUB),)
    dfn = rd.apply_developments(cat(), table(), frozenset(), frozenset({rd.SUPER_SUBMARINES}))
    assert c.fire_groups(sub, c.DEFENSE, dfn) == (c.FireGroup(1, 1, c.SUB),)
    # On the map: against a destroyer (no Surprise Strike) a German super sub hits on a 3.
    units = (("germany.submarine.1", "submarine", "sz06"), ("uk.destroyer.1", "destroyer", "sz06"))
    st = _battle(board(dev(start(), "germany", rd.SUPER_SUBMARINES), *units), space="sz06")
    _, log = events(st, DICE, "germany", values=(3, 6))  # the sub, then the destroyer
    assert any("attacker scores 1" in t for t in log)
    st = _battle(board(start(), *units), space="sz06")
    _, log = events(st, DICE, "germany", values=(3, 6))
    assert any("attacker scores 0" in t for t in log)


def test_jet_fighters_attack_4_on_the_map() -> None:
    units = (("germany.fighter.1", "fighter", "east_poland"),
             ("ussr.infantry.1", "infantry", "east_poland"))
    # Dice: the fighter, then the defending infantry. A 4 hits only with jets.
    jets = _battle(board(dev(start(), "germany", rd.JET_FIGHTERS), *units))
    _, log = events(jets, DICE, "germany", values=(4, 6))
    assert any("attacker scores 1" in t for t in log)
    plain = _battle(board(start(), *units))
    _, log = events(plain, DICE, "germany", values=(4, 6))
    assert any("attacker scores 0" in t for t in log)
    # Defending, a jet fighter still defends at 4 and the attack bonus does not apply to it.
    dfn = rd.apply_developments(cat(), table(), frozenset(), frozenset({rd.JET_FIGHTERS}))
    assert dfn["fighter"].attack == 3 and dfn["fighter"].defense == 4


def test_improved_shipyards_revised_sea_unit_costs() -> None:
    st = at(dev(start(), "germany", rd.IMPROVED_SHIPYARDS), "germany", "purchase")
    st = with_ipcs(st, "germany", 200)
    printed = {"battleship": 17, "carrier": 11, "cruiser": 10, "destroyer": 7, "transport": 6,
               "submarine": 5}
    g = game()
    for unit, price in printed.items():
        assert rd.unit_cost(g, st, "germany", unit) == price
        assert rd.unit_cost(g, st, "italy", unit) == world(g).catalog[unit].cost  # not shared
    assert rd.unit_cost(g, st, "germany", "infantry") == 3  # land units unchanged
    st = act(st, "buy", "germany", unit="battleship")
    assert ipcs(st, "germany") == 183
    labels = [b.label for b in prompt(g, st).buttons]
    assert "Battleship (17 IPCs)" in labels


def test_radar_aa_guns_hit_on_1_or_2() -> None:
    units = (("germany.fighter.1", "fighter", "east_poland"),
             ("germany.infantry.1", "infantry", "east_poland"),
             ("ussr.infantry.1", "infantry", "east_poland"),
             ("ussr.aa_gun.1", "aa_gun", "east_poland"))
    st = _battle(board(dev(start(), "ussr", rd.RADAR), *units))
    st = act(st, DICE, "ussr", values=(2,))  # a 2: a hit with radar
    assert "germany.fighter.1" not in st.pieces
    st = _battle(board(start(), *units))
    st = act(st, DICE, "ussr", values=(2,))
    assert "germany.fighter.1" in st.pieces
    g = game()
    assert rd.aa_hit_max(g, dev(start(), "ussr", rd.RADAR), "ussr") == 2
    assert rd.aa_hit_max(g, start(), "ussr") == 1
    # The attacker's radar does nothing for the defender's guns.
    st = _battle(board(dev(start(), "germany", rd.RADAR), *units))
    st = act(st, DICE, "ussr", values=(2,))
    assert "germany.fighter.1" in st.pieces


def test_long_range_aircraft_fighter_6_bomber_8() -> None:
    st = start()
    ctl = st.var("control")
    for sp in ctl:
        ctl = ctl.set(sp, "ussr" if sp != "germany" else "germany")
    st = board(st.with_var("control", ctl), ("germany.fighter.1", "fighter", "germany"),
               ("germany.bomber.1", "bomber", "germany"))
    g = game()
    assert rd.movement(g, st, "germany", "fighter") == 4
    lr = dev(st, "germany", rd.LONG_RANGE_AIRCRAFT)
    assert rd.movement(g, lr, "germany", "fighter") == 6
    assert rd.movement(g, lr, "germany", "bomber") == 8
    assert rd.movement(g, lr, "germany", "armour") == 2
    # Combat Move keeps the range to fly home: 2 out with range 4, 3 out with range 6
    # (Germany -> Poland -> East Poland -> Belorussia).
    plain = at(st, "germany", "combat_move")
    longer = at(lr, "germany", "combat_move")
    assert "belorussia" not in prompt(g, plain).moves["germany.fighter.1"]
    assert "belorussia" in prompt(g, longer).moves["germany.fighter.1"]
    b_plain = set(prompt(g, plain).moves["germany.bomber.1"])
    b_long = set(prompt(g, longer).moves["germany.bomber.1"])
    assert b_plain < b_long


def test_heavy_bombers_two_dice_best_kept_on_attack_one_on_defense() -> None:
    units = (("germany.bomber.1", "bomber", "east_poland"),
             ("ussr.infantry.1", "infantry", "east_poland"))
    st = _battle(board(dev(start(), "germany", rd.HEAVY_BOMBERS), *units))
    assert prompt(game(), st).dice.count == 3  # two for the bomber, one for the infantry
    _, log = events(st, DICE, "germany", values=(6, 4, 6))  # the best die, 4, hits
    assert any("attacker scores 1" in t for t in log)
    _, log = events(st, DICE, "germany", values=(6, 5, 6))
    assert any("attacker scores 0" in t for t in log)
    hb = rd.apply_developments(cat(), table(), frozenset({rd.HEAVY_BOMBERS}),
                               frozenset({rd.HEAVY_BOMBERS}))
    bomber = c.Force.of(bomber=2)
    assert c.fire_groups(bomber, c.ATTACK, hb) == (c.FireGroup(4, 2, c.AIR, 2),)
    assert c.fire_groups(bomber, c.DEFENSE, hb) == (c.FireGroup(1, 2, c.AIR),)
    # Two bombers' dice come in pairs: (5, 3) hits, (6, 5) misses.
    assert c.group_hits(c.fire_groups(bomber, c.ATTACK, hb), (5, 3, 6, 5)) == (1,)
    assert rd.bomber_dice(game(), dev(start(), "germany", rd.HEAVY_BOMBERS), "germany") == 2
    assert rd.bomber_dice(game(), start(), "germany") == 1


# --- the exact calculator with developments ---------------------------------------------------

def test_calculator_heavy_bombers_one_round_by_hand() -> None:
    # One round, bomber against infantry. The bomber hits with 1 - (2/6)^2 = 8/9, the
    # infantry with 2/6. Win 8/9 * 4/6 = 16/27, draw 8/9 * 1/3 = 8/27, loss 1/9 * 1/3 = 1/27,
    # retreat 1/9 * 2/3 = 2/27.
    devs = rd.BattleDevelopments(table(), frozenset({rd.HEAVY_BOMBERS}))
    r = calculate(c.Force.of(bomber=1), c.Force.of(infantry=1), cat(), max_rounds=1,
                  developments=devs)
    assert r.attacker_win == pytest.approx(16 / 27)
    assert r.draw == pytest.approx(8 / 27)
    assert r.defender_win == pytest.approx(1 / 27)
    assert r.retreat == pytest.approx(2 / 27)
    plain = calculate(c.Force.of(bomber=1), c.Force.of(infantry=1), cat(), max_rounds=1)
    assert plain.attacker_win == pytest.approx(4 / 6 * 4 / 6)


def test_calculator_jets_super_subs_artillery_and_radar() -> None:
    t = table()
    # A jet fighter against an infantry, fought out: p = 4/6 attack, q = 2/6 defense.
    # P(attacker wins) = p(1-q) / (1 - (1-p)(1-q)) = (4/6)(4/6) / (1 - (2/6)(4/6)) = 16/28.
    r = calculate(c.Force.of(fighter=1), c.Force.of(infantry=1), cat(),
                  developments=rd.BattleDevelopments(t, frozenset({rd.JET_FIGHTERS})))
    assert r.attacker_win == pytest.approx(16 / 28)
    r = calculate(c.Force.of(submarine=1), c.Force.of(destroyer=1), cat(), max_rounds=1,
                  developments=rd.BattleDevelopments(t, frozenset({rd.SUPER_SUBMARINES})))
    # No surprise strike against a destroyer: sub 3/6, destroyer 2/6 simultaneously.
    assert r.attacker_win == pytest.approx(3 / 6 * 4 / 6)
    # Advanced Artillery: 2 infantry + 1 artillery, all three hitting on 2, against 3
    # infantry for one round: the attacker wins if all three hit and the defenders' return
    # fire (2/6 each) leaves an attacker alive, i.e. not all three of them hit.
    r = calculate(c.Force.of(infantry=2, artillery=1), c.Force.of(infantry=3), cat(),
                  max_rounds=1,
                  developments=rd.BattleDevelopments(t, frozenset({rd.ADVANCED_ARTILLERY})))
    p_all3 = (2 / 6) ** 3
    assert r.attacker_win == pytest.approx(p_all3 * (1 - (2 / 6) ** 3))
    no_adv = calculate(c.Force.of(infantry=2, artillery=1), c.Force.of(infantry=3), cat(),
                       max_rounds=1)
    # Without it one infantry attacks at 1: (2/6)(2/6)(1/6) for three hits.
    assert no_adv.attacker_win == pytest.approx((2 / 6) ** 2 * (1 / 6) * (1 - (2 / 6) ** 3))
    # Radar in the defender: one fighter attacks infantry + AA gun; the gun hits on 2.
    r = calculate(c.Force.of(fighter=1), c.Force.of(infantry=1, aa_gun=1), cat(), max_rounds=1,
                  developments=rd.BattleDevelopments(t, defender=frozenset({rd.RADAR})))
    # Fighter survives AA (4/6), then hits on 3 (3/6) and is missed (4/6).
    assert r.attacker_win == pytest.approx(4 / 6 * 3 / 6 * 4 / 6)
    # Existing callers are unchanged: no developments, the printed values.
    base = calculate(c.Force.of(fighter=1), c.Force.of(infantry=1), cat())
    assert base.attacker_win == pytest.approx((3 / 6) * (4 / 6) / (1 - (3 / 6) * (4 / 6)))


# --- random play with the optional rule on ----------------------------------------------------

ROUNDS = 2  # the second round plays with the first round's developments


def test_rd_random_play_1941_keeps_the_invariants() -> None:
    researched = 0
    for seed in range(4):
        s = Session.start(game(), "1941", options=FrozenMap(research=True), seed=f"rd{seed}")
        rep = play_random(s, seed, max_actions=5000, until=lambda x: x.state.turn > ROUNDS)
        assert rep.problems == (), (seed, rep.problems[:3])
        st = rep.session.state
        assert st.turn > ROUNDS or st.result is not None, (seed, st.turn)
        researched += sum(len(v) for v in st.var(rd.V_DEVELOPMENTS, FrozenMap()).values())
        researched += sum(st.var(rd.V_RESEARCHERS, FrozenMap()).values())
    assert researched > 0  # the phase was really played
