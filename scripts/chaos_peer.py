#!/usr/bin/env python3
"""One peer of a chaos run: the ``kotp2p`` command line, with two hooks the chaos script needs.

``python scripts/chaos_peer.py ARGS...`` runs ``kotp2p ARGS...`` in this process.

* With ``CHAOS_PROXY=PORT`` and ``CHAOS_PEER=N`` in the environment, every connection the game's
  mesh dials goes to the fault-injecting proxy on 127.0.0.1:PORT instead. The proxy first reads
  one line, ``N TARGET_PORT``, then connects to the target itself. The lobby, the game's rules and
  its logs are unchanged: only where the mesh's sockets connect to.
* ``--serve FD`` plays many games in a row in this one process. It reads one JSON list of
  ``kotp2p`` arguments a line from file descriptor ``FD``, runs it, and prints
  ``CHAOS-DONE <exit code> <VmHWM kB> <VmRSS kB> <objects>``, the last two after a
  collection. So the peak RSS of a peer that played many games is measured, and what it still
  holds after each one, and a game costs no interpreter start.
"""

from __future__ import annotations

import gc
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import trio  # noqa: E402

from kotp2p.cli import main  # noqa: E402

DONE = "CHAOS-DONE"


def vm_kb(field: str = "VmHWM") -> int:
    """This process's peak (``VmHWM``) or current (``VmRSS``) resident set size in kB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1])
    return 0


def route_through_proxy(proxy_port: int, me: int) -> None:
    """Send every connection the mesh dials through the proxy on ``proxy_port``."""
    from kotp2p.net.transport import mesh

    async def via_proxy(host: str, port: int, timeout: float = 10.0) -> trio.SocketStream:
        with trio.move_on_after(timeout):
            stream = await trio.open_tcp_stream("127.0.0.1", proxy_port)
            await stream.send_all(f"{me} {port}\n".encode())
            return stream
        raise OSError(f"no connection to the chaos proxy for {host}:{port} within {timeout:g} s")

    mesh.dial_tcp = via_proxy  # type: ignore[assignment]


def serve(fd: int) -> int:
    """Run one ``kotp2p`` command a line from ``fd`` until it closes."""
    with os.fdopen(fd, "r") as commands:
        for line in commands:
            try:
                code = main(json.loads(line))
            except SystemExit as exc:
                code = int(exc.code or 0)
            gc.collect()
            print(f"\n{DONE} {code} {vm_kb()} {vm_kb('VmRSS')} {len(gc.get_objects())}",
                  flush=True)
    return 0


def run(argv: list[str]) -> int:
    """The entry point: set the hooks, then run ``argv`` or serve commands."""
    if "CHAOS_PROXY" in os.environ:
        route_through_proxy(int(os.environ["CHAOS_PROXY"]), int(os.environ.get("CHAOS_PEER", "0")))
    if argv[:1] == ["--serve"]:
        return serve(int(argv[1]))
    return main(argv)


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
