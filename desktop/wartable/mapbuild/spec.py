"""Hex map build specs: one TOML file per map in ``maps/sources/specs/``.

A spec holds everything about a map that is *data*, not code: the projection, the printed
grid (orientation, offset parity, printed number ranges and their directions), the control
points and area constraints with the rule each comes from, the terrain types, which places
are cities or towns, river classes, and hex features the rulebook lists by number. See
``maps/sources/specs/whatif1940_east.toml`` for an annotated example.

Label ranges: ``"4300..5200"`` is every hex on the straight line between two printed
numbers that share their row or column part (here column 00, rows 43 to 52), both included.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wartable.core.errors import DataError
from wartable.core.hexgrid import Hex, LabelScheme, OffsetKind, Orientation
from wartable.maps.model import PLACE_KINDS, TerrainType

__all__ = [
    "AreaFeatureRule",
    "Constraint",
    "ControlPoint",
    "GridSpec",
    "HexFeatureRule",
    "HexMapSpec",
    "HexsideFeatureRule",
    "PointSpec",
    "WarpSpec",
    "load_spec",
    "spec_files",
]

CONSTRAINT_KINDS = ("in_region", "not_in_region", "coastal", "distance", "on_line")
# The game meaning of a place: (Place.kind, hex feature or None). Cities and towns are told
# by their Place.kind; a hex feature only says what a kind cannot (a Ruhr city, a fort).
PLACE_ROLES: dict[str, tuple[str, str | None]] = {
    "capital": ("capital", None),
    "city": ("city", None),
    "ruhr_city": ("city", "ruhr_city"),
    "town": ("town", None),
    "port": ("port", None),
    "fortress": ("fortress", "fortified"),
    "other": ("other", None),
}


@dataclass(frozen=True, slots=True)
class GridSpec:
    orientation: Orientation
    offset: OffsetKind
    rows: tuple[int, int]  # printed row numbers, inclusive (low, high)
    cols: tuple[int, int]
    labels: LabelScheme

    def label_hexes(self) -> list[Hex]:
        """Every hex of the printed rectangle, in label order."""
        out = []
        for row in range(self.rows[0], self.rows[1] + 1):
            for col in range(self.cols[0], self.cols[1] + 1):
                out.append(self.parse(self.text(row, col)))
        return out

    def text(self, row: int, col: int) -> str:
        lab = self.labels
        r = f"{row:0{lab.row_digits}d}"
        c = f"{col:0{lab.col_digits}d}"
        body = f"{c}{lab.separator}{r}" if lab.column_first else f"{r}{lab.separator}{c}"
        return lab.prefix + body

    def parse(self, label: str) -> Hex:
        return self.labels.parse(label)

    def printed(self, label: str) -> tuple[int, int]:
        """(row, col) printed numbers of a label."""
        lab = self.labels
        body = label.replace(" ", "")
        pre = lab.prefix.replace(" ", "")
        if pre and body.upper().startswith(pre.upper()):
            body = body[len(pre):]
        sep = lab.separator.replace(" ", "")
        if sep:
            a, _, b = body.partition(sep)
        else:
            w = lab.col_digits if lab.column_first else lab.row_digits
            a, b = body[:w], body[w:]
        x, y = int(a), int(b)
        return (y, x) if lab.column_first else (x, y)

    def expand(self, items: list[str], where: str) -> list[str]:
        """Labels, with "A..B" ranges spelled out (straight lines only)."""
        out: list[str] = []
        for it in items:
            if ".." not in it:
                self._check(it, where)
                out.append(self.text(*self.printed(it)))
                continue
            a, _, b = it.partition("..")
            self._check(a, where)
            self._check(b, where)
            (ra, ca), (rb, cb) = self.printed(a), self.printed(b)
            if ra == rb:
                step = 1 if cb >= ca else -1
                out += [self.text(ra, c) for c in range(ca, cb + step, step)]
            elif ca == cb:
                step = 1 if rb >= ra else -1
                out += [self.text(r, ca) for r in range(ra, rb + step, step)]
            else:
                raise DataError(where, it, "a range must keep its row or its column part fixed")
        return out

    def _check(self, label: str, where: str) -> None:
        try:
            self.labels.parse(label)
            r, c = self.printed(label)
        except (ValueError, IndexError):
            raise DataError(where, label, "is not a hex number of this map") from None
        if not (self.rows[0] <= r <= self.rows[1] and self.cols[0] <= c <= self.cols[1]):
            raise DataError(where, label, "is outside the map's printed rows and columns")


@dataclass(frozen=True, slots=True)
class ControlPoint:
    place: str
    label: str
    rule: str
    weight: float = 1.0
    # Why the rulebook's hex cannot be right (a typo, an inset): the point is left out of
    # the fit and the warp, and the report lists it as a known rulebook inconsistency.
    inconsistent: str = ""
    # An inset (with `inconsistent`): the printed map shows the place displaced onto the
    # rulebook's hex, so the place stands there (hex feature "inset"), not where geography is.
    inset: bool = False


@dataclass(frozen=True, slots=True)
class WarpSpec:
    """The optional local correction after the similarity (`warp.py`): a thin-plate spline
    through the control points; `smoothing` is its lambda in hex steps squared (0 = exact)."""

    kind: str
    smoothing: float
    rule: str
    # Hexes the warp holds where the similarity put them (zero displacement): area facts
    # that a spline through a few points must not drag away.
    anchors: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PointSpec:
    """A place a spec needs that places.geojson lacks: longitude, latitude and source."""

    name: str
    kind: str
    lon: float
    lat: float
    source: str


@dataclass(frozen=True, slots=True)
class Constraint:
    kind: str
    labels: tuple[str, ...]
    rule: str
    region: str | None = None
    hexes: int | None = None  # for "distance": the two labels are this many hexes apart
    fit: bool = True
    note: str = ""
    line: str | None = None  # for "on_line": a fortified line of fortifications.geojson
    # in_region only: a hex the geography leaves water or in another region becomes land of
    # `region` (a text fact the printed map shows: a UK radar site "within the UK proper").
    enforce: bool = False


@dataclass(frozen=True, slots=True)
class HexFeatureRule:
    """Hexes the rulebook lists by number get `feature`; with `compare_area`, the report
    also lists where the real area (borders_1939.geojson) says otherwise."""

    feature: str
    labels: tuple[str, ...]
    rule: str
    compare_area: str | None = None


@dataclass(frozen=True, slots=True)
class HexsideFeatureRule:
    """Hexsides the rulebook names by their two hexes ("2316/2415") get `feature`, whatever
    the geography says (the report lists what it had)."""

    feature: str
    hexsides: tuple[tuple[str, str], ...]
    rule: str


@dataclass(frozen=True, slots=True)
class AreaFeatureRule:
    """Hexes lying mostly inside a named terrain region get `feature` (the Hunsruck [12.2])."""

    feature: str
    terrain_region: str
    rule: str


@dataclass(frozen=True, slots=True)
class HexMapSpec:
    path: str
    id: str
    title: str
    version: int
    hex_size_miles: float
    provisional: bool
    notes: str
    projection: dict[str, float]
    grid: GridSpec
    candidates: tuple[tuple[Orientation, OffsetKind], ...]
    area_weight: float
    area_margin: float
    scale_prior: float
    rotation_prior: float
    controls: tuple[ControlPoint, ...]
    constraints: tuple[Constraint, ...]
    terrain_types: tuple[TerrainType, ...]
    terrain_from: dict[str, str]  # terrain-region kind -> terrain id
    water_majority: float
    major_levels: tuple[int, ...]
    minor_levels: tuple[int, ...]
    river_simplify_hexes: float
    river_min_length_hexes: float
    places: tuple[tuple[str, str], ...]  # (place name, role)
    hex_features: tuple[HexFeatureRule, ...]
    regions_rename: dict[str, str] = field(default_factory=dict)
    # The date whose borders_1939 "region_1939" features replace the 1940 regions they name
    # (None: the 1940 regions, as the 1940: What If? maps use).
    regions_date: str | None = None
    regions_date_skip: tuple[str, ...] = ()  # dated regions this map leaves out (the rule says)
    area_features: tuple[AreaFeatureRule, ...] = ()
    regions_expected: tuple[str, ...] = ()
    clip: tuple[float, float, float, float] = (-30.0, 20.0, 75.0, 75.0)
    # Off-map boxes (holding boxes, pools, tracks) as (id, name), laid out beside the map.
    boxes: tuple[tuple[str, str], ...] = ()
    warp: WarpSpec | None = None  # None: the similarity alone (the 1940 maps)
    hexside_features: tuple[HexsideFeatureRule, ...] = ()
    # [terrain] coast = true: the ports and islands of coast.geojson stand on land and its
    # straits are crossable hexsides; island_min_share: an island covering at least this share
    # of one hex keeps that hex as land though water covers most of it (0 = off).
    coast: bool = False
    island_min_share: float = 0.0
    points: tuple[PointSpec, ...] = ()

    def projection_args(self) -> dict[str, float]:
        return dict(self.projection)

    @property
    def game(self) -> str:
        return self.id.split("/", 1)[0]

    @property
    def name(self) -> str:
        return self.id.split("/", 1)[-1]


def spec_files(folder: Path) -> list[Path]:
    return sorted((folder / "specs").glob("*.toml"))


# --- reading -----------------------------------------------------------------------------------


class _R:
    """Typed access to one TOML table with errors naming the file and the key."""

    def __init__(self, where: str, d: Any, path: str = "") -> None:
        if not isinstance(d, dict):
            raise DataError(where, path or "(top)", "must be a table")
        self.where, self.d, self.path = where, d, path

    def _k(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def get(self, key: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
        if key not in self.d:
            if default is ...:
                raise DataError(self.where, self._k(key), "is missing")
            return default
        v = self.d[key]
        if isinstance(v, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
            raise DataError(self.where, self._k(key), "must not be true/false")
        if not isinstance(v, kind):
            names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
            raise DataError(self.where, self._k(key), f"must be {names}, not {v!r}")
        return v

    def num(self, key: str, default: Any = ...) -> float:
        return float(self.get(key, (int, float), default))

    def table(self, key: str, default: Any = ...) -> _R:
        return _R(self.where, self.get(key, dict, default), self._k(key))

    def strs(self, key: str, default: Any = ...) -> list[str]:
        v = self.get(key, list, default)
        if not all(isinstance(x, str) for x in v):
            raise DataError(self.where, self._k(key), "must be a list of text")
        return list(v)

    def tables(self, key: str) -> list[_R]:
        v = self.get(key, list, [])
        return [_R(self.where, t, f"{self._k(key)}[{i}]") for i, t in enumerate(v)]


def load_spec(path: Path) -> HexMapSpec:
    where = f"maps/sources/specs/{path.name}"
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise DataError(where, "", f"cannot read the spec ({e.strerror or e})") from e
    except tomllib.TOMLDecodeError as e:
        raise DataError(where, "", f"not valid TOML: {e}") from e
    r = _R(where, doc)

    g = r.table("grid")
    try:
        orient = Orientation(g.get("orientation", str))
        offset = OffsetKind(g.get("offset", str))
    except ValueError as e:
        raise DataError(where, "grid", str(e)) from None
    if offset.orientation is not orient:
        raise DataError(where, "grid.offset", f"{offset.value} does not go with {orient.value}-top")
    rows = g.get("rows", list)
    cols = g.get("cols", list)
    if not (len(rows) == 2 and len(cols) == 2 and all(isinstance(v, int) for v in rows + cols)):
        raise DataError(where, "grid.rows/cols", "must be [low, high] printed numbers")
    try:
        labels = LabelScheme(
            offset,
            column_first=g.get("column_first", bool),
            col_start=g.get("col_start", int), row_start=g.get("row_start", int),
            col_dir=g.get("col_dir", int), row_dir=g.get("row_dir", int),
            col_digits=g.get("col_digits", int, 2), row_digits=g.get("row_digits", int, 2),
            prefix=g.get("prefix", str, ""), separator=g.get("separator", str, ""),
        )
    except ValueError as e:
        raise DataError(where, "grid", str(e)) from None
    grid = GridSpec(orient, offset, (min(rows), max(rows)), (min(cols), max(cols)), labels)

    f = r.table("fit", {})
    cands = []
    for i, c in enumerate(f.get("candidates", list, [])):
        try:
            o, k = Orientation(c[0]), OffsetKind(c[1])
        except (ValueError, IndexError, TypeError):
            raise DataError(where, f"fit.candidates[{i}]", 'must be ["flat"|"pointy", '
                            '"odd-q"|"even-q"|"odd-r"|"even-r"]') from None
        cands.append((o, k))

    controls = []
    for t in r.tables("control"):
        bad = t.get("inconsistent", str, "")
        inset = t.get("inset", bool, False)
        if inset and not bad:
            raise DataError(where, t.path, "an inset control needs 'inconsistent' (why the "
                            "place is not where geography puts it)")
        controls.append(ControlPoint(t.get("place", str), t.get("label", str),
                                     t.get("rule", str), 0.0 if bad else t.num("weight", 1.0),
                                     bad, inset))
    for c in controls:
        grid.expand([c.label], where)
    constraints = []
    for t in r.tables("constraint"):
        kind = t.get("kind", str)
        if kind not in CONSTRAINT_KINDS:
            raise DataError(where, t.path, f"kind must be one of {', '.join(CONSTRAINT_KINDS)}")
        labs = tuple(grid.expand(t.strs("labels"), where))
        region = t.get("region", str, None)
        if kind in ("in_region", "not_in_region") and not region:
            raise DataError(where, t.path, f"a {kind} constraint needs a region")
        hexes = t.get("hexes", int, None)
        if kind == "distance" and (hexes is None or len(labs) != 2):
            raise DataError(where, t.path, "a distance constraint needs two labels and hexes")
        line = t.get("line", str, None)
        if kind == "on_line" and not line:
            raise DataError(where, t.path, "an on_line constraint needs a line")
        enforce = t.get("enforce", bool, False)
        if enforce and kind != "in_region":
            raise DataError(where, t.path, "only an in_region constraint can be enforced")
        constraints.append(Constraint(kind, labs, t.get("rule", str), region, hexes,
                                      t.get("fit", bool, True), t.get("note", str, ""),
                                      line, enforce))

    tt = r.table("terrain")
    types = []
    for t in tt.tables("types"):
        try:
            types.append(TerrainType(t.get("id", str), t.get("name", str), t.get("fill", str),
                                     t.get("pattern", str, None)))
        except ValueError as e:
            raise DataError(where, t.path, str(e)) from None
    ids = {t.id for t in types}
    for need in ("clear", "sea", "lake"):
        if need not in ids:
            raise DataError(where, "terrain.types", f"needs a terrain type '{need}'")
    terrain_from = {k: v for k, v in tt.get("from_regions", dict, {}).items()}
    for k, v in terrain_from.items():
        if v not in ids:
            raise DataError(where, f"terrain.from_regions.{k}", f"unknown terrain type {v!r}")

    rv = r.table("rivers", {})
    places = []
    pl = r.table("places", {})
    for role in pl.d:
        if role not in PLACE_ROLES:
            raise DataError(where, f"places.{role}",
                            f"unknown role (use {', '.join(PLACE_ROLES)})")
        places += [(n, role) for n in pl.strs(role)]
    assert all(PLACE_ROLES[role][0] in PLACE_KINDS for _, role in places)

    feats = []
    for t in r.tables("hex_features"):
        feats.append(HexFeatureRule(t.get("feature", str),
                                    tuple(grid.expand(t.strs("labels"), where)),
                                    t.get("rule", str), t.get("compare_area", str, None)))
    side_feats = []
    for t in r.tables("hexside_features"):
        pairs = []
        for item in t.strs("hexsides"):
            a, sep, b = item.partition("/")
            if not sep:
                raise DataError(where, t.path, f"{item!r}: a hexside is written 'A/B'")
            a, b = (grid.expand([x.strip()], where)[0] for x in (a, b))
            if grid.parse(a).distance(grid.parse(b)) != 1:
                raise DataError(where, t.path, f"{item!r}: the two hexes are not adjacent")
            pairs.append((a, b))
        side_feats.append(HexsideFeatureRule(t.get("feature", str), tuple(pairs),
                                             t.get("rule", str)))
    afeats = tuple(AreaFeatureRule(t.get("feature", str), t.get("terrain_region", str),
                                   t.get("rule", str)) for t in r.tables("area_features"))
    proj = r.table("projection")
    if proj.get("type", str) != "lambert_conformal_conic":
        raise DataError(where, "projection.type", "only lambert_conformal_conic is supported")
    clip = proj.get("clip", list)
    if len(clip) != 4 or not all(isinstance(v, int | float) for v in clip):
        raise DataError(where, "projection.clip", "must be [lon_min, lat_min, lon_max, lat_max]")
    return HexMapSpec(
        area_features=afeats,
        regions_expected=tuple(r.strs("regions_expected", [])),
        clip=(float(clip[0]), float(clip[1]), float(clip[2]), float(clip[3])),
        path=where,
        id=r.get("id", str),
        title=r.get("title", str),
        version=r.get("version", int),
        hex_size_miles=r.num("hex_size_miles"),
        provisional=r.get("provisional", bool, True),
        notes=r.get("notes", str, "").strip(),
        projection={k: proj.num(k) for k in ("lat0", "lon0", "lat1", "lat2")},
        grid=grid,
        candidates=tuple(cands),
        area_weight=f.num("area_weight", 1.0),
        area_margin=f.num("tolerated_wrong_share", 0.35),
        scale_prior=f.num("scale_prior", 0.0),
        rotation_prior=f.num("rotation_prior", 0.0),
        controls=tuple(controls),
        constraints=tuple(constraints),
        terrain_types=tuple(types),
        terrain_from=terrain_from,
        water_majority=tt.num("water_majority", 0.5),
        coast=tt.get("coast", bool, False),
        island_min_share=tt.num("island_min_share", 0.0),
        major_levels=tuple(int(v) for v in rv.get("major_levels", list, [1, 2])),
        minor_levels=tuple(int(v) for v in rv.get("minor_levels", list, [3])),
        river_simplify_hexes=rv.num("simplify_hexes", 0.15),
        river_min_length_hexes=rv.num("min_length_hexes", 1.0),
        places=tuple(places),
        hex_features=tuple(feats),
        regions_rename={k: str(v) for k, v in r.get("regions_rename", dict, {}).items()},
        regions_date=r.get("regions_date", str, None),
        regions_date_skip=tuple(r.strs("regions_date_skip", [])),
        boxes=_boxes(where, doc.get("boxes", [])),
        warp=_checked_warp(_warp(r), grid, where),
        hexside_features=tuple(side_feats),
        points=tuple(PointSpec(t.get("name", str), t.get("kind", str), t.num("lon"),
                               t.num("lat"), t.get("source", str)) for t in r.tables("point")),
    )


def _checked_warp(w: WarpSpec | None, grid: GridSpec, where: str) -> WarpSpec | None:
    if w is not None:
        grid.expand(list(w.anchors), where)
    return w


def _warp(r: _R) -> WarpSpec | None:
    """The optional [warp] table."""
    if "warp" not in r.d:
        return None
    w = r.table("warp")
    kind = w.get("kind", str)
    if kind != "thin_plate_spline":
        raise DataError(r.where, "warp.kind", "only thin_plate_spline is supported")
    lam = w.num("smoothing", 0.0)
    if lam < 0:
        raise DataError(r.where, "warp.smoothing", "must be 0 or more")
    anchors = tuple(w.strs("anchors", []))
    return WarpSpec(kind, lam, w.get("rule", str, ""), anchors)


def _boxes(where: str, raw: Any) -> tuple[tuple[str, str], ...]:
    """[[boxes]] entries: id and name, ids unique."""
    if not isinstance(raw, list):
        raise DataError(where, "boxes", "must be a list of [[boxes]] tables")
    out: list[tuple[str, str]] = []
    for i, b in enumerate(raw):
        if not (isinstance(b, dict) and isinstance(b.get("id"), str) and b["id"]
                and isinstance(b.get("name"), str) and set(b) <= {"id", "name", "rule"}):
            raise DataError(where, f"boxes[{i}]", "needs text fields id and name (and rule)")
        if any(b["id"] == o for o, _ in out):
            raise DataError(where, f"boxes[{i}].id", f"duplicate box {b['id']!r}")
        out.append((b["id"], b["name"]))
    return tuple(out)
