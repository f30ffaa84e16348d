"""The seam for test peers that cheat: a signer of their own and the protocol's public methods.

The hostile tests prove what honest seats do against a cheat. They stay true only while the
cheats use the documented seam, so the protocol's internals can change under them.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from pathlib import Path

from kotp2p.net.peer import PeerProtocol, Send, Signer, StallKeeper, SyncAnswers
from kotp2p.net.wire import Envelope, Kind, Value
from tests.net.harness import build_mesh
from tests.net.toy import ToyEngine, toy_choose

TOY = ToyEngine()
TESTS = Path(__file__).resolve().parent.parent


def _private_names() -> set[str]:
    """The private methods and fields of the protocol and its member objects."""
    _, mesh = build_mesh(TOY, 3, lambda seat, st: toy_choose(TOY, st, seat), seed=1)
    mesh.start()
    mesh.run()
    p = mesh.protos[0]
    names: set[str] = set()
    for obj in (p, p.signer, p.stalls, p.sync):
        for cls in type(obj).__mro__:
            names.update(vars(cls))
        names.update(vars(obj))
    return {n for n in names if n.startswith("_") and not n.startswith("__")}


def test_no_test_touches_a_private_name_of_the_protocol_or_its_members() -> None:
    private = _private_names()
    assert {"_moved", "_accept", "_seq", "_voted", "_sent"} <= private
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        methods = [f for c in ast.walk(tree) if isinstance(c, ast.ClassDef)
                   for f in c.body if isinstance(f, ast.FunctionDef)]
        used = [a for a in ast.walk(tree) if isinstance(a, ast.Attribute)]
        found += [f"{path.relative_to(TESTS)}:{f.lineno}: def {f.name}"
                  for f in methods if f.name in private]
        found += [f"{path.relative_to(TESTS)}:{a.lineno}: .{a.attr}"
                  for a in used if a.attr in private]
    assert found == []


def test_the_signer_numbers_and_links_each_envelope_after_the_one_before() -> None:
    _, mesh = build_mesh(TOY, 2, lambda seat, st: toy_choose(TOY, st, seat), seed=2)
    p = mesh.protos[0]
    s = p.signer
    assert (s.seq, s.prev) == (0, p.genesis.game_id)
    r = p.replica
    one = s.seal(Kind.CHAT, r.step, r.head, ["one"])
    two = s.seal(Kind.CHAT, r.step, r.head, ["two"])
    assert (one.seq, one.prev, two.seq, two.prev) == (0, p.genesis.game_id, 1, one.id)
    again = Signer(p.identity, p.genesis.game_id, p.seat, p.chain, p.peek_chain, p.engine)
    again.resume(two)
    assert (again.seq, again.prev) == (2, two.id)


def test_every_envelope_the_protocol_signs_goes_through_its_signer() -> None:
    sealed: list[Envelope] = []

    class Counting(Signer):
        def seal(self, kind: Kind, step: int, head: bytes, payload: Sequence[Value] = (),
                 reveals: Sequence[tuple[int, bytes, bytes | None]] = (),
                 state_hash: bytes = b"") -> Envelope:
            env = super().seal(kind, step, head, payload, reveals, state_hash)
            sealed.append(env)
            return env

    class Watched(PeerProtocol):
        def make_signer(self) -> Signer:
            return Counting(self.identity, self.genesis.game_id, self.seat, self.chain,
                            self.peek_chain, self.engine)

    _, mesh = build_mesh(TOY, 3, lambda seat, st: toy_choose(TOY, st, seat), seed=3,
                         factories={1: Watched})
    mesh.start()
    mesh.run()
    watched = mesh.protos[1]
    assert watched.is_over and isinstance(watched.signer, Counting)
    assert isinstance(watched.stalls, StallKeeper) and watched.stalls.signer is watched.signer
    assert isinstance(watched.sync, SyncAnswers)
    mine = watched.replica.streams[1]
    assert [e.id for e in sealed] == [mine[q].id for q in sorted(mine)]
    assert {e.kind for e in sealed} >= {Kind.MOVE, Kind.ACK, Kind.BYE}


def test_a_vote_is_signed_once_per_seat_named_and_state() -> None:
    _, mesh = build_mesh(TOY, 3, lambda seat, st: toy_choose(TOY, st, seat), seed=4)
    mesh.start()
    p = mesh.protos[0]
    first = p.stalls.sign_vote(p.replica, 2)
    assert first is not None and first.kind is Kind.EJECT and first.payload[0] == 2
    assert p.stalls.sign_vote(p.replica, 2) is None
    assert p.stalls.sign_vote(p.replica, 1) is not None
    events = p.publish(first)
    assert isinstance(events[0], Send) and events[0].to == p.others == (1, 2)

