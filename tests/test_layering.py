"""The layering of DESIGN.md: import-linter contracts plus what they cannot say.

- engine/ and games/ never read files, the clock or `random` (the AST scan below);
- the worker uses QtCore only;
- importing the engine and playing a game pulls in no PySide6 module (a subprocess).
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "desktop" / "wartable"

PURE_FORBIDDEN_MODULES = {"random", "time", "datetime", "os", "pathlib", "io", "tomllib",
                          "shutil", "tempfile", "glob", "secrets", "uuid", "PySide6", "PIL"}
PURE_FORBIDDEN_CALLS = {"open", "input", "print"}


def _modules(sub: str) -> list[Path]:
    return sorted((PKG / sub).rglob("*.py"))


def _imports(tree: ast.AST) -> list[tuple[int, str]]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, a.name) for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append((node.lineno, node.module))
    return out


@pytest.mark.parametrize("sub", ["core", "model", "engine", "games"])
def test_pure_layers_use_no_clock_files_or_random(sub: str) -> None:
    problems = []
    for path in _modules(sub):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for line, mod in _imports(tree):
            top = mod.split(".")[0]
            # core and model may hash with hashlib and parse JSON text; none may do I/O.
            if top in PURE_FORBIDDEN_MODULES:
                problems.append(f"{path.relative_to(ROOT)}:{line} imports {mod}")
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id in PURE_FORBIDDEN_CALLS:
                problems.append(f"{path.relative_to(ROOT)}:{node.lineno} calls {node.func.id}()")
    assert problems == []


def test_worker_uses_qtcore_only() -> None:
    bad = []
    for path in _modules("worker"):
        for line, mod in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            if mod.startswith("PySide6") and mod not in ("PySide6", "PySide6.QtCore"):
                bad.append(f"{path.name}:{line} imports {mod}")
    assert bad == []


def test_the_ast_scan_catches_a_violation(tmp_path: Path) -> None:
    """The scan above must be able to fail: feed it a module that breaks the rule."""
    tree = ast.parse("import random\nfrom time import time\nopen('x')\n")
    assert [m for _, m in _imports(tree)] == ["random", "time"]


def test_import_linter_contracts_are_kept() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "desktop")}
    r = subprocess.run([sys.executable, "-c", "from importlinter.cli import lint_imports_command;"
                        "lint_imports_command()"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert "0 broken" in r.stdout


def test_engine_and_a_game_run_without_qt() -> None:
    code = (
        "import sys\n"
        "import testgame\n"
        "from wartable.persistence.gamedata import load_game\n"
        "from wartable.engine.session import Session\n"
        "from wartable.engine.randomplay import play_random\n"
        "r = play_random(Session.start(load_game('skirmish'), 'contact', seed=1), 1)\n"
        "assert r.actions > 0, r\n"
        "qt = sorted(m for m in sys.modules if m.startswith(('PySide6', 'shiboken6')))\n"
        "print('QT:', qt)\n"
        "sys.exit(1 if qt else 0)\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "desktop"),
                                                         str(ROOT / "tests")])}
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "QT: []" in r.stdout
