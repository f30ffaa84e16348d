"""What the session's mixins (:mod:`kotp2p.net.session.deadlines`, :mod:`kotp2p.net.session.outbox`,
:mod:`kotp2p.net.session.resumption`) may read and call of the Session: its fields
and methods, declared once for the type checker (nothing here runs)."""

from __future__ import annotations

from collections.abc import Collection
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from kotp2p.net.files import FrameSink
from kotp2p.net.peer import Event, PeerProtocol
from kotp2p.net.session.forwards import HeldForwards
from kotp2p.net.session.updates import GameOver, Update
from kotp2p.net.trust import GameEngine

if TYPE_CHECKING:
    from collections.abc import Callable

    from kotp2p.net.session.session import LocalSeat, Timeouts


class SessionParts:
    """The session's fields and methods its mixins use (declarations only)."""

    engine: GameEngine
    seats: dict[int, LocalSeat]
    me: int
    journal: FrameSink | None
    timeouts: Timeouts
    bot_delay: float
    stopped: bool
    grace: float
    _held: HeldForwards
    _fresh: list[tuple[bytes, list[int]]]
    _out: list[tuple[int, bytes]]
    _out_seen: set[tuple[int, bytes]]
    _urgent: bool
    _updates: list[Update | Callable[[], list[Update]]]
    _since: float
    _progress: int
    _soft_at: float | None
    _hard_done: bool
    _turn_since: dict[int, tuple[int, float]]
    _over: GameOver | None
    _over_at: float
    _journaled: dict[int, int]
    _proofs_journaled: int
    _chat_next: list[int]
    _quiet: bool

    if TYPE_CHECKING:
        @property
        def protocol(self) -> PeerProtocol: ...
        @property
        def is_over(self) -> bool: ...
        @property
        def is_done(self) -> bool: ...
        def _working(self) -> AbstractContextManager[None]: ...
        def _begin(self, now: float) -> None: ...
        def _run(self, now: float) -> None: ...
        def _handle(self, seat: int, events: list[Event],
                    sent: tuple[bytes, Collection[int]] = (b"", ())) -> None: ...
