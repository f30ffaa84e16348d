"""A player with a modified client signs envelopes of every kind with payloads of every wrong
shape: no exception escapes ``receive`` or ``verify``, and the author, and only the author, is
named. Frames that cost a lot to unpack are refused before anything is unpacked."""

from __future__ import annotations

import tracemalloc

import pytest

from kotp2p.net.files import parse_log
from kotp2p.net.peer import Misbehaviour, PeerProtocol, Rejected
from kotp2p.net.verify import verify_logs
from kotp2p.net.wire import DOMAIN, Kind, Value, codec, seal
from tests.net.harness import Table, make_table
from tests.net.toy import ToyEngine

TOY = ToyEngine()
CHEAT = 1

_WRONG: list[Value] = [
    None, True, -1, 1 << 40, "x" * 600, b"\x00" * 40, [], [[]], [[1, 2]], [{"a": 1}], [None],
    [True], [-1], [3], [99], [1 << 63], ["1"], [b"\x01"], [[1], [2]], [1, 2], [0, 0, 0, 0],
    ["slot", True, b"", b""], ["slot", -1, b"s", b"c"], ["peek", 0, b"y" * 32],
    ["peek", 1, b"y"], ["peek", 1, b"y" * 32, 7], [["peek", "k", 7]], [[9, 9], ["peek"]],
    [[1, 1]], [[0, 0, 1]], ["x" * 501], [b"f"] * 17, [1, [2, [3, [4, [5]]]]],
    [0, 1], [0, None], [0, True, False], [0, True],
]
"""Payload fields of wrong types, sizes and ranges (each kind gets each one)."""


_TABLE = make_table(TOY, 3, chain_length=16)


def _table_and_proto() -> tuple[Table, PeerProtocol]:
    t = _TABLE
    proto = PeerProtocol(t.genesis, 0, t.identities[0], t.secrets[0], TOY, slots=t.decks[0])
    proto.start()
    return t, proto


def _hostile(table: Table, kind: Kind, payload: Value) -> bytes:
    g = table.genesis
    env = seal(table.identities[CHEAT], game_id=g.game_id, author=CHEAT, seq=0,
               prev=g.game_id, head=g.game_id, step=0, kind=kind,
               payload=payload if isinstance(payload, list) else [payload],
               state_hash=b"s" * 32)
    return env.frame


def _is_schema_valid(kind: Kind, payload: Value) -> bool:
    from kotp2p.net.wire import decode_body, payload_problem

    table = _TABLE
    frame = _hostile(table, kind, payload)
    body, sig = codec.unpack(frame[4:])
    return payload_problem(decode_body(body, sig, frame), 3) is None


@pytest.mark.parametrize("kind", list(Kind), ids=lambda k: k.name)
def test_every_kind_with_every_wrong_payload_names_its_author_and_nobody_else(kind: Kind) -> None:
    table, _ = _table_and_proto()
    for payload in _WRONG:
        _, proto = _table_and_proto()
        frame = _hostile(table, kind, payload)
        events = proto.receive(frame[4:], sender=CHEAT)  # must not raise
        named = {e.violation.seat for e in events if isinstance(e, Misbehaviour)}
        assert named <= {CHEAT}, (kind, payload, named)
        if not _is_schema_valid(kind, payload):
            assert [e.violation.rule for e in events if isinstance(e, Misbehaviour)] == [
                "malformed-payload"], (kind, payload, events)
        verdict = verify_logs([parse_log(table.genesis.frame() + frame)], TOY)
        assert verdict.fault is None or verdict.fault.seat == CHEAT, (kind, payload)
        assert all(f.seat == CHEAT for f in verdict.faults)
        if not _is_schema_valid(kind, payload):
            assert verdict.status == "INVALID" and verdict.fault is not None
            assert verdict.fault.rule == "malformed-payload"
            alone = verify_logs([parse_log(verdict.evidence)], TOY)
            assert alone.fault is not None and alone.fault.seat == CHEAT


def test_an_eject_naming_a_list_is_its_authors_violation_not_a_crash() -> None:
    table, proto = _table_and_proto()
    frame = _hostile(table, Kind.EJECT, [[0]])
    (ev,) = [e for e in proto.receive(frame[4:], sender=2) if isinstance(e, Misbehaviour)]
    assert (ev.violation.rule, ev.violation.seat) == ("malformed-payload", CHEAT)
    assert "EJECT names one other seat" in ev.violation.detail
    verdict = verify_logs([parse_log(table.genesis.frame() + frame)], TOY)
    assert verdict.exit_code == 1 and verdict.fault is not None
    assert (verdict.fault.rule, verdict.fault.seat) == ("malformed-payload", CHEAT)


def test_a_signed_body_that_is_not_an_envelope_is_its_signers_fault_in_verify() -> None:
    table, proto = _table_and_proto()
    g = table.genesis
    body = codec.pack([1, g.game_id, CHEAT, "seq?", g.game_id, g.game_id, 0, 7, [], [], b""])
    frame = codec.frame(codec.pack([body, table.identities[CHEAT].sign(DOMAIN + body)]))
    (ev,) = proto.receive(frame[4:], sender=CHEAT)
    assert isinstance(ev, Rejected) and "seat 1 signed a malformed envelope" in ev.reason
    verdict = verify_logs([parse_log(g.frame() + frame)], TOY)
    assert verdict.fault is not None
    assert (verdict.fault.rule, verdict.fault.seat) == ("malformed-envelope", CHEAT)


def _peak(fn: object) -> int:
    tracemalloc.start()
    try:
        fn()  # type: ignore[operator]
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_nested_array_headers_cost_nothing_before_or_after_the_signature_check() -> None:
    table, proto = _table_and_proto()
    bomb = b"\xdc\x13\x88" * 1700  # 5 KB of arrays announcing 5000 items each
    assert _peak(lambda: proto.receive(bomb, sender=2)) < 200_000
    # The same bytes as the signed body of a real seat: refused as soon as they are scanned.
    g = table.genesis
    body = bytes([0x9B, 1, 0xC4, 32]) + g.game_id + bytes([CHEAT]) + bomb
    frame = codec.pack([body, table.identities[CHEAT].sign(DOMAIN + body)])
    events: list[object] = []
    assert _peak(lambda: events.extend(proto.receive(frame, sender=CHEAT))) < 200_000
    (ev,) = events
    assert isinstance(ev, Rejected) and "nested deeper" in ev.reason


def test_a_frame_that_is_not_a_sync_or_an_envelope_is_refused_by_its_first_bytes() -> None:
    _, proto = _table_and_proto()
    for data in (b"", b"\x92", codec.pack(["sync", 1]), codec.pack(["sync", 1, 2, 3]),
                 codec.pack(["sync", True, 0]), codec.pack(["sync", 1, "x" * 40])):
        (ev,) = proto.receive(data, sender=2)
        assert isinstance(ev, Rejected), data


def test_a_signed_envelope_over_the_body_cap_is_refused_before_its_signature_is_checked() -> None:
    table, proto = _table_and_proto()
    frame = _hostile(table, Kind.OPEN, ["slot", 0, b"s", b"c" * 70_000])
    (ev,) = proto.receive(frame[4:], sender=CHEAT)
    assert isinstance(ev, Rejected) and "at most 65536 expected" in ev.reason
    assert not proto.replica.streams[CHEAT]  # not held
