"""The lobby on the wire: the host serves joiners over TCP, a joiner connects to the host.

The sans-IO :class:`~kotp2p.net.lobby.lobby.LobbyHost` and
:class:`~kotp2p.net.lobby.lobby.LobbyGuest` make the decisions. This module opens each connection
with the handshake, with context ``b""`` and the host's join code. It runs a
:class:`~kotp2p.net.transport.link.Link` per connection. It feeds the lobby what arrives and
carries out what it returns. The user's own requests, such as pick, ready and start, go through
:meth:`HostLobby.command` or :meth:`GuestLobby.command`. So their answers are sent the same way.
The host's listener lets connections in through a :class:`~kotp2p.net.transport.connect.Door`.
A connection past the handshake whose key holds no seat must join within a few seconds.
Both end with the :class:`~kotp2p.net.lobby.lobby.Started` event. It holds the signed genesis and
where every seat listens for the game's mesh.
"""

from __future__ import annotations

import itertools
import logging
import os
import random
from collections.abc import Callable, Iterator
from functools import partial
from typing import Generic, TypeVar

import trio

from kotp2p.net.lobby import (
    MAX_HANDSHAKE_FRAME,
    MAX_LOBBY_FRAME,
    AcceptorHandshake,
    Admission,
    AdmissionConfig,
    Banned,
    ChallengeCache,
    DialerHandshake,
    Drop,
    Failed,
    GuestEvent,
    HandshakeFailed,
    HostEvent,
    LobbyGuest,
    LobbyHost,
    Outgoing,
    Reply,
    Started,
    Ticket,
)
from kotp2p.net.transport.connect import (
    DEFAULT_PORT,
    HANDSHAKE_TIMEOUT,
    Door,
    TurnedAway,
    dial_handshake,
    dial_tcp,
    peer_address,
    serve_tcp,
)
from kotp2p.net.transport.framed import FrameStream
from kotp2p.net.transport.link import Link, LinkConfig
from kotp2p.net.wire import Refusal, Why, fingerprint

log = logging.getLogger(__name__)

LOBBY_LINK = LinkConfig(max_frame=MAX_LOBBY_FRAME, frames_per_second=50, frame_burst=200,
                        bytes_per_second=64_000, byte_burst=256_000)
"""Lobby connections carry a few small messages, so the limits are tight."""

E = TypeVar("E")


class LobbyFailed(Exception):
    """The lobby ended without a game.

    ``reason`` is safe to print. ``refusal`` says why, with its code."""

    def __init__(self, reason: str, refusal: Refusal | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.refusal = refusal if refusal is not None else Refusal(Why.OTHER, reason)


class _Runner(Generic[E]):
    """What the host's and the guest's lobby runners share.

    They share the view's callback, the handshake settings and the start."""

    def __init__(self, on_event: Callable[[E], None], join_code: str | None,
                 challenge: Callable[[], bytes], handshake_timeout: float) -> None:
        self.on_event = on_event
        self.join_code = join_code
        self.challenge = challenge
        self.handshake_timeout = handshake_timeout
        self.started: Started | None = None
        self._done = trio.Event()


class HostLobby(_Runner[HostEvent]):
    """Serves the lobby of ``lobby`` on TCP until the game starts.

    ``on_event`` sees every :class:`Changed`, :class:`Notice` and :class:`Started`, for the view.
    """

    def __init__(self, lobby: LobbyHost, on_event: Callable[[HostEvent], None], *,
                 join_code: str | None = None, challenge: Callable[[], bytes] = lambda: os.urandom(32),
                 handshake_timeout: float = HANDSHAKE_TIMEOUT,
                 admission: AdmissionConfig | None = None,
                 rng: Callable[[], float] = random.random) -> None:
        super().__init__(on_event, join_code, challenge, handshake_timeout)
        self.lobby = lobby
        self.links: dict[int, Link] = {}
        self.tickets: dict[int, Ticket] = {}
        self._ids = itertools.count(1)
        self._seen = ChallengeCache()
        self.door = Door(Admission(admission, known=lambda key: lobby.view.seat_of(key) is not None,
                                   seats=True, rng=rng), "lobby")
        self.door.on_drop = self._dropped

    def command(self, request: Callable[[LobbyHost], list[HostEvent]]) -> None:
        """Run a request of the host's user and carry out what it returns.

        An example request is ``lambda h: h.pick("The King")``.

        :raises LobbyError: the request is refused. The reason says why.
        """
        self._do(request(self.lobby))
        if self.lobby.phase == "closed":
            self._done.set()

    async def serve(self, port: int = DEFAULT_PORT, host: str | None = None, *,
                    task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED
                    ) -> Started | None:
        """Listen on ``port`` and run the lobby until every seat signed the genesis.

        If ``port`` is taken, a free one is used. The port is reported through ``task_status``.
        The answer is None when the host closed the lobby."""
        async with trio.open_nursery() as nursery:
            actual = await nursery.start(partial(serve_tcp, self._connection, port, host,
                                                 screen=self.door))
            nursery.start_soon(self.door.reporter)
            task_status.started(actual)
            await self._done.wait()
            with trio.move_on_after(2):  # Let the start message reach every joiner.
                while any(not link.closed for link in self.links.values()):
                    await trio.sleep(0.01)
            nursery.cancel_scope.cancel()
        return self.started

    async def _connection(self, stream: trio.abc.Stream) -> None:
        ticket = await self.door.enter(stream)
        if ticket is None:
            return
        try:
            await self._admitted(stream, ticket)
        finally:
            self.door.closed(ticket)
            await trio.aclose_forcefully(stream)

    async def _admitted(self, stream: trio.abc.Stream, ticket: Ticket) -> None:
        address = peer_address(stream)
        framed = FrameStream(stream, MAX_HANDSHAKE_FRAME)
        hs = AcceptorHandshake([self.lobby.identity], engine_id=self.lobby.engine_id,
                               challenge=self.challenge(), join_code=self.join_code,
                               seen=self._seen)

        def tell(failed: HandshakeFailed) -> None:
            refused = turned_away(address, failed)
            log.warning("%s", refused.text, extra={"refusal": refused})

        try:
            peer = await self.door.handshake(framed, hs, ticket, self.handshake_timeout, tell)
        except HandshakeFailed:
            # Told or counted by the door, which logs one summary line per interval.
            await framed.aclose()
            return
        if self._done.is_set():
            await framed.aclose()
            return
        conn = next(self._ids)
        link = Link(framed, f"lobby peer {peer.fingerprint} at {address}",
                    partial(self._receive, conn, ticket), LOBBY_LINK)
        self.links[conn] = link
        self.tickets[conn] = ticket
        self._do(self.lobby.connected(conn, peer.key, address))
        try:
            async with trio.open_nursery() as nursery:
                if ticket.stage == "unseated":
                    nursery.start_soon(self._must_join, conn, ticket, link)
                await link.run()
                nursery.cancel_scope.cancel()
        finally:
            del self.links[conn]
            del self.tickets[conn]
            if not self._done.is_set():
                self._do(self.lobby.disconnected(conn))

    def _receive(self, conn: int, ticket: Ticket, payload: bytes) -> None:
        self._do(self.lobby.receive(conn, payload))
        guest = self.lobby.guests.get(conn)
        if ticket.stage == "unseated" and guest is not None and guest.seat is not None:
            self.door.admission.seated(ticket)

    async def _must_join(self, conn: int, ticket: Ticket, link: Link) -> None:
        """Drop the connection if it holds no seat after the admission's ``join_within``."""
        admission = self.door.admission
        await trio.sleep(admission.config.join_within)
        guest = self.lobby.guests.get(conn)
        if ticket.stage == "unseated" and (guest is None or guest.seat is None):
            admission.not_joined(ticket, trio.current_time())
            link.close_soon(f"no seat taken within {admission.config.join_within:g} s")

    def _dropped(self, ticket: Ticket) -> None:
        """The admission made room by dropping the waiting connection of ``ticket``."""
        conn = next((c for c, t in self.tickets.items() if t is ticket), None)
        link = self.links.get(conn) if conn is not None else None
        if link is not None:
            link.close_soon("replaced by a newer connection while waiting for a seat")

    def waiting(self) -> list[tuple[int, str, str]]:
        """The connections waiting for a seat: ``(conn, address, fingerprint)``, oldest first."""
        return [(c, a, fingerprint(k)) for c, a, k in self.lobby.waiting()]

    def _do(self, events: list[HostEvent]) -> None:
        for ev in events:
            if isinstance(ev, Reply):
                link = self.links.get(ev.conn)
                if link is not None:
                    link.send(ev.frame)
            elif isinstance(ev, Drop):
                link = self.links.get(ev.conn)
                if link is not None:
                    link.close_soon(ev.reason)
            elif isinstance(ev, Banned):
                self.door.admission.ban(ev.key, ev.address, trio.current_time())
            else:
                if isinstance(ev, Started):
                    self.started = ev
                    for link in self.links.values():
                        link.close_soon("the game started")
                    self._done.set()
                self.on_event(ev)


TURNED_AWAY_WAITS = (0.5, 1.0, 2.0, 4.0)
"""Seconds a joiner waits before it dials again, when the host closed the connection without a
word before it had a seat.

A host turns connections away like that when too many come from one address at once, or in a
flood. Each wait is drawn between half and one and a half times its value, so joiners turned
away together do not all come back at once."""


class GuestLobby(_Runner[GuestEvent]):
    """Joins the lobby at ``address`` and runs it until the game starts or fails."""

    def __init__(self, lobby: LobbyGuest, on_event: Callable[[GuestEvent], None], *,
                 join_code: str | None = None, challenge: Callable[[], bytes] = lambda: os.urandom(32),
                 handshake_timeout: float = HANDSHAKE_TIMEOUT,
                 rng: Callable[[], float] = random.random) -> None:
        super().__init__(on_event, join_code, challenge, handshake_timeout)
        self.rng = rng
        self.lobby = lobby
        self.link: Link | None = None
        self.failed: Refusal | None = None

    def command(self, request: Callable[[LobbyGuest], list[GuestEvent]]) -> None:
        """Run a request of the user and send what it says.

        An example request is ``lambda g: g.pick("Alienoid")``.
        """
        self._do(request(self.lobby))

    async def run(self, address: tuple[str, int], host_key: bytes = b"") -> Started:
        """Connect, join and wait for the start.

        A ``host_key``, as a beacon announced it, must be the key that answers the handshake.

        :raises LobbyFailed: no connection, a refused handshake, or the host ended the lobby.
        """
        waits = (wait * (0.5 + self.rng()) for wait in TURNED_AWAY_WAITS)  # with jitter
        while True:
            framed = await self._handshake(address, host_key, waits)
            self.link = Link(framed, f"the host at {address[0]}:{address[1]}",
                             lambda payload: self._do(self.lobby.receive(payload)), LOBBY_LINK)
            self._do(self.lobby.hello())
            reason = await self.link.run()
            if self.started is not None:
                return self.started
            if self.failed is not None:
                raise LobbyFailed(self.failed.text, self.failed)
            # Closed without a word before we had a seat: the host's waiting room was full.
            wait = next(waits, None) if self.lobby.seat is None else None
            if wait is None:
                text = f"the lobby connection ended: {reason}"
                raise LobbyFailed(text, Refusal(Why.CONNECTION_ENDED, text, details=(reason,)))
            await trio.sleep(wait)

    async def _handshake(self, address: tuple[str, int], host_key: bytes,
                         waits: Iterator[float]) -> FrameStream:
        """A connection to the host that passed the handshake.

        A host that turned the connection away without a word is dialed again, after each of
        ``waits`` that is left.

        :raises LobbyFailed: no connection, a refused handshake, or turned away every time.
        """
        while True:
            try:
                stream = await dial_tcp(*address, timeout=self.handshake_timeout)
            except OSError as exc:
                host = f"[{address[0]}]" if ":" in address[0] else address[0]  # IPv6 in brackets
                where, why = f"{host}:{address[1]}", str(exc.strerror or exc)
                text = f"cannot reach {where}: {why}"
                raise LobbyFailed(text, Refusal(Why.UNREACHABLE, text,
                                                details=(where, why))) from None
            framed = FrameStream(stream, MAX_HANDSHAKE_FRAME)
            hs = DialerHandshake(self.lobby.identity, engine_id=self.lobby.engine_id,
                                 challenge=self.challenge(), join_code=self.join_code,
                                 to_key=host_key)
            try:
                await dial_handshake(framed, hs, self.handshake_timeout)
            except TurnedAway as exc:
                await framed.aclose()
                wait = next(waits, None)
                if wait is None:
                    text = (f"the host kept turning the connection away ({exc.reason}): it may "
                            "be flooded, or too many connect from this address at once")
                    raise LobbyFailed(text, Refusal(exc.why, text, by_peer=True)) from None
                await trio.sleep(wait)
                continue
            except HandshakeFailed as exc:
                await framed.aclose()
                raise LobbyFailed(exc.reason, exc.refusal) from None
            return framed

    def _do(self, events: list[GuestEvent]) -> None:
        link = self.link
        for ev in events:
            if isinstance(ev, Outgoing):
                if link is not None:
                    link.send(ev.frame)
                continue
            if isinstance(ev, Started):
                self.started = ev
                if link is not None:
                    link.close_soon("the game started")
            elif isinstance(ev, Failed):
                self.failed = ev.refusal
                if link is not None:
                    link.close_soon(ev.reason)
            self.on_event(ev)


def turned_away(address: str, failed: HandshakeFailed) -> Refusal:
    """The host's refusal of a player at ``address`` whose handshake ``failed``."""
    text = f"refused a lobby connection from {address}: {failed.reason}"
    return Refusal(Why.TURNED_AWAY, text, details=(address,), cause=failed.refusal)
