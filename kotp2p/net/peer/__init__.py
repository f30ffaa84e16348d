"""The sans-IO peer protocol of one seat: it is fed frames and returns events and frames to send.
It signs this seat's envelopes, asks for catch-up and deals with stalls.
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
    Rejected,
    Rolled,
    Send,
    is_sync_request,
)

__all__ = [
    "Applied",
    "Event",
    "Finished",
    "Flush",
    "Logged",
    "Misbehaviour",
    "PeerProtocol",
    "Rejected",
    "Rolled",
    "Send",
    "is_sync_request",
]
