"""Before a game: the lobby state machines, the handshake and the LAN beacon's format.

The host and the joiner each have a lobby state machine. The handshake opens every link. The
admission decides which connections a listener lets in. All of it is sans-IO.
"""

from __future__ import annotations

from kotp2p.net.lobby.admission import (
    Admission,
    AdmissionConfig,
    Tally,
    Ticket,
    Told,
    Turned,
    claimed_key,
    net_of,
)
from kotp2p.net.lobby.beacon import (
    BROADCAST,
    DEFAULT_BEACON_PORT,
    MARK,
    MAX_BEACON,
    Announcement,
    BeaconBook,
    Listed,
    listing,
)
from kotp2p.net.lobby.handshake import (
    MAGICS,
    MAX_HANDSHAKE_FRAME,
    PROTOCOL_VERSION,
    WITH_CODE,
    AcceptorHandshake,
    ChallengeCache,
    DialerHandshake,
    HandshakeFailed,
    Peer,
    refusal,
)
from kotp2p.net.lobby.joincode import MAX_JOIN_CODE, new_code, normalize_code
from kotp2p.net.lobby.lobby import (
    MAX_LOBBY_FRAME,
    Banned,
    Changed,
    Drop,
    Failed,
    GuestEvent,
    HostEvent,
    LobbyError,
    LobbyGuest,
    LobbyHost,
    Notice,
    Outgoing,
    Reply,
    Started,
)
from kotp2p.net.lobby.lobby_view import DEFAULT_TIMEOUT, MAX_TIMEOUT, MIN_TIMEOUT, LobbyView

__all__ = [
    "BROADCAST",
    "DEFAULT_BEACON_PORT",
    "DEFAULT_TIMEOUT",
    "MAGICS",
    "MARK",
    "MAX_BEACON",
    "MAX_HANDSHAKE_FRAME",
    "MAX_JOIN_CODE",
    "MAX_LOBBY_FRAME",
    "MAX_TIMEOUT",
    "MIN_TIMEOUT",
    "PROTOCOL_VERSION",
    "WITH_CODE",
    "AcceptorHandshake",
    "Admission",
    "AdmissionConfig",
    "Announcement",
    "Banned",
    "BeaconBook",
    "ChallengeCache",
    "Changed",
    "DialerHandshake",
    "Drop",
    "Failed",
    "GuestEvent",
    "HandshakeFailed",
    "HostEvent",
    "Listed",
    "LobbyError",
    "LobbyGuest",
    "LobbyHost",
    "LobbyView",
    "Notice",
    "Outgoing",
    "Peer",
    "Reply",
    "Started",
    "Tally",
    "Ticket",
    "Told",
    "Turned",
    "claimed_key",
    "listing",
    "net_of",
    "new_code",
    "normalize_code",
    "refusal",
]
