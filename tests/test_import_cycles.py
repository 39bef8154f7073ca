"""No import cycle inside a package (issue 14), counting the imports made inside functions.

A cycle "hidden" behind a function-level import is still a cycle: the two modules cannot be
understood, tested or moved apart. The graph is built from every `import` statement in each
module's AST, wherever it stands; `from a import b` where `a.b` is a module counts as an
import of `a.b` (as grimp and import-linter read it).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PKG_ROOT = Path(__file__).resolve().parents[1] / "desktop"

Graph = dict[str, dict[str, int]]  # importer -> imported -> first line


def _modules(package: str) -> dict[str, tuple[Path, bool]]:
    base = PKG_ROOT / package.replace(".", "/")
    out: dict[str, tuple[Path, bool]] = {}
    for path in sorted(base.rglob("*.py")):
        parts = list(path.relative_to(PKG_ROOT).with_suffix("").parts)
        is_pkg = parts[-1] == "__init__"
        if is_pkg:
            parts.pop()
        out[".".join(parts)] = (path, is_pkg)
    return out


def import_graph(package: str) -> Graph:
    """Imports between the modules of `package`, module- and function-level alike."""
    mods = _modules(package)
    graph: Graph = {m: {} for m in mods}
    for name, (path, is_pkg) in mods.items():
        here = name if is_pkg else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    parts = here.split(".")
                    base = ".".join(parts[:len(parts) - node.level + 1])
                    module = f"{base}.{node.module}" if node.module else base
                else:
                    module = node.module or ""
                subs = [f"{module}.{a.name}" for a in node.names]
                targets = [s for s in subs if s in mods] or [module]
            for t in targets:
                if t in mods and t != name:
                    graph[name].setdefault(t, node.lineno)
    return graph


def cycles(graph: Graph) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _describe(graph: Graph, comp: list[str]) -> str:
    inside = set(comp)
    return "; ".join(f"{a} -> {b} (line {line})" for a in comp
                     for b, line in sorted(graph[a].items()) if b in inside)


@pytest.mark.parametrize("package", ["wartable.games", "wartable.printing"])
def test_no_import_cycle_inside_package(package: str) -> None:
    graph = import_graph(package)
    found = cycles(graph)
    assert not found, "import cycles: " + " | ".join(_describe(graph, c) for c in found)


def test_function_level_imports_are_counted() -> None:
    """The game package registers its rules through an import inside `_rules()`: the scan
    must see it, or a cycle hidden that way would pass."""
    graph = import_graph("wartable.games")
    assert "wartable.games.aa_anniversary.rules" in graph["wartable.games.aa_anniversary"]


def test_a_cycle_is_reported() -> None:
    graph: Graph = {"p.a": {"p.b": 3}, "p.b": {"p.a": 7}, "p.c": {"p.a": 1}}
    assert cycles(graph) == [["p.a", "p.b"]]
