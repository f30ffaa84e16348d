"""Forwarded copies held back, to leave with frames the game waits on instead of on their own.

Theory of operation
-------------------
Every first-seen envelope of another author is forwarded once to the seats not known to hold it
(:mod:`kotp2p.net.peer.protocol`): that is how an equivocation reaches every honest seat within one
hop, and how an envelope withheld from one seat still reaches it. Neither needs the copy at
once. Sent at once, though, each copy is a write and a read of its own (at six seats, four
copies of every envelope go out from every seat), and those writes and reads took most of the
mesh's CPU while a roll's reveals were under way, with every seat waiting on that CPU.

So a session holds each forwarded copy. A held copy leaves

* with the next frame of this seat's own that goes to the same seat, in the same write and
  before it (in a game, every seat sends every other one an ACK for each MOVE), once it has been
  held for :data:`PIGGYBACK_AFTER` seconds: by then the seats that had the envelope directly have
  usually shown it (their ACK of a MOVE builds on it), and the copy is not needed;
* or on its own after :data:`FORWARD_DELAY` seconds, when nothing went that way meanwhile.

Either way it goes only to the seats that still may lack it: a seat that sent us the same bytes
holds them, and so does one whose signed envelope built on the envelope (it applied it). Holding
a copy never drops a seat that may lack the envelope, and a rival envelope under the same seq is
another frame, held on its own. Honest seats never rely on when a copy comes: links reorder and
delay frames anyway, and the protocol takes envelopes in any order.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field

from kotp2p.net.wire import envelope_id, split_frame

FORWARD_DELAY = 0.05
"""Seconds a forwarded copy waits at most before it leaves on its own."""
PIGGYBACK_AFTER = 0.004
"""Seconds a forwarded copy waits at least before it rides along with a frame of this seat's
(a roll's reveals take a few milliseconds: a MOVE's copy then finds its ACKs in)."""


@dataclass
class _Held:
    since: float
    frame: bytes
    id: bytes
    to: set[int] = field(default_factory=set)


class HeldForwards:
    """Forwarded copies waiting to leave, in the order they were held."""

    def __init__(self, delay: float = FORWARD_DELAY, piggyback_after: float = PIGGYBACK_AFTER
                 ) -> None:
        self.delay = delay
        self.piggyback_after = piggyback_after
        self._held: dict[bytes, _Held] = {}
        """By frame payload; a dict keeps the order they were held in."""

    def __len__(self) -> int:
        return len(self._held)

    def hold(self, frame: bytes, to: Collection[int], now: float) -> None:
        """Hold ``frame`` (length prefix included) for the seats ``to`` (a frame already held
        gains the seats, and keeps its time)."""
        payload = frame[4:]
        held = self._held.get(payload)
        if held is None:
            body, _ = split_frame(payload)  # (a frame the protocol checked: it splits)
            held = self._held[payload] = _Held(now, frame, envelope_id(body))
        held.to.update(to)

    def holds(self, payload: bytes, seat: int) -> None:
        """Remote ``seat`` sent (or was sent) the frame ``payload``: no copy goes to it."""
        held = self._held.get(payload)
        if held is not None:
            held.to.discard(seat)

    def next_due(self) -> float | None:
        """When the oldest held copy must leave on its own (None: nothing held)."""
        for held in self._held.values():
            return held.since + self.delay
        return None

    def release(self, now: float, built_on: Callable[[bytes], Collection[int]], *,
                riding: Collection[int] = (), everything: bool = False
                ) -> list[tuple[int, bytes]]:
        """The copies that leave at ``now``, ``(seat, frame)`` in the order they were held:
        all of them with ``everything``; else those held :attr:`delay`, and for the seats in
        ``riding`` (a frame of ours goes to them now) those held :attr:`piggyback_after`.
        Seats whose signed envelopes built on a copy's envelope (``built_on(id)``) get none."""
        out: list[tuple[int, bytes]] = []
        gone: list[bytes] = []
        for payload, held in self._held.items():
            if everything or held.since + self.delay <= now:
                leaving = set(held.to)
            elif riding and held.since + self.piggyback_after <= now:
                leaving = held.to.intersection(riding)
            else:
                break  # (the later ones were held later still)
            if not leaving:
                if not held.to:
                    gone.append(payload)
                continue
            held.to -= leaving
            if not held.to:
                gone.append(payload)
            applied = built_on(held.id)
            out += [(seat, held.frame) for seat in sorted(leaving) if seat not in applied]
        for payload in gone:
            del self._held[payload]
        return out
