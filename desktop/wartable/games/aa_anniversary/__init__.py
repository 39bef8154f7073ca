"""Axis & Allies Anniversary Edition (issue 4): data files, combat rules, battle calculator.

Importing this package registers the game and its bot. Rule references cite the rulebook's
section names and printed pages (`reference/rules/001_fd0acfb910203ea6.txt`), e.g.
"General Combat, Step 2 (pg. 18)".
"""

from wartable.engine.bots import Bot
from wartable.engine.rules import Rules
from wartable.games.aa_anniversary.commands import add_commands
from wartable.games.registry import BotMatch, GameModule, register


def _rules() -> Rules:
    from wartable.games.aa_anniversary.rules import AARules

    return AARules()


def _bot() -> Bot:
    from wartable.games.aa_anniversary.bot import explained_action
    from wartable.games.aa_anniversary.bot_strong import hint

    return Bot(explained_action, hint)


def _bot_match() -> BotMatch:
    from wartable.games.aa_anniversary.bot import bot_selfplay

    # A&A has no turn limit: a bot match stops after six rounds unless told.
    return BotMatch(bot_selfplay, default_rounds=6, alliances="Axis, then Allies")


register(GameModule("aa_anniversary", "Axis & Allies Anniversary Edition",
                    "wartable.games.aa_anniversary.data", "wartable.mapdata.aa_anniversary",
                    _rules, _bot, ui_module="wartable.gameui.aa_anniversary",
                    commands=add_commands, bot_match=_bot_match))
