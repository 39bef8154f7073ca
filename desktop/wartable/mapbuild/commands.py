"""`wartable map …`: build, inspect, locate and render hex maps.

    wartable map build [ID ...] [--check]     build maps from maps/sources/specs (all if none)
    wartable map info MAP                     counts: hexes, hexside features, places, terrain
    wartable map locate MAP LAT LON           the hex at a latitude/longitude, described
    wartable map render MAP -o FILE.png [--scale PX_PER_HEX] [--geography] [--regions]
                                              [--crop LABEL[,RADIUS]]

MAP is a map id ("whatif1940/east") or a map file path. Built maps live in
``wartable.mapdata/<game>/<name>.json.gz`` (the top-level ``maps/`` folder of a checkout)
with ``<name>.geo.json`` (the fitted georeference, for `locate`) and ``<name>.report.txt``.

Layering: `mapbuild` and `printing` are independent layers of equal rank, so this module does
not import `wartable.printing`; `render` receives the renderer from the caller
(`add_map_commands(subparsers, render=...)`) or, by default, looks it up by name at run time.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from wartable.core.errors import DataError, WartableError
from wartable.core.hexgrid import Hexside
from wartable.maps import AreaMap, HexMap, dump_map, load_map

__all__ = ["add_map_commands", "build_maps", "find_map", "locate"]

RENDERER = "wartable.printing.maprender"


def add_map_commands(subparsers: Any, render: Callable[..., Any] | None = None) -> Any:
    """Register `map` and its sub-subcommands on an argparse subparsers object.

    Each handler is stored as ``func`` (takes the Namespace, returns the exit code).
    """
    p = subparsers.add_parser("map", help="build, inspect, locate and render maps")
    sub = p.add_subparsers(dest="map_command", metavar="{build,info,locate,hex,render}")
    sub.required = True

    b = sub.add_parser("build", help="build hex maps from maps/sources (all when no ID)")
    b.add_argument("ids", nargs="*", metavar="ID", help='map ids, e.g. "whatif1940/east"')
    b.add_argument("--check", action="store_true",
                   help="build in memory and compare with the committed files; write nothing")
    b.set_defaults(func=cmd_build)

    i = sub.add_parser("info", help="counts of a built map")
    i.add_argument("map", metavar="MAP")
    i.set_defaults(func=cmd_info)

    loc = sub.add_parser("locate", help="the hex at a latitude and longitude")
    loc.add_argument("map", metavar="MAP")
    loc.add_argument("lat", type=float, metavar="LAT")
    loc.add_argument("lon", type=float, metavar="LON")
    loc.set_defaults(func=cmd_locate)

    hx = sub.add_parser("hex", help="a hex's terrain, region, places and hexside features")
    hx.add_argument("map", metavar="MAP")
    hx.add_argument("label", metavar="LABEL", help='a hex id as printed, e.g. "W 3817"')
    hx.set_defaults(func=cmd_hex)

    r = sub.add_parser("render", help="draw a map to a PNG")
    r.add_argument("map", metavar="MAP")
    r.add_argument("-o", "--output", required=True, metavar="FILE.png")
    r.add_argument("--scale", type=float, default=40.0, metavar="PX_PER_HEX",
                   help="pixels from one hex centre to the next (default 40)")
    r.add_argument("--geography", action="store_true",
                   help="draw the real coastlines and rivers over the hexes (rebuilds the map "
                        "geometry from the sources)")
    r.add_argument("--regions", action="store_true", help="tint hexes by country/region")
    r.add_argument("--crop", metavar="LABEL[,RADIUS]",
                   help="only the hexes within RADIUS (default 4) of hex LABEL")
    r.set_defaults(func=cmd_render, renderer=render)
    return sub  # so the CLI can add commands from other layers (map export, in printing)


# --- finding maps -------------------------------------------------------------------------------


def find_map(ref: str) -> tuple[HexMap | AreaMap, Path | None]:
    """A map by id ("whatif1940/east") or by file path; returns the map and its file."""
    from wartable.mapbuild.sources import maps_dir

    path = Path(ref)
    if not path.is_file():
        game, _, name = ref.partition("/")
        if not name:
            raise WartableError(f"{ref!r} is neither a map file nor a map id like "
                                "'whatif1940/east'")
        path = None  # type: ignore[assignment]
        for fname in (f"{name}.json.gz", f"{name}.json"):
            cand = maps_dir() / game / fname
            if cand.is_file():
                path = cand
                break
        if path is None:
            raise WartableError(f"map {ref!r} is not built: no {game}/{name}.json(.gz) in "
                                f"{maps_dir()}; run 'wartable map build {ref}'")
    return load_map(path), path


def _specs() -> dict[str, Path]:
    from wartable.mapbuild.sources import sources_dir
    from wartable.mapbuild.spec import load_spec, spec_files

    out = {}
    for f in spec_files(sources_dir()):
        out[load_spec(f).id] = f
    return out


# --- build ------------------------------------------------------------------------------------


def build_maps(ids: list[str], *, write: bool = True) -> list[tuple[str, str, bool]]:
    """Build maps; returns (id, report text, files unchanged?) for each."""
    from wartable.mapbuild.hexbuild import build_hex_map
    from wartable.mapbuild.sources import load_layers, maps_dir
    from wartable.mapbuild.spec import load_spec

    specs = _specs()
    if not specs:
        raise DataError("maps/sources/specs", "", "no map specs (*.toml) found")
    todo = ids or sorted([*specs, *AREA_MAPS])
    out = []
    for map_id in [i for i in todo if i in AREA_MAPS]:
        out.append(_build_area(map_id, write))
    todo = [i for i in todo if i not in AREA_MAPS]
    unknown = [i for i in todo if i not in specs]
    if unknown:
        raise WartableError(f"no build spec for {', '.join(unknown)} (known: "
                            f"{', '.join(sorted(specs))})")
    layers = load_layers() if todo else None
    for map_id in todo:
        assert layers is not None
        spec = load_spec(specs[map_id])
        res = build_hex_map(spec, layers)
        folder = maps_dir() / spec.game
        files = {
            folder / f"{spec.name}.json.gz": dump_map(res.map, compress=True),
            folder / f"{spec.name}.geo.json": (json.dumps(
                {"map": spec.id, **res.georef.to_dict()}, indent=1, sort_keys=True) + "\n"
            ).encode("utf-8"),
        }
        res.report.output = str(Path(spec.game) / f"{spec.name}.json.gz")
        text = res.report.text()
        files[folder / f"{spec.name}.report.txt"] = text.encode("utf-8")
        same = all(p.is_file() and p.read_bytes() == data for p, data in files.items())
        if write:
            folder.mkdir(parents=True, exist_ok=True)
            init = folder / "__init__.py"
            if not init.exists():
                init.write_text("")
            for p, data in files.items():
                if not (p.is_file() and p.read_bytes() == data):
                    p.write_bytes(data)
        out.append((map_id, text, same))
    out.extend(_build_seams(todo, write))
    return out


def _build_seams(built: list[str], write: bool) -> list[tuple[str, str, bool]]:
    """The seam files of the joined maps just built (maps/sources/seams/*.toml; issue 19)."""
    from wartable.mapbuild.seambuild import load_seam_spec, seam_files, seam_specs
    from wartable.mapbuild.sources import maps_dir, sources_dir

    out = []
    for f in seam_specs(sources_dir()):
        spec = load_seam_spec(f)
        if spec.west not in built and spec.east not in built:
            continue
        files, text = seam_files(spec, maps_dir(), find_map)
        same = all(p.is_file() and p.read_bytes() == data for p, data in files.items())
        if write:
            for p, data in files.items():
                if not (p.is_file() and p.read_bytes() == data):
                    p.write_bytes(data)
        out.append((f"{spec.id}/seams", text, same))
    return out


# Area maps are built by their own module (territories from countries, sea zones).
AREA_MAPS = {"aa_anniversary/world": "wartable.mapbuild.area_world"}


def _build_area(map_id: str, write: bool) -> tuple[str, str, bool]:
    import importlib
    import tempfile

    from wartable.mapbuild.sources import maps_dir

    module = importlib.import_module(AREA_MAPS[map_id])
    game, _, name = map_id.partition("/")
    out = maps_dir() / game / f"{name}.json.gz"
    before = out.read_bytes() if out.is_file() else None
    if write:
        check = module.build_world_file(out)
        same = before == out.read_bytes()
    else:
        with tempfile.TemporaryDirectory() as d:
            tmp = Path(d) / out.name
            check = module.build_world_file(tmp)
            same = before == tmp.read_bytes()
    return map_id, check.text(), same


def cmd_build(args: argparse.Namespace) -> int:
    results = build_maps(list(args.ids), write=not args.check)
    bad = False
    for map_id, text, same in results:
        print(text)
        if args.check:
            verdict = "matches" if same else "DIFFERS from"
            print(f"{map_id}: {verdict} the committed files")
            bad |= not same
        else:
            print(f"{map_id}: {'unchanged' if same else 'written'}")
        bad |= "SOME CHECKS FAIL" in text
    return 1 if bad else 0


# --- info / locate --------------------------------------------------------------------------------


def info_text(m: HexMap) -> str:
    terrain = Counter(i.terrain for i in m.hexes.values())
    regions = Counter(i.region or "(water)" for i in m.hexes.values())
    sides: Counter[str] = Counter()
    for f in m.hexsides.values():
        sides.update(f)
    feats: Counter[str] = Counter()
    for i in m.hexes.values():
        feats.update(i.features)
    lines = [
        f"{m.id}: {m.title} (version {m.version}{', provisional' if m.provisional else ''})",
        f"  hexes: {len(m.hexes)}  ({m.layout.orientation.value}-top, "
        f"{m.labels.kind.value}, {m.hex_size_miles or '?'} miles per hex)",
        f"  hexsides with features: {len(m.hexsides)} — "
        + ", ".join(f"{k} {v}" for k, v in sorted(sides.items())),
        f"  named places: {len(m.places)}",
        "  terrain: " + ", ".join(f"{m.terrain_types[k].name} {v}"
                                  for k, v in sorted(terrain.items())),
        "  regions: " + ", ".join(f"{k} {v}" for k, v in sorted(regions.items())),
        "  hex features: " + (", ".join(f"{k} {v}" for k, v in sorted(feats.items())) or "none"),
    ]
    return "\n".join(lines)


def area_info_text(m: AreaMap) -> str:
    land = sum(1 for s in m.spaces.values() if s.kind == "land")
    return "\n".join([
        f"{m.id}: {m.title} (version {m.version}{', provisional' if m.provisional else ''})",
        f"  spaces: {len(m.spaces)} ({land} land, {len(m.spaces) - land} sea)",
        f"  adjacencies: {len(m.adjacency)}",
        f"  named places: {len(m.places)}",
        f"  off-map boxes: {len(m.boxes)}",
    ])


def cmd_info(args: argparse.Namespace) -> int:
    m, _ = find_map(args.map)
    print(info_text(m) if isinstance(m, HexMap) else area_info_text(m))
    return 0


def hex_text(m: HexMap, label: str) -> str:
    """One hex as its owner reads it: terrain, region, places, features, and each hexside
    with its neighbour and features."""
    try:
        h = m.hex_of(label)
    except (KeyError, ValueError) as e:
        raise WartableError(f"{label!r} is not a hex of map {m.id}") from e
    if h not in m.hexes:
        raise WartableError(f"{label!r} is not a hex of map {m.id}")
    info = m.hexes[h]
    out = [m.describe(m.label_of(h)),
           f"  terrain: {info.terrain}",
           f"  region: {info.region or '(water)'}",
           f"  places: {', '.join(info.places) or 'none'}",
           f"  features: {', '.join(info.features) or 'none'}",
           "  hexsides:"]
    for n in h.neighbors():
        if n not in m.hexes:
            out.append("    (map edge)")
            continue
        feats = m.hexsides.get(Hexside.between(h, n), ())
        out.append(f"    to {m.label_of(n)} ({m.hexes[n].terrain}): "
                   f"{', '.join(feats) or 'nothing'}")
    out += _seam_lines(m, m.label_of(h))
    return "\n".join(out)


def _seam_lines(m: HexMap, label: str) -> list[str]:
    """Where the hex meets another map of its theatre (maps/<game>/seams.json, issue 19)."""
    from wartable.maps.seams import seam_of

    seam = seam_of(m.id)
    if seam is None:
        return []
    if not seam.owns(m.id, label):
        other = seam.east if m.id == seam.west else seam.west
        return [f"  seam: beyond the seam, on {other}'s ground (not played on {m.id})"]
    joined = seam.joined(m.id, label)
    if not joined:
        return []
    return ["  seam: joins " + ", ".join(f"{lab} ({mid})" for mid, lab in joined)]


def cmd_hex(args: argparse.Namespace) -> int:
    m, _ = find_map(args.map)
    if not isinstance(m, HexMap):
        raise WartableError(f"{m.id} is an area map; 'map hex' reads hex maps")
    print(hex_text(m, args.label))
    return 0


def _georef(path: Path | None, m: HexMap) -> Any:
    from wartable.mapbuild.hexbuild import Georef

    if path is None:
        raise WartableError(f"{m.id}: no georeference")
    stem = path.name.removesuffix(".gz").removesuffix(".json")
    geo = path.with_name(f"{stem}.geo.json")
    if not geo.is_file():
        raise WartableError(f"{m.id} has no georeference file {geo.name}; rebuild it with "
                            f"'wartable map build {m.id}'")
    try:
        return Georef.from_dict(json.loads(geo.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise WartableError(f"{geo}: not a readable georeference ({e})") from e


def locate(m: HexMap, path: Path | None, lat: float, lon: float) -> str | None:
    """The label of the hex at a latitude/longitude, or None when it is off the map."""
    if not (-90 < lat < 90 and -180 <= lon <= 180):
        raise WartableError(f"latitude {lat} / longitude {lon} is not a place on Earth")
    x, y = _georef(path, m).to_map(lon, lat)
    h = m.layout.hex_at(x, y)
    return m.label_of(h) if h in m.hexes else None


def locate_area(m: AreaMap, lat: float, lon: float) -> str | None:
    """The space at a latitude/longitude on an area map built by an AREA_MAPS module."""
    import importlib

    if not (-90 < lat < 90 and -180 <= lon <= 180):
        raise WartableError(f"latitude {lat} / longitude {lon} is not a place on Earth")
    module = importlib.import_module(AREA_MAPS[m.id])
    proj = module.load_world_sources(module.SOURCES_DIR).layout.projection
    return m.location_at(proj.x(lon), proj.y(lat))


def cmd_locate(args: argparse.Namespace) -> int:
    m, path = find_map(args.map)
    if isinstance(m, AreaMap):
        space = locate_area(m, args.lat, args.lon)
        if space is None:
            raise WartableError(f"{args.lat}, {args.lon} is in no space of map {m.id}")
        print(space)
        print(m.describe(space))
        return 0
    label = locate(m, path, args.lat, args.lon)
    if label is None:
        raise WartableError(f"{args.lat}, {args.lon} is off map {m.id}")
    print(label)
    print(m.describe(label))
    return 0


# --- render -----------------------------------------------------------------------------------


def cmd_render(args: argparse.Namespace) -> int:
    m, path = find_map(args.map)
    module = importlib.import_module(RENDERER)
    if isinstance(m, AreaMap):
        return _render_area(m, args, module)
    render_hex_map: Callable[..., Any] = args.renderer or module.render_hex_map
    overlay_cls = module.Overlay
    if not (args.scale > 0 and math.isfinite(args.scale)):
        raise WartableError(f"--scale must be a positive number of pixels, not {args.scale}")
    crop = None
    if args.crop:
        label, _, radius = args.crop.partition(",")
        try:
            centre = m.hex_of(label)
        except KeyError as e:
            raise WartableError(str(e).strip("'\"")) from None
        r = int(radius) if radius else 4
        step = math.sqrt(3) * m.layout.size_x
        cx, cy = m.layout.hex_to_pixel(centre)
        crop = (cx - r * step, cy - r * step * 0.9, cx + r * step, cy + r * step * 0.9)
    overlays = []
    if args.geography:
        overlays = geography_overlays(m, overlay_cls)
    img = render_hex_map(m, scale=args.scale, overlays=overlays, crop=crop,
                         regions=args.regions)
    try:
        img.save(args.output)
    except OSError as e:
        raise WartableError(f"cannot write {args.output}: {e.strerror or e}") from e
    print(f"{m.id}: {img.size[0]} x {img.size[1]} px -> {args.output}")
    return 0


def _render_area(m: AreaMap, args: argparse.Namespace, module: Any) -> int:
    """An area map through the print renderer; --scale is pixels across a typical space and
    --crop SPACE[,N] shows that space with N of its own widths around it."""
    if not (args.scale > 0 and math.isfinite(args.scale)):
        raise WartableError(f"--scale must be a positive number of pixels, not {args.scale}")
    if args.geography or args.regions:
        raise WartableError(f"{m.id} is an area map: --geography and --regions draw hex maps "
                            "only")
    crop = None
    if args.crop:
        name, _, radius = args.crop.partition(",")
        try:
            poly = m.space(name).polygon
        except KeyError as e:
            raise WartableError(str(e.args[0])) from None
        x0, y0, x1, y1 = poly.bounds
        r = (int(radius) if radius else 2) * max(x1 - x0, y1 - y0, 1e-9)
        crop = (x0 - r, y0 - r, x1 + r, y1 + r)
    img = module.render_area_map(m, scale=args.scale, crop=crop)
    try:
        img.save(args.output)
    except OSError as e:
        raise WartableError(f"cannot write {args.output}: {e.strerror or e}") from e
    print(f"{m.id}: {img.size[0]} x {img.size[1]} px -> {args.output}")
    return 0


def geography_overlays(m: HexMap, overlay_cls: Any) -> list[Any]:
    """The real coastline, lakes, rivers and 1939 borders in the map's units (rebuilt from the
    sources with the map's spec), for drawing over the hexes."""
    from wartable.mapbuild.hexbuild import build_hex_map
    from wartable.mapbuild.sources import load_layers
    from wartable.mapbuild.spec import load_spec

    specs = _specs()
    if m.id not in specs:
        raise WartableError(f"no build spec for {m.id}, so no geography to draw")
    g = build_hex_map(load_spec(specs[m.id]), load_layers()).geometry
    out = [overlay_cls(g["land"].boundary, "#0b3d91", None, 1.2, None, 200),
           overlay_cls(g["lakes"].boundary, "#0b3d91", None, 1.0, None, 200)]
    for r in g["rivers_major"]:
        out.append(overlay_cls(r, "#00a0ff", None, 1.6, None, 220))
    for r in g["rivers_minor"]:
        out.append(overlay_cls(r, "#40c0ff", None, 1.0, None, 220))
    return out
