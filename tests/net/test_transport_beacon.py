"""The UDP beacon on loopback only: a host announces to 127.0.0.1, a joiner hears it."""

from __future__ import annotations

from functools import partial

import trio

from kotp2p.net.beacon import Announcement, BeaconBook
from kotp2p.net.transport.beacon import announce, listen


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
