"""Map files: JSON (optionally gzip), validated on load, written byte-for-byte deterministically.

Format (``format_version`` 1). Top level, common to both kinds::

    {"format": "wartable-map", "format_version": 1, "kind": "hex" | "area",
     "id": "whatif1940/east", "title": "...", "version": 3,
     "boxes": [{"id", "name", "x", "y", "w", "h"}], "places": [{"name", "kind", "at"}],
     "provisional": false, "notes": ""}

Hex maps add ``layout`` ({"orientation": "flat"|"pointy", "size_x", "size_y", "origin_x",
"origin_y"}), ``labels`` ({"offset": "odd-q"|"even-q"|"odd-r"|"even-r", "column_first",
"col_start", "row_start", "col_dir", "row_dir", "col_digits", "row_digits", "prefix",
"separator"}), ``hex_size_miles`` (number or null), ``terrain_types`` ([{"id", "name", "fill",
"pattern"}]), ``hexes`` ([{"label", "terrain", "region"?, "features"?}]) and ``hexsides``
([{"a": "4624", "b": "4625", "features": [...]}]). A place's ``at`` is a hex label; the
per-hex place list (`HexInfo.places`) is derived from ``places`` on load, never stored twice.

Area maps add ``spaces`` ([{"id", "name", "kind": "land"|"sea", "polygon": a GeoJSON
Polygon/MultiPolygon geometry object, "label_point": [x, y]}]), ``adjacency`` ([["a", "b"]])
and ``extent`` ([minx, miny, maxx, maxy] or null).

Unknown fields are errors (a misspelt "hexsides" must not silently drop every river); a
later format that adds fields bumps ``format_version``, which older apps refuse clearly.
Writing: keys sorted, mappings sorted (hexes by label, hexsides by their hexes, terrain and
spaces by id), tuples in their own order, one list item per line so built maps diff well.
"""

from __future__ import annotations

import gzip
import io
import json
import math
import os
import zlib
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar

from shapely.geometry import MultiPolygon, Polygon  # type: ignore[import-untyped,unused-ignore]
from shapely.validation import explain_validity  # type: ignore[import-untyped,unused-ignore]

from wartable.core.errors import MapError
from wartable.core.frozen import FrozenMap
from wartable.core.hexgrid import (
    Hex,
    Hexside,
    LabelScheme,
    Layout,
    OffsetKind,
    Orientation,
)
from wartable.core.jsonkind import json_kind
from wartable.maps.model import (
    PLACE_KINDS,
    SPACE_KINDS,
    AreaMap,
    Bounds,
    HexInfo,
    HexMap,
    OffMapBox,
    Place,
    Space,
    TerrainType,
    is_colour,
    places_index,
)

FORMAT = "wartable-map"
FORMAT_VERSION = 1
MAX_MAP_BYTES = 200 * 1024 * 1024  # refused before parsing (and after gunzip)
_GZIP_MAGIC = b"\x1f\x8b"

__all__ = ["FORMAT", "FORMAT_VERSION", "MAX_MAP_BYTES", "dump_map", "load_map"]


class _Fail(Exception):
    """Raised deep in validation; load_map adds the source name and turns it into MapError."""

    def __init__(self, where: str, what: str) -> None:
        super().__init__(what)
        self.where = where
        self.what = what


def _fail(where: str, what: str) -> NoReturn:
    raise _Fail(where, what)


# --- reading ---------------------------------------------------------------------------------


def load_map(
    src: str | os.PathLike[str] | bytes, source_name: str | None = None
) -> HexMap | AreaMap:
    """Read and validate a map file (a path, or the file's bytes).

    Raises MapError(source, where, what) naming the file, the item and the field at fault.
    """
    if isinstance(src, bytes | bytearray):
        source = source_name or "<map bytes>"
        raw = bytes(src)
        if len(raw) > MAX_MAP_BYTES:
            raise MapError(source, "", _too_big(len(raw)))
    else:
        source = source_name or os.fspath(src)
        try:
            size = os.path.getsize(src)
            if size > MAX_MAP_BYTES:
                raise MapError(source, "", _too_big(size))
            with open(src, "rb") as f:
                raw = f.read()
        except OSError as e:
            raise MapError(source, "", f"cannot read the map file ({e.strerror or e})") from e
    try:
        return _parse(_decode(raw))
    except _Fail as e:
        raise MapError(source, e.where, e.what) from None


def _too_big(n: int) -> str:
    limit = MAX_MAP_BYTES / 1024 / 1024
    return f"the file is {n / 1024 / 1024:.1f} MB; map files may be at most {limit:.0f} MB"


def _decode(raw: bytes) -> Any:
    if raw[:2] == _GZIP_MAGIC:
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(raw)) as gz:
                # Read one byte past the limit so a gzip bomb stops there.
                raw = gz.read(MAX_MAP_BYTES + 1)
        except (OSError, EOFError, zlib.error) as e:
            _fail("", f"not a readable gzip file ({e}); is it truncated?")
        if len(raw) > MAX_MAP_BYTES:
            limit = MAX_MAP_BYTES / 1024 / 1024
            _fail("", f"the file unpacks to more than {limit:.0f} MB, the limit for map files")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        _fail("", "not a JSON text file (it is not UTF-8); is this a Wartable map file?")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        _fail(
            "",
            f"not JSON ({e.msg} at line {e.lineno}, column {e.colno}); "
            "is this a Wartable map file?",
        )


def _parse(doc: Any) -> HexMap | AreaMap:
    if not isinstance(doc, dict):
        _fail("", f"the top level is {json_kind(doc)}, not an object; is this a Wartable map file?")
    fmt = doc.get("format")
    if fmt != FORMAT:
        shown = "missing" if fmt is None else repr(fmt)
        _fail("format", f"format is {shown}, not '{FORMAT}'; this is not a Wartable map file")
    ver = doc.get("format_version")
    if isinstance(ver, bool) or not isinstance(ver, int) or ver < 1:
        _fail("format_version", f"format_version must be a whole number >= 1, not {ver!r}")
    if ver > FORMAT_VERSION:
        _fail(
            "format_version",
            f"format_version {ver} was made by a newer Wartable; update the app "
            f"(this one reads up to {FORMAT_VERSION})",
        )
    kind = doc.get("kind")
    if kind == "hex":
        return _parse_hex(doc)
    if kind == "area":
        return _parse_area(doc)
    _fail("kind", f"kind must be 'hex' or 'area', not {kind!r}")


_COMMON = {
    *("format", "format_version", "kind", "id", "title", "version"),
    *("boxes", "places", "provisional", "notes"),
}
_HEX_TOP = _COMMON | {"layout", "labels", "hex_size_miles", "terrain_types", "hexes", "hexsides"}
_AREA_TOP = _COMMON | {"spaces", "adjacency", "extent"}


def _parse_hex(doc: dict[str, Any]) -> HexMap:
    _only(doc, _HEX_TOP, "")
    map_id, title, version = _header(doc)
    layout = _layout(_obj(doc, "layout", ""))
    labels = _labels(_obj(doc, "labels", ""), layout)
    miles = _opt_num(doc, "hex_size_miles", "")
    if miles is not None and miles <= 0:
        _fail("", f"field 'hex_size_miles' must be positive, not {miles}")

    terrain: dict[str, TerrainType] = {}
    for i, t in enumerate(_list(doc, "terrain_types", "")):
        where = f"terrain_types[{i}]"
        t = _as_obj(t, where)
        _only(t, {"id", "name", "fill", "pattern"}, where)
        tid = _str(t, "id", where)
        where = f"terrain type '{tid}'"
        if tid in terrain:
            _fail(where, "duplicate terrain id")
        fill = _str(t, "fill", where)
        if not is_colour(fill):
            _fail(where, f"field 'fill' is {fill!r}, not a colour like '#a0b060'")
        terrain[tid] = TerrainType(tid, _str(t, "name", where), fill, _opt_str(t, "pattern", where))

    raw_hexes: dict[Hex, tuple[str, HexInfo]] = {}
    for i, item in enumerate(_list(doc, "hexes", "")):
        where = f"hexes[{i}]"
        item = _as_obj(item, where)
        _only(item, {"label", "terrain", "region", "features"}, where)
        h = _hex_label(labels, _str(item, "label", where), where, "field 'label'")
        label = labels.label(h)
        where = f"hex {label}"
        if h in raw_hexes:
            _fail(where, "duplicate hex: it is listed twice")
        tid = _str(item, "terrain", where)
        if tid not in terrain:
            known = ", ".join(sorted(terrain)) or "none"
            _fail(where, f"unknown terrain {tid!r} (terrain_types defines: {known})")
        info = HexInfo(tid, _opt_str(item, "region", where), (), _features(item, where))
        raw_hexes[h] = (label, info)

    sides: dict[Hexside, tuple[str, ...]] = {}
    for i, item in enumerate(_list(doc, "hexsides", "")):
        where = f"hexsides[{i}]"
        item = _as_obj(item, where)
        _only(item, {"a", "b", "features"}, where)
        a_txt, b_txt = _str(item, "a", where), _str(item, "b", where)
        where = f"hexside {a_txt}-{b_txt}"
        ha = _hex_label(labels, a_txt, where, "field 'a'")
        hb = _hex_label(labels, b_txt, where, "field 'b'")
        for txt, h in ((a_txt, ha), (b_txt, hb)):
            if h not in raw_hexes:
                _fail(where, f"names hex {txt}, which is not on the map (not in 'hexes')")
        if ha.distance(hb) != 1:
            _fail(where, f"hexes {a_txt} and {b_txt} are not adjacent, so share no hexside")
        side = Hexside.between(ha, hb)
        if side in sides:
            _fail(where, "duplicate hexside: it is listed twice")
        sides[side] = _features(item, where)

    def at_hex(text: str, where: str) -> str:
        h = _hex_label(labels, text, where, "field 'at'")
        if h not in raw_hexes:
            _fail(where, f"field 'at' names hex {text}, which is not on the map")
        return labels.label(h)

    places = _places(doc, at_hex)
    index = places_index(places)
    hexes = {
        h: HexInfo(info.terrain, info.region, index.get(label, ()), info.features)
        for h, (label, info) in raw_hexes.items()
    }
    return _build(
        lambda: HexMap(
            id=map_id,
            title=title,
            version=version,
            layout=layout,
            labels=labels,
            terrain_types=FrozenMap(terrain),
            hexes=FrozenMap(hexes),
            hexsides=FrozenMap(sides),
            places=places,
            boxes=_boxes(doc),
            hex_size_miles=miles,
            provisional=_bool(doc, "provisional", "", False),
            notes=_opt_str(doc, "notes", "") or "",
        )
    )


def _parse_area(doc: dict[str, Any]) -> AreaMap:
    _only(doc, _AREA_TOP, "")
    map_id, title, version = _header(doc)
    spaces: dict[str, Space] = {}
    for i, item in enumerate(_list(doc, "spaces", "")):
        where = f"spaces[{i}]"
        item = _as_obj(item, where)
        _only(item, {"id", "name", "kind", "polygon", "label_point"}, where)
        sid = _str(item, "id", where)
        where = f"space '{sid}'"
        if sid in spaces:
            _fail(where, "duplicate space id")
        kind = _str(item, "kind", where)
        if kind not in SPACE_KINDS:
            _fail(where, f"field 'kind' must be 'land' or 'sea', not {kind!r}")
        poly = _polygon(_obj(item, "polygon", where), where)
        lp = item.get("label_point")
        point = _point(lp, where, "label_point") if lp is not None else None
        if point is None:
            rp = poly.representative_point()
            point = (float(rp.x), float(rp.y))
        spaces[sid] = Space(sid, _str(item, "name", where), kind, poly, point)

    pairs: set[frozenset[str]] = set()
    for i, item in enumerate(_list(doc, "adjacency", "")):
        where = f"adjacency[{i}]"
        pair_ok = isinstance(item, list) and len(item) == 2
        if not (pair_ok and all(isinstance(s, str) for s in item)):
            _fail(where, f'must be a pair of space ids like ["a", "b"], not {_short(item)}')
        a, b = item
        if a == b:
            _fail(where, f"names space {a!r} twice; a space is not adjacent to itself")
        for s in (a, b):
            if s not in spaces:
                _fail(where, f"names unknown space {s!r}")
        pairs.add(frozenset((a, b)))

    def at_space(text: str, where: str) -> str:
        if text not in spaces:
            _fail(where, f"field 'at' names unknown space {text!r}")
        return text

    places = _places(doc, at_space)
    extent: Bounds | None = None
    if doc.get("extent") is not None:
        ext = doc["extent"]
        if not (isinstance(ext, list) and len(ext) == 4 and all(_is_num(v) for v in ext)):
            _fail("", f"field 'extent' must be [minx, miny, maxx, maxy], not {_short(ext)}")
        extent = (float(ext[0]), float(ext[1]), float(ext[2]), float(ext[3]))
    return _build(
        lambda: AreaMap(
            id=map_id,
            title=title,
            version=version,
            spaces=FrozenMap(spaces),
            adjacency=frozenset(pairs),
            boxes=_boxes(doc),
            places=places,
            extent=extent,
            provisional=_bool(doc, "provisional", "", False),
            notes=_opt_str(doc, "notes", "") or "",
        )
    )


_M = TypeVar("_M", HexMap, AreaMap)


def _build(make: Callable[[], _M]) -> _M:
    # The model re-checks its invariants; anything the loader missed still becomes a MapError.
    try:
        return make()
    except ValueError as e:
        _fail("", str(e))


def _header(doc: dict[str, Any]) -> tuple[str, str, int]:
    map_id = _str(doc, "id", "")
    if not map_id:
        _fail("", "field 'id' is empty; it should look like 'game/name'")
    version = _int(doc, "version", "")
    return map_id, _str(doc, "title", ""), version


def _layout(d: dict[str, Any]) -> Layout:
    where = "layout"
    _only(d, {"orientation", "size_x", "size_y", "origin_x", "origin_y"}, where)
    o = _str(d, "orientation", where)
    try:
        orientation = Orientation(o)
    except ValueError:
        _fail(where, f"field 'orientation' must be 'flat' or 'pointy', not {o!r}")
    try:
        return Layout(
            orientation,
            _num(d, "size_x", where),
            _num(d, "size_y", where),
            _opt_num(d, "origin_x", where) or 0.0,
            _opt_num(d, "origin_y", where) or 0.0,
        )
    except ValueError as e:
        _fail(where, str(e))


_LABEL_INTS = ("col_start", "row_start", "col_dir", "row_dir", "col_digits", "row_digits")


def _labels(d: dict[str, Any], layout: Layout) -> LabelScheme:
    where = "labels"
    _only(d, {"offset", "column_first", "prefix", "separator", *_LABEL_INTS}, where)
    off = _str(d, "offset", where)
    try:
        kind = OffsetKind(off)
    except ValueError:
        names = ", ".join(k.value for k in OffsetKind)
        _fail(where, f"field 'offset' must be one of {names}, not {off!r}")
    if kind.orientation is not layout.orientation:
        _fail(
            where,
            f"offset {off!r} is for {kind.orientation.value}-top hexes, "
            f"but the layout is {layout.orientation.value}-top",
        )
    defaults = LabelScheme(kind)
    ints = {k: _opt_int(d, k, where) for k in _LABEL_INTS}
    try:
        return LabelScheme(
            kind,
            column_first=_bool(d, "column_first", where, defaults.column_first),
            prefix=_opt_str(d, "prefix", where) or "",
            separator=_opt_str(d, "separator", where) or "",
            **{k: getattr(defaults, k) if v is None else v for k, v in ints.items()},
        )
    except ValueError as e:
        _fail(where, str(e))


def _hex_label(labels: LabelScheme, text: str, where: str, what: str) -> Hex:
    try:
        return labels.parse(text)
    except ValueError as e:
        _fail(where, f"{what}: {e}")


def _places(doc: dict[str, Any], resolve: Callable[[str, str], str]) -> tuple[Place, ...]:
    out: list[Place] = []
    for i, item in enumerate(_list(doc, "places", "", required=False)):
        where = f"places[{i}]"
        item = _as_obj(item, where)
        _only(item, {"name", "kind", "at"}, where)
        name = _str(item, "name", where)
        where = f"place '{name}'"
        kind = _str(item, "kind", where)
        if kind not in PLACE_KINDS:
            _fail(where, f"field 'kind' must be one of {', '.join(PLACE_KINDS)}, not {kind!r}")
        at = resolve(_str(item, "at", where), where)
        out.append(Place(name, kind, at))
    return tuple(out)


def _boxes(doc: dict[str, Any]) -> tuple[OffMapBox, ...]:
    out: list[OffMapBox] = []
    seen: set[str] = set()
    for i, item in enumerate(_list(doc, "boxes", "", required=False)):
        where = f"boxes[{i}]"
        item = _as_obj(item, where)
        _only(item, {"id", "name", "x", "y", "w", "h"}, where)
        bid = _str(item, "id", where)
        where = f"box '{bid}'"
        if bid in seen:
            _fail(where, "duplicate box id")
        seen.add(bid)
        x, y = _num(item, "x", where), _num(item, "y", where)
        w, h = _num(item, "w", where), _num(item, "h", where)
        if w <= 0 or h <= 0:
            _fail(where, f"width and height must be positive, not {w} x {h}")
        out.append(OffMapBox(bid, _str(item, "name", where), x, y, w, h))
    return tuple(out)


def _features(d: dict[str, Any], where: str) -> tuple[str, ...]:
    feats = _list(d, "features", where, required=False)
    out: list[str] = []
    for j, f in enumerate(feats):
        if not isinstance(f, str) or not f:
            _fail(where, f"field 'features' item {j} must be a non-empty string, not {_short(f)}")
        if f in out:
            _fail(where, f"field 'features' lists {f!r} twice")
        out.append(f)
    return tuple(out)


def _polygon(geo: dict[str, Any], where: str) -> Polygon | MultiPolygon:
    gtype = geo.get("type")
    coords = geo.get("coordinates")
    try:
        if gtype == "Polygon":
            shell, holes = _rings(coords)
            poly = Polygon(shell, holes)
        elif gtype == "MultiPolygon":
            if not isinstance(coords, list) or not coords:
                raise ValueError("a MultiPolygon needs a non-empty list of polygons")
            poly = MultiPolygon([Polygon(*_rings(p)) for p in coords])
        else:
            raise ValueError(f"type must be 'Polygon' or 'MultiPolygon', not {gtype!r}")
    except ValueError as e:
        _fail(where, f"invalid polygon: {e}")
    if poly.is_empty or not poly.is_valid:
        _fail(where, f"invalid polygon: {explain_validity(poly)}")
    return poly


def _rings(coords: Any) -> tuple[list[tuple[float, float]], list[list[tuple[float, float]]]]:
    if not isinstance(coords, list) or not coords:
        raise ValueError("coordinates must be a list of rings")
    rings: list[list[tuple[float, float]]] = []
    for ring in coords:
        if not isinstance(ring, list) or len(ring) < 4:
            raise ValueError("each ring needs at least 4 [x, y] points (first = last)")
        pts: list[tuple[float, float]] = []
        for p in ring:
            if not (isinstance(p, list) and len(p) == 2 and all(_is_num(v) for v in p)):
                raise ValueError(f"a point must be [x, y] with finite numbers, not {_short(p)}")
            pts.append((float(p[0]), float(p[1])))
        rings.append(pts)
    return rings[0], rings[1:]


def _point(v: Any, where: str, key: str) -> tuple[float, float]:
    if not (isinstance(v, list) and len(v) == 2 and all(_is_num(c) for c in v)):
        _fail(where, f"field '{key}' must be [x, y], not {_short(v)}")
    return (float(v[0]), float(v[1]))


# --- field readers: each names the field and what it should have been -------------------------


def _short(v: Any) -> str:
    text = json.dumps(v, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _is_num(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def _missing(key: str, where: str) -> NoReturn:
    _fail(where, f"missing field '{key}'")


def _wrong(key: str, where: str, want: str, v: Any) -> NoReturn:
    _fail(where, f"field '{key}' must be {want}, not {json_kind(v)} ({_short(v)})")


def _only(d: dict[str, Any], allowed: set[str], where: str) -> None:
    extra = sorted(set(d) - allowed)
    if extra:
        _fail(where, f"unknown field '{extra[0]}' (expected: {', '.join(sorted(allowed))})")


def _as_obj(v: Any, where: str) -> dict[str, Any]:
    if not isinstance(v, dict):
        _fail(where, f"must be an object, not {json_kind(v)}")
    return v


def _obj(d: dict[str, Any], key: str, where: str) -> dict[str, Any]:
    if key not in d:
        _missing(key, where)
    v = d[key]
    if not isinstance(v, dict):
        _wrong(key, where, "an object", v)
    return v


def _list(d: dict[str, Any], key: str, where: str, *, required: bool = True) -> list[Any]:
    if key not in d:
        if required:
            _missing(key, where)
        return []
    v = d[key]
    if not isinstance(v, list):
        _wrong(key, where, "a list", v)
    return v


def _str(d: dict[str, Any], key: str, where: str) -> str:
    if key not in d:
        _missing(key, where)
    v = d[key]
    if not isinstance(v, str):
        _wrong(key, where, "a string", v)
    return v


def _opt_str(d: dict[str, Any], key: str, where: str) -> str | None:
    v = d.get(key)
    if v is not None and not isinstance(v, str):
        _wrong(key, where, "a string or null", v)
    return v


def _num(d: dict[str, Any], key: str, where: str) -> float:
    if key not in d:
        _missing(key, where)
    v = d[key]
    if not _is_num(v):
        _wrong(key, where, "a finite number", v)
    return float(v)


def _opt_num(d: dict[str, Any], key: str, where: str) -> float | None:
    if d.get(key) is None:
        return None
    return _num(d, key, where)


def _int(d: dict[str, Any], key: str, where: str) -> int:
    if key not in d:
        _missing(key, where)
    v = d[key]
    if isinstance(v, bool) or not isinstance(v, int):
        _wrong(key, where, "a whole number", v)
    return v


def _opt_int(d: dict[str, Any], key: str, where: str) -> int | None:
    return None if d.get(key) is None else _int(d, key, where)


def _bool(d: dict[str, Any], key: str, where: str, default: bool) -> bool:
    v = d.get(key, default)
    if not isinstance(v, bool):
        _wrong(key, where, "true or false", v)
    return v


# --- writing ---------------------------------------------------------------------------------


def dump_map(m: HexMap | AreaMap, *, compress: bool = False) -> bytes:
    """The file bytes of a map. The same map always gives the same bytes (gzip too: mtime 0)."""
    doc = _hex_doc(m) if isinstance(m, HexMap) else _area_doc(m)
    data = _write_json(doc)
    return gzip.compress(data, mtime=0) if compress else data


def _common_doc(m: HexMap | AreaMap) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "kind": m.kind,
        "id": m.id,
        "title": m.title,
        "version": m.version,
        "boxes": [
            {"id": b.id, "name": b.name, "x": b.x, "y": b.y, "w": b.w, "h": b.h} for b in m.boxes
        ],
        "places": [{"name": p.name, "kind": p.kind, "at": p.hex_or_space} for p in m.places],
        "provisional": m.provisional,
        "notes": m.notes,
    }


def _hex_doc(m: HexMap) -> dict[str, Any]:
    lay, lab = m.layout, m.labels
    hexes: list[dict[str, Any]] = []
    for h, info in m.hexes.items():
        item: dict[str, Any] = {"label": m.label_of(h), "terrain": info.terrain}
        # Optional fields left out when empty: 5,000 hexes stay small.
        if info.region is not None:
            item["region"] = info.region
        if info.features:
            item["features"] = list(info.features)
        hexes.append(item)
    hexes.sort(key=lambda d: str(d["label"]))
    sides = [
        {"a": m.label_of(s.a), "b": m.label_of(s.b), "features": list(f)}
        for s, f in sorted(m.hexsides.items())
    ]
    doc = _common_doc(m)
    doc.update(
        layout={
            "orientation": lay.orientation.value,
            "size_x": lay.size_x,
            "size_y": lay.size_y,
            "origin_x": lay.origin_x,
            "origin_y": lay.origin_y,
        },
        labels={
            "offset": lab.kind.value,
            "column_first": lab.column_first,
            "prefix": lab.prefix,
            "separator": lab.separator,
            **{k: getattr(lab, k) for k in _LABEL_INTS},
        },
        hex_size_miles=m.hex_size_miles,
        terrain_types=[
            {"id": t.id, "name": t.name, "fill": t.fill, "pattern": t.pattern}
            for _, t in sorted(m.terrain_types.items())
        ],
        hexes=hexes,
        hexsides=sides,
    )
    return doc


def _area_doc(m: AreaMap) -> dict[str, Any]:
    spaces = []
    for sid in sorted(m.spaces):
        sp = m.spaces[sid]
        spaces.append(
            {
                "id": sp.id,
                "name": sp.name,
                "kind": sp.kind,
                "polygon": _geojson(sp.polygon),
                "label_point": list(sp.label_point),
            }
        )
    doc = _common_doc(m)
    doc.update(
        spaces=spaces,
        adjacency=sorted(sorted(p) for p in m.adjacency),
        extent=list(m.extent) if m.extent is not None else None,
    )
    return doc


def _geojson(g: Polygon | MultiPolygon) -> dict[str, Any]:
    def poly(p: Polygon) -> list[list[list[float]]]:
        rings = [p.exterior, *p.interiors]
        return [[[float(x), float(y)] for x, y in r.coords] for r in rings]

    if isinstance(g, MultiPolygon):
        return {"type": "MultiPolygon", "coordinates": [poly(p) for p in g.geoms]}
    return {"type": "Polygon", "coordinates": poly(g)}


def _write_json(doc: dict[str, Any]) -> bytes:
    # Sorted keys; each top-level field on its own line and each list item on its own line,
    # so a rebuilt map's diff shows the hexes that changed. allow_nan=False: JSON has no NaN.
    def enc(v: Any) -> str:
        return json.dumps(
            v, sort_keys=True, ensure_ascii=False, allow_nan=False, separators=(",", ":")
        )

    lines = ["{"]
    keys = sorted(doc)
    for n, key in enumerate(keys):
        v = doc[key]
        comma = "," if n < len(keys) - 1 else ""
        if isinstance(v, list) and v:
            lines.append(f"{enc(key)}:[")
            lines.extend(enc(item) + ("," if j < len(v) - 1 else "") for j, item in enumerate(v))
            lines.append("]" + comma)
        else:
            lines.append(f"{enc(key)}:{enc(v)}{comma}")
    lines.append("}")
    return ("\n".join(lines) + "\n").encode("utf-8")
