"""Time in a session: when bots decide, and the soft and hard deadlines of a game that waits.

Theory of operation
-------------------
The session has no clock: every input comes with the time (``now``), and the caller calls
:meth:`~kotp2p.net.session.session.Session.tick` again by :meth:`Deadlines.next_wakeup`.

* Bots decide when their seat's protocol says so (``my_turn``), after ``bot_delay`` seconds.
* The game *waits* since the last progress of the view's replica (a step applied or a random
  event resolved). After ``soft`` seconds every local seat sends its STALL and asks peers for
  what it misses (again every ``soft`` seconds; the first time, the view is told whom it waits
  for: :class:`~kotp2p.net.session.updates.Waiting`); after ``hard`` seconds bot seats vote to eject
  whoever holds the game up and a human seat is asked
  (:class:`~kotp2p.net.session.updates.EjectAsked`, answered by :meth:`Deadlines.vote_eject`). The
  replica ejects only on the votes of every other live seat. What a seat sends at each
  deadline is the protocol's (:mod:`kotp2p.net.peer.stalls`).
* Once the game is over no deadline fires: the session only waits, ``grace`` seconds, for the
  last envelopes of the others.
"""

from __future__ import annotations

from kotp2p.net.session.session_parts import SessionParts
from kotp2p.net.session.updates import EjectAsked, Waiting
from kotp2p.net.wire import LocalProtocolError


class Deadlines(SessionParts):
    """The session's bots' delay and deadlines (a mixin of
    :class:`~kotp2p.net.session.session.Session`)."""

    def awaited(self) -> tuple[tuple[int, ...], float]:
        """The seats the game waits on and since when (time as passed in)."""
        return self.protocol.blocking(), self._since

    def next_wakeup(self) -> float | None:
        """The time :meth:`tick` must be called at next (None: only when something arrives)."""
        if self.stopped or self.is_done:
            return None
        if self._over is not None:
            return self._over_at + self.grace
        times = [since + self.bot_delay for seat, (_, since) in self._turn_since.items()
                 if self.seats[seat].decide is not None]
        due = self._held.next_due()
        if due is not None:
            times.append(due)
        if self._soft_at is not None:
            times.append(self._soft_at)
        if self.timeouts.hard is not None and not self._hard_done:
            times.append(self._since + self.timeouts.hard)
        return min(times) if times else None

    def vote_eject(self, now: float) -> None:
        """The view's human agrees to eject the seats holding the game up; nothing happens
        unless every other live seat votes the same.

        :raises LocalProtocolError: the hard deadline of the current wait has not passed.
        """
        with self._working():
            hard = self.timeouts.hard
            overdue = tuple(s for s in self.protocol.blocking() if s not in self.seats)
            if hard is None or now < self._since + hard or not overdue or self.is_over:
                raise LocalProtocolError("nobody is overdue: a vote to eject comes after the "
                                         "hard deadline")
            self._handle(self.me, self.protocol.hard_timeout())
            self._run(now)

    def _bots(self, now: float) -> bool:
        """Let each bot whose turn it is decide (once its delay passed); True if one did."""
        acted = False
        for seat, ls in self.seats.items():
            p = ls.protocol
            if not p.my_turn:
                self._turn_since.pop(seat, None)
                continue
            step = p.replica.step
            if self._turn_since.get(seat, (-1, 0.0))[0] != step:
                self._turn_since[seat] = (step, now)
            if ls.decide is None or now < self._turn_since[seat][1] + self.bot_delay:
                continue
            self._turn_since.pop(seat, None)
            self._handle(seat, p.submit(ls.decide(p.state)))
            acted = True
        return acted

    def _deadlines(self, now: float) -> bool:
        """Fire the deadlines that passed; True if that gave the local seats something to do."""
        r = self.protocol.replica
        progress = r.step + len(r.resolved)
        if progress != self._progress:
            self._progress = progress
            self._since = now
            self._hard_done = False
            self._soft_at = None if self.timeouts.soft is None else now + self.timeouts.soft
        if self._over is not None:
            return False
        acted = False
        blocking = tuple(s for s in self.protocol.blocking() if s not in self.seats)
        if self._soft_at is not None and now >= self._soft_at:
            assert self.timeouts.soft is not None
            first = self._soft_at == self._since + self.timeouts.soft
            self._soft_at = now + self.timeouts.soft
            if blocking:
                if first:
                    self._updates.append(Waiting(blocking, self._since))
                for seat, ls in self.seats.items():
                    self._handle(seat, ls.protocol.soft_timeout())
                acted = True
        hard = self.timeouts.hard
        if hard is not None and not self._hard_done and now >= self._since + hard:
            self._hard_done = True
            if blocking:
                for seat, ls in self.seats.items():
                    if ls.decide is not None:
                        self._handle(seat, ls.protocol.hard_timeout())
                if self.seats[self.me].decide is None:
                    self._updates.append(EjectAsked(blocking))
                acted = True
        return acted

