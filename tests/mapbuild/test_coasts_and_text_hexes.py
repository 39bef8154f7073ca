"""The built hex maps as an owner of the printed maps checks them (issue 19).

Independent of the fit: each real place is located by its latitude and longitude (city centre
or harbour, a point on the island, to 0.01 degree; GeoNames/Wikipedia) with `map locate`'s
function on the committed map, and the test reads the hex it falls in. A coastal city, port or
island a printed map at the map's scale shows stands on land; straits the rules use are
crossable; the hexes the rulebooks describe without a city have the terrain and owner the
texts give them. Renders looked at: /tmp/mapsb/png (`wartable map render MAP --geography
--crop ...`, Italy, the Channel, the Baltic, the Black Sea and the Aegean).
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from shapely.geometry import shape  # type: ignore[import-untyped,unused-ignore]

from wartable.core.hexgrid import Hex, Hexside
from wartable.mapbuild.commands import locate
from wartable.mapbuild.sources import maps_dir
from wartable.maps import HexMap, load_map

HEX_MAPS = ("aeto/west", "aeto/east", "eto/europe", "whatif1940/east", "whatif1940/west")
WATER = ("sea", "lake")


@cache
def _map(map_id: str) -> tuple[HexMap, Path]:
    path = maps_dir() / f"{map_id}.json.gz"
    m = load_map(path)
    assert isinstance(m, HexMap)
    return m, path


def _at(map_id: str, lat: float, lon: float) -> str | None:
    m, path = _map(map_id)
    return locate(m, path, lat, lon)


# (place, lat, lon, maps whose scale does not show it): coastal cities and ports, and islands
# (a point on each). ETO's hexes are 108 miles across: islands under a twentieth of a hex
# (Bornholm, Menorca, Ibiza, Naxos...) are not on it, as on a printed map at that scale.
COASTAL = [
    ("Naples", 40.85, 14.27, ()), ("Bari", 41.12, 16.87, ()), ("Taranto", 40.47, 17.24, ()),
    ("Brindisi", 40.64, 17.94, ()), ("Messina", 38.19, 15.55, ()),
    ("Reggio Calabria", 38.11, 15.65, ()), ("Palermo", 38.12, 13.36, ()),
    ("Catania", 37.50, 15.09, ()), ("Genoa", 44.41, 8.93, ()), ("La Spezia", 44.10, 9.82, ()),
    ("Livorno", 43.55, 10.31, ()), ("Venice", 45.44, 12.33, ()), ("Trieste", 45.65, 13.78, ()),
    ("Dubrovnik", 42.65, 18.09, ()), ("Durazzo", 41.32, 19.45, ()),
    ("Königsberg", 54.71, 20.51, ()), ("Pillau", 54.64, 19.90, ()), ("Memel", 55.71, 21.13, ()),
    ("Libau", 56.51, 21.01, ()), ("Riga", 56.95, 24.11, ()), ("Tallinn", 59.44, 24.75, ()),
    ("Helsinki", 60.17, 24.94, ()), ("Kronstadt", 59.99, 29.77, ()), ("Danzig", 54.35, 18.65, ()),
    ("Stettin", 53.43, 14.55, ()), ("Kiel", 54.32, 10.14, ()), ("Copenhagen", 55.68, 12.57, ()),
    ("Gothenburg", 57.71, 11.97, ()), ("Kristiansand", 58.15, 8.00, ()),
    ("Stavanger", 58.97, 5.73, ()), ("Dover", 51.13, 1.31, ()), ("Norwich", 52.63, 1.30, ()),
    ("Land's End", 50.07, -5.71, ()), ("Plymouth", 50.37, -4.14, ()),
    ("Liverpool", 53.41, -2.98, ()), ("Dublin", 53.35, -6.26, ()), ("Cork", 51.90, -8.47, ()),
    ("Brest", 48.39, -4.49, ()), ("Cherbourg", 49.64, -1.62, ()), ("Ostend", 51.22, 2.92, ()),
    ("Amsterdam", 52.37, 4.90, ()), ("Bordeaux", 44.84, -0.58, ()), ("Toulon", 43.12, 5.93, ()),
    ("Marseilles", 43.30, 5.37, ()), ("Barcelona", 41.39, 2.17, ()),
    ("Cartagena", 37.60, -0.98, ()), ("Almería", 36.84, -2.46, ()), ("Málaga", 36.72, -4.42, ()),
    ("Cádiz", 36.53, -6.29, ()), ("Tangier", 35.77, -5.80, ()), ("Santander", 43.46, -3.81, ()),
    ("Bilbao", 43.26, -2.93, ()), ("La Coruña", 43.36, -8.41, ()), ("Porto", 41.15, -8.61, ()),
    ("Tunis", 36.81, 10.18, ()), ("Bizerte", 37.27, 9.87, ()), ("Sfax", 34.74, 10.76, ()),
    ("Tripoli", 32.89, 13.19, ()), ("Mersa Matruh", 31.35, 27.24, ()),
    ("Port Said", 31.26, 32.30, ()), ("Gaza", 31.50, 34.47, ()), ("Tel Aviv", 32.08, 34.78, ()),
    ("Istanbul", 41.01, 28.98, ()), ("Athens", 37.98, 23.73, ()), ("Piraeus", 37.94, 23.65, ()),
    ("Odessa", 46.48, 30.72, ()), ("Constanța", 44.17, 28.63, ()),
    ("Novorossiysk", 44.72, 37.77, ()), ("Kerch", 45.36, 36.47, ()), ("Yalta", 44.50, 34.17, ()),
    ("Feodosiya", 45.03, 35.38, ()), ("Mariupol", 47.10, 37.55, ()), ("Sochi", 43.60, 39.73, ()),
    ("Poti", 42.15, 41.67, ()), ("Batum", 41.64, 41.64, ()), ("Trabzon", 41.00, 39.72, ()),
    ("Sinop", 42.03, 35.15, ()), ("Antalya", 36.90, 30.70, ()), ("Baku", 40.41, 49.87, ()),
    # Norway north of Trondheim (AETO East's columns 37-41), the Arctic and more ports.
    ("Narvik", 68.44, 17.43, ()), ("Tromsø", 69.65, 18.96, ()), ("Bodø", 67.28, 14.40, ()),
    ("Hammerfest", 70.66, 23.68, ()), ("Trondheim", 63.43, 10.39, ()),
    ("Bergen", 60.39, 5.32, ()), ("Oslo", 59.91, 10.75, ()), ("Murmansk", 68.97, 33.08, ()),
    ("Archangel", 64.54, 40.54, ()), ("Luleå", 65.58, 22.15, ()), ("Turku", 60.45, 22.27, ()),
    ("Stockholm", 59.33, 18.07, ()), ("Gdynia", 54.52, 18.53, ()), ("Lübeck", 53.87, 10.69, ()),
    ("Hamburg", 53.55, 9.99, ()), ("Rotterdam", 51.92, 4.48, ()), ("Le Havre", 49.49, 0.11, ()),
    ("Southampton", 50.90, -1.40, ()), ("Aberdeen", 57.15, -2.09, ()),
    ("Belfast", 54.60, -5.93, ()), ("Lisbon", 38.72, -9.14, ()), ("Gibraltar", 36.14, -5.35, ()),
    ("Casablanca", 33.57, -7.59, ()), ("Oran", 35.70, -0.63, ()), ("Algiers", 36.75, 3.06, ()),
    ("Benghazi", 32.12, 20.07, ()), ("Tobruk", 32.08, 23.96, ()),
    ("Alexandria", 31.20, 29.92, ()), ("Beirut", 33.89, 35.50, ()), ("Izmir", 38.42, 27.14, ()),
    ("Salonika", 40.64, 22.94, ()), ("Varna", 43.21, 27.91, ()), ("Burgas", 42.50, 27.47, ()),
    ("Sevastopol", 44.62, 33.53, ()), ("Split", 43.51, 16.44, ()), ("Ancona", 43.62, 13.52, ()),
    # Islands.
    ("Valletta (Malta)", 35.90, 14.51, ()), ("Cagliari (Sardinia)", 39.22, 9.12, ()),
    ("Sassari (Sardinia)", 40.73, 8.56, ()), ("Ajaccio (Corsica)", 41.93, 8.74, ()),
    ("Bastia (Corsica)", 42.70, 9.45, ()), ("Palma (Mallorca)", 39.57, 2.65, ()),
    ("Visby (Gotland)", 57.64, 18.30, ()), ("Odense (Funen)", 55.40, 10.39, ()),
    ("Kuressaare (Saaremaa)", 58.25, 22.48, ()), ("Rhodes", 36.43, 28.22, ()),
    ("Heraklion (Crete)", 35.34, 25.13, ()), ("Chania (Crete)", 35.51, 24.02, ()),
    ("Nicosia (Cyprus)", 35.17, 33.36, ()), ("Famagusta (Cyprus)", 35.12, 33.94, ()),
    ("Öland", 56.70, 16.60, ()), ("Hiiumaa", 58.85, 22.65, ("eto/europe",)),
    ("Bornholm", 55.12, 14.92, ("eto/europe",)), ("Chios", 38.37, 26.13, ("eto/europe",)),
    ("Corfu", 39.62, 19.92, ("eto/europe",)),
]


def test_the_list_is_long_enough() -> None:
    """Issue 19: at least 60 well-known coastal cities and islands."""
    assert len(COASTAL) >= 60


@pytest.mark.parametrize("map_id", HEX_MAPS)
def test_coastal_cities_and_islands_stand_on_land(map_id: str) -> None:
    m, _ = _map(map_id)
    on_map, wet = 0, []
    for name, lat, lon, unshown in COASTAL:
        label = _at(map_id, lat, lon)
        if label is None or map_id in unshown:
            continue
        on_map += 1
        if m.info(label).terrain in WATER:
            wet.append(f"{name} ({label})")
    assert not wet, f"in water hexes on {map_id}: {', '.join(wet)}"
    assert on_map >= {"aeto/west": 60, "aeto/east": 40, "eto/europe": 100}.get(map_id, 0)


def _crossable(map_id: str, a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Land units cross from a to b: both land, one hex or two joined by no sea hexside."""
    m, _ = _map(map_id)
    la, lb = _at(map_id, *a), _at(map_id, *b)
    assert la is not None and lb is not None
    ha, hb = m.hex_of(la), m.hex_of(lb)
    if m.hexes[ha].terrain in WATER or m.hexes[hb].terrain in WATER:
        return False
    if ha == hb:
        return True
    return ha.distance(hb) == 1 and not (
        set(m.hexsides.get(Hexside.between(ha, hb), ())) & {"sea", "lake", "blocked"})


MESSINA, REGGIO = (38.19, 15.55), (38.11, 15.65)
KERCH, TAMAN = (45.36, 36.47), (45.21, 36.72)
STRAITS = [  # (map, strait, one shore, the other)
    ("aeto/west", "Messina: Sicily touches Calabria", MESSINA, REGGIO),
    ("eto/europe", "Messina: Sicily touches Calabria", MESSINA, REGGIO),
    ("aeto/east", "Kerch strait", KERCH, TAMAN),
    ("aeto/east", "Bosporus", (41.01, 28.98), (41.02, 29.02)),
    ("aeto/east", "Dardanelles", (40.41, 26.67), (40.15, 26.41)),
    ("eto/europe", "Bosporus", (41.01, 28.98), (41.02, 29.02)),
    ("eto/europe", "Dardanelles", (40.41, 26.67), (40.15, 26.41)),
    ("aeto/west", "Gibraltar", (36.14, -5.35), (35.89, -5.32)),
    ("eto/europe", "Gibraltar", (36.14, -5.35), (35.89, -5.32)),
    ("aeto/west", "Øresund", (56.03, 12.61), (56.05, 12.69)),
    ("aeto/west", "Great Belt", (55.31, 10.79), (55.33, 11.14)),
    ("aeto/west", "Little Belt", (55.56, 9.75), (55.50, 9.73)),
    ("eto/europe", "Øresund", (56.03, 12.61), (56.05, 12.69)),
    ("eto/europe", "Great Belt", (55.31, 10.79), (55.33, 11.14)),
]


@pytest.mark.parametrize(("map_id", "strait", "a", "b"), STRAITS,
                         ids=[f"{m}-{s.split(':')[0]}" for m, s, _, _ in STRAITS])
def test_straits_the_rules_use_are_crossable(map_id: str, strait: str, a: tuple[float, float],
                                             b: tuple[float, float]) -> None:
    assert _crossable(map_id, a, b), strait


def _sea_joined(map_id: str, a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Ships sail from a to b through sea hexes and the land hexes marked 'strait'."""
    m, _ = _map(map_id)
    la, lb = _at(map_id, *a), _at(map_id, *b)
    assert la is not None and lb is not None
    ok = {h for h, i in m.hexes.items() if i.terrain == "sea" or "strait" in i.features}
    start, goal = m.hex_of(la), m.hex_of(lb)
    assert start in ok and goal in ok
    seen: set[Hex] = {start}
    todo = [start]
    while todo:
        h = todo.pop()
        for n in h.neighbors():
            if n in ok and n not in seen:
                seen.add(n)
                todo.append(n)
    return goal in seen


SEAWAYS = [  # (map, seaway, open water at one end, open water at the other)
    ("aeto/west", "North Sea to the Baltic", (56.5, 4.0), (55.0, 17.0)),
    ("aeto/west", "Baltic to the Gulf of Finland", (55.0, 17.0), (59.9, 26.0)),
    ("aeto/west", "Atlantic to the Mediterranean", (36.0, -12.0), (37.5, 3.0)),
    ("aeto/east", "Black Sea to the Aegean", (43.0, 34.0), (36.5, 25.5)),
    ("aeto/east", "Black Sea to the Sea of Azov", (43.0, 34.0), (46.0, 36.5)),
    ("eto/europe", "North Sea to the Baltic", (56.5, 4.0), (58.0, 20.0)),
    ("eto/europe", "Black Sea to the Aegean", (43.0, 34.0), (36.5, 24.5)),
]


@pytest.mark.parametrize(("map_id", "seaway", "a", "b"), SEAWAYS,
                         ids=[f"{m}-{s}" for m, s, _, _ in SEAWAYS])
def test_land_made_at_the_coast_closes_no_sea(map_id: str, seaway: str,
                                              a: tuple[float, float],
                                              b: tuple[float, float]) -> None:
    assert _sea_joined(map_id, a, b), seaway


# --- the hexes the texts describe -------------------------------------------------------------


def test_aeto_10_26_uk_radar_sites_are_uk_land() -> None:
    """[10.26] [11.25]: Radar Sites printed "within the UK proper": W 3513, W 3515
    (Southampton), W 3517, W 3713, W 3718, W 3917 (Hull), W 4116."""
    m, _ = _map("aeto/west")
    for label in ("W 3513", "W 3515", "W 3517", "W 3713", "W 3718", "W 3917", "W 4116"):
        info = m.info(label)
        assert info.terrain not in WATER and info.region == "United Kingdom", label


def test_aeto_radar_sites_stand_where_the_real_coast_is() -> None:
    """Land's End, Dover and Norwich (the radar sites' coasts) fall in radar hexes' land."""
    for lat, lon in ((50.07, -5.71), (51.13, 1.31), (52.63, 1.30)):
        label = _at("aeto/west", lat, lon)
        assert label is not None
        assert _map("aeto/west")[0].info(label).region == "United Kingdom"


def test_aeto_11_25_uk_coastal_hex_w3817() -> None:
    """[11.25] W 3817 is the UK "Coastal Hex" (1 DD): UK land with a sea hexside."""
    m, _ = _map("aeto/west")
    h = m.hex_of("W 3817")
    assert m.hexes[h].terrain not in WATER and m.hexes[h].region == "United Kingdom"
    assert any("sea" in m.hexsides.get(Hexside.between(h, n), ()) for n in h.neighbors()
               if n in m.hexes)


def test_eto_poland_1511_1712_1713_are_polish() -> None:
    """[Poland] extra Polish 1SP units set up in 1511, 1713 and 1712: Polish hexes; the real
    Bydgoszcz (the Corridor) is in 1511 and Warsaw in 1712."""
    m, _ = _map("eto/europe")
    for label in ("1511", "1712", "1713"):
        assert m.info(label).region == "West Poland", label
    assert _at("eto/europe", 53.12, 18.01) == "1511"
    assert _at("eto/europe", 52.23, 21.01) == "1712"


def _line_hexes(map_id: str, name: str, samples: int = 400) -> Counter[str]:
    """The hexes a line of fortifications.geojson runs through, by share of its length."""
    doc = json.loads((maps_dir() / "sources" / "fortifications.geojson").read_text("utf-8"))
    g = next(shape(f["geometry"]) for f in doc["features"] if f["properties"]["name"] == name)
    parts = list(getattr(g, "geoms", [g]))
    total = sum(p.length for p in parts)
    out: Counter[str] = Counter()
    for p in parts:
        n = max(1, round(samples * p.length / total))
        for i in range(n + 1):
            pt = p.interpolate(i / n, normalized=True)
            out[str(_at(map_id, pt.y, pt.x))] += 1
    return out


def test_eto_general_8_the_maginot_line_runs_through_1013_and_1014() -> None:
    """[General (8)(A)] 1013 and 1014 are the Maginot fortresses (France), 1113 and 1114 the
    Siegfried ones (Germany): the real Maginot Line runs mostly through 1013/1014 and the
    real Westwall through 1113 and 1114."""
    maginot = _line_hexes("eto/europe", "Maginot Line")
    french = maginot["1013"] + maginot["1014"]
    assert french > maginot["1113"] + maginot["1114"]
    total = sum(maginot.values())
    assert maginot["1013"] > 0.1 * total and maginot["1014"] > 0.1 * total
    westwall = _line_hexes("eto/europe", "Westwall")
    assert westwall["1113"] > 0 and westwall["1114"] > 0
    m, _ = _map("eto/europe")
    assert m.info("1013").region == m.info("1014").region == "France"
    assert m.info("1113").region == m.info("1114").region == "Greater Germany"


# --- borders of 1 September 1939 ----------------------------------------------------------------

FINNISH_1939 = [  # (place, lat, lon, maps): Finnish in 1939, Soviet from 1940 or 1944
    ("Viipuri (Vyborg)", 60.71, 28.75, ("aeto/east", "eto/europe")),
    ("Sortavala", 61.70, 30.69, ("aeto/east", "eto/europe")),
    # On ETO's 108-mile hexes Petsamo shares Murmansk's hex (2101), which is Soviet.
    ("Petsamo", 69.55, 31.10, ("aeto/east",)),
]


@pytest.mark.parametrize("map_id", ["aeto/east", "eto/europe"])
def test_1939_finland_holds_karelia_and_petsamo(map_id: str) -> None:
    """AETO and ETO begin in September 1939: Viipuri, Ladoga Karelia and Petsamo are Finnish
    (the Winter War rules take them), Leningrad and Murmansk Soviet. A lake hex has no owner."""
    m, _ = _map(map_id)
    for name, lat, lon, maps in FINNISH_1939:
        if map_id not in maps:
            continue
        label = _at(map_id, lat, lon)
        assert label is not None, name
        info = m.info(label)
        assert info.terrain in WATER or info.region == "Finland", f"{name} {label}"
    for lat, lon in ((59.94, 30.32), (68.97, 33.08)):
        label = _at(map_id, lat, lon)
        assert label is not None and m.info(label).region == "USSR"


def test_aeto_9_2_finnish_partition_line_ends_are_finnish() -> None:
    """[9.2] [10.24] the Finnish partition line runs E 0231 (Petsamo) to about E 1331."""
    m, _ = _map("aeto/east")
    assert m.info("E 0231").region == m.info("E 1331").region == "Finland"
    assert _at("aeto/east", 60.71, 28.75) == "E 1331"
