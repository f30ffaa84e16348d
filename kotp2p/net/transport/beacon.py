"""The UDP beacon on the wire: a host sends its announcement every second; a joiner listens.

The datagram format, its signature and the bounded list of games are sans-IO, in
:mod:`kotp2p.net.lobby.beacon`. The joiner logs one summary line of the datagrams it ignored.
Real users announce to the LAN broadcast address. Tests announce to a loopback address only.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Callable

import trio

from kotp2p.net.lobby import BROADCAST, MAX_BEACON, Announcement, BeaconBook

log = logging.getLogger(__name__)

Address = tuple[str, int]
ANNOUNCE_EVERY = 1.0


def announce_problem(target: Address) -> str | None:
    """Why the beacon cannot be sent to ``target``, in plain words; None if it can.

    The beacon goes over IPv4, so the host must be an IPv4 address or a name that has one.
    """
    try:
        socket.getaddrinfo(target[0], target[1], socket.AF_INET, socket.SOCK_DGRAM)
    except (OSError, UnicodeError, OverflowError):
        return "not a known IPv4 name or address"
    return None


async def announce(
    datagram: Callable[[], bytes],
    target: Address,
    every: float = ANNOUNCE_EVERY,
    *,
    task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Send ``datagram()`` to ``target`` every ``every`` seconds until cancelled.

    The datagram is made again each time, because free seats change. A send that fails is logged
    and retried next time."""
    with trio.socket.socket(trio.socket.AF_INET, trio.socket.SOCK_DGRAM) as sock:
        if target[0] == BROADCAST or target[0].endswith(".255"):
            sock.setsockopt(trio.socket.SOL_SOCKET, trio.socket.SO_BROADCAST, 1)
        task_status.started()
        while True:
            try:
                await sock.sendto(datagram(), target)
            except OSError as exc:
                log.warning("could not announce the game to %s:%d: %s", *target, exc)
            await trio.sleep(every)


async def listen(
    book: BeaconBook,
    port: int,
    host: str = "",
    seconds: float = 3.0,
    *,
    task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED,
) -> list[Announcement]:
    """Listen for beacons on UDP ``host:port`` for ``seconds``; return the games heard.

    A ``port`` of ``0`` takes any free port and reports it through ``task_status``. Several
    programs on one machine may listen on the same port, through ``SO_REUSEADDR`` and
    ``SO_REUSEPORT``.
    """
    with trio.socket.socket(trio.socket.AF_INET, trio.socket.SOCK_DGRAM) as sock:
        sock.setsockopt(trio.socket.SOL_SOCKET, trio.socket.SO_REUSEADDR, 1)
        if hasattr(trio.socket, "SO_REUSEPORT"):
            sock.setsockopt(trio.socket.SOL_SOCKET, trio.socket.SO_REUSEPORT, 1)
        await sock.bind((host, port))
        task_status.started(sock.getsockname()[1])
        with trio.move_on_after(seconds):
            while True:
                data, source = await sock.recvfrom(MAX_BEACON + 1)
                book.hear(data, source[0], trio.current_time())
        if book.rejected:
            log.info("%s", book.summary())
        return book.games(trio.current_time())
