"""Axis & Allies' own command-line commands (registered through GameModule.commands, so
cli.py names no game). The parser is cheap to build; the calculator loads when used."""

from __future__ import annotations

import argparse
from typing import Any

from wartable.model.definition import GameDefinition


def battle_calc(args: argparse.Namespace, d: GameDefinition) -> str:
    """`wartable battle-calc`: the exact odds of a battle (dynamic programming)."""
    from wartable.games.aa_anniversary.calc_cli import battle_calc_text

    return battle_calc_text(args.attack, args.defend, args.json, d.unit_types,
                            bombard=args.bombard, attacker_order=args.attacker_order,
                            defender_order=args.defender_order, max_rounds=args.rounds,
                            attacker_developments=args.attacker_developments,
                            defender_developments=args.defender_developments,
                            research=d.tables.get("research"))


def add_commands(sub: Any) -> None:
    sp = sub.add_parser("battle-calc", help="exact odds of an Axis & Allies battle")
    sp.add_argument("--attack", required=True, metavar="UNITS", help='e.g. "infantry=3,armour=1"')
    sp.add_argument("--defend", required=True, metavar="UNITS")
    sp.add_argument("--bombard", default="", metavar="UNITS", help="ships bombarding (amphibious)")
    sp.add_argument("--attacker-order", default="", metavar="ORDER",
                    help='casualty order, e.g. "infantry, armour, fighter" (default: cheapest)')
    sp.add_argument("--defender-order", default="", metavar="ORDER")
    sp.add_argument("--rounds", type=int, default=None, help="attacker retreats after N rounds")
    sp.add_argument("--attacker-developments", default="", metavar="IDS",
                    help='research results, e.g. "jet_fighters,heavy_bombers" (research.toml)')
    sp.add_argument("--defender-developments", default="", metavar="IDS", help='e.g. "radar"')
    sp.add_argument("--json", action="store_true")
    sp.set_defaults(game_command=battle_calc)
