"""Skirmish at the Ford: the test-only game (tests may use it until real games land).

Importing this package registers it, so the app and CLI can load it too:
`PYTHONPATH=tests WARTABLE_GAME_MODULES=testgame wartable`.
"""

from typing import Any

from wartable.games.registry import GameModule, register


def _rules():  # type: ignore[no-untyped-def]
    from testgame.rules import SkirmishRules

    return SkirmishRules()


register(GameModule("skirmish", "Skirmish at the Ford (test game)", "testgame.data",
                    "testgame.maps", _rules, ui_module="testgame.ui"))


def _data_1_to_2(doc: dict[str, Any]) -> dict[str, Any]:
    """Data version 2 added the fog of war option [S7], off by default: a game saved under
    version 1 was played without it."""
    from wartable.persistence.savefile import rehash_state

    doc["options"].setdefault("fog", False)
    doc["state"]["options"].setdefault("fog", False)
    doc["state"]["data_version"] = "2"
    return rehash_state(doc)


def _register_migrations() -> None:
    from wartable.persistence.savefile import DATA_MIGRATIONS

    DATA_MIGRATIONS[("skirmish", "1")] = ("2", _data_1_to_2)


_register_migrations()
