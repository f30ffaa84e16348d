"""Frames for remote seats: the session's outbox, and the forwarded copies it holds back.

Theory of operation
-------------------
A ``Send`` of a local seat to a remote seat goes to the outbox; the transport drains it
(:meth:`Outbox.outgoing`) onto each seat's link, in order. A frame sent by several local seats
to one remote seat goes once per drain. A frame of ours that is not a forwarded copy makes the
outbox urgent (:attr:`~kotp2p.net.session.session.Session.has_news`): the transport sends it before
reading on; forwarded copies alone may wait.

A *forwarded* copy is held back (:mod:`kotp2p.net.session.forwards`): the copies of one input are held
once the input is handled (:meth:`Outbox._forward`), and a held copy leaves with the next frame
of ours to that seat, ahead of it (on each link an envelope never arrives after one that builds
on it), or on its own a moment later. It goes not at all to a seat that showed it holds the
envelope: the seat sent us the same frame (:meth:`Outbox.is_copy`, and the holders of
:meth:`~kotp2p.net.session.session.Session.receive`), or we sent it that frame ourselves (a ``sync``
answer, say). Once the game is over every held copy leaves: nothing is waited on any more.

Frames between local seats never reach the outbox: the session delivers them in the same call.
"""

from __future__ import annotations

from kotp2p.net.session.session_parts import SessionParts


class Outbox(SessionParts):
    """The session's frames for remote seats (a mixin of
    :class:`~kotp2p.net.session.session.Session`)."""

    def is_copy(self, payload: bytes, sender: int | None = None) -> bool:
        """Every local seat holds the envelope ``payload`` already, so :meth:`receive` would do
        nothing with it: the transport may drop it as it arrives (most frames of a game are
        such forwarded copies). ``sender``, the remote seat it came from, holds it: a held
        copy of it no longer goes there."""
        if sender is not None and len(self._held):
            self._held.holds(payload, sender)
        return all(ls.protocol.is_copy(payload) for ls in self.seats.values())

    def outgoing(self) -> list[tuple[int, bytes]]:
        """Frames for remote seats, ``(seat, frame)``, in order; the transport delivers them."""
        out, self._out = self._out, []
        self._out_seen.clear()
        self._urgent = False
        return out

    def _forward(self, now: float) -> None:
        """Hold the forwarded copies of this input; send those that leave now
        (:mod:`kotp2p.net.session.forwards`): first on each link, before this seat's own frames. All
        go once the game is over: nothing is waited on any more."""
        for frame, seats in self._fresh:
            self._held.hold(frame, seats, now)
        self._fresh.clear()
        if not len(self._held):
            return
        built_on = self.protocol.replica.built_on
        copies = self._held.release(now, lambda i: built_on.get(i, ()),
                                    riding={to for to, _ in self._out},
                                    everything=self._over is not None)
        if copies:
            out, self._out = self._out, []
            for seat, copy in copies:
                self._add_out(seat, copy)
            self._out += out

    def _add_out(self, to: int, frame: bytes) -> None:
        """Put ``frame`` in the outbox for remote seat ``to``, unless it is there already."""
        if (to, frame) not in self._out_seen:
            self._out_seen.add((to, frame))
            self._out.append((to, frame))

