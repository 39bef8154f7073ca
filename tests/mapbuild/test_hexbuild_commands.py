"""`wartable map build|info|locate|render` (mapbuild/commands.py) and spec errors."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from PIL import Image

from wartable.core.errors import DataError, WartableError
from wartable.mapbuild.commands import add_map_commands, find_map
from wartable.mapbuild.spec import load_spec
from wartable.maps import load_map
from wartable.printing import maprender


def run(*argv: str) -> int:
    p = argparse.ArgumentParser(prog="wartable")
    sub = p.add_subparsers(dest="command")
    add_map_commands(sub, render=maprender.render_hex_map)
    args = p.parse_args(["map", *argv])
    return int(args.func(args))


def test_info(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("info", "whatif1940/east") == 0
    out = capsys.readouterr().out
    assert "hexes: 551" in out and "named places:" in out
    for word in ("major_river", "river", "sea", "lake", "border", "terrain:", "marsh"):
        assert word in out


def test_locate_prints_the_label_and_description(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("locate", "whatif1940/east", "55.756", "37.617") == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "4624"
    assert out[1].startswith("4624 Moscow — clear")
    assert run("locate", "whatif1940/west", "51.456", "7.012") == 0
    assert "ruhr_city" in capsys.readouterr().out


def test_locate_off_the_map_is_a_one_line_error() -> None:
    with pytest.raises(WartableError, match="off map whatif1940/east"):
        run("locate", "whatif1940/east", "40.0", "0.0")


def test_hex_prints_terrain_region_places_and_each_hexside(
        capsys: pytest.CaptureFixture[str]) -> None:
    """`wartable map hex MAP LABEL` (issue 19): Istanbul's hex is land on the Bosporus, a
    strait ships pass and a strait hexside land units cross."""
    assert run("hex", "aeto/east", "E 4226") == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("E 4226")
    assert "  terrain: clear" in out and "  region: Turkey" in out
    assert "  features: strait" in out
    assert "    to E 4225 (clear): strait" in out
    assert sum(1 for line in out if line.startswith("    to ")) == 6
    with pytest.raises(WartableError, match="not a hex of map aeto/east") as e:
        run("hex", "aeto/east", "E 9999")
    assert "\n" not in str(e.value)


def test_unknown_map_is_a_one_line_error() -> None:
    with pytest.raises(WartableError, match="not built") as e:
        run("info", "whatif1940/north")
    assert "\n" not in str(e.value)
    with pytest.raises(WartableError, match="no build spec"):
        run("build", "nosuch/map", "--check")


def test_render_writes_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "east.png"
    assert run("render", "whatif1940/east", "-o", str(out), "--scale", "20") == 0
    with Image.open(out) as img:
        w, h = img.size
    # 29 columns x 20 px and 19 rows x ~17 px of hexes, then the off-map boxes to their
    # right (whatif1940/east has 24 in two columns), with a title band and margins.
    m = load_map(find_map("whatif1940/east")[1])
    x0, _, x1, _ = m.bounds()
    assert 300 < h < 450
    assert abs(w - (x1 - x0) * 20 / (3 ** 0.5 * m.layout.size_x)) < 40
    # The boxes are drawn: the box frame's colour appears to the right of the hexes.
    with Image.open(out) as img:
        right = img.convert("RGB").crop((int(w * 0.75), 0, w, h))
        assert (0xF3, 0xEC, 0xD8) in {c for _, c in right.getcolors(1 << 20)}
    crop = tmp_path / "moscow.png"
    assert run("render", "whatif1940/east", "-o", str(crop), "--scale", "80",
               "--crop", "4624,2") == 0
    with Image.open(crop) as img:
        assert img.size[0] < w * 4


def test_build_check_reports_and_passes(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("build", "whatif1940/east", "--check") == 0
    out = capsys.readouterr().out
    assert "Moscow" in out and "residual" in out and "matches the committed files" in out


# --- specs: errors name the file and the key -------------------------------------------------

GOOD = (Path(__file__).resolve().parents[2] / "maps" / "sources" / "specs" /
        "whatif1940_east.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize("old,new,match", [
    ('offset = "odd-r"', 'offset = "odd-q"', "does not go with pointy-top"),
    ('label = "4624"', 'label = "9924"', "outside the map's printed rows"),
    ('[places]\n', '[places]\nhamlet = ["Klin"]\n', "unknown role"),
    ('  { id = "sea", name = "all-sea", fill = "#a9cbe8", pattern = "waves" },\n', '',
     "needs a terrain type 'sea'"),
    ('kind = "coastal"', 'kind = "nearby"', "kind must be one of"),
    ('labels = ["4300..5200"]', 'labels = ["4300..5201"]', "row or its column"),
    ('lat1 = 53.0', 'lat1 = "53"', "projection.lat1: must be"),
])
def test_bad_specs_are_refused_clearly(tmp_path: Path, old: str, new: str, match: str) -> None:
    assert old in GOOD
    p = tmp_path / "bad.toml"
    p.write_text(GOOD.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(DataError, match=match) as e:
        load_spec(p)
    assert str(e.value).startswith("maps/sources/specs/bad.toml")


def test_label_ranges_expand_both_ways(tmp_path: Path) -> None:
    p = tmp_path / "ok.toml"
    p.write_text(GOOD, encoding="utf-8")
    spec = load_spec(p)
    assert spec.grid.expand(["4300..4600"], "x") == ["4300", "4400", "4500", "4600"]
    assert spec.grid.expand(["4203..4201"], "x") == ["4203", "4202", "4201"]
