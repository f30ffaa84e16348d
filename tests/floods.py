"""Strangers on the LAN, for tests and figures: floods of connections run in a thread.

Each stranger dials from its own loopback address, 127.0.0.2 and up, as other machines of a LAN
would. A flood runs until its block ends.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from functools import partial

import trio

from kotp2p import rules
from kotp2p.net.lobby import MAX_HANDSHAKE_FRAME, MAX_LOBBY_FRAME, DialerHandshake, HandshakeFailed
from kotp2p.net.transport import FrameStream, Link, LinkConfig, dial_handshake
from kotp2p.net.wire import Identity

SOURCES = ("127.0.0.2", "127.0.0.3", "127.0.0.4")
PAUSE = 0.1
"""A stranger waits this long before it opens its next connection.

Thousands of connections a second remain. The pause only leaves some of this machine's two cores
to the honest players."""


@dataclass
class Counts:
    """What a flood did: connections opened, and handshakes completed."""

    opened: int = 0
    handshakes: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, opened: int = 0, handshakes: int = 0) -> None:
        """Count, from any thread."""
        with self.lock:
            self.opened += opened
            self.handshakes += handshakes


async def _dial(port: int, source: str, counts: Counts) -> trio.SocketStream:
    """A connection to ``port`` from ``source``, retried until the listener takes it."""
    while True:
        try:
            stream = await trio.open_tcp_stream("127.0.0.1", port, local_address=source)
        except OSError:
            await trio.sleep(0.01)
            continue
        counts.add(opened=1)
        return stream


async def _until_closed(stream: trio.SocketStream) -> None:
    """Read and drop what comes until the other side closes, then close too."""
    try:
        while await stream.receive_some(4096):
            pass
    except (trio.BrokenResourceError, trio.ClosedResourceError):
        pass
    finally:
        await trio.aclose_forcefully(stream)


async def _silent(port: int, source: str, counts: Counts, *, pause: float) -> None:
    """Open a connection, say nothing, and open another soon after it is closed."""
    while True:
        stream = await _dial(port, source, counts)
        await _until_closed(stream)
        await trio.sleep(pause)


async def _squatter(port: int, source: str, counts: Counts) -> None:
    """Pass the lobby handshake with a fresh key, then only answer pings; again when dropped."""
    config = LinkConfig(max_frame=MAX_LOBBY_FRAME)
    while True:
        stream = await _dial(port, source, counts)
        framed = FrameStream(stream, MAX_HANDSHAKE_FRAME)
        hs = DialerHandshake(Identity.generate("Squatter"), engine_id=rules.ENGINE_ID,
                             challenge=os.urandom(32))
        try:
            await dial_handshake(framed, hs)
            counts.add(handshakes=1)
            await Link(framed, "the host", lambda payload: None, config).run()
        except HandshakeFailed:
            await trio.sleep(0.01)
        finally:
            await trio.aclose_forcefully(stream)


async def _claimer(port: int, source: str, counts: Counts, *,
                   hello: Callable[[], bytes]) -> None:
    """Send a HELLO that names a key this stranger does not hold, then stall until closed."""
    while True:
        stream = await _dial(port, source, counts)
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
            await stream.send_all(hello())
        await _until_closed(stream)
        await trio.sleep(PAUSE)


@contextmanager
def flood(kind: Callable[[int, str, Counts], Awaitable[None]], port: int, n: int,
          sources: tuple[str, ...] = SOURCES) -> Iterator[Counts]:
    """Run ``n`` strangers of ``kind`` against ``port`` on 127.0.0.1 until the block ends."""
    counts = Counts()
    stop = threading.Event()

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            for i in range(n):
                nursery.start_soon(kind, port, sources[i % len(sources)], counts)
            while not stop.is_set():
                await trio.sleep(0.05)
            nursery.cancel_scope.cancel()

    thread = threading.Thread(target=trio.run, args=(main,), daemon=True)
    thread.start()
    try:
        yield counts
    finally:
        stop.set()
        thread.join(timeout=30)


def silent_flood(port: int, n: int = 500, pause: float = PAUSE) -> AbstractContextManager[Counts]:
    """``n`` silent connections, each opened again ``pause`` seconds after it was closed."""
    return flood(partial(_silent, pause=pause), port, n)


def squatters(port: int, n: int = 70) -> AbstractContextManager[Counts]:
    """``n`` strangers that pass the lobby handshake and then only answer pings."""
    return flood(_squatter, port, n)


def claimers(port: int, hello: Callable[[], bytes], n: int = 200
             ) -> AbstractContextManager[Counts]:
    """``n`` strangers that each send a ``hello()``, which names a key they do not hold, and
    stall."""
    return flood(partial(_claimer, hello=hello), port, n)
