"""Shared fixtures of the Anniversary Edition combat tests and the calculator benchmark:
the catalog read from the real data files, and the battles both compare against Monte Carlo."""

from __future__ import annotations

from dataclasses import dataclass, field

from wartable.games.aa_anniversary.combat import EMPTY, Catalog, Force
from wartable.model.definition import GameDefinition
from wartable.persistence.gamedata import load_definition

DATA_PACKAGE = "wartable.games.aa_anniversary.data"


def definition() -> GameDefinition:
    return load_definition(DATA_PACKAGE)


def catalog() -> Catalog:
    return Catalog.from_unit_types(definition().unit_types)


def F(**counts: int) -> Force:  # noqa: N802  (reads like a constructor in the tables below)
    return Force.of(counts)


@dataclass(frozen=True)
class Battle:
    name: str
    attacker: Force
    defender: Force
    bombard: Force = field(default=EMPTY)
    max_rounds: int | None = None


# Twenty-two battles covering every rule the calculator models.
BATTLES: tuple[Battle, ...] = (
    Battle("1 infantry vs 1 infantry", F(infantry=1), F(infantry=1)),
    Battle("land, artillery support", F(infantry=3, artillery=1, armour=2),
           F(infantry=4, artillery=1)),
    Battle("land with air into an AA gun", F(infantry=2, artillery=2, armour=1, fighter=1),
           F(infantry=3, armour=1, aa_gun=1)),
    Battle("air only into an AA gun", F(fighter=2, bomber=2), F(infantry=3, fighter=1, aa_gun=1)),
    Battle("amphibious with bombardment", F(infantry=2, armour=1), F(infantry=3, artillery=1),
           bombard=F(battleship=1, cruiser=1)),
    Battle("bombardment and AA", F(infantry=2, fighter=1), F(infantry=2, fighter=1, aa_gun=1),
           bombard=F(battleship=1)),
    Battle("subs vs destroyer and transport", F(submarine=2), F(destroyer=1, transport=1)),
    Battle("surprise strike on a cruiser", F(submarine=3), F(cruiser=1, transport=2)),
    Battle("subs and destroyer vs subs and carrier", F(submarine=2, destroyer=1),
           F(submarine=2, carrier=1, fighter=2)),
    Battle("air vs subs without destroyer", F(fighter=2, bomber=1), F(submarine=2, transport=1)),
    Battle("air with a destroyer vs subs", F(destroyer=1, fighter=2), F(submarine=3)),
    Battle("battleships", F(battleship=2), F(battleship=1, cruiser=1)),
    Battle("battleship and subs vs destroyers and sub", F(battleship=1, submarine=2),
           F(destroyer=2, submarine=1)),
    Battle("sub vs sub", F(submarine=3), F(submarine=2)),
    Battle("fleet battle", F(battleship=1, carrier=1, fighter=2, destroyer=1),
           F(battleship=1, cruiser=2, submarine=1, transport=1)),
    Battle("large land battle", F(infantry=6, artillery=3, armour=3, fighter=2, bomber=1),
           F(infantry=8, artillery=2, armour=2, fighter=1, aa_gun=1)),
    Battle("retreat after two rounds", F(infantry=4, armour=2), F(infantry=5), max_rounds=2),
    Battle("cruisers and destroyer vs subs", F(cruiser=2, destroyer=1), F(submarine=4)),
    Battle("sub and transport vs destroyer", F(submarine=1, transport=1), F(destroyer=1)),
    Battle("tank and fighters keep a land unit", F(armour=1, fighter=2), F(infantry=2, aa_gun=1)),
    Battle("bombers alone cannot capture", F(bomber=2), F(infantry=1, aa_gun=1)),
    Battle("damaged battleship starts", Force.of({"battleship": 1, "destroyer": 1},
                                                {"battleship": 1}), F(cruiser=1, destroyer=1)),
)
