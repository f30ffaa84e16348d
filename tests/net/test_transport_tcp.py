"""The mesh over real TCP on 127.0.0.1 (the only real-socket tests of the links)."""

from __future__ import annotations

import logging
from functools import partial

import pytest
import trio

from kotp2p.net.transport import Mesh, serve_tcp
from kotp2p.net.wire import codec
from tests.net.harness import make_table
from tests.net.toy import ToyEngine

ENGINE = ToyEngine()


async def test_two_seats_exchange_frames_over_tcp_on_loopback() -> None:
    table = make_table(ENGINE, 2)
    got: list[tuple[int, int, bytes]] = []
    up: list[tuple[int, int, bool]] = []
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            high = Mesh(table.genesis, {1: table.identities[1]}, {}, lambda *a: got.append(a),
                        engine_id=ENGINE.engine_id)
            port = await nursery.start(partial(serve_tcp, high.accept, 0, "127.0.0.1"))
            assert port != 0
            low = Mesh(table.genesis, {0: table.identities[0]}, {1: ("127.0.0.1", port)},
                       lambda *a: got.append(a), engine_id=ENGINE.engine_id,
                       on_link=lambda *a: up.append(a))
            await nursery.start(low.run)
            while not up:
                await trio.sleep(0.01)
            assert low.send(0, 1, codec.frame(codec.pack(["over", "tcp"])))
            while not got:
                await trio.sleep(0.01)
            nursery.cancel_scope.cancel()
    assert up[0] == (0, 1, True)
    assert got == [(1, 0, codec.pack(["over", "tcp"]))]


async def test_a_taken_port_gives_a_free_one_and_says_which(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)

    async def nothing(stream: trio.SocketStream) -> None:
        await stream.aclose()

    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            taken = await nursery.start(partial(serve_tcp, nothing, 0, "127.0.0.1"))
            other = await nursery.start(partial(serve_tcp, nothing, taken, "127.0.0.1"))
            nursery.cancel_scope.cancel()
    assert other not in (0, taken)
    assert f"port {taken} is taken" in caplog.text
