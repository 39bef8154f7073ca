"""1940: What If? (issue 5): two hex maps, every rule enforced as the parts land.

Importing this package registers the game and its bot. Data: data/*.toml (provisional values marked,
see data/NOTES.md); maps: maps/whatif1940/ (shipped as wartable.mapdata.whatif1940).
"""

from wartable.engine.bots import Bot
from wartable.engine.rules import Rules
from wartable.games.registry import GameModule, register


def factory() -> Rules:
    from wartable.games.whatif1940.rules import WhatIf1940Rules

    return WhatIf1940Rules()


def _bot() -> Bot:
    from wartable.games.whatif1940.bot import explained_action
    from wartable.games.whatif1940.bot_hint import hint

    return Bot(explained_action, hint)


register(GameModule("whatif1940", "1940: What If?", "wartable.games.whatif1940.data",
                    "wartable.mapdata.whatif1940", factory, _bot))
