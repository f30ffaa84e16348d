"""The signer of one seat: it seals every envelope the seat signs, in one unbroken sequence.

Theory of operation
-------------------
Every envelope this seat signs goes through :meth:`Signer.seal`. ``seq`` counts up from 0 and
``prev`` names the envelope before. So the seat's own stream never forks. After a restart the
protocol hands the signer each envelope it signed before, journal included, through
:meth:`Signer.resume`. The sequence goes on from the last one.

The signer knows the seat's key and its two chains. It never sends anything and holds no
replica. The protocol passes the replica to each call and takes in what comes back.

* A MOVE comes from :meth:`Signer.move`. It carries the action and the peek openings it needs;
  :meth:`Signer.openings` finds those. It carries this seat's chain value for the random event
  the move triggers. It carries the digest of the first point after it.
* :meth:`Signer.duties` does this seat's part at each point the replica reaches. It signs an ACK
  with its chain value for each random event. It signs them one at a time, as the replica
  consumes each before the next. It signs a plain ACK, once, for another seat's MOVE that
  triggers no event.
* A private random event is a peek. Its owner learns it from its peek chain. The others record
  it hidden. The others may be unable to apply a MOVE of the owner to the state as they hold it,
  the engine's ``public_view``. Then the MOVE carries the openings of the owner's unopened peeks.
  So the content becomes public with the move that needs it, even through a forwarded copy. The
  contract is in :mod:`kotp2p.net.replica.peeks`. Every peek still unopened when the game ends is
  opened then with an OPEN; see :meth:`Signer.peek_opening`.

A test peer that cheats subclasses :class:`Signer` and overrides :meth:`Signer.seal`,
:meth:`Signer.openings` or :meth:`Signer.duties`. The protocol makes its signer with
:meth:`~kotp2p.net.peer.protocol.PeerProtocol.make_signer`.
"""

from __future__ import annotations

from collections.abc import Sequence

from kotp2p.net.replica import Point, Replica
from kotp2p.net.trust import GameEngine, Poll, SecretChain
from kotp2p.net.wire import Envelope, Identity, Kind, Value, seal

Reveal = tuple[int, bytes, bytes | None]
"""A chain value as an envelope carries it: ``(k, x, next anchor or None)``."""


class Signer:
    """Seals the envelopes of one seat, numbered and linked in one sequence."""

    def __init__(self, identity: Identity, game_id: bytes, seat: int, chain: SecretChain,
                 peek_chain: SecretChain, engine: GameEngine) -> None:
        self.identity = identity
        self.game_id = game_id
        self.seat = seat
        self.chain = chain
        self.peek_chain = peek_chain
        self.engine = engine
        self._seq = 0
        self._prev = game_id
        self._acks_sent: set[tuple[int, bytes]] = set()
        """``(step, MOVE id)`` of each plain ACK signed."""

    @property
    def seq(self) -> int:
        """The sequence number of the next envelope."""
        return self._seq

    @property
    def prev(self) -> bytes:
        """The id the next envelope names as ``prev``: the last one sealed, or the game id."""
        return self._prev

    def resume(self, env: Envelope) -> None:
        """Go on after ``env``, an envelope this seat signed before a restart."""
        self._seq, self._prev = env.seq + 1, env.id
        if env.kind is Kind.ACK and not env.reveals:
            self._acks_sent.add((env.step, env.head))

    def seal(self, kind: Kind, step: int, head: bytes, payload: Sequence[Value] = (),
             reveals: Sequence[Reveal] = (), state_hash: bytes = b"") -> Envelope:
        """This seat's next envelope: signed, numbered and linked after the one before.

        Every envelope the seat signs comes through here. A cheating test signer overrides it
        to alter any field before it is signed.
        """
        env = seal(self.identity, game_id=self.game_id, author=self.seat, seq=self._seq,
                   prev=self._prev, head=head, step=step, kind=kind, payload=payload,
                   reveals=reveals, state_hash=state_hash)
        self._seq += 1
        self._prev = env.id
        return env

    def move(self, replica: Replica, action: Value, first: Point) -> Envelope:
        """The MOVE of ``action`` at the replica's next step. ``first`` is the first point after
        it. The caller checked that the action is legal."""
        k = first.k
        reveals = [self.chain.reveal(k)] if k is not None and first.alive[self.seat] else []
        openings = self.openings(replica, action, first.digest)
        return self.seal(Kind.MOVE, replica.step + 1, replica.head, [action, *openings],
                         reveals, first.digest)

    def answer(self, replica: Replica, action: Value) -> Envelope:
        """This seat's answer ``action`` to the poll pending at the replica's point: an ACK of
        that point carrying the action and the openings of the slots it shows face up. The caller
        checked that the action is legal."""
        p = replica.point
        openings = self.answer_openings(replica, action)
        return self.seal(Kind.ACK, p.step, replica.entries[p.step].id, [action, *openings], [],
                         p.digest)

    def answer_openings(self, replica: Replica, action: Value) -> list[Value]:
        """The openings an answer to a poll carries: one per slot the action shows face up."""
        view = self.engine.poll_view(replica.point.state, self.seat)
        return replica.hands.own_items(view, self.seat, None, action)

    def openings(self, replica: Replica, action: Value, digest: bytes) -> list[Value]:
        """The openings a MOVE of ``action`` must carry, when it leads to a state of ``digest``.

        First the hidden deck's part: the commitment of a deck the decision commits, and the
        opening of each slot the action shows face up; see :mod:`kotp2p.net.replica.hands`.
        Then the peeks: none if the others, holding this seat's peeks hidden, reach the same
        state. Else every peek of this seat still unopened, in order: a peek chain opens in
        order, and its later values give the earlier ones away anyway.
        """
        dealt = replica.hands.own_items(replica.state, self.seat, replica.point.pending, action)
        return dealt + self.peek_openings(replica, action, digest)

    def peek_openings(self, replica: Replica, action: Value, digest: bytes) -> list[Value]:
        """The peek openings a MOVE of ``action`` must carry; see :meth:`openings`."""
        mine = replica.unopened(self.seat)
        if not mine:
            return []
        try:
            seen = self.engine.apply_move(self.engine.public_view(replica.state), action)
        except ValueError:
            seen = None
        if seen is not None and self.engine.digest(seen) == digest:
            return []
        return [self.peek_opening(replica, k) for k in mine]

    def peek_opening(self, replica: Replica, k: int) -> list[Value]:
        """The opening of this seat's peek at random event ``k``.

        It is ``['peek', k, y]``, with the next anchor when there is one."""
        _, y, nxt = self.peek_chain.reveal(replica.private[k].n)
        return ["peek", k, y] if nxt is None else ["peek", k, y, nxt]

    def duties(self, replica: Replica, points: list[Point]) -> list[Envelope]:
        """This seat's ACKs and chain values for the points just reached, in order."""
        out: list[Envelope] = []
        for p in points:
            if not p.alive[self.seat]:
                continue
            entry = replica.entries[p.step]
            k = p.k
            if k is not None and (self.seat, k) not in replica.revealed:
                out.append(self.seal(Kind.ACK, p.step, entry.id, [], [self.chain.reveal(k)],
                                     p.digest))
                return out  # one envelope at a time; the replica consumes it before the next
            polled = isinstance(p.pending, Poll) and self.seat in p.pending.seats
            if (p.index == 0 and k is None and entry.kind == "move" and entry.seat != self.seat
                    and not polled and (p.step, entry.id) not in self._acks_sent):
                self._acks_sent.add((p.step, entry.id))
                out.append(self.seal(Kind.ACK, p.step, entry.id, [], [], p.digest))
        return out
