"""Map files: round trips, byte determinism, and one test per loader error."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from wartable.core.errors import MapError
from wartable.core.hexgrid import Orientation
from wartable.maps import AreaMap, HexMap, dump_map, load_map, mapfile, rectangular_hex_map

Doc = dict[str, Any]


def hex_doc() -> Doc:
    # A 4x3 synthetic map: labels 0101..0403, columns first (odd-q).
    doc: Doc = json.loads(dump_map(rectangular_hex_map("test/small", 4, 3)))
    return doc


def ring(x: float, y: float, w: float, h: float) -> list[list[float]]:
    return [[x, y], [x + w, y], [x + w, y + h], [x, y + h], [x, y]]


def area_doc() -> Doc:
    return {
        "format": "wartable-map",
        "format_version": 1,
        "kind": "area",
        "id": "test/squares",
        "title": "Three squares",
        "version": 1,
        "spaces": [
            {"id": "a", "name": "Alpha", "kind": "land",
             "polygon": {"type": "Polygon", "coordinates": [ring(0, 0, 1, 1)]}},
            {"id": "b", "name": "Beta", "kind": "land", "label_point": [1.5, 0.5],
             "polygon": {"type": "MultiPolygon",
                         "coordinates": [[ring(1, 0, 1, 1)], [ring(5, 5, 1, 1)]]}},
            {"id": "c", "name": "Gamma Sea", "kind": "sea",
             "polygon": {"type": "Polygon",
                         "coordinates": [ring(0, 1, 2, 1), ring(0.5, 1.25, 0.5, 0.5)]}},
        ],
        "adjacency": [["a", "b"], ["a", "c"], ["c", "b"]],
        "boxes": [{"id": "pool", "name": "Force pool", "x": 3, "y": 0, "w": 1, "h": 1}],
        "places": [{"name": "Alphaville", "kind": "capital", "at": "a"}],
    }  # fmt: skip


def write(tmp_path: Path, doc: Doc | bytes, name: str = "bad.json") -> Path:
    path = tmp_path / name
    path.write_bytes(doc if isinstance(doc, bytes) else json.dumps(doc).encode())
    return path


def load_error(tmp_path: Path, doc: Doc | bytes) -> MapError:
    path = write(tmp_path, doc)
    with pytest.raises(MapError) as info:
        load_map(path)
    err = info.value
    assert err.source == str(path)
    assert str(err).startswith(f"{path}: ")
    return err


# --- round trips --------------------------------------------------------------------------------


@pytest.mark.parametrize("orientation", list(Orientation))
@pytest.mark.parametrize("seed", [0, 3])
def test_hex_round_trip_and_determinism(orientation: Orientation, seed: int) -> None:
    m = rectangular_hex_map("test/rt", 14, 9, orientation=orientation, seed_pattern=seed)
    data = dump_map(m)
    again = load_map(data, "rt.json")
    assert isinstance(again, HexMap)
    assert again == m
    assert again.describe("0705") == m.describe("0705")
    assert dump_map(again) == data
    # A map built again from scratch (new dict orders, same content) gives the same bytes.
    assert dump_map(rectangular_hex_map("test/rt", 14, 9, orientation=orientation,
                                        seed_pattern=seed)) == data  # fmt: skip


def test_hex_order_does_not_change_bytes(tmp_path: Path) -> None:
    doc = hex_doc()
    doc["hexes"].reverse()
    doc["hexsides"].reverse()
    doc["terrain_types"].reverse()
    m = load_map(write(tmp_path, doc, "shuffled.json"))
    assert dump_map(m) == dump_map(rectangular_hex_map("test/small", 4, 3))


def test_gzip_round_trip(tmp_path: Path) -> None:
    m = rectangular_hex_map("test/gz", 10, 8)
    gz = dump_map(m, compress=True)
    assert gz[:2] == b"\x1f\x8b"
    assert dump_map(m, compress=True) == gz  # mtime 0: deterministic
    path = tmp_path / "map.json.gz"
    path.write_bytes(gz)
    assert load_map(path) == m
    assert load_map(gz) == m


def test_area_round_trip_and_determinism() -> None:
    m = load_map(json.dumps(area_doc()).encode(), "squares.json")
    assert isinstance(m, AreaMap)
    data = dump_map(m)
    again = load_map(data)
    assert again == m
    assert dump_map(again) == data
    assert m.neighbors("a") == ("b", "c")
    assert m.spaces["b"].label_point == (1.5, 0.5)
    # A missing label_point is filled with a point inside the polygon.
    assert m.location_at(*m.center("a")) == "a"
    assert m.location_at(0.75, 1.5) is None  # inside gamma's hole
    assert m.location_at(5.5, 5.5) == "b"
    assert m.describe("a") == "Alpha (land) — Alphaville"


def test_dump_is_line_per_item_json() -> None:
    data = dump_map(rectangular_hex_map("test/small", 4, 3)).decode()
    lines = data.splitlines()
    assert lines[0] == "{" and lines[-1] == "}"
    assert '{"label":"0101","region":"West","terrain":' in data
    assert sum(1 for line in lines if line.startswith('{"label":')) == 12


# --- errors ---------------------------------------------------------------------------------------


def test_not_json(tmp_path: Path) -> None:
    err = load_error(tmp_path, b'{"format": "wartable-map",')
    assert err.where == ""
    assert err.what.startswith("not JSON (")
    assert "is this a Wartable map file?" in err.what


def test_not_utf8(tmp_path: Path) -> None:
    err = load_error(tmp_path, b"\xff\xfe\x00garbage")
    assert "not UTF-8" in err.what


def test_top_level_not_object(tmp_path: Path) -> None:
    err = load_error(tmp_path, b"[1, 2]")
    assert err.what == "the top level is a list, not an object; is this a Wartable map file?"


def test_wrong_format_tag(tmp_path: Path) -> None:
    doc = hex_doc()
    doc["format"] = "vassal-module"
    err = load_error(tmp_path, doc)
    assert str(err) == (
        f"{tmp_path / 'bad.json'}: format: format is 'vassal-module', not 'wartable-map'; "
        "this is not a Wartable map file"
    )
    del doc["format"]
    assert "format is missing" in load_error(tmp_path, doc).what


def test_newer_format_version(tmp_path: Path) -> None:
    doc = hex_doc()
    doc["format_version"] = 2
    err = load_error(tmp_path, doc)
    assert err.where == "format_version"
    assert err.what == (
        "format_version 2 was made by a newer Wartable; update the app (this one reads up to 1)"
    )


def test_bad_format_version_and_kind(tmp_path: Path) -> None:
    doc = hex_doc()
    doc["format_version"] = "1"
    err = load_error(tmp_path, doc)
    assert err.where == "format_version"
    assert err.what == "must be a whole number, not text ('1')"
    doc["format_version"] = 0
    assert load_error(tmp_path, doc).what == "must be at least 1, not 0"
    doc = hex_doc()
    doc["kind"] = "grid"
    err = load_error(tmp_path, doc)
    assert err.where == "kind"
    assert err.what == "must be 'hex' or 'area', not 'grid'"


Mutation = Callable[[Doc], None]


def _set(path: list[Any], value: Any) -> Mutation:
    def mutate(doc: Doc) -> None:
        target: Any = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return mutate


def _delete(path: list[Any]) -> Mutation:
    def mutate(doc: Doc) -> None:
        target: Any = doc
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return mutate


def _append(key: str, item: Any) -> Mutation:
    return lambda doc: doc[key].append(item)


HEX_ERRORS: list[tuple[str, Mutation, str, str]] = [
    ("missing title", _delete(["title"]), "title", "is missing"),
    ("mistyped version", _set(["version"], "3"), "version",
     "must be a whole number, not text ('3')"),
    ("bool as version", _set(["version"], True), "version",
     "must be a whole number, not true/false (true)"),
    ("empty id", _set(["id"], ""), "id", "must not be empty; it should look like 'game/name'"),
    ("unknown top field", _set(["hex_sides"], []), "hex_sides",
     "unknown field (did you mean 'hexsides'?); expected one of format, format_version, kind"),
    ("missing layout", _delete(["layout"]), "layout", "is missing"),
    ("mistyped size", _set(["layout", "size_x"], "big"), "layout.size_x",
     "must be a number, not text ('big')"),
    ("infinite size", _set(["layout", "size_x"], float("inf")), "layout.size_x",
     "must be a finite number, not inf"),
    ("zero size", _set(["layout", "size_x"], 0), "layout", "hex size must be positive"),
    ("bad orientation", _set(["layout", "orientation"], "round"), "layout.orientation",
     "must be 'flat' or 'pointy', not 'round'"),
    ("bad offset", _set(["labels", "offset"], "odd"), "labels.offset",
     "must be one of 'odd-q', 'even-q', 'odd-r', 'even-r', not 'odd'"),
    ("offset vs layout", _set(["labels", "offset"], "odd-r"), "labels.offset",
     "offset 'odd-r' is for pointy-top hexes, but the layout is flat-top"),
    ("bad label dir", _set(["labels", "col_dir"], 2), "labels", "directions must be +1 or -1"),
    ("negative miles", _set(["hex_size_miles"], -5), "hex_size_miles",
     "must be positive, not -5"),
    ("missing terrain field", _delete(["hexes", 0, "terrain"]), "hex 0101.terrain",
     "is missing"),
    ("mistyped terrain field", _set(["hexes", 1, "terrain"], 5), "hex 0102.terrain",
     "must be text, not a number (5)"),
    ("mistyped region", _set(["hexes", 1, "region"], ["x"]), "hex 0102.region",
     "must be text, not a list ([\"x\"])"),
    ("mistyped features", _set(["hexes", 1, "features"], "fort"), "hex 0102.features",
     "must be a list, not text ('fort')"),
    ("mistyped feature", _set(["hexes", 1, "features"], ["fort", 3]), "hex 0102.features[1]",
     "must be text, not a number (3)"),
    ("empty feature", _set(["hexes", 1, "features"], [""]), "hex 0102.features[0]",
     "must not be empty"),
    ("twice feature", _set(["hexes", 1, "features"], ["fort", "fort"]), "hex 0102.features",
     "lists 'fort' twice"),
    ("missing label", _delete(["hexes", 2, "label"]), "hexes[2].label", "is missing"),
    ("junk label", _set(["hexes", 2, "label"], "12a4"), "hexes[2].label",
     "'12a4' is not a hex number on this map: expected 4 digits like '0101'"),
    ("hex not an object", _set(["hexes", 2], "0103"), "hexes[2]",
     "must be an object, not text ('0103')"),
    ("unknown hex field", _set(["hexes", 0, "terain"], "clear"), "hexes[0].terain",
     "unknown field (did you mean 'terrain'?); expected one of label, terrain, region, features"),
    ("unknown terrain", _set(["hexes", 0, "terrain"], "swamp"), "hex 0101.terrain",
     "unknown terrain 'swamp' (terrain_types defines: clear, forest, hill, marsh, water)"),
    ("duplicate hex", _append("hexes", {"label": "0101", "terrain": "clear"}), "hex 0101",
     "duplicate hex: it is listed twice"),
    ("bad colour", _set(["terrain_types", 0, "fill"], "#12345"), "terrain type 'clear'.fill",
     "must be a colour like '#a0b060', not '#12345'"),
    ("named colour", _set(["terrain_types", 0, "fill"], "green"), "terrain type 'clear'.fill",
     "must be a colour like '#a0b060', not 'green'"),
    ("duplicate terrain", _append("terrain_types", {"id": "clear", "name": "x", "fill": "#000000"}),
     "terrain type 'clear'", "duplicate terrain id"),
    ("hexside not adjacent", _append("hexsides", {"a": "0101", "b": "0103", "features": ["river"]}),
     "hexside 0101-0103", "hexes 0101 and 0103 are not adjacent, so share no hexside"),
    ("hexside unknown hex", _append("hexsides", {"a": "0101", "b": "0901", "features": []}),
     "hexside 0101-0901.b", "names hex 0901, which is not on the map (not in 'hexes')"),
    ("hexside junk label", _append("hexsides", {"a": "0101", "b": "01x2", "features": []}),
     "hexside 0101-01x2.b", "'01x2' is not a hex number on this map"),
    ("hexside missing b", _append("hexsides", {"a": "0101", "features": []}), "hexsides[",
     "is missing"),
    ("place at unknown hex", _append("places", {"name": "Nowhere", "kind": "town", "at": "0909"}),
     "place 'Nowhere'.at", "names hex 0909, which is not on the map"),
    ("place bad kind", _append("places", {"name": "Metro", "kind": "metropolis", "at": "0101"}),
     "place 'Metro'.kind", "must be one of 'city', 'town', 'port', 'fortress', 'capital', "
     "'other', not 'metropolis'"),
    ("box bad size", _append("boxes", {"id": "x", "name": "X", "x": 0, "y": 0, "w": 0, "h": 1}),
     "box 'x'", "width and height must be positive"),
    ("box duplicate", _append("boxes", {"id": "eliminated", "name": "X", "x": 0, "y": 0, "w": 1,
                                        "h": 1}), "box 'eliminated'", "duplicate box id"),
    ("box NaN-ish", _append("boxes", {"id": "y", "name": "Y", "x": "0", "y": 0, "w": 1, "h": 1}),
     "box 'y'.x", "must be a number, not text ('0')"),
    ("provisional mistyped", _set(["provisional"], "yes"), "provisional",
     "must be true or false, not text ('yes')"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("mutate", "where", "what"),
    [case[1:] for case in HEX_ERRORS],
    ids=[case[0] for case in HEX_ERRORS],
)
def test_hex_map_errors(tmp_path: Path, mutate: Mutation, where: str, what: str) -> None:
    doc = hex_doc()
    mutate(doc)
    err = load_error(tmp_path, doc)
    assert err.where.startswith(where), err
    assert what in err.what, err


def test_duplicate_hexside_named_from_the_other_side(tmp_path: Path) -> None:
    doc = hex_doc()
    first = doc["hexsides"][0]
    doc["hexsides"].append({"a": first["b"], "b": first["a"], "features": ["lake"]})
    err = load_error(tmp_path, doc)
    assert err.where == f"hexside {first['b']}-{first['a']}"
    assert err.what == "duplicate hexside: it is listed twice"


AREA_ERRORS: list[tuple[str, Mutation, str, str]] = [
    ("adjacency unknown space", _append("adjacency", ["a", "narnia"]), "adjacency[3]",
     "names unknown space 'narnia'"),
    ("adjacency self", _append("adjacency", ["a", "a"]), "adjacency[3]",
     "names space 'a' twice"),
    ("adjacency not a pair", _append("adjacency", ["a", "b", "c"]), "adjacency[3]",
     "must be a pair of space ids"),
    ("bowtie polygon",
     _set(["spaces", 0, "polygon", "coordinates"], [[[0, 0], [1, 1], [1, 0], [0, 1], [0, 0]]]),
     "space 'a'.polygon", "invalid polygon: Self-intersection"),
    ("too few points", _set(["spaces", 0, "polygon", "coordinates"], [[[0, 0], [1, 1], [0, 0]]]),
     "space 'a'.polygon", "invalid polygon: each ring needs at least 4"),
    ("bad point", _set(["spaces", 0, "polygon", "coordinates"], [[[0, 0], [1], [1, 1], [0, 0]]]),
     "space 'a'.polygon", "invalid polygon: a point must be [x, y]"),
    ("true as a coordinate",
     _set(["spaces", 0, "polygon", "coordinates"], [[[0, 0], [1, 0], [True, 1], [0, 0]]]),
     "space 'a'.polygon", "invalid polygon: a point must be [x, y]"),
    ("infinite coordinate",
     _set(["spaces", 0, "polygon", "coordinates"], [[[0, 0], [1, 0], [1e400, 1], [0, 0]]]),
     "space 'a'.polygon", "invalid polygon: a point must be [x, y]"),
    ("bad geometry type", _set(["spaces", 0, "polygon", "type"], "Point"), "space 'a'.polygon",
     "invalid polygon: type must be 'Polygon' or 'MultiPolygon', not 'Point'"),
    ("missing polygon", _delete(["spaces", 0, "polygon"]), "space 'a'.polygon", "is missing"),
    ("bad space kind", _set(["spaces", 0, "kind"], "air"), "space 'a'.kind",
     "must be 'land' or 'sea', not 'air'"),
    ("duplicate space", _append("spaces", {"id": "a", "name": "A2", "kind": "land",
                                           "polygon": {"type": "Polygon",
                                                       "coordinates": [ring(9, 9, 1, 1)]}}),
     "space 'a'", "duplicate space id"),
    ("bad label point", _set(["spaces", 0, "label_point"], [1]), "space 'a'.label_point",
     "must be a point [x, y], not a list ([1])"),
    ("place unknown space", _append("places", {"name": "X", "kind": "city", "at": "zz"}),
     "place 'X'.at", "names unknown space 'zz'"),
    ("bad extent", _set(["extent"], [0, 0, 1]), "extent",
     "must be [minx, miny, maxx, maxy], not a list ([0, 0, 1])"),
    ("extent not numbers", _set(["extent"], [0, 0, 1, "x"]), "extent[3]",
     "must be a number, not text ('x')"),
    ("unknown area field", _set(["hexes"], []), "hexes",
     "unknown field; expected one of format, format_version, kind"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("mutate", "where", "what"),
    [case[1:] for case in AREA_ERRORS],
    ids=[case[0] for case in AREA_ERRORS],
)
def test_area_map_errors(tmp_path: Path, mutate: Mutation, where: str, what: str) -> None:
    doc = area_doc()
    mutate(doc)
    err = load_error(tmp_path, doc)
    assert err.where == where, err
    assert what in err.what, err


def test_exact_message_for_a_missing_hex_field(tmp_path: Path) -> None:
    doc = hex_doc()
    del doc["hexes"][0]["terrain"]
    err = load_error(tmp_path, doc)
    assert str(err) == f"{tmp_path / 'bad.json'}: hex 0101.terrain: is missing"


def test_file_over_200_mb_is_refused_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    with open(path, "wb") as f:
        f.truncate(mapfile.MAX_MAP_BYTES + 1)  # sparse: costs no disk and is never read
    with pytest.raises(MapError) as info:
        load_map(path)
    assert info.value.what == "the file is 200.0 MB; map files may be at most 200 MB"


def test_bytes_and_gzip_bombs_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    data = dump_map(rectangular_hex_map("test/small", 4, 3))
    monkeypatch.setattr(mapfile, "MAX_MAP_BYTES", len(data) - 1)
    with pytest.raises(MapError, match="map files may be at most"):
        load_map(data, "mem")
    with pytest.raises(MapError, match="unpacks to more than"):
        load_map(gzip.compress(data), "mem.gz")


def test_truncated_gzip(tmp_path: Path) -> None:
    gz = dump_map(rectangular_hex_map("test/small", 4, 3), compress=True)
    err = load_error(tmp_path, gz[: len(gz) // 2])
    assert "not a readable gzip file" in err.what


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(MapError) as info:
        load_map(tmp_path / "nope.json")
    assert info.value.what.startswith("cannot read the map file (")


def test_bytes_source_name() -> None:
    with pytest.raises(MapError) as info:
        load_map(b"nonsense", "east.json")
    assert str(info.value).startswith("east.json: not JSON")
    with pytest.raises(MapError) as info:
        load_map(b"nonsense")
    assert info.value.source == "<map bytes>"


def test_loader_accepts_other_label_spellings(tmp_path: Path) -> None:
    doc = hex_doc()
    doc["hexes"][0]["label"] = " 01 01 "
    m = load_map(write(tmp_path, doc, "spaced.json"))
    assert isinstance(m, HexMap)
    assert "0101" in m.location_ids()


def test_polygons_built_from_arrays_equal_the_checked_construction(tmp_path: Path) -> None:
    """The numpy fast path (issue 20) builds the very geometry of the point-by-point path:
    holes, multipolygon parts and integer coordinates included."""
    from shapely.geometry import MultiPolygon, Polygon

    m = load_map(write(tmp_path, area_doc(), "ok.json"))
    assert isinstance(m, AreaMap)
    assert m.space("a").polygon.equals_exact(Polygon(ring(0, 0, 1, 1)), 0)
    assert m.space("b").polygon.equals_exact(
        MultiPolygon([Polygon(ring(1, 0, 1, 1)), Polygon(ring(5, 5, 1, 1))]), 0)
    c = m.space("c").polygon
    assert c.equals_exact(Polygon(ring(0, 1, 2, 1), [ring(0.5, 1.25, 0.5, 0.5)]), 0)
    assert len(c.interiors) == 1 and c.area == 2 - 0.25
