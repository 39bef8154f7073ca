"""Regenerate the derived files in maps/sources from the reference copies and our edits.

    python maps/sources/authoring/make_sources.py [REFERENCE_GEO_DIR]

Writes, deterministically (same input, same bytes):

* ``countries_ne10m.geojson``, ``lakes_ne10m.geojson``: Natural Earth 1:10m (public domain),
  clipped to Europe and the Near East (30°W–75°E, 20°N–75°N); coordinates kept at 0.001°.
* ``rivers_gshhg_europe.geojson``: GSHHG/WDBII rivers (LGPL-3), copied unchanged.
* ``borders_1939.geojson``: the 1939–40 political regions the games need, composed from the
  modern Natural Earth countries plus the hand-drawn lines and polygons in BORDER_EDITS
  below (each with its source), and the lines themselves as LineString features.

Run it after editing BORDER_EDITS; commit its outputs. The map builder reads only the outputs.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from shapely.geometry import LineString, MultiPolygon, Polygon, box, mapping, shape
from shapely.ops import unary_union
from shapely.validation import make_valid

HERE = Path(__file__).resolve().parent
SOURCES = HERE.parent
CLIP = box(-30.0, 20.0, 75.0, 75.0)

# --- hand-drawn 1939-40 lines (lon, lat), north to south ---------------------------------
# Accuracy: about 5-10 km, from the towns on each side named in the comments (atlas
# knowledge of the 1939 frontiers); ample for hexes of 16-25 miles.

SEP28_LINE = {
    "name": "German-Soviet frontier of 28 September 1939",
    "source": "hand-drawn: Sejny, Augustow, Ostroleka, Ostrow Mazowiecka German; Grodno, "
              "Lomza, Zambrow Soviet; then the Bug (Nur, Drohiczyn, Brest, Wlodawa, "
              "Hrubieszow, Sokal), overland to the San at Przemysl and up the San",
    "coords": [
        (23.55, 54.40), (23.52, 54.02), (23.42, 53.85), (23.20, 53.65), (22.90, 53.55),
        (22.55, 53.40), (22.20, 53.30), (21.95, 53.25), (21.90, 53.15), (22.00, 53.00),
        (22.20, 52.85), (22.30, 52.68), (22.45, 52.55), (22.66, 52.40), (23.05, 52.33),
        (23.20, 52.22), (23.62, 52.08), (23.65, 51.85), (23.55, 51.55), (23.70, 51.35),
        (23.80, 51.17), (23.90, 50.81), (24.10, 50.62), (24.28, 50.46), (23.60, 50.30),
        (23.00, 50.10), (22.75, 49.90), (22.77, 49.78), (22.55, 49.60), (22.40, 49.45),
        (22.55, 49.25), (22.70, 49.05),
    ],
}
AUG23_LINE = {
    "name": "German-Soviet line of 23 August 1939 (Pisa-Narew-Vistula-San)",
    "source": "hand-drawn along the rivers of the secret protocol: the Narew from Nowogrod "
              "(Ostroleka, Rozan, Pultusk, Serock) to the Vistula at Modlin, up the Vistula "
              "(Warsaw, Gora Kalwaria, Deblin, Pulawy, Annopol) to the San, up the San "
              "(Nisko, Lezajsk, Jaroslaw) to Przemysl",
    "coords": [
        (21.88, 53.23), (21.57, 53.08), (21.40, 52.88), (21.08, 52.70), (21.05, 52.51),
        (20.72, 52.43), (20.90, 52.35), (21.03, 52.25), (21.10, 52.10), (21.21, 51.98),
        (21.38, 51.77), (21.60, 51.62), (21.85, 51.56), (21.95, 51.42), (21.95, 51.32),
        (21.85, 51.05), (21.85, 50.89), (21.85, 50.80), (21.82, 50.68), (22.05, 50.57),
        (22.12, 50.52), (22.42, 50.26), (22.68, 50.02), (22.77, 49.78),
    ],
}
RIGA_LINE = {
    "name": "Polish-Soviet frontier of 1921-1939 (Treaty of Riga)",
    "source": "hand-drawn: Dzisna, Glebokie, Dokszyce, Pleszczenice, Radoszkowicze, Stolpce, "
              "Nieswiez, Luniniec, Stolin, Rokitno, Ostrog Polish; Polotsk, Borisov, Minsk, "
              "Zaslawl, Kojdanow, Olevsk Soviet; the Zbruch to the Dniester",
    "coords": [
        (28.15, 55.95), (28.35, 55.70), (28.35, 55.50), (28.10, 55.30), (27.90, 55.05),
        (27.95, 54.75), (27.95, 54.45), (27.45, 54.20), (27.25, 54.05), (27.15, 53.85),
        (27.00, 53.65), (26.95, 53.45), (27.05, 53.20), (27.15, 52.95), (27.40, 52.60),
        (27.55, 52.30), (27.55, 52.00), (27.45, 51.60), (27.25, 51.25), (27.20, 50.90),
        (27.10, 50.60), (26.70, 50.25), (26.25, 49.80), (26.10, 49.35), (26.30, 48.55),
    ],
}
# Closing arcs of the Former Poland polygon; they run through neighbours (Slovakia,
# Romania, Lithuania, Latvia) and are cut away by the intersection with POL/BLR/UKR.
_FP_SOUTH = [(23.5, 48.9), (24.6, 48.2), (25.2, 47.9), (25.9, 48.25)]
_FP_NORTH = [(27.0, 56.4), (24.0, 56.2)]

MEMEL = {
    "name": "Memel Territory (German from 22 March 1939)",
    "source": "hand-drawn: from the coast at Nemirseta east of Kretinga's southern edge, "
              "west of Gargzdai and Taurage, to the Neman at Smalininkai; the Neman to the "
              "lagoon",
    "coords": [(20.90, 55.88), (21.25, 55.88), (21.33, 55.74), (21.60, 55.55), (21.80, 55.45),
               (22.05, 55.32), (22.15, 55.20), (22.45, 55.10), (22.62, 55.07), (22.70, 54.90),
               (20.90, 54.90)],
}
PETSERI = {
    "name": "Petseri county and the Narva east bank (Estonian 1920-1940)",
    "source": "hand-drawn from the Tartu treaty line: Pechory and Izborsk Estonian; Ivangorod "
              "Estonian",
    "parts": [
        [(27.35, 57.95), (27.60, 57.98), (27.90, 57.85), (28.05, 57.72), (28.02, 57.52),
         (27.70, 57.45), (27.35, 57.50)],
        [(28.00, 59.70), (28.40, 59.70), (28.45, 59.30), (28.25, 59.05), (28.00, 59.05)],
    ],
}
ABRENE = {
    "name": "Abrene district (Latvian 1920-1944)",
    "source": "hand-drawn: Pytalovo (Abrene) Latvian",
    "parts": [[(27.60, 57.35), (28.15, 57.35), (28.25, 57.10), (28.10, 56.90), (27.60, 56.85)]],
}

GAME_NAMES = {"NLD": "Holland"}  # the rulebooks' names where they differ from Natural Earth


def rnd(g):
    """Round coordinates to 0.001 degrees (the reference data's precision)."""
    def ring(c):
        return [(round(x, 3), round(y, 3)) for x, y in c]
    if g.is_empty:
        return g
    if isinstance(g, Polygon):
        return Polygon(ring(g.exterior.coords), [ring(i.coords) for i in g.interiors])
    if isinstance(g, MultiPolygon):
        return MultiPolygon([rnd(p) for p in g.geoms])
    if isinstance(g, LineString):
        return LineString(ring(g.coords))
    raise TypeError(g.geom_type)


def clean(g):
    """Rounded, valid, polygons only (rounding can make a ring touch itself)."""
    return polys_only(make_valid(rnd(polys_only(make_valid(g)))))


def polys_only(g):
    if isinstance(g, Polygon | MultiPolygon):
        return g
    parts: list[Polygon] = []
    for p in getattr(g, "geoms", []):
        if isinstance(p, Polygon):
            parts.append(p)
        elif isinstance(p, MultiPolygon):
            parts.extend(p.geoms)
    return MultiPolygon(parts) if parts else Polygon()


def write(path: Path, features: list[dict]) -> None:
    lines = ['{"type": "FeatureCollection", "features": [']
    for i, f in enumerate(features):
        comma = "," if i < len(features) - 1 else ""
        lines.append(json.dumps(f, sort_keys=True, ensure_ascii=False,
                                separators=(",", ":")) + comma)
    lines.append("]}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def feature(geom, **props):
    return {"type": "Feature", "properties": props, "geometry": mapping(geom)}


def main(ref: Path) -> None:
    countries = json.loads((ref / "countries_ne10m.geojson").read_text(encoding="utf-8"))
    out, by_code = [], {}
    for f in countries["features"]:
        g = shape(f["geometry"])
        if not g.intersects(CLIP):
            continue
        g = clean(g.intersection(CLIP))
        p = f["properties"]
        keep = {k: p[k] for k in ("name", "adm0_a3", "sovereign", "continent")}
        out.append(feature(g, **keep))
        by_code[p["adm0_a3"]] = g
    out.sort(key=lambda f: f["properties"]["adm0_a3"])
    write(SOURCES / "countries_ne10m.geojson", out)

    lakes = json.loads((ref / "lakes_ne10m.geojson").read_text(encoding="utf-8"))
    lk = []
    for f in lakes["features"]:
        g = shape(f["geometry"])
        if g.intersects(CLIP):
            lk.append(feature(clean(g.intersection(CLIP)), **f["properties"]))
    lk.sort(key=lambda f: (f["properties"]["lon"], f["properties"]["lat"]))
    write(SOURCES / "lakes_ne10m.geojson", lk)

    (SOURCES / "rivers_gshhg_europe.geojson").write_bytes(
        (ref / "rivers_gshhg_europe.geojson").read_bytes())

    # --- 1939-40 regions ---
    ne = "Natural Earth 1:10m admin-0 (modern borders)"
    # SEP28 runs north->south, then the south arc, then RIGA south->north, then the north arc.
    fp_ring = (SEP28_LINE["coords"] + _FP_SOUTH + RIGA_LINE["coords"][::-1] + _FP_NORTH)
    fp_poly = Polygon(fp_ring).buffer(0)
    rev_poly = Polygon(AUG23_LINE["coords"] + SEP28_LINE["coords"][8:27][::-1]).buffer(0)
    old_poland = unary_union([by_code["POL"], by_code["BLR"], by_code["UKR"]])
    soviet_poland = old_poland.intersection(fp_poly)
    revision = by_code["POL"].intersection(rev_poly).difference(soviet_poland)
    former_poland = unary_union([soviet_poland, revision])
    memel = by_code["LTU"].intersection(Polygon(MEMEL["coords"]))
    rus = by_code["RUS"]
    kaliningrad = rus.intersection(box(19.0, 54.2, 23.0, 55.4))
    petseri = rus.intersection(MultiPolygon([Polygon(p) for p in PETSERI["parts"]]))
    abrene = rus.intersection(MultiPolygon([Polygon(p) for p in ABRENE["parts"]]))
    greater_germany = unary_union([by_code[c] for c in ("DEU", "AUT", "CZE", "POL")]
                                  + [kaliningrad, memel]).difference(former_poland)
    ussr = unary_union([rus, by_code["BLR"], by_code["UKR"]]).difference(
        unary_union([former_poland, kaliningrad, petseri, abrene]))

    regions = [
        ("Greater Germany", greater_germany,
         f"{ne}: Germany, Austria, Czechia, Poland, Kaliningrad, plus the Memel Territory; "
         "minus Former Poland. Includes the Polish lands annexed in 1939 and the General "
         "Government (German-held Poland), which the rulebook's 'Greater Germany' takes in "
         "([6.5]: the east map's west edge 4300-5200 lies inside it). The Suwalki/Kolno strip "
         "east of the Pisa is German here (annexed October 1939): the rulebook marks only "
         "five south-west-corner hexes as the Polish Boundary Revision [3.10]"),
        ("Former Poland", former_poland,
         "Polish lands of 1939 (Natural Earth Poland, Belarus, Ukraine) east of the German-"
         "Soviet line of 23 August 1939 and west of the Riga line: the Soviet zone of the "
         "standard game [3.11], including the Polish Boundary Revision; the Vilna region is "
         "Lithuania's (the 1939 protocol recognised Lithuania's interest in it)"),
        ("USSR", ussr,
         f"{ne}: Russia, Belarus, Ukraine minus Former Poland, Kaliningrad, Petseri, Abrene; "
         "the Karelian isthmus is Soviet (Moscow peace, March 1940)"),
        ("Lithuania", by_code["LTU"].difference(memel),
         f"{ne}: Lithuania (with Vilna) minus the Memel Territory"),
        ("Latvia", unary_union([by_code["LVA"], abrene]), f"{ne}: Latvia plus Abrene"),
        ("Estonia", unary_union([by_code["EST"], petseri]),
         f"{ne}: Estonia plus Petseri and the Narva east bank"),
    ]
    used = {"DEU", "AUT", "CZE", "POL", "RUS", "BLR", "UKR", "LTU", "LVA", "EST", "ALD"}
    regions_1939_ok = {"FRA", "BEL", "NLD", "LUX", "CHE", "DNK", "SWE", "FIN"}
    for code in sorted(by_code):
        if code in used:
            continue
        name = GAME_NAMES.get(code) or next(
            f["properties"]["name"] for f in out if f["properties"]["adm0_a3"] == code)
        g = by_code[code]
        if code == "FIN":
            g = unary_union([g, by_code["ALD"]])  # the Aland islands are Finnish
        if code in regions_1939_ok:
            note = (f"{ne}: {name}; its modern border is the 1939-40 one where the maps built "
                    "so far need it (Finland: after the Moscow peace of March 1940)")
        else:
            note = (f"{ne}: {name}, MODERN border, not yet corrected to 1939 (no map built so "
                    "far needs it)")
        regions.append((name, g, note))
    feats = [feature(clean(g), name=n, kind="region", source=s) for n, g, s in regions]
    feats.append(feature(clean(revision), name="Polish Boundary Revision",
                         kind="revision",
                         source="between the 23 August and 28 September 1939 lines, south of "
                                "the Narew at Nowogrod: the five-hex area of [3.10]"))
    for line in (AUG23_LINE, SEP28_LINE, RIGA_LINE):
        feats.append(feature(rnd(LineString(line["coords"])), name=line["name"], kind="line",
                             source=line["source"]))
    for edit in (MEMEL, PETSERI, ABRENE):
        parts = edit.get("parts") or [edit["coords"]]
        feats.append(feature(rnd(MultiPolygon([Polygon(p) for p in parts])), name=edit["name"],
                             kind="edit", source=edit["source"]))
    write(SOURCES / "borders_1939.geojson", feats)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/work/shared/reference/geo"))
