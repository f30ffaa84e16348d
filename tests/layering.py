"""The import graph of a source tree, read with ``ast``: what the layering test checks and what
``scripts/arch_figures.py`` counts.

Every import counts, wherever it stands: at the top, inside a function, or under
``TYPE_CHECKING``. ``from P import X`` is an arrow to the module ``P.X`` when there is one, and
to ``P`` otherwise. Importing a submodule also runs its package's ``__init__``, but that is not
an arrow: a module may import its siblings through its package's name.

A package's ``__init__`` is its facade. Its other modules are private: only modules inside the
package import them. A facade can make a module public as a namespace by naming it in
``__all__``, as ``kotp2p.net.wire`` does with ``codec``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

# The layers, lowest first. A module may import its own layer's modules and any lower layer's
# facade. Layers on one line share a rank and may not import each other.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("kotp2p.compiled",),  # loads the compiled engine, so it must not import the rules
    ("kotp2p.rules",),
    ("kotp2p.net.wire",),
    ("kotp2p.net.trust",),
    ("kotp2p.net.replica",),
    ("kotp2p.net.peer", "kotp2p.net.files", "kotp2p.net.lobby"),
    ("kotp2p.net.session", "kotp2p.net.verify"),
    ("kotp2p.net.transport", "kotp2p.net"),
    ("kotp2p.bots",),
    ("kotp2p.ui",),
    ("kotp2p.app",),
    ("kotp2p.cli",),
    ("kotp2p.__main__",),
)
"""The layers of ``kotp2p``; ``kotp2p`` itself (the version) is below them all."""

NET_UNITS = tuple(unit for layer in LAYERS for unit in layer if unit.startswith("kotp2p.net."))


@dataclass
class Graph:
    """The modules of a tree and the arrows between them."""

    modules: dict[str, Path]
    packages: set[str]
    arrows: dict[str, set[str]] = field(default_factory=dict)
    namespaces: dict[str, set[str]] = field(default_factory=dict)
    """Package -> the submodules its facade lists in ``__all__``."""
    names: dict[str, set[tuple[str, str]]] = field(default_factory=dict)
    """Module -> the (package, name) pairs it imports from facades."""
    sources: dict[str, dict[str, str]] = field(default_factory=dict)
    """Package -> each name its facade imports -> the module it comes from."""


def module_name(root: Path, path: Path) -> str:
    """The dotted name of the module at ``path`` under ``root``."""
    name = ".".join(path.relative_to(root).with_suffix("").parts)
    return name.removesuffix(".__init__")


def _all_names(tree: ast.Module) -> set[str]:
    for node in tree.body:
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.List | ast.Tuple)
                and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)):
            return {e.value for e in node.value.elts
                    if isinstance(e, ast.Constant) and isinstance(e.value, str)}
    return set()


def read_graph(root: Path, package: str = "kotp2p") -> Graph:
    """The import graph of ``package`` under ``root``."""
    paths = sorted((root / package).rglob("*.py"))
    modules = {module_name(root, p): p for p in paths}
    packages = {module_name(root, p) for p in paths if p.name == "__init__.py"}
    graph = Graph(modules, packages)
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph.arrows[name] = set(_targets(tree, name, modules, name in packages)) - {name}
        graph.names[name] = {(node.module, a.name) for node in ast.walk(tree)
                             if isinstance(node, ast.ImportFrom) and node.module in packages
                             for a in node.names if f"{node.module}.{a.name}" not in modules}
        if name in packages:
            graph.namespaces[name] = {n for n in _all_names(tree) if f"{name}.{n}" in modules}
            graph.sources[name] = {a.asname or a.name: node.module for node in tree.body
                                   if isinstance(node, ast.ImportFrom) and node.module in modules
                                   for a in node.names}
    return graph


def through_facades(graph: Graph) -> dict[str, set[str]]:
    """The arrows between modules, with each name imported from a facade traced to the module
    that defines it. Facades themselves are left out."""

    def source(package: str, name: str) -> str:
        seen = set()
        while package in graph.packages and package not in seen:
            seen.add(package)
            package = graph.sources.get(package, {}).get(name, package)
        return package

    out: dict[str, set[str]] = {}
    for src, dsts in graph.arrows.items():
        if src in graph.packages:
            continue
        direct = {d for d in dsts if d not in graph.packages}
        traced = {source(p, n) for p, n in graph.names.get(src, ())}
        out[src] = (direct | traced) - graph.packages - {src}
    return out


def _targets(tree: ast.Module, name: str, modules: dict[str, Path], is_package: bool
             ) -> Iterator[str]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules:
                    yield alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = name.split(".")
                keep = len(parts) - node.level + (1 if is_package else 0)
                base = ".".join(parts[:keep] + ([base] if base else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if sub in modules:
                    yield sub
                elif base in modules:
                    yield base


def owner(graph: Graph, module: str) -> str:
    """The package a module belongs to: itself for a package's facade."""
    return module if module in graph.packages else module.rpartition(".")[0]


def is_inside(module: str, package: str) -> bool:
    """Whether ``module`` is ``package`` or lies under it."""
    return module == package or module.startswith(package + ".")


def private_imports(graph: Graph) -> list[tuple[str, str]]:
    """(importer, module) for each import of another package's private module."""
    found = []
    for src, targets in sorted(graph.arrows.items()):
        for dst in sorted(targets):
            if dst in graph.packages:
                continue
            home = owner(graph, dst)
            if is_inside(src, home) or dst.rpartition(".")[2] in graph.namespaces.get(home, ()):
                continue
            found.append((src, dst))
    return found


def unit_of(module: str) -> str | None:
    """The layer unit a module belongs to (``kotp2p.net.wire``), if any."""
    for layer in LAYERS:
        for unit in layer:
            if is_inside(module, unit):
                return unit
    return None


def rank(unit: str) -> int:
    """The height of a unit's layer."""
    return next(i for i, layer in enumerate(LAYERS) if unit in layer)


def upward_imports(graph: Graph) -> list[tuple[str, str]]:
    """(importer, module) for each import of a unit in the same or a higher layer."""
    found = []
    for src, targets in sorted(graph.arrows.items()):
        a = unit_of(src)
        for dst in sorted(targets):
            b = unit_of(dst)
            if a is None or b is None or a == b:
                continue
            if rank(b) >= rank(a):
                found.append((src, dst))
    return found


def unplaced(graph: Graph) -> list[str]:
    """Modules in no layer (the package root excepted)."""
    return sorted(m for m in graph.modules if unit_of(m) is None and m != "kotp2p")


def cycles(graph: Graph) -> list[list[str]]:
    """The strongly connected components with more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.arrows.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(graph.modules):
        if v not in index:
            visit(v)
    return found


def levels(arrows: dict[str, set[str]]) -> int:
    """The length of the longest chain of imports in an acyclic graph (1 for a lone node)."""
    memo: dict[str, int] = {}

    def depth(v: str, seen: frozenset[str]) -> int:
        if v in memo:
            return memo[v]
        below = [depth(w, seen | {v}) for w in arrows.get(v, ()) if w not in seen]
        memo[v] = 1 + max(below, default=0)
        return memo[v]

    return max((depth(v, frozenset()) for v in arrows), default=0)


def net_figures(graph: Graph) -> dict[str, int]:
    """Import levels and arrows inside ``kotp2p.net``, between modules and between its packages."""
    inner = {src: {d for d in dst if is_inside(d, "kotp2p.net") and d != "kotp2p.net"}
             for src, dst in graph.arrows.items()
             if is_inside(src, "kotp2p.net") and src != "kotp2p.net"}
    units: dict[str, set[str]] = {}
    for src, dsts in inner.items():
        a = unit_of(src) or src
        for d in dsts:
            b = unit_of(d) or d
            units.setdefault(a, set())
            if a != b:
                units[a].add(b)
    traced = {src: {d for d in dsts if is_inside(d, "kotp2p.net")}
              for src, dsts in through_facades(graph).items() if is_inside(src, "kotp2p.net")}
    return {
        "modules": len(inner),
        "module arrows": sum(len(v) for v in inner.values()),
        "module levels": levels(inner),
        "module levels, names traced through the facades": levels(traced),
        "package arrows": sum(len(v) for v in units.values()),
        "package levels": levels(units),
    }
