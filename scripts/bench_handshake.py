#!/usr/bin/env python3
"""What the lobby handshake costs each side, without a join code and with one (SPAKE2).

The two state machines are driven in memory, so only their own work is timed: signatures,
and with a code the SPAKE2 exchange. CPU time per handshake (``time.process_time``), the mean of
30, for the dialer and the acceptor apart."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kotp2p.net.lobby import AcceptorHandshake, DialerHandshake  # noqa: E402
from kotp2p.net.wire import Identity, codec  # noqa: E402

RUNS = 30
HOST, JOINER = Identity.generate("host"), Identity.generate("joiner")


def _payloads(frames: list[bytes]) -> list[bytes]:
    return [p for f in frames for p in codec.FrameDecoder().feed(f)]


def one(code: str | None) -> tuple[float, float]:
    """The CPU seconds the dialer and the acceptor spend on one handshake."""
    dialer = DialerHandshake(JOINER, engine_id="bench", challenge=os.urandom(32), join_code=code)
    acceptor = AcceptorHandshake([HOST], engine_id="bench", challenge=os.urandom(32),
                                 join_code=code)
    spent = [0.0, 0.0]
    start = time.process_time()
    out = _payloads([dialer.hello()])
    spent[0] += time.process_time() - start
    while not (dialer.done and acceptor.done):
        start = time.process_time()
        back = _payloads([f for p in out for f in acceptor.receive(p)])
        spent[1] += time.process_time() - start
        start = time.process_time()
        out = _payloads([f for p in back for f in dialer.receive(p)])
        spent[0] += time.process_time() - start
    return spent[0], spent[1]


def main() -> None:
    for code in (None, "7-tiger-ocean"):
        runs = [one(code) for _ in range(RUNS)]
        dialer = sum(r[0] for r in runs) / RUNS * 1000
        acceptor = sum(r[1] for r in runs) / RUNS * 1000
        label = "with a join code" if code else "without a code"
        print(f"{label:17}  dialer {dialer:5.1f} ms  acceptor {acceptor:5.1f} ms  CPU per handshake")


if __name__ == "__main__":
    main()
