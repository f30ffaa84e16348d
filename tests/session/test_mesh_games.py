"""Whole games over the real transport: sessions run by :func:`run_session` over
:class:`MeshLinks` (mesh, handshakes, links with their readers, writers, pings and limits),
connected by trio memory streams, on trio's virtual clock. What a network does to a game: a
link dropped mid-roll, the host's process gone after the genesis, a player who stops answering,
a peer flooding garbage and oversized frames. Each time the game ends, every remaining log is
byte-identical to the others and verifies VALID."""

from __future__ import annotations

import contextlib
import hashlib
import logging
import struct
from collections.abc import AsyncIterator

import pytest
import trio
import trio.testing

from kotp2p.net.files import parse_log
from kotp2p.net.files.sinks import MemorySink
from kotp2p.net.lobby import AcceptorHandshake
from kotp2p.net.session import Session, Timeouts, Update, Waiting
from kotp2p.net.transport import FrameStream, MeshConfig, MeshLinks, accept_handshake, run_session
from kotp2p.net.verify.verify import Verdict, verify_logs
from kotp2p.net.wire import MAX_FRAME, Kind, RemoteProtocolError, codec, peek_author, split_frame
from tests.net.harness import Table
from tests.net.memnet import MemoryNet, address
from tests.session.kit import ENGINE, session, table

TIMEOUTS = Timeouts(soft=5.0, hard=30.0)


class Peer:
    """One player's process: a session for its seat and the mesh links it plays over (its log
    and journal in ``files`` when it restarts after a crash: what was on disk)."""

    def __init__(self, t: Table, seat: int, net: MemoryNet, *, human: bool = False,
                 files: tuple[MemorySink, MemorySink] | None = None) -> None:
        self.seat = seat
        self.restore: tuple[list[bytes], list[bytes]] | None = None
        if files is None:  # new files, each opening with the genesis (as on disk)
            files = (MemorySink(), MemorySink())
            for sink in files:
                sink.append([t.genesis.frame()])
        else:
            self.restore = (list(parse_log(bytes(files[0].data)).payloads),
                            list(parse_log(bytes(files[1].data)).payloads))
        log, journal = files
        self.session: Session = session(t, [seat], humans=[seat] if human else [],
                                        timeouts=TIMEOUTS, bot_delay=1.0, seed=seat, log=log,
                                        journal=journal)
        self.links = MeshLinks(t.genesis, {seat: t.identities[seat]},
                               {s: address(s) for s in range(t.genesis.n) if s != seat},
                               engine_id=ENGINE.engine_id, connect=net.connect)
        net.servers[address(seat)] = self.links.mesh.accept
        self.scope = trio.CancelScope()
        self.finished: bool | None = None
        self.seen: list[Update] = []

    def show(self, updates: list[Update]) -> None:
        self.seen += updates

    def on_line(self, line: str, now: float) -> bool:
        return True

    def on_end_of_input(self, now: float) -> bool:
        return True

    async def play(self) -> None:
        """Run the game to its end, then let the others read the last frames (as
        ``kotp2p host``/``join`` do); cancelling :attr:`scope` is the process dying."""
        with self.scope:
            async with trio.open_nursery() as nursery:
                await nursery.start(self.links.run)
                self.finished = await run_session(self.session, links=self.links, view=self,
                                                  restore=self.restore)
                await self.links.finish(5.0)
                nursery.cancel_scope.cancel()

    def crash(self, net: MemoryNet) -> None:
        """The process is gone: its tasks stop, its port is closed, its connections break."""
        del net.servers[address(self.seat)]
        for link in list(self.links.mesh.links.values()):
            link.close("the process is gone", fault=False)
        self.scope.cancel()

    @property
    def files(self) -> tuple[MemorySink, MemorySink]:
        """The log and the journal (what survives the process)."""
        log, journal = self.session.log, self.session.journal
        assert isinstance(log, MemorySink) and isinstance(journal, MemorySink)
        return log, journal

    @property
    def log(self) -> bytes:
        return bytes(self.files[0].data)


def _same_valid_logs(peers: list[Peer]) -> Verdict:
    """The logs of ``peers`` are byte-identical and verify VALID, alone and together."""
    logs = [p.log for p in peers]
    assert all(log == logs[0] for log in logs)
    verdict = verify_logs([parse_log(logs[0])], ENGINE)
    assert verdict.status == "VALID", verdict
    return verdict


def _kinds(peer: Peer) -> list[Kind]:
    return [env.kind for env in peer.session.protocol.replica.by_id.values()]


def _ejected(peer: Peer) -> list[int]:
    return [e.seat for e in peer.session.protocol.replica.entries if e.kind == "eject"]


def _roll_trigger(frame: bytes, author: int, t: Table) -> bool:
    """``frame`` is a MOVE of ``author`` carrying its value for a random event (a roll)."""
    try:
        body, _ = split_frame(frame[4:])
    except RemoteProtocolError:  # a sync request
        return False
    if peek_author(body, t.genesis.game_id, t.genesis.n) != author:
        return False
    fields = codec.unpack(body)
    assert isinstance(fields, list)
    return bool(fields[7] == Kind.MOVE and fields[9])


@contextlib.asynccontextmanager
async def _game(t: Table, seats: int | None = None, *, human: int | None = None
                ) -> AsyncIterator[tuple[MemoryNet, list[Peer], trio.Nursery]]:
    """One process per seat (the first ``seats`` of ``t``; ``human`` never decides) on a
    memory network, playing in the nursery given; the block's first lines run before any
    of them does. Leaving the block waits for every process to end."""
    async with trio.open_nursery() as nursery:
        net = MemoryNet(nursery)
        peers = [Peer(t, i, net, human=i == human) for i in range(seats or t.genesis.n)]
        async with trio.open_nursery() as game:
            for p in peers:
                game.start_soon(p.play)
            yield net, peers, game
        nursery.cancel_scope.cancel()


async def _crash_mid_game(net: MemoryNet, peer: Peer) -> Peer:
    """Twenty decisions or so into the game, ``peer``'s process dies; the others go on."""
    await trio.sleep(20.0)
    assert peer.session.protocol.replica.step > 5 and not peer.session.is_over
    peer.crash(net)
    return peer


async def test_four_processes_play_a_whole_game_over_the_mesh_on_memory_streams(
        autojump_clock: trio.testing.MockClock) -> None:
    t = table(4, seed=21)
    async with _game(t, 4) as (net, peers, _):
        pass  # every process plays to the end
    assert [p.finished for p in peers] == [True] * 4
    verdict = _same_valid_logs(peers)
    assert verdict.winners == peers[0].session.result.winners  # type: ignore[union-attr]
    # one connection per pair, dialed by the lower seat: nobody had to dial again
    assert sorted(a for _, a in net.attempts) == [address(b) for b in (1, 2, 2, 3, 3, 3)]


async def test_a_link_dropped_mid_roll_is_dialed_again_and_the_game_finishes(
        autojump_clock: trio.testing.MockClock, caplog: pytest.LogCaptureFixture) -> None:
    """Seat 0's link to seat 1 breaks just as seat 0's MOVE asking for a roll leaves: seat 1
    never gets that frame on it. Seat 0 dials again after its back-off; the roll completes and
    the game ends with the same log everywhere."""
    caplog.set_level(logging.INFO)
    t = table(3, seed=22)
    drops: list[float] = []
    rolls = 0
    async with _game(t, 3) as (net, peers, _):

        def on_send(seat: int, frame: bytes) -> None:
            nonlocal rolls
            if seat != 1 or not _roll_trigger(frame, 0, t):
                return
            rolls += 1
            if rolls in (3, 6):  # two drops, each as a roll is asked for
                drops.append(trio.current_time())
                peers[0].links.mesh.links[(0, 1)].close("the cable is pulled", fault=False)

        peers[0].links.on_send = on_send
    assert len(drops) == 2
    assert [p.finished for p in peers] == [True] * 3
    _same_valid_logs(peers)
    redials = [when for when, a in net.attempts if a == address(1)]
    assert len(redials) == 3 and all(any(d < r < d + 5 for d in drops) for r in redials[1:])
    closed = [r.getMessage() for r in caplog.records if "closed: the cable is pulled" in
              r.getMessage()]
    assert len(closed) == 2


async def test_a_crashed_process_restarts_from_its_files_and_rejoins_the_mesh(
        autojump_clock: trio.testing.MockClock) -> None:
    """Seat 1's process dies (its tasks cancelled, its port closed) twenty decisions in; ten
    seconds later it restarts from its log and journal, listens and dials again, catches up and
    plays on: nobody was ejected and the game ends with the same log everywhere."""
    t = table(3, seed=26)
    async with _game(t, 3) as (net, peers, game):
        crashed = await _crash_mid_game(net, peers[1])
        await trio.sleep(10.0)
        assert not peers[0].session.is_over  # the others wait for seat 1
        peers[1] = Peer(t, 1, net, files=crashed.files)
        game.start_soon(peers[1].play)
    assert crashed.finished is None and [p.finished for p in peers] == [True] * 3
    _same_valid_logs(peers)
    assert all(_ejected(p) == [] for p in peers)


async def test_the_host_leaving_after_the_genesis_changes_nothing_for_the_others(
        autojump_clock: trio.testing.MockClock) -> None:
    """Seat 0 hosted the lobby; its process dies twenty decisions into the game and never comes
    back. The others wait (and say whom for), eject it together at the hard deadline and finish
    the game among themselves."""
    t = table(4, seed=23)
    async with _game(t, 4) as (net, peers, _):
        await _crash_mid_game(net, peers[0])
    rest = peers[1:]
    assert peers[0].finished is None and [p.finished for p in rest] == [True] * 3
    verdict = _same_valid_logs(rest)
    assert all(_ejected(p) == [0] for p in rest)
    assert 0 not in verdict.winners
    assert all(any(isinstance(u, Waiting) and 0 in u.seats for u in p.seen) for p in rest)


async def test_a_player_who_stops_answering_is_stalled_then_ejected_by_all_the_others(
        autojump_clock: trio.testing.MockClock) -> None:
    """Seat 2 is a person who never decides, with a working connection: at the soft deadline
    the others sign a STALL naming it, at the hard one every other seat votes and the EJECT is
    applied by every process, seat 2's own included; the game goes on and ends."""
    t = table(3, seed=24)
    async with _game(t, 3, human=2) as (_, peers, _):
        pass  # seat 2 never decides; the others play to the end
    assert [p.finished for p in peers] == [True] * 3
    verdict = _same_valid_logs(peers)
    assert all(_ejected(p) == [2] for p in peers)
    assert 2 not in verdict.winners
    kinds = _kinds(peers[0])
    assert Kind.STALL in kinds and kinds.count(Kind.EJECT) == 2  # one vote from each other seat
    assert any(isinstance(u, Waiting) and u.seats == (2,) for u in peers[0].seen)


async def test_a_peer_flooding_garbage_and_oversized_frames_is_cut_off_and_the_game_goes_on(
        autojump_clock: trio.testing.MockClock, caplog: pytest.LogCaptureFixture) -> None:
    """Seat 3's process is a modified client: it passes every handshake with its real key,
    then sends garbage, an oversized frame, or a flood of frames. Each link to it closes with a
    logged reason (the others keep dialing it, less and less often); the game waits for seat 3,
    ejects it at the hard deadline and ends; nothing it sent is in any log."""
    caplog.set_level(logging.WARNING)
    t = table(4, seed=25)
    flood = codec.frame(codec.pack(["flood", 0])) * 5000
    attacks = [codec.frame(b"\xc1 garbage"), struct.pack(">I", MAX_FRAME * 8), flood]
    connections = 0

    async def hostile(stream: trio.abc.Stream) -> None:
        nonlocal connections
        connections += 1
        n = connections
        framed = FrameStream(stream, MAX_FRAME)
        hs = AcceptorHandshake([t.identities[3]], engine_id=ENGINE.engine_id,
                               challenge=hashlib.sha256(n.to_bytes(4, "big")).digest(),
                               context=t.genesis.game_id, roster=t.genesis.keys)
        await accept_handshake(framed, hs)
        try:
            await stream.send_all(attacks[n % len(attacks)])
            await trio.sleep_forever()
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            return

    async with _game(t, 3) as (net, peers, _):
        net.servers[address(3)] = hostile
    ended = trio.current_time()
    assert [p.finished for p in peers] == [True] * 3
    verdict = _same_valid_logs(peers)
    assert all(_ejected(p) == [3] for p in peers) and 3 not in verdict.winners
    assert not any(env.author == 3 for env in peers[0].session.protocol.replica.by_id.values())
    closed = [r.getMessage() for r in caplog.records if "closed" in r.getMessage()]
    assert any("garbage: a frame that is not a msgpack array" in m for m in closed)
    assert any(f"oversized frame: frame announces {MAX_FRAME * 8} bytes" in m for m in closed)
    assert any("flood:" in m for m in closed)
    # each of the three dialers waited longer after every cut-off link, up to max_retry: not
    # twice a second for the whole game
    assert connections <= 3 * (ended / MeshConfig().max_retry + 6)
