#!/usr/bin/env python3
"""What a flood of silent connections costs a real ``kotp2p host``, and whether joiners get in.

Starts ``python -m kotp2p host`` on 127.0.0.1, opens 500 silent connections to its lobby from
127.0.0.2 to 127.0.0.4, each opened again when it is closed, for 40 seconds, and tries an honest
``join`` three times meanwhile. It prints the lines the host wrote, the CPU seconds it spent,
the connections opened, and the joins that got a seat.

    python scripts/lobby_flood.py [--seconds 40] [--connections 500] [--code DIR]

``--code`` runs the host from another source tree, such as an older checkout, to compare.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.floods import silent_flood  # noqa: E402
from tests.watchdog import kill_after  # noqa: E402


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _join(port: int, env: dict[str, str], code: Path) -> bool:
    """An honest joiner: True once it is seated. It is stopped then, or after 15 s."""
    joiner = subprocess.Popen([sys.executable, "-m", "kotp2p", "join", f"127.0.0.1:{port}",
                               "--bot", "random", "--plain"], env=env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              cwd=code)
    assert joiner.stdout is not None
    seated = False
    with kill_after(joiner, 15):
        for line in joiner.stdout:
            if "seated at seat" in line:
                seated = True
                break
    joiner.kill()
    joiner.communicate()
    return seated


def main() -> int:
    """Run the flood and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--connections", type=int, default=500)
    parser.add_argument("--pause", type=float, default=0.0,
                        help="seconds a stranger waits before it opens its next connection")
    parser.add_argument("--code", type=Path, default=ROOT, help="the source tree of the host")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PYTHONPATH": str(args.code.resolve()), "PYTHONUNBUFFERED": "1"}
        out = open(Path(tmp) / "host.out", "w+")  # noqa: SIM115
        host = subprocess.Popen(
            [sys.executable, "-m", "kotp2p", "host", "--bot", "random", "--seats", "4",
             "--no-announce", "--plain", "--bind", "127.0.0.1", "--port", "0"],
            env={**env, "KOTP2P_HOME": f"{tmp}/host"}, stdin=subprocess.DEVNULL, stdout=out,
            stderr=subprocess.STDOUT, text=True, cwd=args.code)
        port = 0
        while not port:
            time.sleep(0.1)
            for line in Path(out.name).read_text().splitlines():
                if line.startswith("hosting on port "):
                    port = int(line.split()[3].rstrip(";"))
        start_cpu, start = _cpu_seconds(host.pid), time.monotonic()
        seated = 0
        with silent_flood(port, args.connections, args.pause) as counts:
            for i in range(3):
                time.sleep(args.seconds / 4)
                seated += _join(port, {**env, "KOTP2P_HOME": f"{tmp}/join{i}"}, args.code)
            time.sleep(max(0.0, args.seconds - (time.monotonic() - start)))
            cpu, elapsed = _cpu_seconds(host.pid) - start_cpu, time.monotonic() - start
            opened = counts.opened
        host.kill()
        host.wait()
        lines = Path(out.name).read_text().splitlines()
        out.close()
    warnings = [line for line in lines if line.startswith("WARNING")]
    print(f"flood: {args.connections} silent connections for {elapsed:.0f} s, {opened} opened")
    print(f"host: {len(lines)} lines ({len(warnings)} warnings), {cpu:.1f} CPU s")
    print(f"honest joins seated: {seated} of 3")
    for line in warnings[:3]:
        print(f"  {line[:160]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
