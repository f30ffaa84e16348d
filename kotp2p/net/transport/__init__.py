"""kotp2p.net.transport: the thin trio layer that moves bytes; the only place with trio and sockets.

Everything that decides is sans-IO in :mod:`kotp2p.net`. That covers the handshake, the lobby, the
peer protocol, the session and the beacon format. This package only drives it. It holds the TCP
listener and dialer, and one link per peer with its reader, writer and PING. It also holds the full
mesh with reconnection, the UDP beacon and the session's runner.
"""

from __future__ import annotations

from kotp2p.net.transport.beacon import announce, announce_problem, listen
from kotp2p.net.transport.connect import (
    DEFAULT_PORT,
    accept_handshake,
    dial_handshake,
    dial_tcp,
    listen_problem,
    serve_tcp,
)
from kotp2p.net.transport.framed import FrameStream, PeerClosed
from kotp2p.net.transport.link import Link, LinkConfig
from kotp2p.net.transport.lobby_run import GuestLobby, HostLobby, LobbyFailed
from kotp2p.net.transport.mainloop import run_main
from kotp2p.net.transport.mesh import (
    Address,
    Connector,
    Mesh,
    MeshConfig,
    MeshPort,
    dialer_of,
    door_of,
    tcp_connector,
)
from kotp2p.net.transport.meshlinks import MeshLinks
from kotp2p.net.transport.runner import (
    Commands,
    FrameIn,
    LinkDown,
    LinkEvent,
    Links,
    LinkUp,
    View,
    run_session,
)

__all__ = [
    "DEFAULT_PORT",
    "Address",
    "Commands",
    "Connector",
    "FrameIn",
    "FrameStream",
    "GuestLobby",
    "HostLobby",
    "Link",
    "LinkConfig",
    "LinkDown",
    "LinkEvent",
    "LinkUp",
    "Links",
    "LobbyFailed",
    "Mesh",
    "MeshConfig",
    "MeshLinks",
    "MeshPort",
    "PeerClosed",
    "View",
    "accept_handshake",
    "announce",
    "announce_problem",
    "dial_handshake",
    "dial_tcp",
    "dialer_of",
    "door_of",
    "listen",
    "listen_problem",
    "run_main",
    "run_session",
    "serve_tcp",
    "tcp_connector",
]
