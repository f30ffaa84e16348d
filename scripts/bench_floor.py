#!/usr/bin/env python3
"""What a roll costs before the network does anything, and what the network alone costs: the two
parts of the mesh's figures in ``bench_mesh.py``.

* ``6 sessions in one process``: a whole game between six random bots, each seat in its own
  :class:`~kotp2p.net.session.session.Session` (so every envelope's signature is checked by the five
  others, as between processes), frames handed over in memory; the CPU time per roll, all seats
  together, with the plain words of every move worked out as a view would ask for them.
* ``trio on 127.0.0.1``: two processes bouncing a 300-byte message over TCP with trio; the CPU
  time both spend per message (one send and one receive), and the wall time of a round trip.

Best of 3 each (``time.process_time``; a busy machine slows them less than the wall clock)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import trio  # noqa: E402

from kotp2p.net.session import DiceRolled, Timeouts  # noqa: E402
from tests.session.kit import Switchboard, session, table  # noqa: E402

SEATS = 6
MESSAGES = 3000
SIZE = 300


def _game(seed: int) -> float:
    """CPU seconds per roll of one game between :data:`SEATS` sessions in this process."""
    t = table(SEATS, seed=seed)
    sessions = [session(t, [i], seed=i, timeouts=Timeouts(None, None)) for i in range(SEATS)]
    board = Switchboard(sessions)
    start = time.process_time()
    for s in sessions:
        s.start(0.0)
    now = 0.0
    while not all(s.is_done for s in sessions) and now < 1000:
        board.tick(now)
        now += 0.01
    cpu = time.process_time() - start
    return cpu / sum(1 for u in board.seen[0] if isinstance(u, DiceRolled))


async def _echo() -> None:
    """The far end: print the port, echo one connection's bytes, then print its CPU time."""
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    print(listeners[0].socket.getsockname()[1], flush=True)
    stream = await listeners[0].accept()
    start = time.process_time()
    got = 0
    while got < MESSAGES * SIZE:
        data = await stream.receive_some(65536)
        got += len(data)
        await stream.send_all(data)
    print(time.process_time() - start, flush=True)


async def _bounce(port: int) -> tuple[float, float]:
    """CPU seconds this end spent, and wall seconds, for :data:`MESSAGES` round trips."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    message = b"x" * SIZE
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(MESSAGES):
        await stream.send_all(message)
        got = 0
        while got < SIZE:
            got += len(await stream.receive_some(65536))
    return time.process_time() - cpu, time.perf_counter() - wall


def _loopback() -> tuple[float, float]:
    """CPU seconds per message (both ends), and wall seconds per round trip."""
    far = subprocess.Popen([sys.executable, __file__, "--echo"], stdout=subprocess.PIPE,
                           text=True, cwd=ROOT)
    assert far.stdout is not None
    port = int(far.stdout.readline())
    near_cpu, wall = trio.run(_bounce, port)
    far_cpu = float(far.stdout.readline())
    far.wait()
    return (near_cpu + far_cpu) / (2 * MESSAGES), wall / MESSAGES


def main() -> None:
    if sys.argv[1:] == ["--echo"]:
        trio.run(_echo)
        return
    per_roll = min(_game(5) for _ in range(3))
    print(f"{SEATS} sessions in one process, no sockets: CPU per roll {per_roll * 1000:5.2f} ms "
          "(all seats)")
    per_message, round_trip = min(_loopback() for _ in range(3))
    print(f"trio on 127.0.0.1, two processes, {SIZE}-byte messages: CPU per message (send and "
          f"receive) {per_message * 1e6:5.1f} us, round trip {round_trip * 1e6:5.1f} us")


if __name__ == "__main__":
    main()
