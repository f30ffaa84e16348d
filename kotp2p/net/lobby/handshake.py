"""The handshake that opens every connection: who is at the other end, and do we speak alike.

Theory of operation
-------------------
The side that connects is the *dialer*. The side that accepts is the *acceptor*. They exchange
four kinds of frame, each a msgpack array::

    dialer   -> HELLO  ["kotp2p-hello", version, engine_id, context, from_key, to_key, challenge]
    acceptor -> HELLO  its own, with to_key = the dialer's key
    acceptor -> PROOF
    dialer   -> PROOF  ["kotp2p-proof", sig, code_proof]
    acceptor -> OK     ["kotp2p-ok"]

Each PROOF signs the *other* side's fresh 32-byte challenge. So a recorded PROOF is worthless in
another connection. It also signs the signer's role, both keys, both challenges and the context::

    sig = Ed25519(signer, DOMAIN || role || context || verifier challenge || signer challenge
                          || signer key || verifier key)

The role byte keeps a PROOF from being reflected back to its author. ``context`` names what the
connection is for. It is ``b""`` in the lobby and the ``game_id`` between seats of a game. So a
handshake of one game is refused by another. The dialer proves it knows the join code without
sending it:
``code_proof = HMAC-SHA256(SHA-256(CODE_DOMAIN || code), acceptor challenge || dialer key)``.

Refusals travel as ``["kotp2p-refuse", reason, code]``, so both sides can say why. The text is for
logs. A screen chooses its sentence by the :class:`~kotp2p.net.wire.refusal.Why` code. An older
two-field refusal reads as ``other``. So does a code that a handshake refusal cannot carry. A
refusal received is shown to a user. So it goes through
:func:`~kotp2p.net.wire.safetext.safe_text`, cut to about :data:`MAX_REASON` characters.

The acceptor remembers the dialer challenges it has seen in a :class:`ChallengeCache`. A HELLO that
repeats one is a replayed handshake and is refused.

Everything here is sans-IO: challenges come in as parameters, frames go out as return values.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

from kotp2p.net.wire import (
    HANDSHAKE_CODES,
    CodecError,
    Identity,
    Refusal,
    Value,
    Why,
    codec,
    fingerprint,
    peer_code,
    safe_text,
    verify_signature,
)

log = logging.getLogger(__name__)

PROTOCOL_VERSION = 1
"""The version of the peer protocol this build speaks: handshake, lobby and envelopes."""

HELLO = "kotp2p-hello"
PROOF = "kotp2p-proof"
OK = "kotp2p-ok"
REFUSE = "kotp2p-refuse"
MAGICS = frozenset({HELLO, PROOF, OK, REFUSE})

DOMAIN = b"kotp2p handshake v1\x00"
CODE_DOMAIN = b"kotp2p join code v1\x00"
CHALLENGE_SIZE = 32
KEY_SIZE = 32
MAX_REASON = 200
MAX_HANDSHAKE_FRAME = 1024
"""No handshake frame is longer than this.

The transport caps frames at this size until the link is up.
"""

DIALER = b"D"
ACCEPTOR = b"A"


def code_key(code: str) -> bytes:
    """The HMAC key derived from a join code."""
    return hashlib.sha256(CODE_DOMAIN + code.encode("utf-8")).digest()


def code_proof(code: str | None, acceptor_challenge: bytes, dialer_key: bytes) -> bytes:
    """The dialer's proof that it knows ``code``. It is empty without a code."""
    if not code:
        return b""
    return hmac.new(code_key(code), acceptor_challenge + dialer_key, hashlib.sha256).digest()


def transcript(role: bytes, context: bytes, verifier_challenge: bytes, signer_challenge: bytes,
               signer_key: bytes, verifier_key: bytes) -> bytes:
    """The bytes a PROOF signs, as the module comment describes."""
    return b"".join([DOMAIN, role, hashlib.sha256(context).digest(), verifier_challenge,
                     signer_challenge, signer_key, verifier_key])


def refusal(reason: str, why: Why = Why.OTHER) -> bytes:
    """A framed refusal carrying ``reason`` and its code."""
    return codec.frame(codec.pack([REFUSE, reason[:MAX_REASON], why.value]))


class ChallengeCache:
    """The last ``size`` dialer challenges an acceptor has seen.

    The acceptor uses them to refuse replayed handshakes.
    """

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._seen: OrderedDict[bytes, None] = OrderedDict()

    def add(self, challenge: bytes) -> bool:
        """Remember ``challenge``; False if it was already seen."""
        if challenge in self._seen:
            return False
        self._seen[challenge] = None
        if len(self._seen) > self.size:
            self._seen.popitem(last=False)
        return True


@dataclass(frozen=True)
class Peer:
    """Who the handshake authenticated at the other end."""

    key: bytes
    local_key: bytes

    @property
    def fingerprint(self) -> str:
        """The short fingerprint of the peer's key."""
        return fingerprint(self.key)


@dataclass(frozen=True)
class Hello:
    """A decoded HELLO."""

    version: int
    engine_id: str
    context: bytes
    from_key: bytes
    to_key: bytes
    challenge: bytes

    def frame(self) -> bytes:
        """This HELLO as a frame."""
        return codec.frame(codec.pack([HELLO, self.version, self.engine_id, self.context,
                                       self.from_key, self.to_key, self.challenge]))


class HandshakeFailed(Exception):
    """The handshake failed.

    ``reason`` is shown to the user. ``by_peer`` tells who refused. ``why`` is the refusal's code.
    For a refusal the peer sent, it is the peer's code, if a handshake refusal may carry it.
    ``said`` holds the peer's own words."""

    def __init__(self, reason: str, *, by_peer: bool, why: Why = Why.OTHER,
                 said: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.by_peer = by_peer
        self.why = why
        self.said = said

    @property
    def refusal(self) -> Refusal:
        """The refusal, with code and text.

        If the peer sent words, they are its only detail.
        """
        return Refusal(self.why, self.reason, self.by_peer,
                       () if self.said is None else (self.said,))


def _decode(payload: bytes) -> list[Value]:
    try:
        value = codec.unpack(payload, max_size=MAX_HANDSHAKE_FRAME)
    except CodecError as exc:
        raise HandshakeFailed(f"garbage instead of a handshake ({exc.reason})", by_peer=False) from None
    if not isinstance(value, list) or not value or value[0] not in MAGICS:
        raise HandshakeFailed("expected a kotp2p handshake message", by_peer=False)
    if value[0] == REFUSE:
        ok = len(value) in (2, 3) and isinstance(value[1], str)
        said = safe_text(value[1], MAX_REASON) if ok else "no reason given"
        why = peer_code(value[2], HANDSHAKE_CODES) if ok and len(value) == 3 else Why.OTHER
        raise HandshakeFailed(f"refused by the peer: {said}", by_peer=True, why=why, said=said)
    return value


def _parse_hello(value: list[Value]) -> Hello:
    if value[0] != HELLO:
        raise HandshakeFailed(f"expected {HELLO}, got {value[0]}", by_peer=False)
    if len(value) != 7:
        raise HandshakeFailed("a hello has 7 fields", by_peer=False)
    _, version, engine_id, context, from_key, to_key, challenge = value
    if not isinstance(version, int) or isinstance(version, bool):
        raise HandshakeFailed("hello: expected an integer protocol version", by_peer=False)
    if not isinstance(engine_id, str) or not isinstance(context, bytes):
        raise HandshakeFailed("hello: expected a text engine id and a bin context", by_peer=False)
    if not isinstance(from_key, bytes) or len(from_key) != KEY_SIZE:
        raise HandshakeFailed(f"hello: expected a {KEY_SIZE}-byte key", by_peer=False)
    if not isinstance(to_key, bytes) or len(to_key) not in (0, KEY_SIZE):
        raise HandshakeFailed(f"hello: expected an empty or {KEY_SIZE}-byte target key",
                              by_peer=False)
    if not isinstance(challenge, bytes) or len(challenge) != CHALLENGE_SIZE:
        raise HandshakeFailed(f"hello: expected a {CHALLENGE_SIZE}-byte challenge", by_peer=False)
    return Hello(version, safe_text(engine_id, 100), context, from_key, to_key, challenge)


def _parse_proof(value: list[Value]) -> tuple[bytes, bytes]:
    if value[0] != PROOF or len(value) != 3:
        raise HandshakeFailed(f"expected {PROOF} [sig, code proof]", by_peer=False)
    sig, proof = value[1], value[2]
    if not isinstance(sig, bytes) or not isinstance(proof, bytes):
        raise HandshakeFailed("proof: expected bin fields", by_peer=False)
    return sig, proof


class _Base:
    """What both roles share: our settings and the checks of the peer's HELLO."""

    def __init__(self, *, engine_id: str, context: bytes, challenge: bytes,
                 roster: Sequence[bytes] | None, version: int) -> None:
        if len(challenge) != CHALLENGE_SIZE:
            raise ValueError(f"a challenge is {CHALLENGE_SIZE} bytes")
        self.engine_id = engine_id
        self.context = context
        self.challenge = challenge
        self.roster = None if roster is None else frozenset(roster)
        self.version = version
        self.peer: Peer | None = None

    def _check_hello(self, hello: Hello, local_key: bytes) -> None:
        self._check_game(hello)
        self._check_peer(hello, local_key)

    def _check_game(self, hello: Hello) -> None:
        """The peer speaks our protocol and rules, in our game.

        This is checked before anything else. A peer of another release or game is told that,
        not what else does not fit."""
        if hello.version != self.version:
            raise HandshakeFailed(f"protocol version {hello.version} offered, this side speaks "
                                  f"{self.version}: both need the same kotp2p release",
                                  by_peer=False, why=Why.OTHER_VERSION)
        if hello.engine_id != self.engine_id:
            raise HandshakeFailed(f"rules engine {hello.engine_id!r} offered, this side runs "
                                  f"{self.engine_id!r}: both need the same kotp2p release",
                                  by_peer=False, why=Why.OTHER_ENGINE)
        if hello.context != self.context:
            raise HandshakeFailed("the peer is in another game (its context differs)", by_peer=False,
                                  why=Why.OTHER_GAME)

    def _check_peer(self, hello: Hello, local_key: bytes) -> None:
        if hello.challenge == self.challenge:
            raise HandshakeFailed("the peer echoed our own challenge", by_peer=False,
                                  why=Why.BAD_HANDSHAKE)
        if hello.from_key == local_key:
            raise HandshakeFailed("the peer presents our own key", by_peer=False,
                                  why=Why.BAD_HANDSHAKE)
        if self.roster is not None and hello.from_key not in self.roster:
            raise HandshakeFailed(f"key {fingerprint(hello.from_key)} is not a seat of this game",
                                  by_peer=False, why=Why.NOT_A_PLAYER)


class DialerHandshake(_Base):
    """The connecting side.

    Send :meth:`hello`. Feed every received frame to :meth:`receive` until :attr:`done`.
    :class:`HandshakeFailed` tells why it failed. Unless ``by_peer`` is set, send :func:`refusal`
    with the reason."""

    def __init__(self, identity: Identity, *, engine_id: str, challenge: bytes,
                 context: bytes = b"", to_key: bytes = b"", join_code: str | None = None,
                 roster: Sequence[bytes] | None = None,
                 version: int = PROTOCOL_VERSION) -> None:
        super().__init__(engine_id=engine_id, context=context, challenge=challenge, roster=roster,
                         version=version)
        self.identity = identity
        self.to_key = to_key
        self.join_code = join_code
        self._their: Hello | None = None
        self.done = False

    def hello(self) -> bytes:
        """Our HELLO frame. Send it first."""
        return Hello(self.version, self.engine_id, self.context, self.identity.public_key,
                     self.to_key, self.challenge).frame()

    def receive(self, payload: bytes) -> list[bytes]:
        """Handle one frame payload; return the frames to send.

        :raises HandshakeFailed: the peer refused or broke the handshake.
        """
        if self.done:
            raise HandshakeFailed("a handshake message after the handshake", by_peer=False)
        value = _decode(payload)
        me = self.identity.public_key
        if self._their is None:
            hello = _parse_hello(value)
            self._check_hello(hello, me)
            if self.to_key and hello.from_key != self.to_key:
                raise HandshakeFailed(f"expected the key {fingerprint(self.to_key)}, the peer "
                                      f"has {fingerprint(hello.from_key)}", by_peer=False,
                                      why=Why.WRONG_SEAT)
            if hello.to_key != me:
                raise HandshakeFailed("the peer greets another key than ours", by_peer=False)
            self._their = hello
            return []
        if self.peer is None:
            sig, _ = _parse_proof(value)
            their = self._their
            signed = transcript(ACCEPTOR, self.context, self.challenge, their.challenge,
                                their.from_key, me)
            if not verify_signature(their.from_key, sig, signed):
                raise HandshakeFailed("the peer's proof does not check: it does not hold the key "
                                      "it presents", by_peer=False)
            self.peer = Peer(their.from_key, me)
            mine = self.identity.sign(transcript(DIALER, self.context, their.challenge,
                                                 self.challenge, me, their.from_key))
            proof = code_proof(self.join_code, their.challenge, me)
            return [codec.frame(codec.pack([PROOF, mine, proof]))]
        if value[0] != OK or len(value) != 1:
            raise HandshakeFailed(f"expected {OK}", by_peer=False)
        self.done = True
        return []


class AcceptorHandshake(_Base):
    """The accepting side: feed received frames to :meth:`receive` until :attr:`done`.

    ``identities`` are the local keys a dialer may ask for with its ``to_key``. An empty
    ``to_key`` means the first. If ``join_code`` is set, the dialer must prove it. ``seen`` refuses
    replayed HELLOs across connections.
    """

    def __init__(self, identities: Sequence[Identity], *, engine_id: str, challenge: bytes,
                 context: bytes = b"", join_code: str | None = None,
                 roster: Sequence[bytes] | None = None, seen: ChallengeCache | None = None,
                 version: int = PROTOCOL_VERSION) -> None:
        super().__init__(engine_id=engine_id, context=context, challenge=challenge, roster=roster,
                         version=version)
        if not identities:
            raise ValueError("an acceptor needs at least one identity")
        self.identities = tuple(identities)
        self.join_code = join_code
        self.seen = seen if seen is not None else ChallengeCache()
        self.identity: Identity | None = None
        self._their: Hello | None = None
        self.done = False

    def receive(self, payload: bytes) -> list[bytes]:
        """Handle one frame payload; return the frames to send.

        :raises HandshakeFailed: the dialer broke the handshake. Send :func:`refusal`.
        """
        if self.done:
            raise HandshakeFailed("a handshake message after the handshake", by_peer=False)
        value = _decode(payload)
        if self._their is None:
            hello = _parse_hello(value)
            self._check_game(hello)
            ident = self._pick(hello.to_key)
            self._check_peer(hello, ident.public_key)
            if not self.seen.add(hello.challenge):
                raise HandshakeFailed("replayed handshake (this challenge was seen before)",
                                      by_peer=False, why=Why.BAD_HANDSHAKE)
            self._their, self.identity = hello, ident
            me = ident.public_key
            mine = ident.sign(transcript(ACCEPTOR, self.context, hello.challenge, self.challenge,
                                         me, hello.from_key))
            ours = Hello(self.version, self.engine_id, self.context, me, hello.from_key,
                         self.challenge)
            return [ours.frame(), codec.frame(codec.pack([PROOF, mine, b""]))]
        assert self.identity is not None
        sig, proof = _parse_proof(value)
        their, me = self._their, self.identity.public_key
        signed = transcript(DIALER, self.context, self.challenge, their.challenge,
                            their.from_key, me)
        if not verify_signature(their.from_key, sig, signed):
            raise HandshakeFailed("the proof does not check: the dialer does not hold the key it "
                                  "presents", by_peer=False)
        if self.join_code:
            expected = code_proof(self.join_code, self.challenge, their.from_key)
            if not proof:
                raise HandshakeFailed("this game needs a join code", by_peer=False,
                                      why=Why.NEEDS_JOIN_CODE)
            if not hmac.compare_digest(proof, expected):
                raise HandshakeFailed("wrong join code", by_peer=False, why=Why.WRONG_JOIN_CODE)
        self.peer = Peer(their.from_key, me)
        self.done = True
        return [codec.frame(codec.pack([OK]))]

    def _pick(self, to_key: bytes) -> Identity:
        if not to_key:
            return self.identities[0]
        for ident in self.identities:
            if ident.public_key == to_key:
                return ident
        raise HandshakeFailed(f"no seat with the key {fingerprint(to_key)} here", by_peer=False,
                              why=Why.WRONG_SEAT)
