"""Owners' corrections to a built hex map: terrain per hex, hexside features, place names.

Edits made in the app's map editor live in an override file, applied on load on top of
the built map, so a rebuild from the sources never loses them, and the file can be
exported and shared. Format (JSON):

    {"format": "wartable-map-overrides", "format_version": 1, "map": "whatif1940/east",
     "hexes": {"4624": {"terrain": "forest"}},
     "hexsides": [{"a": "4624", "b": "4625", "features": ["river"]}],
     "places": {"Moscow": "Moskva"}}

A hexside entry replaces that hexside's features ([] removes them all); a place entry
renames a place. Validated on load with errors naming the entry, like map files.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any

from wartable.core.errors import MapError
from wartable.core.frozen import FrozenMap
from wartable.core.hexgrid import Hexside
from wartable.maps.model import HexInfo, HexMap
from wartable.model.parse import Reader

FORMAT = "wartable-map-overrides"
FORMAT_VERSION = 1


@dataclass(frozen=True, slots=True)
class MapOverrides:
    map_id: str
    terrain: FrozenMap[str, str] = field(default_factory=FrozenMap)  # hex label -> terrain
    hexsides: FrozenMap[tuple[str, str], tuple[str, ...]] = field(default_factory=FrozenMap)
    renames: FrozenMap[str, str] = field(default_factory=FrozenMap)  # place name -> new name

    @property
    def empty(self) -> bool:
        return not (self.terrain or self.hexsides or self.renames)

    def with_terrain(self, label: str, terrain: str) -> MapOverrides:
        return replace(self, terrain=self.terrain.set(label, terrain))

    def with_hexside(self, a: str, b: str, features: tuple[str, ...]) -> MapOverrides:
        key = (a, b) if a <= b else (b, a)
        return replace(self, hexsides=self.hexsides.set(key, tuple(sorted(set(features)))))

    def with_rename(self, old: str, new: str) -> MapOverrides:
        # Renaming twice keeps the chain short: the original name maps to the latest.
        for orig, cur in self.renames.items():
            if cur == old:
                return replace(self, renames=self.renames.set(orig, new))
        return replace(self, renames=self.renames.set(old, new))


def apply_overrides(m: HexMap, o: MapOverrides, source: str = "overrides") -> HexMap:
    """The map with the corrections applied; MapError names any entry that does not fit
    this map (an unknown hex or terrain, a hexside between hexes that do not touch)."""
    if o.map_id != m.id:
        raise MapError(source, "map", f"these corrections are for {o.map_id!r}, not {m.id!r}")
    hexes = dict(m.hexes)
    for label, terrain in o.terrain.items():
        h = _hex(m, label, source, f"hexes.{label}")
        if terrain not in m.terrain_types:
            raise MapError(source, f"hexes.{label}.terrain",
                           f"unknown terrain {terrain!r}; this map has "
                           f"{', '.join(sorted(m.terrain_types))}")
        hexes[h] = replace(hexes[h], terrain=terrain)
    sides = dict(m.hexsides)
    for (a, b), feats in o.hexsides.items():
        ha, hb = _hex(m, a, source, "hexsides"), _hex(m, b, source, "hexsides")
        try:
            side = Hexside.between(ha, hb)
        except ValueError:
            raise MapError(source, f"hexsides {a}-{b}", "the two hexes do not touch") from None
        if feats:
            sides[side] = feats
        else:
            sides.pop(side, None)
    places = list(m.places)
    if o.renames:
        names = {p.name for p in places}
        for old in o.renames:
            if old not in names:
                raise MapError(source, f"places.{old}", f"no place named {old!r} on {m.id}")
        places = [replace(p, name=o.renames.get(p.name, p.name)) for p in places]
        hexes = {h: _renamed(info, o.renames) for h, info in hexes.items()}
    return replace(m, hexes=FrozenMap(hexes), hexsides=FrozenMap(sides), places=tuple(places))


def _renamed(info: HexInfo, renames: FrozenMap[str, str]) -> HexInfo:
    if not any(n in renames for n in info.places):
        return info
    return replace(info, places=tuple(renames.get(n, n) for n in info.places))


def _hex(m: HexMap, label: str, source: str, where: str) -> Any:
    try:
        return m.hex_of(label)
    except KeyError:
        raise MapError(source, where, f"there is no hex {label!r} on {m.id}") from None


def dump_overrides(o: MapOverrides) -> bytes:
    doc = {
        "format": FORMAT, "format_version": FORMAT_VERSION, "map": o.map_id,
        "hexes": {k: {"terrain": v} for k, v in sorted(o.terrain.items())},
        "hexsides": [{"a": a, "b": b, "features": list(f)}
                     for (a, b), f in sorted(o.hexsides.items())],
        "places": dict(sorted(o.renames.items())),
    }
    return (json.dumps(doc, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def load_overrides(data: bytes, source: str) -> MapOverrides:
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise MapError(source, "", f"not a JSON text file ({e}); is this a map corrections "
                       "file?") from None
    r = Reader(doc, source, error=MapError, table_word="an object")
    r.known("format", "format_version", "map", "hexes", "hexsides", "places")
    if r.text("format") != FORMAT:
        raise r.fail("format", f"must be {FORMAT!r}: this is not a map corrections file")
    version = r.integer("format_version", minimum=1)
    if version > FORMAT_VERSION:
        raise r.fail("format_version", f"is {version}: made by a newer Wartable; update it")
    terrain = {}
    for label in r.opt_table("hexes"):
        h = r.sub("hexes").sub(label)
        h.known("terrain")
        terrain[str(label)] = h.text("terrain", nonempty=True)
    sides: dict[tuple[str, str], tuple[str, ...]] = {}
    for s in r.opt_items("hexsides"):
        s.known("a", "b", "features")
        a, b = s.text("a", nonempty=True), s.text("b", nonempty=True)
        sides[(a, b) if a <= b else (b, a)] = tuple(sorted(set(s.seq("features", of="text"))))
    renames = {}
    for old in r.opt_table("places"):
        renames[str(old)] = r.sub("places").text(old, nonempty=True)
    return MapOverrides(r.text("map", nonempty=True), FrozenMap(terrain), FrozenMap(sides),
                        FrozenMap(renames))


__all__ = ["MapOverrides", "apply_overrides", "dump_overrides", "load_overrides"]
