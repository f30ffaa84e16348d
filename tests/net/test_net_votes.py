"""Votes to eject: only a voter's first vote at a point counts, so every replica names the same
ejection entry whatever order the votes arrive in, and a flood of repeated votes changes nothing."""

from __future__ import annotations

import itertools

from kotp2p.net.replica import Replica
from kotp2p.net.trust import SecretChain
from kotp2p.net.wire import Envelope, Kind, seal
from tests.net.harness import make_table
from tests.net.toy import ToyEngine

TOY = ToyEngine()
TABLE = make_table(TOY, 3, chain_length=16)
G = TABLE.genesis


def _envelopes(votes_by_seat_0: int) -> list[Envelope]:
    """Seats 0 and 1 reveal for the first random event; seat 2 never does; seats 0 and 1 vote to
    eject it there (seat 0 ``votes_by_seat_0`` times)."""
    point_digest = Replica(G, TOY).point.digest
    out: list[Envelope] = []
    for seat, votes in ((0, votes_by_seat_0), (1, 1)):
        prev = G.game_id
        reveal = SecretChain(TABLE.secrets[seat], seat, length=G.chain_length).reveal(1)
        ack = seal(TABLE.identities[seat], game_id=G.game_id, author=seat, seq=0, prev=prev,
                   head=G.game_id, step=0, kind=Kind.ACK, reveals=[reveal],
                   state_hash=point_digest)
        out.append(ack)
        prev = ack.id
        for q in range(1, votes + 1):
            vote = seal(TABLE.identities[seat], game_id=G.game_id, author=seat, seq=q, prev=prev,
                        head=G.game_id, step=0, kind=Kind.EJECT, payload=[2],
                        state_hash=point_digest)
            out.append(vote)
            prev = vote.id
    return out


def test_every_arrival_order_gives_the_same_ejection_entry() -> None:
    envs = _envelopes(votes_by_seat_0=2)
    heads = set()
    for order in itertools.permutations(envs):
        r = Replica(G, TOY)
        for e in order:
            r.add(e)
            r.advance()
        assert r.step == 1 and r.entries[1].kind == "eject" and r.entries[1].seat == 2
        heads.add(r.head)
    first_vote = next(e for e in envs if e.kind is Kind.EJECT and e.author == 0)
    assert heads == {first_vote.id}


def test_a_flood_of_repeated_votes_is_one_vote() -> None:
    r = Replica(G, TOY)
    for e in _envelopes(votes_by_seat_0=500):
        r.add(e)
    r.advance()
    assert r.step == 1 and r.entries[1].seat == 2 and not r.violations
    assert sum(len(v) for here in r.votes.values() for v in here.values()) == 2


def test_two_seats_that_vote_each_other_out_at_once_end_the_game_the_same_way() -> None:
    # Each reveals its value, hears nothing for the hard timeout, and votes the other out. With
    # two monsters, each vote is a whole ejection. Each value waits behind the vote against its
    # author, and each vote waits behind its author's value: before, neither was ever read.
    from tests.net.harness import build_mesh
    from tests.net.toy import toy_choose

    _, mesh = build_mesh(TOY, 2, lambda seat, st: toy_choose(TOY, st, seat), seed=7)
    mesh.held.update({(0, 1), (1, 0)})
    mesh.start()
    for seat in (0, 1):
        mesh.handle(seat, mesh.protos[seat].hard_timeout())
    mesh.held.clear()
    mesh.run()
    replicas = [p.replica for p in mesh.protos]
    assert all(r.is_over for r in replicas)
    assert [(e.kind, e.seat) for e in replicas[0].entries] == [("genesis", None), ("eject", 0)]
    assert [e.id for e in replicas[0].entries] == [e.id for e in replicas[1].entries]
    assert not any(mesh.violations)
