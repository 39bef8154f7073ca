"""Issue 15 at the command line: what the reliability probe found, each reproduced.

`wartable play` and `show` run in-process through cli.main (the real parser, commands and
files); the print command and the hang cases run as a subprocess with a timeout, so a
regression fails instead of hanging the suite."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from wartable import cli
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Action
from wartable.engine.session import Session
from wartable.persistence.gamedata import load_game
from wartable.persistence.savefile import load_from_path, save_to_path

ROOT = Path(__file__).resolve().parents[2]
SAVED_AT = "2026-01-01T00:00:00+00:00"


def run_main(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(err: str, *fragments: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err  # one line, no traceback
    assert lines[0].startswith("wartable: error: "), err
    for f in fragments:
        assert f in lines[0], (f, lines[0])


@pytest.fixture
def skirmish_save(tmp_path: Path) -> Path:
    path = tmp_path / "g.wartable.json"
    save_to_path(Session.start(load_game("skirmish"), "contact", seed=4), path, SAVED_AT)
    return path


def _actions(tmp_path: Path, data: bytes) -> Path:
    p = tmp_path / "actions.json"
    p.write_bytes(data)
    return p


# --- finding 2: saves that could never be opened again ---------------------------------------

def test_issue15_finding2_free_move_to_no_place_is_refused_and_nothing_written(
        tmp_path: Path, skirmish_save: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = skirmish_save.read_bytes()
    acts = _actions(tmp_path, json.dumps([{"verb": "free_move", "side": "blue", "args": {
        "piece": "blue.infantry.1", "to": "nowhere-9999"}}]).encode())
    code, _, err = run_main("play", str(skirmish_save), "--actions", str(acts), capsys=capsys)
    assert code == cli.EXIT_ERROR
    one_line_error(err, "action 1 of 1 (free_move) is illegal", "no place 'nowhere-9999'",
                   "nothing was saved")
    assert skirmish_save.read_bytes() == before
    code, out, _ = run_main("show", str(skirmish_save), capsys=capsys)
    assert code == 0 and "Skirmish" in out


@pytest.mark.parametrize(("args", "fragment"), [
    ({"piece": "blue.ghost.7", "to": "0904"}, "There is no piece 'blue.ghost.7'"),
    ({"piece": ["a", "b"], "to": "0904"}, "There is no piece"),
    ({"piece": "blue.infantry.1", "to": 12}, "There is no place 12"),
])
def test_issue15_finding2_free_move_naming_nothing_is_illegal(
        tmp_path: Path, skirmish_save: Path, capsys: pytest.CaptureFixture[str],
        args: dict[str, object], fragment: str) -> None:
    acts = _actions(tmp_path, json.dumps([{"verb": "free_move", "side": "blue",
                                           "args": args}]).encode())
    code, _, err = run_main("play", str(skirmish_save), "--actions", str(acts), capsys=capsys)
    assert code == cli.EXIT_ERROR
    one_line_error(err, "is illegal", fragment)


def test_issue15_finding2_unknown_side_is_illegal(
        tmp_path: Path, skirmish_save: Path, capsys: pytest.CaptureFixture[str]) -> None:
    acts = _actions(tmp_path, b'[{"verb": "end_step", "side": "purple", "args": {}}]')
    code, _, err = run_main("play", str(skirmish_save), "--actions", str(acts), capsys=capsys)
    one_line_error(err, "is illegal", "Unknown side 'purple'")


# --- findings 4 and 6: special files and unreadable actions files ---------------------------

@pytest.mark.parametrize(("data", "fragment"), [
    ("[]".encode("utf-16"), "UTF-16"),
    (gzip.compress(b"[]"), "gzip-compressed"),
    (b"\x00\x01\x02\xff" * 64, "binary data"),
    (b'[{"verb": "\xe9t\xe9"}]', "not UTF-8"),
    (b"[" * 5000 + b"]" * 5000, "nested more than"),
    (b'[{"verb": "end_step", "side": "blue", "args": {"n": ' + b"9" * 5000 + b"}}]",
     "5,000 digits"),
    (json.dumps([{"verb": "x", "side": "blue", "args": {"l": list(range(1_000_000))}}])
     .encode(), "more than 10,000 values"),
    (json.dumps([{"verb": "x", "side": "blue", "args": {"a": [[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]
                  }}]).encode(), "nest more than 16"),
])
def test_issue15_finding6_bad_actions_files_are_one_line(
        tmp_path: Path, skirmish_save: Path, capsys: pytest.CaptureFixture[str],
        data: bytes, fragment: str) -> None:
    acts = _actions(tmp_path, data)
    code, _, err = run_main("play", str(skirmish_save), "--actions", str(acts), capsys=capsys)
    assert code == cli.EXIT_ERROR
    one_line_error(err, fragment)


def _cli(*args: str, home: Path, timeout: int = 60) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join([str(ROOT / "desktop"), str(ROOT / "tests")])
    env = {**os.environ, "PYTHONPATH": path, "WARTABLE_GAME_MODULES": "testgame",
           "WARTABLE_HOME": str(home), "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, "-m", "wartable", *args], env=env, text=True,
                          capture_output=True, timeout=timeout, cwd=home)


def test_issue15_finding4_fifo_and_dev_zero_as_actions_file_are_refused_at_once(
        tmp_path: Path, skirmish_save: Path) -> None:
    fifo = tmp_path / "actions.fifo"
    os.mkfifo(fifo)
    for source in (fifo, Path("/dev/zero"), tmp_path):
        r = _cli("play", str(skirmish_save), "--actions", str(source), home=tmp_path,
                 timeout=30)  # hung forever before
        assert r.returncode == 1
        one_line_error(r.stderr, "not a regular file")
    r = _cli("show", str(fifo), home=tmp_path, timeout=30)
    one_line_error(r.stderr, "not a regular file")


# --- finding 5: show and print-position under hidden information -------------------------------

@pytest.fixture
def fog_save(tmp_path: Path) -> Path:
    """1940 with three German corps stacked on 4802: the Soviets see only the top one."""
    g = load_game("whatif1940")
    s = Session.start(g, sorted(g.definition.scenarios)[0], FrozenMap(), seed=1)
    ger = sorted(p.id for p in s.state.pieces.values() if p.type == "ger_infantry")[:3]
    for pid in ger:
        s = s.submit(Action.make("free_move", "german", piece=pid, to="4802"))
    path = tmp_path / "fog.wartable.json"
    save_to_path(s, path, SAVED_AT)
    return path


def test_issue15_finding5_show_prints_only_public_information_unless_reveal(
        fog_save: Path, capsys: pytest.CaptureFixture[str]) -> None:
    s = load_from_path(fog_save)
    private = [e.text for e in s.events if e.private_to]
    prompt = s.prompt(s.state.active_side).text
    code, out, _ = run_main("show", str(fog_save), capsys=capsys)
    assert code == 0
    assert "its prompt is private; --reveal shows it" in out
    assert prompt not in out
    assert not any(t in out for t in private[-8:])
    code, out, _ = run_main("show", "--reveal", str(fog_save), capsys=capsys)
    assert code == 0 and prompt in out


def test_issue15_finding5_print_position_for_a_side_works_under_fog(
        fog_save: Path, tmp_path: Path) -> None:
    out = tmp_path / "pos.pdf"
    r = _cli("print-position", str(fog_save), "--side", "soviet", "-o", str(out),
             home=tmp_path, timeout=240)
    assert r.returncode == 0, r.stderr[-2000:]
    assert out.stat().st_size > 10_000
