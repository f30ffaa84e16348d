"""When the game waits: who holds it up, the STALL that says so, and the votes to eject.

Theory of operation
-------------------
The protocol has no clock: the caller tells it that a deadline passed
(:meth:`Stalls.soft_timeout`, :meth:`Stalls.hard_timeout`). The seats holding the game up
(:meth:`Stalls.blocking`) are those owing an ACK of the last MOVE, else those whose MOVE or
value is due.

* A soft deadline: a STALL names the first seat this seat waits on, bound to the state it waits
  at (once per state and seat named, none once the game is over: a seat that voted at an
  earlier state of the step sees we went on without that vote). The proof of each conviction
  goes out again (a forwarded copy may have been lost: a peer that never sees the other branch
  of a split ACK stays on it and votes out who does), the ``sync`` budget is refilled and every
  hole is asked for again (:mod:`kotp2p.net.peer.sync`).
* A hard deadline: a vote to EJECT every seat holding the game up. After voting, the protocol
  holds that seat's envelopes for the step (the replica's ``frozen``) until the ejection
  completes or another seat shows the game moved on, so all honest seats take the same branch.
* A convicted seat is voted out with no deadline, once the game waits on it
  (:meth:`Stalls._ejections`, after each change): honest seats keep playing.

A vote is cast once per seat named and state, by a live seat only, and never once the game is
over. A seat restored behind what it signed before (its replica at an earlier step) casts no
vote until it is back there: it had gone past those points.
"""

from __future__ import annotations

from kotp2p.net.peer.peer_events import Event, Send
from kotp2p.net.peer.protocol_parts import ProtocolParts
from kotp2p.net.wire import Kind


class Stalls(ProtocolParts):
    """The protocol's deadlines, STALLs and votes to eject (a mixin of
    :class:`~kotp2p.net.peer.protocol.PeerProtocol`)."""

    def soft_timeout(self) -> list[Event]:
        """A soft deadline passed: say who we wait for and where (STALL, once per state of the
        game and seat named, none once the game is over: its ``state_hash`` is that state's,
        so a seat that voted at an earlier state of the step sees we went on without that
        vote), send again the
        proof of each conviction (the forwarded copy may have been lost: a peer that never
        sees the other branch of a split ACK stays on it and votes out who does) and ask peers
        to resend whatever we miss."""
        r = self.replica
        out: list[Event] = [Send(e.frame, self._others())
                            for v in r.convicted.values() for e in v.evidence]
        self._sync_sent.clear()
        waiting = [s for s in self.blocking() if s != self.seat]
        here = (r.step, waiting[0], r.point.digest) if waiting and not r.is_over else None
        if here is not None and here not in self._stalled and r.point.alive[self.seat]:
            self._stalled.add(here)
            out += self._own(self._seal(Kind.STALL, r.step, r.head, [waiting[0]],
                                        state_hash=r.point.digest), broadcast=True)
        return out + self.sync_requests()

    def blocking(self) -> tuple[int, ...]:
        """The seats holding the game up: those owing an ACK, else those whose MOVE or value
        is due."""
        return self.replica.owed_acks() or self.waiting_for()

    def hard_timeout(self) -> list[Event]:
        """A hard deadline passed: vote to eject every seat holding the game up."""
        out: list[Event] = []
        for target in self.blocking():
            if target != self.seat:
                out += self._vote(target)
        return out

    def _ejections(self) -> list[Event]:
        """Vote to eject a convicted seat once the game waits on it."""
        if not self.replica.cut:
            return []  # (no seat convicted: nobody to vote out)
        out: list[Event] = []
        for target in self.blocking():
            if target in self.replica.cut and target != self.seat:
                out += self._vote(target)
        return out

    def _vote(self, target: int) -> list[Event]:
        """Vote to eject ``target`` at the point the game waits at, unless this seat may not."""
        r = self.replica
        if (target, r.point.digest) in self._voted or not r.point.alive[self.seat]:
            return []
        if self._restored_at > r.step:
            return []  # restored behind what it signed: it went past this point before
        if r.is_over:
            return []  # (the last MOVE's ACKs are owed, but no vote may name a seat then)
        self._voted.add((target, r.point.digest))
        r.frozen[target] = r.step
        env = self._seal(Kind.EJECT, r.step, r.head, [target], state_hash=r.point.digest)
        return self._own(env, broadcast=True)

