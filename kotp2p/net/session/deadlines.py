"""Time in a session: when bots decide, and the soft and hard deadlines of a game that waits.

Theory of operation
-------------------
The session has no clock. Every input comes with the time, ``now``. The caller calls
:meth:`~kotp2p.net.session.session.Session.tick` again by its ``next_wakeup``. A
:class:`Deadlines` only keeps the times. It says what is due; the session acts on it.

* A bot decides when its seat's protocol says so through ``my_turn``. It decides
  ``bot_delay`` seconds after its turn came; see :meth:`Deadlines.bot_ready`.
* The game *waits* since the last progress of the view's replica. Progress is a step applied or
  a random event resolved; see :meth:`Deadlines.progressed`. The soft deadline passes ``soft``
  seconds later, and again every ``soft`` seconds; see :meth:`Deadlines.soft_due`. The hard
  deadline passes once, ``hard`` seconds after the last progress; see :meth:`Deadlines.hard_due`.
* At a soft deadline every local seat sends its STALL and asks peers for what it misses. The
  first time, the view is told whom it waits for with
  :class:`~kotp2p.net.session.updates.Waiting`.
* At the hard deadline bot seats vote to eject whoever holds the game up. A human seat is asked
  with :class:`~kotp2p.net.session.updates.EjectAsked`. The replica ejects only on the votes of
  every other live seat. What a seat sends at each deadline is the protocol's; see
  :mod:`kotp2p.net.peer.stalls`.
* Once the game is over the session fires no deadline. It only waits for the last envelopes of
  the others.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

DEFAULT_SOFT = 10.0
DEFAULT_HARD = 120.0

SoftDeadline = Literal["first", "again"]
"""A soft deadline that passed: the first one of the current wait, or a later one."""


@dataclass(frozen=True)
class Timeouts:
    """Seconds without progress before the soft and hard deadlines. None means never."""

    soft: float | None = DEFAULT_SOFT
    hard: float | None = DEFAULT_HARD


class Deadlines:
    """The times of a session: each seat's turn, the bots' delay, the soft and hard deadlines."""

    def __init__(self, timeouts: Timeouts, bot_delay: float) -> None:
        self.timeouts = timeouts
        self.bot_delay = bot_delay
        """Seconds a bot waits before it decides."""
        self.since = 0.0
        """When the game last made progress, in the time passed in."""
        self._progress = -1
        self._soft_at: float | None = None
        self._hard_done = False
        self._turn_since: dict[int, tuple[int, float]] = {}
        """By seat whose turn it is: the step, and when the turn came."""

    def begin(self, now: float) -> None:
        """The game starts or resumes waiting at ``now``."""
        self.since = now
        self._soft_at = None if self.timeouts.soft is None else now + self.timeouts.soft

    def bot_ready(self, seat: int, step: int, now: float) -> bool:
        """``seat`` must decide at ``step``. Note when that turn came.

        Say whether a bot there has waited its delay."""
        if self._turn_since.get(seat, (-1, 0.0))[0] != step:
            self._turn_since[seat] = (step, now)
        return now >= self._turn_since[seat][1] + self.bot_delay

    def turn_done(self, seat: int) -> None:
        """``seat`` has nothing to decide, or nothing any more."""
        self._turn_since.pop(seat, None)

    def progressed(self, progress: int, now: float) -> None:
        """The view's replica counts ``progress``, its steps plus its random events resolved.
        If that moved, the wait starts again at ``now``."""
        if progress != self._progress:
            self._progress = progress
            self.since = now
            self._hard_done = False
            self._soft_at = None if self.timeouts.soft is None else now + self.timeouts.soft

    def soft_due(self, now: float) -> SoftDeadline | None:
        """The soft deadline that passed by ``now``, if one did.

        The next one is then ``soft`` seconds after ``now``."""
        soft = self.timeouts.soft
        if self._soft_at is None or now < self._soft_at:
            return None
        assert soft is not None
        first = self._soft_at == self.since + soft
        self._soft_at = now + soft
        return "first" if first else "again"

    def hard_due(self, now: float) -> bool:
        """The hard deadline of the current wait passed by ``now``, and was not told yet."""
        hard = self.timeouts.hard
        if hard is None or self._hard_done or now < self.since + hard:
            return False
        self._hard_done = True
        return True

    def hard_passed(self, now: float) -> bool:
        """The hard deadline of the current wait is behind ``now``, told already or not."""
        hard = self.timeouts.hard
        return hard is not None and now >= self.since + hard

    def next_due(self, is_bot: Callable[[int], bool]) -> float | None:
        """The next time something is due: a bot's delay over, or a deadline.

        None means nothing is. ``is_bot(seat)`` says whether a bot plays ``seat``."""
        times = [since + self.bot_delay for seat, (_, since) in self._turn_since.items()
                 if is_bot(seat)]
        if self._soft_at is not None:
            times.append(self._soft_at)
        if self.timeouts.hard is not None and not self._hard_done:
            times.append(self.since + self.timeouts.hard)
        return min(times) if times else None
