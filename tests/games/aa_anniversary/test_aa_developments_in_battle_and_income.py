"""Research & Development (pg. 12) where it meets the rest of the game: the battle calculator
on the command line, the default casualty order of a battle, War Bonds with typed dice.

Expected values come from the rulebook's numbers and hand calculation (each one worked in a
comment); battles and rolls use physical dice so each test says exactly what was rolled.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from aa_helpers import act, at, board, game

from wartable.core.errors import WartableError
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import DICE, END_STEP
from wartable.engine.loop import new_game, prompt
from wartable.games.aa_anniversary import research as rd
from wartable.games.aa_anniversary.calc_cli import battle_calc_text
from wartable.games.aa_anniversary.steps.common import ipcs
from wartable.model.state import GameState


def start(dice: str = "physical") -> GameState:
    return new_game(game(), "1941", FrozenMap(research=True), seed=1, dice_mode=dice)[0]


def calc(attack: str, defend: str, **kw: Any) -> dict[str, Any]:
    d = game().definition
    doc: dict[str, Any] = json.loads(battle_calc_text(
        attack, defend, True, d.unit_types, research=d.tables["research"], **kw))
    return doc


# --- wartable battle-calc --attacker-developments / --defender-developments -----------------

def test_jet_fighters_in_the_calculator_1_fighter_against_1_infantry() -> None:
    """Breakthrough Chart 2: 2. Jet Fighters: fighters attack at 4.
    Per round the fighter hits with p, the infantry (defense 2) with q = 2/6; a round with
    no hit repeats, so P(attacker wins) = p(1-q) / (1 - (1-p)(1-q)), the draw pq / (same).
    Attack 3: p = 3/6 -> (3/6*4/6) / (1 - 3/6*4/6) = (12/36)/(24/36) = 1/2; draw 6/24 = 1/4.
    Attack 4: p = 4/6 -> (4/6*4/6) / (1 - 2/6*4/6) = (16/36)/(28/36) = 4/7; draw 8/28 = 2/7."""
    plain = calc("fighter=1", "infantry=1")
    assert plain["attacker_win"] == pytest.approx(1 / 2)
    assert plain["draw"] == pytest.approx(1 / 4)
    assert "developments" not in plain  # the JSON is unchanged without developments
    jets = calc("fighter=1", "infantry=1", attacker_developments="jet_fighters,heavy_bombers")
    assert jets["attacker_win"] == pytest.approx(4 / 7)
    assert jets["draw"] == pytest.approx(2 / 7)
    assert jets["defender_win"] == pytest.approx(1 / 7)
    assert jets["developments"] == {"attacker": ["heavy_bombers", "jet_fighters"],
                                    "defender": []}
    # Jet fighters held by the defender do not raise the attacking fighter (attack only).
    assert calc("fighter=1", "infantry=1",
                defender_developments="jet_fighters")["attacker_win"] == pytest.approx(1 / 2)


def test_radar_in_the_calculator_aa_gun_hits_on_2() -> None:
    """Breakthrough Chart 2: 4. Radar: AA guns hit aircraft on 1 or 2. One fighter against
    an AA gun and one infantry: the gun fires once before the first round (AA Guns, pg. 25).
    Without radar the fighter survives it with 5/6, with radar 4/6; then fighter (attack 3,
    p = 1/2) against infantry (q = 1/3) as above: win 1/2, so 5/6*1/2 = 5/12 and
    4/6*1/2 = 1/3."""
    plain = calc("fighter=1", "aa_gun=1,infantry=1")
    assert plain["attacker_win"] == pytest.approx(5 / 12)
    radar = calc("fighter=1", "aa_gun=1,infantry=1", defender_developments="radar")
    assert radar["attacker_win"] == pytest.approx(1 / 3)
    # Radar on the attacking side does nothing for the defender's gun.
    assert calc("fighter=1", "aa_gun=1,infantry=1",
                attacker_developments="radar")["attacker_win"] == pytest.approx(5 / 12)


def test_unknown_development_is_a_one_line_error_listing_valid_ids() -> None:
    with pytest.raises(WartableError) as err:
        calc("fighter=1", "infantry=1", attacker_developments="jet_fighter")
    text = str(err.value)
    assert "\n" not in text
    assert "Unknown development 'jet_fighter'" in text and "Did you mean 'jet_fighters'" in text
    assert all(d in text for d in rd.ALL)


def test_text_report_names_the_developments() -> None:
    d = game().definition
    out = battle_calc_text("fighter=1", "infantry=1", False, d.unit_types,
                           research=d.tables["research"], attacker_developments="jet_fighters")
    assert "Developments, attacker: Jet Fighters" in out
    assert "Attacker wins   57.14 %" in out  # 4/7, as worked above


# --- the default casualty order offered in a battle --------------------------------------------


def test_casualties_default_keeps_the_jet_fighter() -> None:
    """Conduct Combat, Step 4 (pg. 17): the owner chooses casualties, the default order
    offered first. With Jet Fighters a German fighter attacks at 4 (Breakthrough Chart 2);
    one hit taken from infantry, armour and a fighter: the default loses the infantry (3
    IPCs) and keeps the fighter, the strongest attacker (the order reads the battle's
    developed values, steps/battle/forces.py: battle_values)."""
    units = (("germany.infantry.1", "infantry", "east_poland"),
             ("germany.armour.1", "armour", "east_poland"),
             ("germany.fighter.1", "fighter", "east_poland"),
             ("ussr.infantry.1", "infantry", "east_poland"))
    st = rd.with_development(board(start(), *units), "germany", rd.JET_FIGHTERS)
    st = act(at(st, "germany", "conduct_combat"), "fight", "germany", space="east_poland")
    # Dice: infantry, armour, fighter, then the defender's infantry (a 1 hits).
    st = act(st, DICE, "germany", values=(6, 6, 6, 1))
    p = prompt(game(), st)
    assert p.side == "germany"
    first = p.buttons[0]
    assert first.label.startswith("Default: ")
    assert dict(first.args["lost"]) == {"infantry": 1}


# --- War Bonds with typed dice ---------------------------------------------------------------

def test_war_bonds_typed_roll_ends_collect_income_by_itself() -> None:
    """Breakthrough Chart 1: 5. War Bonds: roll 1d6 at Collect Income and add it. With
    typed dice the step goes on after the roll, as with computer dice: the turn passes to
    the Soviet Union (1941 order) without an End step."""
    st = rd.with_development(start(), "germany", rd.WAR_BONDS)
    st = at(st, "germany", "mobilize")
    before = ipcs(st, "germany")
    st = act(st, END_STEP, "germany")  # Collect Income: 31 IPCs, then the War Bonds die
    assert prompt(game(), st).dice is not None
    st = act(st, DICE, "germany", values=(5,))
    assert ipcs(st, "germany") == before + 31 + 5  # Germany's 31 (1941) and the 5 rolled
    assert st.active_side == "ussr" and not st.frames
    assert game().position(st).side == "ussr"


def test_wartable_battle_calc_developments_options(capsys: pytest.CaptureFixture[str]) -> None:
    """The command line: `wartable battle-calc ... --attacker-developments jet_fighters`."""
    from wartable.cli import EXIT_ERROR, main

    assert main(["battle-calc", "--attack", "fighter=1", "--defend", "infantry=1",
                 "--attacker-developments", "jet_fighters", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["attacker_win"] == pytest.approx(4 / 7)  # worked above
    assert main(["battle-calc", "--attack", "fighter=1", "--defend", "aa_gun=1,infantry=1",
                 "--defender-developments", "radar", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["attacker_win"] == pytest.approx(1 / 3)
    assert main(["battle-calc", "--attack", "fighter=1", "--defend", "infantry=1",
                 "--defender-developments", "sonar"]) == EXIT_ERROR
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Unknown development 'sonar'" in err and "radar" in err
