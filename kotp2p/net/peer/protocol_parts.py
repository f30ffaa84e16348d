"""What the peer protocol's mixins (:mod:`kotp2p.net.peer.signing`, :mod:`kotp2p.net.peer.stalls`,
:mod:`kotp2p.net.peer.sync`) may read and call of :class:`~kotp2p.net.peer.protocol.PeerProtocol`: its fields
and methods, declared once for the type checker (nothing here runs)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from kotp2p.net.peer.peer_events import Event
from kotp2p.net.replica import Replica
from kotp2p.net.trust import GameEngine, Genesis, SecretChain, SlotDeck
from kotp2p.net.wire import Envelope, Identity, Kind, Value


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
    _voted: set[tuple[int, bytes]]
    _stalled: set[tuple[int, int, bytes]]
    _restored_at: int
    _sync_sent: dict[int, int]

    if TYPE_CHECKING:
        @property
        def my_turn(self) -> bool: ...
        def _others(self) -> tuple[int, ...]: ...
        def _accept(self, env: Envelope, forward_from: int | None, stored: bool = False,
                    holders: Collection[int] = ()) -> list[Event]: ...
        def _seal(self, kind: Kind, step: int, head: bytes, payload: Sequence[Value] = (),
                  reveals: Sequence[tuple[int, bytes, bytes | None]] = (),
                  state_hash: bytes = b"") -> Envelope: ...
        def _own(self, env: Envelope, broadcast: bool) -> list[Event]: ...
        def sync_requests(self) -> list[Event]: ...
        def waiting_for(self) -> tuple[int, ...]: ...
