"""Regenerate the test game's map file: `PYTHONPATH=desktop python tests/testgame/make_map.py`.

The map is synthetic (deterministic, no geography): 24 x 16 hexes with terrain blobs,
rivers and towns. The same command always writes the same bytes.
"""

from pathlib import Path

from wartable.maps.mapfile import dump_map
from wartable.maps.synthetic import rectangular_hex_map


def build() -> bytes:
    return dump_map(rectangular_hex_map("skirmish/field", 24, 16, seed_pattern=7))


if __name__ == "__main__":
    out = Path(__file__).parent / "maps" / "field.json"
    out.write_bytes(build())
    print(f"wrote {out}")
