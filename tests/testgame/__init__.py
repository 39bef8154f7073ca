"""Skirmish at the Ford: the test-only game (tests may use it until real games land).

Importing this package registers it, so the app and CLI can load it too:
`PYTHONPATH=tests WARTABLE_GAME_MODULES=testgame wartable`.
"""

from wartable.games.registry import GameModule, register


def _rules():  # type: ignore[no-untyped-def]
    from testgame.rules import SkirmishRules

    return SkirmishRules()


register(GameModule("skirmish", "Skirmish at the Ford (test game)", "testgame.data",
                    "testgame.maps", _rules))
