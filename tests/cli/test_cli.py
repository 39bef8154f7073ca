"""The command line, run as a real subprocess: readable output, one-line errors, exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from wartable import __version__

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, home: Path, timeout: int = 120) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join([str(ROOT / "desktop"), str(ROOT / "tests")])
    env = {**os.environ, "PYTHONPATH": path,
           "WARTABLE_GAME_MODULES": "testgame", "WARTABLE_HOME": str(home),
           "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, "-m", "wartable", *args], env=env, text=True,
                          capture_output=True, timeout=timeout, cwd=home)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path


def test_version(home: Path) -> None:
    r = run("--version", home=home)
    assert r.returncode == 0 and r.stdout.strip() == f"wartable {__version__}"


def test_games_lists_the_test_game(home: Path) -> None:
    r = run("games", home=home)
    assert r.returncode == 0
    assert "skirmish: Skirmish at the Ford (test game) — scenarios: meeting (Meeting " \
           "engagement), contact (Contact at the ford)" in r.stdout


def test_new_show_play_round_trip(home: Path) -> None:
    save = home / "g.wartable.json"
    r = run("new", "skirmish", "contact", "-o", str(save), "--seed", "4", home=home)
    assert r.returncode == 0, r.stderr
    assert save.is_file() and json.loads(save.read_text())["seed"] == "4"
    r = run("show", str(save), home=home)
    assert r.returncode == 0
    assert "Turn 1, Blue player turn — Movement [S4]; 0 actions played" in r.stdout
    assert "Blue: 2 pieces in 2 locations" in r.stdout
    actions = home / "a.json"
    actions.write_text(json.dumps([
        {"verb": "move", "side": "blue", "args": {"piece": "blue.infantry.1", "to": "0904"}},
        {"verb": "end_step", "side": "blue", "args": {}},
    ]))
    r = run("play", str(save), "--actions", str(actions), home=home)
    assert r.returncode == 0, r.stderr
    assert "Blue 1st Inf moves 1004 → 0904 (1 MP)" in r.stdout
    r = run("show", str(save), home=home)
    assert "Turn 1, Red player turn — Movement [S4]; 2 actions played" in r.stdout


def test_play_stops_on_an_illegal_action_and_saves_nothing(home: Path) -> None:
    save = home / "g.wartable.json"
    run("new", "skirmish", "contact", "-o", str(save), home=home)
    before = save.read_bytes()
    actions = home / "a.json"
    actions.write_text(json.dumps([
        {"verb": "move", "side": "blue", "args": {"piece": "blue.infantry.1", "to": "2020"}}]))
    r = run("play", str(save), "--actions", str(actions), home=home)
    assert r.returncode == 1
    assert r.stderr.startswith("wartable: error: action 1 of 1 (move) is illegal: ")
    assert r.stderr.count("\n") == 1
    assert save.read_bytes() == before


@pytest.mark.parametrize("content, message", [
    (b"", "empty"),
    (b"{not json", "JSON"),
    (b'{"format": "something-else"}', "not a Wartable save"),
])
def test_show_bad_file_one_line_error(home: Path, content: bytes, message: str) -> None:
    bad = home / "bad.wartable.json"
    bad.write_bytes(content)
    r = run("show", str(bad), home=home)
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.startswith("wartable: error: ") and r.stderr.count("\n") == 1
    assert message.lower() in r.stderr.lower()
    assert bad.read_bytes() == content


def test_unknown_game_is_a_one_line_error(home: Path) -> None:
    r = run("new", "nosuchgame", "x", "-o", str(home / "x.json"), home=home)
    assert r.returncode == 1
    assert r.stderr == ("wartable: error: Unknown game 'nosuchgame'. "
                        "Installed games: whatif1940, aa_anniversary, skirmish, eto_bailey.\n")


def test_selfplay_json_reports_every_game(home: Path) -> None:
    r = run("selfplay", "skirmish", "contact", "--games", "3", "--seed", "5", "--json",
            home=home)
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["games"] == 3 and data["failures"] == 0
    assert all(g["result"] for g in data["results"])


def test_selfplay_rounds_stops_at_the_round(home: Path) -> None:
    r = run("selfplay", "skirmish", "meeting", "--rounds", "2", "--seed", "1", home=home)
    assert r.returncode == 0
    assert "stopped at turn 3" in r.stdout  # turn 3 began: rounds 1 and 2 are complete


def test_screenshot_of_the_start_screen(home: Path) -> None:
    out = home / "shot.png"
    r = run("screenshot", "-o", str(out), "--size", "800x600", home=home, timeout=180)
    assert r.returncode == 0, r.stderr
    from PIL import Image

    with Image.open(out) as im:
        assert im.size == (800, 600)
        assert len(im.convert("RGB").getcolors(maxcolors=1 << 20) or ()) > 20  # not blank


def test_map_locate_prints_the_rulebook_hex(home: Path) -> None:
    """[3.2] Moscow is hex 4624; Moscow's coordinates must land there on the built map."""
    r = run("map", "locate", "whatif1940/east", "55.75", "37.62", home=home)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == "4624"
    assert "Moscow" in r.stdout


def test_map_info_and_an_off_map_point(home: Path) -> None:
    r = run("map", "info", "whatif1940/west", home=home)
    assert r.returncode == 0 and "hexes: 400" in r.stdout
    r = run("map", "locate", "whatif1940/east", "10", "10", home=home)
    assert r.returncode == 1
    assert r.stderr == "wartable: error: 10.0, 10.0 is off map whatif1940/east\n"


def test_version_does_not_load_the_map_builder(home: Path) -> None:
    code = ("import sys; from wartable.cli import main; main(['games']); "
            "print(sorted(m for m in sys.modules if m.startswith(('shapely', 'PIL', "
            "'wartable.mapbuild'))))")
    path = os.pathsep.join([str(ROOT / "desktop"), str(ROOT / "tests")])
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": path, "WARTABLE_HOME": str(home),
                            "WARTABLE_GAME_MODULES": "testgame"}, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "wartable.mapbuild" not in r.stdout.splitlines()[-1]


@pytest.mark.parametrize("lat, lon, space", [
    (52.52, 13.40, "germany"),            # Berlin
    (55.75, 37.62, "russia"),             # Moscow
    (21.3, -157.8, "hawaiian_islands"),   # Honolulu
    (56.0, 3.0, "sz06"),                  # the North Sea
])
def test_map_locate_on_the_world_area_map(home: Path, lat: float, lon: float,
                                          space: str) -> None:
    r = run("map", "locate", "aa_anniversary/world", str(lat), str(lon), home=home)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == space


def test_map_info_on_the_world_area_map(home: Path) -> None:
    r = run("map", "info", "aa_anniversary/world", home=home)
    assert r.returncode == 0
    assert "spaces: 162 (97 land, 65 sea)" in r.stdout and "adjacencies: 407" in r.stdout


def test_print_setup_writes_a_pdf_through_the_cli(home: Path) -> None:
    out = home / "red.pdf"
    r = run("print-setup", "skirmish", "meeting", "--side", "RED", "-o", str(out), home=home,
            timeout=300)
    assert r.returncode == 0, r.stderr
    assert "Red: 5 units in 5 locations" in r.stdout
    data = out.read_bytes()
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    r = run("print-setup", "skirmish", "meeting", "--side", "green", "-o", str(out),
            home=home)
    assert r.returncode == 1 and r.stderr == (
        "wartable: error: Skirmish at the Ford (test game) has no side 'green'; "
        "its sides are Blue (blue), Red (red).\n")


def test_battle_calc_json_exact_one_on_one(home: Path) -> None:
    """1 infantry attacking 1 infantry: per round the attacker hits with 1/6, the defender
    with 2/6. P(attacker wins) = (1/6 * 4/6) / (1 - 5/6 * 4/6) = 1/4; P(draw) = (1/6 * 2/6)
    / (4/9) = 1/8; P(defender wins) = 5/8 (computed by hand)."""
    r = run("battle-calc", "--attack", "infantry=1", "--defend", "infantry=1", "--json",
            home=home)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["attacker_win"] == pytest.approx(1 / 4)
    assert d["draw"] == pytest.approx(1 / 8)
    assert d["defender_win"] == pytest.approx(5 / 8)


def test_battle_calc_unknown_unit_is_one_line(home: Path) -> None:
    r = run("battle-calc", "--attack", "tank=2", "--defend", "infantry=1", home=home)
    assert r.returncode == 1 and r.stderr.count("\n") == 1
    assert "Did you mean 'armour' (Tank)?" in r.stderr


def test_selfplay_bot_against_random_reports_a_win_rate(home: Path) -> None:
    r = run("selfplay", "aa_anniversary", "1941", "--bot", "fast", "--vs", "random",
            "--games", "2", "--rounds", "2", "--json", home=home, timeout=300)
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["games"] == 2 and 0.0 <= data["win_rate"] <= 1.0
    r = run("selfplay", "skirmish", "meeting", "--bot", "fast", home=home)
    assert r.returncode == 1
    assert r.stderr == ("wartable: error: --bot is available for aa_anniversary and "
                        "whatif1940 only, not 'skirmish'\n")


@pytest.mark.parametrize("command", ["print-setup", "print-charts", "print-position", "map"])
def test_help_of_a_heavy_command_group(home: Path, command: str) -> None:
    """`wartable --help` tells the player to run `wartable print-setup -h`; it printed
    'unrecognized arguments: -h' because the stub swallowed no leading option."""
    r = run(command, "-h", home=home)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("usage: wartable " + command)
