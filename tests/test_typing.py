"""mypy --strict on the pure layers (DESIGN.md, Conventions), so typing stays enforced."""

from __future__ import annotations

from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parents[1]


def test_pure_layers_pass_mypy_strict() -> None:
    pkg = ROOT / "desktop" / "wartable"
    # The pure layers, and the ones above them that are typed clean already (issue 14).
    targets = [str(pkg / p) for p in ("core", "model", "maps", "engine", "games",
                                      "persistence", "printing", "worker")]
    out, err, status = api.run(["--strict", "--no-incremental", "--config-file",
                                str(ROOT / "pyproject.toml"), *targets])
    assert status == 0, out[-4000:] + err[-1000:]
