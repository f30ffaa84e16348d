"""The trust core stays sans-IO and deterministic: no module of kotp2p.net imports a PRNG, a
clock, sockets or an event loop (secrets come in as parameters, time as method calls)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import kotp2p.net

FORBIDDEN = {"random", "time", "datetime", "socket", "trio", "asyncio", "prompt_toolkit"}
MODULES = sorted(Path(kotp2p.net.__file__).parent.glob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_module_imports_no_chance_clock_or_io(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    assert not imported & FORBIDDEN, f"{path.name} imports {sorted(imported & FORBIDDEN)}"


def test_there_are_modules_to_check() -> None:
    assert {"protocol.py", "replica.py", "chain.py"} <= {p.name for p in MODULES}
