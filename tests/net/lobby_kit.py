"""Deterministic players for the lobby and handshake tests: keys and chain anchors derived from a
name."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from kotp2p.net.trust import PEEK_TAG, SecretChain
from kotp2p.net.wire import Identity


def h(*parts: object) -> bytes:
    """A 32-byte value derived from ``parts`` (the same parts, the same bytes)."""
    return hashlib.sha256(repr(parts).encode()).digest()


def ident(name: str) -> Identity:
    """The identity of the player called ``name``, the same in every run."""
    return Identity.from_seed(h("key", name), name)


def anchors_for(name: str) -> Callable[[int], tuple[bytes, bytes]]:
    """``name``'s chain anchors (dice chain, peek chain) for the seat it is given."""
    def anchors(seat: int) -> tuple[bytes, bytes]:
        secret = h("chain", name)
        return (SecretChain(secret, seat).anchor(0),
                SecretChain(secret, seat, tag=PEEK_TAG).anchor(0))
    return anchors
