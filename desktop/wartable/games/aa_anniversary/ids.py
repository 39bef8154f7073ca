"""Space ids of the Anniversary Edition world map.

The rule, shared with the world-map build (another module builds the map with exactly
these ids, so both must follow it to the letter):

- a sea zone "N Sea Zone" becomes "sz" + N in two digits: "1 Sea Zone" -> "sz01",
  "65 Sea Zone" -> "sz65";
- any other name is lower-cased, "&" becomes "and", apostrophes and periods are dropped,
  every other run of characters that are not a-z or 0-9 becomes one "_", and leading or
  trailing "_" are stripped: "Western United States" -> "western_united_states",
  "Karelia S.S.R." -> "karelia_ssr", "Anglo-Egypt Sudan" -> "anglo_egypt_sudan".
"""

from __future__ import annotations

import re

_SEA_ZONE = re.compile(r"^\s*(\d+)\s+Sea\s+Zone\s*$", re.IGNORECASE)
_DROPPED = re.compile(r"['\u2019.]")
_SEPARATORS = re.compile(r"[^a-z0-9]+")


def space_id(name: str) -> str:
    """The map id of a territory or sea zone named as in the facts ("1 Sea Zone", "Egypt")."""
    m = _SEA_ZONE.match(name)
    if m:
        return f"sz{int(m.group(1)):02d}"
    s = name.lower().replace("&", " and ")
    s = _DROPPED.sub("", s)
    s = _SEPARATORS.sub("_", s).strip("_")
    if not s:
        raise ValueError(f"space name {name!r} has no letters or digits to make an id from")
    return s
