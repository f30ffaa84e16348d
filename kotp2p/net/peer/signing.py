"""What a seat signs: its decisions, its part at each point the game reaches, its chat and its
openings, each sealed in one unbroken sequence.

Theory of operation
-------------------
Every envelope this seat signs is sealed by :meth:`Signing._seal`: ``seq`` counts up from 0 and
``prev`` names the envelope before, so the seat's own stream never forks (after a restart,
:meth:`~kotp2p.net.peer.protocol.PeerProtocol.restore` sets both from what it signed before, journal
included). Each goes to every other seat and is then taken in by this seat's own replica like
any received envelope (:meth:`Signing._own`), so the seat holds what the others compute from
the same bytes.

* A MOVE (:meth:`Signing.submit`, once :attr:`~kotp2p.net.peer.protocol.PeerProtocol.my_turn`):
  the action, the peek openings it needs, this seat's chain value for the random event the move
  triggers, and the digest of the first point after it.
* Its part at each point the replica reaches (:meth:`Signing._duties`, called by the protocol
  after each change): an ACK with its chain value for each random event, one at a time (the
  replica consumes it before the next), and a plain ACK, once, for another seat's MOVE that
  triggers no event.
* A private random event (a peek) is learnt by its owner from its peek chain; the others record
  it hidden. A MOVE of the owner that the others could not apply as they hold the state (the
  engine's ``public_view``) carries the openings of the owner's unopened peeks in its payload,
  so the content becomes public with the move that needs it, even through a forwarded copy (the
  contract is in :mod:`kotp2p.net.replica.peeks`). Every peek still unopened when the game ends is
  opened then with an OPEN (:meth:`Signing.open_peek`), unless this seat was ejected.
* Chat lines and the OPEN of a committed slot, when the caller asks.

STALLs and votes to eject (:mod:`kotp2p.net.peer.stalls`) and the BYE at the end (sent by the
protocol as it reports the result) are sealed by :meth:`Signing._seal` too.
"""

from __future__ import annotations

from collections.abc import Sequence

from kotp2p.net.peer.peer_events import Event, Send
from kotp2p.net.peer.protocol_parts import ProtocolParts
from kotp2p.net.replica import Point
from kotp2p.net.wire import Envelope, Kind, LocalProtocolError, Value, seal


class Signing(ProtocolParts):
    """The envelopes this seat signs (a mixin of :class:`~kotp2p.net.peer.protocol.PeerProtocol`)."""

    def submit(self, action: Value) -> list[Event]:
        """Sign and send this seat's decision (the action in the engine's wire form).

        :raises LocalProtocolError: not this seat's turn, or the action is illegal.
        """
        if not self.my_turn:
            raise LocalProtocolError(f"seat {self.seat} has no decision pending")
        r = self.replica
        try:
            after = self.engine.apply_move(r.state, action)
        except ValueError as exc:
            raise LocalProtocolError(f"illegal action {action!r}: {exc}") from None
        first = r.first_point(after, r.step + 1)
        k = first.k
        reveals = [self.chain.reveal(k)] if k is not None and first.alive[self.seat] else []
        openings = self._openings(action, first.digest)
        env = self._seal(Kind.MOVE, r.step + 1, r.head, [action, *openings], reveals,
                         first.digest)
        self._moved = r.step + 1
        r.own_move = (env.id, r.state, first)  # (what applying it gives: not worked out twice)
        return self._own(env, broadcast=True)

    def chat(self, text: str) -> list[Event]:
        """Send a chat line (signed and logged like everything else)."""
        r = self.replica
        return self._own(self._seal(Kind.CHAT, r.step, r.head, [text[:500]]), broadcast=True)

    def open_slot(self, index: int) -> list[Event]:
        """Open one of this seat's committed private slots."""
        if self.slots is None:
            raise LocalProtocolError("this seat has no private slots")
        i, salt, content = self.slots.opening(index)
        r = self.replica
        return self._own(self._seal(Kind.OPEN, r.step, r.head, ["slot", i, salt, content]),
                         broadcast=True)

    def open_peek(self, k: int) -> list[Event]:
        """Open this seat's private random event ``k`` (once it may become public): the peek
        chain value that lets every replica check and learn it."""
        r = self.replica
        priv = r.private.get(k)
        if priv is None or priv.owner != self.seat:
            raise LocalProtocolError(f"event {k} is not a private event of seat {self.seat}")
        if k not in r.unopened(self.seat):
            return []
        return self._own(self._seal(Kind.OPEN, r.step, r.head, self._peek_opening(k)),
                         broadcast=True)

    def _peek_opening(self, k: int) -> list[Value]:
        """``['peek', k, y]`` (or with the next anchor): the opening of this seat's peek at k."""
        _, y, nxt = self.peek_chain.reveal(self.replica.private[k].n)
        return ["peek", k, y] if nxt is None else ["peek", k, y, nxt]

    def _openings(self, action: Value, digest: bytes) -> list[Value]:
        """The openings a MOVE of ``action`` (leading to a state of ``digest``) must carry: none
        if the others, holding this seat's peeks hidden, reach the same state; else every peek
        of this seat still unopened, in order (a peek chain opens in order, and its later values
        give the earlier ones away anyway)."""
        r = self.replica
        mine = r.unopened(self.seat)
        if not mine:
            return []
        try:
            seen = self.engine.apply_move(self.engine.public_view(r.state), action)
        except ValueError:
            seen = None
        if seen is not None and self.engine.digest(seen) == digest:
            return []
        return [self._peek_opening(k) for k in mine]

    def _seal(
        self,
        kind: Kind,
        step: int,
        head: bytes,
        payload: Sequence[Value] = (),
        reveals: Sequence[tuple[int, bytes, bytes | None]] = (),
        state_hash: bytes = b"",
    ) -> Envelope:
        """This seat's next envelope: signed, numbered and linked after the one before."""
        env = seal(self.identity, game_id=self.genesis.game_id, author=self.seat, seq=self._seq,
                   prev=self._prev, head=head, step=step, kind=kind, payload=payload,
                   reveals=reveals, state_hash=state_hash)
        self._seq += 1
        self._prev = env.id
        return env

    def _own(self, env: Envelope, broadcast: bool) -> list[Event]:
        """Send ``env`` (with ``broadcast``) to every other seat and take it in here."""
        out: list[Event] = [Send(env.frame, self._others())] if broadcast else []
        return out + self._accept(env, forward_from=self.seat)

    def _duties(self, points: list[Point]) -> list[Envelope]:
        """This seat's ACKs and reveals for the points just reached, in order."""
        if not self._started:
            return []
        r = self.replica
        out: list[Envelope] = []
        for p in points:
            if not p.alive[self.seat]:
                continue
            entry = r.entries[p.step]
            k = p.k
            if k is not None and (self.seat, k) not in r.revealed:
                out.append(self._seal(Kind.ACK, p.step, entry.id, [], [self.chain.reveal(k)],
                                      p.digest))
                return out  # one envelope at a time: the replica consumes it before the next
            if (p.index == 0 and k is None and entry.kind == "move" and entry.seat != self.seat
                    and (p.step, entry.id) not in self._acks_sent):
                self._acks_sent.add((p.step, entry.id))
                out.append(self._seal(Kind.ACK, p.step, entry.id, [], [], p.digest))
        return out

