"""When the game waits: who holds it up, the STALL that says so, and the votes to eject.

Theory of operation
-------------------
The protocol has no clock. The caller tells it that a deadline passed, through
:meth:`~kotp2p.net.peer.protocol.PeerProtocol.soft_timeout` or
:meth:`~kotp2p.net.peer.protocol.PeerProtocol.hard_timeout`. It then asks its
:class:`StallKeeper` what to sign. :meth:`StallKeeper.blocking` gives the seats holding the game
up. They are those owing an ACK of the last MOVE, else those whose MOVE or value is due.

* At a soft deadline, a STALL names the first seat this seat waits on. It is bound to the state
  it waits at; see :meth:`StallKeeper.stall`. It is sent once per state and seat named. None is
  sent once the game is over. A seat that voted at an earlier state of the step sees from it
  that we went on without that vote.
* A STALL and a vote say whether this seat holds an ACK of the last MOVE from every seat owing
  one. A seat that voted out a seat for its missing ACK learns from such a claim that the vote
  can never pass. The seat named may owe an ACK and be the next to move, so the seat named
  alone cannot say it.
* At a hard deadline, this seat votes to EJECT every seat holding the game up; see
  :meth:`StallKeeper.vote`. After voting, the replica holds that seat's envelopes for the step.
  That is its ``frozen``. It holds them until the ejection completes or another seat shows the
  game moved on. So all honest seats take the same branch.
* A convicted seat is voted out with no deadline, once the game waits on it. The protocol asks
  for that vote after each change, so honest seats keep playing.

A vote is cast once per seat named and state, by a live seat only. It is never cast once the
game is over. A seat may be restored behind what it signed before, its replica at an earlier
step. It casts no vote until it is back there, since it had gone past those points.
"""

from __future__ import annotations

from kotp2p.net.peer.signer import Signer
from kotp2p.net.replica import Replica
from kotp2p.net.wire import Envelope, Kind


class StallKeeper:
    """Decides and signs this seat's STALLs and votes to eject."""

    def __init__(self, seat: int, signer: Signer) -> None:
        self.seat = seat
        self.signer = signer
        self.restored_at = -1
        """After a restore: the highest step this seat had signed an envelope at."""
        self._voted: set[tuple[int, bytes]] = set()
        """``(seat named, state)`` of each vote to eject this seat signed."""
        self._stalled: set[tuple[int, int, bytes]] = set()
        """``(step, seat named, state)`` of each STALL this seat signed."""

    def recall(self, env: Envelope) -> None:
        """Remember ``env``, a STALL or vote this seat signed before a restart."""
        if env.kind is Kind.EJECT and env.payload:
            target = env.payload[0]
            if isinstance(target, int):
                self._voted.add((target, env.state_hash))
        elif env.kind is Kind.STALL and env.payload and isinstance(env.payload[0], int):
            self._stalled.add((env.step, env.payload[0], env.state_hash))

    def blocking(self, replica: Replica) -> tuple[int, ...]:
        """The seats holding the game up.

        They are those owing an ACK. Else they are those whose MOVE or value is due."""
        return replica.owed_acks() or replica.waiting_for()

    def stall(self, replica: Replica) -> Envelope | None:
        """The STALL to send at a soft deadline, or None.

        It names the first other seat the game waits on, at the state it waits at. It goes once
        per state and seat named."""
        r = replica
        waiting = [s for s in self.blocking(r) if s != self.seat]
        here = (r.step, waiting[0], r.point.digest) if waiting and not r.is_over else None
        if here is None or here in self._stalled or not r.point.alive[self.seat]:
            return None
        self._stalled.add(here)
        return self.signer.seal(Kind.STALL, r.step, r.head, [waiting[0], not r.owed_acks()],
                                state_hash=r.point.digest)

    def vote(self, replica: Replica, target: int) -> Envelope | None:
        """A vote to eject ``target`` at the point the game waits at, or None.

        None comes when this seat may not vote there or voted so already. The vote freezes
        ``target`` in the replica for the step."""
        r = replica
        if (target, r.point.digest) in self._voted or not r.point.alive[self.seat]:
            return None
        if self.restored_at > r.step:
            return None  # restored behind what it signed, so it went past this point before
        if r.is_over:
            return None  # the last MOVE's ACKs are owed, but no vote may name a seat then
        r.frozen[target] = r.step
        return self.sign_vote(r, target)

    def sign_vote(self, replica: Replica, target: int) -> Envelope | None:
        """A vote to eject ``target`` at the replica's point, with one check only.

        The check is that this seat has not voted so already. :meth:`vote` uses it. A cheating
        test peer may call it to vote where it may not."""
        r = replica
        key = (target, r.point.digest)
        if key in self._voted:
            return None
        self._voted.add(key)
        return self.signer.seal(Kind.EJECT, r.step, r.head, [target, not r.owed_acks()],
                                state_hash=r.point.digest)
