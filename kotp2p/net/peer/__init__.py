"""The sans-IO peer protocol of one seat. It is fed frames and returns events and frames to send.

It signs this seat's envelopes, asks for catch-up and deals with stalls.

:class:`Signer` and :class:`StallKeeper` are public for test peers that cheat. Such a peer
overrides :meth:`PeerProtocol.make_signer` to hand the protocol a subclass of :class:`Signer`.
"""

from __future__ import annotations

from kotp2p.net.peer.protocol import (
    Applied,
    Event,
    Finished,
    Flush,
    Logged,
    Misbehaviour,
    PeerProtocol,
    Polled,
    Rejected,
    Rolled,
    Send,
    is_sync_request,
)
from kotp2p.net.peer.signer import Signer
from kotp2p.net.peer.stalls import StallKeeper
from kotp2p.net.peer.sync import SyncAnswers

__all__ = [
    "Applied",
    "Event",
    "Finished",
    "Flush",
    "Logged",
    "Misbehaviour",
    "PeerProtocol",
    "Polled",
    "Rejected",
    "Rolled",
    "Send",
    "Signer",
    "StallKeeper",
    "SyncAnswers",
    "is_sync_request",
]
