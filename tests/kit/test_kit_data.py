"""The kit's data (issue 18): tracks, flags, cups, triggers, calendar parsed from game.toml,
with a DataError naming the file and the entry for each mistake."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import pytest

from wartable.core.errors import DataError
from wartable.core.frozen import FrozenMap
from wartable.engine.kitsteps import with_kit
from wartable.engine.rules import Game
from wartable.engine.steps import RuleTable
from wartable.model.definition import GameDefinition
from wartable.persistence.gamedata import data_files, merge_data_files


def _files() -> list[tuple[str, str]]:
    return data_files("assistedgame.data")


def _load(edit: Any) -> None:
    """Load the Kit Front with its merged data edited by `edit(data)`; check as the loader."""
    from assistedgame.predicates import KitRules

    sources: dict[str, str] = {}
    data = copy.deepcopy(merge_data_files(_files(), sources))
    edit(data)
    d = dataclasses.replace(GameDefinition.from_dict(data, "assistedgame.data", sources),
                            sources=FrozenMap(sources))
    with_kit(KitRules.table).check(d)


def test_K2_tracks_parse_with_keys_initial_values_and_panels(game: Game) -> None:
    d = game.definition
    econ = d.tracks["econ"]
    assert econ.keys == ("axis", "allies") and econ.initial == {"axis": 120, "allies": 80}
    assert (econ.min, econ.max, econ.rule, econ.panel) == (0, 200, "K2.1", "status")
    assert d.tracks["us_entry"].single and d.tracks["us_entry"].provisional
    assert d.tracks["status"].values == ("neutral", "invaded", "conquered")
    assert d.tracks["status"].initial == {"norway": "neutral", "sweden": "neutral"}
    assert d.tracks["losses"].panel == "ledger"
    assert d.flags["sitzkrieg"].initial is True and d.flags["vichy"].initial is False
    assert d.cups["ultra"].initial == ("u1", "u1", "u2")
    assert d.enforcement == "assisted" and d.assisted


def test_K1_2_calendar_labels_quarters_and_the_winter_turn(game: Game) -> None:
    cal = game.definition.calendar
    assert [cal.label(t) for t in (1, 2, 3, 4)] == [
        "Sep–Nov 1939", "Dec 1939–Feb 1940", "Winter 1939", "Mar–May 1940"]
    assert cal.turn_of(1940, 3) == 4
    assert game.definition.date_label(1) == "Sep–Nov 1939"


def test_a_calendar_of_explicit_labels() -> None:
    from wartable.model.tracks import Calendar

    cal = Calendar(labels=("Spring 39", "Summer 39"))
    assert cal.label(2) == "Summer 39" and cal.label(3) == ""


@pytest.mark.parametrize(("edit", "where", "what"), [
    (lambda d: d["tracks"]["econ"].update(initial={"axis": "x"}), "tracks.econ.initial.axis",
     "is a number"),
    (lambda d: d["tracks"]["status"].update(initial="won"), "tracks.status.initial.norway",
     "one of"),
    (lambda d: d["tracks"]["econ"].update(colour="red"), "tracks.econ.colour", "unknown field"),
    (lambda d: d["cups"]["ultra"].update(drawn_by=["russia"]), "cups.ultra.drawn_by[0]",
     "not a side"),
    (lambda d: d["triggers"][0].pop("turn"), "triggers[0].turn", "either turn or date"),
    (lambda d: d["calendar"].update(start="1939/09"), "calendar.start", "year-month"),
    (lambda d: d["counter_mix"][0].update(type="tank"), "counter_mix[0].type",
     "unknown unit type"),
])
def test_bad_kit_data_names_the_file_and_entry(edit: Any, where: str, what: str) -> None:
    with pytest.raises(DataError) as e:
        _load(edit)
    assert e.value.source.endswith("game.toml")
    assert e.value.where == where and what in e.value.what


@pytest.mark.parametrize(("edit", "where", "what"), [
    (lambda d: d["tables"]["norway"]["bands"][1]["effects"][0].update(set="track.status.denmark"),
     "tables.norway.bands[1].effects[0].set", "no key 'denmark'"),
    (lambda d: d["tables"]["norway"]["bands"][1]["effects"][0].update(to="annexed"),
     "tables.norway.bands[1].effects[0].to", "one of"),
    (lambda d: d["tables"]["norway"]["bands"][2]["effects"][3].update(code="nope"),
     "tables.norway.bands[2].effects[3].code", "no rules register"),
    (lambda d: d["tables"]["us_entry"]["modifiers"][0].update(condition="flag:sitzkreig"),
     "tables.us_entry.modifiers[sitz].condition", "no flag 'sitzkreig'"),
    (lambda d: d["sequence"]["phases"][0]["steps"][1].update(condition="track:us_entry>=x"),
     "sequence.phases.axis.steps.norway.condition", "compare it with a number"),
    (lambda d: d["sequence"]["phases"][0]["steps"][1].update(table="sweden"),
     "sequence.phases.axis.steps.norway.table", "no die-roll table 'sweden'"),
    (lambda d: d["triggers"][1]["effects"][0].update(set="flag.peace"),
     "triggers[1].effects[0].set", "no flag 'peace'"),
])
def test_bad_effects_and_conditions_fail_on_load(edit: Any, where: str, what: str) -> None:
    with pytest.raises(DataError) as e:
        _load(edit)
    assert e.value.where == where and what in e.value.what, str(e.value)


def test_the_kit_table_answers_the_kit_step_kinds() -> None:
    from wartable.engine.kitsteps import KIT_TABLE, with_kit

    assert {"procedure", "assisted"} <= set(KIT_TABLE.steps)
    assert set(with_kit(RuleTable()).steps) == set(KIT_TABLE.steps)
