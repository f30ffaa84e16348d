"""The links a session needs, one per remote seat, over the mesh, which has one per pair of seats.

A process playing several seats has a mesh link from each of them to each remote seat. The
session only cares about remote seats. A frame for remote seat ``b`` leaves on the first open link
to ``b``. Envelopes are signed, so it does not matter which local seat's link carries it. A frame
from ``b`` on any link is a :class:`~kotp2p.net.transport.runner.FrameIn` from ``b``. ``b`` is up
while at least one link to it is open.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping

import trio

from kotp2p.net.transport.mesh import Address, Connector, Mesh, MeshConfig, tcp_connector
from kotp2p.net.transport.runner import FrameIn, LinkDown, LinkEvent, LinkUp
from kotp2p.net.trust import Genesis
from kotp2p.net.wire import Identity

QUEUE = 10_000
"""Events waiting for the session.

A peer that outruns the session loses its link. It catches up later.
"""


class MeshLinks:
    """:class:`~kotp2p.net.transport.runner.Links` over a :class:`Mesh`.

    Run :meth:`run` in a nursery. Hand incoming connections to :attr:`mesh`, through
    ``mesh.accept``. A ``resumed`` game dials every peer at once, as :class:`Mesh` says."""

    def __init__(self, genesis: Genesis, local: Mapping[int, Identity],
                 addresses: Mapping[int, Address], *, engine_id: str,
                 connect: Connector = tcp_connector, config: MeshConfig | None = None,
                 on_send: Callable[[int, bytes], None] | None = None,
                 resumed: bool = False) -> None:
        self.on_send = on_send
        self.admit: Callable[[FrameIn], bool] | None = None
        """Decides as each frame arrives whether it goes on to the game at all.

        The runner uses it to drop copies of envelopes the game holds, before they are queued."""
        self.sink: Callable[[LinkEvent], bool] | None = None
        """Takes every event instead of :meth:`events`. It is the runner's own queue.

        It returns False when it has no room."""
        self._send, self._receive = trio.open_memory_channel[LinkEvent](QUEUE)
        self._up: dict[int, set[int]] = {}
        self._via: dict[int, int] = {}
        """The local seat whose link last brought a frame from each remote seat."""
        self.mesh = Mesh(genesis, local, addresses, self._frame, engine_id=engine_id,
                         on_link=self._link, connect=connect, config=config, resumed=resumed)

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Dial what this process dials, forever. Cancel to stop."""
        await self.mesh.run(task_status=task_status)

    async def finish(self, timeout: float) -> None:
        """The game is over here: let every peer read what we sent, as :meth:`Mesh.finish` does."""
        await self.mesh.finish(timeout)

    def hurry(self, seconds: float) -> None:
        """The user left the end of the game: :meth:`finish` waits at most ``seconds`` more."""
        self.mesh.hurry(seconds)

    async def send(self, seat: int, frame: bytes) -> None:
        """Queue ``frame`` for remote ``seat`` on an open link.

        If none is open, the frame is dropped. The peer asks for it again with ``sync``. This
        method has no checkpoint. So the frames a caller queues before its own next checkpoint
        leave in one write per link."""
        if self.on_send is not None:
            self.on_send(seat, frame)
        for local in sorted(self.mesh.local):
            if self.mesh.send(local, seat, frame):
                return

    def strike(self, seat: int, reason: str) -> None:
        """A frame from remote ``seat`` was refused.

        Count it against the link that brought the last frame from it. Every link to ``seat``
        leads to the same peer."""
        local = self._via.get(seat)
        if local is not None:
            self.mesh.strike(local, seat, reason)

    def events(self) -> trio.MemoryReceiveChannel[LinkEvent]:
        """Frames and link changes, in order.

        This is the channel itself, so what is already there can be taken without waiting."""
        return self._receive

    def _frame(self, local: int, remote: int, payload: bytes) -> None:
        self._via[remote] = local
        event = FrameIn(remote, payload)
        if self.admit is not None and not self.admit(event):
            return
        if self.sink is not None:
            taken = self.sink(event)
        else:
            try:
                self._send.send_nowait(event)
                taken = True
            except trio.WouldBlock:
                taken = False
        if not taken:
            link = self.mesh.links.get((local, remote))
            if link is not None:
                link.close(f"{QUEUE} frames wait for the game: this peer sends too fast")

    def _link(self, local: int, remote: int, up: bool) -> None:
        pairs = self._up.setdefault(remote, set())
        before = bool(pairs)
        if up:
            pairs.add(local)
        else:
            pairs.discard(local)
        if before != bool(pairs):
            event: LinkEvent = LinkUp(remote) if pairs else LinkDown(remote)
            if self.sink is not None:
                self.sink(event)  # If there is no room, frames closed the links already.
                return
            with contextlib.suppress(trio.WouldBlock):  # Then frames closed the links already.
                self._send.send_nowait(event)
