"""The trio driver over in-memory links, with trio's virtual clock: a full game between four
processes, and a process that crashes (its tasks cancelled) and comes back from its files."""

from __future__ import annotations

from pathlib import Path

import trio

from kotp2p.net.gamelog import LogWriter, read_log
from kotp2p.net.session import Session, Timeouts
from kotp2p.net.transport.runner import run_session
from kotp2p.net.verify import verify_logs
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
    # Every bot decision waited its one-second delay on the virtual clock.
    assert trio.current_time() >= v.steps * 1.0


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
