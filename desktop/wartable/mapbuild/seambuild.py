"""Build a seam file (maps/<game>/seams.json) from a seam spec (maps/sources/seams/*.toml) and
the two built maps it joins (issue 19: the AETO West and East maps as one theatre).

Each hex is West or East ground by where its centre lies (longitude against the spec's line).
A hex of one map joins a hex of the other when a neighbour of it lies across the line and the
other map's hex holds the point just past their shared hexside: the hexes that touch on the
table. Deterministic: everything is sorted.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wartable.core.errors import DataError
from wartable.core.hexgrid import Hex
from wartable.maps.model import HexMap

XY = tuple[float, float]


@dataclass(frozen=True, slots=True)
class SeamSpec:
    id: str
    west: str
    east: str
    line: tuple[XY, ...]  # (lon, lat), north to south
    west_hexes: tuple[str, ...]
    east_hexes: tuple[str, ...]
    path: Path


def load_seam_spec(path: Path) -> SeamSpec:
    try:
        d = tomllib.loads(path.read_text(encoding="utf-8"))
        line = tuple((float(lo), float(la)) for lo, la in d["line"])
        spec = SeamSpec(str(d["id"]), str(d["west"]), str(d["east"]), line,
                        tuple(d.get("west_hexes", ())), tuple(d.get("east_hexes", ())), path)
    except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError, ValueError) as e:
        raise DataError(str(path), "", f"not a seam spec: {e!r}") from None
    lats = [la for _, la in spec.line]
    if len(lats) < 2 or lats != sorted(lats, reverse=True):
        raise DataError(str(path), "line", "give two or more (lon, lat) points, north to south")
    return spec


def seam_specs(sources: Path) -> list[Path]:
    return sorted((sources / "seams").glob("*.toml"))


def seam_lon(line: tuple[XY, ...], lat: float) -> float:
    """The line's longitude at a latitude (linear between points, constant past the ends)."""
    if lat >= line[0][1]:
        return line[0][0]
    for (lo0, la0), (lo1, la1) in zip(line, line[1:], strict=False):
        if la1 <= lat <= la0:
            t = (la0 - lat) / (la0 - la1)
            return lo0 + t * (lo1 - lo0)
    return line[-1][0]


def is_west(line: tuple[XY, ...], lon: float, lat: float) -> bool:
    return lon < seam_lon(line, lat)


class _Side:
    """One map with its georeference: which side each hex centre is on."""

    def __init__(self, m: HexMap, georef: Any, line: tuple[XY, ...], west: bool) -> None:
        self.m, self.g, self.line, self.west = m, georef, line, west
        self._cache: dict[Hex, XY] = {}
        self.other: _Side | None = None

    def lonlat(self, h: Hex) -> XY:
        got = self._cache.get(h)
        if got is None:
            x, y = self.m.layout.hex_to_pixel(h)
            got = self._cache[h] = self.g.to_lonlat(x, y)
        return got

    def own(self, h: Hex) -> bool:
        """On this map's side of the line, or where the other map has no hex (north of the
        West map's top edge only the East map has ground, whatever the line says)."""
        lon, lat = self.lonlat(h)
        if is_west(self.line, lon, lat) == self.west:
            return True
        return self.other is not None and not self.other.covers(lon, lat)

    def covers(self, lon: float, lat: float) -> bool:
        return self.hex_at(lon, lat) is not None

    def hex_at(self, lon: float, lat: float) -> Hex | None:
        x, y = self.g.to_map(lon, lat)
        h = self.m.layout.hex_at(x, y)
        return h if h in self.m.hexes else None


def _pairs(a: _Side, b: _Side, lost: list[str] | None = None) -> set[tuple[str, str]]:
    """(a label, b label): a's own hexes on the seam (a neighbour lies across the line) and
    b's own hexes whose centres lie within JOIN_REACH hex spacings of theirs on the table
    (the nearest one at least); `lost` gets a's seam hexes that meet no hex of b."""
    out: set[tuple[str, str]] = set()
    for h in sorted(a.m.hexes, key=lambda k: (k.q, k.r)):
        if not a.own(h):
            continue
        across = [n for n in h.neighbors() if not a.own(n)]
        if not across:
            continue
        cx, cy = a.m.layout.hex_to_pixel(h)
        step = _dist((cx, cy), a.m.layout.hex_to_pixel(across[0]))
        near: set[Hex] = set()
        for n in across:
            nx, ny = a.m.layout.hex_to_pixel(n)
            e = b.hex_at(*a.g.to_lonlat(nx, ny))
            if e is not None:
                near |= {k for k in (e, *e.neighbors()) if k in b.m.hexes and b.own(k)}
        scored = sorted((_dist((cx, cy), a.g.to_map(*b.lonlat(k))) / step, b.m.label_of(k))
                        for k in near)
        got = [lab for d, lab in scored if d <= JOIN_REACH] or [lab for _, lab in scored[:1]]
        out |= {(a.m.label_of(h), lab) for lab in got}
        if not got and lost is not None and b.covers(*a.lonlat(h)):
            lost.append(a.m.label_of(h))
    return out


# Centres this close (in hex spacings) touch on the table: neighbours are 1.0 apart and the two
# maps differ a little in scale and north; the second ring is 1.73 away. A seam hex with none
# so close (both maps' hexes beside it lie just across the line) joins its nearest.
JOIN_REACH = 1.25


def _dist(p: XY, q: XY) -> float:
    return float(((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2) ** 0.5)


@dataclass(frozen=True, slots=True)
class SeamResult:
    data: dict[str, Any]
    report: str
    ok: bool


def build_seam(spec: SeamSpec, west: HexMap, west_geo: Any, east: HexMap,
               east_geo: Any) -> SeamResult:
    w = _Side(west, west_geo, spec.line, True)
    e = _Side(east, east_geo, spec.line, False)
    w.other, e.other = e, w
    lost: list[str] = []
    joins = _pairs(w, e, lost) | {(a, b) for b, a in _pairs(e, w, lost)}
    beyond = {
        spec.west: sorted(west.label_of(h) for h in west.hexes if not w.own(h)),
        spec.east: sorted(east.label_of(h) for h in east.hexes if not e.own(h)),
    }
    data = {"id": spec.id, "west": spec.west, "east": spec.east,
            "line": [list(p) for p in spec.line],
            "note": "joins: (west hex, east hex) pairs that touch across the seam; beyond: "
                    "hexes on the other map's ground. Built by 'wartable map build' from "
                    f"maps/sources/seams/{spec.path.name}.",
            "joins": [list(p) for p in sorted(joins)], "beyond": beyond}
    lines = [f"Seam {spec.id}: {spec.west} | {spec.east}  (spec maps/sources/seams/"
             f"{spec.path.name})",
             "  line (lon, lat, north to south): "
             + ", ".join(f"({lo:g}, {la:g})" for lo, la in spec.line),
             f"  {len(joins)} join pairs; "
             f"{len({a for a, _ in joins})} west hexes and {len({b for _, b in joins})} east "
             "hexes on the seam"]
    ok = not lost
    lines.append(f"  {'ok  ' if not lost else 'FAIL'} every hex on the seam meets a hex of the "
                 "other map" + (f" except {', '.join(sorted(lost))}" if lost else ""))
    lines.append("Texts' hexes on their own map's side:")
    for side, labels, m in ((w, spec.west_hexes, west), (e, spec.east_hexes, east)):
        for lab in labels:
            try:
                h = m.hex_of(lab)
            except KeyError:
                lines.append(f"  FAIL {lab}: not on {m.id}")
                ok = False
                continue
            good = side.own(h)
            ok &= good
            lon, lat = side.lonlat(h)
            lines.append(f"  {'ok  ' if good else 'FAIL'} {lab} ({lon:.2f} E, {lat:.2f} N)"
                         f"{'' if good else ' is beyond the seam'}")
    for m in (west, east):
        land = [lab for lab in beyond[m.id] if m.info(lab).terrain not in ("sea", "lake")]
        lines.append(f"Beyond the seam on {m.id} (the other map's ground; kept, not "
                     f"renumbered): {len(beyond[m.id])} hexes, {len(land)} of them land:")
        for i in range(0, len(land), 12):
            lines.append("  " + " ".join(x.split()[-1] for x in land[i:i + 12]))
    lines.append("ALL CHECKS PASS" if ok else "SOME CHECKS FAIL")
    return SeamResult(data, "\n".join(lines) + "\n", ok)


def seam_files(spec: SeamSpec, maps: Path, loader: Any) -> tuple[dict[Path, bytes], str]:
    """The seam's files (seams.json, seams.report.txt) from the built maps in `maps`."""
    (wm, wp), (em, ep) = loader(spec.west), loader(spec.east)
    res = build_seam(spec, wm, _georef(wp), em, _georef(ep))
    folder = maps / spec.id
    return ({folder / "seams.json": _dump(res.data).encode("utf-8"),
             folder / "seams.report.txt": res.report.encode("utf-8")}, res.report)


def _dump(data: dict[str, Any]) -> str:
    """JSON with one join pair per line (a diff then shows which pairs changed)."""
    head = {k: v for k, v in data.items() if k not in ("line", "joins", "beyond")}
    text = json.dumps(head, indent=1)[:-2] + f',\n "line": {json.dumps(data["line"])}'
    text += ',\n "joins": [\n'
    text += ",\n".join("  " + json.dumps(p) for p in data["joins"]) + "\n ],\n"
    text += ' "beyond": {\n' + ",\n".join(
        f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in data["beyond"].items()) + "\n }\n}\n"
    return text


def _georef(path: Path) -> Any:
    from wartable.mapbuild.hexbuild import Georef

    stem = path.name.removesuffix(".gz").removesuffix(".json")
    return Georef.from_dict(json.loads(path.with_name(f"{stem}.geo.json").read_text("utf-8")))
