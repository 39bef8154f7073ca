"""mypy --strict on the whole package (DESIGN.md, Conventions), so typing stays enforced."""

from __future__ import annotations

from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parents[1]


def test_pure_layers_pass_mypy_strict() -> None:
    # Every layer, the Qt ones included (issue 14: ui, gameui, app and cli joined).
    targets = [str(ROOT / "desktop" / "wartable")]
    out, err, status = api.run(["--strict", "--no-incremental", "--config-file",
                                str(ROOT / "pyproject.toml"), *targets])
    assert status == 0, out[-4000:] + err[-1000:]
