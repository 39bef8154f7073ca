"""Regenerate the derived files in maps/sources from the reference copies and our edits.

    python maps/sources/authoring/make_sources.py [REFERENCE_GEO_DIR]

Writes, deterministically (same input, same bytes):

* ``countries_ne10m.geojson``, ``lakes_ne10m.geojson``: Natural Earth 1:10m (public domain),
  clipped to Europe and the Near East (30°W–75°E, 20°N–75°N); coordinates kept at 0.001°.
* ``rivers_gshhg_europe.geojson``: GSHHG/WDBII rivers (LGPL-3), copied unchanged.
* ``borders_1939.geojson``: the 1939–40 political regions the games need, composed from the
  modern Natural Earth countries plus the hand-drawn lines and polygons in BORDER_EDITS
  below (each with its source), and the lines themselves as LineString features; the
  regions of 1 September 1939 (kind "region_1939", see features_1939) and the Vichy line.
* ``terrain_regions.geojson``: the hand-edited features kept as they are, then the ranges,
  deserts, marshes and forests of TERRAIN_RIDGES and TERRAIN_AREAS, cut to the land.

Run it after editing the lines, BORDER_EDITS or the terrain tables; commit its outputs. The
map builder reads only the outputs.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

from shapely import affinity
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
# --- 1 September 1939 (kind "region_1939", with a `date`) -------------------------------
# The regions above are drawn for 1940 (West Poland inside Greater Germany, Vilna
# Lithuanian); the map builder reads only kind "region". These features give the frontiers of
# the day the war began, for the maps and games that start then. Hand-drawn like the lines
# above (towns on each side in the comments), about 10-15 km.
FRONTIER_1922 = {
    "name": "German-Polish frontier of 1922-1939 (the Corridor, Posen, Upper Silesia)",
    "source": "hand-drawn: Leba, Lauenburg, Butow, Schlochau, Flatow, Schneidemuhl, Kreuz, "
              "Schwerin, Bomst, Fraustadt, Guhrau, Militsch, Gross Wartenberg, Namslau, "
              "Pitschen, Rosenberg, Beuthen, Hindenburg, Gleiwitz, Ratibor German; Wejherowo, "
              "Koscierzyna, Chojnice, Sepolno, Wyrzysk, Czarnkow, Miedzychod, Zbaszyn, "
              "Wolsztyn, Leszno, Rawicz, Zduny, Ostrzeszow, Kepno, Wieruszow, Praszka, "
              "Lubliniec, Tarnowskie Gory, Katowice, Rybnik Polish; the Notec west of Ujscie; "
              "north to south from the Baltic to the Oder at Chalupki",
    "coords": [
        (18.03, 54.83), (17.93, 54.70), (17.90, 54.55), (17.80, 54.40), (17.75, 54.25),
        (17.62, 54.05), (17.45, 53.85), (17.42, 53.68), (17.30, 53.50), (17.20, 53.35),
        (17.00, 53.20), (16.78, 53.06), (16.55, 52.93), (16.30, 52.88), (15.97, 52.84),
        (15.85, 52.70), (15.80, 52.55), (15.85, 52.37), (15.88, 52.20), (16.02, 52.05),
        (16.45, 51.80), (16.75, 51.62), (17.05, 51.58), (17.30, 51.62), (17.55, 51.50),
        (17.80, 51.45), (17.88, 51.25), (18.05, 51.20), (18.20, 51.18), (18.35, 51.10),
        (18.50, 50.95), (18.55, 50.72), (18.78, 50.45), (18.90, 50.39), (18.98, 50.35),
        (18.90, 50.30), (18.80, 50.26), (18.70, 50.20), (18.55, 50.14), (18.40, 50.10),
        (18.30, 49.98),
    ],
}
EAST_PRUSSIA_1920 = {
    "name": "East Prussian-Polish frontier of 1920-1939",
    "source": "hand-drawn: Marienwerder, Riesenburg, Deutsch Eylau, Neidenburg, Willenberg, "
              "Johannisburg, Lyck, Treuburg, Goldap German; Gniew, Grudziadz, Lasin, "
              "Lubawa, Dzialdowo, Mlawa, Chorzele, Myszyniec, Kolno, Grajewo, Raczki, "
              "Filipow, Wizajny Polish; the Vistula itself Polish; west to east from the "
              "Vistula-Nogat fork to the Lithuanian frontier",
    "coords": [
        (18.90, 54.03), (18.88, 53.90), (18.85, 53.75), (18.83, 53.62), (18.95, 53.58),
        (19.20, 53.55), (19.45, 53.52), (19.65, 53.56), (19.90, 53.45), (20.10, 53.35),
        (20.45, 53.27), (20.85, 53.32), (21.30, 53.45), (21.80, 53.48), (22.00, 53.50),
        (22.30, 53.60), (22.45, 53.68), (22.60, 53.85), (22.58, 54.05), (22.65, 54.25),
        (22.77, 54.36),
    ],
}
LITHUANIA_LINE_1923 = {
    "name": "Polish-Lithuanian demarcation line of 1923-1939 (Vilna Polish)",
    "source": "hand-drawn: Punsk, Sejny, Druskieniki, Orany, Ejszyszki, Troki, Mejszagola, "
              "Podbrodzie, Swieciany, Ignalino, Dukszty Polish; Vistytis, Lazdijai, "
              "Leipalingis, Merkine, Alytus, Ziezmariai, Kaisiadorys, Sirvintos, Giedraiciai, "
              "Moletai, Utena, Zarasai Lithuanian; then the Latvian frontier near the Daugava "
              "(Braslaw, Druja Polish; Daugavpils Latvian) to the Riga line",
    "coords": [
        (22.77, 54.36), (23.20, 54.32), (23.50, 54.15), (23.80, 54.05), (24.20, 54.10),
        (24.55, 54.18), (24.75, 54.45), (24.65, 54.65), (24.80, 54.80), (25.00, 54.95),
        (25.30, 55.10), (25.55, 55.25), (25.80, 55.40), (26.05, 55.55), (26.20, 55.62),
        (26.63, 55.67), (27.10, 55.95), (27.60, 56.05), (28.15, 55.95),
    ],
}
# Poland's 1939 southern frontier: the Dniester and the Prut/Czeremosz against Romania, the
# Carpathian crest against Czechoslovakia (Hungary from March 1939), east to west.
POLAND_SOUTH_1939 = [
    (26.23, 48.58), (25.73, 48.66), (25.45, 48.60), (25.55, 48.45), (25.30, 48.35),
    (25.18, 48.26), (24.90, 48.05), (24.65, 47.95), (24.40, 48.15), (24.00, 48.35),
    (23.55, 48.60), (23.10, 48.85), (22.85, 48.98), (22.57, 49.08),
]
DANZIG = {
    "name": "Free City of Danzig (1920-1939)",
    "source": "hand-drawn: Sopot, Oliva, Zoppot, Tiegenhof, Neuteich Danzig; Gdynia, "
              "Zukowo, Tczew Polish; Marienburg, Elbing German (the Nogat the frontier); "
              "the west part of the Vistula spit",
    "coords": [(18.56, 54.47), (18.45, 54.37), (18.50, 54.25), (18.62, 54.18), (18.78, 54.12),
               (18.90, 54.03), (19.02, 54.04), (19.15, 54.12), (19.35, 54.27), (19.42, 54.40),
               (18.90, 54.52)],
}
CARPATHO_UKRAINE = {
    "name": "Carpatho-Ukraine (Hungarian from March 1939)",
    "source": "hand-drawn: the Carpathian crest (Uzhok, Verecke, Yablunytsia passes) north-"
              "east; Natural Earth Ukraine south-west of it (Uzhhorod, Mukachevo, Khust, "
              "Rakhiv)",
    "coords": [(22.0, 49.3), *POLAND_SOUTH_1939[7:][::-1], (24.9, 47.7), (22.0, 47.7)],
}
BESSARABIA = {
    "name": "Bessarabia (Romanian 1918-1940)",
    "source": "hand-drawn: between the Prut (west) and the Dniester (east; Soroca, Rezina, "
              "Bender Bessarabian; Kamenka, Rybnitsa, Dubossary, Tiraspol Soviet), from "
              "Hotin in the north to the Danube delta and the coast (Akkerman, Izmail)",
    "coords": [(26.30, 48.55), (26.80, 48.50), (27.20, 48.45), (27.60, 48.45), (28.00, 48.30),
               (28.30, 48.15), (28.60, 48.00), (28.90, 47.80), (29.05, 47.50), (29.15, 47.25),
               (29.30, 47.05), (29.55, 46.85), (29.75, 46.65), (29.95, 46.45), (30.10, 46.30),
               (30.30, 46.10), (31.0, 45.8), (30.0, 44.9), (28.9, 45.25), (28.2, 45.4),
               (27.8, 46.0), (27.5, 46.6), (26.9, 47.4), (26.2, 47.9), (26.0, 48.3)],
}
NORTH_BUKOVINA = [(24.5, 47.7), (24.5, 48.1), (25.3, 48.4), (25.6, 48.6), (26.23, 48.58),
                  (26.5, 48.55), (26.9, 48.4), (26.6, 47.7)]
VICHY_LINE = {
    "name": "Demarcation line of 22 June 1940 (occupied and unoccupied France)",
    "source": "hand-drawn: Mont-de-Marsan, Langon, Libourne, Angouleme, Poitiers, Tours, "
              "Bourges' north, Dole occupied; Orthez, Confolens, Loches, Vierzon, Moulins, "
              "Paray-le-Monial, Chalon-sur-Saone on or near the line; from the Spanish "
              "frontier at Arneguy to the Swiss frontier near Geneva",
    "coords": [(-1.28, 43.10), (-0.95, 43.45), (-0.50, 43.90), (-0.20, 44.40), (-0.10, 44.85),
               (0.25, 45.30), (0.35, 45.65), (0.70, 46.05), (0.85, 46.55), (1.00, 47.05),
               (1.60, 47.25), (2.07, 47.22), (2.60, 46.95), (3.33, 46.57), (4.12, 46.45),
               (4.85, 46.78), (5.30, 46.70), (5.70, 46.45), (6.05, 46.25)],
}
# Held by in 1939: the colonies of North Africa and the mandates of the Levant (on the
# region features above, as `held_1939`; the shapes are the modern ones).
HELD_1939 = {
    "Algeria": "France (three departements)", "Tunisia": "France (protectorate)",
    "Morocco": "France (protectorate; Spanish Morocco and Tangier apart)",
    "Libya": "Italy (colony)", "Egypt": "independent kingdom (British garrison, 1936 treaty)",
    "Syria": "France (League of Nations mandate)",
    "Lebanon": "France (League of Nations mandate)",
    "Israel": "United Kingdom (Palestine mandate)", "Palestine": "United Kingdom (Palestine "
    "mandate)", "Jordan": "United Kingdom (Transjordan mandate)",
    "Iraq": "independent kingdom (British treaty bases)", "Cyprus": "United Kingdom (colony)",
    "Malta": "United Kingdom (colony)", "Gibraltar": "United Kingdom (colony)",
    "W. Sahara": "Spain (Rio de Oro)",
}



# Finland of 1 September 1939 (the 1920 Tartu frontier): the modern country plus the lands it
# ceded in March 1940 (the Karelian Isthmus with Viipuri and Ladoga Karelia to Salmi and
# Suojarvi; Salla) and in 1944 (Petsamo, with the west of the Rybachy peninsula). Drawn by us
# from historical atlases, +-20-30 km; each polygon reaches into modern Finland, and only
# modern Russia's land inside it is added (Norway and Sweden untouched).
FINLAND_CEDED = {
    "name": "Finnish lands ceded 1940-44",
    "source": "hand-drawn from historical atlases (the 1920 Tartu frontier: the Rajajoki/"
              "Sestra on the isthmus, east of Salmi and Suojarvi north of Lake Ladoga, Salla, "
              "the Petsamo corridor to the Rybachy peninsula), +-20-30 km",
    "parts": [
        [(27.3, 60.35), (29.95, 60.12), (30.30, 60.38), (30.60, 60.52), (31.05, 60.62),
         (31.50, 61.10), (31.88, 61.40), (32.20, 61.72), (32.55, 62.05), (32.95, 62.35),
         (32.40, 62.75), (31.70, 62.95), (31.00, 63.10), (30.50, 62.60), (29.30, 61.80),
         (28.20, 61.20), (27.30, 60.60)],
        [(28.60, 66.55), (29.55, 66.55), (30.05, 66.85), (29.95, 67.25), (29.30, 67.50),
         (28.60, 67.50)],
        [(28.70, 68.85), (31.20, 68.95), (31.60, 69.40), (32.10, 69.75), (32.00, 69.95),
         (31.00, 69.90), (30.85, 69.78), (30.00, 69.40), (29.30, 69.30), (28.70, 69.10)],
    ],
}


def close(g):
    """Close the slivers the union of separately simplified countries leaves (under 1 km)."""
    return g.buffer(0.01, join_style=2).buffer(-0.01, join_style=2)


def features_1939(by_code, memel, former_poland, ussr) -> list[dict]:
    """The regions of 1 September 1939 and the lines they are drawn from.

    Kind "region_1939" is a set of non-overlapping regions, each naming in `replaces` the 1940
    regions (kind "region") it stands for; a map spec opts in with `regions_date`. Kind
    "outline_1939" is Poland of 1939 whole (West and East Poland together)."""
    ring = (FRONTIER_1922["coords"] + [(18.5, 49.3), (20.0, 48.8)] + POLAND_SOUTH_1939[::-1]
            + RIGA_LINE["coords"][::-1][1:] + LITHUANIA_LINE_1923["coords"][::-1][1:]
            + EAST_PRUSSIA_1920["coords"][::-1][1:] + DANZIG["coords"][:6][::-1][1:]
            + [(18.8, 55.0), (18.03, 55.2)])
    danzig = by_code["POL"].intersection(Polygon(DANZIG["coords"]))
    poland = unary_union([by_code[c] for c in ("POL", "BLR", "UKR", "LTU")]).intersection(
        Polygon(ring).buffer(0)).difference(danzig)
    rus = by_code["RUS"]
    kaliningrad = rus.intersection(box(19.0, 54.2, 23.0, 55.4))
    germany = unary_union([by_code[c] for c in ("DEU", "AUT", "CZE", "POL")]
                          + [kaliningrad, memel]).difference(unary_union([poland, danzig]))
    poland, germany = close(poland), close(germany).difference(poland)
    # East Poland: the Soviet zone of the 23 August 1939 line (Former Poland) and the Vilna
    # region (Polish until October 1939); West Poland: the rest, the German zone.
    # (and south-east of the San's source, where Former Poland's closing arc stops short of
    # the Carpathian crest)
    east = poland.intersection(unary_union([former_poland, by_code["LTU"], Polygon(
        [(22.70, 49.05), (23.5, 48.9), (24.6, 48.2), (25.2, 47.9), (24.5, 47.5),
         (22.3, 48.6)])]))
    west = poland.difference(east)
    # The two Polands' shapes come from different unions: slivers (under ~400 km2) along the
    # Riga line go to the big part beside them.
    bits = [p for p in getattr(west, "geoms", [west]) if p.area < 0.05]
    west, east = west.difference(unary_union(bits)), unary_union([east, *bits])
    bits = [p for p in getattr(east, "geoms", [east]) if p.area < 0.05]
    west, east = unary_union([west, *bits]), east.difference(unary_union(bits))
    carpatho = by_code["UKR"].intersection(Polygon(CARPATHO_UKRAINE["coords"]))
    bessarabia = unary_union([by_code["MDA"], by_code["UKR"]]).intersection(
        Polygon(BESSARABIA["coords"]))
    # Northern Bukovina: Ukraine south of Poland's Dniester-Prut frontier, west of Bessarabia.
    bukovina = by_code["UKR"].intersection(Polygon(NORTH_BUKOVINA)).difference(
        unary_union([poland, carpatho, bessarabia]))
    hungary = close(unary_union([by_code["HUN"], carpatho]))
    romania = close(unary_union([by_code["ROU"], bukovina])).difference(
        unary_union([bessarabia, hungary]))
    lithuania = by_code["LTU"].difference(unary_union([memel, poland]))
    ceded = by_code["RUS"].intersection(
        unary_union([Polygon(p) for p in FINLAND_CEDED["parts"]]))
    finland = close(unary_union([by_code["FIN"], ceded]))
    # The USSR: all of Belarus, Ukraine and Moldova (Transnistria was the Moldavian ASSR) not
    # drawn otherwise, so the slivers between the hand-drawn frontiers fall to it.
    ussr_1939 = unary_union([ussr, by_code["BLR"], by_code["UKR"], by_code["MDA"]]).difference(
        unary_union([germany, danzig, west, east, lithuania, hungary, romania, bessarabia,
                     finland]))
    day = "1939-09-01"
    ne = "Natural Earth 1:10m admin-0 (modern borders)"
    regions = [
        ("Greater Germany (1 September 1939)", germany, ["Greater Germany"],
         f"{ne}: Germany, Austria, Czechia (Bohemia-Moravia), Kaliningrad, the Memel "
         "Territory and the German Poland of the 1922-39 frontier (Pomerania, Silesia, East "
         "Prussia); without Danzig (annexed 1 September) and Slovakia (a German client)"),
        ("Free City of Danzig", danzig, [], DANZIG["source"]),
        ("West Poland (1 September 1939)", west, [],
         "Poland of 1939 west of the German-Soviet line of 23 August 1939 (the German zone)"),
        ("East Poland (1 September 1939)", east, ["Former Poland"],
         "Poland of 1939 east of the German-Soviet line of 23 August 1939 (Former Poland, the "
         "Soviet zone) and the Vilna region (Polish until October 1939)"),
        ("Lithuania (1 September 1939)", lithuania, ["Lithuania"],
         f"{ne}: Lithuania minus the Memel Territory and the Vilna region (Polish)"),
        ("Hungary (1 September 1939)", hungary, ["Hungary"],
         f"{ne}: Hungary plus Carpatho-Ukraine; the southern Slovak strip of the First "
         "Vienna Award (November 1938) is not drawn"),
        ("Romania (1 September 1939)", romania, ["Romania"],
         f"{ne}: Romania plus Northern Bukovina (Ukraine south of the Polish frontier); "
         "Bessarabia is its own region; Southern Dobruja (Romanian until September 1940, "
         "modern Bulgaria) is not drawn"),
        ("Bessarabia (1 September 1939)", bessarabia, ["Moldova"], BESSARABIA["source"]),
        ("Finland (1 September 1939)", finland, ["Finland"],
         f"{ne}: Finland plus Russia's land in {FINLAND_CEDED['name']} "
         f"({FINLAND_CEDED['source']})"),
        ("USSR (1 September 1939)", ussr_1939, ["USSR"],
         "the USSR region and Natural Earth Moldova (Transnistria) minus Poland, "
         "Carpatho-Ukraine, Northern Bukovina, Bessarabia and Finland's 1939 lands (Karelia, "
         "Salla, Petsamo) (Ukraine's Izmail and "
         "Chernivtsi lands were Romanian)"),
    ]
    feats = [feature(clean(g), name=n, kind="region_1939", date=day, replaces=r, source=s)
             for n, g, r, s in regions]
    feats.append(feature(clean(poland), name="Poland (1 September 1939)", kind="outline_1939",
                         date=day,
                         source=f"{ne}: Poland, Belarus, Ukraine, Lithuania inside the 1922-39 "
                                "German frontier, the East Prussian frontier, the 1923 "
                                "Lithuanian line (Vilna Polish), the Riga line and the "
                                "Carpathian crest, minus Danzig. Zaolzie (Polish from October "
                                "1938) is left in Czechia, one hex or less"))
    for line in (FRONTIER_1922, EAST_PRUSSIA_1920, LITHUANIA_LINE_1923):
        feats.append(feature(rnd(LineString(line["coords"])), name=line["name"],
                             kind="line", date=day, source=line["source"]))
    feats.append(feature(rnd(LineString(VICHY_LINE["coords"])), name=VICHY_LINE["name"],
                         kind="line", date="1940-06-22", source=VICHY_LINE["source"]))
    return feats


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
    feats = [feature(clean(g), name=n, kind="region", source=s,
                     **({"held_1939": HELD_1939[n]} if n in HELD_1939 else {}))
             for n, g, s in regions]
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
    feats.extend(features_1939(by_code, memel, former_poland, ussr))
    write(SOURCES / "borders_1939.geojson", feats)
    write_terrain(unary_union(list(by_code.values())))

# --- terrain regions added by this script (terrain_regions.geojson) -----------------------
# The older features of terrain_regions.geojson were edited by hand in the file; the ones
# below are written by this script and appended after them; a re-run replaces them (known by
# their `source`, which starts with ATLAS_SRC) and keeps the hand-edited features byte for
# byte. Authored by us from general physical atlases (relief, the Natural Earth
# physical-label positions as a guide to where each range runs); nothing copied. A range is
# its crest line (lon, lat) and a half-width in km, buffered in a locally equal-scaled plane;
# an area is a polygon. Each is cut to the land (Natural Earth countries), so no terrain lies
# in the sea. Accuracy: about 20-40 km, ample for the AETO and ETO hexes (30-108 miles).
# Terrain kinds: "mountain" (ranges; a kind of its own so that the 1940: What If? maps, whose
# specs map only forest/hill/marsh/ardennes, stay as built) and "desert". New forest and marsh
# areas are cut away from the 1940: What If? maps' clip boxes (WHATIF1940_CLIPS) for the same
# reason.
ATLAS_SRC = ("authored from general physical atlases (relief; Natural Earth physical labels "
             "as a guide), +-20-40 km")
TERRAIN_RIDGES = [
    # name, terrain, half-width km, crest (lon, lat)
    ("Pyrenees", "mountain", 60, [(-1.8, 43.05), (-0.8, 42.85), (0.3, 42.7), (1.2, 42.6),
                                  (2.0, 42.5), (2.9, 42.45)]),
    ("Cantabrian Mountains", "mountain", 30, [(-7.2, 42.9), (-6.0, 43.0), (-4.8, 43.05),
                                              (-3.6, 43.05), (-2.6, 43.0)]),
    ("Sistema Central", "mountain", 25, [(-7.0, 40.2), (-6.0, 40.3), (-5.0, 40.3),
                                         (-4.1, 40.75), (-3.3, 41.1)]),
    ("Betic Cordillera", "mountain", 35, [(-5.3, 36.75), (-4.2, 37.0), (-3.3, 37.05),
                                          (-2.4, 37.4), (-1.4, 38.0)]),
    ("Apennines", "mountain", 40, [(8.8, 44.5), (9.8, 44.4), (10.8, 44.15), (11.6, 43.85),
                                   (12.3, 43.5), (12.9, 43.0), (13.4, 42.5), (14.0, 42.0),
                                   (14.5, 41.55), (15.1, 41.1), (15.6, 40.6), (15.95, 40.1),
                                   (16.15, 39.5), (16.2, 38.9), (16.05, 38.35)]),
    ("Carpathians", "mountain", 45, [(17.6, 48.6), (18.6, 49.2), (19.9, 49.2), (21.0, 49.35),
                                     (22.3, 49.1), (23.4, 48.75), (24.4, 48.2), (25.2, 47.65),
                                     (25.7, 47.1), (26.0, 46.4), (26.2, 45.8), (25.8, 45.45),
                                     (25.0, 45.45), (24.0, 45.4), (23.0, 45.35), (22.3, 45.2),
                                     (21.9, 44.9), (22.2, 44.6)]),
    ("Apuseni Mountains", "mountain", 35, [(22.2, 47.0), (22.8, 46.5), (23.2, 46.1)]),
    ("Balkan Mountains", "mountain", 25, [(22.4, 43.8), (23.2, 43.35), (24.2, 42.9),
                                          (25.3, 42.75), (26.4, 42.75), (27.5, 42.75)]),
    ("Rhodopes", "mountain", 40, [(23.3, 41.9), (24.2, 41.75), (25.1, 41.6), (25.7, 41.5)]),
    ("Dinaric Alps", "mountain", 70, [(14.5, 45.7), (15.5, 44.9), (16.6, 44.2), (17.7, 43.6),
                                      (18.7, 43.1), (19.5, 42.7), (20.2, 42.3),
                                      (20.5, 41.8), (20.6, 41.2)]),
    ("Pindus", "mountain", 40, [(20.6, 41.2), (21.0, 40.3), (21.4, 39.6), (21.8, 39.0),
                                (22.1, 38.5)]),
    ("Scandinavian Mountains", "mountain", 70, [(6.5, 59.3), (7.5, 60.3), (8.5, 61.2),
                                                (9.8, 62.3), (11.8, 63.5), (13.3, 64.6),
                                                (14.8, 65.9), (16.3, 67.0), (17.8, 68.0),
                                                (19.8, 68.9), (21.8, 69.4)]),
    ("Caucasus", "mountain", 55, [(38.0, 44.55), (39.5, 43.9), (41.0, 43.45), (42.5, 43.1),
                                  (43.8, 42.75), (45.3, 42.3), (46.6, 41.75), (47.8, 41.2),
                                  (48.8, 40.85)]),
    ("Lesser Caucasus", "mountain", 45, [(42.3, 41.5), (43.5, 41.1), (44.8, 40.7),
                                         (45.8, 40.1), (46.5, 39.4)]),
    ("Urals", "mountain", 60, [(65.5, 68.3), (63.0, 67.0), (60.5, 65.6), (59.3, 64.0),
                               (59.1, 62.0), (59.2, 60.0), (59.5, 58.0), (59.3, 56.0),
                               (58.9, 54.5), (58.3, 53.0), (57.8, 51.8)]),
    ("High Atlas", "mountain", 45, [(-9.6, 30.8), (-8.2, 31.1), (-6.6, 31.7), (-5.2, 32.2),
                                    (-4.0, 32.5), (-2.8, 32.8)]),
    ("Middle Atlas", "mountain", 35, [(-6.0, 32.9), (-5.0, 33.4), (-4.0, 34.0)]),
    ("Rif", "mountain", 25, [(-5.6, 35.3), (-4.8, 35.0), (-3.8, 35.0)]),
    ("Saharan Atlas", "mountain", 40, [(-1.5, 32.9), (0.5, 33.6), (2.5, 34.3), (4.5, 34.9),
                                       (6.2, 35.2), (7.2, 35.2)]),
    ("Tell Atlas", "mountain", 30, [(-0.5, 35.3), (1.5, 35.9), (3.5, 36.3), (5.5, 36.35),
                                    (7.5, 36.3), (9.0, 36.1)]),
    ("Taurus Mountains", "mountain", 50, [(29.5, 37.0), (31.0, 37.15), (32.3, 36.95),
                                          (33.5, 37.0), (34.6, 37.4), (35.2, 37.8),
                                          (36.3, 38.0), (37.5, 38.2), (38.8, 38.3),
                                          (40.5, 38.4), (42.5, 38.3), (44.0, 37.9)]),
    ("Pontic Mountains", "mountain", 40, [(32.5, 41.3), (34.5, 41.0), (36.5, 40.7),
                                          (38.5, 40.55), (40.5, 40.7), (41.8, 41.0)]),
    ("Zagros Mountains", "mountain", 80, [(45.3, 35.6), (46.8, 34.0), (48.5, 32.6),
                                          (50.3, 31.0), (52.3, 29.8), (54.5, 28.6),
                                          (56.5, 27.8)]),
    ("Elburz", "mountain", 45, [(48.8, 37.4), (50.2, 36.6), (51.8, 36.0), (53.5, 36.3),
                                (55.2, 36.9), (57.0, 37.3)]),
    ("Lebanon Mountains", "mountain", 25, [(35.65, 33.3), (36.0, 34.0), (36.3, 34.7)]),
]
TERRAIN_AREAS = [
    # name, terrain, ring (lon, lat); each then cut to the land
    ("Sahara", "desert",
     [(-17.5, 20.0), (-17.5, 27.0), (-12.0, 28.6), (-9.0, 29.6), (-5.0, 30.6), (-2.0, 31.8),
      (1.0, 32.6), (4.0, 33.3), (6.5, 33.8), (8.0, 33.6), (9.5, 33.0), (10.5, 32.3),
      (12.0, 31.5), (14.0, 31.0), (15.5, 30.9), (17.5, 30.4), (19.5, 30.4), (20.5, 31.2),
      (21.5, 31.8), (23.0, 31.9), (24.5, 31.4), (26.5, 31.1), (28.5, 30.8), (30.0, 30.4),
      (30.7, 29.8), (30.7, 28.5), (30.9, 27.0), (32.3, 25.5), (32.7, 24.0), (32.8, 22.5),
      (33.0, 20.0)]),
    ("Eastern Desert and Sinai", "desert",
     [(31.6, 29.9), (32.3, 30.2), (32.5, 31.0), (34.2, 31.3), (34.9, 29.5), (34.2, 27.9),
      (33.6, 27.6), (35.4, 24.0), (36.8, 22.0), (37.2, 20.0), (33.3, 20.0), (33.1, 22.5),
      (32.9, 24.5), (31.6, 29.0)]),
    ("Syrian and Arabian Deserts", "desert",
     [(36.3, 32.0), (36.9, 33.4), (37.6, 34.6), (38.8, 35.4), (40.2, 35.3), (41.4, 34.4),
      (42.6, 33.2), (43.8, 32.0), (45.3, 30.9), (46.8, 30.0), (47.6, 29.4), (48.0, 28.0),
      (49.5, 26.8), (50.6, 25.0), (51.6, 24.0), (54.0, 23.8), (55.6, 23.5), (56.0, 22.0),
      (58.8, 21.0), (58.8, 20.0), (40.5, 20.0), (39.6, 22.0), (38.6, 24.2), (37.0, 26.3),
      (35.4, 28.0), (35.3, 29.8), (35.7, 30.6), (36.0, 31.4)]),
    ("Karakum", "desert",
     [(53.6, 41.4), (56.0, 41.8), (58.5, 41.7), (60.5, 40.8), (62.5, 39.8), (63.8, 38.9),
      (62.3, 37.8), (60.3, 37.9), (58.0, 38.1), (56.0, 38.3), (54.6, 38.2), (53.5, 38.8),
      (53.2, 40.0)]),
    ("Kyzylkum", "desert",
     [(59.8, 44.6), (62.3, 44.9), (64.8, 44.0), (66.7, 42.7), (66.3, 41.0), (64.5, 40.3),
      (62.6, 40.3), (61.0, 41.3), (60.2, 42.8)]),
    ("Ustyurt", "desert",
     [(53.2, 45.4), (55.8, 45.7), (58.3, 45.4), (58.5, 43.8), (57.3, 42.5), (55.8, 41.9),
      (53.8, 41.9), (52.9, 42.8), (52.6, 44.2)]),
    ("Caspian Desert (Ryn-peski)", "desert",
     [(45.9, 47.9), (47.6, 48.6), (49.8, 48.5), (51.5, 47.3), (50.3, 46.4), (48.6, 46.0),
      (47.3, 45.7), (46.2, 46.2)]),
    ("Dasht-e Kavir", "desert",
     [(52.0, 35.0), (54.0, 35.5), (56.5, 35.5), (58.0, 34.3), (56.6, 33.0), (54.5, 33.2),
      (52.6, 33.8)]),
    ("Dasht-e Lut", "desert",
     [(57.0, 32.2), (59.6, 32.0), (59.8, 29.8), (58.6, 28.6), (57.4, 29.4), (56.9, 30.8)]),
    ("Danube Delta", "marsh",
     [(28.6, 45.45), (29.75, 45.45), (29.75, 44.85), (28.9, 44.75)]),
    ("Kuban Delta", "marsh",
     [(37.6, 45.35), (38.0, 46.05), (38.55, 45.9), (38.4, 45.2), (37.8, 45.1)]),
    ("Colchis Lowland", "marsh",
     [(41.55, 42.45), (42.25, 42.55), (42.2, 41.95), (41.65, 41.95)]),
    ("Mesopotamian Marshes", "marsh",
     [(46.2, 31.9), (47.7, 31.9), (47.8, 30.6), (46.5, 30.6)]),
    ("Vyatka and Komi Taiga", "forest",
     [(45.2, 64.0), (50.0, 64.5), (55.0, 65.0), (58.3, 64.5), (58.4, 60.0), (56.0, 57.5),
      (51.0, 57.0), (46.0, 58.5), (45.2, 60.0)]),
]
WHATIF1940_CLIPS = ("whatif1940_west.toml", "whatif1940_east.toml")  # their [projection] clip


def _ridge(crest: list[tuple[float, float]], half_km: float) -> Polygon:
    """A crest line buffered by `half_km`, in a plane scaled so east and north are equal."""
    c = math.cos(math.radians(sum(y for _, y in crest) / len(crest)))
    line = LineString([(x * c, y) for x, y in crest])
    return affinity.scale(line.buffer(half_km / 111.2, quad_segs=4), 1.0 / c, 1.0,
                          origin=(0, 0))


def terrain_features(land) -> list[dict]:
    """The script's terrain regions, cut to the land (and, for kinds the 1940 maps read,
    away from the 1940: What If? maps' source boxes)."""
    import tomllib
    away = unary_union([box(*tomllib.loads((SOURCES / "specs" / n).read_text(
        encoding="utf-8"))["projection"]["clip"]) for n in WHATIF1940_CLIPS])
    items = [(n, t, _ridge(crest, w), f"{ATLAS_SRC}; crest line buffered {w} km")
             for n, t, w, crest in TERRAIN_RIDGES]
    items += [(n, t, Polygon(ring), ATLAS_SRC) for n, t, ring in TERRAIN_AREAS]
    out = []
    for name, kind, g, src in items:
        g = g.intersection(land).intersection(CLIP)
        if kind in ("forest", "hill", "marsh", "ardennes"):
            g = g.difference(away)
            src += "; cut away from the 1940: What If? maps' source boxes"
        g = clean(g.simplify(0.01))
        out.append(feature(g, name=name, source=src, terrain=kind))
    return out


def write_terrain(land) -> None:
    path = SOURCES / "terrain_regions.geojson"
    old = json.loads(path.read_text(encoding="utf-8"))["features"]
    keep = [f for f in old if not f["properties"]["source"].startswith(ATLAS_SRC)]
    write(path, keep + terrain_features(land))


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/work/shared/reference/geo"))
