"""Generate the Anniversary Edition data files from the facts JSON (a dev tool, run by hand).

    PYTHONPATH=desktop python installers/tools/aa_import_facts.py \
        /work/shared/reference/data/aa_anniversary_facts.json [--out DIR]

DIR defaults to desktop/wartable/games/aa_anniversary/data. The facts come from TripleA's
"World War II v3" files; where they and the rulebook (reference/rules/001_...txt) disagree
the rulebook wins, and each such correction is listed in RULEBOOK_CORRECTIONS below and
written as a comment into the generated file. Every file is regenerated whole: edit this
tool, not the TOML.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from wartable.games.aa_anniversary.ids import space_id

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUT = ROOT / "desktop" / "wartable" / "games" / "aa_anniversary" / "data"

# Facts' power names -> side ids, in the 1941 turn order of the facts (China plays with the
# U.S., "China Rules", pg. 10). Board colours from "Game Components"; the alternative
# colours are Paul Tol's colour-blind-safe palette.
POWERS: dict[str, dict[str, str]] = {
    "Germans": {"id": "germany", "name": "Germany", "colour": "#8e9296",
                "text_colour": "#000000", "alt_colour": "#bbbbbb", "capital": "Berlin"},
    "Russians": {"id": "ussr", "name": "Soviet Union", "colour": "#7b2d2d",
                 "text_colour": "#ffffff", "alt_colour": "#882255", "capital": "Moscow"},
    "Japanese": {"id": "japan", "name": "Japan", "colour": "#e8892b",
                 "text_colour": "#000000", "alt_colour": "#ee7733", "capital": "Tokyo"},
    "British": {"id": "uk", "name": "United Kingdom", "colour": "#d2b48c",
                "text_colour": "#000000", "alt_colour": "#ddcc77", "capital": "London"},
    "Italians": {"id": "italy", "name": "Italy", "colour": "#8b5a2b",
                 "text_colour": "#ffffff", "alt_colour": "#aa4499", "capital": "Rome"},
    "Chinese": {"id": "china", "name": "China", "colour": "#a8d08d",
                "text_colour": "#000000", "alt_colour": "#44aa99", "capital": ""},
    "Americans": {"id": "usa", "name": "United States", "colour": "#4f7a3a",
                  "text_colour": "#ffffff", "alt_colour": "#117733", "capital": "Washington"},
}

# Facts' unit names -> ours, with the rulebook's names and symbols. Pages only where the
# rulebook's own cross-references state them (Unit Profiles, pg. 24; AA guns 25; Air Units 26;
# Sea Units 28; Destroyers 29; Submarines 30).
UNITS: dict[str, dict[str, Any]] = {
    "infantry": {"id": "infantry", "name": "Infantry", "symbol": "infantry", "page": 0},
    "artillery": {"id": "artillery", "name": "Artillery", "symbol": "artillery", "page": 0},
    "armour": {"id": "armour", "name": "Tank", "symbol": "armour", "page": 0},
    "aaGun": {"id": "aa_gun", "name": "Antiaircraft Gun", "symbol": "aa_gun", "page": 25},
    "factory": {"id": "factory", "name": "Industrial Complex", "symbol": "factory", "page": 0},
    "fighter": {"id": "fighter", "name": "Fighter", "symbol": "fighter", "page": 26},
    "bomber": {"id": "bomber", "name": "Bomber", "symbol": "bomber", "page": 26},
    "battleship": {"id": "battleship", "name": "Battleship", "symbol": "battleship", "page": 28},
    "carrier": {"id": "carrier", "name": "Aircraft Carrier", "symbol": "carrier", "page": 28},
    "cruiser": {"id": "cruiser", "name": "Cruiser", "symbol": "cruiser", "page": 28},
    "destroyer": {"id": "destroyer", "name": "Destroyer", "symbol": "destroyer", "page": 29},
    "submarine": {"id": "submarine", "name": "Submarine", "symbol": "submarine", "page": 30},
    "transport": {"id": "transport", "name": "Transport", "symbol": "transport", "page": 28},
}

# The facts carry TripleA's ship prices, which are the rulebook's Improved Shipyards prices
# (Breakthrough Chart 2, pg. 12). The Unit Profiles print the base prices used here.
RULEBOOK_SHIP_COSTS = {"battleship": 20, "carrier": 14, "cruiser": 12, "destroyer": 8,
                       "submarine": 6, "transport": 7}
RULEBOOK_CORRECTIONS = [
    "ship costs: Unit Profiles (Sea Units, pg. 28) print battleship 20, carrier 14, cruiser 12, "
    "destroyer 8, submarine 6, transport 7; the facts' 17/11/10/7/5/6 are the Improved "
    "Shipyards prices (pg. 12) and are kept as cost_improved_shipyards",
    "Mongolia: the facts make it China's capital (a TripleA device); the rulebook names six "
    "capitals and none for China (Capturing and Liberating Capitals), so it is neutral",
    "Saudi Arabia: the facts give it a British owner; the rulebook lists it as neutral "
    "(Game Board: neutral territories)",
    "Flying Tigers: the facts' Chinese fighter in Yunnan is the U.S. volunteer fighter that "
    "counts as Chinese (China Rules, pg. 10); it is placed for China with flying_tigers = true",
]
NEUTRAL_BY_RULEBOOK = {"Mongolia", "Saudi Arabia"}

# Victory city names by territory. The facts mark the 18 territories; the rulebook names the
# cities (Setup) but not where they stand: this pairing is the digest's (inferred).
CITY_NAMES = {
    "Germany": "Berlin", "France": "Paris", "Poland": "Warsaw", "Italy": "Rome",
    "Japan": "Tokyo", "Kiangsu": "Shanghai", "Kwangtung": "Hong Kong",
    "Philippine Islands": "Manila", "Eastern United States": "Washington",
    "Western United States": "San Francisco", "Hawaiian Islands": "Honolulu",
    "United Kingdom": "London", "India": "Calcutta", "Australia": "Sydney",
    "Eastern Canada": "Ottawa", "Russia": "Moscow", "Caucasus": "Stalingrad",
    "Karelia S.S.R.": "Leningrad",
}

HEADER = ("# Generated by installers/tools/aa_import_facts.py from "
          "reference/data/aa_anniversary_facts.json.\n# Do not edit by hand: change the tool "
          "and run it again.\n")


def q(v: Any) -> str:
    """A TOML value."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list | tuple):
        return "[" + ", ".join(q(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {q(x)}" for k, x in v.items()) + " }"
    raise TypeError(type(v).__name__)


def _flag(d: dict[str, Any], key: str) -> bool:
    return str(d.get(key, "false")).lower() == "true"


def _int(d: dict[str, Any], key: str, default: int = 0) -> int:
    return int(d.get(key, default))


def units_toml(types: dict[str, dict[str, Any]]) -> str:
    out = [HEADER, "# Unit Profiles (pg. 24). Combat keys are read by combat.py; "
           "factors = [attack, defense].\n", f"# Correction: {RULEBOOK_CORRECTIONS[0]}\n"]
    if set(types) != set(UNITS):
        odd = sorted(set(types) ^ set(UNITS))
        raise SystemExit(f"unit types differ from the known list: {odd}")
    for key, meta in UNITS.items():
        t = types[key]
        uid = meta["id"]
        sea, air = _flag(t, "isSea"), _flag(t, "isAir")
        factory, aa = _flag(t, "isFactory"), _flag(t, "isAA")
        land = not sea and not air and not factory
        attack, defense = _int(t, "attack"), _int(t, "defense")
        cost = int(t["cost"])
        rows: dict[str, Any] = {"id": uid, "name": meta["name"], "symbol": meta["symbol"]}
        # An AA gun prints "Attack: —, Defense: 1 (see below)": the 1 is its shot at aircraft.
        rows["factors"] = [] if factory else ([0, 1] if aa else [attack, defense])
        rows["movement"] = _int(t, "movement")
        page = f", pg. {meta['page']}" if meta["page"] else ""
        rows["rule"] = f"Unit Profiles: {meta['name']}{page}"
        if uid in RULEBOOK_SHIP_COSTS:
            rows["cost"] = RULEBOOK_SHIP_COSTS[uid]
            rows["cost_improved_shipyards"] = cost
        else:
            rows["cost"] = cost
        rows["attack"] = attack
        rows["defense"] = defense
        rows["hits"] = _int(t, "hitPoints", 1) if sea else 1
        rows["domain"] = "sea" if sea else "air" if air else "structure" if factory else "land"
        rows["is_land"] = land
        rows["is_air"] = air
        rows["is_sea"] = sea
        rows["is_sub"] = _flag(t, "isSub")
        rows["is_destroyer"] = _flag(t, "isDestroyer")
        rows["is_transport"] = sea and _int(t, "transportCapacity") > 0
        # Surface warships: battleships, carriers, cruisers, destroyers (Sea Units, pg. 28).
        rows["is_surface_warship"] = sea and not rows["is_sub"] and not rows["is_transport"]
        rows["is_aa"] = aa
        rows["aa_value"] = 1 if aa else 0  # hits aircraft on a 1 (Antiaircraft Guns, pg. 25)
        rows["is_factory"] = factory
        rows["can_capture"] = land and not aa  # infantry, artillery, tanks (Land Units, pg. 24)
        rows["can_bombard"] = _flag(t, "canBombard")
        rows["can_blitz"] = _flag(t, "canBlitz")
        rows["is_infantry"] = _flag(t, "isInfantry")  # supported by artillery on attack
        rows["supports_infantry"] = 1 if _flag(t, "artillery") else 0
        rows["strategic_bomber"] = _flag(t, "isStrategicBomber")
        rows["transport_cost"] = _int(t, "transportCost")  # capacity units; infantry 2, others 3
        rows["transport_capacity"] = _int(t, "transportCapacity") if sea else 0
        rows["carrier_cost"] = _int(t, "carrierCost")
        rows["carrier_capacity"] = _int(t, "carrierCapacity")
        if air and _int(t, "transportCapacity"):
            rows["paratrooper_capacity"] = _int(t, "transportCapacity")  # Paratroopers (pg. 12)
        out.append("\n[[units]]\n")
        out.extend(f"{k} = {q(v)}\n" for k, v in rows.items())
    out.append("\n# A transport carries one land unit plus one infantry (Unit Profiles: "
               "Transports): capacity 5 in transport_cost units.\n")
    return "".join(out)


def game_toml(facts: dict[str, Any]) -> str:
    s = facts["1941"]
    out = [HEADER, "# Axis & Allies Anniversary Edition: the powers, options and alliances.\n"]
    out.append('[game]\nid = "aa_anniversary"\ntitle = "Axis & Allies Anniversary Edition"\n'
               'data_version = "1"\nmaps = ["aa_anniversary/world"]\nenforcement = "enforced"\n')
    for name in s["players"]:
        p = POWERS[name]
        out.append("\n[[sides]]\n")
        for k in ("id", "name", "colour", "text_colour", "alt_colour"):
            out.append(f"{k} = {q(p[k])}\n")
    options = [
        ("research", "Research & Development", False, "Phase 1: Research & Development",
         "Buy researcher tokens and roll for breakthroughs."),
        ("national_objectives", "National Objectives & Bonus Income", False,
         "National Objectives & Bonus Income",
         "Each power earns 5 or more IPCs a turn for holding its historical objectives."),
        ("dardanelles_closed", "Dardanelles closed to sea movement", False,
         "Additional Optional Rules (pg. 24)", "No sea unit may move into or out of sea zone 16."),
        ("escorts_interceptors", "Fighter escorts and interceptors", False,
         "Additional Optional Rules (pg. 24)",
         "Fighters escort strategic bombing raids and intercept them."),
        ("victory_cities", "Victory cities to win", 15, "How to Win",
         "13 (Projection), 15 (Surrender with Honor) or 18 (Total War)."),
    ]
    for oid, name, default, rule, desc in options:
        out.append(f"\n[[options]]\nid = {q(oid)}\nname = {q(name)}\ndefault = {q(default)}\n"
                   f"rule = {q(rule)}\ndescription = {q(desc)}\n")
    out.append("\n# Summary of Play: two sides; China is run by the U.S. player.\n"
               "[tables.alliances]\n")
    teams: dict[str, list[str]] = {}
    for name in s["players"]:
        teams.setdefault(s["alliances"][name].lower(), []).append(POWERS[name]["id"])
    for team, members in teams.items():
        out.append(f"{team} = {q(members)}\n")
    out.append("\n# Each power: facts' name, side, capital city (Capturing and Liberating "
               "Capitals).\n")
    for name in s["players"]:
        p = POWERS[name]
        out.append(f"[tables.powers.{p['id']}]\nfacts_name = {q(name)}\n"
                   f"alliance = {q(s['alliances'][name].lower())}\ncapital = {q(p['capital'])}\n")
    out.append('\n[tables.victory]   # How to Win\ncities = 18\ngoals = [13, 15, 18]\n'
               'checked = "end of round"   # at the end of the United States turn\n')
    return "".join(out)


def territories_toml(facts: dict[str, Any]) -> str:
    s41, s42 = facts["1941"], facts["1942"]
    by42 = {t["name"]: t for t in s42["territories"]}
    out = [HEADER,
           "# Every space of the world map by id (ids.space_id): name, sea, IPC value, "
           "victory city,\n# capital, original controller (the printed national symbol) and "
           "neutral (impassable).\n# The current controller at setup is per scenario "
           "(scenario vars.control).\n"]
    out.extend(f"# Correction: {c}\n" for c in RULEBOOK_CORRECTIONS[1:3])
    seen: set[str] = set()
    for t in s41["territories"]:
        name = t["name"]
        sid = space_id(name)
        if sid in seen:
            raise SystemExit(f"two spaces make the id {sid!r}")
        seen.add(sid)
        row: dict[str, Any] = {"name": name if not t["sea"] else f"Sea Zone {int(name.split()[0])}",
                               "sea": bool(t["sea"])}
        if not t["sea"]:
            neutral = bool(t.get("impassable")) or name in NEUTRAL_BY_RULEBOOK
            # original controller: explicit in either scenario, else the 1941 owner
            orig = t.get("original_owner") or by42[name].get("original_owner") or t.get("owner")
            row["ipc"] = int(t.get("ipc", 0))
            row["neutral"] = neutral
            row["original_owner"] = "" if neutral else POWERS[orig]["id"] if orig else ""
            cap = t.get("capital_of")
            row["capital_of"] = POWERS[cap]["id"] if cap and name not in NEUTRAL_BY_RULEBOOK else ""
            row["victory_city"] = CITY_NAMES.get(name, "") if t.get("victory_city") else ""
            if t.get("victory_city") and name not in CITY_NAMES:
                raise SystemExit(f"victory city in {name!r} has no city name")
        out.append(f"\n[tables.spaces.{sid}]\n")
        out.extend(f"{k} = {q(v)}\n" for k, v in row.items())
    return "".join(out)


def connections_toml(facts: dict[str, Any]) -> str:
    s = facts["1941"]
    out = [HEADER, "# Adjacency of the world map (pairs of space ids, each once) and the canals "
           "(Canals).\n[tables]\nadjacency = [\n"]
    pairs = sorted(tuple(sorted((space_id(a), space_id(b)))) for a, b in s["connections"])
    if len(set(pairs)) != len(pairs):
        raise SystemExit("duplicate adjacency")
    out.extend(f"  [{q(a)}, {q(b)}],\n" for a, b in pairs)
    out.append("]\n")
    for name, c in s["canals"].items():
        cid = space_id(name)
        out.append(f"\n[tables.canals.{cid}]\nname = {q(name)}\n"
                   f"sea_zones = {q([space_id(z) for z in c['sea_zones']])}\n"
                   f"controlled_by = {q([space_id(t) for t in c['land']])}\n")
    return "".join(out)


def scenario_toml(facts: dict[str, Any], year: str) -> str:
    s = facts[year]
    order = [POWERS[p]["id"] for p in s["players"]]
    out = [HEADER, f"# The {year} scenario: turn order (Order of Play, pg. 11), starting IPCs and "
           "control (Setup),\n# and every unit of the national setup charts.\n",
           f"# Correction: {RULEBOOK_CORRECTIONS[3]}\n"]
    out.append(f'\n[[scenarios]]\nid = "{year}"\nname = "{year}"\n')
    desc = ("Operation Barbarossa and Pearl Harbor: Germany moves first."
            if year == "1941" else "The Axis high-water mark: Japan moves first.")
    out.append(f"description = {q(desc)}\nfirst_turn = 1\n"
               "last_turn = 99   # no turn limit: the game ends on victory cities (How to Win)\n")
    out.append("setup = [\n")
    for p in s["placements"]:
        side = POWERS[p["owner"]]["id"]
        unit = UNITS[p["unit"]]["id"]
        entry: dict[str, Any] = {"type": unit, "side": side, "location": space_id(p["territory"]),
                                 "count": int(p["qty"])}
        if side == "china" and unit == "fighter":
            entry["flying_tigers"] = True  # a U.S. fighter counted as Chinese (China Rules)
        out.append(f"  {q(entry)},\n")
    out.append("]\n\n[scenarios.vars]\n")
    out.append(f"turn_order = {q(order)}\n")
    out.append("starting_ipcs = { " + ", ".join(
        f"{POWERS[k]['id']} = {int(v)}" for k, v in s["starting_ipcs"].items()) + " }\n")
    out.append("\n# Who controls each non-neutral territory at the start (Setup, step 7: "
               "pre-occupied territories).\n[scenarios.vars.control]\n")
    for t in s["territories"]:
        if t["sea"] or t.get("impassable") or t["name"] in NEUTRAL_BY_RULEBOOK:
            continue
        if t.get("owner"):
            out.append(f"{space_id(t['name'])} = {q(POWERS[t['owner']]['id'])}\n")
    return "".join(out)


# Turn Sequence (Order of Play, pg. 11): the seven phases of a power's turn, as the steps
# of one phase repeated for each power.
TURN_STEPS = [
    ("research", "Research & Development", "Phase 1: Research & Development", "option:research",
     "Buy researcher tokens (5 IPCs each), then roll for a breakthrough."),
    ("purchase", "Purchase Units", "Phase 2: Purchase Units", "capital_held",
     "Order units and repair damaged industrial complexes; they wait in the mobilization "
     "zone."),
    ("combat_move", "Combat Move", "Phase 3: Combat Move", "",
     "Move units into hostile spaces and announce amphibious assaults."),
    ("conduct_combat", "Conduct Combat", "Phase 4: Conduct Combat", "",
     "Resolve strategic bombing raids, then amphibious assaults, then every other battle, "
     "in the order you choose."),
    ("noncombat_move", "Noncombat Move", "Phase 5: Noncombat Move (pg. 21)", "",
     "Move units that did not move or fight, and land your aircraft."),
    ("mobilize", "Mobilize New Units", "Phase 6: Mobilize New Units", "capital_held",
     "Place the units you bought at your industrial complexes."),
    ("collect_income", "Collect Income", "Phase 7: Collect Income", "capital_held",
     "Collect IPCs equal to your national production level."),
]


def sequence_toml() -> str:
    out = [HEADER.replace(" from reference/data/aa_anniversary_facts.json", ""), """\
# Turn Sequence (Order of Play, pg. 11): each power plays the seven phases in turn.
# Conditions the game's rules evaluate:
#   option:research  the optional R&D rule is on (Phase 1 is skipped otherwise)
#   capital_held     the power holds its capital: a power whose capital is enemy-held plays
#                    only Combat Move, Conduct Combat and Noncombat Move (Capturing and
#                    Liberating Capitals). China has no capital (always true).
# The round ends after the last power; victory is checked at the end of the U.S. turn.

[sequence]
[[sequence.phases]]
id = "turn"
name = "{side} turn"
for_each_side = true
rule = "Order of Play (pg. 11)"
steps = [
"""]
    for sid, name, rule, cond, prompt in TURN_STEPS:
        step = {"id": sid, "name": name, "kind": sid, "rule": rule}
        if cond:
            step["condition"] = cond
        step["prompt"] = prompt
        out.append(f"  {q(step)},\n")
    out.append("""]

[[sequence.phases]]
id = "end_of_round"
name = "End of round"
rule = "How to Win"
steps = [
""")
    out.append("  " + q({"id": "victory_check", "name": "Check for victory",
                         "kind": "victory_check", "rule": "How to Win",
                         "prompt": "A side holding the agreed number of victory cities wins."})
               + ",\n]\n")
    return "".join(out)


def generate(facts: dict[str, Any]) -> dict[str, str]:
    return {
        "game.toml": game_toml(facts),
        "units.toml": units_toml(facts["1941"]["unit_types"]),
        "territories.toml": territories_toml(facts),
        "connections.toml": connections_toml(facts),
        "scenario_1941.toml": scenario_toml(facts, "1941"),
        "scenario_1942.toml": scenario_toml(facts, "1942"),
        "sequence.toml": sequence_toml(),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("facts", type=Path)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    a = ap.parse_args(argv)
    facts = json.loads(a.facts.read_text(encoding="utf-8"))
    a.out.mkdir(parents=True, exist_ok=True)
    init = a.out / "__init__.py"
    if not init.exists():
        init.write_text('"""Axis & Allies Anniversary Edition data files (TOML), generated '
                        'by\ninstallers/tools/aa_import_facts.py."""\n', encoding="utf-8")
    for name, text in generate(facts).items():
        (a.out / name).write_text(text, encoding="utf-8")
        print(f"wrote {a.out / name}")
    for year in ("1941", "1942"):
        n = Counter(p["owner"] for p in facts[year]["placements"])
        print(year, "placements by power:", dict(n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
