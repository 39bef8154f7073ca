"""The battle calculator for the command line (`wartable battle-calc`), as pure functions.

The CLI loads the definition through persistence.gamedata and passes its unit types; this
module parses the forces, runs the exact calculator and returns the text to print.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping
from typing import Any

from wartable.core.errors import WartableError
from wartable.games.aa_anniversary.calculator import CalcResult, calculate
from wartable.games.aa_anniversary.combat import (
    ATTACK,
    DEFENSE,
    EMPTY,
    CasualtyOrder,
    Catalog,
    Force,
    Orders,
    default_orders,
    parse_casualty_order,
)
from wartable.games.aa_anniversary.research import (
    BattleDevelopments,
    ResearchTable,
    parse_research,
)
from wartable.model.definition import UnitType


def _unknown(token: str, what: str, raw: str, catalog: Catalog) -> WartableError:
    ids = sorted(catalog.ids)
    by_name = {catalog[u].name.lower(): u for u in ids}
    hint = ""
    if token.lower() in by_name:
        u = by_name[token.lower()]
        hint = f" Did you mean {u!r} ({catalog[u].name})?"
    else:
        close = difflib.get_close_matches(token.lower(), ids + list(by_name), n=1)
        if close:
            u = by_name.get(close[0], close[0])
            hint = f" Did you mean {u!r}?"
    return WartableError(f"Unknown unit {token!r} in the {what} {raw!r}.{hint} "
                         f"Valid units: {', '.join(ids)}.")


def parse_force(text: str, catalog: Catalog, what: str = "force") -> Force:
    """Read "infantry=3, armour=1" (a bare id counts 1; "battleship=2/1" means two
    battleships, one of them already damaged)."""
    counts: dict[str, int] = {}
    damaged: dict[str, int] = {}
    for raw in text.split(","):
        tok = raw.strip()
        if not tok:
            continue
        unit, eq, num = (p.strip() for p in tok.partition("="))
        dmg = "0"
        if "/" in num:
            num, _, dmg = (p.strip() for p in num.partition("/"))
        if unit not in catalog:
            raise _unknown(unit, what, tok, catalog)
        if eq and not (num.isdigit() and dmg.isdigit()):
            raise WartableError(f"In the {what} {tok!r}: write unit=count with a whole number, "
                                f"like infantry=3.")
        counts[unit] = counts.get(unit, 0) + (int(num) if eq else 1)
        if int(dmg):
            damaged[unit] = damaged.get(unit, 0) + int(dmg)
    for unit, n in damaged.items():
        if catalog[unit].hits < 2 or n > counts[unit]:
            raise WartableError(f"In the {what}: {n} damaged {unit} is not possible; only "
                                f"units that take two hits can be damaged, at most one each.")
    return Force.of(counts, damaged)


def parse_developments(text: str, table: ResearchTable, what: str) -> frozenset[str]:
    """Read "jet_fighters, heavy_bombers" (ids of research.toml); an unknown id is a one-line
    error listing the valid ones."""
    ids = tuple(d.id for d in table.developments)
    out: set[str] = set()
    for raw in text.split(","):
        tok = raw.strip()
        if not tok:
            continue
        if tok not in ids:
            close = difflib.get_close_matches(tok.lower(), ids, n=1)
            hint = f" Did you mean {close[0]!r}?" if close else ""
            raise WartableError(f"Unknown development {tok!r} in the {what} developments.{hint} "
                                f"Valid developments: {', '.join(ids)}.")
        out.add(tok)
    return frozenset(out)


def battle_developments(attacker: str, defender: str,
                        research: Mapping[str, Any] | None,
                        unit_types: Mapping[str, UnitType]) -> BattleDevelopments | None:
    """Both sides' developments (Phase 1: Research & Development) from the command line;
    None when neither side names one. `research`: the data's tables.research."""
    if not attacker.strip() and not defender.strip():
        return None
    if research is None:
        raise WartableError("Developments need the research table (research.toml).")
    table = parse_research(research, unit_types)
    return BattleDevelopments(table, parse_developments(attacker, table, "attacker's"),
                              parse_developments(defender, table, "defender's"))


def _pct(p: float) -> str:
    return f"{100.0 * p:6.2f} %"


def _order_text(order: CasualtyOrder) -> str:
    return ", ".join(e.text for e in order) or "(none)"


def _units(force: Force) -> dict[str, int]:
    return dict(force.units)


def battle_calc(attack: str, defend: str, unit_types: Mapping[str, UnitType], *,
                bombard: str = "", attacker_order: str = "", defender_order: str = "",
                max_rounds: int | None = None, developments: BattleDevelopments | None = None
                ) -> tuple[CalcResult, Force, Force, Force, Orders]:
    """Parse and calculate: (result, attacker, defender, bombarding ships, orders used).
    With `developments` the default casualty orders use the developed unit values too."""
    catalog = Catalog.from_unit_types(unit_types)
    att = parse_force(attack, catalog, "attack")
    dfn = parse_force(defend, catalog, "defence")
    bom = parse_force(bombard, catalog, "bombardment") if bombard.strip() else EMPTY
    if not att:
        raise WartableError("The attack has no units: give some, like infantry=3,armour=1.")
    if not dfn:
        raise WartableError("The defence has no units: give some, like infantry=2.")
    dflt = default_orders(att, dfn, developments.catalog(catalog) if developments else catalog)
    orders = Orders(
        parse_casualty_order(attacker_order, catalog) if attacker_order.strip() else dflt.attacker,
        parse_casualty_order(defender_order, catalog) if defender_order.strip() else dflt.defender,
    )
    result = calculate(att, dfn, catalog, orders=orders, bombard=bom, max_rounds=max_rounds,
                       developments=developments)
    return result, att, dfn, bom, orders


def battle_calc_text(attack: str, defend: str, as_json: bool,
                     unit_types: Mapping[str, UnitType], *, bombard: str = "",
                     attacker_order: str = "", defender_order: str = "",
                     max_rounds: int | None = None, top: int = 5,
                     attacker_developments: str = "", defender_developments: str = "",
                     research: Mapping[str, Any] | None = None) -> str:
    """The exact odds of a battle as readable text, or as JSON with `as_json`.

    `attack`/`defend`/`bombard`: "infantry=3,armour=1" with the unit ids of the data files.
    Orders: "damage:battleship, infantry, armour@1, fighter, armour" (see
    `combat.parse_casualty_order`); empty means the default order. `max_rounds`: the attacker
    retreats after that many rounds. `top`: how many survivor outcomes to list per side.
    `attacker_developments`/`defender_developments`: "jet_fighters,heavy_bombers" (ids of
    research.toml, read from `research`, the data's tables.research).
    """
    catalog = Catalog.from_unit_types(unit_types)
    devs = battle_developments(attacker_developments, defender_developments, research,
                               unit_types)
    r, att, dfn, bom, orders = battle_calc(
        attack, defend, unit_types, bombard=bombard, attacker_order=attacker_order,
        defender_order=defender_order, max_rounds=max_rounds, developments=devs)
    if as_json:
        def survivors(dist: tuple[tuple[Force, float], ...]) -> list[dict[str, Any]]:
            return [{"units": _units(f), "damaged": dict(f.damaged), "p": p}
                    for f, p in dist[:top]]

        doc: dict[str, Any] = {
            "attacker": _units(att), "defender": _units(dfn), "bombard": _units(bom),
            "attacker_win": r.attacker_win, "defender_win": r.defender_win, "draw": r.draw,
            "stalemate": r.stalemate, "retreat": r.retreat, "capture": r.capture,
            "expected_ipc_loss": {"attacker": r.attacker_ipc_loss,
                                  "defender": r.defender_ipc_loss},
            "expected_rounds": r.expected_rounds,
            "expected_survivors": {"attacker": r.expected_survivors(ATTACK),
                                   "defender": r.expected_survivors(DEFENSE)},
            "attacker_survivors": survivors(r.attacker_survivors),
            "defender_survivors": survivors(r.defender_survivors),
            "orders": {"attacker": _order_text(orders.attacker),
                       "defender": _order_text(orders.defender)},
            "max_rounds": max_rounds, "states": r.states, "method": "exact",
        }
        if devs is not None:
            doc["developments"] = {"attacker": sorted(devs.attacker),
                                   "defender": sorted(devs.defender)}
        return json.dumps(doc, indent=2, sort_keys=False)

    lines = ["Battle calculator (exact) - Axis & Allies Anniversary Edition",
             f"Attacker: {att.describe(catalog)}",
             f"Defender: {dfn.describe(catalog)}"]
    if bom:
        lines.append(f"Bombardment: {bom.describe(catalog)}")
    if devs is not None:
        for who, held in (("attacker", devs.attacker), ("defender", devs.defender)):
            if held:
                lines.append(f"Developments, {who}: "
                             f"{', '.join(devs.table.get(d).name for d in sorted(held))}")
    if max_rounds is not None:
        lines.append(f"The attacker retreats after round {max_rounds} if the battle goes on.")
    lines.append("")
    cap = f"   (takes the territory {_pct(r.capture).strip()})" if r.capture else ""
    lines.append(f"Attacker wins  {_pct(r.attacker_win)}{cap}")
    lines.append(f"Defender wins  {_pct(r.defender_win)}")
    lines.append(f"Draw           {_pct(r.draw)}   (both sides destroyed)")
    if r.stalemate:
        lines.append(f"Stalemate      {_pct(r.stalemate)}   (the units left cannot hit each other)")
    if r.retreat:
        lines.append(f"Retreat        {_pct(r.retreat)}   (the attacker withdraws)")
    lines.append(f"Expected IPC loss: attacker {r.attacker_ipc_loss:.2f}, "
                 f"defender {r.defender_ipc_loss:.2f}")
    lines.append(f"Expected rounds: {r.expected_rounds:.2f}")
    for title, dist in (("Attacker", r.attacker_survivors), ("Defender", r.defender_survivors)):
        lines.append("")
        lines.append(f"{title} survivors (most likely first):")
        for f, p in dist[:top]:
            lines.append(f"  {_pct(p)}  {f.describe(catalog)}")
    lines.append("")
    lines.append(f"Casualty order, attacker: {_order_text(orders.attacker)}")
    lines.append(f"Casualty order, defender: {_order_text(orders.defender)}")
    return "\n".join(lines)
