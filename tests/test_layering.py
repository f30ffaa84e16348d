"""Every package of ``kotp2p`` keeps to its layer: no import cycle, no import upward, and no
import of another package's private module. Imports inside functions and under
``TYPE_CHECKING`` count (``tests/layering.py`` reads the graph)."""

from __future__ import annotations

import functools
import subprocess
import sys
from pathlib import Path

import kotp2p
from tests.layering import (
    NET_UNITS,
    Graph,
    cycles,
    net_figures,
    private_imports,
    read_graph,
    unplaced,
    upward_imports,
)

ROOT = Path(kotp2p.__file__).parent.parent


@functools.cache
def graph() -> Graph:
    """The import graph of the package, read once, by the worker that runs these tests."""
    return read_graph(ROOT)




def test_no_import_cycle() -> None:
    assert cycles(graph()) == []


def test_no_package_imports_a_layer_above_its_own() -> None:
    assert upward_imports(graph()) == []


def test_code_outside_a_package_imports_only_its_facade() -> None:
    assert private_imports(graph()) == []


def test_every_module_has_a_layer() -> None:
    assert unplaced(graph()) == []
    assert {u.rpartition(".")[2] for u in NET_UNITS} == {
        p.name for p in (ROOT / "kotp2p" / "net").iterdir() if (p / "__init__.py").exists()}


def test_the_network_core_is_at_most_six_packages_deep() -> None:
    assert net_figures(graph())["package levels"] <= 6


def test_the_checks_see_a_cycle_an_upward_and_a_private_import(tmp_path: Path) -> None:
    pkg = tmp_path / "kotp2p"
    for name, text in {
        "__init__.py": "",
        "rules/__init__.py": "from kotp2p.rules.a import A\n",
        "rules/a.py": "from kotp2p.rules.b import B\nA = 1\n",
        "rules/b.py": "def f() -> None:\n    from kotp2p.rules import a\nB = 2\n",
        "net/__init__.py": "",
        "net/wire/__init__.py": "",
        "net/wire/codec.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                             "    from kotp2p.ui import View\n",
        "ui/__init__.py": "from kotp2p.rules.a import A\nView = A\n",
    }.items():
        (pkg / name).parent.mkdir(parents=True, exist_ok=True)
        (pkg / name).write_text(text)
    graph = read_graph(tmp_path)
    assert cycles(graph) == [["kotp2p.rules.a", "kotp2p.rules.b"]]
    assert upward_imports(graph) == [("kotp2p.net.wire.codec", "kotp2p.ui")]
    assert private_imports(graph) == [("kotp2p.ui", "kotp2p.rules.a")]


def test_a_game_in_plain_lines_never_loads_prompt_toolkit() -> None:
    code = ("import sys, kotp2p.cli, kotp2p.app, kotp2p.app.localgame, kotp2p.app.netgame, "
            "kotp2p.app.resume, kotp2p.app.logs\n"
            "print(sorted({m.split('.')[0] for m in sys.modules}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "prompt_toolkit" not in out.stdout
