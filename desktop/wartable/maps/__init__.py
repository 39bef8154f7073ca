"""The map model: hex maps and area maps, their files, and synthetic test maps.

Layer: may import wartable.core, wartable.model and shapely (DESIGN.md); no Qt, no Pillow.
"""

from wartable.maps.mapfile import FORMAT, FORMAT_VERSION, MAX_MAP_BYTES, dump_map, load_map
from wartable.maps.model import (
    BOX_PREFIX,
    HEXSIDE_FEATURES,
    PLACE_KINDS,
    SPACE_KINDS,
    AreaMap,
    BoardMap,
    Bounds,
    HexInfo,
    HexMap,
    OffMapBox,
    Place,
    PlaceKind,
    Space,
    SpaceKind,
    TerrainType,
    box_location,
)
from wartable.maps.synthetic import rectangular_hex_map

__all__ = [
    "BOX_PREFIX",
    "FORMAT",
    "FORMAT_VERSION",
    "HEXSIDE_FEATURES",
    "MAX_MAP_BYTES",
    "PLACE_KINDS",
    "SPACE_KINDS",
    "AreaMap",
    "BoardMap",
    "Bounds",
    "HexInfo",
    "HexMap",
    "OffMapBox",
    "Place",
    "PlaceKind",
    "Space",
    "SpaceKind",
    "TerrainType",
    "box_location",
    "dump_map",
    "load_map",
    "rectangular_hex_map",
]
