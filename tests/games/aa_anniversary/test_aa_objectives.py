"""National Objectives & Bonus Income (pg. 22-23): each power's objectives met and unmet.

Each test starts a new 1941 game with the option on, sets the control of the territories
(and the units) the objective names, and checks the treasury after Collect Income: the
production level plus the bonus of every objective met.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from aa_helpers import game

from wartable.core.errors import DataError
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import END_STEP, Action, Event
from wartable.engine.loop import apply, new_game
from wartable.engine.randomplay import play_random
from wartable.engine.session import Session
from wartable.games.aa_anniversary.steps import objectives as no
from wartable.games.aa_anniversary.steps.common import ipcs, world
from wartable.games.aa_anniversary.steps.income import production
from wartable.model.state import GameState, Piece


def start(scenario: str = "1941", objectives: bool = True) -> GameState:
    opts = FrozenMap({no.OPTION: objectives})
    return new_game(game(), scenario, options=opts, seed=1, dice_mode="physical")[0]


def control(state: GameState, **spaces: str) -> GameState:
    ctl = state.var("control")
    for space, power in spaces.items():
        ctl = ctl.set(space, power)
    return state.with_var("control", ctl)


def add(state: GameState, *units: tuple[str, str, str]) -> GameState:
    """Add units (id, type, location); the side is the id's prefix."""
    for pid, t, loc in units:
        state = state.with_piece(Piece(pid, t, pid.split(".")[0], loc))
    return state


def collect(state: GameState, power: str) -> tuple[int, tuple[Event, ...]]:
    """The IPCs gained at the power's Collect Income beyond its production level, and the
    events (1941 order: the power's own slot)."""
    g = game()
    for pos in g.positions:
        if pos.side == power and pos.step.kind == "collect_income":
            st = replace(state, step_index=pos.index, active_side=power, frames=())
            out = g.rules.enter_step(g, st, pos)
            assert out.auto_end
            gained = ipcs(out.state, power) - ipcs(state, power)
            return gained - production(g, state, power), out.events
    raise AssertionError(power)


def bonus(state: GameState, power: str) -> int:
    return collect(state, power)[0]


def met(state: GameState, power: str) -> dict[str, bool]:
    return {o.id: no.evaluate(game(), state, o)[0] for o in no.objectives_for(game(), power)}


# --- the data -------------------------------------------------------------------------------

def test_shipped_objectives_per_power_and_maximum_bonus() -> None:
    objs = no.all_objectives(game())
    assert {p: len(o) for p, o in objs.items()} == {
        "germany": 3, "japan": 3, "italy": 2, "usa": 4, "uk": 3, "ussr": 2}
    assert {p: sum(x.bonus for x in o) for p, o in objs.items()} == {
        "germany": 15, "japan": 15, "italy": 10, "usa": 20, "uk": 15, "ussr": 15}
    assert no.objectives_for(game(), "china") == ()
    assert all(o.rule.startswith("National Objectives & Bonus Income")
               for os in objs.values() for o in os)


def test_option_exists_and_is_off_by_default() -> None:
    d = game().definition
    assert d.default_options()[no.OPTION] is False
    assert not no.enabled(new_game(game(), "1941", seed=1)[0])


# --- Germany: "Lebensraum" ------------------------------------------------------------------

def test_germany_heartland_met_at_start_and_lost_with_france() -> None:
    st = start()
    assert met(st, "germany") == {"lebensraum_heartland": True, "lebensraum_east": False,
                                  "lebensraum_far_east": False}
    assert bonus(st, "germany") == 5
    assert bonus(control(st, france="uk"), "germany") == 0


def test_germany_east_needs_three_and_far_east_one_held_by_any_axis_power() -> None:
    st = control(start(), baltic_states="germany", east_poland="germany")
    assert bonus(st, "germany") == 5  # 2 of 5: not yet
    st = control(st, ukraine="italy")  # an ally's territory counts ("Axis powers control")
    assert bonus(st, "germany") == 10
    st = control(st, caucasus="japan")
    assert bonus(st, "germany") == 15


# --- Japan: "The Greater East Asia Co-Prosperity Sphere" ------------------------------------

def test_japan_mainland_met_at_start_lost_with_kiangsu() -> None:
    st = start()
    assert bonus(st, "japan") == 5
    assert bonus(control(st, kiangsu="china"), "japan") == 0


def test_japan_islands_need_four_outposts_need_one() -> None:
    st = control(start(), kwangtung="japan", east_indies="japan", borneo="japan")
    assert bonus(st, "japan") == 5  # 3 of 6
    st = control(st, new_guinea="germany")
    assert bonus(st, "japan") == 10
    st = control(st, india="japan")
    assert bonus(st, "japan") == 15


# --- Italy: "Mare Nostrum" ------------------------------------------------------------------

def test_italy_mare_nostrum_broken_by_enemy_surface_warships_only() -> None:
    st = start()
    assert bonus(st, "italy") == 5
    # Submarines and transports are not surface warships (Sea Units, pg. 28).
    subs = add(st, ("uk.submarine.90", "submarine", "sz14"),
               ("uk.transport.90", "transport", "sz13"))
    assert bonus(subs, "italy") == 5
    # An Axis warship is no enemy.
    assert bonus(add(st, ("germany.battleship.90", "battleship", "sz15")), "italy") == 5
    ships = add(st, ("usa.destroyer.90", "destroyer", "sz15"))
    assert bonus(ships, "italy") == 0
    ok, why = no.evaluate(game(), ships, no.objectives_for(game(), "italy")[0])
    assert not ok and "Sea Zone 15 (United States destroyer)" in why
    assert bonus(control(st, libya="uk"), "italy") == 0


def test_italy_shores_three_of_four() -> None:
    st = control(start(), egypt="italy")  # France (German) + Egypt: 2 of 4
    assert bonus(st, "italy") == 5
    st = control(st, gibraltar="germany")
    assert bonus(st, "italy") == 10


# --- United States: "The Arsenal of Democracy" --------------------------------------------------

def test_usa_objectives_met_and_unmet() -> None:
    st = start()
    assert met(st, "usa") == {"arsenal_homeland": True, "arsenal_philippines": True,
                              "arsenal_france": False, "arsenal_pacific_islands": True}
    assert bonus(st, "usa") == 15
    assert bonus(control(st, france="uk"), "usa") == 20  # any Allied power
    st = control(st, hawaiian_islands="japan", midway="japan")  # 2 of 4 left
    assert bonus(st, "usa") == 10
    assert bonus(control(st, philippine_islands="japan", central_united_states="japan"),
                 "usa") == 0


# --- United Kingdom: "The British Empire" -----------------------------------------------------

def test_uk_objectives_met_and_unmet() -> None:
    st = start()
    assert bonus(st, "uk") == 5
    assert bonus(control(st, gibraltar="italy"), "uk") == 0
    # A territory originally under Japan's control (territories.toml original_owner).
    st = control(st, okinawa="usa")
    assert bonus(st, "uk") == 10
    st = control(st, balkans="ussr")
    assert bonus(st, "uk") == 15
    ok, why = no.evaluate(game(), st, no.objectives_for(game(), "uk")[1])
    assert ok and "Okinawa" in why


# --- Soviet Union: "The Great Patriotic War" ----------------------------------------------

def test_ussr_buffer_pays_ten() -> None:
    st = control(start(), norway="uk", finland="ussr")
    assert bonus(st, "ussr") == 5  # Archangel, alone; the buffer has 2 of 6
    assert bonus(control(st, balkans="usa"), "ussr") == 15


def test_ussr_alone_broken_by_other_allied_units_or_losing_archangel() -> None:
    st = start()
    assert bonus(st, "ussr") == 5
    guests = add(st, ("uk.fighter.90", "fighter", "karelia_ssr"))
    assert bonus(guests, "ussr") == 0
    ok, why = no.evaluate(game(), guests, no.objectives_for(game(), "ussr")[1])
    assert not ok and "Karelia" in why and "United Kingdom fighter" in why
    # Allied units in a territory another power controls do not count.
    assert bonus(add(st, ("uk.infantry.90", "infantry", "persia")), "ussr") == 5
    assert bonus(control(st, archangel="germany"), "ussr") == 0


# --- collecting ------------------------------------------------------------------------------

def test_events_one_per_objective_with_rule() -> None:
    _, evs = collect(control(start(), caucasus="germany"), "germany")
    obj = [e for e in evs if "objective" in e.text]
    assert len(obj) == 3
    good = [e for e in obj if e.kind == "income"]
    assert len(good) == 2 and all(": +5 IPCs" in e.text and e.rule for e in good)
    assert good[0].text.startswith("Germany: objective 'The Axis hold all six")
    bad = [e for e in obj if e.kind == "info"]
    assert len(bad) == 1 and "not met" in bad[0].text
    assert any("collects 10 bonus IPCs" in e.text for e in evs)


def test_option_off_no_bonus_no_objective_events() -> None:
    st = start(objectives=False)
    st = control(st, caucasus="germany", ukraine="germany", belorussia="germany",
                 baltic_states="germany")
    gained, evs = collect(st, "germany")
    assert gained == 0
    assert not any("objective" in e.text for e in evs)
    assert no.bonus_total(game(), st, "germany") == 0


def test_china_collects_no_bonus() -> None:
    gained, evs = collect(start(), "china")
    assert gained == 0 and not any("objective" in e.text for e in evs)
    assert no.objectives_status(game(), start(), "china") == ()


def test_bonus_through_the_turn_after_mobilize() -> None:
    g = game()
    st = start()
    for pos in g.positions:
        if pos.side == "germany" and pos.step.kind == "mobilize":
            st = g.rules.enter_step(g, replace(st, step_index=pos.index, frames=()), pos).state
            break
    before = ipcs(st, "germany")
    st = apply(g, st, Action(END_STEP, "germany")).state
    assert ipcs(st, "germany") == before + 31 + 5


def test_capital_lost_no_income_and_status_says_void() -> None:
    g = game()
    st = control(start(), germany="ussr")
    assert not g.rules.condition(g, "capital_held", st)  # Collect Income is skipped
    assert no.bonus_total(g, st, "germany") == 0
    rows = no.objectives_status(g, st, "germany")
    assert all("no bonus while Germany is enemy-held" in why for _, _, _, why in rows)


def test_objectives_status_for_the_panel() -> None:
    rows = no.objectives_status(game(), start(), "usa")
    assert [(b, m) for _, b, m, _ in rows] == [(5, True), (5, True), (5, False), (5, True)]
    text, _, _, why = rows[2]
    assert text == "The Allies hold France"
    assert "France (Germany)" in why
    assert no.bonus_total(game(), start(), "usa") == 15


def test_1942_italy_unmet_uk_destroyer_in_sz15() -> None:
    st = start("1942")
    assert not met(st, "italy")["mare_nostrum"]
    assert met(st, "japan")["co_prosperity_islands"]


# --- data validation -------------------------------------------------------------------------

def _parse(**objective: Any) -> None:
    w = world(game())
    item = {"id": "x", "text": "A test", "bonus": 5, "rule": "Test", **objective}
    item = {k: v for k, v in item.items() if v is not None}
    no.parse_objectives({"germany": [item]}, land=w.land - w.neutral, sea=w.sea,
                        powers=game().definition.side_ids)


@pytest.mark.parametrize(("objective", "message"), [
    ({"controls_all": ["franse"]}, "controls_all: 'franse' is not a territory id"),
    ({"controls_all": ["sz13"]}, "'sz13' is not a territory id"),
    ({"controls_all": ["switzerland"]}, "neutral"),
    ({"controls_all": []}, "lists no territory"),
    ({"controls_all": "france"}, "must be a list"),
    ({"no_enemy_surface_warships_in": ["france"]}, "'france' is not a sea zone id"),
    ({"controls_at_least": {"count": 3, "of": ["france", "italy"]}}, "count must be 1 to 2"),
    ({"controls_at_least": {"n": 1, "of": ["france"]}}, "{ count = N, of = [...] }"),
    ({"controls_originally_of": "prussia"}, "'prussia' is not a power"),
    ({"no_allied_units_in_own_territories": False}, "must be true"),
    ({"controls_any": ["france"]}, "unknown key 'controls_any'"),
    ({}, "has no condition"),
    ({"bonus": 0, "controls_all": ["france"]}, "bonus must be a positive whole number"),
    ({"bonus": None, "controls_all": ["france"]}, "has no bonus"),
    ({"text": "", "controls_all": ["france"]}, "text must be a non-empty text"),
])
def test_validation_errors_name_the_objective(objective: dict[str, Any], message: str) -> None:
    with pytest.raises(DataError, match="objective germany.x") as e:
        _parse(**objective)
    assert message in str(e.value)
    assert "objectives.toml" in str(e.value)


def test_validation_duplicate_id_and_unknown_power() -> None:
    w = world(game())
    kw: dict[str, Any] = {"land": w.land - w.neutral, "sea": w.sea,
                          "powers": game().definition.side_ids}
    item = {"id": "x", "text": "T", "bonus": 5, "rule": "R", "controls_all": ["france"]}
    with pytest.raises(DataError, match="objective germany.x: id is used twice"):
        no.parse_objectives({"germany": [item, item]}, **kw)
    with pytest.raises(DataError, match="objectives.prussia: is not a power"):
        no.parse_objectives({"prussia": [item]}, **kw)


# --- random play -----------------------------------------------------------------------------

@pytest.mark.parametrize("scenario", ["1941", "1942"])
def test_random_play_with_objectives_collects_bonuses(scenario: str) -> None:
    s = Session.start(game(), scenario, FrozenMap({no.OPTION: True}), seed="no1")
    rep = play_random(s, 1, max_actions=5000, until=lambda x: x.state.turn > 1)
    assert rep.problems == ()
    texts = [e.text for e in rep.session.events]
    assert any("bonus IPCs" in t for t in texts)
    assert any(": objective '" in t and "not met" in t for t in texts)
