"""Maverick seats: honest seats detect each misbehaviour, keep playing, and their logs prove it."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from kotp2p.net.files import parse_log
from kotp2p.net.peer import PeerProtocol, Send
from kotp2p.net.verify import verify_logs
from kotp2p.net.wire import Envelope, Kind, Value
from tests.net import mavericks as M
from tests.net.harness import Mesh, build_mesh
from tests.net.toy import ToyEngine, toy_choose

TOY = ToyEngine()
MAVERICK = 1


def _play(cls: type[PeerProtocol], seed: int, hard_after: int | None = None) -> Mesh:
    _, mesh = build_mesh(TOY, 4, lambda seat, st: toy_choose(TOY, st, seat), seed=seed,
                         rng=random.Random(seed), slots=2, factories={MAVERICK: cls})
    mesh.start()
    mesh.run(hard_after=hard_after)
    return mesh


HONEST = [0, 2, 3]


@pytest.mark.parametrize("cls", M.CONVICTED, ids=lambda c: c.rule)
@pytest.mark.parametrize("seed", [0, 1])
def test_honest_seats_convict_the_maverick_finish_and_their_logs_name_it(
    cls: type[M.Maverick], seed: int
) -> None:
    mesh = _play(cls, seed)
    for i in HONEST:
        assert mesh.protos[i].is_over, f"seat {i} did not finish"
        rules = [(v.rule, v.seat) for v in mesh.violations[i]]
        assert rules == [(cls.rule, MAVERICK)], rules
    assert len({mesh.protos[i].replica.point.digest for i in HONEST}) == 1
    steps = {mesh.violations[i][0].step for i in HONEST}
    assert len(steps) == 1
    for i in HONEST:
        verdict = verify_logs([parse_log(bytes(mesh.logs[i]))], TOY)
        assert verdict.status == "INVALID"
        assert verdict.fault is not None
        assert (verdict.fault.rule, verdict.fault.seat, verdict.fault.step) == (
            cls.rule, MAVERICK, *steps)
        alone = verify_logs([parse_log(verdict.evidence)], TOY)
        assert alone.fault is not None and alone.fault.rule == cls.rule
        assert len(verdict.evidence) <= len(mesh.logs[i]) + 2000
    # the maverick was ejected and the others played on to the end
    assert not TOY.alive(mesh.protos[0].state)[MAVERICK]


@pytest.mark.parametrize("cls", M.REJECTED, ids=lambda c: c.rule)
def test_frames_that_fail_their_signature_are_rejected_and_the_game_is_unharmed(
    cls: type[M.Maverick],
) -> None:
    mesh = _play(cls, 0)
    for i in HONEST:
        assert mesh.protos[i].is_over
        assert any("bad signature" in r for r in mesh.rejected[i])
        assert mesh.violations[i] == []
        assert verify_logs([parse_log(bytes(mesh.logs[i]))], TOY).status == "VALID"


def test_a_seat_withholding_its_values_is_ejected_and_the_game_verifies() -> None:
    mesh = _play(M.Withholder, 0, hard_after=2)
    for i in HONEST:
        assert mesh.protos[i].is_over
        assert verify_logs([parse_log(bytes(mesh.logs[i]))], TOY).status == "VALID"
    assert any(e.kind == "eject" and e.seat == MAVERICK for e in mesh.protos[0].replica.entries)


def test_an_ejected_seat_that_speaks_again_later_is_not_convicted_by_verify() -> None:
    mesh = _play(M.Withholder, 1, hard_after=2)  # it withholds a value for a random event
    late = mesh.protos[MAVERICK]
    assert late.is_over and not TOY.alive(late.replica.state)[MAVERICK]
    chat = [ev.frame for ev in late.chat("sorry, my network went down") if isinstance(ev, Send)]
    genesis = mesh.protos[0].genesis
    logs = [parse_log(bytes(mesh.logs[0])), parse_log(genesis.frame() + chat[0])]
    # verify reads the withholder's CHAT from the last step while it replays the step where its
    # value was due: the stored votes to eject it there say why it moved on
    verdict = verify_logs(logs, TOY)
    assert verdict.status == "VALID", verdict.render()


class WrongResultSigner(M.MaverickSigner):
    def seal(self, kind: Kind, step: int, head: bytes, payload: Sequence[Value] = (),
             reveals: Sequence[tuple[int, bytes, bytes | None]] = (),
             state_hash: bytes = b"") -> Envelope:
        if kind is Kind.BYE:
            payload = [[] if self.engine.winners(self.maverick.replica.state) else [0]]
        return super().seal(kind, step, head, payload, reveals, state_hash)


class WrongResult(M.Maverick):
    """Claims another winner in its closing BYE."""

    signer_type = WrongResultSigner


def test_a_false_claim_of_the_result_is_caught() -> None:
    mesh = _play(WrongResult, 0)
    assert TOY.alive(mesh.protos[0].state)[MAVERICK], "the maverick survives to make its claim"
    assert [(v.rule, v.seat) for v in mesh.violations[0]] == [("wrong-result", MAVERICK)]
    verdict = verify_logs([parse_log(bytes(mesh.logs[0]))], TOY)
    assert verdict.status == "INVALID" and verdict.fault is not None
    assert (verdict.fault.rule, verdict.fault.seat) == ("wrong-result", MAVERICK)
