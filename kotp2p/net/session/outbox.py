"""Frames for remote seats: the session's outbox, and the forwarded copies it holds back.

Theory of operation
-------------------
A ``Send`` of a local seat to a remote seat goes to the outbox through :meth:`Outbox.send`.
The transport drains it onto each seat's link, in order, through :meth:`Outbox.drain`. A frame
sent by several local seats to one remote seat goes once per drain. A frame of ours that is not
a forwarded copy makes the outbox urgent; see :attr:`Outbox.urgent`. The transport sends it
before reading on. Forwarded copies alone may wait.

A *forwarded* copy is held back; see :mod:`kotp2p.net.session.forwards`. The copies of one input
are held once the input is handled, by :meth:`Outbox.forward`. A held copy leaves with the next
frame of ours to that seat, ahead of it. So on each link an envelope never arrives after one
that builds on it. Or it leaves on its own a moment later.

A held copy goes not at all to a seat that showed it holds the envelope. The seat sent us the
same frame, and :meth:`Outbox.heard` notes it. Or we sent it that frame ourselves, as a ``sync``
answer. Once the game is over every held copy leaves, since nothing is waited on any more.

Frames between local seats never reach the outbox. The session delivers them in the same call.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping

from kotp2p.net.session.forwards import HeldForwards


class Outbox:
    """The frames of the local seats for remote seats, and the forwarded copies held back."""

    def __init__(self, forward_delay: float) -> None:
        self._out: list[tuple[int, bytes]] = []
        self._seen: set[tuple[int, bytes]] = set()
        self._urgent = False
        """A frame in :attr:`_out` is not just a forwarded copy."""
        self._held = HeldForwards(forward_delay)
        """Forwarded copies waiting to leave.

        With no delay they go to :attr:`_out` at once and leave with the next urgent frame."""
        self._fresh: list[tuple[bytes, list[int]]] = []
        """Forwarded copies of the current input. :meth:`forward` holds them when it is done."""

    @property
    def urgent(self) -> bool:
        """A frame of a local seat's own waits to leave, not just forwarded copies."""
        return self._urgent

    def send(self, frame: bytes, remote: list[int], forwarded: bool) -> None:
        """A local seat sends ``frame`` to the remote seats ``remote``.

        ``forwarded`` says it is a copy of another author's envelope. Such a copy may be held
        back."""
        if not remote:
            return
        if forwarded and self._held.delay > 0:
            self._fresh.append((frame, remote))
            return
        if not forwarded and len(self._held):
            payload = frame[4:]  # a sync answer, say; a held copy need not follow
            for to in remote:
                self._held.holds(payload, to)
        for to in remote:
            self._add(to, frame)
        self._urgent = self._urgent or not forwarded

    def heard(self, payload: bytes, seats: Iterable[int]) -> None:
        """The remote ``seats`` sent us the frame ``payload``.

        They hold it, so a held copy of it no longer goes to them."""
        if len(self._held):
            for seat in seats:
                self._held.holds(payload, seat)

    def drain(self) -> list[tuple[int, bytes]]:
        """The frames to send as ``(seat, frame)``, in order. The outbox is then empty."""
        out, self._out = self._out, []
        self._seen.clear()
        self._urgent = False
        return out

    def forward(self, now: float, built_on: Mapping[bytes, Collection[int]], *,
                everything: bool) -> None:
        """Hold the forwarded copies of this input, and queue those that leave now.

        :mod:`kotp2p.net.session.forwards` decides which leave. They go first on each link,
        before this seat's own frames. ``built_on`` maps an envelope id to the seats whose
        signed envelopes built on it. Those seats get no copy. With ``everything``, once the
        game is over, all copies go."""
        for frame, seats in self._fresh:
            self._held.hold(frame, seats, now)
        self._fresh.clear()
        if not len(self._held):
            return
        copies = self._held.release(now, lambda i: built_on.get(i, ()),
                                    riding={to for to, _ in self._out},
                                    everything=everything)
        if copies:
            out, self._out = self._out, []
            for seat, copy in copies:
                self._add(seat, copy)
            self._out += out

    def next_due(self) -> float | None:
        """When the oldest held copy must leave on its own. None means nothing is held."""
        return self._held.next_due()

    def _add(self, to: int, frame: bytes) -> None:
        """Put ``frame`` in the outbox for remote seat ``to``, unless it is there already."""
        if (to, frame) not in self._seen:
            self._seen.add((to, frame))
            self._out.append((to, frame))
