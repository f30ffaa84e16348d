"""In-memory links between sessions running in one trio run: the :class:`Links` a transport
would give, with a switch to take a seat's process off the network (a crash) and back."""

from __future__ import annotations

from collections.abc import AsyncIterator

import trio

from kotp2p.net.transport.runner import FrameIn, LinkDown, LinkEvent, LinkUp


class MemoryNet:
    """The network: one inbox per seat; a frame for a seat whose process is down is lost."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.up: set[int] = set()
        self.inbox: dict[int, trio.MemorySendChannel[LinkEvent]] = {}
        self.frames = 0

    def links(self, seat: int) -> MemoryLinks:
        """The links of the process playing ``seat`` (it comes up on the network)."""
        send, receive = trio.open_memory_channel[LinkEvent](10_000)
        self.inbox[seat] = send
        for other in sorted(self.up):
            self.inbox[other].send_nowait(LinkUp(seat))
            send.send_nowait(LinkUp(other))
        self.up.add(seat)
        return MemoryLinks(self, seat, receive)

    def crash(self, seat: int) -> None:
        """The process playing ``seat`` is gone: the others see its link go down."""
        self.up.discard(seat)
        self.inbox.pop(seat).close()
        for other in sorted(self.up):
            self.inbox[other].send_nowait(LinkDown(seat))


class MemoryLinks:
    """One process's view of the :class:`MemoryNet`."""

    def __init__(self, net: MemoryNet, seat: int,
                 receive: trio.MemoryReceiveChannel[LinkEvent]) -> None:
        self.net = net
        self.seat = seat
        self._receive = receive
        self.strikes: list[tuple[int, str]] = []

    async def send(self, seat: int, frame: bytes) -> None:
        """Deliver a frame to ``seat`` if its process is up."""
        await trio.lowlevel.checkpoint()
        if self.seat in self.net.up and seat in self.net.up:
            self.net.frames += 1
            self.net.inbox[seat].send_nowait(FrameIn(self.seat, frame[4:]))

    def strike(self, seat: int, reason: str) -> None:
        """Note a frame from ``seat`` the session refused."""
        self.strikes.append((seat, reason))

    def events(self) -> AsyncIterator[LinkEvent]:
        """What arrives for this process (the channel itself: no async generator is left
        unfinished when the runner is cancelled)."""
        return self._receive
