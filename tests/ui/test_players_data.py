"""The players data of 1940: What If? [1.3] (data/players.toml, model/seats.py): the splits
the rulebook gives and the command deciding each step, and clear errors for bad data."""

from __future__ import annotations

from typing import Any

import pytest

from wartable.core.errors import DataError
from wartable.model.parse import Reader
from wartable.model.seats import parse_players
from wartable.persistence.gamedata import load_game

SIDES = ("german", "soviet", "anglo_french")
STEPS = {"west_move", "east_move"}


def test_1_3_the_splits_are_two_three_and_four_players() -> None:
    ps = load_game("whatif1940").definition.players
    assert ps is not None
    assert ps.split(2).seats == (("german_west", "german_east"), ("soviet", "anglo_french"))
    assert ps.split(3).seats == (("german_west", "german_east"), ("soviet",),
                                 ("anglo_french",))
    assert ps.split(4).seats == (("german_west",), ("german_east",), ("soviet",),
                                 ("anglo_french",))


@pytest.mark.parametrize(("step", "command"), [
    ("setup_german_west", "german_west"),  # [3.3, 3.4] with the Dutch and Belgians
    ("setup_german_east", "german_east"),  # [3.3]
    ("east_order", "german_east"),  # [5.3] the east commander declares
    ("german_air", "german_east"),  # [8.1, 8.5] the senior German allocates the Luftwaffe
    ("german_west_move", "german_west"),
    ("german_west_combat", "german_west"),
    ("german_east_move_d", "german_east"),
    ("german_east_combat_e", "german_east"),
    ("german_interdiction_east", "german_east"),  # against the Soviet movement (east map)
    ("german_interdiction_west", "german_west"),  # against the Anglo-French (west map)
    ("af_combat", "german_west"),  # German retreats on the west map
    ("soviet_combat", "german_east"),  # German retreats on the east map
])
def test_1_3_each_german_step_has_its_commander(step: str, command: str) -> None:
    ps = load_game("whatif1940").definition.players
    assert ps is not None
    assert ps.command_for("german", step) == command


def test_1_3_the_allied_sides_are_one_command_each() -> None:
    ps = load_game("whatif1940").definition.players
    assert ps is not None
    assert ps.command_for("soviet", "german_west_move") == "soviet"
    assert ps.command_for("anglo_french", "german_east_move_d") == "anglo_french"


def test_games_without_commands_have_no_players_table() -> None:
    assert load_game("skirmish").definition.players is None


def test_setup_a_and_a_splits_keep_italy_with_germany_and_china_with_the_usa() -> None:
    # A&A now declares its splits (issue 16): a command per power, and below six players
    # Germany's player also plays Italy; the U.S. player always plays China (Setup).
    ps = load_game("aa_anniversary").definition.players
    assert ps is not None
    assert {c.id: c.side for c in ps.commands} == {s: s for s in (
        "germany", "ussr", "japan", "uk", "italy", "china", "usa")}
    for split in ps.splits:
        seat_of = {c: i for i, seat in enumerate(split.seats) for c in seat}
        assert seat_of["china"] == seat_of["usa"]
        if split.players < 6:
            assert seat_of["italy"] == seat_of["germany"]


def _data(**change: Any) -> dict[str, Any]:
    d: dict[str, Any] = {
        "commands": [
            {"id": "gw", "name": "West", "side": "german", "steps": ["west_move"]},
            {"id": "ge", "name": "East", "side": "german", "senior": True},
            {"id": "sov", "name": "Soviet", "side": "soviet"},
            {"id": "af", "name": "Anglo-French", "side": "anglo_french"},
        ],
        "splits": [{"players": 2, "name": "Two", "seats": [["gw", "ge"], ["sov", "af"]]}],
    }
    d.update(change)
    return d


def _parse(data: dict[str, Any]) -> Any:
    return parse_players(Reader(data, "players.toml"), SIDES, STEPS)


def test_valid_players_data_parses() -> None:
    ps = _parse(_data())
    assert ps.command_for("german", "west_move") == "gw"
    assert ps.command_for("german", "east_move") == "ge"


def test_a_split_must_seat_every_command() -> None:
    bad = _data(splits=[{"players": 2, "name": "Two", "seats": [["gw", "ge"], ["sov"]]}])
    with pytest.raises(DataError, match="every command exactly once"):
        _parse(bad)


def test_a_split_names_only_known_commands() -> None:
    bad = _data(splits=[{"players": 2, "name": "Two",
                         "seats": [["gw", "ge"], ["sov", "af", "italy"]]}])
    with pytest.raises(DataError, match="names no command: 'italy'"):
        _parse(bad)


def test_a_split_has_as_many_seats_as_players() -> None:
    bad = _data(splits=[{"players": 3, "name": "Three", "seats": [["gw", "ge"], ["sov", "af"]]}])
    with pytest.raises(DataError, match="2 seats for 3 players"):
        _parse(bad)


def test_a_command_names_only_steps_of_the_sequence() -> None:
    cmds = _data()["commands"]
    cmds[0] = {**cmds[0], "steps": ["west_mvoe"]}
    with pytest.raises(DataError, match="names no step of the sequence of play: 'west_mvoe'"):
        _parse(_data(commands=cmds))


def test_a_side_with_two_commands_needs_one_senior() -> None:
    cmds = _data()["commands"]
    cmds[1] = {k: v for k, v in cmds[1].items() if k != "senior"}
    with pytest.raises(DataError, match="exactly one must be senior"):
        _parse(_data(commands=cmds))


def test_unknown_side_and_misspelt_keys_fail() -> None:
    cmds = _data()["commands"]
    cmds[2] = {**cmds[2], "side": "italy"}
    with pytest.raises(DataError, match="side"):
        _parse(_data(commands=cmds))
    cmds = _data()["commands"]
    cmds[2] = {**cmds[2], "seniour": True}
    with pytest.raises(DataError, match="seniour"):
        _parse(_data(commands=cmds))
