"""Signed envelopes: the unit of everything players say to each other, on the wire and in the log.

The layout is versioned and positional, like Fernet::

    frame    = u32 big-endian length || msgpack [body: bin, sig: bin(64)]
    body     = msgpack [version, game_id, author, seq, prev, head, step, kind, payload, reveals,
                        state_hash]
    sig      = Ed25519(author key, DOMAIN || body)
    id       = SHA-256(body)

``prev`` is the id of the author's previous envelope, or ``game_id`` before the first. So each
author's envelopes form a hash chain, and two envelopes with one ``(author, seq)`` are a fork.
``head`` is the id of the last global entry the author applied. ``step`` is the number of global
entries applied before it; moves and ejections are global entries. ``reveals`` is a list of
``[k, x_k]`` or ``[k, x_k, next_anchor]``; :mod:`kotp2p.net.trust.chain` explains them.

Verification never re-encodes anything. :func:`open_envelope` reads the author seat from the fixed
first bytes of the body. They are an 11-element array, version 1, a 32-byte ``bin8`` game id and a
positive fixint seat. It checks the signature over the received bytes. Only then does it decode
the body.
"""

from __future__ import annotations

import enum
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field

from kotp2p.net.wire import codec
from kotp2p.net.wire.codec import Value
from kotp2p.net.wire.errors import RemoteProtocolError
from kotp2p.net.wire.identity import Identity, verify_signature

VERSION = 1
DOMAIN = b"kotp2p envelope v1\x00"
ID_SIZE = 32
SIG_SIZE = 64
MAX_REVEALS = 4
MAX_BODY = 1 << 16
"""Largest envelope body we accept, 64 KiB.

An honest body is a few hundred bytes. A MOVE with many peek openings is a few KiB. A peer may have
us hold up to ``protocol.MAX_AHEAD`` envelopes per seat ahead of the game. This cap keeps them
within a bounded amount of memory."""

# The fixed prefix before game_id is array(11), version 1, bin8 of 32 bytes. The author follows.
_PREFIX = bytes([0x9B, VERSION, 0xC4, ID_SIZE])
_AUTHOR_AT = len(_PREFIX) + ID_SIZE


class Kind(enum.IntEnum):
    """What an envelope says."""

    MOVE = 1  # A decision of the pending seat. Payload: the action in wire form.
    ACK = 2  # Applied a move or reached a random event. Holds state_hash and the acker's reveal.
    OPEN = 3  # A hidden slot or peek opened. Payload: [what, index, ...].
    STALL = 4  # "I am waiting for seat X". Payload: [seat].
    EJECT = 5  # "Eliminate absent seat X now". Payload: [seat].
    # 6 is kept unused: it was EVIDENCE, which no version ever sent.
    CHAT = 7  # Payload: [text].
    BYE = 8  # Leaving for good. Payload: [].


_KINDS = {k.value: k for k in Kind}


def envelope_id(body: bytes) -> bytes:
    """The id of an envelope: SHA-256 of its body bytes."""
    return hashlib.sha256(body).digest()


@dataclass(frozen=True)
class Envelope:
    """A verified, decoded envelope together with the exact bytes it arrived as."""

    body: bytes
    sig: bytes
    id: bytes
    game_id: bytes
    author: int
    seq: int
    prev: bytes
    head: bytes
    step: int
    kind: Kind
    payload: list[Value]
    reveals: tuple[tuple[int, bytes, bytes | None], ...]
    state_hash: bytes
    frame: bytes = field(repr=False)

    def reveal_for(self, k: int) -> bytes | None:
        """This envelope's chain value for random event ``k``, if it carries one."""
        for rk, x, _ in self.reveals:
            if rk == k:
                return x
        return None

    def describe(self) -> str:
        """``"MOVE #5 by seat 2 (step 17)"``: how reports name an envelope."""
        return f"{self.kind.name} #{self.seq} by seat {self.author} (step {self.step})"


def seal(
    identity: Identity,
    *,
    game_id: bytes,
    author: int,
    seq: int,
    prev: bytes,
    head: bytes,
    step: int,
    kind: Kind,
    payload: Sequence[Value] = (),
    reveals: Sequence[tuple[int, bytes, bytes | None]] = (),
    state_hash: bytes = b"",
) -> Envelope:
    """Encode, sign and frame a new envelope by ``identity`` sitting at seat ``author``."""
    wire_reveals = [[k, x] if nxt is None else [k, x, nxt] for k, x, nxt in reveals]
    body = codec.pack(
        [VERSION, game_id, author, seq, prev, head, step, int(kind), list(payload),
         wire_reveals, state_hash]
    )
    sig = identity.sign(DOMAIN + body)
    raw = codec.frame(codec.pack([body, sig]))
    return _built(body, sig, envelope_id(body), game_id, author, seq, prev, head, step, kind,
                  list(payload), tuple((k, x, nxt) for k, x, nxt in reveals), state_hash, raw)


def _built(body: bytes, sig: bytes, env_id: bytes, game_id: bytes, author: int, seq: int,
           prev: bytes, head: bytes, step: int, kind: Kind, payload: list[Value],
           reveals: tuple[tuple[int, bytes, bytes | None], ...], state_hash: bytes,
           frame: bytes) -> Envelope:
    """An :class:`Envelope` of fields already checked or made here.

    The frozen dataclass's ``__init__`` sets its 14 fields one ``object.__setattr__`` at a time.
    That is a quarter of the decoding, and every envelope of a log is decoded. So they are set
    here in one step. The fields, the values and the frozen object are the same."""
    env: Envelope = object.__new__(Envelope)
    env.__dict__.update(
        body=body, sig=sig, id=env_id, game_id=game_id, author=author, seq=seq, prev=prev,
        head=head, step=step, kind=kind, payload=payload, reveals=reveals,
        state_hash=state_hash, frame=frame,
    )
    return env


class ForeignEnvelope(RemoteProtocolError):
    """An envelope of another game, whose game_id differs. It is set aside and says nothing here."""


class UnsignedFrame(RemoteProtocolError):
    """Bytes that are not an envelope signed by the seat they name.

    They prove nothing about anybody: they may be damage, or a stranger's. ``author`` is the seat
    the bytes name, if they name one."""

    def __init__(self, reason: str, author: int | None = None) -> None:
        super().__init__(reason)
        self.author = author


class SignedMalformed(RemoteProtocolError):
    """An envelope whose signature checks but whose body breaks the layout.

    Its ``author`` signed it, so it is that seat's violation. The whole frame is the proof."""

    def __init__(self, reason: str, author: int, frame: bytes) -> None:
        super().__init__(reason)
        self.author = author
        self.frame = frame


_SIG_TAIL = bytes([0xC4, SIG_SIZE])


def split_frame(payload: bytes) -> tuple[bytes, bytes]:
    """The ``(body, sig)`` of an envelope frame's payload, the bytes after the length.

    The layout is fixed: ``0x92``, the body as ``bin`` in its shortest header, then ``bin8`` of 64
    bytes. So it is read by offsets. Nothing is unpacked or allocated before the signature check.

    :raises UnsignedFrame: not ``[bin, bin(64)]`` in that exact encoding.
    """
    n = len(payload)
    if n < 4 + SIG_SIZE + 2 or payload[0] != 0x92:
        raise UnsignedFrame("expected an envelope [body: bin, sig: bin(64)]")
    t = payload[1]
    if t == 0xC4:
        start, size = 3, payload[2]
    elif t == 0xC5:
        start, size = 4, int.from_bytes(payload[2:4], "big")
        if size < 0x100:
            size = -1
    elif t == 0xC6:
        start, size = 6, int.from_bytes(payload[2:6], "big")
        if size < 0x10000:
            size = -1
    else:
        size = -1
    if size < 0 or start + size + 2 + SIG_SIZE != n or payload[start + size : start + size + 2] \
            != _SIG_TAIL:
        raise UnsignedFrame("expected an envelope [body: bin, sig: bin(64)] in its shortest "
                            "encoding")
    if size > MAX_BODY:
        raise UnsignedFrame(f"envelope body of {size} bytes, at most {MAX_BODY} expected")
    return payload[start : start + size], payload[n - SIG_SIZE :]


def peek_author(body: bytes, game_id: bytes, seats: int) -> int:
    """The author seat from the fixed prefix of ``body``, without decoding it.

    :raises ForeignEnvelope: another game's envelope.
    :raises UnsignedFrame: wrong version, or no such seat.
    """
    if len(body) <= _AUTHOR_AT or body[: len(_PREFIX)] != _PREFIX:
        raise UnsignedFrame(f"expected an envelope body of version {VERSION}")
    if body[len(_PREFIX) : _AUTHOR_AT] != game_id:
        raise ForeignEnvelope("envelope of another game (game_id differs)")
    author = body[_AUTHOR_AT]
    if author >= seats:
        raise UnsignedFrame(f"author seat {author}: expected a seat below {seats}")
    return author


def signer_of(body: bytes, sig: bytes, keys: Sequence[bytes]) -> int | None:
    """The seat whose key made ``sig`` over ``body``, if any.

    It is for a frame whose named author did not sign it."""
    for j, key in enumerate(keys):
        if verify_signature(key, sig, DOMAIN + body):
            return j
    return None


def open_envelope(payload: bytes, game_id: bytes, keys: Sequence[bytes]) -> Envelope:
    """Check and decode one envelope frame payload of the game ``game_id``.

    ``keys`` are the seat keys.

    The signature is checked over the received body bytes before the body is decoded.

    :raises ForeignEnvelope: another game's.
    :raises UnsignedFrame: not an envelope signed by the seat it names.
    :raises SignedMalformed: signed by its author, but the body breaks the layout.
    """
    body, sig = split_frame(payload)
    return open_split(payload, body, sig, game_id, keys)


def open_split(
    payload: bytes, body: bytes, sig: bytes, game_id: bytes, keys: Sequence[bytes],
    env_id: bytes | None = None,
) -> Envelope:
    """:func:`open_envelope` of a ``payload`` the caller already split.

    ``body`` and ``sig`` come from :func:`split_frame`. ``env_id`` is the body's id, if the caller
    hashed it already. So each step is done once.

    :raises ForeignEnvelope: another game's.
    :raises UnsignedFrame: not an envelope signed by the seat it names.
    :raises SignedMalformed: signed by its author, but the body breaks the layout.
    """
    author = peek_author(body, game_id, len(keys))
    if not verify_signature(keys[author], sig, DOMAIN + body):
        raise UnsignedFrame(f"bad signature: not signed by seat {author}'s key", author)
    raw = codec.frame(payload)
    try:
        return decode_body(body, sig, raw, env_id)
    except RemoteProtocolError as exc:
        raise SignedMalformed(f"seat {author} signed a malformed envelope: {exc.reason}", author,
                              raw) from None


def _is_id(v: object) -> bool:
    return isinstance(v, bytes) and len(v) == ID_SIZE


_UINT_END = 1 << 63


def _is_uint(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < _UINT_END


def decode_body(body: bytes, sig: bytes, raw: bytes, env_id: bytes | None = None) -> Envelope:
    """Decode a body whose signature has already been checked.

    ``env_id`` is its id, if known.

    :raises RemoteProtocolError: a field has the wrong type or range.
    """
    v = codec.unpack(body)
    if not isinstance(v, list) or len(v) != 11:
        raise RemoteProtocolError("expected an envelope body of 11 fields")
    version, game_id, author, seq, prev, head, step, kind, payload, reveals, state_hash = v
    if version != VERSION:
        raise RemoteProtocolError(f"envelope version {version!r}, {VERSION} expected")
    # Each pair of checks starts with one test that holds for every well-formed body. It tests
    # exact types, as msgpack makes them. When it fails, the field-by-field check names the first
    # bad field.
    if not (type(game_id) is bytes and len(game_id) == ID_SIZE and type(prev) is bytes
            and len(prev) == ID_SIZE and type(head) is bytes and len(head) == ID_SIZE):
        for name, value in (("game_id", game_id), ("prev", prev), ("head", head)):
            if not _is_id(value):
                raise RemoteProtocolError(f"{name}: expected {ID_SIZE} bytes")
    if not (type(author) is int and type(seq) is int and type(step) is int
            and 0 <= author < _UINT_END and 0 <= seq < _UINT_END and 0 <= step < _UINT_END):
        for name, value in (("author", author), ("seq", seq), ("step", step)):
            if not _is_uint(value):
                raise RemoteProtocolError(f"{name}: expected a non-negative integer, got "
                                          f"{value!r}")
    known = _KINDS.get(kind) if type(kind) is int else None
    if known is None:
        raise RemoteProtocolError(f"unknown envelope kind {kind!r}")
    kind = known
    if not isinstance(payload, list):
        raise RemoteProtocolError("payload: expected an array")
    if not isinstance(state_hash, bytes) or len(state_hash) not in (0, ID_SIZE):
        raise RemoteProtocolError(f"state_hash: expected empty or {ID_SIZE} bytes")
    if not isinstance(reveals, list) or len(reveals) > MAX_REVEALS:
        raise RemoteProtocolError(f"reveals: expected an array of at most {MAX_REVEALS}")
    parsed: list[tuple[int, bytes, bytes | None]] = []
    for r in reveals:
        if (type(r) is list and len(r) == 2 and type(r[0]) is int and 1 <= r[0] < _UINT_END
                and type(r[1]) is bytes and len(r[1]) == ID_SIZE):
            parsed.append((r[0], r[1], None))  # The common reveal, as the check below takes it.
            continue
        if (
            not isinstance(r, list)
            or len(r) not in (2, 3)
            or not _is_uint(r[0])
            or r[0] < 1
            or not _is_id(r[1])
            or (len(r) == 3 and not _is_id(r[2]))
        ):
            raise RemoteProtocolError(
                "reveal: expected [k >= 1, 32 bytes] or [k >= 1, 32 bytes, anchor]"
            )
        parsed.append((r[0], r[1], r[2] if len(r) == 3 else None))
    return _built(body, sig, envelope_id(body) if env_id is None else env_id, game_id, author,
                  seq, prev, head, step, kind, payload, tuple(parsed), state_hash, raw)
