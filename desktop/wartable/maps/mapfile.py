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
import os
import zlib
from collections.abc import Callable
from itertools import chain
from typing import TYPE_CHECKING, Any, TypeVar

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
from wartable.model.parse import Reader, found, is_number, shown

if TYPE_CHECKING:  # shapely and numpy load with the first area map (see maps/model.py)
    from shapely.geometry import (  # type: ignore[import-untyped,unused-ignore]
        MultiPolygon,
        Polygon,
    )

FORMAT = "wartable-map"
FORMAT_VERSION = 1
MAX_MAP_BYTES = 200 * 1024 * 1024  # refused before parsing (and after gunzip)
_GZIP_MAGIC = b"\x1f\x8b"

__all__ = ["FORMAT", "FORMAT_VERSION", "MAX_MAP_BYTES", "dump_map", "load_map"]


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
    return _parse(_decode(raw, source), source)


def _too_big(n: int) -> str:
    limit = MAX_MAP_BYTES / 1024 / 1024
    return f"the file is {n / 1024 / 1024:.1f} MB; map files may be at most {limit:.0f} MB"


def _decode(raw: bytes, source: str) -> Any:
    if raw[:2] == _GZIP_MAGIC:
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(raw)) as gz:
                # In chunks, stopping just past the limit: a gzip bomb stops there, and a
                # small map never reserves the whole limit (read(n) allocates n at once).
                chunks: list[bytes] = []
                size = 0
                while size <= MAX_MAP_BYTES:
                    chunk = gz.read(1 << 20)
                    if not chunk:
                        break
                    chunks.append(chunk)
                    size += len(chunk)
                raw = b"".join(chunks)
        except (OSError, EOFError, zlib.error) as e:
            raise MapError(
                source, "", f"not a readable gzip file ({e}); is it truncated?"
            ) from None
        if len(raw) > MAX_MAP_BYTES:
            limit = MAX_MAP_BYTES / 1024 / 1024
            raise MapError(
                source, "", f"the file unpacks to more than {limit:.0f} MB, the limit for map files"
            )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise MapError(
            source, "", "not a JSON text file (it is not UTF-8); is this a Wartable map file?"
        ) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise MapError(
            source,
            "",
            f"not JSON ({e.msg} at line {e.lineno}, column {e.colno}); "
            "is this a Wartable map file?",
        ) from None


def _parse(doc: Any, source: str) -> HexMap | AreaMap:
    if not isinstance(doc, dict):
        raise MapError(
            source,
            "",
            f"the top level is {json_kind(doc)}, not an object; is this a Wartable map file?",
        )
    r = Reader(doc, source, error=MapError, table_word="an object")
    fmt = doc.get("format")
    if fmt != FORMAT:
        shown = "missing" if fmt is None else repr(fmt)
        raise r.fail(
            "format", f"format is {shown}, not '{FORMAT}'; this is not a Wartable map file"
        )
    ver = r.integer("format_version", minimum=1)
    if ver > FORMAT_VERSION:
        raise r.fail(
            "format_version",
            f"format_version {ver} was made by a newer Wartable; update the app "
            f"(this one reads up to {FORMAT_VERSION})",
        )
    if r.choice("kind", ("hex", "area")) == "hex":
        return _parse_hex(r)
    return _parse_area(r)


_COMMON = (
    *("format", "format_version", "kind", "id", "title", "version"),
    *("boxes", "places", "provisional", "notes"),
)
_HEX_TOP = (*_COMMON, "layout", "labels", "hex_size_miles", "terrain_types", "hexes", "hexsides")
_AREA_TOP = (*_COMMON, "spaces", "adjacency", "extent")


def _parse_hex(r: Reader) -> HexMap:
    r.known(*_HEX_TOP)
    map_id, title, version = _header(r)
    layout = _layout(r.sub("layout"))
    labels = _labels(r.sub("labels"), layout)
    miles = r.opt_number("hex_size_miles")
    if miles is not None and miles <= 0:
        raise r.fail("hex_size_miles", f"must be positive, not {miles:g}")

    terrain: dict[str, TerrainType] = {}
    for t in r.items("terrain_types"):
        t.known("id", "name", "fill", "pattern")
        tid = t.text("id")
        t = t.at(f"terrain type '{tid}'")
        if tid in terrain:
            raise t.fail_here("duplicate terrain id")
        fill = t.text("fill")
        if not is_colour(fill):
            raise t.fail("fill", f"must be a colour like '#a0b060', not {fill!r}")
        terrain[tid] = TerrainType(tid, t.text("name"), fill, t.opt_text("pattern"))

    raw_hexes: dict[Hex, tuple[str, HexInfo]] = {}
    for item in r.items("hexes"):
        item.known("label", "terrain", "region", "features")
        h = _hex_label(labels, item, "label")
        label = labels.label(h)
        item = item.at(f"hex {label}")
        if h in raw_hexes:
            raise item.fail_here("duplicate hex: it is listed twice")
        tid = item.text("terrain")
        if tid not in terrain:
            known = ", ".join(sorted(terrain)) or "none"
            raise item.fail("terrain", f"unknown terrain {tid!r} (terrain_types defines: {known})")
        info = HexInfo(tid, item.opt_text("region"), (), _features(item))
        raw_hexes[h] = (label, info)

    sides: dict[Hexside, tuple[str, ...]] = {}
    for item in r.items("hexsides"):
        item.known("a", "b", "features")
        a_txt, b_txt = item.text("a"), item.text("b")
        item = item.at(f"hexside {a_txt}-{b_txt}")
        ha, hb = _hex_label(labels, item, "a"), _hex_label(labels, item, "b")
        for key, txt, h in (("a", a_txt, ha), ("b", b_txt, hb)):
            if h not in raw_hexes:
                raise item.fail(key, f"names hex {txt}, which is not on the map (not in 'hexes')")
        if ha.distance(hb) != 1:
            raise item.fail_here(f"hexes {a_txt} and {b_txt} are not adjacent, so share no hexside")
        side = Hexside.between(ha, hb)
        if side in sides:
            raise item.fail_here("duplicate hexside: it is listed twice")
        sides[side] = _features(item)

    def at_hex(place: Reader) -> str:
        h = _hex_label(labels, place, "at")
        if h not in raw_hexes:
            raise place.fail("at", f"names hex {place.text('at')}, which is not on the map")
        return labels.label(h)

    places = _places(r, at_hex)
    index = places_index(places)
    hexes = {
        h: HexInfo(info.terrain, info.region, index.get(label, ()), info.features)
        for h, (label, info) in raw_hexes.items()
    }
    boxes = _boxes(r)
    return _build(
        r,
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
            boxes=boxes,
            hex_size_miles=miles,
            provisional=r.opt_flag("provisional"),
            notes=r.opt_text("notes", ""),
        ),
    )


def _parse_area(r: Reader) -> AreaMap:
    r.known(*_AREA_TOP)
    map_id, title, version = _header(r)
    spaces: dict[str, Space] = {}
    for s in r.items("spaces"):
        s.known("id", "name", "kind", "polygon", "label_point")
        sid = s.text("id")
        s = s.at(f"space '{sid}'")
        if sid in spaces:
            raise s.fail_here("duplicate space id")
        kind = s.choice("kind", SPACE_KINDS)
        poly = _polygon(s.sub("polygon"))
        point = s.opt_point("label_point")
        if point is None:
            rp = poly.representative_point()
            point = (float(rp.x), float(rp.y))
        spaces[sid] = Space(sid, s.text("name"), kind, poly, point)

    pairs: set[frozenset[str]] = set()
    for i, item in enumerate(r.seq("adjacency")):
        key = f"adjacency[{i}]"
        pair_ok = isinstance(item, list) and len(item) == 2
        if not (pair_ok and all(isinstance(s, str) for s in item)):
            raise r.fail(key, f'must be a pair of space ids like ["a", "b"], not {found(item)}')
        a, b = item
        if a == b:
            raise r.fail(key, f"names space {a!r} twice; a space is not adjacent to itself")
        for sid in (a, b):
            if sid not in spaces:
                raise r.fail(key, f"names unknown space {sid!r}")
        pairs.add(frozenset((a, b)))

    def at_space(place: Reader) -> str:
        sid = place.text("at")
        if sid not in spaces:
            raise place.fail("at", f"names unknown space {sid!r}")
        return sid

    places = _places(r, at_space)
    extent: Bounds | None = None
    if r.has("extent"):
        ext = r.seq("extent", of="number")
        if len(ext) != 4:
            raise r.fail(
                "extent", f"must be [minx, miny, maxx, maxy], not {found(r.data['extent'])}"
            )
        extent = (ext[0], ext[1], ext[2], ext[3])
    boxes = _boxes(r)
    return _build(
        r,
        lambda: AreaMap(
            id=map_id,
            title=title,
            version=version,
            spaces=FrozenMap(spaces),
            adjacency=frozenset(pairs),
            boxes=boxes,
            places=places,
            extent=extent,
            provisional=r.opt_flag("provisional"),
            notes=r.opt_text("notes", ""),
        ),
    )


_M = TypeVar("_M", HexMap, AreaMap)


def _build(r: Reader, make: Callable[[], _M]) -> _M:
    # The model re-checks its invariants; anything the loader missed still becomes a MapError.
    try:
        return make()
    except ValueError as e:
        raise r.fail_here(str(e)) from None


def _header(r: Reader) -> tuple[str, str, int]:
    map_id = r.text("id")
    if not map_id:
        raise r.fail("id", "must not be empty; it should look like 'game/name'")
    version = r.integer("version")
    return map_id, r.text("title"), version


def _layout(r: Reader) -> Layout:
    r.known("orientation", "size_x", "size_y", "origin_x", "origin_y")
    orientation = Orientation(r.choice("orientation", [o.value for o in Orientation]))
    try:
        return Layout(
            orientation,
            r.number("size_x"),
            r.number("size_y"),
            r.opt_number("origin_x", 0.0),
            r.opt_number("origin_y", 0.0),
        )
    except ValueError as e:
        raise r.fail_here(str(e)) from None


_LABEL_INTS = ("col_start", "row_start", "col_dir", "row_dir", "col_digits", "row_digits")


def _labels(r: Reader, layout: Layout) -> LabelScheme:
    r.known("offset", "column_first", *_LABEL_INTS, "prefix", "separator")
    off = r.choice("offset", [k.value for k in OffsetKind])
    kind = OffsetKind(off)
    if kind.orientation is not layout.orientation:
        raise r.fail(
            "offset",
            f"offset {off!r} is for {kind.orientation.value}-top hexes, "
            f"but the layout is {layout.orientation.value}-top",
        )
    defaults = LabelScheme(kind)
    ints = {k: r.opt_integer(k, getattr(defaults, k)) for k in _LABEL_INTS}
    try:
        return LabelScheme(
            kind,
            column_first=r.opt_flag("column_first", defaults.column_first),
            prefix=r.opt_text("prefix", ""),
            separator=r.opt_text("separator", ""),
            **ints,
        )
    except ValueError as e:
        raise r.fail_here(str(e)) from None


def _hex_label(labels: LabelScheme, r: Reader, key: str) -> Hex:
    text = r.text(key)
    try:
        return labels.parse(text)
    except ValueError as e:
        raise r.fail(key, str(e)) from None


def _places(r: Reader, resolve: Callable[[Reader], str]) -> tuple[Place, ...]:
    """The places; `resolve` reads a place's "at" and returns the hex label or space id."""
    out: list[Place] = []
    for p in r.opt_items("places"):
        p.known("name", "kind", "at")
        name = p.text("name")
        p = p.at(f"place '{name}'")
        kind = p.choice("kind", PLACE_KINDS)
        out.append(Place(name, kind, resolve(p)))
    return tuple(out)


def _boxes(r: Reader) -> tuple[OffMapBox, ...]:
    out: list[OffMapBox] = []
    seen: set[str] = set()
    for b in r.opt_items("boxes"):
        b.known("id", "name", "x", "y", "w", "h")
        bid = b.text("id")
        b = b.at(f"box '{bid}'")
        if bid in seen:
            raise b.fail_here("duplicate box id")
        seen.add(bid)
        x, y = b.number("x"), b.number("y")
        w, h = b.number("w"), b.number("h")
        if w <= 0 or h <= 0:
            raise b.fail_here(f"width and height must be positive, not {w} x {h}")
        out.append(OffMapBox(bid, b.text("name"), x, y, w, h))
    return tuple(out)


def _features(r: Reader) -> tuple[str, ...]:
    out: list[str] = []
    for j, f in enumerate(r.opt_seq("features", of="text")):
        if not f:
            raise r.fail(f"features[{j}]", "must not be empty")
        if f in out:
            raise r.fail("features", f"lists {f!r} twice")
        out.append(f)
    return tuple(out)


def _polygon(r: Reader) -> Polygon | MultiPolygon:
    """A GeoJSON Polygon or MultiPolygon geometry object."""
    from shapely.geometry import MultiPolygon, Polygon  # type: ignore[import-untyped,unused-ignore]
    from shapely.validation import explain_validity  # type: ignore[import-untyped,unused-ignore]

    gtype = r.data.get("type")
    coords = r.data.get("coordinates")
    if gtype in ("Polygon", "MultiPolygon"):
        # Fast path: the rings go to GEOS as numpy arrays (a world map has ~140,000 points;
        # building GeoJSON text for shapely.from_geojson cost more than the JSON parse);
        # anything unusual goes through the checks below for a precise message.
        fast = _fast_polygon(gtype, coords)
        if fast is not None and not fast.is_empty and fast.is_valid:
            return fast
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
        raise r.fail_here(f"invalid polygon: {e}") from None
    if poly.is_empty or not poly.is_valid:
        raise r.fail_here(f"invalid polygon: {explain_validity(poly)}")
    return poly


_NUMBERS = frozenset((int, float))


def _fast_polygon(gtype: str, coords: Any) -> Polygon | MultiPolygon | None:
    """The geometry built from numpy arrays, or None when the coordinates are anything but
    rings of at least 4 plain finite [x, y] numbers (the slow path then says what is wrong)."""
    import numpy as np
    import shapely  # type: ignore[import-untyped,unused-ignore]
    from shapely.geometry import MultiPolygon  # type: ignore[import-untyped,unused-ignore]

    if not isinstance(coords, list) or not coords:
        return None
    polys = [coords] if gtype == "Polygon" else coords
    if not all(isinstance(rings, list) and rings for rings in polys):
        return None
    rings = list(chain.from_iterable(polys))
    if not all(isinstance(r, list) and len(r) >= 4 for r in rings):
        return None
    points = list(chain.from_iterable(rings))
    try:
        arr = np.asarray(points)
    except ValueError:  # ragged points
        return None
    if arr.dtype.kind not in "if" or arr.ndim != 2 or arr.shape[1] != 2 \
            or not set(map(type, chain.from_iterable(points))) <= _NUMBERS \
            or not np.isfinite(arr).all():  # (bools would pass as numbers in the array)
        return None
    ring_of = np.repeat(np.arange(len(rings)), [len(r) for r in rings])
    try:
        made = shapely.linearrings(arr.astype(np.float64), indices=ring_of)
    except (shapely.errors.GEOSException, ValueError):
        return None
    built: list[Polygon] = []
    start = 0
    for p in polys:
        holes = made[start + 1:start + len(p)]
        built.append(shapely.polygons(made[start], holes=holes if len(holes) else None))
        start += len(p)
    return built[0] if gtype == "Polygon" else MultiPolygon(built)


def _rings(coords: Any) -> tuple[list[tuple[float, float]], list[list[tuple[float, float]]]]:
    if not isinstance(coords, list) or not coords:
        raise ValueError("coordinates must be a list of rings")
    rings: list[list[tuple[float, float]]] = []
    for ring in coords:
        if not isinstance(ring, list) or len(ring) < 4:
            raise ValueError("each ring needs at least 4 [x, y] points (first = last)")
        pts: list[tuple[float, float]] = []
        for p in ring:
            if not (isinstance(p, list) and len(p) == 2 and all(is_number(v) for v in p)):
                raise ValueError(f"a point must be [x, y] with finite numbers, not {shown(p)}")
            pts.append((float(p[0]), float(p[1])))
        rings.append(pts)
    return rings[0], rings[1:]


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

    from shapely.geometry import MultiPolygon  # type: ignore[import-untyped,unused-ignore]

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
