"""Envelopes and the genesis: signed bytes, checked before decoding, never re-encoded."""

from __future__ import annotations

import contextlib
import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kotp2p.net.trust import (
    Genesis,
    SeatInfo,
    make_genesis,
    parse_genesis_frame,
    sign_genesis,
)
from kotp2p.net.trust.words import WORDS, check_words
from kotp2p.net.wire import (
    DOMAIN,
    Identity,
    Kind,
    RemoteProtocolError,
    codec,
    envelope_id,
    open_envelope,
    seal,
)

ALICE = Identity.from_seed(b"a" * 32, "Alice")
BOB = Identity.from_seed(b"b" * 32, "Bob")
GAME = hashlib.sha256(b"game").digest()
KEYS = (ALICE.public_key, BOB.public_key)


def _move(**over: object) -> bytes:
    fields: dict[str, object] = dict(
        game_id=GAME, author=1, seq=3, prev=b"\x01" * 32, head=b"\x02" * 32, step=9,
        kind=Kind.MOVE, payload=[[0, 1]], reveals=[(5, b"\x03" * 32, None)],
        state_hash=b"\x04" * 32,
    )
    fields.update(over)
    return seal(BOB, **fields).frame  # type: ignore[arg-type]


def test_sealed_envelope_opens_to_the_same_fields() -> None:
    frame = _move()
    env = open_envelope(frame[4:], GAME, KEYS)
    assert (env.author, env.seq, env.step, env.kind) == (1, 3, 9, Kind.MOVE)
    assert env.payload == [[0, 1]]
    assert env.reveal_for(5) == b"\x03" * 32
    assert env.id == envelope_id(env.body) == hashlib.sha256(env.body).digest()
    assert env.frame == frame


def test_signature_is_checked_over_the_received_bytes_not_a_re_encoding() -> None:
    # A body using a wider integer encoding than msgpack would choose still verifies and keeps
    # its own id: nothing is re-encoded.
    canonical = codec.unpack(seal(BOB, game_id=GAME, author=1, seq=0, prev=GAME, head=GAME,
                                  step=0, kind=Kind.CHAT, payload=["hi"]).frame[4:])[0]
    wide = canonical.replace(b"\x01\x00\xc4 ", b"\x01\xcd\x00\x00\xc4 ", 1)  # seq as uint16
    assert wide != canonical
    env = open_envelope(codec.pack([wide, BOB.sign(DOMAIN + wide)]), GAME, KEYS)
    assert env.seq == 0 and env.id == hashlib.sha256(wide).digest() != envelope_id(canonical)


def test_any_flipped_byte_is_refused() -> None:
    frame = bytearray(_move())
    for i in range(4, len(frame), 7):
        bad = bytearray(frame)
        bad[i] ^= 0x20
        with pytest.raises(RemoteProtocolError):
            open_envelope(bytes(bad[4:]), GAME, KEYS)


def test_signed_by_another_seat_is_refused() -> None:
    env = open_envelope(_move()[4:], GAME, KEYS)
    forged = codec.pack([env.body, ALICE.sign(DOMAIN + env.body)])
    with pytest.raises(RemoteProtocolError, match="not signed by seat 1"):
        open_envelope(forged, GAME, KEYS)


@pytest.mark.parametrize(
    ("frame", "why"),
    [
        (_move(game_id=b"\x09" * 32), "another game"),
        (_move(author=5), "seat below 2"),
    ],
)
def test_wrong_game_or_seat_is_named(frame: bytes, why: str) -> None:
    with pytest.raises(RemoteProtocolError, match=why):
        open_envelope(frame[4:], GAME, KEYS)


@pytest.mark.parametrize(
    ("fields", "why"),
    [
        ([1, GAME, 1, -1, GAME, GAME, 0, 1, [], [], b""], "seq"),
        ([1, GAME, 1, 0, b"x", GAME, 0, 1, [], [], b""], "prev"),
        ([1, GAME, 1, 0, GAME, GAME, 0, 99, [], [], b""], "kind"),
        ([1, GAME, 1, 0, GAME, GAME, 0, 6, [], [], b""], "unknown envelope kind 6"),  # once EVIDENCE
        ([1, GAME, 1, 0, GAME, GAME, 0, 1, {}, [], b""], "payload"),
        ([1, GAME, 1, 0, GAME, GAME, 0, 1, [], [[0, GAME]], b""], "reveal"),
        ([1, GAME, 1, 0, GAME, GAME, 0, 1, [], [], b"abc"], "state_hash"),
        ([1, GAME, 1, 0, GAME, GAME, 0, 1, [], []], "body of version 1"),
    ],
)
def test_well_signed_but_malformed_bodies_are_refused_with_the_field(
    fields: list[object], why: str
) -> None:
    body = codec.pack(fields)
    with pytest.raises(RemoteProtocolError, match=why):
        open_envelope(codec.pack([body, BOB.sign(DOMAIN + body)]), GAME, KEYS)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_mutated_frames_only_ever_give_the_typed_error(data: st.DataObject) -> None:
    frame = bytearray(_move()[4:])
    for _ in range(data.draw(st.integers(1, 4))):
        op = data.draw(st.sampled_from(["flip", "cut", "insert"]))
        i = data.draw(st.integers(0, max(0, len(frame) - 1)))
        if op == "flip" and frame:
            frame[i] ^= data.draw(st.integers(1, 255))
        elif op == "cut":
            del frame[i:]
        else:
            frame[i:i] = data.draw(st.binary(min_size=1, max_size=8))
    with contextlib.suppress(RemoteProtocolError):
        open_envelope(bytes(frame), GAME, KEYS)


def _genesis() -> Genesis:
    seats = [SeatInfo(i.public_key, i.name, m, b"\x05" * 32, b"\x06" * 32)
             for i, m in ((ALICE, "The King"), (BOB, "Alienoid"))]
    g = make_genesis("engine-1", [None], seats, b"nonce")
    return g.with_signatures([sign_genesis(g, ALICE), sign_genesis(g, BOB)])


def test_genesis_round_trips_and_every_seat_signs_it() -> None:
    g = _genesis()
    back = parse_genesis_frame(g.frame()[4:])
    assert back == g and back.game_id == hashlib.sha256(g.body).digest()
    assert back.bad_signatures() == []
    assert g.with_signatures([g.signatures[0]]).bad_signatures() == [1]
    assert g.with_signatures(list(reversed(g.signatures))).bad_signatures() == [0, 1]


def test_check_words_are_four_words_that_differ_between_games() -> None:
    words = check_words(_genesis().game_id)
    assert len(words) == 4 and all(w in WORDS for w in words)
    assert words == check_words(_genesis().game_id)
    assert words != check_words(b"\x00" * 32)
