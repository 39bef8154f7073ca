"""battle_calc_text: the pure function behind `wartable battle-calc` for this game."""

from __future__ import annotations

import json

import pytest
from aa_battles import definition

from wartable.core.errors import WartableError
from wartable.games.aa_anniversary.calc_cli import battle_calc_text

UNITS = definition().unit_types


def test_text_report() -> None:
    out = battle_calc_text("infantry=1", "infantry=1", False, UNITS)
    assert "Attacker wins   25.00 %" in out
    assert "Defender wins   62.50 %" in out
    assert "Draw            12.50 %" in out
    assert "Attacker: 1 Infantry" in out
    assert "Expected IPC loss: attacker 2.25, defender 1.1" in out


def test_json_report_has_the_probabilities() -> None:
    doc = json.loads(battle_calc_text("infantry=3, armour=1", "infantry=2,aa_gun=1", True, UNITS,
                                      top=3))
    total = doc["attacker_win"] + doc["defender_win"] + doc["draw"]
    assert total == pytest.approx(1.0)
    assert doc["attacker"] == {"armour": 1, "infantry": 3}
    assert set(doc["expected_ipc_loss"]) == {"attacker", "defender"}
    assert 0 < len(doc["attacker_survivors"]) <= 3
    assert doc["attacker_survivors"][0]["p"] >= doc["attacker_survivors"][-1]["p"]
    assert doc["capture"] == pytest.approx(doc["attacker_win"])
    assert doc["method"] == "exact"


def test_bombard_orders_and_rounds() -> None:
    doc = json.loads(battle_calc_text("infantry=2", "infantry=2", True, UNITS,
                                      bombard="battleship=1", max_rounds=1,
                                      attacker_order="infantry"))
    assert doc["bombard"] == {"battleship": 1}
    assert doc["retreat"] > 0
    out = battle_calc_text("battleship=2/1", "destroyer=2", False, UNITS)
    assert "2 Battleship (1 damaged)" in out


def test_unknown_unit_is_named_with_the_valid_ones() -> None:
    with pytest.raises(WartableError) as e:
        battle_calc_text("tank=2", "infantry=1", False, UNITS)
    msg = str(e.value)
    assert "'tank'" in msg and "Did you mean 'armour' (Tank)?" in msg
    assert "Valid units: aa_gun, armour, artillery" in msg


@pytest.mark.parametrize(("attack", "defend", "words"), [
    ("infantry=x", "infantry=1", "whole number"),
    ("", "infantry=1", "attack has no units"),
    ("infantry=1", "", "defence has no units"),
    ("infantry=1", "destroyer=1", "at sea or on land"),
    ("cruiser=1/1", "destroyer=1", "two hits"),
])
def test_bad_input_gets_a_clear_message(attack: str, defend: str, words: str) -> None:
    with pytest.raises(WartableError, match=words):
        battle_calc_text(attack, defend, False, UNITS)
