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
handshake of one game is refused by another. Without a join code ``code_proof`` is empty.

The join code
-------------
A lobby with a join code binds the handshake to it with SPAKE2, a password-authenticated key
exchange. The HELLOs then carry the version plus :data:`WITH_CODE`. An older build refuses that
as another version. Each side sends one more frame with its SPAKE2 message::

    dialer   -> HELLO  version + WITH_CODE
    dialer   -> PAKE   ["kotp2p-pake", message]
    acceptor -> HELLO, PAKE, PROOF
    dialer   -> PROOF
    acceptor -> OK

Both sides derive a key from the code and the two messages. Each PROOF's ``code_proof`` is then
``HMAC-SHA256(key, CONFIRM_DOMAIN || transcript || dialer message || acceptor message)``, with
the signed transcript of that PROOF. The acceptor's comes first. A host that does not know the
code cannot make it, and the joiner breaks off with :attr:`Why.HOST_LACKS_JOIN_CODE`. A joiner
with a wrong code cannot tell that from a host with another code. Either way, the host counts one
wrong code: a joiner that saw the acceptor's PROOF and did not answer with its own has made one
guess, whatever it does next.

An eavesdropper sees only the two messages and the MACs. They depend on fresh secret scalars, so
nothing in a recorded handshake lets anybody test a candidate code. A dialer gets one answer per
connection, which tests the one code it used. A fake host gets no PROOF of the code at all: the
joiner breaks off first. A host without a code refuses a HELLO with one at once. Both sides use
the code as :func:`~kotp2p.net.lobby.joincode.normalize_code` makes it, so case and blanks do not
matter.

SPAKE2 costs some milliseconds of CPU on each side. The acceptor spends them only for a HELLO that
passed the cheap checks: version, engine, context, seat and the replay cache. A dialer without a
code at a host with one is told so after the PROOFs, as before. So is an older dialer that proves
a code the old way, with an HMAC: it is told it runs another version.

Refusals travel as ``["kotp2p-refuse", reason, code]``, so both sides can say why. The text is for
logs. A screen chooses its sentence by the :class:`~kotp2p.net.wire.refusal.Why` code. An older
two-field refusal reads as ``other``. So does a code that a handshake refusal cannot carry. A
refusal received is shown to a user. So it goes through
:func:`~kotp2p.net.wire.safetext.safe_text`, cut to about :data:`MAX_REASON` characters.

The acceptor remembers the dialer challenges it has seen in a :class:`ChallengeCache`. A HELLO that
repeats one is a replayed handshake and is refused.

Everything here is sans-IO: challenges and the randomness of SPAKE2 come in as parameters, frames
go out as return values.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kotp2p.net.lobby.joincode import normalize_code
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

if TYPE_CHECKING:
    from spake2 import SPAKE2_A, SPAKE2_B

# spake2 is imported where a join code is used: it takes longer to load than the rest of this
# package, and most games have no code.

log = logging.getLogger(__name__)

PROTOCOL_VERSION = 1
"""The version of the peer protocol this build speaks: handshake, lobby and envelopes."""
WITH_CODE = 1000
"""Added to the HELLO's version when the handshake is bound to a join code with SPAKE2.

So ``1001`` is protocol 1 with a join code. It is the handshake's own number: nothing of a game's
log or genesis records it, and a later protocol version cannot collide with it."""

HELLO = "kotp2p-hello"
PAKE = "kotp2p-pake"
PROOF = "kotp2p-proof"
OK = "kotp2p-ok"
REFUSE = "kotp2p-refuse"
MAGICS = frozenset({HELLO, PAKE, PROOF, OK, REFUSE})

DOMAIN = b"kotp2p handshake v1\x00"
PAKE_DOMAIN = b"kotp2p join code v2\x00"
CONFIRM_DOMAIN = b"kotp2p join code confirm v2\x00"
PAKE_IDS = (b"kotp2p dialer", b"kotp2p acceptor")
PAKE_MESSAGE_SIZE = 33
"""A SPAKE2 message: its side byte and a point of the Ed25519 group."""
CHALLENGE_SIZE = 32
KEY_SIZE = 32
MAX_REASON = 200
MAX_HANDSHAKE_FRAME = 1024
"""No handshake frame is longer than this.

The transport caps frames at this size until the link is up.
"""

DIALER = b"D"
ACCEPTOR = b"A"

Entropy = Callable[[int], bytes]
"""Returns that many random bytes, as :func:`os.urandom` does."""


def pake_password(code: str) -> bytes:
    """The SPAKE2 password of a join code, once normalized."""
    return PAKE_DOMAIN + normalize_code(code).encode("utf-8")


def confirmation(key: bytes, signed: bytes, dialer_message: bytes,
                 acceptor_message: bytes) -> bytes:
    """A PROOF's ``code_proof`` with a join code: the key confirmation of ``signed``."""
    return hmac.new(key, CONFIRM_DOMAIN + signed + dialer_message + acceptor_message,
                    hashlib.sha256).digest()


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


def _parse_pake(value: list[Value]) -> bytes:
    if value[0] != PAKE or len(value) != 2:
        raise HandshakeFailed(f"expected {PAKE} [message]", by_peer=False)
    message = value[1]
    if not isinstance(message, bytes) or len(message) != PAKE_MESSAGE_SIZE:
        raise HandshakeFailed(f"pake: expected a {PAKE_MESSAGE_SIZE}-byte message", by_peer=False)
    return message


def _pake_key(pake: SPAKE2_A | SPAKE2_B, message: bytes) -> bytes:
    """The key SPAKE2 derives with the peer's ``message``.

    :raises HandshakeFailed: the message is no point of the group, or ours reflected.
    """
    from spake2 import SPAKEError
    from spake2.ed25519_basic import NotOnCurve

    try:
        key = pake.finish(message)
    except (SPAKEError, NotOnCurve, ValueError):
        raise HandshakeFailed("pake: the message is not a valid SPAKE2 message", by_peer=False,
                              why=Why.BAD_HANDSHAKE) from None
    assert isinstance(key, bytes)
    return key


def _frame(*fields: Value) -> bytes:
    return codec.frame(codec.pack(list(fields)))


class _Base:
    """What both roles share: our settings and the checks of the peer's HELLO."""

    def __init__(self, *, engine_id: str, context: bytes, challenge: bytes,
                 roster: Sequence[bytes] | None, version: int, join_code: str | None) -> None:
        if len(challenge) != CHALLENGE_SIZE:
            raise ValueError(f"a challenge is {CHALLENGE_SIZE} bytes")
        self.engine_id = engine_id
        self.context = context
        self.challenge = challenge
        self.roster = None if roster is None else frozenset(roster)
        self.version = version
        self.join_code = join_code or None
        self.peer: Peer | None = None

    def interrupted(self, reason: str, *, by_peer: bool) -> HandshakeFailed:
        """The failure to report when the connection ends or times out before :attr:`done`.

        ``reason`` says what happened to the connection."""
        return HandshakeFailed(reason, by_peer=by_peer)

    def _check_game(self, hello: Hello, *versions: int) -> None:
        """The peer speaks our protocol and rules, in our game.

        ``versions`` are the HELLO versions this side takes, :attr:`version` if none. This is
        checked before anything else. A peer of another release or game is told that, not what
        else does not fit."""
        speaks = versions or (self.version,)
        if hello.version not in speaks:
            raise HandshakeFailed(f"protocol version {hello.version} offered, this side speaks "
                                  f"{speaks[0]}: both need the same kotp2p release",
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


def _host_lacks_code(what: str) -> HandshakeFailed:
    return HandshakeFailed("this host does not know the join code you typed: it may not be the game "
                           f"you meant, or the code has a typo; {what}", by_peer=False,
                           why=Why.HOST_LACKS_JOIN_CODE)


class DialerHandshake(_Base):
    """The connecting side.

    Send :meth:`hello`. Feed every received frame to :meth:`receive` until :attr:`done`.
    :class:`HandshakeFailed` tells why it failed. Unless ``by_peer`` is set, send :func:`refusal`
    with the reason. With a ``join_code`` the handshake runs SPAKE2, drawing its secret from
    ``entropy``."""

    def __init__(self, identity: Identity, *, engine_id: str, challenge: bytes,
                 context: bytes = b"", to_key: bytes = b"", join_code: str | None = None,
                 roster: Sequence[bytes] | None = None,
                 version: int = PROTOCOL_VERSION, entropy: Entropy = os.urandom) -> None:
        super().__init__(engine_id=engine_id, context=context, challenge=challenge, roster=roster,
                         version=version, join_code=join_code)
        self.identity = identity
        self.to_key = to_key
        self._their: Hello | None = None
        self._pake: SPAKE2_A | None = None
        if self.join_code is not None:
            from spake2 import SPAKE2_A

            self._pake = SPAKE2_A(pake_password(self.join_code), idA=PAKE_IDS[0],
                                  idB=PAKE_IDS[1], entropy_f=entropy)
        self._message = b""
        self._their_message = b""
        self._key: bytes | None = None
        self.done = False

    def hello(self) -> bytes:
        """Our HELLO frame, and with a join code our SPAKE2 message. Send them first."""
        version = self.version if self._pake is None else self.version + WITH_CODE
        ours = Hello(version, self.engine_id, self.context, self.identity.public_key,
                     self.to_key, self.challenge).frame()
        if self._pake is None:
            return ours
        if not self._message:
            self._message = self._pake.start()
        return ours + _frame(PAKE, self._message)

    def receive(self, payload: bytes) -> list[bytes]:
        """Handle one frame payload; return the frames to send.

        :raises HandshakeFailed: the peer refused or broke the handshake.
        """
        if self.done:
            raise HandshakeFailed("a handshake message after the handshake", by_peer=False)
        try:
            value = _decode(payload)
        except HandshakeFailed as exc:
            if self._pake is not None and exc.by_peer and exc.why is Why.HOST_LACKS_JOIN_CODE:
                lacks = _host_lacks_code(f"it says: {exc.said}")
                raise HandshakeFailed(lacks.reason, by_peer=True, why=lacks.why,
                                      said=exc.said) from None
            raise
        me = self.identity.public_key
        if self._their is None:
            self._their = self._hello(_parse_hello(value), me)
            return []
        if self._pake is not None and self._key is None:
            if value[0] != PAKE:
                raise _host_lacks_code(f"it sent {value[0]} where a SPAKE2 message belongs")
            self._their_message = _parse_pake(value)
            self._key = _pake_key(self._pake, self._their_message)
            return []
        if self.peer is None:
            return self._proof(value, me)
        if value[0] != OK or len(value) != 1:
            raise HandshakeFailed(f"expected {OK}", by_peer=False)
        self.done = True
        return []

    def _hello(self, hello: Hello, me: bytes) -> Hello:
        """Check the acceptor's HELLO. With a code, one without the code exchange is told after
        the checks of who answers, so a host key that does not fit is said first."""
        plain = self._pake is not None and hello.version == self.version
        expected = self.version if self._pake is None or plain else self.version + WITH_CODE
        self._check_game(hello, expected)
        self._check_peer(hello, me)
        if self.to_key and hello.from_key != self.to_key:
            raise HandshakeFailed(f"expected the key {fingerprint(self.to_key)}, the peer "
                                  f"has {fingerprint(hello.from_key)}", by_peer=False,
                                  why=Why.WRONG_SEAT)
        if hello.to_key != me:
            raise HandshakeFailed("the peer greets another key than ours", by_peer=False)
        if plain:
            raise _host_lacks_code("it answered without the code exchange")
        return hello

    def _proof(self, value: list[Value], me: bytes) -> list[bytes]:
        sig, proof = _parse_proof(value)
        their = self._their
        assert their is not None
        signed = transcript(ACCEPTOR, self.context, self.challenge, their.challenge,
                            their.from_key, me)
        if not verify_signature(their.from_key, sig, signed):
            raise HandshakeFailed("the peer's proof does not check: it does not hold the key "
                                  "it presents", by_peer=False)
        mine_signed = transcript(DIALER, self.context, their.challenge, self.challenge, me,
                                 their.from_key)
        code = b""
        if self._key is not None:
            expected = confirmation(self._key, signed, self._message, self._their_message)
            if not hmac.compare_digest(proof, expected):
                raise _host_lacks_code("its key confirmation does not check")
            code = confirmation(self._key, mine_signed, self._message, self._their_message)
        self.peer = Peer(their.from_key, me)
        return [_frame(PROOF, self.identity.sign(mine_signed), code)]


class AcceptorHandshake(_Base):
    """The accepting side: feed received frames to :meth:`receive` until :attr:`done`.

    ``identities`` are the local keys a dialer may ask for with its ``to_key``. An empty
    ``to_key`` means the first. If ``join_code`` is set, the dialer must prove it: SPAKE2 draws its
    secret from ``entropy``. ``seen`` refuses replayed HELLOs across connections.
    """

    def __init__(self, identities: Sequence[Identity], *, engine_id: str, challenge: bytes,
                 context: bytes = b"", join_code: str | None = None,
                 roster: Sequence[bytes] | None = None, seen: ChallengeCache | None = None,
                 version: int = PROTOCOL_VERSION, entropy: Entropy = os.urandom) -> None:
        super().__init__(engine_id=engine_id, context=context, challenge=challenge, roster=roster,
                         version=version, join_code=join_code)
        if not identities:
            raise ValueError("an acceptor needs at least one identity")
        self.identities = tuple(identities)
        self.entropy = entropy
        self.seen = seen if seen is not None else ChallengeCache()
        self.identity: Identity | None = None
        self._their: Hello | None = None
        self._coded = False
        self._messages: tuple[bytes, bytes] | None = None
        self._key: bytes | None = None
        self.guessed = False
        """The dialer has our key confirmation, so it could test its code, and has not proved it."""
        self.done = False

    def interrupted(self, reason: str, *, by_peer: bool) -> HandshakeFailed:
        """The failure to report when the connection ends or times out before :attr:`done`.

        A dialer that got our key confirmation and left has made one guess of the code. So it
        counts as a wrong join code."""
        if self.guessed:
            return HandshakeFailed(f"wrong join code: the joiner broke off after the code exchange "
                                   f"({reason})", by_peer=False, why=Why.WRONG_JOIN_CODE)
        return super().interrupted(reason, by_peer=by_peer)

    def receive(self, payload: bytes) -> list[bytes]:
        """Handle one frame payload; return the frames to send.

        :raises HandshakeFailed: the dialer broke the handshake. Send :func:`refusal`.
        """
        if self.done:
            raise HandshakeFailed("a handshake message after the handshake", by_peer=False)
        try:
            value = _decode(payload)
        except HandshakeFailed as exc:
            if self.guessed and exc.by_peer:
                raise HandshakeFailed("wrong join code: the joiner's code does not match this "
                                      "game's", by_peer=False, why=Why.WRONG_JOIN_CODE) from None
            if self.guessed:
                raise self.interrupted(exc.reason, by_peer=exc.by_peer) from None
            raise
        if self._their is None:
            return self._hello(_parse_hello(value))
        if self._coded and self._key is None:
            return self._exchange(_parse_pake(value))
        try:
            return self._proof(value)
        except HandshakeFailed as exc:
            if self.guessed and exc.why is not Why.WRONG_JOIN_CODE:
                raise self.interrupted(exc.reason, by_peer=exc.by_peer) from None
            raise

    def _hello(self, hello: Hello) -> list[bytes]:
        self._check_game(hello, self.version, self.version + WITH_CODE)
        ident = self._pick(hello.to_key)
        self._check_peer(hello, ident.public_key)
        if not self.seen.add(hello.challenge):
            raise HandshakeFailed("replayed handshake (this challenge was seen before)",
                                  by_peer=False, why=Why.BAD_HANDSHAKE)
        self._their, self.identity = hello, ident
        if hello.version == self.version + WITH_CODE:
            if self.join_code is None:
                raise HandshakeFailed("the joiner gave a join code, and this game has none",
                                      by_peer=False, why=Why.HOST_LACKS_JOIN_CODE)
            self._coded = True
            return []  # the dialer's SPAKE2 message comes next
        return [self._our_hello(self.version), self._our_proof(b"")]

    def _exchange(self, their_message: bytes) -> list[bytes]:
        """SPAKE2 with the dialer's message; our HELLO, message and PROOF with its confirmation."""
        assert self.join_code is not None and self._their is not None
        from spake2 import SPAKE2_B

        pake = SPAKE2_B(pake_password(self.join_code), idA=PAKE_IDS[0], idB=PAKE_IDS[1],
                        entropy_f=self.entropy)
        ours = pake.start()
        self._key = _pake_key(pake, their_message)
        self._messages = (their_message, ours)
        self.guessed = True
        return [self._our_hello(self.version + WITH_CODE), _frame(PAKE, ours),
                self._our_proof(self._key)]

    def _our_hello(self, version: int) -> bytes:
        assert self.identity is not None and self._their is not None
        return Hello(version, self.engine_id, self.context, self.identity.public_key,
                     self._their.from_key, self.challenge).frame()

    def _our_proof(self, key: bytes) -> bytes:
        assert self.identity is not None and self._their is not None
        signed = transcript(ACCEPTOR, self.context, self._their.challenge, self.challenge,
                            self.identity.public_key, self._their.from_key)
        code = b"" if self._messages is None else confirmation(key, signed, *self._messages)
        return _frame(PROOF, self.identity.sign(signed), code)

    def _proof(self, value: list[Value]) -> list[bytes]:
        assert self.identity is not None and self._their is not None
        sig, proof = _parse_proof(value)
        their, me = self._their, self.identity.public_key
        signed = transcript(DIALER, self.context, self.challenge, their.challenge,
                            their.from_key, me)
        if not verify_signature(their.from_key, sig, signed):
            raise HandshakeFailed("the proof does not check: the dialer does not hold the key it "
                                  "presents", by_peer=False)
        if self._key is not None and self._messages is not None:
            expected = confirmation(self._key, signed, *self._messages)
            if not hmac.compare_digest(proof, expected):
                raise HandshakeFailed("wrong join code", by_peer=False, why=Why.WRONG_JOIN_CODE)
        elif self.join_code is not None:
            if proof:
                raise HandshakeFailed("the joiner proved a join code the way of an older kotp2p "
                                      "release: both need the same release", by_peer=False,
                                      why=Why.OTHER_VERSION)
            raise HandshakeFailed("this game needs a join code", by_peer=False,
                                  why=Why.NEEDS_JOIN_CODE)
        self.guessed = False
        self.peer = Peer(their.from_key, me)
        self.done = True
        return [_frame(OK)]

    def _pick(self, to_key: bytes) -> Identity:
        if not to_key:
            return self.identities[0]
        for ident in self.identities:
            if ident.public_key == to_key:
                return ident
        raise HandshakeFailed(f"no seat with the key {fingerprint(to_key)} here", by_peer=False,
                              why=Why.WRONG_SEAT)
