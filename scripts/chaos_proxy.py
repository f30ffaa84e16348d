"""A fault-injecting TCP proxy between the peers of a chaos game, in trio.

Theory of operation
-------------------
Every connection a peer's mesh dials comes here first (see ``scripts/chaos_peer.py``). It starts
with one line, ``PEER TARGET_PORT``, that says which peer dials and which port it wants. The proxy
connects to that port on 127.0.0.1 and relays bytes both ways. Each direction is a queue of chunks
with a release time, so the bytes stay in order, as TCP keeps them:

* delay: each chunk leaves ``delay`` +- ``jitter`` seconds after it came, never before the chunk
  ahead of it;
* stalls: now and then a direction holds everything for a while, like a congested path;
* cuts: now and then a connection is closed at both ends, like a reset;
* partition: :meth:`FaultProxy.partition` holds every byte to and from one peer, and every new
  connection that involves it, for some seconds. Nothing is lost: the held bytes flow when it ends,
  unless a peer gave up on the connection first, as it would on a real network.

The proxy only moves bytes. It knows nothing of the game, and the peers' logs never see it.
"""

from __future__ import annotations

import random
import threading
from collections import Counter
from dataclasses import dataclass

import trio

HEADER_MAX = 64
CHUNK = 65536


@dataclass(frozen=True)
class Faults:
    """What the proxy does to the connections it relays. Times are in seconds."""

    delay: float = 0.100
    jitter: float = 0.020
    stall_every: float = 30.0
    """Mean seconds between two stalls of one direction of one connection."""
    stall_for: tuple[float, float] = (0.5, 3.0)
    cut_every: float = 90.0
    """Mean seconds a connection lives before it is cut."""

    def describe(self) -> str:
        """The faults in one line."""
        return (f"{self.delay * 1000:.0f} ms +- {self.jitter * 1000:.0f} ms of delay, a stall of "
                f"{self.stall_for[0]:g}-{self.stall_for[1]:g} s every {self.stall_every:g} s "
                f"on average per direction, a cut every {self.cut_every:g} s on average per "
                "connection")


class FaultProxy:
    """The proxy. :meth:`run` serves it in a thread of its own; the rest is thread-safe."""

    def __init__(self, faults: Faults, rng: random.Random) -> None:
        self.faults = faults
        self.rng = rng
        self.port = 0
        self.ready = threading.Event()
        self.counts: Counter[str] = Counter()
        self._peer_of_port: dict[int, int] = {}
        self._cut_off: dict[int, float] = {}
        """Peer -> until when (trio time) it is partitioned."""
        self._token: trio.lowlevel.TrioToken | None = None
        self._cancel: trio.CancelScope | None = None

    # -- called from the chaos script's thread ----------------------------------------------------

    def name_port(self, port: int, peer: int) -> None:
        """``port`` is where ``peer``'s game listens."""
        self._peer_of_port[port] = peer

    def reset_counts(self) -> None:
        """Start counting the faults of a new game."""
        self.counts.clear()

    def partition(self, peer: int, seconds: float) -> None:
        """Hold every byte to and from ``peer`` for ``seconds``."""
        assert self._token is not None
        trio.from_thread.run_sync(self._partition, peer, seconds, trio_token=self._token)

    def stop(self) -> None:
        """Stop serving."""
        if self._token is not None and self._cancel is not None:
            trio.from_thread.run_sync(self._cancel.cancel, trio_token=self._token)

    def run(self) -> None:
        """Serve on a free port of 127.0.0.1 until :meth:`stop`. Run it in a thread."""
        trio.run(self._serve)

    # -- in the proxy's thread --------------------------------------------------------------------

    def _partition(self, peer: int, seconds: float) -> None:
        self._cut_off[peer] = trio.current_time() + seconds
        self.counts["partitions"] += 1

    def _held(self, *peers: int | None) -> float:
        """Until when one of ``peers`` is partitioned, or 0."""
        return max((self._cut_off.get(p, 0.0) for p in peers if p is not None), default=0.0)

    async def _serve(self) -> None:
        self._token = trio.lowlevel.current_trio_token()
        with trio.CancelScope() as scope:
            self._cancel = scope
            listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
            self.port = listeners[0].socket.getsockname()[1]
            self.ready.set()
            await trio.serve_listeners(self._handle, listeners)

    async def _handle(self, client: trio.SocketStream) -> None:
        async with client:
            header = b""
            with trio.move_on_after(10):
                while b"\n" not in header and len(header) < HEADER_MAX:
                    chunk = await client.receive_some(HEADER_MAX)
                    if not chunk:
                        return
                    header += chunk
            line, _, rest = header.partition(b"\n")
            try:
                source, port = (int(x) for x in line.split())
            except ValueError:
                return
            target = self._peer_of_port.get(port)
            self.counts["connections"] += 1
            while (until := self._held(source, target)) > trio.current_time():
                await trio.sleep_until(until)  # a partition: the dial hangs
            try:
                server = await trio.open_tcp_stream("127.0.0.1", port)
            except OSError:
                return
            async with server, trio.open_nursery() as nursery:
                ends = (source, target)
                open_ways = [2]

                async def way(src: trio.SocketStream, dst: trio.SocketStream, first: bytes) -> None:
                    await self._direction(src, dst, first, ends, nursery)
                    open_ways[0] -= 1
                    if not open_ways[0]:
                        nursery.cancel_scope.cancel()  # both ends closed: the relay is done

                nursery.start_soon(way, client, server, rest)
                nursery.start_soon(way, server, client, b"")
                nursery.start_soon(self._cutter, nursery)

    async def _cutter(self, nursery: trio.Nursery) -> None:
        await trio.sleep(self.rng.expovariate(1 / self.faults.cut_every))
        self.counts["cuts"] += 1
        nursery.cancel_scope.cancel()

    async def _direction(self, src: trio.SocketStream, dst: trio.SocketStream, first: bytes,
                         ends: tuple[int | None, int | None], nursery: trio.Nursery) -> None:
        """Relay ``src`` to ``dst`` with delay, stalls and partitions."""
        send, receive = trio.open_memory_channel[tuple[float, bytes]](64)
        f = self.faults

        async def reader() -> None:
            last = 0.0
            data = first
            async with send:
                while True:
                    if data:
                        now = trio.current_time()
                        last = max(last, now + max(0.0, self.rng.gauss(f.delay, f.jitter / 2)))
                        await send.send((last, data))
                    try:
                        data = await src.receive_some(CHUNK)
                    except (trio.BrokenResourceError, trio.ClosedResourceError):
                        nursery.cancel_scope.cancel()
                        return
                    if not data:
                        return

        async def writer() -> None:
            next_stall = trio.current_time() + self.rng.expovariate(1 / f.stall_every)
            async with receive:
                async for at, data in receive:
                    await trio.sleep_until(at)
                    now = trio.current_time()
                    if now >= next_stall:
                        self.counts["stalls"] += 1
                        await trio.sleep(self.rng.uniform(*f.stall_for))
                        next_stall = trio.current_time() + self.rng.expovariate(1 / f.stall_every)
                    while (until := self._held(*ends)) > trio.current_time():
                        await trio.sleep_until(until)
                    try:
                        await dst.send_all(data)
                    except (trio.BrokenResourceError, trio.ClosedResourceError):
                        nursery.cancel_scope.cancel()
                        return
            try:
                await dst.send_eof()
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                nursery.cancel_scope.cancel()

        async with trio.open_nursery() as inner:
            inner.start_soon(reader)
            inner.start_soon(writer)
