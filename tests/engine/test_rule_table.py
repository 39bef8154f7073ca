"""Step dispatch through the game's RuleTable (engine/steps.py), checked when a game loads:
every step kind, condition and die-roll table its data names has a handler, else a DataError
naming the data file and the entry (issue 14)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from testgame.rules import CRT_CONDITIONS, TABLE, SkirmishRules
from wartable.core.errors import DataError
from wartable.engine.rules import Game, Rules
from wartable.engine.session import Session
from wartable.engine.steps import ProcedureUse, RuleTable, StepHandler
from wartable.model.definition import GameDefinition
from wartable.persistence.gamedata import data_files, definition_from_files, load_game

GAME_TOML = "testgame.data/game.toml"


def skirmish_with(old: str, new: str) -> GameDefinition:
    """The test game's definition with one piece of its data text replaced."""
    files = data_files("testgame.data")
    edited = [(n, t.replace(old, new)) for n, t in files]
    assert edited != files, f"{old!r} is not in the test game's data"
    return definition_from_files(edited, "testgame.data")


def skirmish() -> GameDefinition:
    return definition_from_files(data_files("testgame.data"), "testgame.data")


def check(definition: GameDefinition, rules: Rules | None = None) -> None:
    rules = rules or SkirmishRules()
    rules.check_definition(Game(definition, rules))


def test_the_test_game_data_passes() -> None:
    check(skirmish())


@pytest.mark.parametrize("game_id", ["skirmish", "aa_anniversary", "whatif1940"])
def test_every_installed_game_names_only_handled_kinds(game_id: str) -> None:
    game = load_game(game_id)  # the loader runs the check
    kinds = {p.step.kind for p in game.positions}
    assert kinds <= set(game.rules.table.steps)


def test_misspelt_step_kind_is_a_data_error_naming_file_and_step() -> None:
    d = skirmish_with('kind = "move"', 'kind = "mvoe"')
    with pytest.raises(DataError) as e:
        check(d)
    assert e.value.source == GAME_TOML
    assert e.value.where == "sequence.phases.turn.steps.move.kind"
    assert "'mvoe'" in str(e.value) and "combat, move" in str(e.value)


def test_misspelt_step_condition_is_a_data_error() -> None:
    d = skirmish_with('condition = "not_first_turn"', 'condition = "not_frist_turn"')
    with pytest.raises(DataError) as e:
        check(d)
    assert (e.value.source, e.value.where) == (GAME_TOML,
                                               "sequence.phases.turn.steps.combat.condition")
    assert "'not_frist_turn'" in str(e.value)


def test_negated_and_option_conditions_are_checked_too() -> None:
    check(skirmish_with('condition = "not_first_turn"', 'condition = "!first_turn"'))
    check(skirmish_with('condition = "not_first_turn"', 'condition = "option:fog"'))
    with pytest.raises(DataError, match="'option:mist' names no option"):
        check(skirmish_with('condition = "not_first_turn"', 'condition = "option:mist"'))


def test_misspelt_procedure_condition_is_a_data_error_naming_the_table() -> None:
    d = skirmish_with('condition = "odds_2_1"', 'condition = "odds_2_l"')
    with pytest.raises(DataError) as e:
        check(d)
    assert e.value.source.startswith(GAME_TOML) and "tables.crt" in e.value.source
    assert "odds2" in e.value.where and "odds_2_l" in str(e.value)


def test_misspelt_table_id_is_a_data_error() -> None:
    """The CRT under another id: the rules' table is missing, and the data's is rolled by no
    rule."""
    with pytest.raises(DataError) as e:
        check(skirmish_with("[tables.crt]", "[tables.ctr]"))
    assert (e.value.source, e.value.where) == (GAME_TOML, "tables.crt")
    assert "does not define" in str(e.value)


def test_die_roll_table_no_rule_rolls_on_is_a_data_error() -> None:
    class NoCrt(SkirmishRules):
        table = replace(TABLE, procedures={})

    with pytest.raises(DataError) as e:
        check(skirmish(), NoCrt())
    assert (e.value.source, e.value.where) == (GAME_TOML, "tables.crt")
    assert "no rule rolls on" in str(e.value)


def test_procedure_resume_without_handler_is_a_data_error() -> None:
    class Misspelt(SkirmishRules):
        table = replace(TABLE, procedures={"crt": ProcedureUse(CRT_CONDITIONS, "ctr")})

    with pytest.raises(DataError) as e:
        check(skirmish(), Misspelt())
    assert (e.value.source, e.value.where) == (GAME_TOML, "tables.crt")
    assert "no resume 'ctr'" in str(e.value)


def test_rules_dispatch_a_step_through_the_table() -> None:
    """The base Rules calls the handler registered for the step's kind (its prompt text) and
    a kind with no handler falls back to the step's prompt and an End step button."""
    game = load_game("skirmish")

    class Shout(StepHandler):
        def prompt(self, game, state, pos):  # type: ignore[no-untyped-def]
            return replace(super().prompt(game, state, pos), text="MOVE!")

    class Loud(SkirmishRules):
        table = replace(TABLE, steps={**TABLE.steps, "move": Shout()})

    state = Session.start(game, "meeting").state
    loud = Game(game.definition, Loud(), game.maps)
    pos = loud.position(state)
    assert pos.step.kind == "move"
    assert loud.rules.step_prompt(loud, state, pos).text == "MOVE!"
    bare = Game(game.definition, Rules(), game.maps)
    p = bare.rules.step_prompt(bare, state, pos)
    assert p.text == pos.step.prompt and [b.label for b in p.buttons] == ["End step"]


def test_rule_table_freezes_its_registries() -> None:
    t = RuleTable(steps={"x": StepHandler()})
    with pytest.raises(TypeError):
        t.steps["y"] = StepHandler()  # type: ignore[index]
