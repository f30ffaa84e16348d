"""A user's long-term identity: an Ed25519 key pair and a display name.

Its stored form is msgpack ``[1, name, private key (32 raw bytes)]``. The key file lives in the
files package. A player is shown as name plus a short fingerprint of the public key.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
)

from kotp2p.net.wire import codec
from kotp2p.net.wire.errors import RemoteProtocolError
from kotp2p.net.wire.safetext import is_text

DEFAULT_NAME = "Player"
MAX_NAME = 32


def fingerprint(public_key: bytes) -> str:
    """A short, readable fingerprint of a raw 32-byte public key: ``"a1b2-c3d4-e5f6-0718"``."""
    digest = hashlib.sha256(b"kotp2p fingerprint\x00" + public_key).hexdigest()[:16]
    return "-".join(digest[i : i + 4] for i in range(0, 16, 4))


@functools.lru_cache(maxsize=64)
def _public_key(raw: bytes) -> Ed25519PublicKey:
    return Ed25519PublicKey.from_public_bytes(raw)


# Signatures this process has already made or checked. A check gives the same answer every
# time, so a signature found valid once need not be checked again. This matters when several
# seats run in one process: each of them checks every envelope. Only valid signatures are kept,
# under a SHA-256 of key, signature and message. The key and signature have fixed lengths, so
# the three cannot run into each other. The oldest entry goes first when the table is full.
_PROVEN: dict[bytes, None] = {}
_PROVEN_MAX = 4096


def _proof(public_key: bytes, signature: bytes, message: bytes) -> bytes:
    return hashlib.sha256(public_key + signature + message).digest()


def _remember(proof: bytes) -> None:
    if len(_PROVEN) >= _PROVEN_MAX:
        del _PROVEN[next(iter(_PROVEN))]
    _PROVEN[proof] = None


def verify_signature(public_key: bytes, signature: bytes, message: bytes) -> bool:
    """True when ``signature`` is a valid Ed25519 signature of ``message`` by ``public_key``.

    Malformed keys or signatures give False, never an exception.
    """
    if len(public_key) != 32 or len(signature) != 64:
        return False
    proof = _proof(public_key, signature, message)
    if proof in _PROVEN:
        return True
    try:
        _public_key(public_key).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    _remember(proof)
    return True


@dataclass(frozen=True)
class Identity:
    """A key pair and a display name. ``repr`` never shows the private key."""

    name: str
    private_key: Ed25519PrivateKey

    @classmethod
    def generate(cls, name: str = DEFAULT_NAME) -> Identity:
        """A fresh identity, with randomness from the operating system."""
        return cls(check_name(name), Ed25519PrivateKey.generate())

    @classmethod
    def from_seed(cls, seed: bytes, name: str = DEFAULT_NAME) -> Identity:
        """The identity whose private key is the 32-byte ``seed``.

        Tests, bots and golden logs use it.
        """
        return cls(check_name(name), Ed25519PrivateKey.from_private_bytes(seed))

    @functools.cached_property
    def public_key(self) -> bytes:
        """The raw 32-byte public key."""
        return self.private_key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)

    @property
    def fingerprint(self) -> str:
        """The short fingerprint of the public key."""
        return fingerprint(self.public_key)

    def sign(self, message: bytes) -> bytes:
        """The 64-byte Ed25519 signature of ``message``."""
        signature = self.private_key.sign(message)
        _remember(_proof(self.public_key, signature, message))
        return signature

    def __repr__(self) -> str:
        return f"Identity(name={self.name!r}, fingerprint={self.fingerprint!r})"

    def to_bytes(self) -> bytes:
        """The stored form.

        It holds the private key: write it only to a 0600 file.
        """
        raw = self.private_key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
        return codec.pack([1, self.name, raw])

    @classmethod
    def from_bytes(cls, data: bytes) -> Identity:
        """Parse the stored form.

        :raises RemoteProtocolError: the bytes are not an identity file.
        """
        value = codec.unpack(data, max_size=4096)
        if (
            not isinstance(value, list)
            or len(value) != 3
            or value[0] != 1
            or not isinstance(value[1], str)
            or not isinstance(value[2], bytes)
            or len(value[2]) != 32
        ):
            raise RemoteProtocolError("not a kotp2p identity file: expected [1, name, 32-byte key]")
        return cls(value[1], Ed25519PrivateKey.from_private_bytes(value[2]))


def check_name(name: str) -> str:
    """``name`` stripped, if it is a usable display name.

    :raises ValueError: empty, too long or containing control characters.
    """
    name = name.strip()
    if not is_text(name, MAX_NAME):
        raise ValueError(f"a name is 1 to {MAX_NAME} printable characters, got {name!r}")
    return name
