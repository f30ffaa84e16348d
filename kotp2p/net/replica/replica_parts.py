"""What the replica's rule mixins (:mod:`kotp2p.net.replica.ejection`, :mod:`kotp2p.net.replica.forks`,
:mod:`kotp2p.net.replica.kinds`, :mod:`kotp2p.net.replica.logrules`) may read and call of
:class:`~kotp2p.net.replica.replica.Replica`: its fields and methods, declared once for the type
checker (nothing here runs)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kotp2p.net.replica.history import Entry, Point, Private, Violation
from kotp2p.net.replica.logorder import LogOrder
from kotp2p.net.replica.peeks import Peeks
from kotp2p.net.trust import ChainChecker, GameEngine, Genesis, State
from kotp2p.net.wire import Envelope


class ReplicaParts:
    """The replica's fields and methods the rule mixins use (declarations only)."""

    n: int
    engine: GameEngine
    entries: list[Entry]
    streams: list[dict[int, Envelope]]
    by_id: dict[bytes, Envelope]
    cursor: list[int]
    cut: dict[int, int]
    convicted: dict[int, Violation]
    moot: set[bytes]
    needs_rebuild: bool
    ejected: dict[int, int]
    frozen: dict[int, int]
    votes: dict[tuple[int, bytes], dict[int, dict[int, Envelope]]]
    log_order: LogOrder
    entry_ids: set[bytes]
    used: set[bytes]
    used_at: dict[tuple[int, int, int], bytes]
    fork_base: dict[int, int]
    spare: dict[int, list[Envelope]]
    built_on: dict[bytes, set[int]]
    checkers: list[ChainChecker]
    revealed: dict[tuple[int, int], bytes]
    acked: set[tuple[int, int]]
    local_seat: int | None
    _eject_index: dict[tuple[int, int, bytes], set[int]]
    _stall_index: dict[tuple[int, int, bytes], dict[int, int]]
    _stall_states: dict[tuple[int, bytes], dict[bytes, dict[int, int]]]
    _top_step: list[int]
    _last_step: list[int]
    _needed: dict[int, tuple[tuple[int, int, int, bool], int]]
    _parked_acks: dict[int, tuple[int, tuple[int, int]]]
    own_move: tuple[bytes, State, Point] | None
    byes: dict[int, Envelope]
    named_points: dict[tuple[int, bytes], set[int]]
    _judging: int | None
    genesis: Genesis
    peeks: Peeks
    private: dict[int, Private]
    trigger: dict[int, bytes]
    opened: set[tuple[int, int]]

    if TYPE_CHECKING:
        @property
        def step(self) -> int: ...
        @property
        def head(self) -> bytes: ...
        @property
        def point(self) -> Point: ...
        @property
        def state(self) -> State: ...
        @property
        def is_over(self) -> bool: ...
        def owed_openings(self, seat: int) -> list[int]: ...
        def owed_acks(self) -> tuple[int, ...]: ...
        def _consume(self, a: int, env: Envelope) -> object: ...
        def _convict(self, v: Violation, cut: int | None = None) -> None: ...
        def _v(self, rule: str, env: Envelope, detail: str, *more: Envelope) -> Violation: ...
        def _push_point(self, state: State, known: Point | None = None) -> Point: ...
        def _readable(self, a: int) -> bool: ...
        def _step_cursor(self, a: int, env: Envelope) -> None: ...
        def _commit_reveals(self, a: int, env: Envelope) -> None: ...
        def _move(self, a: int, env: Envelope) -> object: ...
        def use(self, env: Envelope, p: Point) -> None: ...
        def first_point(self, state: State, step: int) -> Point: ...
        def unopened(self, seat: int) -> list[int]: ...
