"""What the peer protocol's mixins (:mod:`kotp2p.net.signing`, :mod:`kotp2p.net.sync`) may read
and call of :class:`~kotp2p.net.protocol.PeerProtocol`: its fields and methods, declared once for
the type checker (nothing here runs)."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from kotp2p.net.chain import SecretChain, SlotDeck
from kotp2p.net.engine_interface import GameEngine
from kotp2p.net.envelope import Envelope
from kotp2p.net.genesis import Genesis
from kotp2p.net.identity import Identity
from kotp2p.net.peer_events import Event
from kotp2p.net.replica import Replica


class ProtocolParts:
    """The protocol's fields and methods its mixins use (declarations only)."""

    genesis: Genesis
    seat: int
    identity: Identity
    chain: SecretChain
    peek_chain: SecretChain
    slots: SlotDeck | None
    replica: Replica
    engine: GameEngine
    _seq: int
    _prev: bytes
    _started: bool
    _moved: int
    _acks_sent: set[tuple[int, bytes]]
    _sync_sent: dict[int, int]

    if TYPE_CHECKING:
        @property
        def my_turn(self) -> bool: ...
        def _others(self) -> tuple[int, ...]: ...
        def _accept(self, env: Envelope, forward_from: int | None, stored: bool = False,
                    holders: Collection[int] = ()) -> list[Event]: ...
