"""What the peer protocol's mixins (:mod:`kotp2p.net.sync`) may read and call of
:class:`~kotp2p.net.protocol.PeerProtocol`: its fields and methods, declared once for the type
checker (nothing here runs)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kotp2p.net.genesis import Genesis
from kotp2p.net.replica import Replica


class ProtocolParts:
    """The protocol's fields and methods its mixins use (declarations only)."""

    genesis: Genesis
    seat: int
    replica: Replica
    _sync_sent: dict[int, int]

    if TYPE_CHECKING:
        def _others(self) -> tuple[int, ...]: ...
