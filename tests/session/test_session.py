"""The game session without an event loop: routing, the log, chat, deadlines and ejection,
restart from the log and journal. Time is passed in."""

from __future__ import annotations

import io

import pytest

from kotp2p.net.files import parse_log
from kotp2p.net.files.sinks import MemorySink
from kotp2p.net.session import (
    ChatLine,
    DiceRolled,
    EjectAsked,
    GameOver,
    MoveApplied,
    Narrated,
    Resumed,
    Session,
    Timeouts,
    Waiting,
    YourTurn,
)
from kotp2p.net.session.forwards import FORWARD_DELAY, PIGGYBACK_AFTER
from kotp2p.net.verify import replay_lines
from kotp2p.net.wire import Kind, LocalProtocolError, envelope_id, safe_text, split_frame
from kotp2p.ui import PlainView
from tests.session.kit import ENGINE, Switchboard, session, table, verdict


def _of(kind: type, updates: list[object]) -> list[object]:
    return [u for u in updates if isinstance(u, kind)]


def test_a_local_game_between_four_bots_ends_with_a_valid_log() -> None:
    t = table(4, seed=3)
    s = session(t, range(4), timeouts=Timeouts(None, None))
    s.start(0.0)
    ups = s.updates()
    assert s.is_over and s.outgoing() == []
    over = _of(GameOver, ups)
    assert len(over) == 1 and over == [ups[-1]]
    v = verdict(s.log)  # type: ignore[arg-type]
    assert v.status == "VALID" and v.winners == s.result.winners  # type: ignore[union-attr]
    moves = _of(MoveApplied, ups)
    assert len(moves) == v.steps and all(m.description for m in moves)  # type: ignore[attr-defined]
    assert _of(DiceRolled, ups)[0].description.startswith("roll-off: ")  # type: ignore[attr-defined]
    # The engine's events in plain words, in order: turns, damage, Tokyo, the end.
    told = [u.text for u in _of(Narrated, ups)]  # type: ignore[attr-defined]
    heads = [u.text for u in _of(Narrated, ups) if u.heading]  # type: ignore[attr-defined]
    assert heads[0] == f"turn 1: {t.genesis.monsters[s.protocol.replica.entries[1].seat]}"
    assert not any(line.startswith("--") for line in told)
    assert any(" smashes " in line for line in told)
    assert any("Tokyo" in line for line in told)


def test_a_human_seat_waits_for_submit_and_refuses_what_is_not_legal() -> None:
    t = table(2, seed=1)
    s = session(t, range(2), humans=[0], timeouts=Timeouts(None, None))
    s.start(0.0)
    turns = 0
    while not s.is_over:
        ups = s.updates()
        assert _of(YourTurn, ups) == [YourTurn(0)] and s.my_turn
        with pytest.raises(LocalProtocolError, match="illegal action"):
            s.submit(["no-such-action"], 1.0)
        from kotp2p import rules

        s.submit(rules.action_to_wire(rules.legal_actions(s.state)[-1]), 1.0)
        turns += 1
    assert turns > 3 and verdict(s.log).status == "VALID"  # type: ignore[arg-type]
    with pytest.raises(LocalProtocolError):
        s.submit(["stop"], 2.0)


def test_bots_wait_their_delay_and_the_session_says_when_to_wake_it() -> None:
    t = table(2, seed=2)
    s = session(t, range(2), timeouts=Timeouts(None, None), bot_delay=2.0)
    s.start(0.0)
    assert not s.is_over and s.next_wakeup() == 2.0
    s.tick(1.999)
    step = s.protocol.replica.step
    assert step == 0
    s.tick(2.0)
    assert s.protocol.replica.step == 1 and s.next_wakeup() == 4.0
    now = 2.0
    while not s.is_over:
        wake = s.next_wakeup()
        assert wake is not None and wake > now
        now = wake
        s.tick(now)
    assert verdict(s.log).status == "VALID"  # type: ignore[arg-type]


def test_chat_is_signed_shown_to_all_cut_at_500_and_kept_out_of_the_game() -> None:
    t = table(3, seed=4)
    a = session(t, [0], humans=[0], timeouts=Timeouts(None, None))
    b = session(t, [1, 2], timeouts=Timeouts(None, None))
    board = Switchboard([a, b])
    a.start(0.0)
    b.start(0.0)
    board.run(0.0)
    before = b.state.digest()
    a.chat("hello\x1b[31m " + "x" * 600, 1.0)
    board.run(1.0)
    (line,) = _of(ChatLine, board.seen[1])
    assert line.seat == 0 and len(line.text) == 500  # type: ignore[attr-defined]
    assert safe_text(line.text, 1000).startswith("hello\\x1b[31m")  # type: ignore[attr-defined]
    assert b.state.digest() == before
    with pytest.raises(LocalProtocolError, match="expected some text"):
        a.chat("   ", 1.0)


def test_in_a_two_player_game_a_chat_line_is_shown_when_it_arrives_not_after_the_next_move(
) -> None:
    t = table(2, seed=4)
    a = session(t, [0], humans=[0], timeouts=Timeouts(None, None))
    b = session(t, [1], humans=[1], timeouts=Timeouts(None, None))
    board = Switchboard([a, b])
    a.start(0.0)
    b.start(0.0)
    board.run(0.0)
    said = a if a.my_turn else b
    other = board.seen[1 - board.sessions.index(said)]
    moves = len(_of(MoveApplied, other))
    said.chat("hello", 1.0)  # (nobody to forward it to: the other seat only reads it)
    board.run(1.0)
    assert [u.text for u in _of(ChatLine, other)] == ["hello"]  # type: ignore[attr-defined]
    assert len(_of(MoveApplied, other)) == moves


def test_safe_text_shows_control_and_format_characters_as_escapes() -> None:
    assert safe_text("a\nb\x07c\u202ed\x9be") == "a\\x0ab\\x07c\\u202ed\\x9be"
    assert safe_text("Ünïcode ★ ok") == "Ünïcode ★ ok"


def _stalled_game(humans: list[int]) -> tuple[Switchboard, Session]:
    """Seats 0 and 1 in one session; seat 2 never starts (its process is gone)."""
    t = table(3, seed=5)
    a = session(t, [0, 1], humans=humans, me=0, timeouts=Timeouts(10.0, 120.0))
    gone = session(t, [2], timeouts=Timeouts(10.0, 120.0))
    board = Switchboard([a, gone])
    board.down.add(2)
    a.start(0.0)
    board.run(0.0)
    return board, a


def test_a_stall_is_shown_at_the_soft_deadline_and_bots_eject_at_the_hard_one() -> None:
    board, a = _stalled_game(humans=[])
    assert a.awaited() == ((2,), 0.0) and a.next_wakeup() == 10.0
    board.tick(9.9)
    assert _of(Waiting, board.seen[0]) == []
    board.tick(10.0)
    assert _of(Waiting, board.seen[0]) == [Waiting((2,), 0.0)]
    board.tick(119.9)
    assert not _of(MoveApplied, board.seen[0])
    board.tick(120.0)
    ejected = [u for u in _of(MoveApplied, board.seen[0]) if u.kind == "eject"]  # type: ignore[attr-defined]
    assert [u.seat for u in ejected] == [2]  # type: ignore[attr-defined]
    assert a.is_over and 2 not in a.result.winners  # type: ignore[union-attr]
    v = verdict(a.log)  # type: ignore[arg-type]
    assert v.status == "VALID"
    # kotp2p replay tells it as it was: a vote (the seat may have been absent or a cheat)
    told = replay_lines(parse_log(bytes(a.log.data)), ENGINE)  # type: ignore[union-attr]
    (line,) = [t for t in told if "is ejected" in t]
    assert line.endswith(f"seat 2 {a.genesis.seats[2].label} is ejected: the other players "
                         "voted it out")


def test_a_human_is_asked_and_nothing_is_ejected_until_every_other_seat_votes() -> None:
    board, a = _stalled_game(humans=[0])
    with pytest.raises(LocalProtocolError, match="nobody is overdue"):
        a.vote_eject(119.0)
    board.tick(120.0)
    assert _of(EjectAsked, board.seen[0]) == [EjectAsked((2,))]
    board.tick(500.0)
    assert not [u for u in _of(MoveApplied, board.seen[0]) if u.kind == "eject"]  # type: ignore[attr-defined]
    assert a.protocol.replica.step == 0
    a.vote_eject(501.0)
    board.run(501.0)
    ejected = [u for u in _of(MoveApplied, board.seen[0]) if u.kind == "eject"]  # type: ignore[attr-defined]
    assert [u.seat for u in ejected] == [2]  # type: ignore[attr-defined]


def test_an_ejection_names_the_monster_and_its_player_live_and_in_the_resumed_history() -> None:
    board, a = _stalled_game(humans=[0])
    board.tick(120.0)
    a.vote_eject(121.0)
    board.run(121.0)
    said = "Alienoid (Bot 2) is ejected: the other players voted it out"
    assert (a.genesis.seats[2].monster, a.genesis.seats[2].name) == ("Alienoid", "Bot 2")
    live = io.StringIO()
    PlainView(a, live).show(board.seen[0])
    assert f"* {said}\n  Alienoid is eliminated\n" in live.getvalue()
    # The same words when the game is told again from its log after a restart.
    assert not a.is_over
    a.quit()
    logged = list(parse_log(bytes(a.log.data)).payloads)  # type: ignore[attr-defined]
    again = session(table(3, seed=5), [0, 1], humans=[0], me=0, log=a.log,  # type: ignore[arg-type]
                    timeouts=Timeouts(10.0, 120.0))
    again.resume(200.0, logged, [])
    (resumed,) = _of(Resumed, again.updates())
    told = io.StringIO()
    PlainView(again, told).show_past(resumed)  # type: ignore[arg-type]
    assert f"* {said}\n  Alienoid is eliminated\n" in told.getvalue()
    assert "seat 2" not in live.getvalue() + told.getvalue()


def test_a_session_restarted_from_its_log_and_journal_finishes_the_same_game() -> None:
    t = table(3, seed=6)
    a = session(t, [0, 1], timeouts=Timeouts(5.0, None))
    log, journal = MemorySink(), MemorySink()
    log.append([t.genesis.frame()])
    journal.append([t.genesis.frame()])
    b = session(t, [2], timeouts=Timeouts(5.0, None), log=log, journal=journal)
    board = Switchboard([a, b])
    a.start(0.0)
    b.start(0.0)
    # Run until seat 2 has signed a few dozen envelopes, then lose it mid-game.
    now = 0.0
    sent = 0
    while len(b.protocol.replica.streams[2]) < 40:
        sent += 1
        for _to, frame in b.outgoing():
            a.receive(2, frame[4:], now)
        for to, frame in a.outgoing():
            if to == 2:
                b.receive(0, frame[4:], now)
        assert sent < 10_000
    board.down.add(2)
    board.run(now)
    assert not a.is_over
    logged = list(parse_log(bytes(log.data)).payloads)
    journaled = list(parse_log(bytes(journal.data)).payloads)
    assert len(journaled) >= 40 and len(logged) < len(b.protocol.replica.by_id)
    b2 = session(t, [2], timeouts=Timeouts(5.0, None), log=log, journal=journal)
    board.sessions[1] = b2
    board.owner[2] = b2
    board.down.clear()
    b2.resume(now, logged, journaled)
    board.run(now)
    while not (a.is_done and b2.is_done):  # done: the last block is written
        now += 5.0
        board.tick(now)
        assert now < 1000
    assert verdict(log).status == "VALID"
    assert verdict(a.log).status == "VALID"  # type: ignore[arg-type]
    # The same envelopes on both sides (a STALL sent while seat 2 was away may be written a
    # step later in its log than in the others': late envelopes follow with the next step).
    mine, theirs = parse_log(bytes(log.data)), parse_log(bytes(a.log.data))  # type: ignore[attr-defined]
    assert sorted(mine.payloads) == sorted(theirs.payloads)
    assert not [u for u in board.seen[0] if "broke" in repr(u)]


def test_ctrl_c_in_the_middle_of_a_call_keeps_what_was_written_and_the_game_resumes() -> None:
    t = table(3, seed=9)
    log, journal = MemorySink(), MemorySink()
    log.append([t.genesis.frame()])
    journal.append([t.genesis.frame()])
    s = session(t, range(3), timeouts=Timeouts(None, None), log=log, journal=journal)
    calls = 0
    decide = s.seats[2].decide
    assert decide is not None

    def interrupted(state: object) -> object:
        nonlocal calls
        calls += 1
        if calls == 12:
            raise KeyboardInterrupt
        return decide(state)

    s.seats[2].decide = interrupted  # type: ignore[assignment]
    with pytest.raises(KeyboardInterrupt):
        s.start(0.0)
    written = bytes(log.data)
    s.quit()  # the protocols may be half-way through a change: only flushes
    assert s.stopped and bytes(log.data) == written
    logged = list(parse_log(bytes(log.data)).payloads)
    journaled = list(parse_log(bytes(journal.data)).payloads)
    assert len(logged) > 10  # the steps closed before the interruption
    again = session(t, range(3), timeouts=Timeouts(None, None), log=log, journal=journal)
    again.resume(1.0, logged, journaled)
    assert again.is_over and verdict(log).status == "VALID"


def test_a_link_coming_up_asks_that_seat_alone_for_what_is_missing() -> None:
    from kotp2p.net.session import LinkChanged
    from kotp2p.net.wire import codec

    t = table(3, seed=10)
    a = session(t, [0, 1], timeouts=Timeouts(None, None))
    a.start(0.0)
    a.outgoing()
    a.link_up(2, 1.0)
    out = a.outgoing()
    asked = sorted((to, codec.unpack(frame[4:])[1]) for to, frame in out)  # type: ignore[index]
    # Seat 0 asks about authors 1 and 2, seat 1 about 0 and 2; one request per author reaches 2.
    assert asked == [(2, 0), (2, 1), (2, 2)]
    assert all(codec.unpack(frame[4:])[0] == "sync" for _, frame in out)  # type: ignore[index]
    assert LinkChanged(2, True) in a.updates() and a.links_up == {2}
    a.link_down(2, 2.0)
    assert LinkChanged(2, False) in a.updates() and a.links_up == set()


def test_garbage_from_a_peer_is_refused_with_a_reason_and_the_game_goes_on() -> None:
    from kotp2p.net.session import FrameRefused

    t = table(3, seed=11)
    a = session(t, [0, 1], timeouts=Timeouts(None, None))
    b = session(t, [2], timeouts=Timeouts(None, None))
    board = Switchboard([a, b])
    a.start(0.0)
    b.start(0.0)
    a.receive(2, b"\xc1garbage", 0.0)  # not msgpack
    a.receive(2, b"\x92\xc4\x03abc\xc4\x01x", 0.0)  # [body, sig] that opens to nothing
    a.receive(1, b"\x90", 0.0)  # a link claiming a seat this process plays
    a.receive(7, b"\x90", 0.0)  # a seat the game does not have
    refused = [u for u in a.updates() if isinstance(u, FrameRefused)]
    assert [u.sender for u in refused] == [2, 2, 1, 7]
    assert all(u.reason for u in refused)
    assert "expected a remote seat" in refused[2].reason
    board.run(0.0)
    assert a.is_done and b.is_done
    assert verdict(a.log).status == "VALID"  # type: ignore[arg-type]


def _three_started() -> tuple[Session, Session, Session]:
    """Seats 0, 1 and 2 of one game, each in its own session, started (the roll-off's values
    are on their way)."""
    t = table(3, seed=11)
    me, one, two = (session(t, [i], seed=i, timeouts=Timeouts(None, None)) for i in range(3))
    for s in (me, one, two):
        s.start(0.0)
    return me, one, two


def test_a_forwarded_copy_is_not_news_and_leaves_a_moment_later() -> None:
    me, one, two = _three_started()
    me.outgoing()
    me.updates()
    (first,) = {f for to, f in one.outgoing() if to == 0}
    (second,) = {f for to, f in two.outgoing() if to == 0}
    me.receive(1, first[4:], 1.0)
    # seat 1's value is passed on to seat 2, but nobody waits on that: it may wait
    assert not me.has_news and me.next_wakeup() == pytest.approx(1.0 + FORWARD_DELAY)
    me.receive(2, second[4:], 1.0)
    # seat 2's value completes the roll-off: news; the copies are not part of it
    assert me.has_news and _of(DiceRolled, me.updates())
    assert not {(2, first), (1, second)} & set(me.outgoing())
    me.tick(1.0 + FORWARD_DELAY / 2)
    assert not {(2, first), (1, second)} & set(me.outgoing())
    me.tick(1.0 + FORWARD_DELAY)
    out = me.outgoing()
    assert out.index((2, first)) < out.index((1, second))  # in the order they came


def test_a_held_copy_rides_along_with_the_next_frame_to_its_seat() -> None:
    me, one, _ = _three_started()
    me.outgoing()
    (first,) = {f for to, f in one.outgoing() if to == 0}
    me.receive(1, first[4:], 1.0)
    me.chat("hello", 1.0 + PIGGYBACK_AFTER / 2)  # too soon: seat 2 may yet show it has it
    assert (2, first) not in me.outgoing()
    me.chat("again", 1.0 + PIGGYBACK_AFTER)
    out = me.outgoing()
    to_two = [f for to, f in out if to == 2]  # (the copy, then the chat line, in one write)
    assert to_two[0] == first and len(to_two) == 2 and (1, first) not in out
    me.tick(2.0)
    assert me.outgoing() == []  # it went once


def test_no_copy_goes_to_a_seat_that_showed_it_holds_the_envelope() -> None:
    me, one, _ = _three_started()
    (first,) = {f for to, f in one.outgoing() if to == 0}
    me.receive(1, first[4:], 1.0)
    assert me.is_copy(first[4:], 2)  # seat 2 forwarded it to us: it holds it
    me.tick(2.0)
    assert (2, first) not in me.outgoing()


def test_a_move_is_not_forwarded_to_a_seat_that_acked_it_and_the_logs_agree() -> None:
    t = table(3, seed=12)
    sessions = [session(t, [i], seed=i, timeouts=Timeouts(None, None)) for i in range(3)]
    board = Switchboard(sessions)
    sent: list[tuple[int, int, bytes]] = []
    real = [s.outgoing for s in sessions]
    for i, s in enumerate(sessions):
        def spy(i: int = i) -> list[tuple[int, bytes]]:
            out = real[i]()
            sent.extend((i, to, frame) for to, frame in out)
            return out
        s.outgoing = spy  # type: ignore[method-assign]
        s.start(0.0)
    now = 0.0
    while not all(s.is_done for s in sessions) and now < 600:
        board.tick(now)
        now += FORWARD_DELAY / 2
    assert all(s.is_done for s in sessions)
    by_id = sessions[0].protocol.replica.by_id
    envs = [(i, to, by_id[envelope_id(split_frame(f[4:])[0])]) for i, to, f in sent]
    copies = [(to, e) for i, to, e in envs if e.author != i]
    # a seat that ACKed a MOVE before its copy was due (here: always) showed it holds it
    assert not [(to, e) for to, e in copies if e.kind is Kind.MOVE
                and any(a.author == to and a.head == e.id for a in by_id.values())]
    assert [e for _, e in copies if e.kind is Kind.ACK]  # nobody shows it holds another's ACK
    logs = {bytes(s.log.data) for s in sessions}  # type: ignore[attr-defined]
    assert len(logs) == 1 and verdict(sessions[0].log).status == "VALID"  # type: ignore[arg-type]


def test_seats_of_one_process_do_not_check_each_others_signatures_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from kotp2p.net.wire import envelope

    checked: list[bytes] = []
    real = envelope.verify_signature

    def counting(key: bytes, sig: bytes, message: bytes) -> bool:
        checked.append(sig)
        return real(key, sig, message)

    monkeypatch.setattr(envelope, "verify_signature", counting)
    t = table(4, seed=3)
    s = session(t, range(4), timeouts=Timeouts(None, None))
    s.start(0.0)
    assert s.is_over and checked == []  # four replicas, every envelope signed in this process
    assert verdict(s.log).status == "VALID"
    # a frame from a remote seat is still checked: one signed elsewhere, for a fresh process
    other = session(t, [1], timeouts=Timeouts(None, None))
    checked.clear()
    frame = s.seats[0].protocol.replica.streams[0][0].frame
    other.receive(0, frame[4:], 0.0)
    assert len(checked) == 1


def test_a_verified_envelope_of_another_game_is_a_local_error() -> None:
    a = session(table(3, seed=1), [0], timeouts=Timeouts(None, None))
    b = session(table(3, seed=2), [0, 1], timeouts=Timeouts(None, None))
    b.start(0.0)
    env = b.seats[0].protocol.replica.streams[0][0]
    with pytest.raises(LocalProtocolError, match="another game"):
        a.protocol.receive_verified(env, 0)


def test_a_seat_that_convicted_crashed_and_restored_still_proves_the_violation() -> None:
    # Seat 2 sends its ACK with a wrong state hash to seat 1 alone (the right one to seat 0).
    # Seat 1 convicts it and is killed at once, before it forwarded the wrong ACK and before
    # its log holds any proof (the log gets them at the end). Restored from its log and
    # journal, it finds the violation again and sends the proof at its soft deadline, so
    # seat 0 convicts too, both vote seat 2 out, and seat 1's log verifies INVALID naming
    # seat 2 (without the journal nobody would hold the wrong ACK any more).
    from kotp2p.net.session import LocalSeat
    from tests.net.rogues import SplitAcks
    from tests.session.kit import ENGINE

    t = table(3, seed=4)
    timeouts = Timeouts(5.0, None)
    a = session(t, [0], timeouts=timeouts)
    log, journal = MemorySink(), MemorySink()
    log.append([t.genesis.frame()])
    journal.append([t.genesis.frame()])
    b = session(t, [1], timeouts=timeouts, log=log, journal=journal)
    cheat = SplitAcks(t.genesis, 2, t.identities[2], t.secrets[2], ENGINE)
    c = Session(t.genesis, ENGINE, {2: LocalSeat(cheat, session(t, [2]).seats[2].decide)},
                me=2, log=MemorySink(), journal=MemorySink(), timeouts=timeouts)
    sessions = {0: a, 1: b, 2: c}
    for s in sessions.values():
        s.start(0.0)
    sent = 0
    while 2 not in b.protocol.replica.convicted:
        moved = False
        for seat, s in sessions.items():
            for to, frame in s.outgoing():
                sessions[to].receive(seat, frame[4:], 0.0)
                moved = True
                if 2 in b.protocol.replica.convicted:
                    break
            if 2 in b.protocol.replica.convicted:
                break
        sent += 1
        assert moved and sent < 10_000, "seat 1 never convicted seat 2"
    proofs = {e.frame[4:] for e in b.protocol.replica.convicted[2].evidence}
    assert not set(parse_log(bytes(log.data)).payloads) & proofs
    b.outgoing()  # killed: what it had not sent is lost
    logged = list(parse_log(bytes(log.data)).payloads)
    journaled = list(parse_log(bytes(journal.data)).payloads)
    assert proofs <= set(journaled)
    b2 = session(t, [1], timeouts=timeouts, log=log, journal=journal)
    sessions[1] = b2
    board = Switchboard(list(sessions.values()))
    b2.resume(0.0, logged, journaled)
    board.run(0.0)
    now = 0.0
    while not (a.is_over and b2.is_over):
        now += 5.0
        board.tick(now)
        assert now < 1000, "the game did not finish"
    assert 2 in b2.protocol.replica.convicted and 2 in a.protocol.replica.convicted
    assert not ENGINE.alive(b2.protocol.state)[2]
    v = verdict(log)
    assert v.status == "INVALID" and {f.seat for f in v.faults} == {2}, v.render()
    assert bytes(log.data) == bytes(a.log.data)  # type: ignore[attr-defined]


def test_a_finished_session_missing_a_last_envelope_asks_once_more_before_it_closes() -> None:
    # seat 2's closing BYE to seat 0 is lost, and so is seat 1's forwarded copy; seat 0's game
    # is over but its log lacks the BYE: when the grace period ends it asks its peers again,
    # and writes the same log as seat 1
    from kotp2p.net.wire import Kind

    t = table(3, seed=2)
    timeouts = Timeouts(5.0, None)
    sessions = {s: session(t, [s], timeouts=timeouts) for s in range(3)}
    for s in sessions.values():
        s.start(0.0)

    def is_bye(frame: bytes) -> bool:
        return any(e.frame == frame and e.kind is Kind.BYE
                   for e in sessions[2].protocol.replica.streams[2].values())

    moved = True
    while moved:
        moved = False
        for seat, s in sessions.items():
            for to, frame in s.outgoing():
                moved = True
                if to == 0 and is_bye(frame):
                    continue  # lost
                sessions[to].receive(seat, frame[4:], 0.0)
    a = sessions[0]
    assert a.is_over and not a.protocol.replica.log_complete and not a.is_done
    now = 0.0
    while not a.is_done:
        now += 1.0
        for s in sessions.values():
            s.tick(now)
        for seat, s in sessions.items():
            for to, frame in s.outgoing():
                sessions[to].receive(seat, frame[4:], now)
        assert now < 100
    assert a.protocol.replica.log_complete
    assert bytes(a.log.data) == bytes(sessions[1].log.data)  # type: ignore[attr-defined]


def test_a_dead_seats_farewell_that_comes_late_still_lands_in_every_log() -> None:
    # A seat that died signs a farewell, a BYE with no result; the blocks of the log wait for
    # it. On a busy machine it came after the one-second wait at the end, and that peer wrote
    # its last block without it, unlike the others.
    from kotp2p.net.wire import Kind, open_envelope

    t = table(3, seed=1)
    sessions = [session(t, [i], timeouts=Timeouts(10.0, None), seed=i) for i in range(3)]

    def farewell_to_the_first(target: Session, frame: bytes) -> bool:
        env = open_envelope(frame[4:], t.genesis.game_id, t.genesis.keys)
        return target is sessions[0] and env.kind is Kind.BYE and not env.payload

    board = Switchboard(sessions, hold=farewell_to_the_first)
    for s in sessions:
        s.start(0.0)
    now = 0.0
    while not all(s.is_over for s in sessions):
        board.run(now)
        now += 1.0
        board.tick(now)
        assert now < 600
    assert board.held, "no monster died in this game"
    for _ in range(3):  # past the one-second wait: the farewells are still on their way
        now += 1.0
        board.tick(now)
    for target, sender, frame in board.held:
        target.receive(sender, frame[4:], now)
    while not all(s.is_done for s in sessions):
        now += 1.0
        board.tick(now)
        assert now < 900
    logs = {bytes(s.log.data) for s in sessions}  # type: ignore[attr-defined]
    assert len(logs) == 1, "the logs differ"
    assert verdict(sessions[0].log).status == "VALID"  # type: ignore[arg-type]


def _away_at_the_end(seed: int) -> tuple[Switchboard, int, float]:
    """Three connected sessions. The first seat whose monster dies crashes as soon as its
    farewell is in every log; the others play to the end without it. The board, the seat that
    crashed and the time are returned."""
    t = table(3, seed=seed)
    sessions = []
    for i in range(3):
        log, journal = MemorySink(), MemorySink()
        log.append([t.genesis.frame()])
        journal.append([t.genesis.frame()])
        sessions.append(session(t, [i], timeouts=Timeouts(10.0, None), bot_delay=1.0, seed=i,
                                log=log, journal=journal))
    board = Switchboard(sessions)
    for s in sessions:
        s.start(0.0)
        for other in range(3):
            if other not in s.seats:
                s.link_up(other, 0.0)

    def farewell_everywhere(seat: int) -> bool:
        return all(any(e.kind is Kind.BYE and not e.payload
                       for e in s.protocol.replica.streams[seat].values()) for s in sessions)

    now = 0.0
    dead = None
    while dead is None:
        board.run(now)
        now += 1.0
        board.tick(now)
        dead = next((i for i in range(3) if farewell_everywhere(i)), None)
        assert now < 600 and not sessions[0].is_over
    board.down.add(dead)
    for s in sessions:
        if dead not in s.seats:
            s.link_down(dead, now)
    while not all(s.is_over for s in sessions if dead not in s.seats):
        now += 1.0
        board.tick(now)
        assert now < 1200
    return board, dead, now


def test_a_peer_away_when_the_game_ends_comes_back_for_the_end_and_the_logs_agree() -> None:
    # In a chaos run a seat whose monster had died was killed just before the end. The others'
    # logs were whole, so they closed at once, and the seat resumed to find nobody: it waited
    # forever, its log without the end.
    board, dead, now = _away_at_the_end(seed=1)
    crashed = board.owner[dead]
    others = [s for s in board.sessions if s is not crashed]
    now += 2.0  # past the one-second wait for BYEs at the end
    board.tick(now)
    assert all(s.protocol.log_complete and not s.is_done for s in others)
    log, journal = crashed.log, crashed.journal
    assert isinstance(log, MemorySink) and isinstance(journal, MemorySink)
    back = session(table(3, seed=1), [dead], timeouts=Timeouts(10.0, None), bot_delay=1.0,
                   seed=dead, log=log, journal=journal)
    board.sessions[board.sessions.index(crashed)] = back
    board.owner[dead] = back
    board.down.clear()
    now += 3.0
    back.resume(now, list(parse_log(bytes(log.data)).payloads),
                list(parse_log(bytes(journal.data)).payloads))
    for s in board.sessions:
        for other in range(3):
            if other not in s.seats:
                s.link_up(other, now)
    while not back.is_done:
        now += 1.0
        board.tick(now)
        assert now < 2000
    assert not any(s.is_done for s in others)  # its link is still up: it may still ask
    for s in others:
        s.link_down(dead, now)  # its process closed: it has what it came for
    assert all(s.is_done for s in others)
    logs = {bytes(s.log.data) for s in board.sessions}  # type: ignore[attr-defined]
    assert len(logs) == 1, "the logs differ"
    assert verdict(log).status == "VALID"


def test_a_peer_away_at_the_end_that_never_comes_back_holds_the_others_only_a_while() -> None:
    board, dead, now = _away_at_the_end(seed=1)
    others = [s for s in board.sessions if dead not in s.seats]
    ended = now  # within a second of the end
    while not all(s.is_done for s in others):
        now = min(t for s in others if (t := s.next_wakeup()) is not None)
        board.tick(now)
        assert now < ended + 100
    assert ended + 9.0 <= now <= ended + 10.0  # the grace period after the end
