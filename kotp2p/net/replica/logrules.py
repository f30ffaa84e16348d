"""The log rules of the replica: when a step's block of the ``.kotlog`` is complete, and which
consumed envelopes it holds (a mixin of :class:`~kotp2p.net.replica.replica.Replica`; the order inside
a block, and why, is in :mod:`kotp2p.net.replica.logorder`)."""

from __future__ import annotations

from kotp2p.net.replica.history import Point
from kotp2p.net.replica.replica_parts import ReplicaParts
from kotp2p.net.wire import Envelope


class LogRules(ReplicaParts):
    """The replica's side of the canonical log order."""

    def _closed(self, s: int) -> bool:
        entries = self.entries  # (self.step and self.point, without the calls: asked often)
        if s < len(entries) - 1:
            # entry s+1 needed every envelope step s required; what else a live seat says at
            # step s (a STALL, a CHAT) comes before its first envelope of a later step, which
            # every live seat sends (an ACK or a value): once each has, block s is complete
            alive = entries[-1].points[-1].alive
            last_step, cut, ejected = self._last_step, self.cut, self.ejected
            for a in range(self.n):
                if last_step[a] <= s and alive[a] and a not in cut and a not in ejected:
                    return False
            return True
        if s > self.step or not self.is_over:
            return False
        alive = self.point.alive
        if any(self.owed_openings(a) for a in range(self.n)):
            return False
        return all(a in self.byes or a in self.cut or not alive[a] for a in range(self.n))

    def use(self, env: Envelope, p: Point) -> None:
        """Record that the game took ``env`` (an ACK, with or without a value) at point ``p``."""
        self.used.add(env.id)
        self.used_at[(env.author, p.step, p.index)] = env.id

    def _in_block(self, env: Envelope) -> bool:
        """Whether ``env`` goes into its step's block of the log. Not if its author left the
        game before it and the game did not use it: honest replicas read such an envelope or
        not depending on when it came, while whatever the game used of it, all of them used.
        (Envelopes proving a violation are logged in the closing section anyway.)

        * A forker's, from its fork on (replicas cut a forker where they learnt of the fork;
          ``verify`` needs nothing past the fork but what the game used, see
          :meth:`take_spare`).
        * An ejected seat's, from the step of the point where it was ejected on, past the last
          one the game used or that proves its violation (an envelope in flight there, or sent
          later): each author's logged envelopes stay a gapless run, as ``verify`` reads
          them in order."""
        a = env.author
        if env.id in self.used or env.id in self.entry_ids:
            return True
        if a in self.fork_base:
            return env.seq < min(self.cut.get(a, self.fork_base[a]), self.fork_base[a])
        gone = self.ejected.get(a)
        return gone is None or env.step < gone - 1 or env.seq <= self._last_needed(a)

    def _last_needed(self, a: int) -> int:
        """The highest seq of ``a``'s envelopes that the game used or that prove its violation
        (-1 if none)."""
        v = self.convicted.get(a)
        key = (self.cursor[a], len(self.used), len(self.entry_ids), v is not None)
        known = self._needed.get(a)
        if known is not None and known[0] == key:
            return known[1]  # (an ejected seat may send many envelopes: each one asks)
        last = max((e.seq for e in v.evidence if e.author == a), default=-1) if v else -1
        stream = self.streams[a]
        for q in range(self.cursor[a] - 1, last, -1):  # (what the game used, it read)
            e = stream.get(q)
            if e is not None and (e.id in self.used or e.id in self.entry_ids):
                last = q
                break
        self._needed[a] = (key, last)
        return last

    @property
    def log_complete(self) -> bool:
        """The game is over and its last step is closed (every live seat said BYE): the log
        of this replica holds the whole game."""
        return self.is_over and self._closed(self.step)

    def close_blocks(self) -> list[Envelope]:
        """Consumed envelopes of the steps every live seat has moved past, in the canonical
        order of :class:`~kotp2p.net.replica.logorder.LogOrder`."""
        entries = self.entries
        step, over = len(entries) - 1, entries[-1].points[-1].pending is None
        if not over:
            # before the end, the current step's block never closes (see _closed), and the
            # blocks close in order: nothing to hand out unless the first open one is closed
            written = self.log_order.written
            if written >= step or not self._closed(written):
                return []
        return self.log_order.close(self._closed, step, over)

    def drain(self) -> list[Envelope]:
        """Every consumed envelope not handed out yet (when stopping before the end)."""
        return self.log_order.drain()
