"""run_all.py --json: figures land in one file under stable keys (issue 20)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from figures import ENV, report, slug

HERE = Path(__file__).resolve().parent


def test_labels_become_stable_key_parts() -> None:
    assert slug("frame 100 % ms") == "frame_100_pct_ms"
    assert slug("load json ms") == "load_json_ms"
    assert slug("RSS MB") == "rss_mb"


def test_report_merges_numbers_and_leaves_out_text(tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "figs.json"
    monkeypatch.setenv(ENV, str(out))
    report("maps/aa_anniversary/world", {"load ms": 240, "what": "text", "ok": True})
    report("saves/2000_actions", {"load json ms": 12.5})
    assert json.loads(out.read_text()) == {"maps/aa_anniversary/world/load_ms": 240.0,
                                           "saves/2000_actions/load_json_ms": 12.5}


def test_report_writes_nothing_without_run_all(tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    report("x", {"y": 1})
    assert list(tmp_path.iterdir()) == []


def test_run_all_json_collects_a_bench(tmp_path: Path) -> None:
    out = tmp_path / "all.json"
    r = subprocess.run([sys.executable, str(HERE / "run_all.py"), "--json", str(out),
                        "--only", "saves"], capture_output=True, text=True, timeout=600,
                       cwd=HERE.parents[1])
    assert r.returncode == 0, r.stderr[-2000:]
    figs = json.loads(out.read_text())
    assert {"saves/2000_actions/load_json_ms", "saves/2000_actions/load_gzip_ms"} <= set(figs)
    assert "figures written to" in r.stdout
