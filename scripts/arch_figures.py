#!/usr/bin/env python3
"""Print the figures of the code's architecture: modules per package, import levels and arrows
inside net/, cycles, upward and private imports, lines of mixin declarations for mypy, and
classes built from more than one of our classes.

Usage: .venv/bin/python scripts/arch_figures.py [ROOT]

ROOT is a checkout of kotp2p; by default this one. Give another to compare with an older commit
(``git worktree add /tmp/old COMMIT``). The layers are those of tests/layering.py, so upward
imports are only meaningful for a tree arranged by them.
"""

from __future__ import annotations

import ast
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from tests.layering import (  # noqa: E402
    cycles,
    is_inside,
    net_figures,
    owner,
    private_imports,
    read_graph,
    upward_imports,
)


def multi_base_classes(root: Path) -> list[str]:
    """Classes with more than one base class that is defined in kotp2p."""
    found = []
    for path in sorted((root / "kotp2p").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        ours = {node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("kotp2p"):
                ours |= {a.asname or a.name for a in node.names if a.name[:1].isupper()}
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases = [b.id for b in node.bases if isinstance(b, ast.Name) and b.id in ours]
                if len(bases) > 1:
                    found.append(f"{path.relative_to(root)}: {node.name}({', '.join(bases)})")
    return found


def main() -> int:
    root = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else HERE
    graph = read_graph(root)
    per_package = Counter(owner(graph, m) for m in graph.modules)
    print("modules per package:")
    for package, count in sorted(per_package.items()):
        print(f"  {package}: {count}")
    for name, value in net_figures(graph).items():
        print(f"net/ {name}: {value}")
    found = cycles(graph)
    print(f"import cycles: {len(found)}")
    for part in found:
        print(f"  {' '.join(part)}")
    print(f"upward imports between the layers of tests/layering.py: {len(upward_imports(graph))}")
    above = ("kotp2p.ui", "kotp2p.bots", "kotp2p.app", "kotp2p.localgame", "kotp2p.commands",
             "kotp2p.simulate", "kotp2p.cli")
    up = [(src, dst) for src, dsts in graph.arrows.items() if is_inside(src, "kotp2p.net")
          for dst in dsts if any(is_inside(dst, a) for a in above)]
    print(f"imports from net/ into ui/, bots/ or the commands: {len(up)}")
    private = private_imports(graph)
    print(f"imports of another package's private module: {len(private)}")
    parts = sorted((root / "kotp2p").rglob("*_parts.py"))
    print(f"lines in *_parts.py: {sum(len(p.read_text().splitlines()) for p in parts)}")
    multi = multi_base_classes(root)
    print(f"classes with more than one base from kotp2p: {len(multi)}")
    for line in multi:
        print(f"  {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
