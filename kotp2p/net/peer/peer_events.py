"""The events a :class:`~kotp2p.net.peer.protocol.PeerProtocol` returns: frames to send, bytes to log,
and what happened (a move applied, a roll, a refused frame, a peer's violation, the end)."""

from __future__ import annotations

from dataclasses import dataclass

from kotp2p.net.replica import Violation


@dataclass(frozen=True)
class Send:
    """Deliver ``frame`` (length prefix included) to each seat in ``to``. ``forwarded``: a copy
    of another seat's envelope passed on (nobody waits on it; it may leave with what follows,
    never after it)."""

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
    """A global entry (MOVE or ejection) was applied; ``description`` is plain text."""

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
    """The game is over; ``forfeit`` when it ended because the last opponents were ejected (a
    win by forfeit, never to be shown as a played win)."""

    winners: tuple[int, ...]
    forfeit: bool = False


Event = Send | Logged | Flush | Applied | Rolled | Rejected | Misbehaviour | Finished
