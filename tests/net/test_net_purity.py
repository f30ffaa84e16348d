"""The trust core stays sans-IO and deterministic: no module of kotp2p.net imports a PRNG, a
clock, sockets or an event loop (secrets come in as parameters, time as method calls).

Trio and sockets live in ``kotp2p/net/transport/`` and in the app layer that starts them.
Every other module is kept free of them. The sans-IO layers (the engine, the bots and
the rest of ``net/``) do not even import the transport."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import kotp2p
import kotp2p.net

FORBIDDEN = {"random", "time", "datetime", "socket", "trio", "asyncio", "prompt_toolkit"}
NET = Path(kotp2p.net.__file__).parent
MODULES = sorted(p for p in NET.rglob("*.py") if p.parent.name != "transport")

PACKAGE = Path(kotp2p.__file__).parent
IO_MODULES = {"trio", "socket", "socketserver", "selectors", "asyncio", "ssl"}
TRANSPORT = "kotp2p.net.transport"
ALLOWED_IO = ("net/transport/", "app/")
"""Where trio and sockets may be imported (paths relative to the package)."""
SANS_IO_LAYERS = ("rules/", "bots/")
"""Packages that never import the transport (with every package of ``kotp2p/net/`` but it)."""
SANS_IO_MODULES = sorted(
    p for p in PACKAGE.rglob("*.py")
    if not p.relative_to(PACKAGE).as_posix().startswith(ALLOWED_IO)
)


def imports(path: Path) -> set[str]:
    """Every module name ``path`` imports, in full (``a.b.c``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(NET).as_posix())
def test_module_imports_no_chance_clock_or_io(path: Path) -> None:
    imported = {name.split(".")[0] for name in imports(path)}
    assert not imported & FORBIDDEN, f"{path.name} imports {sorted(imported & FORBIDDEN)}"


def test_there_are_modules_to_check() -> None:
    assert {"protocol.py", "replica.py", "chain.py", "handshake.py"} <= {p.name for p in MODULES}
    names = {p.relative_to(PACKAGE).as_posix() for p in SANS_IO_MODULES}
    assert {"net/peer/protocol.py", "rules/machine.py", "bots/base.py", "ui/model.py"} <= names
    assert not any(n.startswith("net/transport/") for n in names)


@pytest.mark.parametrize("path", SANS_IO_MODULES, ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_only_the_transport_touches_trio_and_sockets(path: Path) -> None:
    names = imports(path)
    io = {n.split(".")[0] for n in names} & IO_MODULES
    assert not io, f"{path.relative_to(PACKAGE)} imports {sorted(io)}: only net/transport/ may"
    rel = path.relative_to(PACKAGE).as_posix()
    if rel.startswith(SANS_IO_LAYERS) or rel.startswith("net/"):
        transport = sorted(n for n in names if n == TRANSPORT or n.startswith(TRANSPORT + "."))
        assert not transport, f"{rel} imports {transport}: it must stay sans-IO"


def test_the_transport_is_where_trio_is() -> None:
    transport = PACKAGE / "net" / "transport"
    assert any("trio" in {n.split(".")[0] for n in imports(p)} for p in transport.glob("*.py"))
