"""The print commands: print-setup, print-position, print-charts and map export."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from PIL import Image

from wartable.core.errors import WartableError
from wartable.engine.session import Session
from wartable.persistence.gamedata import load_game
from wartable.persistence.savefile import save_to_path
from wartable.printing import commands


def run(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="wartable")
    sub = p.add_subparsers(dest="command")
    commands.add_print_commands(sub)
    maps = sub.add_parser("map").add_subparsers(dest="map_command")
    commands.add_map_export_command(maps)
    args = p.parse_args(argv)
    return int(args.func(args))


def test_print_setup_one_side_any_case(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "red.pdf"
    assert run(["print-setup", "skirmish", "contact", "--side", "RED", "-o", str(out),
                "--dpi", "60"]) == 0
    said = capsys.readouterr().out
    assert "Red: 2 units in 2 locations" in said and "Blue" not in said.split("\n")[0]
    assert f"Wrote 1 page to {out}" in said and out.is_file()


def test_print_setup_png_pages_are_named(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["print-setup", "skirmish", "meeting", "-o", str(tmp_path / "s.png"),
                "--dpi", "40", "--paper", "Letter", "--no-map"]) == 0
    said = capsys.readouterr().out
    files = sorted(p.name for p in tmp_path.glob("s-*.png"))
    assert files and "One PNG per page: " + ", ".join(files) in said
    with Image.open(tmp_path / files[0]) as im:
        assert im.size == (340, 440)  # Letter at 40 dpi


def test_unknown_side_is_one_clear_line(tmp_path: Path) -> None:
    with pytest.raises(WartableError) as e:
        run(["print-setup", "skirmish", "meeting", "--side", "green", "-o",
             str(tmp_path / "x.pdf")])
    assert "no side 'green'" in str(e.value) and "\n" not in str(e.value)
    assert not list(tmp_path.iterdir())


def test_print_charts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["print-charts", "skirmish", "-o", str(tmp_path / "c.pdf"), "--dpi", "50"]) == 0
    assert "Wrote 2 pages" in capsys.readouterr().out


def test_print_position(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "g.wartable.json"
    save_to_path(Session.start(load_game("skirmish"), "contact", seed=1), save,
                 "2026-01-01T00:00:00+00:00")
    for extra in ([], ["--side", "blue"], ["--reveal"]):
        out = tmp_path / f"pos{len(extra)}.png"
        assert run(["print-position", str(save), "-o", str(out), "--dpi", "40", *extra]) == 0
        assert "Wrote" in capsys.readouterr().out
    with pytest.raises(SystemExit):  # --side and --reveal exclude each other
        run(["print-position", str(save), "-o", str(out), "--side", "blue", "--reveal"])


def test_map_export(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    png = tmp_path / "m.png"
    assert run(["map", "export", "skirmish/field", "-o", str(png), "--dpi", "50",
                "--region", "1005,2"]) == 0
    assert "PNG, 50 dpi" in capsys.readouterr().out
    pdf = tmp_path / "m.pdf"
    assert run(["map", "export", "skirmish/field", "-o", str(pdf), "--dpi", "40", "--paper",
                "letter"]) == 0
    assert "Letter, 40 dpi" in capsys.readouterr().out
    assert run(["map", "export", "skirmish/field", "-o", str(tmp_path / "t.png"), "--dpi", "30",
                "--tiled"]) == 0
    assert "t-1.png" in capsys.readouterr().out
    with pytest.raises(WartableError, match="neither a map file nor a known map id"):
        run(["map", "export", "nowhere/none", "-o", str(tmp_path / "x.png")])


def test_map_export_reads_map_files(tmp_path: Path) -> None:
    from wartable.maps.mapfile import dump_map

    board = load_game("skirmish").maps["skirmish/field"]
    f = tmp_path / "field.json"
    f.write_bytes(dump_map(board))
    assert commands.find_map(str(f)).id == "skirmish/field"
