"""Regenerate the kit test game's map: `PYTHONPATH=desktop python tests/assistedgame/make_map.py`.

Synthetic (deterministic): 12 x 10 hexes; the same command always writes the same bytes.
"""

from pathlib import Path

from wartable.maps.mapfile import dump_map
from wartable.maps.synthetic import rectangular_hex_map


def build() -> bytes:
    return dump_map(rectangular_hex_map("kitgame/board", 12, 10, seed_pattern=3))


if __name__ == "__main__":
    out = Path(__file__).parent / "maps" / "board.json"
    out.write_bytes(build())
    print(f"wrote {out}")
