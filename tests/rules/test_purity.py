"""The engine is pure: importing every ``kotp2p.rules`` module loads no IO or chance module."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import kotp2p.rules

FORBIDDEN = ("trio", "socket", "random", "asyncio", "prompt_toolkit", "kotp2p.net", "kotp2p.ui",
             "kotp2p.bots")


def test_importing_every_rules_module_loads_nothing_impure() -> None:
    modules = sorted(m.name for m in pkgutil.iter_modules(kotp2p.rules.__path__, "kotp2p.rules."))
    assert "kotp2p.rules.machine" in modules
    code = (
        "import sys\n"
        f"for m in {modules!r}: __import__(m)\n"
        f"bad = [m for m in {FORBIDDEN!r} if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"kotp2p.rules loaded {out.stdout.strip()}"
