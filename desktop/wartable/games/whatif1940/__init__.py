"""1940: What If? (issue 5): two hex maps, every rule enforced as the parts land.

Importing this package registers the game and its bot. Data: data/*.toml (provisional values marked,
see data/NOTES.md); maps: maps/whatif1940/ (shipped as wartable.mapdata.whatif1940).
"""

from collections.abc import Mapping

from wartable.engine.bots import Bot
from wartable.engine.overlays import Overlay, PieceMark
from wartable.engine.rules import Game, Rules
from wartable.games.registry import BotMatch, GameModule, register
from wartable.model.state import GameState


def factory() -> Rules:
    from wartable.games.whatif1940.rules import WhatIf1940Rules

    return WhatIf1940Rules()


def _bot() -> Bot:
    from wartable.games.whatif1940.bot import explained_action
    from wartable.games.whatif1940.bot_hint import hint

    return Bot(explained_action, hint)


def _supply_marks(game: Game, state: GameState) -> Mapping[str, PieceMark]:
    from wartable.games.whatif1940.overlays import supply_marks  # shapely: load when used

    return supply_marks(game, state)


def _supply_summary(marks: Mapping[str, PieceMark]) -> str:
    from wartable.games.whatif1940.overlays import supply_summary

    return supply_summary(marks)


# View → Supply Overlay [6.2-6.8]: out-of-supply and coastal-only units marked.
SUPPLY = Overlay("supply", "&Supply Overlay", "6.2-6.8", _supply_marks, _supply_summary, "F7")


def _bot_match() -> BotMatch:
    from wartable.games.whatif1940 import bot_match

    # A game lasts 11 turns [4.4].
    return BotMatch(bot_match.bot_selfplay, default_rounds=bot_match.LAST_TURN,
                    alliances="German, then Allies")


register(GameModule("whatif1940", "1940: What If?", "wartable.games.whatif1940.data",
                    "wartable.mapdata.whatif1940", factory, _bot,
                    ui_module="wartable.gameui.whatif1940", overlays=(SUPPLY,),
                    bot_match=_bot_match))
