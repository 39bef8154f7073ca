"""Draw the source layers of a lon/lat box to a PNG, to check an edit by eye.

    python maps/sources/authoring/render_layers.py LON0 LAT0 LON1 LAT1 OUT.png

Coastlines and lakes (blue), rivers (GSHHG level 1-2 dark, 3 light), 1939-40 regions (tinted,
with the hand-drawn lines in black and the Polish Boundary Revision in orange; the regions of
1 September 1939 outlined in purple), terrain regions,
places, fortified lines and the 1940 water edits. Longitude is scaled by the cosine of the mid
latitude, so shapes look right near the box's middle.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCES = HERE.parent
sys.path.insert(0, str(HERE.parents[2] / "desktop"))

from shapely import affinity  # noqa: E402
from shapely.geometry import box, shape  # noqa: E402
from shapely.ops import unary_union  # noqa: E402

from wartable.printing.maprender import Overlay, render_shapes  # noqa: E402

TINTS = ["#ff9090", "#90b0ff", "#a0e0a0", "#ffd080", "#d0a0ff", "#80e0e0", "#ffa0d0",
         "#d0d080", "#c0c0c0"]
TERRAIN = {"forest": "#208020", "hill": "#a06020", "marsh": "#20a0a0", "ardennes": "#105010",
           "mountain": "#703010", "desert": "#e0b000"}
EXTRA = ("terrain_regions.geojson", "places.geojson", "fortifications.geojson",
         "water_1940.geojson")


def load(name: str) -> list[dict]:
    return json.loads((SOURCES / name).read_text(encoding="utf-8"))["features"]


def render(bbox: tuple[float, float, float, float], out: str, width: int = 1800) -> None:
    lon0, lat0, lon1, lat1 = bbox
    c = math.cos(math.radians((lat0 + lat1) / 2))
    clip = box(*bbox)

    def tr(g):  # type: ignore[no-untyped-def]
        return affinity.affine_transform(g.intersection(clip), [c, 0, 0, -1, 0, 0])

    ovs = []
    land = unary_union([g for g in (shape(f["geometry"]) for f in load(
        "countries_ne10m.geojson")) if g.intersects(clip)])
    ovs.append(Overlay(tr(land), stroke="#4070a0", fill="#f4f0e0", width=1))
    i = 0
    for f in load("borders_1939.geojson"):
        g, p = shape(f["geometry"]), f["properties"]
        if not g.intersects(clip):
            continue
        if p["kind"] == "region":
            ovs.append(Overlay(tr(g), "#803030", TINTS[i % len(TINTS)], 1.5, p["name"], 200))
            i += 1
        elif p["kind"] == "revision":
            ovs.append(Overlay(tr(g), "#ff6000", "#ffb060", 2, "REVISION"))
        elif p["kind"] == "region_1939":  # 1 September 1939: outlined, not tinted
            ovs.append(Overlay(tr(g), "#c000c0", None, 2.5, p["name"], 200))
        elif p["kind"] == "line":
            ovs.append(Overlay(tr(g), "#000000", None, 2))
    for f in load("lakes_ne10m.geojson"):
        g = shape(f["geometry"])
        if g.intersects(clip):
            ovs.append(Overlay(tr(g), "#4070a0", "#a0c8f0", 1))
    for f in load("rivers_gshhg_europe.geojson"):
        g = shape(f["geometry"])
        if g.intersects(clip):
            lv = f["properties"]["level"]
            ovs.append(Overlay(tr(g), "#1040c0" if lv < 3 else "#5090e0", None,
                               {1: 2.5, 2: 1.6}.get(lv, 1.0)))
    for name in EXTRA:
        for f in load(name):
            g, p = shape(f["geometry"]), f["properties"]
            if not g.intersects(clip):
                continue
            if g.geom_type == "Point":
                ovs.append(Overlay(tr(g), "#000000", None, 2.5, p.get("name")))
            else:
                col = TERRAIN.get(p.get("terrain", ""), "#ff00ff")
                ovs.append(Overlay(tr(g), col, col, 2, p.get("name"), 90))
    img = render_shapes(ovs, (lon0 * c, -lat1, lon1 * c, -lat0), width=width, title=out)
    img.save(out)
    print(out, img.size)


if __name__ == "__main__":
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    render((float(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])),
           sys.argv[5])
