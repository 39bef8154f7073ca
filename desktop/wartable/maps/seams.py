"""A seam: two hex maps of one theatre laid side by side (the AETO West and East maps).

A seam file (``maps/<game>/seams.json``, written by ``wartable map build``) says which hexes
meet across the join (``joins``: a hex of the west map next to a hex of the east map, as on the
table) and which hexes of each map lie beyond the seam, on the other map's ground (``beyond``:
shown on the printed sheet's overlap but played on the other map). A unit on a hex next to the
seam moves on into any hex `joined` gives. `seam_of(map_id)` finds a map's seam (None for a
map that stands alone).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from wartable.core.errors import DataError


@dataclass(frozen=True, slots=True)
class Seam:
    id: str
    west: str  # map id
    east: str
    joins: tuple[tuple[str, str], ...]  # (west label, east label)
    beyond: tuple[tuple[str, frozenset[str]], ...] = ()  # (map id, labels on the other's ground)
    _index: dict[tuple[str, str], tuple[tuple[str, str], ...]] = field(
        init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        idx: dict[tuple[str, str], list[tuple[str, str]]] = {}
        for w, e in self.joins:
            idx.setdefault((self.west, w), []).append((self.east, e))
            idx.setdefault((self.east, e), []).append((self.west, w))
        object.__setattr__(self, "_index", {k: tuple(v) for k, v in idx.items()})

    def joined(self, map_id: str, label: str) -> tuple[tuple[str, str], ...]:
        """The (map id, label) hexes across the seam from this hex; () if it is not on it."""
        return self._index.get((map_id, label), ())

    def owns(self, map_id: str, label: str) -> bool:
        """False for a hex on the other map's ground (beyond the seam)."""
        return not any(m == map_id and label in labels for m, labels in self.beyond)


def seam_from_dict(d: object, source: str) -> Seam:
    if not isinstance(d, dict):
        raise DataError(source, "", "a seam file is a JSON object")
    try:
        west, east = str(d["west"]), str(d["east"])
        joins = tuple((str(w), str(e)) for w, e in d["joins"])
        beyond = tuple((str(m), frozenset(str(x) for x in labels))
                       for m, labels in sorted(d.get("beyond", {}).items()))
        return Seam(str(d["id"]), west, east, joins, beyond)
    except (KeyError, TypeError, ValueError) as e:
        raise DataError(source, "", f"not a seam file: {e!r}") from None


def load_seam(path: Path) -> Seam:
    """Read a seam file; a clear DataError when it is not one."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise DataError(str(path), "", f"cannot read the seam file: {e}") from None
    return seam_from_dict(data, str(path))


def seam_of(map_id: str) -> Seam | None:
    """The seam joining this map to another of its game ("aeto/west" -> maps/aeto/seams.json),
    or None when the game has none (most maps stand alone)."""
    from wartable.maps.files import maps_dir

    path = maps_dir() / map_id.partition("/")[0] / "seams.json"
    if not path.is_file():
        return None
    seam = load_seam(path)
    return seam if map_id in (seam.west, seam.east) else None
