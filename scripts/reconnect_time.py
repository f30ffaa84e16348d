#!/usr/bin/env python3
"""Print how soon a host sees a joiner again after the joiner was killed and resumed.

It plays 2-seat games on 127.0.0.1 with a bot on each seat, as real ``kotp2p`` processes. In
each, it kills the joiner with SIGKILL after a few turns, waits a while, starts ``kotp2p
resume``, and times three things from that start: the resumed screen, the catch-up, and the
host's "link up" line. Each game waits a different time before the resume, because the time
down must not matter.

Usage: .venv/bin/python scripts/reconnect_time.py [SECONDS_DOWN ...]
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

KOTP2P = [sys.executable, "-m", "kotp2p"]
DELAY = ["--bot-delay", "0.3"]


def _env(home: Path) -> dict[str, str]:
    return {**os.environ, "KOTP2P_HOME": str(home), "PYTHONUNBUFFERED": "1"}


def _start(home: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([*KOTP2P, *args], env=_env(home), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def one_game(down: float) -> str:
    """One game: the joiner is down ``down`` seconds. A line of figures."""
    tmp = Path(tempfile.mkdtemp())
    procs: list[subprocess.Popen[str]] = []
    try:
        host = _start(tmp / "host", "host", "--seats", "2", "--bot", "random", "--no-announce",
                      "--plain", "--bind", "127.0.0.1", *DELAY)
        procs.append(host)
        assert host.stdout is not None
        port = None
        while port is None:
            found = re.search(r"hosting on port (\d+)", host.stdout.readline())
            port = int(found.group(1)) if found else None
        heard: list[tuple[float, str]] = []
        out = host.stdout
        threading.Thread(target=lambda: heard.extend((time.monotonic(), ln) for ln in out),
                         daemon=True).start()
        joiner = _start(tmp / "join", "join", f"127.0.0.1:{port}", "--bot", "random", "--plain",
                        *DELAY)
        procs.append(joiner)
        assert joiner.stdout is not None
        turns = 0
        while turns < 3:
            turns += joiner.stdout.readline().startswith("-- turn ")
        joiner.kill()
        joiner.wait()
        time.sleep(down)
        start = time.monotonic()
        resumed = _start(tmp / "join", "resume", "--bot", "random", "--plain", "--bind",
                         "127.0.0.1", *DELAY)
        procs.append(resumed)
        assert resumed.stdout is not None
        screen = caught = None
        for line in resumed.stdout:
            if screen is None and "resumed" in line:
                screen = time.monotonic() - start
            if "caught up" in line:
                caught = time.monotonic() - start
                break
        up = None
        deadline = time.monotonic() + 30
        while up is None and time.monotonic() < deadline:
            ups = [t - start for t, ln in list(heard) if t >= start and "link to" in ln
                   and ln.rstrip().endswith("up")]
            up = ups[0] if ups else None
            time.sleep(0.05)
        return (f"down {down:5.1f} s: resumed screen {_s(screen)}, caught up {_s(caught)}, "
                f"host sees the link up {_s(up)}")
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
        shutil.rmtree(tmp, ignore_errors=True)


def _s(seconds: float | None) -> str:
    return "never" if seconds is None else f"{seconds:.2f} s"


def main() -> None:
    """Play a game per time down given, by default 1.5, 4, 8 and 12 s."""
    for down in [float(a) for a in sys.argv[1:]] or [1.5, 4.0, 8.0, 12.0]:
        print(one_game(down), flush=True)


if __name__ == "__main__":
    main()
