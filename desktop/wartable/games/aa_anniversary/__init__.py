"""Axis & Allies Anniversary Edition (issue 4): data files, combat rules, battle calculator.

Importing this package registers the game and its bot. Rule references cite the rulebook's
section names and printed pages (`reference/rules/001_fd0acfb910203ea6.txt`), e.g.
"General Combat, Step 2 (pg. 18)".
"""

from wartable.engine.bots import Bot
from wartable.engine.rules import Rules
from wartable.games.registry import GameModule, register


def _rules() -> Rules:
    from wartable.games.aa_anniversary.rules import AARules

    return AARules()


def _bot() -> Bot:
    from wartable.games.aa_anniversary.bot import explained_action
    from wartable.games.aa_anniversary.bot_strong import hint

    return Bot(explained_action, hint)


register(GameModule("aa_anniversary", "Axis & Allies Anniversary Edition",
                    "wartable.games.aa_anniversary.data", "wartable.mapdata.aa_anniversary",
                    _rules, _bot))
