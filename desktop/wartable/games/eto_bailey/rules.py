"""The ETO game's Rules (issue 22): the kit answers the data's step kinds and tables
(engine/kitsteps.py); our assisted step adds the revisions the app enforces (steps.py)."""

from __future__ import annotations

from wartable.engine.rules import Rules
from wartable.engine.steps import RuleTable
from wartable.games.eto_bailey.steps import EtoAssisted


class EtoRules(Rules):
    table = RuleTable(steps={"assisted": EtoAssisted()})
