"""`wartable map render` of an area map (aa_anniversary/world), drawn by the print renderer
(printing/mapdraw.draw_map via printing/maprender.render_area_map). Seen by eye on
/tmp/hm/aa_world.png and /tmp/hm/aa_world_germany.png (`--scale 160 --crop germany,1`)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from PIL import Image

from wartable.core.errors import WartableError
from wartable.mapbuild.commands import add_map_commands
from wartable.printing import maprender
from wartable.printing.areadraw import LAND, SEA


def run(*argv: str) -> int:
    p = argparse.ArgumentParser(prog="wartable")
    sub = p.add_subparsers(dest="command")
    add_map_commands(sub, render=maprender.render_hex_map)
    args = p.parse_args(["map", *argv])
    return int(args.func(args))


def _rgb(c: str) -> tuple[int, int, int]:
    return (int(c[1:3], 16), int(c[3:5], 16), int(c[5:7], 16))


def test_area_map_renders_land_and_sea(tmp_path: Path) -> None:
    out = tmp_path / "world.png"
    assert run("render", "aa_anniversary/world", "-o", str(out), "--scale", "20") == 0
    with Image.open(out) as img:
        colours = {c for _, c in img.convert("RGB").getcolors(1 << 22)}
        w, h = img.size
    assert _rgb(LAND) in colours and _rgb(SEA) in colours
    assert w > h  # the world board is wider than tall
    crop = tmp_path / "germany.png"
    assert run("render", "aa_anniversary/world", "-o", str(crop), "--scale", "20",
               "--crop", "germany,1") == 0
    with Image.open(crop) as img:
        assert img.size[1] < h  # a crop is a part of the board


def test_area_map_render_errors(tmp_path: Path) -> None:
    out = str(tmp_path / "x.png")
    with pytest.raises(WartableError, match="not a space"):
        run("render", "aa_anniversary/world", "-o", out, "--crop", "atlantis")
    with pytest.raises(WartableError, match="area map"):
        run("render", "aa_anniversary/world", "-o", out, "--geography")
