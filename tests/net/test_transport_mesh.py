"""The full mesh over trio memory streams, in virtual time: who dials, back-off, hostile peers."""

from __future__ import annotations

import hashlib
import itertools
import logging
import struct

import pytest
import trio
import trio.testing

from kotp2p.net.lobby import AcceptorHandshake, DialerHandshake, HandshakeFailed, Peer
from kotp2p.net.transport import (
    FrameStream,
    Mesh,
    MeshConfig,
    accept_handshake,
    dial_handshake,
)
from kotp2p.net.transport.link import LinkConfig
from kotp2p.net.wire import MAX_FRAME, Identity, Refusal, Why, codec
from kotp2p.ui import plain_refusal
from tests.net.harness import Recorder, Table, make_table
from tests.net.memnet import MemoryNet, address
from tests.net.toy import ToyEngine

ENGINE = ToyEngine()


class Process:
    """One mesh and what it received."""

    def __init__(self, table: Table, seats: list[int], net: MemoryNet,
                 config: MeshConfig | None = None) -> None:
        self.got: list[tuple[int, int, bytes]] = []
        self.news: list[tuple[float, int, int, bool]] = []
        self.mesh = Mesh(
            table.genesis,
            {s: table.identities[s] for s in seats},
            {s: address(s) for s in range(table.genesis.n)},
            lambda a, b, p: self.got.append((a, b, p)),
            engine_id=ENGINE.engine_id,
            on_link=lambda a, b, up: self.news.append((trio.current_time(), a, b, up)),
            connect=net.connect,
            config=config,
        )
        for s in seats:
            net.servers[address(s)] = self.mesh.accept


def msg(*parts: object) -> bytes:
    return codec.pack(list(parts))


async def accept_as(table: Table, seat: int, framed: FrameStream,
                    challenge: bytes = bytes(32)) -> Peer:
    """The acceptor's side of the handshake, passed as ``seat`` of ``table``.

    A test's own server uses it to act as that seat's modified client."""
    hs = AcceptorHandshake([table.identities[seat]], engine_id=ENGINE.engine_id,
                           challenge=challenge, context=table.genesis.game_id,
                           roster=table.genesis.keys)
    return await accept_handshake(framed, hs)


async def test_every_pair_links_once_and_frames_flow_both_ways(
    autojump_clock: trio.testing.MockClock,
) -> None:
    table = make_table(ENGINE, 4)
    async with trio.open_nursery() as nursery:
        net = MemoryNet(nursery)
        procs = [Process(table, [0, 1], net), Process(table, [2], net), Process(table, [3], net)]
        for p in procs:
            await nursery.start(p.mesh.run)
        await trio.sleep(1)
        assert sorted(procs[0].mesh.links) == [(0, 2), (0, 3), (1, 2), (1, 3)]
        assert sorted(procs[1].mesh.links) == [(2, 0), (2, 1), (2, 3)]
        assert sorted(procs[2].mesh.links) == [(3, 0), (3, 1), (3, 2)]
        # the lower seat dials first, and the link is up before the other would: 4 + 1 connections
        assert len(net.attempts) == 5
        assert procs[0].mesh.send(1, 3, codec.frame(msg("from", 1)))
        assert procs[2].mesh.send(3, 0, codec.frame(msg("from", 3)))
        assert not procs[0].mesh.send(0, 1, codec.frame(msg("local seats talk in memory")))
        await trio.sleep(1)
        nursery.cancel_scope.cancel()
    assert procs[2].got == [(3, 1, msg("from", 1))]
    assert procs[0].got == [(0, 3, msg("from", 3))]


async def test_the_dialer_backs_off_then_reconnects_a_dropped_link(
    autojump_clock: trio.testing.MockClock,
) -> None:
    table = make_table(ENGINE, 2)
    async with trio.open_nursery() as nursery:
        net = MemoryNet(nursery)
        low = Process(table, [0], net)
        await nursery.start(low.mesh.run)
        await trio.sleep(3)  # seat 1 is not there yet: attempts at 0, 0.5, 1.5
        high = Process(table, [1], net)
        await nursery.start(high.mesh.run)
        await trio.sleep(10)
        assert [t for t, _ in net.attempts] == [0, 0.5, 1.5, 3.5]
        assert low.news == [(3.5, 0, 1, True)] and high.news == [(3.5, 1, 0, True)]
        await trio.aclose_forcefully(net.accepted[-1])  # the link breaks at 13
        await trio.sleep(10)
        news = list(low.news)
        nursery.cancel_scope.cancel()
    assert [t for t, _ in net.attempts] == [0, 0.5, 1.5, 3.5, 13.5]
    assert news == [(3.5, 0, 1, True), (13, 0, 1, False), (13.5, 0, 1, True)]


async def test_a_silent_link_is_dropped_and_dialed_again(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """Seat 1 stops reading and answering (a frozen process): seat 0 drops the link after
    ``dead_after`` and dials again."""
    table = make_table(ENGINE, 2)
    cfg = MeshConfig(link=LinkConfig(ping_interval=2, dead_after=6))
    async with trio.open_nursery() as nursery:
        net = MemoryNet(nursery)
        frozen: list[trio.abc.Stream] = []

        async def freeze(stream: trio.abc.Stream) -> None:
            await accept_as(table, 1, FrameStream(stream, MAX_FRAME), b"f" * 32)
            frozen.append(stream)
            await trio.sleep_forever()

        net.servers[address(1)] = freeze
        low = Process(table, [0], net, cfg)
        await nursery.start(low.mesh.run)
        await trio.sleep(7)
        news = list(low.news)
        nursery.cancel_scope.cancel()
    assert news == [(0, 0, 1, True), (6, 0, 1, False), (6.5, 0, 1, True)]


async def test_a_hostile_seat_is_disconnected_and_the_other_links_go_on(
    autojump_clock: trio.testing.MockClock, caplog: pytest.LogCaptureFixture,
) -> None:
    """Seat 2 runs a modified client: it passes the handshake, then sends seat 0 garbage; on the
    next connection an oversized frame. Seat 0 closes each link with a logged reason, and its link to
    seat 1 carries frames all along."""
    caplog.set_level(logging.WARNING)
    table = make_table(ENGINE, 3)
    attacks = [codec.frame(b"\xc1 garbage"), struct.pack(">I", MAX_FRAME * 8)]

    async def hostile(stream: trio.abc.Stream) -> None:
        framed = FrameStream(stream, MAX_FRAME)
        peer = await accept_as(table, 2, framed, hashlib.sha256(bytes(len(attacks))).digest())
        if attacks and peer.key == table.genesis.keys[0]:
            await stream.send_all(attacks.pop(0))
        await trio.sleep_forever()

    async with trio.open_nursery() as nursery:
        net = MemoryNet(nursery)
        low, mid = Process(table, [0], net), Process(table, [1], net)
        net.servers[address(2)] = hostile
        await nursery.start(low.mesh.run)
        await nursery.start(mid.mesh.run)
        await trio.sleep(0.5)
        for i in range(4):
            assert low.mesh.send(0, 1, codec.frame(msg("move", i)))
            await trio.sleep(1)
        news = list(low.news)
        assert low.mesh.is_up(0, 1)
        nursery.cancel_scope.cancel()
    assert mid.got == [(1, 0, msg("move", i)) for i in range(4)]
    assert [(a, b, up) for _, a, b, up in news if b == 2] == [
        (0, 2, True), (0, 2, False), (0, 2, True), (0, 2, False), (0, 2, True)]
    closed = [r.getMessage() for r in caplog.records if "closed" in r.getMessage()]
    assert any("garbage: a frame that is not a msgpack array" in m for m in closed)
    assert any(f"oversized frame: frame announces {MAX_FRAME * 8} bytes" in m for m in closed)


async def test_a_stranger_and_a_replayed_handshake_are_refused(
    autojump_clock: trio.testing.MockClock, caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING)
    table = make_table(ENGINE, 2)
    stranger = Identity.from_seed(b"s" * 32, "Mallory")
    async with trio.open_nursery() as nursery:
        net = MemoryNet(nursery)
        high = Process(table, [1], net)
        await nursery.start(high.mesh.run)

        async def try_as(ident: Identity, challenge: bytes) -> str | None:
            stream = await net.connect(address(1))
            hs = DialerHandshake(ident, engine_id=ENGINE.engine_id, challenge=challenge,
                                 context=table.genesis.game_id, to_key=table.genesis.keys[1])
            try:
                await dial_handshake(FrameStream(stream, MAX_FRAME), hs)
            except HandshakeFailed as exc:
                return exc.reason
            return None

        stranger_says = await try_as(stranger, b"1" * 32)
        assert await try_as(table.identities[0], b"2" * 32) is None  # the real seat 0
        replay_says = await try_as(table.identities[0], b"2" * 32)
        await trio.sleep(1)
        assert high.mesh.is_up(1, 0)
        nursery.cancel_scope.cancel()
    assert stranger_says is not None and "is not a seat of this game" in stranger_says
    assert replay_says is not None and "replayed handshake" in replay_says
    refused = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert len(refused) == 2


async def test_the_session_sees_one_link_per_remote_seat(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """A process playing seats 0 and 1 has two mesh links to seat 2; its session sees seat 2 up
    once, gets seat 2's frames once, and its frames to seat 2 leave once."""
    from kotp2p.net.transport import FrameIn, LinkDown, LinkUp, MeshLinks

    table = make_table(ENGINE, 3)
    seen: list[object] = []
    async with trio.open_nursery() as nursery:
        net = MemoryNet(nursery)
        high = Process(table, [2], net)
        links = MeshLinks(table.genesis, {0: table.identities[0], 1: table.identities[1]},
                          {2: address(2)}, engine_id=ENGINE.engine_id, connect=net.connect)

        async def watch() -> None:
            async for event in links.events():
                seen.append(event)

        nursery.start_soon(watch)
        await nursery.start(high.mesh.run)
        await nursery.start(links.run)
        await trio.sleep(1)
        assert high.mesh.send(2, 1, codec.frame(msg("from", 2)))
        await links.send(2, codec.frame(msg("to", 2)))
        await trio.sleep(1)
        for link in list(links.mesh.links.values()):
            await trio.aclose_forcefully(link.framed.stream)
        await trio.sleep(0.1)
        nursery.cancel_scope.cancel()
    assert seen[:2] == [LinkUp(2), FrameIn(2, msg("from", 2))]
    assert LinkDown(2) in seen[2:]
    assert high.got == [(2, 0, msg("to", 2))]


async def test_the_host_leaving_after_the_genesis_leaves_the_other_links_up(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """Seat 0 (the host) vanishes once the mesh is up: seats 1 and 2 keep their own link, which
    never went through the host. They dial seat 0 once its link has been down for the grace
    period, then less and less often: a dozen attempts in half a minute, not hundreds."""
    table = make_table(ENGINE, 3)
    async with trio.open_nursery() as nursery:
        net = MemoryNet(nursery)
        procs = [Process(table, [i], net) for i in range(3)]
        with trio.CancelScope() as host_scope:
            async with trio.open_nursery() as host_nursery:
                await host_nursery.start(procs[0].mesh.run)
                for p in procs[1:]:
                    await nursery.start(p.mesh.run)
                await trio.sleep(1)
                assert procs[2].mesh.is_up(2, 0) and procs[2].mesh.is_up(2, 1)
                del net.servers[address(0)]
                for link in list(procs[0].mesh.links.values()):
                    link.close("the host's process is gone")
                host_scope.cancel()
        await trio.sleep(30)
        assert procs[1].mesh.is_up(1, 2) and not procs[1].mesh.is_up(1, 0)
        assert procs[1].mesh.send(1, 2, codec.frame(msg("still", "here")))
        await trio.sleep(1)
        redials = [t for t, a in net.attempts if a == address(0)]
        nursery.cancel_scope.cancel()
    assert procs[2].got[-1] == (2, 1, msg("still", "here"))
    assert min(redials) == 1 + MeshConfig().grace
    assert len(redials) <= 2 * 7  # at 3, 3.5, 4.5, 6.5, 10.5, 18.5 and 28.5 from each seat


async def test_a_peer_sending_frames_the_session_refuses_loses_its_link(
    autojump_clock: trio.testing.MockClock, caplog: pytest.LogCaptureFixture,
) -> None:
    """Seat 1 passes the handshake, then sends well-formed msgpack arrays that are no envelope
    (the link lets them through, the session refuses each): after ``max_strikes`` of them seat
    0's link to it closes with the last reason, and the session was told each refusal."""
    from kotp2p.net.session import FrameRefused
    from kotp2p.net.transport import MeshLinks, run_session
    from tests.session.kit import ENGINE as RULES
    from tests.session.kit import session, table

    caplog.set_level(logging.WARNING)
    t = table(2)
    junk = [codec.frame(msg("junk", i)) for i in range(LinkConfig().max_strikes + 2)]
    sent: list[int] = []  # frames each connection carried before it broke

    async def hostile(stream: trio.abc.Stream) -> None:
        framed = FrameStream(stream, MAX_FRAME)
        hs = AcceptorHandshake([t.identities[1]], engine_id=RULES.engine_id,
                               challenge=hashlib.sha256(bytes([len(sent)])).digest(),
                               context=t.genesis.game_id, roster=t.genesis.keys)
        await accept_handshake(framed, hs)
        sent.append(0)
        for frame in junk:
            try:
                await stream.send_all(frame)
            except trio.BrokenResourceError:
                return
            sent[-1] += 1
            await trio.sleep(0.1)
        await trio.sleep_forever()

    s = session(t, [0])
    watch = Recorder()
    async with trio.open_nursery() as nursery:
        net = MemoryNet(nursery)
        net.servers[address(1)] = hostile
        links = MeshLinks(t.genesis, {0: t.identities[0]}, {1: address(1)},
                          engine_id=RULES.engine_id, connect=net.connect)
        await nursery.start(links.run)
        with trio.move_on_after(5):
            await run_session(s, links=links, view=watch)  # type: ignore[arg-type]
        nursery.cancel_scope.cancel()
    refused = [u for u in watch.seen if isinstance(u, FrameRefused)]
    assert len(refused) >= LinkConfig().max_strikes
    assert all(u.sender == 1 for u in refused)
    closed = [r.getMessage() for r in caplog.records if "closed" in r.getMessage()]
    assert any(f"{LinkConfig().max_strikes} bad frames (the last: " in m for m in closed), closed
    assert sent[0] == LinkConfig().max_strikes  # cut at once, before the peer was done


async def test_connections_refused_in_a_game_carry_codes_both_screens_say_in_plain_words(
    autojump_clock: trio.testing.MockClock, caplog: pytest.LogCaptureFixture,
) -> None:
    """A stranger, a seat of another game and a seat asking for a seat this process does not
    play are refused with a code: the refused side reads the same kind of sentence as a refused
    joiner in the lobby, and the refusing side's screen says who was refused and why."""
    caplog.set_level(logging.WARNING)
    table, other = make_table(ENGINE, 2), make_table(ENGINE, 2, seed=1)
    stranger = Identity.from_seed(b"s" * 32, "Mallory")
    async with trio.open_nursery() as nursery:
        net = MemoryNet(nursery)
        high = Process(table, [1], net)
        await nursery.start(high.mesh.run)

        async def try_as(ident: Identity, game: bytes, to_key: bytes, n: int) -> Refusal:
            stream = await net.connect(address(1))
            hs = DialerHandshake(ident, engine_id=ENGINE.engine_id, challenge=bytes([n]) * 32,
                                 context=game, to_key=to_key)
            with pytest.raises(HandshakeFailed) as exc:
                await dial_handshake(FrameStream(stream, MAX_FRAME), hs)
            return exc.value.refusal

        game, keys = table.genesis.game_id, table.genesis.keys
        refused = [await try_as(stranger, game, keys[1], 1),
                   await try_as(other.identities[0], other.genesis.game_id, keys[1], 2),
                   await try_as(table.identities[0], game, stranger.public_key, 3)]
        await trio.sleep(1)
        nursery.cancel_scope.cancel()
    assert [(r.why, r.by_peer) for r in refused] == [
        (Why.NOT_A_PLAYER, True), (Why.OTHER_GAME, True), (Why.WRONG_SEAT, True)]
    assert [plain_refusal(r) for r in refused] == [
        "The other side refused the connection: your key is not one of the players of its "
        "game. Play as the user who joined this game (kotp2p identity shows your key).",
        "The other side refused the connection: it is in another game. Check the address and "
        "port, and that every player plays (or resumes) this same game.",
        "The other side refused the connection: it does not play the seat you called (another "
        "program answers at that address now). Check that every player resumed the game where "
        "they played it.",
    ]
    logged = [getattr(r, "refusal", None) for r in caplog.records]
    assert all(isinstance(r, Refusal) and r.why is Why.LINK_REFUSED for r in logged)
    said = [plain_refusal(r) for r in logged if isinstance(r, Refusal)]
    assert said == [
        "A connection to this game from an unknown address was refused: their key is not one "
        "of this game's players.",
        "A connection to this game from an unknown address was refused: they are in another "
        "game.",
        "A connection to this game from an unknown address was refused: they asked for a seat "
        "this program does not play.",
    ]


async def test_a_seat_refused_by_the_peer_it_dials_is_told_once_by_its_code(
    autojump_clock: trio.testing.MockClock, caplog: pytest.LogCaptureFixture,
) -> None:
    """Seat 0 of another game dials the address of this game's seat 1 again and again: its
    screen is told once, by the refusal's code, however often it tries."""
    caplog.set_level(logging.WARNING)
    table, other = make_table(ENGINE, 2), make_table(ENGINE, 2, seed=1)
    async with trio.open_nursery() as nursery:
        net = MemoryNet(nursery)
        high = Process(table, [1], net)
        await nursery.start(high.mesh.run)
        stray = Process(other, [0], net)
        await nursery.start(stray.mesh.run)
        await trio.sleep(30)
        nursery.cancel_scope.cancel()
    assert len(net.attempts) >= 4
    dialer = [r for r in caplog.records if r.name.endswith(".mesh") and "seat 0 could not" in
              r.getMessage()]
    (told,) = dialer
    refusal = getattr(told, "refusal", None)
    assert isinstance(refusal, Refusal) and refusal.why is Why.OTHER_GAME and refusal.by_peer
    assert plain_refusal(refusal).startswith("The other side refused the connection: it is in "
                                             "another game.")
    acceptor = [r for r in caplog.records if "refused an incoming" in r.getMessage()]
    # The same refusal again is no news on the refusing screen. Seat 1 dials the stray seat too,
    # so each of the two screens tells it once.
    assert len(acceptor) == 2


async def test_a_second_copy_of_a_seat_is_refused_and_the_screen_says_the_game_runs_twice(
    autojump_clock: trio.testing.MockClock, caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING)
    table = make_table(ENGINE, 2)
    async with trio.open_nursery() as nursery:
        net = MemoryNet(nursery)
        both = Process(table, [0, 1], net)  # this process plays both seats
        await nursery.start(both.mesh.run)
        copy = Process(table, [0], net)  # a copy of seat 0 elsewhere dials seat 1
        await nursery.start(copy.mesh.run)
        await trio.sleep(5)
        nursery.cancel_scope.cancel()
    (told,) = [getattr(r, "refusal", None) for r in caplog.records
               if "refused an incoming" in r.getMessage()]
    assert isinstance(told, Refusal) and told.why is Why.LINK_REFUSED
    assert plain_refusal(told) == ("A connection claimed seat 0, which this program plays: is "
                                   "this game running twice (resumed in two places)? Stop the "
                                   "other copy.")


async def test_a_seat_redialing_with_garbage_is_turned_away_for_longer_each_time(
    autojump_clock: trio.testing.MockClock, caplog: pytest.LogCaptureFixture,
) -> None:
    """Seat 0 runs a modified client that dials seat 1 again as soon as each link is cut off,
    passes the handshake with its real key and sends garbage. Seat 1 closes each link for the
    garbage, then turns seat 0's connections away for longer and longer (its own dialer's
    back-off): a minute of this gives a handful of links and warnings, not hundreds; its link
    to seat 2 carries frames all along."""
    caplog.set_level(logging.WARNING)
    table = make_table(ENGINE, 3)
    async with trio.open_nursery() as nursery:
        net = MemoryNet(nursery)
        mid, high = Process(table, [1], net), Process(table, [2], net)
        await nursery.start(mid.mesh.run)
        await nursery.start(high.mesh.run)

        async def hostile() -> None:
            n = 0
            while True:
                n += 1
                stream = await net.connect(address(1))
                hs = DialerHandshake(table.identities[0], engine_id=ENGINE.engine_id,
                                     challenge=hashlib.sha256(n.to_bytes(4, "big")).digest(),
                                     context=table.genesis.game_id, to_key=table.genesis.keys[1])
                try:
                    await dial_handshake(FrameStream(stream, MAX_FRAME), hs)
                    await stream.send_all(codec.frame(b"\xc1 garbage"))
                    await stream.receive_some()  # until seat 1 closes it
                except (HandshakeFailed, trio.BrokenResourceError, trio.ClosedResourceError):
                    pass
                await trio.sleep(0.1)

        nursery.start_soon(hostile)
        for i in range(60):
            await trio.sleep(1)
            assert mid.mesh.send(1, 2, codec.frame(msg("move", i)))
        await trio.sleep(0.5)
        nursery.cancel_scope.cancel()
    assert high.got == [(2, 1, msg("move", i)) for i in range(60)]
    ups = [t for t, a, b, up in mid.news if b == 0 and up]
    cut = [r.getMessage() for r in caplog.records if "garbage" in r.getMessage()]
    assert 3 <= len(ups) <= 12 and len(cut) == len(ups)


async def test_a_dialer_turned_away_right_after_the_handshake_waits_longer_each_time(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """Seat 1 turns seat 0 away as soon as each handshake is done (as a mesh does with a seat it
    cut off for a fault, for a while): seat 0 dials again after 0.5, 1, 2, 4... seconds, not
    twice a second, so its screen does not show the link coming and going all that time."""
    table = make_table(ENGINE, 2)

    async def turn_away(stream: trio.abc.Stream) -> None:
        framed = FrameStream(stream, MAX_FRAME)
        await accept_as(table, 1, framed,
                        hashlib.sha256(str(trio.current_time()).encode()).digest())
        await framed.aclose()

    async with trio.open_nursery() as nursery:
        net = MemoryNet(nursery)
        low = Process(table, [0], net)
        net.servers[address(1)] = turn_away
        await nursery.start(low.mesh.run)
        await trio.sleep(40)
        nursery.cancel_scope.cancel()
    times = [t for t, a in net.attempts if a == address(1)]
    gaps = [round(b - a, 3) for a, b in itertools.pairwise(times)]
    assert gaps[:6] == [0.5, 1.0, 2.0, 4.0, 8.0, 10.0]


async def test_a_user_leaving_the_end_cuts_the_wait_for_a_peer_that_never_closes(
    autojump_clock: trio.testing.MockClock,
) -> None:
    table = make_table(ENGINE, 2)

    async def stalled_peer(stream: trio.abc.Stream) -> None:
        # Seat 1 passes the handshake, then neither reads nor closes: its machine froze.
        await accept_as(table, 1, FrameStream(stream, 1024))
        await trio.sleep_forever()

    async with trio.open_nursery() as nursery:
        net = MemoryNet(nursery)
        done = Process(table, [0], net)
        net.servers[address(1)] = stalled_peer
        await nursery.start(done.mesh.run)
        await trio.sleep(1)
        assert done.mesh.is_up(0, 1)
        start = trio.current_time()

        async def leave_after(seconds: float) -> None:
            await trio.sleep(seconds)
            done.mesh.hurry(2.0)  # q on the end screen

        nursery.start_soon(leave_after, 5.0)
        await done.mesh.finish(30.0)
        assert trio.current_time() - start == pytest.approx(7.0, abs=0.2)
        early = Process(table, [0], net)
        early.mesh.hurry(2.0)  # the user left before the end was sent
        start = trio.current_time()
        await early.mesh.finish(30.0)
        assert trio.current_time() - start <= 2.0
        nursery.cancel_scope.cancel()


async def test_a_seat_whose_listener_is_blocked_is_reached_by_dialing_out(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """Nothing answers on seat 1's address, as when a stranger floods its listener: seat 0
    cannot dial it, so seat 1 dials seat 0 once their link has been down for the grace period,
    and frames flow both ways on that link."""
    table = make_table(ENGINE, 2)
    async with trio.open_nursery() as nursery:
        net = MemoryNet(nursery)
        low, high = Process(table, [0], net), Process(table, [1], net)
        del net.servers[address(1)]
        await nursery.start(low.mesh.run)
        await nursery.start(high.mesh.run)
        await trio.sleep(MeshConfig().grace + 1)
        assert low.mesh.send(0, 1, codec.frame(msg("to", 1)))
        assert high.mesh.send(1, 0, codec.frame(msg("to", 0)))
        await trio.sleep(1)
        news = list(low.news)
        nursery.cancel_scope.cancel()
    assert news == [(MeshConfig().grace, 0, 1, True)]
    assert high.got == [(1, 0, msg("to", 1))] and low.got == [(0, 1, msg("to", 0))]


async def test_when_both_seats_dial_at_once_both_keep_the_first_dialers_link(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """A resumed seat 1 dials seat 0 at once while seat 0 dials it too: two links open, both
    ends keep the one seat 0 dialed, and it stays up. No flapping."""
    table = make_table(ENGINE, 2)
    async with trio.open_nursery() as nursery:
        net = MemoryNet(nursery)
        low = Process(table, [0], net)
        high = Process(table, [1], net)
        high.mesh.resumed = True
        await nursery.start(low.mesh.run)
        await nursery.start(high.mesh.run)
        await trio.sleep(30)
        assert low.mesh.is_up(0, 1) and high.mesh.is_up(1, 0)
        kept = (low.mesh.links[(0, 1)], high.mesh.links[(1, 0)])
        assert low.mesh.send(0, 1, codec.frame(msg("to", 1)))
        await trio.sleep(1)
        news = [[up for *_, up in p.news] for p in (low, high)]
        nursery.cancel_scope.cancel()
    assert sorted(a for _, a in net.attempts) == [address(0), address(1)]
    assert news[0] == [True] and news[1] in ([True], [True, False, True])
    assert all("replaced" not in (link.reason or "") for link in kept)
    assert high.got == [(1, 0, msg("to", 1))]


async def test_a_resumed_seat_dials_every_peer_at_once(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """Seat 2 restarts while seats 0 and 1 back off after failed attempts: it dials both at
    once instead of waiting for them, and their links come up at once."""
    table = make_table(ENGINE, 3)
    async with trio.open_nursery() as nursery:
        net = MemoryNet(nursery)
        low, mid = Process(table, [0], net), Process(table, [1], net)
        await nursery.start(low.mesh.run)
        await nursery.start(mid.mesh.run)
        await trio.sleep(7.2)  # attempts to seat 2 at 0, 0.5, 1.5, 3.5; the next at 7.5
        resumed = Process(table, [2], net)
        resumed.mesh.resumed = True
        start = trio.current_time()
        await nursery.start(resumed.mesh.run)
        await trio.sleep(0.1)
        ups = [(b, t - start) for t, _, b, up in resumed.news if up]
        nursery.cancel_scope.cancel()
    assert sorted(ups) == [(0, 0.0), (1, 0.0)]
