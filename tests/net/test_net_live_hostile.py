"""The live protocol under one hostile seat: every behaviour of the maverick harness over seeded
in-memory games with random delivery and drops (a few here; ``scripts/mavericks`` runs many),
and the rules that keep it honest, one by one."""

from __future__ import annotations

import hashlib
import random

import pytest

from kotp2p.net.files import parse_log
from kotp2p.net.peer.protocol import MAX_AHEAD_BYTES, SYNC, SYNC_BUDGET, Misbehaviour, Rejected, Send
from kotp2p.net.verify import verify_logs
from kotp2p.net.wire import Kind, codec, seal
from tests.net import rogues
from tests.net.harness import build_mesh
from tests.net.maverick_runs import TOY, check, play
from tests.net.toy import toy_choose

GAMES = [(3, 1), (4, 2), (5, 3)]


@pytest.mark.parametrize("cls", rogues.BEHAVIOURS, ids=lambda c: c.name)
@pytest.mark.parametrize(("seats", "seed"), GAMES[:2])
def test_a_hostile_seat_never_splits_stalls_or_blames_the_honest_ones(
        cls: type[rogues.Rogue], seats: int, seed: int) -> None:
    report = play(cls, seats, seed)
    assert check(report, cls) == [], report


BROKE_ONCE = [
    # an honest seat took a forker's value from its spare envelopes while the others voted it
    # out, went past the point, and was voted out itself
    (rogues.OldFork, 5, 13),
    # a seat that does not vote (a dead monster) applied the target's MOVE in flight while the
    # lone live voter ejected it: the two sides split for good
    (rogues.TwoAliveVote, 4, 27),
    (rogues.SplitMoves, 5, 28),
    # the seat that convicted a split ACK voted its author out and stopped reading it there,
    # while the other held the right ACK and waited on the mover: the voter took its STALL
    # for no sign, and the cheater's vote with the other's ejected the voter
    (rogues.SplitAcks, 3, 46),
    # the voter stayed frozen on a split ACK's author while the other honest seat took the
    # right ACK and stalled on the next mover; that STALL was no sign of moving on, and the
    # cheater's vote with the other's ejected the voter; a STALL the other seat read from the
    # forker before it knew of the fork was logged by it alone
    (rogues.SplitAcks, 3, 26),
    # the seats that took the split ACK's author's ACK from its spare envelopes logged it; the
    # others had voted it out there (the ejection wins, the ACK is moot)
    (rogues.SplitAcks, 5, 23),
    # the ejected seat's envelopes in flight landed inside a block on some replicas and after
    # the last BYE on others
    (rogues.TwoAliveVote, 5, 28),
    (rogues.TwoAliveVote, 6, 9),
    # the seat that convicted a split ACK voted its author out at a random event and waited
    # there; the others took the right ACK and stalled on that seat's MOVE, a STALL naming a
    # seat also awaited at the event: no sign they had moved on (a STALL names its state now)
    (rogues.SplitAcks, 4, 62),
    # honest seats split over two MOVEs of the forker; the one seat that had applied neither
    # saw both applied by others and waited on what was built on them for good
    (rogues.SplitMoves, 6, 99),
    # the game was over when the old fork came: the honest seat voted out the forker, whose
    # ACK of the last MOVE was owed, though no vote may name a seat once the game is over
    (rogues.OldFork, 2, 85),
    # a seat's closing BYE was dropped: the game was over and nobody asked for it again
    (rogues.OldFork, 3, 126),
    # a seat whose game was over said it waited on the last MOVE's ACKs (a STALL after its
    # BYE), which came after the last block on some replicas
    (rogues.PartialWithholder, 4, 132),
    # monsters out of the game applied one of the forker's MOVEs without a word (they owe no
    # ACK) and took the other, applied by the one live seat, for a split: they voided both and
    # waited for good, while that seat ejected the forker
    (rogues.SplitMoves, 6, 9109),
    # every copy of the forker's second MOVE was lost: nothing proves the fork, and the game
    # goes on with the first
    (rogues.SplitMoves, 3, 9106),
    # a seat ACKed the forker's MOVE, the split undid that step, and the seat spoke again from
    # the step before: a replica that had seen its later ACK took the block for closed and
    # wrote the seat's STALL one block later than the seat did
    (rogues.SplitMoves, 3, 9236),
]
"""Games the long run (``scripts/mavericks``) once broke."""


@pytest.mark.parametrize(("cls", "seats", "seed"), BROKE_ONCE,
                         ids=lambda v: getattr(v, "name", str(v)))
def test_games_the_long_run_once_broke_keep_every_property(
        cls: type[rogues.Rogue], seats: int, seed: int) -> None:
    report = play(cls, seats, seed)
    assert check(report, cls) == [], report


def test_a_vote_against_a_seat_the_game_does_not_wait_on_is_the_voters_violation() -> None:
    _, mesh = build_mesh(TOY, 3, lambda seat, st: toy_choose(TOY, st, seat), seed=5)
    mesh.start()
    mesh.run_until(lambda: mesh.protos[0].replica.step >= 3)
    voter = mesh.protos[0]
    r = voter.replica
    idle = [s for s in range(3) if s not in r.awaited(r.point) and s != 0]
    assert idle, "some seat is not awaited at this point"
    env = voter.signer.seal(Kind.EJECT, r.step, r.head, [idle[0]], state_hash=r.point.digest)
    for i in (1, 2):
        mesh.handle(i, mesh.protos[i].receive(env.frame[4:], 0))
    mesh.run(hard_after=3)
    for i in (1, 2):
        rules = [(v.rule, v.seat) for v in mesh.violations[i]]
        assert rules == [("bad-eject", 0)], rules
        assert mesh.protos[i].is_over
    verdict = verify_logs([parse_log(bytes(mesh.logs[1]))], TOY)
    assert verdict.status == "INVALID" and {f.seat for f in verdict.faults} == {0}


def test_the_two_alive_vote_is_at_best_a_win_by_forfeit_and_verify_says_so() -> None:
    for seed in range(6):
        report = play(rogues.TwoAliveVote, 2, seed)
        assert check(report, rogues.TwoAliveVote) == [], report
        if report.forfeit:
            break
    else:
        raise AssertionError("no game ended by forfeit")


def test_a_chat_longer_than_500_characters_convicts_its_author() -> None:
    _, mesh = build_mesh(TOY, 3, lambda seat, st: toy_choose(TOY, st, seat), seed=2)
    mesh.start()
    p = mesh.protos[1]
    r = p.replica
    env = p.signer.seal(Kind.CHAT, r.step, r.head, ["x" * 501])
    out = mesh.protos[0].receive(env.frame[4:], 1)
    assert [v.rule for v in mesh.protos[0].replica.violations] == ["malformed-payload"]
    assert not any(isinstance(e, Rejected) for e in out)


def test_envelopes_held_ahead_are_capped_in_bytes() -> None:
    _, mesh = build_mesh(TOY, 2, lambda seat, st: toy_choose(TOY, st, seat), seed=3)
    mesh.start()
    author, reader = mesh.protos[1], mesh.protos[0]
    r = author.replica
    refused = 0
    for i in range(MAX_AHEAD_BYTES // 500 + 50):
        env = seal(author.identity, game_id=author.genesis.game_id, author=1, seq=10 + i,
                   prev=b"p" * 32, head=r.head, step=r.step, kind=Kind.CHAT,
                   payload=["y" * 480])
        out = reader.receive(env.frame[4:], 1)
        refused += any(isinstance(e, Rejected) and "bytes" in e.reason for e in out)
    assert refused > 0
    assert reader.replica.unread_bytes[1] <= MAX_AHEAD_BYTES


def test_sync_answers_are_paced_per_peer_between_soft_deadlines() -> None:
    _, mesh = build_mesh(TOY, 3, lambda seat, st: toy_choose(TOY, st, seat), seed=4)
    mesh.start()
    mesh.run()
    honest = mesh.protos[0]
    ask = codec.pack([SYNC, 1, 0])
    sent = 0
    for _ in range(200):
        sent += sum(len(e.frame) for e in honest.receive(ask, 2) if isinstance(e, Send))
    assert 0 < sent <= SYNC_BUDGET
    honest.soft_timeout()
    assert any(isinstance(e, Send) for e in honest.receive(ask, 2))


def test_an_old_fork_never_rewinds_the_game() -> None:
    report = play(rogues.OldFork, 4, 2)
    assert check(report, rogues.OldFork) == [], report
    assert report.rogue_fate == "convicted"


def test_honest_games_under_random_delivery_and_drops_agree_and_write_identical_logs() -> None:
    for seats, seed in GAMES:
        rng = random.Random(seed)
        _, mesh = build_mesh(TOY, seats, lambda seat, st: toy_choose(TOY, st, seat), seed=seed,
                             rng=rng, drop=0.03)
        mesh.start()
        mesh.run(stalls=6)
        for i in range(seats):
            mesh.handle(i, mesh.protos[i].close())
        assert all(p.is_over for p in mesh.protos)
        assert len({bytes(log) for log in mesh.logs}) == 1
        assert verify_logs([parse_log(bytes(mesh.logs[0]))], TOY).status == "VALID"


def test_a_seat_that_convicted_sends_the_proof_again_at_each_soft_deadline() -> None:
    # the forwarded copy of a split envelope can be lost: the peer that never sees the other
    # branch must still get it, or it stays on its branch and votes out whoever convicted
    _, mesh = build_mesh(TOY, 3, lambda seat, st: toy_choose(TOY, st, seat), seed=5)
    mesh.start()
    mesh.run_until(lambda: mesh.protos[0].replica.step >= 3)
    cheat = mesh.protos[1]
    r = cheat.replica
    first = cheat.signer.seal(Kind.CHAT, r.step, r.head, ["one"])
    second = seal(cheat.identity, game_id=first.game_id, author=cheat.seat, seq=first.seq,
                  prev=first.prev, head=r.head, step=r.step, kind=Kind.CHAT,
                  payload=["two"])  # the same number again: a fork
    judge = mesh.protos[0]
    judge.receive(first.frame[4:], 1)
    judge.receive(second.frame[4:], 1)
    assert 1 in judge.replica.convicted
    sent = [ev for ev in judge.soft_timeout() if isinstance(ev, Send)]
    for env in (first, second):
        assert any(ev.frame == env.frame and set(ev.to) == {1, 2} for ev in sent)


@pytest.mark.parametrize("past", ["a seat", "a state"])
def test_a_vote_at_a_state_its_author_said_it_was_past_is_the_voters_violation(past: str) -> None:
    # a STALL naming a state of the step not reached yet, or a seat the game awaits at none of
    # the step's states so far, was signed further on: honest seats take it as "moved on
    # without voting here", so the same author voting here afterwards must not count (it
    # could eject a seat another honest one stopped waiting on)
    _, mesh = build_mesh(TOY, 3, lambda seat, st: toy_choose(TOY, st, seat), seed=5)
    mesh.start()
    mesh.run_until(lambda: mesh.protos[0].replica.step >= 3
                   and mesh.protos[0].replica.point.k is not None)
    voter = mesh.protos[0]
    r = voter.replica
    awaited = r.awaited(r.point)
    idle = [s for s in (1, 2) if s not in awaited]
    assert idle and awaited, "a random event where the mover owes nothing"
    if past == "a seat":
        stall = voter.signer.seal(Kind.STALL, r.step, r.head, [idle[0]])
    else:
        later = hashlib.sha256(b"a state further on").digest()
        stall = voter.signer.seal(Kind.STALL, r.step, r.head, [awaited[-1]], state_hash=later)
    vote = voter.signer.seal(Kind.EJECT, r.step, r.head, [awaited[-1]], state_hash=r.point.digest)
    for i in (1, 2):
        for env in (stall, vote):
            mesh.handle(i, mesh.protos[i].receive(env.frame[4:], 0))
    mesh.run(hard_after=3)
    for i in (1, 2):
        rules = [(v.rule, v.seat) for v in mesh.violations[i]]
        assert rules == [("bad-eject", 0)], rules
        assert "after its STALL" in mesh.violations[i][0].detail
        assert mesh.protos[i].is_over
    verdict = verify_logs([parse_log(bytes(mesh.logs[1]))], TOY)
    assert verdict.status == "INVALID" and {f.seat for f in verdict.faults} == {0}


def test_a_vote_for_a_missing_ack_after_claiming_every_ack_is_the_voters_violation() -> None:
    # A STALL or vote that says "I hold every ACK" lets a seat that voted out a slow acker go
    # on without that vote. So the same author voting for a missing ACK there afterwards must
    # not count: it could eject a seat another honest one stopped waiting on.
    from kotp2p.net.trust import Turn

    _, mesh = build_mesh(TOY, 4, lambda seat, st: toy_choose(TOY, st, seat), seed=5)
    mesh.start()

    def after_a_move() -> bool:
        r = mesh.protos[0].replica
        p, entry = r.point, r.entries[-1]
        return (entry.kind == "move" and p.index == 0 and p.k is None
                and isinstance(p.pending, Turn) and entry.seat != 0 and p.pending.seat != 0)

    assert mesh.run_until(after_a_move)
    while mesh.deliver_one():  # everything in flight arrives; nobody decides
        pass
    voter = mesh.protos[0]
    r = voter.replica
    mover = r.point.pending.seat  # type: ignore[union-attr]
    acker = next(s for s in range(4) if s not in (0, mover, r.entries[-1].seat))
    assert acker in r.awaited(r.point)
    claim = voter.signer.seal(Kind.STALL, r.step, r.head, [mover, True],
                              state_hash=r.point.digest)
    vote = voter.signer.seal(Kind.EJECT, r.step, r.head, [acker, False],
                             state_hash=r.point.digest)
    judge = mesh.protos[mover]
    events = judge.receive(claim.frame[4:], 0) + judge.receive(vote.frame[4:], 0)
    rules = [(e.violation.rule, e.violation.seat) for e in events
             if isinstance(e, Misbehaviour)]
    assert rules == [("bad-eject", 0)], rules
    assert "said it held every ACK" in judge.replica.convicted[0].detail
    assert judge.replica.convicted[0].evidence == (claim, vote)
