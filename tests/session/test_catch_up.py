"""A restarted seat whose journal is lost or damaged learns what it signed from its peers first:
it never signs a second envelope at a sequence number it used, and it waits when nobody answers."""

from __future__ import annotations

import pytest

from kotp2p.net.files import parse_log
from kotp2p.net.files.sinks import MemorySink
from kotp2p.net.session import CaughtUp, Notice, Resumed, Session, Timeouts, YourTurn
from kotp2p.net.wire import LocalProtocolError, codec
from tests.session.kit import Switchboard, session, table, verdict

TIMEOUTS = Timeouts(5.0, None)


def _killed_mid_game(n: int, seed: int) -> tuple[Switchboard, Session, MemorySink, MemorySink,
                                                  float]:
    """Seats 0 .. n-2 in one session, seat n-1 in another. Seat n-1 signed 40 envelopes and a
    chat line, all delivered, then its process was killed. Returns the board, the others'
    session, seat n-1's log and journal, and the time."""
    t = table(n, seed)
    a = session(t, range(n - 1), timeouts=TIMEOUTS)
    log, journal = MemorySink(), MemorySink()
    log.append([t.genesis.frame()])
    journal.append([t.genesis.frame()])
    last = n - 1
    b = session(t, [last], timeouts=TIMEOUTS, log=log, journal=journal)
    board = Switchboard([a, b])
    a.start(0.0)
    b.start(0.0)
    sent = 0
    while len(b.protocol.replica.streams[last]) < 40:
        sent += 1
        for _to, frame in b.outgoing():
            a.receive(last, frame[4:], 0.0)
        for to, frame in a.outgoing():
            if to == last:
                b.receive(0, frame[4:], 0.0)
        assert sent < 10_000
    b.chat("brb", 0.0)  # its last envelope: the others hold it, its log does not yet
    for _to, frame in b.outgoing():
        a.receive(last, frame[4:], 0.0)
    board.down.add(last)
    board.run(0.0)
    assert not a.is_over
    return board, a, log, journal, 0.0


def _resume(board: Switchboard, log: MemorySink, journal: list[bytes], n: int, seed: int,
            now: float, timeouts: Timeouts = TIMEOUTS) -> Session:
    """Seat n-1 restarted from its log and ``journal``. Its bot now draws other choices, as a
    restarted process does."""
    last = n - 1
    t = table(n, seed)
    again = MemorySink()
    again.append([t.genesis.frame()])
    b2 = session(t, [last], timeouts=timeouts, log=log, journal=again, seed=seed + 1)
    board.sessions[1] = b2
    board.owner[last] = b2
    board.down.clear()
    b2.resume(now, list(parse_log(bytes(log.data)).payloads), journal)
    return b2


def _play_out(board: Switchboard, a: Session, b2: Session, now: float) -> None:
    board.run(now)
    while not (a.is_done and b2.is_done):  # done: the last block is written
        now += 5.0
        board.tick(now)
        assert now < 2000, "the game did not finish"


def _damaged(journal: MemorySink) -> list[bytes]:
    """The journal's payloads as read back after bytes in its middle were overwritten."""
    data = bytearray(journal.data)
    middle = len(data) // 2
    data[middle : middle + 300] = b"\xff" * 300
    return list(parse_log(bytes(data)).payloads)


@pytest.mark.parametrize("journal", ["lost", "damaged in the middle", "cut before the end"])
def test_a_seat_resumed_without_a_whole_journal_goes_on_and_nobody_is_convicted(
        journal: str) -> None:
    n, seed = 3, 6
    board, a, log, kept, now = _killed_mid_game(n, seed)
    payloads = list(parse_log(bytes(kept.data)).payloads)
    given = {"lost": [], "damaged in the middle": _damaged(kept),
             "cut before the end": payloads[: len(payloads) // 2]}[journal]
    b2 = _resume(board, log, given, n, seed, now)
    _play_out(board, a, b2, now)
    for s in (a, b2):
        assert not s.protocol.replica.convicted, s.protocol.replica.convicted
    assert verdict(log).status == "VALID"
    assert verdict(a.log).status == "VALID"  # type: ignore[arg-type]
    notices = [u.text for u in board.seen[1] if isinstance(u, Notice)]
    assert any(t.startswith("catching up after the restart: waiting for") for t in notices)
    seen = list(board.seen[1])
    resumed = next(i for i, u in enumerate(seen) if isinstance(u, Resumed))
    caught = next(i for i, u in enumerate(seen) if isinstance(u, CaughtUp))
    assert seen[resumed].catching_up and seen[caught].text.endswith("caught up with the others")  # type: ignore[union-attr]
    # The resumed line goes where the seat plays again: its own turns come after it.
    assert not any(isinstance(u, YourTurn) for u in seen[resumed:caught])


def test_what_the_peers_send_back_is_journaled_again() -> None:
    n, seed = 3, 6
    board, _, log, _, now = _killed_mid_game(n, seed)
    b2 = _resume(board, log, [], n, seed, now)
    board.run(now)
    assert not b2.protocol.holding
    assert b2.journal is not None
    journaled = set(parse_log(bytes(b2.journal.data)).payloads)  # type: ignore[attr-defined]
    logged = set(parse_log(bytes(log.data)).payloads)
    mine = {e.frame[4:] for e in b2.protocol.replica.streams[n - 1].values()}
    assert mine <= journaled | logged


def test_a_restarted_seat_whose_only_peer_is_silent_signs_nothing_and_says_why() -> None:
    # A two-player game: the joiner is killed, its journal lost. Its one peer does not answer
    # (its link is down): it waits, however long, and signs nothing; then the peer answers late.
    n, seed = 2, 3
    board, a, log, _, now = _killed_mid_game(n, seed)
    b2 = _resume(board, log, [], n, seed, now)
    held = dict(b2.protocol.replica.streams[1])
    board.down.add(0)
    for later in (5.0, 60.0, 600.0, 6000.0):
        board.tick(later)
    assert b2.protocol.holding
    assert not b2.protocol.my_turn
    with pytest.raises(LocalProtocolError, match="catching up after a restart"):
        b2.protocol.chat("hello")
    assert b2.protocol.replica.streams[1] == held  # it signed nothing
    (told,) = [u.text for u in board.seen[1] if isinstance(u, Notice)]
    assert "waiting for" in told and a.names()[0] in told and "you play again once they answer" in told
    board.down.clear()
    a.link_up(1, 6000.0)
    b2.link_up(0, 6000.0)
    _play_out(board, a, b2, 6000.0)
    assert not a.protocol.replica.convicted and not b2.protocol.replica.convicted
    assert verdict(log).status == "VALID"


def test_forged_and_foreign_answers_neither_release_nor_convict_a_restarted_seat() -> None:
    # A peer that says it holds nothing of seat 1 while the other one is silent cannot release
    # it (the other peer must answer too); bad markers are refused; a marker naming another
    # author, or a seat not asked, changes nothing.
    n, seed = 3, 6
    board, _, log, _, now = _killed_mid_game(n, seed)
    b2 = _resume(board, log, [], n, seed, now)
    b2.outgoing()
    assert b2.protocol.catch_up is not None and b2.protocol.catch_up.waiting == {0, 1}
    b2.receive(0, codec.pack(["held", 1, 0, 0]), now)       # about seat 1, not the asker
    b2.receive(0, codec.pack(["held", 2, 0, 5]), now)       # no seat 5 was asked
    b2.receive(0, codec.pack(["held", 2, 10**6, 1]), now)   # it claims more than it sends
    assert b2.protocol.catch_up.waiting == {0, 1} and not b2.strikes()
    b2.receive(0, codec.pack(["held", 2, -1, 0]), now)      # malformed
    b2.receive(0, codec.pack(["held", 2, 0, 0, 0]), now)    # malformed
    assert len(b2.strikes()) == 2
    forged = bytearray(next(iter(b2.protocol.replica.streams[2].values())).frame[4:])
    forged[20] ^= 1
    b2.receive(0, bytes(forged), now)                      # its own envelope, altered
    assert b2.strikes() and b2.protocol.catch_up.waiting == {0, 1}
    b2.receive(0, codec.pack(["held", 2, 0, 0]), now)       # seat 0 answers
    assert b2.protocol.holding and b2.protocol.catch_up.waiting == {1}
    assert not b2.protocol.replica.convicted and not b2.protocol.replica.violations


def test_with_one_peer_silent_a_restarted_seat_goes_on_after_the_hard_deadline_with_the_others(
) -> None:
    # Four seats: seats 0, 1 and 2 in one session, seat 3 restarted without its journal. Seats
    # 0 and 1 answer; seat 2 never does. Seat 3 waits until the hard deadline since its
    # restart, then goes on with what seats 0 and 1 said, and says so.
    n, seed = 4, 2
    t = table(n, seed)
    board, _, log, _, now = _killed_mid_game(n, seed)
    b2 = _resume(board, log, [], n, seed, now, Timeouts(5.0, 60.0))
    b2.outgoing()
    mine = b2.protocol.replica.streams[3]
    for seat in (0, 1):
        b2.receive(seat, codec.pack(["held", 3, max(mine) + 1, seat]), now)
    assert b2.protocol.catch_up is not None and b2.protocol.catch_up.waiting == {2}
    b2.tick(now + 59.0)
    assert b2.protocol.holding
    b2.tick(now + 60.0)
    assert not b2.protocol.holding
    told = [u.text for u in b2.updates() if isinstance(u, Notice)]
    assert any(x.startswith(f"{t.genesis.seats[2].label} did not answer within 60 s: going on "
                            "with what ") for x in told), told


def test_a_restarted_seat_does_not_wait_for_a_seat_ejected_before() -> None:
    # Seat 2's process is gone and the others voted it out. Then seat 1 is restarted: it asks
    # seats 0 and 3 alone, and goes on as soon as they answered.
    t = table(4, seed=5)
    timeouts = Timeouts(10.0, 120.0)
    log, journal = MemorySink(), MemorySink()
    log.append([t.genesis.frame()])
    journal.append([t.genesis.frame()])
    a = session(t, [0, 3], humans=[0], timeouts=timeouts)  # the game waits on seat 0's human
    b = session(t, [1], timeouts=timeouts, log=log, journal=journal)
    board = Switchboard([a, b, session(t, [2], timeouts=timeouts)])
    board.down.add(2)
    a.start(0.0)
    b.start(0.0)
    board.run(0.0)
    board.tick(10.0)
    board.tick(120.0)
    a.vote_eject(121.0)
    board.run(121.0)
    assert not a.protocol.state.alive[2] and not a.is_over  # type: ignore[attr-defined]
    again = MemorySink()
    again.append([t.genesis.frame()])
    b2 = session(t, [1], timeouts=timeouts, log=log, journal=again, seed=1)
    board.sessions[1] = b2
    board.owner[1] = b2
    b2.resume(121.0, list(parse_log(bytes(log.data)).payloads), [])
    assert b2.protocol.catch_up is not None and b2.protocol.catch_up.waiting == {0, 3}
    board.run(121.0)
    assert not b2.catching_up and not b2.protocol.replica.convicted
