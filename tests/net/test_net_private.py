"""Private random events (a "Made in a Lab" peek) through the whole stack: only the owner learns
the card, every replica keeps the same digest, and the opening is checked against the peek
chain at the end of the game."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence

from kotp2p import rules
from kotp2p.net.files import parse_log
from kotp2p.net.peer import Event
from kotp2p.net.trust import RulesEngine, State
from kotp2p.net.verify import verify_logs
from kotp2p.net.wire import Value
from kotp2p.rules.registry import RANDOMS, random_event
from kotp2p.rules.state import Frame
from tests.net.harness import Mesh, build_mesh, rules_chooser
from tests.net.mavericks import Maverick


def _bounds(s: rules.State, frame: Frame) -> tuple[int, ...]:
    return (len(s.deck),)


def _handle(s: rules.State, frame: Frame, values: tuple[int, ...]) -> None:
    s.slots[s.k] = rules.HIDDEN if values[0] == rules.HIDDEN else s.deck[values[0]]


if "test_peek" not in RANDOMS:
    random_event("test_peek", _bounds, _handle, private=lambda s, frame: frame[2])

PEEK = ("The King 10/0/0 @city; Giga Zaur 10/0/0 | active=0 phase=buy "
        "market=heal,tank,frenzy stack=turn:after_buy;rand:test_peek,0")


class PeekEngine(RulesEngine):
    """The real rules, starting where seat 0 is about to peek at the deck."""

    def start(self, monsters: Sequence[str], options: Value) -> State:
        return rules.from_text(PEEK)


class BadPeekOpening(Maverick):
    rule = "bad-opening"

    def open_peek(self, k: int) -> list[Event]:
        r = self.replica
        from kotp2p.net.wire import Kind

        wrong = hashlib.sha256(b"some other card").digest()
        return self.publish(self.signer.seal(Kind.OPEN, r.step, r.head, ["peek", k, wrong]))


def _play(factories: dict[int, type] | None = None) -> Mesh:
    _, mesh = build_mesh(PeekEngine(), 2, rules_chooser("random", 3), seed=3,
                         rng=random.Random(3), factories=factories)
    mesh.start()
    mesh.run()
    return mesh


def test_only_the_owner_learns_a_private_draw_until_it_is_opened() -> None:
    engine = PeekEngine()
    _, mesh = build_mesh(engine, 2, rules_chooser("random", 3), seed=3, rng=random.Random(3))
    mesh.start()
    owner, other = mesh.protos
    while 1 not in owner.replica.private:
        assert mesh.deliver_one()
    while 1 not in other.replica.private:
        assert mesh.deliver_one()
    seen_by_owner = owner.replica.entries[0].points[-1].state.slots[1]
    assert seen_by_owner != rules.HIDDEN
    assert other.replica.entries[0].points[-1].state.slots[1] == rules.HIDDEN
    assert owner.replica.entries[0].points[-1].digest == other.replica.entries[0].points[-1].digest
    mesh.run()
    assert owner.is_over and other.is_over
    assert other.state.slots[1] == seen_by_owner  # opened at the end and checked
    logs = [bytes(log) for log in mesh.logs]
    assert logs[0] == logs[1]
    assert verify_logs([parse_log(logs[0])], engine).status == "VALID"


def test_a_private_event_left_unopened_leaves_the_game_incomplete() -> None:
    mesh = _play()
    log = parse_log(bytes(mesh.logs[1]))
    from kotp2p.net.wire import Kind, open_envelope

    kept = tuple(p for p in log.payloads
                 if open_envelope(p, log.genesis.game_id, log.genesis.keys).kind is not Kind.OPEN)
    assert len(kept) == len(log.payloads) - 1
    verdict = verify_logs([log.__class__(log.genesis, kept, 0, 0)], PeekEngine())
    assert verdict.status == "INCOMPLETE"
    assert any("private random event 1" in m for m in verdict.missing)


def test_an_opening_that_is_not_on_the_peek_chain_is_caught() -> None:
    mesh = _play({0: BadPeekOpening})
    assert [(v.rule, v.seat) for v in mesh.violations[1]] == [("bad-opening", 0)]
    verdict = verify_logs([parse_log(bytes(mesh.logs[1]))], PeekEngine())
    assert verdict.status == "INVALID" and verdict.fault is not None
    assert (verdict.fault.rule, verdict.fault.seat) == ("bad-opening", 0)
