"""The UDP beacon on loopback only: a host announces to 127.0.0.1, a joiner hears it."""

from __future__ import annotations

import argparse
import io
import socket
from functools import partial

import pytest
import trio

from kotp2p.app import CommandError, netgame
from kotp2p.app.netview import Lines, PlainNet
from kotp2p.net.lobby import Announcement, BeaconBook
from kotp2p.net.transport import announce, listen


async def test_a_joiner_hears_the_games_announced_on_loopback() -> None:
    free = [2]
    book = BeaconBook()
    heard: list[list[Announcement]] = []

    async def joiner(task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
        heard.append(await listen(book, 0, "127.0.0.1", 1.5, task_status=task_status))

    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(joiner)
            await nursery.start(partial(
                announce, lambda: Announcement("Friday", "Alice", 7447, free[0], 4).encode(),
                ("127.0.0.1", port), 0.2))
            await nursery.start(partial(
                announce, lambda: b"not a beacon", ("127.0.0.1", port), 0.2))
            await trio.sleep(0.5)
            free[0] = 1  # somebody joined: later beacons say so
            while not heard:
                await trio.sleep(0.1)
            nursery.cancel_scope.cancel()
    (games,) = heard
    assert [(g.game_name, g.host_name, g.address, g.port, g.free_seats) for g in games] == [
        ("Friday", "Alice", "127.0.0.1", 7447, 1)]
    assert book.rejected > 0


def _free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def _pick(monkeypatch: pytest.MonkeyPatch, typed: str, games: list[Announcement]
                ) -> tuple[tuple[str, int] | Exception, str]:
    """What the plain ``kotp2p join`` (no address) does with ``games`` announced on loopback
    and ``typed`` on its input: the address it joins (or the error), and what it printed."""
    monkeypatch.setattr(netgame, "DISCOVER_SECONDS", 0.6)
    listen_on = f"127.0.0.1:{_free_udp_port()}"
    out = io.StringIO()
    result: list[tuple[str, int] | Exception] = []

    async def join() -> None:
        try:
            result.append(await netgame._discover(argparse.Namespace(discover=listen_on),
                                                  PlainNet(out, Lines(io.StringIO(typed)))))
        except CommandError as exc:
            result.append(exc)

    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            for g in games:
                await nursery.start(partial(announce, lambda g=g: g.encode(),
                                            ("127.0.0.1", int(listen_on.split(":")[1])), 0.2))
            await join()
            nursery.cancel_scope.cancel()
    return result[0], out.getvalue()


async def test_the_plain_join_lists_the_games_heard_and_joins_the_number_typed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    games = [Announcement("Friday", "Alice", 7447, 2, 4), Announcement("Late", "Bob", 7448, 1, 3,
                                                                       needs_code=True)]
    joined, printed = await _pick(monkeypatch, "2\n", games)
    assert "  1. Friday hosted by Alice at 127.0.0.1:7447: 2 of 4 seats free" in printed
    assert "  2. Late hosted by Bob at 127.0.0.1:7448: 1 of 3 seats free, join code needed" in printed
    assert "which game? (number)" in printed
    assert joined == ("127.0.0.1", 7448)
    refused, _ = await _pick(monkeypatch, "3\n", games)
    assert isinstance(refused, CommandError) and str(refused) == "expected a number from 1 to 2"
    full = [Announcement("Full", "Cy", 7449, 0, 2)]  # no free seat: not offered
    nothing, _ = await _pick(monkeypatch, "1\n", full)
    assert isinstance(nothing, CommandError) and nothing.refusal is not None
    assert "no game announced nearby; give the host's address" in str(nothing)
