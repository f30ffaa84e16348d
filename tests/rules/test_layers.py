"""``kotp2p.rules`` is layered: its modules import each other at the top only, never inside a
function (the usual way to hide a cycle), and the import graph between them has no cycle."""

from __future__ import annotations

import ast
import pkgutil
from pathlib import Path

import kotp2p.rules

PACKAGE = "kotp2p.rules"
ROOT = Path(kotp2p.rules.__file__).parent
MODULES = sorted(m.name for m in pkgutil.iter_modules([str(ROOT)]))


def _tree(module: str) -> ast.Module:
    return ast.parse((ROOT / f"{module}.py").read_text(encoding="utf-8"))


def _targets(node: ast.Import | ast.ImportFrom) -> list[str]:
    """The modules of this package that an import statement names (short names)."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    elif node.module == PACKAGE:  # from kotp2p.rules import basics
        names = [f"{PACKAGE}.{a.name}" for a in node.names]
    else:
        names = [node.module or ""]
    out = []
    for name in names:
        if name == PACKAGE:
            out.append("__init__")
        elif name.startswith(PACKAGE + "."):
            short = name[len(PACKAGE) + 1 :].split(".")[0]
            out.append(short if short in MODULES else "__init__")
    return out


def imports_of(module: str) -> set[str]:
    """The package's modules that ``module`` imports at its top level."""
    found: set[str] = set()
    for node in _tree(module).body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.update(_targets(node))
        elif isinstance(node, ast.If):  # if TYPE_CHECKING: ... counts too
            for sub in ast.walk(node):
                if isinstance(sub, ast.Import | ast.ImportFrom):
                    found.update(_targets(sub))
    found.discard(module)
    return found


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph as a list of nodes (first == last), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_no_rules_module_imports_inside_a_function_or_class() -> None:
    nested = []
    for module in MODULES:
        for node in ast.walk(_tree(module)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                for sub in ast.walk(node):
                    if isinstance(sub, ast.Import | ast.ImportFrom):
                        nested.append(f"{module}.py:{sub.lineno} in {node.name}")
    assert nested == [], f"imports inside functions or classes: {nested}"


def test_rules_modules_import_each_other_without_a_cycle() -> None:
    graph = {m: imports_of(m) for m in MODULES if m != "__init__"}
    assert all("__init__" not in deps for deps in graph.values()), (
        f"a module imports the package itself: {[m for m, d in graph.items() if '__init__' in d]}"
    )
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle in kotp2p.rules: " + " -> ".join(cycle or [])


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
