"""SPI's World War II: ETO with Jim Bailey's revisions (issue 22), an assisted game on the
assisted-play kit. Importing this package registers it. Data: data/*.toml (provisional
values of the unpublished base game are marked provisional); map: maps/eto/europe.
Notes: NOTES.md (what is enforced, what is assisted) and RULES_COVERAGE.md."""

from wartable.engine.rules import Rules
from wartable.games.registry import GameModule, register


def factory() -> Rules:
    from wartable.games.eto_bailey.rules import EtoRules

    return EtoRules()


register(GameModule("eto_bailey", "World War II: ETO (Bailey's revisions)",
                    "wartable.games.eto_bailey.data", "wartable.mapdata.eto", factory,
                    ui_module="wartable.gameui.eto_bailey"))
