"""One link over trio memory streams, in virtual time: PING liveness and hostile peers."""

from __future__ import annotations

import struct

import trio
import trio.testing

from kotp2p.net.transport import FrameStream, Link, LinkConfig
from kotp2p.net.transport.link import PING, PONG_FRAME
from kotp2p.net.wire import MAX_FRAME, codec


class Peer:
    """The raw other end of a link: reads frames, writes bytes."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream = stream
        self.framed = FrameStream(stream, MAX_FRAME)
        self.received: list[tuple[float, bytes]] = []

    async def read_forever(self) -> None:
        try:
            while True:
                payload = await self.framed.receive()
                self.received.append((trio.current_time(), payload))
        except Exception:
            return


def one_link(config: LinkConfig | None = None) -> tuple[Link, Peer, list[bytes]]:
    ours, theirs = trio.testing.memory_stream_pair()
    got: list[bytes] = []
    return Link(FrameStream(ours, MAX_FRAME), "test peer", got.append, config), Peer(theirs), got


async def test_pings_every_interval_and_closes_a_silent_peer_at_the_deadline(
    autojump_clock: trio.testing.MockClock,
) -> None:
    link, peer, _ = one_link(LinkConfig(ping_interval=5, dead_after=15))
    async with trio.open_nursery() as nursery:
        nursery.start_soon(peer.read_forever)
        start = trio.current_time()
        reason = await link.run()
        end = trio.current_time()
        nursery.cancel_scope.cancel()
    assert reason == "the peer was silent for 15 s"
    assert end - start == 15
    assert [(t - start, p) for t, p in peer.received] == [(5, PING), (10, PING)]


async def test_a_peer_that_answers_pings_keeps_the_link_open(
    autojump_clock: trio.testing.MockClock,
) -> None:
    a_end, b_end = trio.testing.memory_stream_pair()
    got_a: list[bytes] = []
    got_b: list[bytes] = []
    cfg = LinkConfig(ping_interval=5, dead_after=15)
    a = Link(FrameStream(a_end, MAX_FRAME), "b", got_a.append, cfg)
    b = Link(FrameStream(b_end, MAX_FRAME), "a", got_b.append, cfg)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(a.run)
        nursery.start_soon(b.run)
        await trio.sleep(100)
        assert not a.closed and not b.closed
        hello = codec.pack(["game", 1])
        assert a.send(codec.frame(hello))
        await trio.sleep(0.1)
        a.close("test over")
    assert got_b == [hello] and got_a == []
    assert a.reason == "test over"
    assert b.reason == "the peer closed the connection"


async def test_a_ping_is_answered_with_pong(autojump_clock: trio.testing.MockClock) -> None:
    link, peer, got = one_link()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(link.run)
        nursery.start_soon(peer.read_forever)
        await peer.stream.send_all(codec.frame(PING))
        await trio.sleep(1)
        link.close("done")
    assert [p for _, p in peer.received] == [PONG_FRAME[4:]]
    assert got == []


async def run_against(raw: bytes, config: LinkConfig | None = None) -> tuple[str, list[bytes]]:
    link, peer, got = one_link(config)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(peer.read_forever)
        nursery.start_soon(peer.stream.send_all, raw)
        reason = await link.run()
        nursery.cancel_scope.cancel()
    return reason, got


async def test_garbage_closes_the_link(autojump_clock: trio.testing.MockClock) -> None:
    good = codec.pack(["fine"])
    reason, got = await run_against(codec.frame(good) + codec.frame(b"\x00garbage"))
    assert reason == "garbage: a frame that is not a msgpack array"
    assert got == [good]


async def test_an_oversized_frame_closes_the_link_before_its_body_arrives(
    autojump_clock: trio.testing.MockClock,
) -> None:
    reason, got = await run_against(struct.pack(">I", MAX_FRAME + 1))
    assert reason == f"oversized frame: frame announces {MAX_FRAME + 1} bytes, at most {MAX_FRAME} expected"
    assert got == []


async def test_a_flood_closes_the_link(autojump_clock: trio.testing.MockClock) -> None:
    cfg = LinkConfig(frames_per_second=100, frame_burst=200)
    frame = codec.frame(codec.pack(["x"]))
    reason, got = await run_against(frame * 300, cfg)
    assert reason.startswith("flood: more than 100 frames")
    assert len(got) < 300


async def test_a_handshake_on_an_open_link_closes_it(autojump_clock: trio.testing.MockClock) -> None:
    hello = codec.pack(["kotp2p-hello", 1, "engine", b"", b"k" * 32, b"", b"c" * 32])
    reason, got = await run_against(codec.frame(hello))
    assert reason == "replayed handshake on an open link"
    assert got == []


async def test_repeated_bad_frames_reported_by_the_consumer_close_the_link(
    autojump_clock: trio.testing.MockClock,
) -> None:
    link, peer, _ = one_link(LinkConfig(max_strikes=3))
    link.on_frame = lambda payload: link.strike("not an envelope")
    async with trio.open_nursery() as nursery:
        nursery.start_soon(peer.read_forever)
        nursery.start_soon(peer.stream.send_all, codec.frame(codec.pack(["?"])) * 5)
        reason = await link.run()
        nursery.cancel_scope.cancel()
    assert reason == "3 bad frames (the last: not an envelope)"


async def test_a_peer_that_does_not_read_is_dropped(autojump_clock: trio.testing.MockClock) -> None:
    link, _peer, _ = one_link(LinkConfig(queue=4))
    async with trio.open_nursery() as nursery:
        nursery.start_soon(link.run)
        await trio.sleep(0)
        big = codec.frame(codec.pack([b"x" * 100_000]))
        sent = [link.send(big) for _ in range(40)]
        await trio.sleep(1)
    assert sent[0] and not sent[-1]
    assert link.reason == "the peer does not read (4 frames queued)"


async def test_a_lingering_close_lets_a_slow_peer_read_everything_first(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """The end of a game: we stop talking, but keep the connection until the peer (which is
    behind) has read every frame we queued and closes its end."""
    link, peer, _ = one_link(LinkConfig(ping_interval=5, dead_after=60))
    frames = [codec.pack(["move", i]) for i in range(50)]
    async with trio.open_nursery() as nursery:
        nursery.start_soon(link.run)
        for f in frames:
            link.send(codec.frame(f))
        link.close_soon("the game is over", linger=True)
        assert not link.send(codec.frame(codec.pack(["too late"])))
        await trio.sleep(20)  # the peer reads nothing for a while
        assert not link.closed
        await peer.read_forever()  # reads up to our end of stream
        await peer.framed.aclose()
        await trio.sleep(1)
    assert [p for _, p in peer.received] == frames
    assert link.reason == "the game is over"
