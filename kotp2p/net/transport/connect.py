"""Opening connections: the TCP listener and dialer, and the handshake driven over a stream.

The handshake state machines are in :mod:`kotp2p.net.lobby.handshake`. Here they are fed frames
from a :class:`~kotp2p.net.transport.framed.FrameStream` under a deadline. A failure is sent to the
peer as a refusal, unless the peer refused first. It is raised as
:class:`~kotp2p.net.lobby.handshake.HandshakeFailed`. So both sides can say why. A connection that
breaks or times out mid-handshake is told as the handshake's ``interrupted`` says: a joiner that
left after the host's key confirmation has made a guess of the join code.

A :class:`Door` runs a listener's :class:`~kotp2p.net.lobby.admission.Admission` on trio's clock.
It turns connections away, runs the acceptor's handshake with a short deadline for the first
frame, cancels the handshakes the admission drops, and logs its summary line.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import socket
from collections.abc import Awaitable, Callable
from typing import Protocol

import trio

from kotp2p.net.lobby import (
    MAX_HANDSHAKE_FRAME,
    AcceptorHandshake,
    Admission,
    DialerHandshake,
    HandshakeFailed,
    Peer,
    Tally,
    Ticket,
    Turned,
    claimed_key,
    refusal,
)
from kotp2p.net.transport.framed import FrameStream, PeerClosed
from kotp2p.net.wire import MAX_FRAME, CodecError

log = logging.getLogger(__name__)

DEFAULT_PORT = 7447
HANDSHAKE_TIMEOUT = 10.0
MAX_OPEN = 128
"""Connections handled at one time by a listener.

More are closed at once, so a flood of connections costs little. The listener's
:class:`~kotp2p.net.lobby.admission.Admission` keeps the count well below this.
"""

class Silent(HandshakeFailed):
    """The dialer sent nothing within the time for its first frame."""


class TurnedAway(HandshakeFailed):
    """The acceptor closed the connection before it sent a frame.

    A busy listener turns connections away like this, without a word: too many from one address
    at once, or a flood. Trying again a little later may get through."""


async def _run(framed: FrameStream, hs: DialerHandshake | AcceptorHandshake, first: list[bytes],
               timeout: float, hello_within: float | None = None,
               on_first: Callable[[bytes], None] | None = None) -> Peer:
    framed.max_frame = MAX_HANDSHAKE_FRAME
    heard = False  # a frame came from the peer
    try:
        with trio.fail_after(timeout):
            for frame in first:
                await framed.send(frame)
            waiting_hello = hello_within is not None
            while not hs.done:
                if waiting_hello:
                    waiting_hello = False
                    with trio.move_on_after(hello_within or 0) as waiting:
                        payload = await framed.receive()
                    if waiting.cancelled_caught:
                        raise Silent(f"no hello within {hello_within:g} s", by_peer=False)
                else:
                    payload = await framed.receive()
                heard = True
                try:
                    if on_first is not None:
                        on_first(payload)
                        on_first = None
                    out = hs.receive(payload)
                except HandshakeFailed as exc:
                    if not exc.by_peer:
                        with trio.move_on_after(1), contextlib.suppress(PeerClosed):
                            await framed.send(refusal(exc.reason, exc.why))
                    raise
                for frame in out:
                    await framed.send(frame)
    except trio.TooSlowError:
        raise hs.interrupted(f"no complete handshake within {timeout:g} s", by_peer=False) from None
    except PeerClosed as exc:
        if isinstance(hs, DialerHandshake) and not heard:
            raise TurnedAway(f"{exc} before the host said anything", by_peer=True) from None
        raise hs.interrupted(f"{exc} during the handshake", by_peer=True) from None
    except CodecError as exc:
        raise hs.interrupted(f"bad handshake frame: {exc.reason}", by_peer=False) from None
    framed.max_frame = MAX_FRAME
    assert hs.peer is not None
    return hs.peer


async def dial_handshake(framed: FrameStream, hs: DialerHandshake,
                         timeout: float = HANDSHAKE_TIMEOUT) -> Peer:
    """Run the dialer's side of the handshake over ``framed``.

    :raises HandshakeFailed: refused, broken, or too slow. The reason says which.
    """
    return await _run(framed, hs, [hs.hello()], timeout)


async def accept_handshake(framed: FrameStream, hs: AcceptorHandshake,
                           timeout: float = HANDSHAKE_TIMEOUT) -> Peer:
    """Run the acceptor's side of the handshake over ``framed``.

    :raises HandshakeFailed: refused, broken, or too slow. The reason says which.
    """
    return await _run(framed, hs, [], timeout)


def listen_problem(host: str | None, port: int, *, udp: bool = False) -> str | None:
    """Why this machine cannot listen on ``host`` and ``port``, in plain words; None if it can.

    ``host`` None means every address. It tries a TCP socket, or with ``udp`` an IPv4 UDP socket
    as the beacon listener uses. A TCP port that is taken is no problem: :func:`serve_tcp` takes
    a free one then.
    """
    family = socket.AF_INET if udp else socket.AF_UNSPEC
    kind = socket.SOCK_DGRAM if udp else socket.SOCK_STREAM
    try:
        found = socket.getaddrinfo(host, port, family, kind, 0, socket.AI_PASSIVE)
    except (OSError, UnicodeError, OverflowError):
        return "not a known name or address" if host else f"port {port} is unknown"
    for fam, typ, proto, _, address in found:
        with socket.socket(fam, typ, proto) as sock:
            if udp:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if hasattr(socket, "SO_REUSEPORT"):
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            try:
                sock.bind(address)
            except OSError as exc:
                if exc.errno == errno.EADDRINUSE and not udp:
                    continue
                if exc.errno == errno.EADDRNOTAVAIL:
                    return "not an address of this machine"
                if exc.errno == errno.EACCES:
                    return f"port {port} needs more rights"
                if exc.errno == errno.EADDRINUSE:
                    return f"port {port} is taken"
                return exc.strerror or str(exc)
    return None


async def serve_tcp(
    handler: Callable[[trio.SocketStream], Awaitable[None]],
    port: int = DEFAULT_PORT,
    host: str | None = None,
    *,
    max_open: int = MAX_OPEN,
    screen: Screen | None = None,
    task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Listen on ``port`` and run ``handler`` for each connection in its own task.

    If ``port`` is taken, a free one is used. ``0`` means any. The port actually used is reported
    through ``task_status``.

    At most ``max_open`` connections are handled at once. A game has at most 15 links. More are
    closed at once and counted in one log line per interval, so a flood of connections costs
    little. With a ``screen``, such as a :class:`Door`, the connections it turns away are closed
    right where they are accepted, before any task starts for them.
    """
    try:
        listeners = await trio.open_tcp_listeners(port, host=host)
    except OSError as exc:
        if exc.errno != errno.EADDRINUSE or port == 0:
            raise
        log.info("port %d is taken; listening on a free port instead", port)
        listeners = await trio.open_tcp_listeners(0, host=host)
    actual = listeners[0].socket.getsockname()[1]
    limiter = trio.CapacityLimiter(max_open)
    tally = Tally()

    async def guarded(stream: trio.SocketStream) -> None:
        try:
            limiter.acquire_nowait()
        except trio.WouldBlock:
            if screen is not None:
                screen.forget(stream)
            now = trio.current_time()
            tally.add(peer_address(stream), f"over {max_open} at once", now)
            line = tally.report(now)
            if line is not None:
                log.warning("%s", line)
            await trio.aclose_forcefully(stream)
            return
        try:
            await handler(stream)
        finally:
            limiter.release()

    async with trio.open_nursery() as nursery:
        for listener in listeners:
            nursery.start_soon(_accept_loop, listener, guarded, nursery, screen)
        task_status.started(actual)


async def _accept_loop(listener: trio.SocketListener,
                       handler: Callable[[trio.SocketStream], Awaitable[None]],
                       nursery: trio.Nursery, screen: Screen | None) -> None:
    async with listener:
        while True:
            try:
                stream = await listener.accept()
            except OSError as exc:  # Such as too many open files. Wait and go on.
                log.warning("accepting a connection failed: %s", exc)
                await trio.sleep(0.1)
                continue
            if screen is not None and not screen.screen(stream):
                continue
            nursery.start_soon(handler, stream)


async def dial_tcp(host: str, port: int, timeout: float = HANDSHAKE_TIMEOUT) -> trio.SocketStream:
    """Open a TCP connection to ``host:port``.

    :raises OSError: it could not be opened within ``timeout`` seconds.
    """
    with trio.move_on_after(timeout):
        return await trio.open_tcp_stream(host, port)
    raise OSError(errno.ETIMEDOUT, f"no connection to {host}:{port} within {timeout:g} s")


def peer_address(stream: trio.abc.Stream) -> str:
    """The remote IP address of a TCP stream, or '' for other streams."""
    sock = getattr(stream, "socket", None)
    if sock is None:
        return ""
    try:
        name = sock.getpeername()
    except OSError:
        return ""
    return str(name[0]) if isinstance(name, tuple) else ""


class Screen(Protocol):
    """What judges a connection as a listener accepts it, before any task starts for it."""

    def screen(self, stream: trio.SocketStream) -> bool:
        """Judge ``stream``. False means it was closed at once."""
        ...

    def forget(self, stream: trio.abc.Stream) -> None:
        """A stream judged here was closed before its handler saw it."""
        ...


class Dropped(HandshakeFailed):
    """The admission dropped a connection during its handshake. It was counted already."""


class Door:
    """A listener's :class:`~kotp2p.net.lobby.admission.Admission`, run on trio's clock.

    A handler calls :meth:`enter` first, then :meth:`handshake`, and :meth:`closed` at the end.
    ``what`` names the listener in the summary line."""

    MAX_POLITE = 8
    """Refusals sent at one time to connections turned away. More are closed at once."""

    def __init__(self, admission: Admission, what: str) -> None:
        self.admission = admission
        self.what = what
        self.on_drop: Callable[[Ticket], None] = lambda ticket: None
        """Called for a connection past its handshake that the admission drops."""
        self._scopes: dict[int, trio.CancelScope] = {}
        self._polite = 0
        self._screened: dict[int, Ticket | Turned] = {}
        """The verdicts of :meth:`screen`, by the stream's id, until :meth:`enter` takes them."""

    def screen(self, stream: trio.SocketStream) -> bool:
        """Judge a connection as it is accepted. False means it was closed at once.

        This is the cheap path of a flood: no task starts for a connection closed here. A
        connection to be told why it is refused goes on to :meth:`enter`, which tells it."""
        verdict = self.admission.arrive(peer_address(stream), trio.current_time())
        self.report()
        if isinstance(verdict, Turned) and verdict.text is None:
            stream.socket.close()
            return False
        self._screened[id(stream)] = verdict
        return True

    def forget(self, stream: trio.abc.Stream) -> None:
        """A screened connection was closed before :meth:`enter` saw it."""
        verdict = self._screened.pop(id(stream), None)
        if isinstance(verdict, Ticket):
            self.admission.closed(verdict)

    async def enter(self, stream: trio.abc.Stream) -> Ticket | None:
        """Admit a new connection; None when it was turned away and closed."""
        verdict = self._screened.pop(id(stream), None)
        if verdict is None:
            verdict = self.admission.arrive(peer_address(stream), trio.current_time())
            self.report()
        if isinstance(verdict, Ticket):
            return verdict
        if verdict.text is not None and self._polite < self.MAX_POLITE:
            self._polite += 1
            try:
                await self._refuse(stream, verdict)
            finally:
                self._polite -= 1
        await trio.aclose_forcefully(stream)
        return None

    async def _refuse(self, stream: trio.abc.Stream, verdict: Turned) -> None:
        """Say why, and read what the dialer sent, so that closing does not reset the refusal."""
        assert verdict.text is not None
        with trio.move_on_after(1):
            try:
                await stream.send_all(refusal(verdict.text, verdict.why))
                if isinstance(stream, trio.SocketStream):
                    await stream.send_eof()
                while await stream.receive_some(MAX_HANDSHAKE_FRAME):
                    pass
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass

    async def handshake(self, framed: FrameStream, hs: AcceptorHandshake, ticket: Ticket,
                        timeout: float,
                        tell: Callable[[HandshakeFailed], None] = lambda failed: None) -> Peer:
        """Run the acceptor's handshake under the admission.

        The first frame comes within the admission's ``hello_within``, the whole handshake
        within ``timeout``. A failure the admission tells by itself goes to ``tell``; the others
        are counted in its summary.

        :raises HandshakeFailed: refused, broken, too slow, or dropped by the admission.
        """
        admission = self.admission

        def first(payload: bytes) -> None:
            key = claimed_key(payload)
            if key is None:
                return
            for other in admission.hello(ticket, key, trio.current_time()):
                if other is ticket:
                    raise Dropped("the host turned this key away", by_peer=False)
                self._drop(other)

        with trio.CancelScope() as scope:
            self._scopes[ticket.id] = scope
            try:
                peer = await _run(framed, hs, [], timeout, admission.config.hello_within, first)
            except Dropped:
                raise
            except HandshakeFailed as exc:
                told = admission.failed(ticket, exc.why, isinstance(exc, Silent),
                                        trio.current_time())
                if told.each:
                    tell(exc)
                if told.line is not None:
                    log.warning("%s", told.line)
                self.report()
                raise
            finally:
                del self._scopes[ticket.id]
        if scope.cancelled_caught:
            raise Dropped("a newer connection names the same key", by_peer=False)
        for other in admission.authenticated(ticket, peer.key, trio.current_time()):
            if other is ticket:
                raise Dropped("the host turned this key away", by_peer=False)
            self._drop(other)
        self.report()
        return peer

    def _drop(self, ticket: Ticket) -> None:
        scope = self._scopes.get(ticket.id)
        if scope is not None:
            scope.cancel()
        else:
            self.on_drop(ticket)

    def closed(self, ticket: Ticket) -> None:
        """The connection of ``ticket`` is gone."""
        self.admission.closed(ticket)
        self.report()

    def report(self) -> None:
        """Log the admission's summary line, if one is due."""
        line = self.admission.report(trio.current_time())
        if line is not None:
            log.warning("%s: %s", self.what, line)

    async def reporter(self) -> None:
        """Log the summary when due, also when no connection comes. Cancel to stop."""
        while True:
            await trio.sleep(self.admission.config.report_every / 4)
            self.report()
