"""The trio driver over in-memory links, with trio's virtual clock: a full game between four
processes, and a process that crashes (its tasks cancelled) and comes back from its files."""

from __future__ import annotations

from pathlib import Path

import trio

from kotp2p.net.files import LogWriter, read_log
from kotp2p.net.peer.protocol import SYNC
from kotp2p.net.session import Session, Timeouts
from kotp2p.net.transport.runner import FrameIn, LinkEvent, run_session
from kotp2p.net.verify import verify_logs
from kotp2p.net.wire import codec
from tests.session.kit import ENGINE, session, table
from tests.session.memlinks import MemoryNet


def _files(tmp: Path, t: object, seat: int) -> tuple[LogWriter, LogWriter]:
    g = t.genesis  # type: ignore[attr-defined]
    return LogWriter(tmp / f"seat{seat}.kotlog", g), LogWriter(tmp / f"seat{seat}.journal", g)


def _session(tmp: Path, t: object, seat: int) -> Session:
    log, journal = _files(tmp, t, seat)
    return session(t, [seat], timeouts=Timeouts(5.0, 120.0), bot_delay=1.0, seed=seat,  # type: ignore[arg-type]
                   log=log, journal=journal)  # type: ignore[arg-type]


def _close(s: Session) -> None:
    s.log.close()  # type: ignore[attr-defined]
    s.journal.close()  # type: ignore[union-attr]


async def test_four_processes_play_a_whole_game_over_memory_links(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    t = table(4, seed=7)
    net = MemoryNet(4)
    sessions = [_session(tmp_path, t, i) for i in range(4)]
    results: list[bool] = []
    async with trio.open_nursery() as nursery:
        for i, s in enumerate(sessions):
            links = net.links(i)

            async def play(s: Session = s, links: object = links) -> None:
                results.append(await run_session(s, links=links))  # type: ignore[arg-type]

            nursery.start_soon(play)
    assert results == [True] * 4
    for s in sessions:
        _close(s)
    logs = [read_log(tmp_path / f"seat{i}.kotlog") for i in range(4)]
    assert len({log.payloads for log in logs}) == 1  # byte-identical logs
    v = verify_logs(logs, ENGINE)
    assert v.status == "VALID" and v.winners == sessions[0].result.winners  # type: ignore[union-attr]
    # Every bot decision waited its one-second delay on the virtual clock, nothing else did.
    assert trio.current_time() == v.steps * 1.0


async def test_a_crashed_process_comes_back_from_its_log_and_journal(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    t = table(3, seed=8)
    net = MemoryNet(3)
    sessions = [_session(tmp_path, t, i) for i in range(3)]
    done: dict[int, bool] = {}
    async with trio.open_nursery() as nursery:
        crash = trio.CancelScope()

        async def play(seat: int, scope: trio.CancelScope | None = None) -> None:
            links = net.links(seat)
            if scope is None:
                done[seat] = await run_session(sessions[seat], links=links)  # type: ignore[arg-type]
            else:
                with scope:
                    done[seat] = await run_session(sessions[seat], links=links)  # type: ignore[arg-type]

        for i in range(2):
            nursery.start_soon(play, i)
        nursery.start_soon(play, 2, crash)
        await trio.sleep(20.0)  # twenty decisions or so into the game
        step = sessions[2].protocol.replica.step
        assert step > 5 and not sessions[2].is_over
        crash.cancel()
        net.crash(2)
        await trio.sleep(30.0)  # the others wait for seat 2 (and say so)
        assert not sessions[0].is_over
        _close(sessions[2])
        logged = read_log(tmp_path / "seat2.kotlog")
        journal = read_log(tmp_path / "seat2.journal")
        sessions[2] = _session(tmp_path, t, 2)
        links = net.links(2)

        async def back() -> None:
            done[2] = await run_session(sessions[2], links=links,  # type: ignore[arg-type]
                                        restore=(list(logged.payloads), list(journal.payloads)))

        nursery.start_soon(back)
    assert done == {0: True, 1: True, 2: True}
    for s in sessions:
        _close(s)
    logs = [read_log(tmp_path / f"seat{i}.kotlog") for i in range(3)]
    for log in logs:
        assert verify_logs([log], ENGINE).status == "VALID"
    assert len({frozenset(log.payloads) for log in logs}) == 1
    v = verify_logs(logs, ENGINE)
    assert v.status == "VALID" and not v.fault


class _QueuedLinks:
    """Links whose frames are all waiting before the loop takes the first (a busy process)."""

    def __init__(self, events: list[FrameIn]) -> None:
        self.sent: list[tuple[int, bytes]] = []
        send, self._receive = trio.open_memory_channel[LinkEvent](100)
        for e in events:
            send.send_nowait(e)

    async def send(self, seat: int, frame: bytes) -> None:
        self.sent.append((seat, frame))

    def strike(self, seat: int, reason: str) -> None:
        raise AssertionError(f"nothing here is refused: {reason}")

    def events(self) -> trio.MemoryReceiveChannel[LinkEvent]:
        return self._receive


async def test_a_copy_waiting_behind_its_original_is_dropped_and_not_forwarded_back(
        autojump_clock: trio.testing.MockClock) -> None:
    t = table(3, seed=9)
    me, one = (session(t, [i], seed=i) for i in range(2))
    one.start(0.0)
    (reveal,) = {f for to, f in one.outgoing() if to == 0}
    sync = codec.pack([SYNC, 0, 0])
    # seat 2 forwarded seat 1's frame and both ask for seat 0's envelopes, the same bytes
    links = _QueuedLinks([FrameIn(1, reveal[4:]), FrameIn(2, reveal[4:]), FrameIn(1, sync),
                          FrameIn(2, sync)])
    with trio.move_on_after(1.0):
        await run_session(me, links=links)
    assert me.protocol.is_copy(reveal[4:])
    assert (2, reveal) not in links.sent  # seat 2 sent it: it holds it
    (own,) = me.protocol.replica.streams[0].values()
    # each request got its answer (after the start's broadcast)
    assert links.sent.count((1, own.frame)) == 2 and links.sent.count((2, own.frame)) == 2
