"""Opening connections: the TCP listener and dialer, and the handshake driven over a stream.

The handshake state machines are in :mod:`kotp2p.net.lobby.handshake`. Here they are fed frames
from a :class:`~kotp2p.net.transport.framed.FrameStream` under a deadline. A failure is sent to the
peer as a refusal, unless the peer refused first. It is raised as
:class:`~kotp2p.net.lobby.handshake.HandshakeFailed`. So both sides can say why. A connection that
breaks or times out mid-handshake is told as the handshake's ``interrupted`` says: a joiner that
left after the host's key confirmation has made a guess of the join code.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import socket
from collections.abc import Awaitable, Callable

import trio

from kotp2p.net.lobby import (
    MAX_HANDSHAKE_FRAME,
    AcceptorHandshake,
    DialerHandshake,
    HandshakeFailed,
    Peer,
    refusal,
)
from kotp2p.net.transport.framed import FrameStream, PeerClosed
from kotp2p.net.wire import MAX_FRAME, CodecError

log = logging.getLogger(__name__)

DEFAULT_PORT = 7447
HANDSHAKE_TIMEOUT = 10.0
MAX_OPEN = 64
"""Connections handled at one time by a listener.

More are closed at once, so a flood of connections costs little.
"""


async def _run(framed: FrameStream, hs: DialerHandshake | AcceptorHandshake, first: list[bytes],
               timeout: float) -> Peer:
    framed.max_frame = MAX_HANDSHAKE_FRAME
    try:
        with trio.fail_after(timeout):
            for frame in first:
                await framed.send(frame)
            while not hs.done:
                payload = await framed.receive()
                try:
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
    task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Listen on ``port`` and run ``handler`` for each connection in its own task.

    If ``port`` is taken, a free one is used. ``0`` means any. The port actually used is reported
    through ``task_status``.

    At most ``max_open`` connections are handled at once. A game has at most 15 links. More are
    closed at once and logged, so a flood of connections costs little.
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

    async def guarded(stream: trio.SocketStream) -> None:
        try:
            limiter.acquire_nowait()
        except trio.WouldBlock:
            log.warning("more than %d connections at once: closing a new one", max_open)
            await trio.aclose_forcefully(stream)
            return
        try:
            await handler(stream)
        finally:
            limiter.release()

    async with trio.open_nursery() as nursery:
        for listener in listeners:
            nursery.start_soon(_accept_loop, listener, guarded, nursery)
        task_status.started(actual)


async def _accept_loop(listener: trio.SocketListener,
                       handler: Callable[[trio.SocketStream], Awaitable[None]],
                       nursery: trio.Nursery) -> None:
    async with listener:
        while True:
            try:
                stream = await listener.accept()
            except OSError as exc:  # Such as too many open files. Wait and go on.
                log.warning("accepting a connection failed: %s", exc)
                await trio.sleep(0.1)
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
