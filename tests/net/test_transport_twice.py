"""A second live connection for one seat: refused while the first answers, taken when it is dead."""

from __future__ import annotations

import logging

import pytest
import trio
import trio.testing

from kotp2p.net.lobby import DialerHandshake
from kotp2p.net.transport import FrameStream, dial_handshake
from kotp2p.net.wire import MAX_FRAME, Refusal, Why
from kotp2p.ui import plain_refusal
from tests.net.harness import make_table
from tests.net.memnet import MemoryNet, address
from tests.net.test_transport_mesh import ENGINE, Process


async def test_a_copy_of_a_seat_dialing_while_the_seat_answers_is_refused_and_told(
    autojump_clock: trio.testing.MockClock, caplog: pytest.LogCaptureFixture,
) -> None:
    """Seat 0 plays in one process; a copy of it in another dials seat 1. Seat 1 pings its link
    to the first, which answers: the copy is refused with its code, the first link stays."""
    caplog.set_level(logging.WARNING)
    table = make_table(ENGINE, 2)
    told: list[tuple[int, int, Refusal]] = []
    async with trio.open_nursery() as nursery:
        net = MemoryNet(nursery)
        first, high = Process(table, [0], net), Process(table, [1], net)
        await nursery.start(first.mesh.run)
        await nursery.start(high.mesh.run)
        await trio.sleep(1)
        kept = high.mesh.links[(1, 0)]
        copy = Process(table, [0], net)
        copy.mesh.on_twice = lambda a, b, r: told.append((a, b, r))
        await nursery.start(copy.mesh.run)
        await trio.sleep(5)
        links = dict(high.mesh.links)
        up = first.mesh.is_up(0, 1) and not copy.mesh.is_up(0, 1)
        nursery.cancel_scope.cancel()
    assert links[(1, 0)] is kept and up
    ((local, remote, refusal),) = told[:1]
    assert (local, remote) == (0, 1) and refusal.why is Why.SEAT_RUNNING_TWICE and refusal.by_peer
    assert "already connected to seat 1 and answering" in refusal.text
    assert plain_refusal(refusal).startswith("The other side refused the connection: your seat is "
                                             "already connected there and answering.")
    said = [r for r in caplog.records if "refused a second connection" in r.getMessage()]
    assert len(said) == 1  # the copy dials again and again; the screen is told once


async def test_a_dead_link_is_replaced_by_a_new_connection_for_its_seat(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """Seat 0's first process froze after the handshake (it answers nothing); its restart dials
    seat 1, which pings the old link, gets no answer, and takes the new one at once."""
    table = make_table(ENGINE, 2)
    told: list[object] = []
    async with trio.open_nursery() as nursery:
        net = MemoryNet(nursery)
        high = Process(table, [1], net)
        await nursery.start(high.mesh.run)
        stream = await net.connect(address(1))
        hs = DialerHandshake(table.identities[0], engine_id=ENGINE.engine_id,
                             challenge=b"z" * 32, context=table.genesis.game_id,
                             to_key=table.genesis.keys[1], roster=table.genesis.keys)
        await dial_handshake(FrameStream(stream, MAX_FRAME), hs)  # then it freezes
        await trio.sleep(0.5)
        frozen = high.mesh.links[(1, 0)]
        restarted = Process(table, [0], net)
        restarted.mesh.on_twice = lambda a, b, r: told.append(r)
        started = trio.current_time()
        await nursery.start(restarted.mesh.run)
        while high.mesh.links.get((1, 0)) is frozen or not high.mesh.is_up(1, 0):
            await trio.sleep(0.1)
        took = trio.current_time() - started
        await trio.sleep(1)
        links = dict(high.mesh.links)
        up = restarted.mesh.is_up(0, 1) and high.mesh.is_up(1, 0)
        nursery.cancel_scope.cancel()
    assert links[(1, 0)] is not frozen and frozen.closed and not told
    assert up
    assert took <= restarted.mesh.config.answer_within + 1
