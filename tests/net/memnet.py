"""A network of trio memory streams between meshes, in one trio run: each address is served by
a mesh's ``accept`` (or a hostile stand-in), and dialing it opens a
:func:`trio.testing.memory_stream_pair` whose far end the server handles in its own task."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import trio
import trio.testing

from kotp2p.net.transport import Address

Server = Callable[[trio.abc.Stream], Awaitable[None]]


class MemoryNet:
    """Addresses served by meshes (or by a hostile stand-in), connected with memory streams."""

    def __init__(self, nursery: trio.Nursery) -> None:
        self.nursery = nursery
        self.servers: dict[Address, Server] = {}
        self.attempts: list[tuple[float, Address]] = []
        self.accepted: list[trio.abc.Stream] = []

    async def connect(self, address: Address) -> trio.abc.Stream:
        """Dial ``address``: refused (OSError) when nothing serves it."""
        self.attempts.append((trio.current_time(), address))
        server = self.servers.get(address)
        if server is None:
            raise OSError(f"connection to {address} refused")
        ours, theirs = trio.testing.memory_stream_pair()
        self.accepted.append(theirs)
        self.nursery.start_soon(server, theirs)
        return ours


def address(seat: int) -> Address:
    """Where seat ``seat`` listens."""
    return ("127.0.0.1", 7000 + seat)
