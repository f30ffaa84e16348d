"""A seat sends an ACK with a wrong state hash to some seats and the right one to the others.

Each honest seat forwards what it sees first, so each ends up holding both ACKs: a fork. Whatever
came first, every honest seat convicts the cheat of the same thing, finishes the game, and
writes the same log, which ``verify`` judges the same way. The cheat is voted out once the game
waits on it.

Soft deadlines may also pass while the two ACKs are in flight, as on a slow link. Then too the
honest seats agree on everything. One thing is out of their hands: the cheat may send the other
half of its fork so late that an honest seat wrote a step before anyone had seen it. Then the
cheat's own envelopes that the game never used may sit in one log and not in another.
"""

from __future__ import annotations

import random
from collections.abc import Collection

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kotp2p.net.files import parse_log
from kotp2p.net.verify import verify_logs
from tests.net import rogues
from tests.net.harness import Mesh, build_mesh
from tests.net.toy import ToyEngine, toy_choose

TOY = ToyEngine()


def _play(n: int, rogue: int, wrong_to: Collection[int], seed: int, *,
          with_value: bool = False, nth: int = 1, drop: float = 0.0,
          early_soft: float = 0.0) -> Mesh:
    """One game of ``n`` toy seats, ``rogue`` splitting one ACK, deliveries shuffled by ``seed``."""
    cls = rogues.split_ack_to(wrong_to, nth=nth, with_value=with_value)
    _, mesh = build_mesh(TOY, n, lambda seat, state: toy_choose(TOY, state, seat + seed),
                         seed=seed, rng=random.Random(seed), drop=drop, factories={rogue: cls})
    honest = [i for i in range(n) if i != rogue]
    mesh.start()
    for _ in range(20):
        mesh.run(max_events=200_000, stalls=4, hard_after=3, early_soft=early_soft)
        if all(mesh.protos[i].is_over for i in honest):
            break
    mesh.close_after_grace(honest)
    return mesh


def _unused_of(mesh: Mesh, rogue: int) -> set[bytes]:
    """Ids of the rogue's envelopes in some honest log that no honest replica used."""
    honest = [mesh.protos[i].replica for i in range(mesh.n) if i != rogue]
    used = set().union(*(r.used | r.entry_ids for r in honest))
    return {e.id for r in honest for e in r.streams[rogue].values()} - used


def _without(log: bytes, ids: set[bytes]) -> list[bytes]:
    """The log's frames but those of envelopes ``ids``."""
    from kotp2p.net.wire import envelope_id, split_frame

    return [p for p in parse_log(log).payloads if envelope_id(split_frame(p)[0]) not in ids]


def _assert_converged(mesh: Mesh, rogue: int, exact: bool = True) -> None:
    """The honest seats finished with one conviction of the rogue, one log and one verdict.

    Unless ``exact``, the logs may differ in the rogue's envelopes that the game never used."""
    honest = [i for i in range(mesh.n) if i != rogue]
    protos = [mesh.protos[i] for i in honest]
    assert all(p.is_over for p in protos), [(i, mesh.protos[i].replica.step) for i in honest]
    convictions = {(p.replica.convicted[rogue].rule, p.replica.convicted[rogue].step,
                    tuple(e.id for e in p.replica.convicted[rogue].evidence))
                   if rogue in p.replica.convicted else None for p in protos}
    assert len(convictions) == 1 and None not in convictions, convictions
    for i in honest:
        seen = [(v.seat, v.rule) for v in mesh.violations[i]]
        assert {s for s, _ in seen} == {rogue}, seen
        assert seen[-1][1] == next(iter(convictions))[0], seen  # the last word is the verdict
    assert len({tuple(e.id for e in p.replica.entries) for p in protos}) == 1
    logs = {bytes(mesh.logs[i]) for i in honest}
    if not exact:
        unused = _unused_of(mesh, rogue)
        assert len({tuple(_without(log, unused)) for log in logs}) == 1, "the honest logs differ"
        logs = {logs.pop()}
    assert len(logs) == 1, "the honest logs differ"
    verdict = verify_logs([parse_log(logs.pop())], TOY)
    assert verdict.status == "INVALID" and verdict.fault is not None
    rule, step, _ = next(iter(convictions))
    assert (verdict.fault.rule, verdict.fault.seat, verdict.fault.step) == (rule, rogue, step)
    assert {f.seat for f in verdict.faults} == {rogue}


def test_a_split_ack_ends_in_one_conviction_one_log_and_the_end_of_the_game() -> None:
    # Seat 0 alone gets the wrong ACK first and finds a wrong state hash; the others get the
    # right one first and find a fork once seat 0 forwards the wrong one. On main they keep
    # different convictions and write different logs.
    mesh = _play(5, 4, {0}, 1)
    _assert_converged(mesh, 4)
    assert mesh.protos[0].replica.convicted[4].rule == "fork"
    assert not TOY.alive(mesh.protos[0].state)[4]
    assert any(e.kind == "eject" and e.seat == 4 for e in mesh.protos[0].replica.entries)


def test_a_split_value_ends_in_one_conviction_one_log_and_the_end_of_the_game() -> None:
    mesh = _play(5, 4, {0}, 1, with_value=True)
    _assert_converged(mesh, 4)


def test_a_split_ack_of_the_last_move_ends_in_one_log() -> None:
    # Seat 2 gets the wrong ACK and forwards it. Its BYE reached seat 1 through the cheat,
    # ahead of that forward, and seat 1 wrote its last block without knowing of the fork.
    mesh = _play(3, 0, {2}, 5006)
    _assert_converged(mesh, 0)


def test_a_deadline_passing_while_a_split_ack_is_in_flight_blames_only_the_cheat() -> None:
    # Before, a STALL naming the next mover read as proof that its author held every ACK. It
    # may wait on that mover's own ACK. A seat that had voted the cheat out went on without
    # the ejection, and another honest seat convicted it of playing out of turn.
    mesh = _play(4, 1, {0, 2}, 2413, early_soft=0.05)
    _assert_converged(mesh, 1)


def test_a_wrong_ack_to_every_seat_is_a_wrong_state_hash_everywhere() -> None:
    mesh = _play(4, 2, {0, 1, 3}, 0)
    _assert_converged(mesh, 2)
    assert mesh.protos[0].replica.convicted[2].rule == "wrong-state-hash"


@st.composite
def _splits(draw: st.DrawFn) -> tuple[int, int, frozenset[int], int, bool, int]:
    n = draw(st.integers(3, 5))
    rogue = draw(st.integers(0, n - 1))
    others = [i for i in range(n) if i != rogue]
    wrong_to = draw(st.frozensets(st.sampled_from(others), min_size=1))
    seed = draw(st.integers(0, 10_000))
    return n, rogue, wrong_to, seed, draw(st.booleans()), draw(st.integers(1, 2))


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(_splits())
def test_for_any_split_and_delivery_order_the_honest_logs_end_identical(
        case: tuple[int, int, frozenset[int], int, bool, int]) -> None:
    n, rogue, wrong_to, seed, with_value, nth = case
    mesh = _play(n, rogue, wrong_to, seed, with_value=with_value, nth=nth)
    if not mesh.protos[rogue].acted():  # the game ended before the rogue's ACK came
        return
    _assert_converged(mesh, rogue)


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(_splits(), st.sampled_from([0.02, 0.05, 0.2]))
def test_for_any_split_with_deadlines_passing_in_flight_the_honest_seats_agree(
        case: tuple[int, int, frozenset[int], int, bool, int], early_soft: float) -> None:
    n, rogue, wrong_to, seed, with_value, nth = case
    mesh = _play(n, rogue, wrong_to, seed, with_value=with_value, nth=nth,
                 early_soft=early_soft)
    if not mesh.protos[rogue].acted():
        return
    _assert_converged(mesh, rogue, exact=False)
