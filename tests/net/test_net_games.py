"""Whole games between protocol objects in memory: every replica agrees, every log verifies."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from kotp2p.net.files import parse_log
from kotp2p.net.peer import Event, PeerProtocol
from kotp2p.net.trust import GameEngine, RulesEngine, State
from kotp2p.net.verify import verify_logs
from tests.net.harness import Mesh, build_mesh, rules_chooser
from tests.net.toy import ToyEngine, toy_choose

TOY = ToyEngine()


def _toy_chooser(seat: int, state: State) -> object:
    return toy_choose(TOY, state, seat)


def _frames(log: bytes) -> frozenset[bytes]:
    return frozenset(parse_log(log).payloads)


def _assert_agree_and_verify(mesh: Mesh, engine: GameEngine, identical: bool = True) -> None:
    """Same final digest everywhere; byte-identical logs (or, when deadlines passed and STALLs
    went out at different moments, the same envelopes); every log and their merge VALID."""
    protos = mesh.protos
    assert all(p.is_over for p in protos)
    assert len({p.replica.point.digest for p in protos}) == 1
    logs = [bytes(log) for log in mesh.logs]
    if identical:
        assert len(set(logs)) == 1, "every replica writes a byte-identical log"
    else:
        assert len({_frames(log) for log in logs}) == 1
    for log in logs[:2]:
        verdict = verify_logs([parse_log(log)], engine)
        assert verdict.status == "VALID", verdict.render()
    merged = verify_logs([parse_log(log) for log in logs], engine)
    assert merged.status == "VALID"
    assert merged.winners == tuple(engine.winners(protos[0].state))
    assert not any(mesh.violations) and not any(mesh.rejected)


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("order", [1, 2])
def test_toy_games_under_random_delivery_orders(seats: int, order: int) -> None:
    _, mesh = build_mesh(TOY, seats, _toy_chooser, seed=order, rng=random.Random(order * 10))
    mesh.start()
    mesh.run()
    _assert_agree_and_verify(mesh, TOY)


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_rules_games_under_random_delivery_orders(seats: int) -> None:
    engine = RulesEngine()
    _, mesh = build_mesh(engine, seats, rules_chooser("random", seats), seed=seats,
                         rng=random.Random(seats))
    mesh.start()
    mesh.run()
    _assert_agree_and_verify(mesh, engine)


@pytest.mark.parametrize(("n", "seed"), [(3, 1154), (4, 9516), (5, 77)])
def test_soft_deadlines_passing_while_frames_are_in_flight_leave_every_log_identical(
        n: int, seed: int) -> None:
    # A seat whose monster died at the last step had sent a STALL first. Some replicas read it
    # after they wrote the last block, and put it after. Now each waits for the dead seat's
    # farewell, which follows its STALL.
    _, mesh = build_mesh(TOY, n, lambda seat, st: toy_choose(TOY, st, seat + seed), seed=seed,
                         rng=random.Random(seed))
    mesh.start()
    for _ in range(20):
        mesh.run(stalls=4, hard_after=3, early_soft=0.05)
        if all(p.is_over for p in mesh.protos):
            break
    mesh.close_after_grace(mesh.live())
    _assert_agree_and_verify(mesh, TOY)
    assert not any(mesh.violations)


def test_dropped_deliveries_are_recovered_by_sync() -> None:
    _, mesh = build_mesh(TOY, 4, _toy_chooser, seed=3, rng=random.Random(3), drop=0.1)
    mesh.start()
    mesh.run(stalls=50)
    mesh.close_after_grace(mesh.live())  # a lost BYE may hold the last block until then
    _assert_agree_and_verify(mesh, TOY, identical=False)


def test_chains_re_anchor_during_a_game() -> None:
    _, mesh = build_mesh(TOY, 3, _toy_chooser, seed=4, rng=random.Random(4), chain_length=5)
    mesh.start()
    mesh.run()
    assert len(mesh.protos[0].replica.resolved) > 10  # several chains were used up
    _assert_agree_and_verify(mesh, TOY)


def test_delivery_order_does_not_change_the_game() -> None:
    digests = set()
    for order in range(3):
        _, mesh = build_mesh(TOY, 3, _toy_chooser, seed=9, rng=random.Random(order))
        mesh.start()
        mesh.run()
        digests.add(bytes(mesh.logs[0]))
    assert len(digests) == 1


def test_a_seat_that_joins_late_catches_up() -> None:
    _, mesh = build_mesh(TOY, 3, _toy_chooser, seed=5, rng=random.Random(5))
    mesh.down = {2}
    mesh.start()
    mesh.run(stalls=2)
    assert not mesh.protos[0].is_over  # the game waits for the absent seat
    mesh.down = set()
    mesh.handle(2, mesh.protos[2].start())
    mesh.run(stalls=20)
    _assert_agree_and_verify(mesh, TOY, identical=False)


def test_an_absent_seat_is_ejected_after_the_hard_deadline_and_the_game_goes_on() -> None:
    _, mesh = build_mesh(TOY, 4, _toy_chooser, seed=6, rng=random.Random(6))
    mesh.down = {3}
    mesh.start()
    mesh.run(hard_after=2)
    live = [mesh.protos[i] for i in range(3)]
    assert all(p.is_over for p in live)
    assert not live[0].engine.alive(live[0].state)[3]
    assert len({_frames(bytes(mesh.logs[i])) for i in range(3)}) == 1
    verdict = verify_logs([parse_log(bytes(mesh.logs[0]))], TOY)
    assert verdict.status == "VALID", verdict.render()
    assert any(e.kind == "eject" and e.seat == 3 for e in live[0].replica.entries)


def test_protocol_object_is_per_seat() -> None:
    table, _mesh = build_mesh(TOY, 2, _toy_chooser)
    with pytest.raises(Exception, match="not this identity"):
        PeerProtocol(table.genesis, 0, table.identities[1], table.secrets[1], TOY)


def test_a_seats_events_written_through_the_log_writer_give_the_same_file(
    tmp_path: Path,
) -> None:
    from kotp2p.net.files import LogWriter, read_log
    from kotp2p.net.peer import Flush, Logged

    table, mesh = build_mesh(TOY, 3, _toy_chooser, seed=8, rng=random.Random(8))
    path = tmp_path / "seat0.kotlog"
    writer = LogWriter(path, table.genesis)
    flushes = 0
    handle = mesh.handle

    def tee(seat: int, events: list[Event]) -> None:
        nonlocal flushes
        handle(seat, events)
        if seat == 0:
            for ev in events:
                if isinstance(ev, Logged) and ev.frame != table.genesis.frame():
                    writer.append([ev.frame])
                elif isinstance(ev, Flush):
                    writer.flush()
                    flushes += 1

    mesh.handle = tee  # type: ignore[method-assign]
    mesh.start()
    mesh.run()
    writer.close()
    assert path.read_bytes() == bytes(mesh.logs[0])
    assert flushes >= mesh.protos[0].replica.step  # flushed at least once per step
    assert verify_logs([read_log(path)], TOY).status == "VALID"
