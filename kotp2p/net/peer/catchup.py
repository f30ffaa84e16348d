"""After a restart: learn what this seat signed before, from its peers, before signing anything.

Theory of operation
-------------------
A seat restored from its log and journal may not know every envelope it signed before. The
journal may be lost, cut or damaged, and it cannot always tell. If the seat signed a second,
different envelope at a sequence number it had used, that would be a fork: its own conviction.

So a restored seat with remote peers *holds*. It signs nothing, not even an ACK, a STALL or a
vote. It asks each remote peer for its own stream, ``["sync", seat, seq]``. A peer answers with
the envelopes of this seat it holds from ``seq`` on, then ``["held", seat, top, peer]``: it holds
none at ``top`` or above; see :mod:`kotp2p.net.peer.sync`. Each envelope carries this seat's own
signature, checked like any other, so a peer cannot forge one. The protocol takes them into its
replica, and the session journals them. A peer has *answered* once its ``top`` is at most one past
the highest envelope this seat holds of itself. When its ``top`` is higher, this seat asks it again
from its first hole, once more envelopes came.

The seat goes on once every remote peer answered. It signs its next envelope after the highest one
it holds. So it never signs a second envelope at a sequence number a peer that answered holds.

A peer that never answers delays the seat; it cannot make it sign. A marker names the peer that
answers, as a process playing several seats sends their frames on any of its links. A seat of the
game could name another in its marker. That gains it no more than the session's way out below,
sooner. Old envelopes in an answer are
only copies. A forged one fails its signature check. The session may let the seat go on with the
answers it has, once at least one peer answered and the game's hard deadline passed since the
restart; see :meth:`CatchUp.give_up_on`. A peer that kept an envelope to itself and never answered
could then show a fork. That needs a lost journal and a peer that held an envelope the others
never got.
"""

from __future__ import annotations

from collections.abc import Collection

from kotp2p.net.peer.peer_events import Event, Rejected, Send
from kotp2p.net.peer.sync import SYNC, read_held
from kotp2p.net.replica import Replica
from kotp2p.net.wire import codec


class CatchUp:
    """Which remote peers still have to say what they hold of this seat's own stream."""

    def __init__(self, seat: int, peers: Collection[int]) -> None:
        self.seat = seat
        self.waiting: set[int] = set(peers)
        """Remote peers that have not answered yet."""
        self.answered: set[int] = set()
        """Remote peers that answered."""
        self._asked: dict[int, int] = {}
        """By peer, how many of its own envelopes this seat held when it last asked that peer."""

    @property
    def holding(self) -> bool:
        """Some remote peer has not answered yet: the seat signs nothing."""
        return bool(self.waiting)

    def requests(self, replica: Replica, to: Collection[int] | None = None) -> list[Event]:
        """Ask the peers still waited for, or those of them in ``to``, for this seat's stream.

        It is asked from its first envelope this seat does not hold."""
        peers = tuple(sorted(p for p in self.waiting if to is None or p in to))
        if not peers:
            return []
        stream = replica.streams[self.seat]
        for p in peers:
            self._asked[p] = len(stream)
        frame = codec.frame(codec.pack([SYNC, self.seat, _first_hole(replica, self.seat)]))
        return [Send(frame, peers)]

    def heard(self, replica: Replica, payload: bytes, sender: int | None) -> list[Event]:
        """A ``held`` marker came from remote ``sender``.

        The seat it names has answered, if this seat holds its own stream that far. Else it is
        asked again, if more envelopes came since it was last asked."""
        held = read_held(payload)
        if held is None:
            return [Rejected(sender, "held: expected ['held', author, top, seat], each >= 0")]
        author, top, peer = held
        if author != self.seat or peer not in self.waiting:
            return []
        stream = replica.streams[self.seat]
        if top <= (max(stream) + 1 if stream else 0):
            self.waiting.discard(peer)
            self.answered.add(peer)
            return []
        if len(stream) > self._asked.get(peer, -1):
            return self.requests(replica, (peer,))  # its answer was cut at its bound: ask on
        return []

    def give_up_on(self) -> tuple[int, ...]:
        """Stop waiting for the peers that have not answered, and name them.

        Nothing happens, and the answer is empty, unless at least one peer answered."""
        if not self.answered:
            return ()
        late = tuple(sorted(self.waiting))
        self.waiting.clear()
        return late


def _first_hole(replica: Replica, seat: int) -> int:
    """The first sequence number of ``seat``'s own stream that the replica does not hold."""
    stream = replica.streams[seat]
    q = replica.cursor[seat]
    while q in stream:
        q += 1
    return q
