"""The screen and the bots use the rules engine through its facade only: they import
``kotp2p.rules`` itself, never one of its modules, and use only the names it exports."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import kotp2p
from kotp2p import rules

ROOT = Path(kotp2p.__file__).parent
CLIENTS = sorted([*ROOT.joinpath("ui").rglob("*.py"), *ROOT.joinpath("bots").rglob("*.py")])


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT.parent))


@pytest.mark.parametrize("path", CLIENTS, ids=_name)
def test_a_client_imports_no_private_rules_module(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    private = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if module == "kotp2p.rules":
                names = [f"{module}.{a.name}" for a in node.names if a.name not in rules.__all__]
            else:
                names = [module]
        else:
            continue
        private += [f"line {node.lineno}: {n}" for n in names if n.startswith("kotp2p.rules.")]
    assert private == [], f"{_name(path)} imports private rules modules: {private}"


@pytest.mark.parametrize("path", CLIENTS, ids=_name)
def test_a_client_uses_only_names_the_facade_exports(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    used = {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "rules"
    }
    assert sorted(used - set(rules.__all__)) == []


def test_the_facade_exports_every_name_it_lists() -> None:
    assert [name for name in rules.__all__ if not hasattr(rules, name)] == []
