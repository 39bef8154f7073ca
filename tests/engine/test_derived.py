"""Derived data held with the loaded game (issue 14): a structure built from a game's data
and maps (adjacency, parsed tables) is built once per Game by Game.derived, not kept in a
module cache keyed by id(game); the loader builds the games' structures when they load."""

from __future__ import annotations

from wartable.engine.rules import Game, locations
from wartable.games.aa_anniversary.research import research_table
from wartable.games.aa_anniversary.steps.common import _build_world, world
from wartable.games.aa_anniversary.steps.straits import straits
from wartable.games.whatif1940.board import board_of
from wartable.games.whatif1940.steps.combat_table import tables_of
from wartable.persistence.gamedata import game_with_tables, load_game


def test_built_once_per_game() -> None:
    game = load_game("skirmish")
    calls: list[Game] = []

    def build(g: Game) -> object:
        calls.append(g)
        return object()

    first = game.derived(build)
    assert game.derived(build) is first and calls == [game]
    other = Game(game.definition, game.rules, game.maps)  # another Game: its own
    assert other.derived(build) is not first and calls == [game, other]
    assert locations(game) is locations(game) and "box:eliminated" in locations(game)


def test_aa_structures_are_built_at_load_and_held_with_the_game() -> None:
    game = load_game("aa_anniversary")
    held = dict(game._derived)  # what the loader built (Rules.check_tables)
    assert world(game) is held[_build_world]
    assert straits(game) is straits(game) and research_table(game) is research_table(game)
    assert len(game._derived) == len(held)  # nothing more was built on use


def test_w40_board_is_the_games_own() -> None:
    game = load_game("whatif1940")
    assert board_of(game) is board_of(game) and tables_of(game) is tables_of(game)
    tables = {"combat": dict(game.definition.tables["combat"])}
    other = game_with_tables(game, tables)  # the player's own printed values
    assert other is not game and game_with_tables(game, tables) is other
    assert board_of(other) is not board_of(game)
