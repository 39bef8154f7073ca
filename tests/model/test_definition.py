"""Game definitions and the sequence of play as read from data: one test per kind of error."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from wartable.core.errors import DataError
from wartable.model.definition import GameDefinition

BASE: dict[str, Any] = {
    "game": {"id": "demo", "title": "Demo", "data_version": "1"},
    "sides": [
        {"id": "red", "name": "Red", "colour": "#aa0000"},
        {"id": "blue", "name": "Blue", "colour": "#0000aa", "hidden_info": True},
    ],
    "units": [
        {"id": "inf", "name": "Infantry", "symbol": "infantry", "factors": [4, 4],
         "movement": 3, "cost": 3},
    ],
    "scenarios": [
        {"id": "s1", "name": "One", "last_turn": 5,
         "setup": [{"type": "inf", "side": "red", "location": "0101", "count": 2,
                    "veteran": True}]},
    ],
    "sequence": {
        "phases": [
            {"id": "move", "name": "{side} movement", "for_each_side": True,
             "steps": [{"id": "move", "name": "Move", "kind": "move", "rule": "5.1"}]},
            {"id": "end", "name": "End", "side": "*",
             "steps": [{"id": "end", "name": "End", "kind": "end", "condition": "late"}]},
        ],
    },
}  # fmt: skip


def data() -> dict[str, Any]:
    return copy.deepcopy(BASE)


def error(d: dict[str, Any]) -> DataError:
    with pytest.raises(DataError) as info:
        GameDefinition.from_dict(d, "demo.toml")
    assert info.value.source == "demo.toml"
    return info.value


def test_loads() -> None:
    g = GameDefinition.from_dict(data(), "demo.toml")
    assert g.side_ids == ("red", "blue")
    assert g.side("blue").hidden_info and g.side("red").text_colour == "#000000"
    inf = g.unit_types["inf"]
    assert inf.factors == (4, 4) and inf.movement == 3 and dict(inf.extra) == {"cost": 3}
    sc = g.scenarios["s1"]
    assert (sc.first_turn, sc.last_turn) == (1, 5)
    assert sc.setup[0].count == 2 and dict(sc.setup[0].attrs) == {"veteran": True}
    assert [p.id for p in g.sequence.phases] == ["red.move", "blue.move", "end"]
    assert g.sequence.phases[1].name == "Blue movement"
    assert g.sequence.phases[2].steps[0].condition == "late"
    assert g.enforcement == "enforced" and g.maps == () and dict(g.tables) == {}


def test_missing_game_table() -> None:
    d = data()
    del d["game"]
    e = error(d)
    assert (e.where, e.what) == ("game", "is missing")


def test_missing_required_text() -> None:
    d = data()
    del d["game"]["title"]
    e = error(d)
    assert (e.where, e.what) == ("game.title", "is missing")


def test_no_sides() -> None:
    d = data()
    d["sides"] = []
    e = error(d)
    assert (e.where, e.what) == ("sides", "a game needs at least one side")


def test_bad_colour() -> None:
    d = data()
    d["sides"][1]["alt_colour"] = "blue"
    e = error(d)
    assert (e.where, e.what) == (
        "sides[1].alt_colour",
        "must be a colour like '#a0b0c0', not 'blue'",
    )


def test_hidden_info_must_be_a_flag() -> None:
    d = data()
    d["sides"][0]["hidden_info"] = "yes"
    e = error(d)
    assert (e.where, e.what) == ("sides[0].hidden_info", "must be true or false, not text ('yes')")


def test_unknown_symbol() -> None:
    d = data()
    d["units"][0]["symbol"] = "dragon"
    e = error(d)
    assert e.where == "units[0].symbol"
    assert e.what.startswith("must be one of 'aa_gun', 'air', ") and e.what.endswith(
        ", not 'dragon'"
    )


def test_factors_must_be_whole_numbers() -> None:
    d = data()
    d["units"][0]["factors"] = [4, "4"]
    e = error(d)
    assert (e.where, e.what) == ("units[0].factors[1]", "must be a whole number, not text ('4')")


def test_duplicate_unit_type() -> None:
    d = data()
    d["units"].append(dict(d["units"][0]))
    e = error(d)
    assert (e.where, e.what) == ("units[1].id", "duplicate unit type 'inf'")


def test_setup_side_and_count() -> None:
    d = data()
    d["scenarios"][0]["setup"][0]["side"] = "green"
    e = error(d)
    assert (e.where, e.what) == (
        "scenarios[0].setup[0].side",
        "must be 'red' or 'blue', not 'green'",
    )
    d = data()
    d["scenarios"][0]["setup"][0]["count"] = 0
    e = error(d)
    assert (e.where, e.what) == ("scenarios[0].setup[0].count", "must be at least 1, not 0")
    d = data()
    d["scenarios"][0]["setup"][0]["type"] = "tank"
    assert error(d).what == "unknown unit type 'tank'"


def test_last_turn() -> None:
    d = data()
    d["scenarios"][0]["first_turn"] = 6
    e = error(d)
    assert (e.where, e.what) == ("scenarios[0].last_turn", "must not be before first_turn (6)")
    d = data()
    d["scenarios"][0]["last_turn"] = "5"
    e = error(d)
    assert (e.where, e.what) == ("scenarios[0].last_turn", "must be a whole number, not text ('5')")


def test_enforcement() -> None:
    d = data()
    d["game"]["enforcement"] = "strict"
    e = error(d)
    assert (e.where, e.what) == (
        "game.enforcement",
        "must be one of 'enforced', 'assisted', 'free', not 'strict'",
    )


def test_sequence_errors() -> None:
    d = data()
    d["sequence"]["phases"][1]["side"] = "green"
    e = error(d)
    assert (e.where, e.what) == (
        "sequence.phases[1].side",
        "must be one of '*', 'red', 'blue', not 'green'",
    )
    d = data()
    d["sequence"]["phases"][1]["steps"] = []
    e = error(d)
    assert (e.where, e.what) == ("sequence.phases[1].steps", "a phase needs at least one step")
    d = data()
    del d["sequence"]["phases"][0]["steps"][0]["kind"]
    e = error(d)
    assert (e.where, e.what) == ("sequence.phases[0].steps[0].kind", "is missing")
    d = data()
    d["sequence"]["phases"] = []
    e = error(d)
    assert (e.where, e.what) == ("sequence.phases", "the sequence of play has no phases")
    d = data()
    d["sequence"]["phases"][1]["id"] = "move"
    d["sequence"]["phases"][0]["for_each_side"] = False
    e = error(d)
    assert (e.where, e.what) == ("sequence.phases", "duplicate phase id 'move'")
