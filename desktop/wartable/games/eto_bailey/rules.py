"""The ETO game's Rules: the kit answers every step kind and table of the data
(engine/kitsteps.py); nothing here yet but the class the registry names."""

from __future__ import annotations

from wartable.engine.rules import Rules
from wartable.engine.steps import RuleTable


class EtoRules(Rules):
    table = RuleTable()
