"""The Anniversary Edition data files: they load, and they say what the facts and the rulebook
say (reference/data/aa_anniversary_facts.json, reference/rules/001_...txt)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from aa_battles import definition

from wartable.games.aa_anniversary.ids import space_id
from wartable.model.definition import GameDefinition

ROOT = Path(__file__).resolve().parents[3]
FACTS = ROOT.parent / "shared" / "reference" / "data" / "aa_anniversary_facts.json"

# Totals per unit type of the facts' placements, kept here so the test runs without them.
FACT_TOTALS = {
    "1941": {"aa_gun": 11, "armour": 15, "artillery": 14, "battleship": 4, "bomber": 4,
             "carrier": 4, "cruiser": 5, "destroyer": 10, "factory": 9, "fighter": 22,
             "infantry": 112, "submarine": 4, "transport": 15},
    "1942": {"aa_gun": 12, "armour": 22, "artillery": 11, "battleship": 5, "bomber": 7,
             "carrier": 4, "cruiser": 7, "destroyer": 10, "factory": 9, "fighter": 24,
             "infantry": 123, "submarine": 6, "transport": 11},
}
FACT_POWERS = {"Germans": "germany", "Russians": "ussr", "Japanese": "japan", "British": "uk",
               "Italians": "italy", "Chinese": "china", "Americans": "usa"}
FACT_UNITS = {"aaGun": "aa_gun"}


@pytest.fixture(scope="module")
def d() -> GameDefinition:
    return definition()


def test_the_data_loads_through_persistence(d: GameDefinition) -> None:
    assert d.id == "aa_anniversary"
    assert d.title == "Axis & Allies Anniversary Edition"
    assert d.maps == ("aa_anniversary/world",)
    assert set(d.scenarios) == {"1941", "1942"}


def test_territories_toml_has_all_162_spaces(d: GameDefinition) -> None:
    spaces = d.tables["spaces"]
    assert len(spaces) == 162
    assert sum(1 for s in spaces.values() if s["sea"]) == 65
    assert sum(1 for s in spaces.values() if not s["sea"]) == 97
    assert [f"sz{n:02d}" for n in range(1, 66)] == sorted(k for k in spaces if k.startswith("sz"))
    assert spaces["western_united_states"]["ipc"] == 10
    assert spaces["germany"]["ipc"] == 10  # "Germany can produce 10 units per turn"
    assert spaces["eastern_canada"]["ipc"] == 3  # the rulebook's Eastern Canada IC example
    assert spaces["gibraltar"]["ipc"] == 0  # no income value, still controllable


def test_victory_cities_and_capitals_how_to_win(d: GameDefinition) -> None:
    spaces = d.tables["spaces"]
    cities = {s["victory_city"] for s in spaces.values() if s.get("victory_city")}
    assert len(cities) == 18
    assert {"Berlin", "Moscow", "Washington", "London", "Tokyo", "Rome", "Shanghai"} <= cities
    capitals = {k: s["capital_of"] for k, s in spaces.items() if s.get("capital_of")}
    # Capturing and Liberating Capitals: six capitals; China has none.
    assert capitals == {"germany": "germany", "russia": "ussr", "japan": "japan",
                        "united_kingdom": "uk", "italy": "italy",
                        "eastern_united_states": "usa"}


def test_neutrals_follow_the_rulebook(d: GameDefinition) -> None:
    spaces = d.tables["spaces"]
    for name in ("turkey", "mongolia", "spain", "sweden", "switzerland", "saudi_arabia", "eire",
                 "sahara", "angola", "mozambique", "afghanistan", "himalaya",
                 "northern_south_america", "peruvian_central", "argentina_chile"):
        assert spaces[name]["neutral"] is True, name
        assert spaces[name]["original_owner"] == ""
    for sc in d.scenarios.values():
        assert not {k for k in sc.vars["control"] if spaces[k]["neutral"]}


def test_adjacency_and_canals_use_space_ids(d: GameDefinition) -> None:
    spaces = d.tables["spaces"]
    adj = d.tables["adjacency"]
    assert len(adj) == 407
    assert all(a in spaces and b in spaces and a < b for a, b in adj)
    assert ("eastern_canada", "western_canada") in adj  # board wrap (Adjacency)
    assert ("mexico", "panama") in adj
    assert d.tables["canals"]["suez_canal"]["controlled_by"] == ("egypt", "trans_jordan")
    assert d.tables["canals"]["panama_canal"]["sea_zones"] == ("sz19", "sz20")


def test_sides_are_the_powers_in_turn_order(d: GameDefinition) -> None:
    assert d.side_ids == ("germany", "ussr", "japan", "uk", "italy", "china", "usa")
    assert d.side("ussr").name == "Soviet Union"
    assert d.tables["alliances"]["axis"] == ("germany", "japan", "italy")
    assert d.tables["alliances"]["allies"] == ("ussr", "uk", "china", "usa")
    # Order of Play (pg. 11), China playing with the United States.
    assert d.scenarios["1941"].vars["turn_order"] == d.side_ids
    assert d.scenarios["1942"].vars["turn_order"] == (
        "japan", "ussr", "germany", "uk", "italy", "china", "usa")


def test_starting_ipcs_match_the_setup_tables(d: GameDefinition) -> None:
    assert dict(d.scenarios["1941"].vars["starting_ipcs"]) == {
        "germany": 31, "ussr": 30, "japan": 17, "uk": 43, "italy": 10, "china": 0, "usa": 40}
    assert dict(d.scenarios["1942"].vars["starting_ipcs"]) == {
        "germany": 37, "ussr": 24, "japan": 31, "uk": 31, "italy": 10, "china": 0, "usa": 38}


def test_china_starts_without_manchuria_and_kiangsu(d: GameDefinition) -> None:
    for sc in d.scenarios.values():
        assert sc.vars["control"]["manchuria"] == "japan"
        assert sc.vars["control"]["kiangsu"] == "japan"
    assert d.tables["spaces"]["kiangsu"]["original_owner"] == "china"
    tigers = [p for p in d.scenarios["1941"].setup if p.attrs.get("flying_tigers")]
    assert [(p.side, p.type, p.location) for p in tigers] == [("china", "fighter", "yunnan")]


@pytest.mark.parametrize("year", ["1941", "1942"])
def test_scenario_unit_counts_equal_the_facts(d: GameDefinition, year: str) -> None:
    setup = d.scenarios[year].setup
    spaces = d.tables["spaces"]
    assert all(p.location in spaces for p in setup)
    totals = Counter()
    for p in setup:
        totals[p.type] += p.count
    assert dict(totals) == FACT_TOTALS[year]
    if not FACTS.exists():
        pytest.skip(f"facts file not found at {FACTS}; totals checked only")
    facts = json.loads(FACTS.read_text(encoding="utf-8"))[year]
    want = Counter()
    for p in facts["placements"]:
        want[(FACT_POWERS[p["owner"]], FACT_UNITS.get(p["unit"], p["unit"]),
              space_id(p["territory"]))] += p["qty"]
    got = Counter()
    for p in setup:
        got[(p.side, p.type, p.location)] += p.count
    assert got == want


def test_units_carry_the_unit_profile_values(d: GameDefinition) -> None:
    u = d.unit_types
    table = {  # Unit Profiles: cost, attack, defense, move
        "infantry": (3, 1, 2, 1), "artillery": (4, 2, 2, 1), "armour": (5, 3, 3, 2),
        "fighter": (10, 3, 4, 4), "bomber": (12, 4, 1, 6), "battleship": (20, 4, 4, 2),
        "carrier": (14, 1, 2, 2), "cruiser": (12, 3, 3, 2), "destroyer": (8, 2, 2, 2),
        "submarine": (6, 2, 1, 2), "transport": (7, 0, 0, 2), "aa_gun": (6, 0, 0, 1),
        "factory": (15, 0, 0, 0),
    }
    for uid, (cost, att, dfn, move) in table.items():
        x = u[uid].extra
        assert (x["cost"], x["attack"], x["defense"], u[uid].movement) == (cost, att, dfn, move)
    assert u["battleship"].extra["hits"] == 2
    assert u["battleship"].extra["cost_improved_shipyards"] == 17  # Breakthrough Chart 2
    assert u["armour"].name == "Tank"
    assert u["infantry"].factors == (1, 2)
    assert u["aa_gun"].extra["aa_value"] == 1
    assert {k for k, t in u.items() if t.extra["can_bombard"]} == {"battleship", "cruiser"}
    assert {k for k, t in u.items() if t.extra["is_surface_warship"]} == {
        "battleship", "carrier", "cruiser", "destroyer"}


def test_sequence_is_the_seven_phases_of_each_power(d: GameDefinition) -> None:
    pos = d.sequence.positions
    assert len(pos) == 7 * 7 + 1
    first = [p.step.name for p in pos[:7]]
    assert first == ["Research & Development", "Purchase Units", "Combat Move", "Conduct Combat",
                     "Noncombat Move", "Mobilize New Units", "Collect Income"]
    assert all(p.step.rule for p in pos)
    assert pos[0].step.condition == "option:research"
    assert pos[-1].step.kind == "victory_check"
