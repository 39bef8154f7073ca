"""Additional Optional Rules: Dardanelles Closed to Sea Movement (pg. 24).

"No sea units may move into or out of sea zone 16, however air units may move through this
sea zone freely." The closed zone and the option that closes it are data (straits.toml),
checked on load: the zone must be a sea zone of the map and the option one of the game's.
"""

from __future__ import annotations

from dataclasses import dataclass

from wartable.core.errors import DataError
from wartable.engine.rules import Game
from wartable.games.aa_anniversary.steps.common import world
from wartable.model.parse import Reader
from wartable.model.state import GameState

SOURCE = "wartable.games.aa_anniversary.data/straits.toml"


@dataclass(frozen=True, slots=True)
class Strait:
    id: str
    name: str
    option: str
    sea_zone: str
    rule: str


def straits(game: Game) -> tuple[Strait, ...]:
    """The game's straits, read and checked once per game (Game.derived)."""
    return game.derived(_build_straits)


def _build_straits(game: Game) -> tuple[Strait, ...]:
    raw = game.definition.tables.get("straits")
    if raw is None:
        raise DataError(SOURCE, "straits", "the game data has no straits table")
    r = Reader(raw, SOURCE, "straits")
    options = {o.id for o in game.definition.options}
    sea = world(game).sea
    out = []
    for sid in sorted(r.data):
        sr = r.sub(sid)
        sr.known("name", "option", "sea_zone", "rule")
        s = Strait(sid, sr.text("name", nonempty=True), sr.text("option"),
                   sr.text("sea_zone"), sr.text("rule", nonempty=True))
        if s.option not in options:
            raise sr.fail("option", f"{s.option!r} is not an option of the game")
        if s.sea_zone not in sea:
            raise sr.fail("sea_zone", f"{s.sea_zone!r} is not a sea zone of the map")
        out.append(s)
    return tuple(out)


def blocked(game: Game, state: GameState, a: str, b: str) -> str | None:
    """The rule that forbids a sea unit's move from `a` to `b`, or None."""
    for s in straits(game):
        if state.option(s.option, False) and s.sea_zone in (a, b):
            return s.rule
    return None
