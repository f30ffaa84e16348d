"""The handshake, sans-IO: two state machines wired together in memory."""

from __future__ import annotations

import hashlib
import re

import pytest

from kotp2p.net.lobby import (
    PROTOCOL_VERSION,
    AcceptorHandshake,
    ChallengeCache,
    DialerHandshake,
    HandshakeFailed,
    Peer,
    refusal,
)
from kotp2p.net.wire import Why, codec
from tests.net.lobby_kit import ident

ENGINE = "kotp2p-0.1.0+cards-abc"


def challenge(tag: str) -> bytes:
    return hashlib.sha256(b"challenge " + tag.encode()).digest()


def payloads(frames: list[bytes]) -> list[bytes]:
    out = []
    for f in frames:
        out += codec.FrameDecoder().feed(f)
    return out


def run(dialer: DialerHandshake, acceptor: AcceptorHandshake) -> tuple[Peer, Peer]:
    """Drive both sides to the end; a failure is raised as the refusing side saw it, and the
    refusal is delivered to the other side, which must fail too."""
    to_acceptor = payloads([dialer.hello()])
    while not (dialer.done and acceptor.done):
        to_dialer: list[bytes] = []
        for p in to_acceptor:
            try:
                to_dialer += payloads(acceptor.receive(p))
            except HandshakeFailed as exc:
                with pytest.raises(HandshakeFailed) as seen:
                    dialer.receive(payloads([refusal(exc.reason, exc.why)])[0])
                assert seen.value.by_peer and exc.reason in seen.value.reason
                raise
        to_acceptor = []
        for p in to_dialer:
            try:
                to_acceptor += payloads(dialer.receive(p))
            except HandshakeFailed as exc:
                with pytest.raises(HandshakeFailed) as seen:
                    acceptor.receive(payloads([refusal(exc.reason, exc.why)])[0])
                # a joiner that breaks off after the code exchange made a guess: the host says so
                assert seen.value.by_peer or seen.value.why is Why.WRONG_JOIN_CODE
                raise
    assert dialer.peer is not None and acceptor.peer is not None
    return dialer.peer, acceptor.peer


def test_both_sides_learn_each_others_key() -> None:
    alice, bob = ident("alice"), ident("bob")
    d = DialerHandshake(bob, engine_id=ENGINE, challenge=challenge("d"))
    a = AcceptorHandshake([alice], engine_id=ENGINE, challenge=challenge("a"))
    dp, ap = run(d, a)
    assert dp == Peer(alice.public_key, bob.public_key)
    assert ap == Peer(bob.public_key, alice.public_key)


def test_acceptor_serves_the_seat_the_dialer_asks_for() -> None:
    host, bot, joiner = ident("host"), ident("bot"), ident("joiner")
    d = DialerHandshake(joiner, engine_id=ENGINE, challenge=challenge("d"), to_key=bot.public_key)
    a = AcceptorHandshake([host, bot], engine_id=ENGINE, challenge=challenge("a"))
    dp, ap = run(d, a)
    assert dp.key == bot.public_key and ap.local_key == bot.public_key


@pytest.mark.parametrize(
    ("dialer_kw", "acceptor_kw", "reason"),
    [
        ({"version": PROTOCOL_VERSION + 1}, {}, "protocol version 2 offered"),
        ({"engine_id": "kotp2p-0.2.0+cards-def"}, {}, "rules engine 'kotp2p-0.2.0+cards-def'"),
        ({"context": b"game one"}, {"context": b"game two"}, "another game"),
        ({}, {"join_code": "tiger"}, "this game needs a join code"),
        ({"join_code": "lion"}, {"join_code": "tiger"}, "does not know the join code"),
        ({"join_code": "lion"}, {}, "this game has none"),
    ],
)
def test_a_mismatch_is_refused_with_a_clear_reason_on_both_sides(
    dialer_kw: dict[str, object], acceptor_kw: dict[str, object], reason: str
) -> None:
    d_kw: dict[str, object] = {"engine_id": ENGINE, "challenge": challenge("d"), **dialer_kw}
    a_kw: dict[str, object] = {"engine_id": ENGINE, "challenge": challenge("a"), **acceptor_kw}
    d = DialerHandshake(ident("bob"), **d_kw)  # type: ignore[arg-type]
    a = AcceptorHandshake([ident("alice")], **a_kw)  # type: ignore[arg-type]
    with pytest.raises(HandshakeFailed, match=re.escape(reason)):
        run(d, a)


def test_the_right_join_code_lets_the_dialer_in() -> None:
    d = DialerHandshake(ident("bob"), engine_id=ENGINE, challenge=challenge("d"), join_code="tiger")
    a = AcceptorHandshake([ident("alice")], engine_id=ENGINE, challenge=challenge("a"),
                          join_code="tiger")
    run(d, a)
    assert a.done


def test_a_key_outside_the_roster_is_refused() -> None:
    alice, bob, mallory = ident("alice"), ident("bob"), ident("mallory")
    d = DialerHandshake(mallory, engine_id=ENGINE, challenge=challenge("d"))
    a = AcceptorHandshake([alice], engine_id=ENGINE, challenge=challenge("a"),
                          roster=[alice.public_key, bob.public_key])
    with pytest.raises(HandshakeFailed, match="is not a seat of this game"):
        run(d, a)


def test_the_dialer_refuses_an_acceptor_with_another_key_than_expected() -> None:
    alice, bob, mallory = ident("alice"), ident("bob"), ident("mallory")
    d = DialerHandshake(bob, engine_id=ENGINE, challenge=challenge("d"), to_key=alice.public_key)
    a = AcceptorHandshake([mallory], engine_id=ENGINE, challenge=challenge("a"))
    with pytest.raises(HandshakeFailed, match="no seat with the key"):
        run(d, a)


def test_a_replayed_hello_is_refused() -> None:
    seen = ChallengeCache()
    alice, bob = ident("alice"), ident("bob")
    first = DialerHandshake(bob, engine_id=ENGINE, challenge=challenge("d"))
    run(first, AcceptorHandshake([alice], engine_id=ENGINE, challenge=challenge("a1"), seen=seen))
    again = AcceptorHandshake([alice], engine_id=ENGINE, challenge=challenge("a2"), seen=seen)
    with pytest.raises(HandshakeFailed, match="replayed handshake"):
        again.receive(payloads([first.hello()])[0])


def test_a_recorded_proof_does_not_open_a_new_connection() -> None:
    """A stranger replays bob's HELLO (with a new challenge) and his recorded PROOF: the acceptor's
    fresh challenge makes the old signature worthless."""
    alice, bob = ident("alice"), ident("bob")
    d = DialerHandshake(bob, engine_id=ENGINE, challenge=challenge("d"))
    a = AcceptorHandshake([alice], engine_id=ENGINE, challenge=challenge("a1"))
    reply = payloads(a.receive(payloads([d.hello()])[0]))
    d.receive(reply[0])
    recorded = payloads(d.receive(reply[1]))[0]
    replay = DialerHandshake(bob, engine_id=ENGINE, challenge=challenge("d2"))
    a2 = AcceptorHandshake([alice], engine_id=ENGINE, challenge=challenge("a2"))
    a2.receive(payloads([replay.hello()])[0])
    with pytest.raises(HandshakeFailed, match="does not hold the key"):
        a2.receive(recorded)


def test_a_proof_reflected_to_its_author_does_not_check() -> None:
    """The acceptor's own PROOF sent back to it is refused (the role is signed)."""
    alice, bob = ident("alice"), ident("bob")
    d = DialerHandshake(bob, engine_id=ENGINE, challenge=challenge("d"))
    a = AcceptorHandshake([alice], engine_id=ENGINE, challenge=challenge("a"))
    reply = payloads(a.receive(payloads([d.hello()])[0]))
    with pytest.raises(HandshakeFailed, match="does not hold the key"):
        a.receive(reply[1])


@pytest.mark.parametrize(
    "payload",
    [b"\xc1", codec.pack("hello"), codec.pack(["kotp2p-hello", 1]), codec.pack([1, 2, 3]),
     codec.pack(["kotp2p-hello", 1, "x", b"", b"short", b"", b"c" * 32])],
)
def test_garbage_is_refused_not_raised_as_a_crash(payload: bytes) -> None:
    a = AcceptorHandshake([ident("alice")], engine_id=ENGINE, challenge=challenge("a"))
    with pytest.raises(HandshakeFailed) as exc:
        a.receive(payload)
    assert not exc.value.by_peer


def test_a_refusal_reason_is_made_safe_to_print() -> None:
    d = DialerHandshake(ident("bob"), engine_id=ENGINE, challenge=challenge("d"))
    with pytest.raises(HandshakeFailed) as exc:
        d.receive(codec.pack(["kotp2p-refuse", "go away\x1b[2J" + "x" * 1000]))
    assert "\x1b" not in exc.value.reason and len(exc.value.reason) < 260
