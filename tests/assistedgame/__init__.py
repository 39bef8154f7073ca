"""Kit Front: the data-only test game of the assisted-play kit (issue 18).

Importing this package registers it: `PYTHONPATH=tests WARTABLE_GAME_MODULES=assistedgame
wartable`. Its only code is predicates.py (one `code` effect).
"""

from wartable.games.registry import GameModule, register


def _rules():  # type: ignore[no-untyped-def]
    from assistedgame.predicates import KitRules

    return KitRules()


register(GameModule("kitgame", "Kit Front (test game)", "assistedgame.data",
                    "assistedgame.maps", _rules))
