"""The trust core stays sans-IO and deterministic: no module of kotp2p.net imports a PRNG, a
clock, sockets or an event loop (secrets come in as parameters, time as method calls).

Trio and sockets live in one place only, ``kotp2p/net/transport/`` (plus the terminal UI's bridge
``kotp2p/ui/bridge.py`` and the command line that starts them): every other module of the package is
kept free of them (a command enters the event loop through the transport), and the sans-IO
layers (the engine, the bots, the trust core) do not even import the transport."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import kotp2p
import kotp2p.net

FORBIDDEN = {"random", "time", "datetime", "socket", "trio", "asyncio", "prompt_toolkit"}
MODULES = sorted(Path(kotp2p.net.__file__).parent.glob("*.py"))

PACKAGE = Path(kotp2p.__file__).parent
IO_MODULES = {"trio", "socket", "socketserver", "selectors", "asyncio", "ssl"}
TRANSPORT = "kotp2p.net.transport"
ALLOWED_IO = ("net/transport/", "ui/bridge.py", "cli.py")
"""Where trio and sockets may be imported (paths relative to the package)."""
SANS_IO_LAYERS = ("rules/", "bots/")
"""Packages that never import the transport (with the top-level modules of ``kotp2p/net/``)."""
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


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_module_imports_no_chance_clock_or_io(path: Path) -> None:
    imported = {name.split(".")[0] for name in imports(path)}
    assert not imported & FORBIDDEN, f"{path.name} imports {sorted(imported & FORBIDDEN)}"


def test_there_are_modules_to_check() -> None:
    assert {"protocol.py", "replica.py", "chain.py", "handshake.py"} <= {p.name for p in MODULES}
    names = {p.relative_to(PACKAGE).as_posix() for p in SANS_IO_MODULES}
    assert {"net/protocol.py", "rules/machine.py", "bots/base.py", "simulate.py"} <= names
    assert not any(n.startswith("net/transport/") for n in names)


@pytest.mark.parametrize("path", SANS_IO_MODULES, ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_only_the_transport_touches_trio_and_sockets(path: Path) -> None:
    names = imports(path)
    io = {n.split(".")[0] for n in names} & IO_MODULES
    assert not io, f"{path.relative_to(PACKAGE)} imports {sorted(io)}: only net/transport/ may"
    rel = path.relative_to(PACKAGE).as_posix()
    if rel.startswith(SANS_IO_LAYERS) or (rel.startswith("net/") and rel.count("/") == 1):
        transport = sorted(n for n in names if n == TRANSPORT or n.startswith(TRANSPORT + "."))
        assert not transport, f"{rel} imports {transport}: it must stay sans-IO"


def test_the_transport_is_where_trio_is() -> None:
    transport = PACKAGE / "net" / "transport"
    assert any("trio" in {n.split(".")[0] for n in imports(p)} for p in transport.glob("*.py"))
