"""The genesis record: what every seat signs before play, and the ``game_id`` derived from it.

Layout::

    genesis body = msgpack [version, engine_id, options, chain_length, nonce, seats]
    seat         = [public_key, name, monster, dice_anchor, peek_anchor, [slot commitment, ...]]

    genesis frame payload = msgpack ["kotp2p-genesis", body, [sig of seat 0, sig of seat 1, ...]]
    sig_i = Ed25519(key_i, GENESIS_DOMAIN || body)
    game_id = SHA-256(body)

``options`` is the rules engine's setup options in wire form. A ``.kotlog`` starts with the genesis
frame. The magic string in it is how a log file is recognised.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from kotp2p.net.trust.chain import CHAIN_LENGTH
from kotp2p.net.wire import (
    Identity,
    RemoteProtocolError,
    Value,
    codec,
    fingerprint,
    safe_text,
    verify_signature,
)

GENESIS_VERSION = 1
GENESIS_MAGIC = "kotp2p-genesis"
GENESIS_DOMAIN = b"kotp2p genesis v1\x00"
MAX_SEATS = 6
MIN_SEATS = 2


@dataclass(frozen=True)
class SeatInfo:
    """One seat as the genesis fixes it."""

    public_key: bytes
    name: str
    monster: str
    anchor: bytes
    peek_anchor: bytes
    slots: tuple[bytes, ...] = ()

    @property
    def fingerprint(self) -> str:
        """Short fingerprint of the seat's key."""
        return fingerprint(self.public_key)

    @property
    def label(self) -> str:
        """``name (monster)``, terminal-safe: how the seat is named to a user."""
        return f"{safe_text(self.name, 40)} ({safe_text(self.monster, 40)})"

    def to_wire(self) -> list[Value]:
        """Positional wire form."""
        return [self.public_key, self.name, self.monster, self.anchor, self.peek_anchor,
                list(self.slots)]


def short_id(game_id: bytes) -> str:
    """The first 16 hex digits of ``game_id``: how a game is named to users and its log file."""
    return game_id.hex()[:16]


@dataclass(frozen=True)
class Genesis:
    """The decoded genesis record plus its exact bytes and signatures."""

    body: bytes
    engine_id: str
    options: Value
    chain_length: int
    nonce: bytes
    seats: tuple[SeatInfo, ...]
    signatures: tuple[bytes, ...]

    # game_id and keys are read for every envelope received, so each is made once per object.
    # The fields they derive from are frozen.
    @cached_property
    def game_id(self) -> bytes:
        """SHA-256 of the genesis body."""
        return hashlib.sha256(self.body).digest()

    @cached_property
    def keys(self) -> tuple[bytes, ...]:
        """Every seat's public key, in seat order."""
        return tuple(s.public_key for s in self.seats)

    @property
    def monsters(self) -> tuple[str, ...]:
        """Every seat's monster, in seat order."""
        return tuple(s.monster for s in self.seats)

    @property
    def n(self) -> int:
        """Number of seats."""
        return len(self.seats)

    def frame_payload(self) -> bytes:
        """The genesis frame payload, without the length prefix."""
        return codec.pack([GENESIS_MAGIC, self.body, list(self.signatures)])

    def frame(self) -> bytes:
        """The whole genesis frame, as it starts a ``.kotlog``."""
        return codec.frame(self.frame_payload())

    def bad_signatures(self) -> list[int]:
        """The seats whose genesis signature is missing or invalid."""
        return [
            i
            for i, seat in enumerate(self.seats)
            if i >= len(self.signatures)
            or not verify_signature(seat.public_key, self.signatures[i], GENESIS_DOMAIN + self.body)
        ]

    def with_signatures(self, signatures: Sequence[bytes]) -> Genesis:
        """The same genesis with these signatures."""
        return Genesis(self.body, self.engine_id, self.options, self.chain_length, self.nonce,
                       self.seats, tuple(signatures))


def make_genesis(
    engine_id: str,
    options: Value,
    seats: Sequence[SeatInfo],
    nonce: bytes,
    chain_length: int = CHAIN_LENGTH,
) -> Genesis:
    """An unsigned genesis.

    Collect each seat's :func:`sign_genesis` to complete it.
    """
    body = codec.pack([GENESIS_VERSION, engine_id, options, chain_length, nonce,
                       [s.to_wire() for s in seats]])
    return parse_genesis_body(body, ())


def sign_genesis(genesis: Genesis, identity: Identity) -> bytes:
    """This identity's signature of the genesis."""
    return identity.sign(GENESIS_DOMAIN + genesis.body)


def is_genesis_payload(value: Value) -> bool:
    """True when a decoded frame payload looks like a genesis frame."""
    return isinstance(value, list) and len(value) == 3 and value[0] == GENESIS_MAGIC


def parse_genesis_frame(payload: bytes) -> Genesis:
    """Decode a genesis frame payload.

    The signatures are not checked here; ``bad_signatures`` does that.

    :raises RemoteProtocolError: it is not a genesis frame.
    """
    value = codec.unpack(payload)
    if not is_genesis_payload(value):
        raise RemoteProtocolError(f"expected a genesis frame ['{GENESIS_MAGIC}', body, sigs]")
    _, body, sigs = value
    if not isinstance(body, bytes) or not isinstance(sigs, list):
        raise RemoteProtocolError("genesis frame: expected a bin body and an array of signatures")
    if not all(isinstance(s, bytes) for s in sigs):
        raise RemoteProtocolError("genesis signatures: expected bin values")
    return parse_genesis_body(body, tuple(sigs))


def _is_bytes(v: object, n: int) -> bool:
    return isinstance(v, bytes) and len(v) == n


def parse_genesis_body(body: bytes, signatures: tuple[bytes, ...]) -> Genesis:
    """Decode a genesis body.

    :raises RemoteProtocolError: any field of the wrong type or out of range.
    """
    v = codec.unpack(body)
    if not isinstance(v, list) or len(v) != 6:
        raise RemoteProtocolError("genesis body: expected 6 fields")
    version, engine_id, options, chain_length, nonce, seats = v
    if version != GENESIS_VERSION:
        raise RemoteProtocolError(f"genesis version {version!r}, {GENESIS_VERSION} expected")
    if not isinstance(engine_id, str):
        raise RemoteProtocolError("genesis engine_id: expected a string")
    if not isinstance(chain_length, int) or not 2 <= chain_length <= CHAIN_LENGTH:
        raise RemoteProtocolError(f"genesis chain length: expected 2..{CHAIN_LENGTH}")
    if not isinstance(nonce, bytes):
        raise RemoteProtocolError("genesis nonce: expected bytes")
    if not isinstance(seats, list) or not MIN_SEATS <= len(seats) <= MAX_SEATS:
        raise RemoteProtocolError(f"genesis: expected {MIN_SEATS} to {MAX_SEATS} seats")
    infos = []
    for i, s in enumerate(seats):
        if (
            not isinstance(s, list)
            or len(s) != 6
            or not _is_bytes(s[0], 32)
            or not isinstance(s[1], str)
            or not isinstance(s[2], str)
            or not _is_bytes(s[3], 32)
            or not _is_bytes(s[4], 32)
            or not isinstance(s[5], list)
            or not all(_is_bytes(c, 32) for c in s[5])
        ):
            raise RemoteProtocolError(
                f"genesis seat {i}: expected [key, name, monster, anchor, peek anchor, slots]"
            )
        infos.append(SeatInfo(s[0], s[1], s[2], s[3], s[4], tuple(s[5])))
    if len({s.public_key for s in infos}) != len(infos):
        raise RemoteProtocolError("genesis: two seats share one key")
    return Genesis(body, engine_id, options, chain_length, nonce, tuple(infos), signatures)
