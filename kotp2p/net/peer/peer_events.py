"""The events a :class:`~kotp2p.net.peer.protocol.PeerProtocol` returns.

They are frames to send, bytes to log, and what happened. What happened may be a move applied, a
roll, a refused frame, a peer's violation or the end."""

from __future__ import annotations

from dataclasses import dataclass

from kotp2p.net.replica import Violation


@dataclass(frozen=True)
class Send:
    """Deliver ``frame`` to each seat in ``to``. The frame includes its length prefix.

    ``forwarded`` marks a copy of another seat's envelope passed on. Nobody waits on it. It may
    leave with what follows, never after it."""

    frame: bytes
    to: tuple[int, ...]
    forwarded: bool = False


@dataclass(frozen=True)
class Logged:
    """Append ``frame`` to this seat's ``.kotlog``."""

    frame: bytes


@dataclass(frozen=True)
class Flush:
    """A step's envelopes were logged: flush the ``.kotlog`` now."""


@dataclass(frozen=True)
class Applied:
    """A global entry, a MOVE or an ejection, was applied. ``description`` is plain text."""

    step: int
    kind: str
    seat: int | None
    description: str


@dataclass(frozen=True)
class Rolled:
    """Random event ``k`` was resolved to ``values``."""

    k: int
    values: tuple[int, ...]


@dataclass(frozen=True)
class Polled:
    """The poll at point ``index`` of entry ``step`` took every seat's answer."""

    step: int
    index: int


@dataclass(frozen=True)
class Rejected:
    """A frame from ``sender`` was not accepted; ``reason`` says why."""

    sender: int | None
    reason: str


@dataclass(frozen=True)
class Misbehaviour:
    """A seat broke the protocol; ``violation`` holds the signed proof."""

    violation: Violation


@dataclass(frozen=True)
class Finished:
    """The game is over.

    ``forfeit`` is set when it ended because the last opponents were ejected. That is a win by
    forfeit, never to be shown as a played win."""

    winners: tuple[int, ...]
    forfeit: bool = False


Event = Send | Logged | Flush | Applied | Rolled | Polled | Rejected | Misbehaviour | Finished
