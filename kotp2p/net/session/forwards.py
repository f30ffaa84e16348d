"""Forwarded copies held back, to leave with frames the game waits on instead of on their own.

Theory of operation
-------------------
Every first-seen envelope of another author is forwarded once to the seats not known to hold
it; see :mod:`kotp2p.net.peer.protocol`. That is how an equivocation reaches every honest seat
within one hop. It is also how an envelope withheld from one seat still reaches it. Neither
needs the copy at once.

Sent at once, though, each copy is a write and a read of its own. At six seats, four copies of
every envelope go out from every seat. Those writes and reads took most of the mesh's CPU while
a roll's reveals were under way. And every seat was waiting on that CPU.

So a session holds each forwarded copy. A held copy leaves in one of two ways.

* It rides with the next frame of this seat's own that goes to the same seat. It goes in the
  same write, before that frame. In a game, every seat sends every other one an ACK for each
  MOVE. The copy rides only once it has been held for :data:`PIGGYBACK_AFTER` seconds. By then
  the seats that had the envelope directly have usually shown it, since their ACK of a MOVE
  builds on it. Then the copy is not needed.
* Or it leaves on its own after :data:`FORWARD_DELAY` seconds, when nothing went that way
  meanwhile.

Either way it goes only to the seats that still may lack it. A seat that sent us the same bytes
holds them. So does one whose signed envelope built on the envelope, since it applied it.
Holding a copy never drops a seat that may lack the envelope. A rival envelope under the same
seq is another frame, held on its own. Honest seats never rely on when a copy comes. Links
reorder and delay frames anyway, and the protocol takes envelopes in any order.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field

from kotp2p.net.wire import envelope_id, split_frame

FORWARD_DELAY = 0.05
"""Seconds a forwarded copy waits at most before it leaves on its own."""
PIGGYBACK_AFTER = 0.004
"""Seconds a forwarded copy waits at least before it rides along with a frame of this seat's.

A roll's reveals take a few milliseconds. By then a MOVE's copy finds its ACKs in."""


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
        """By frame payload. A dict keeps the order they were held in."""

    def __len__(self) -> int:
        return len(self._held)

    def hold(self, frame: bytes, to: Collection[int], now: float) -> None:
        """Hold ``frame`` for the seats ``to``. The frame includes its length prefix.

        A frame already held gains the seats, and keeps its time."""
        payload = frame[4:]
        held = self._held.get(payload)
        if held is None:
            body, _ = split_frame(payload)  # the protocol checked this frame, so it splits
            held = self._held[payload] = _Held(now, frame, envelope_id(body))
        held.to.update(to)

    def holds(self, payload: bytes, seat: int) -> None:
        """Remote ``seat`` sent or was sent the frame ``payload``, so no copy goes to it."""
        held = self._held.get(payload)
        if held is not None:
            held.to.discard(seat)

    def next_due(self) -> float | None:
        """When the oldest held copy must leave on its own. None means nothing is held."""
        for held in self._held.values():
            return held.since + self.delay
        return None

    def release(self, now: float, built_on: Callable[[bytes], Collection[int]], *,
                riding: Collection[int] = (), everything: bool = False
                ) -> list[tuple[int, bytes]]:
        """The copies that leave at ``now``, as ``(seat, frame)`` in the order they were held.

        With ``everything``, all of them leave. Else those held :attr:`delay` leave. For the
        seats in ``riding``, those held :attr:`piggyback_after` leave too; a frame of ours goes
        to those seats now. ``built_on(id)`` gives the seats whose signed envelopes built on a
        copy's envelope. They get no copy."""
        out: list[tuple[int, bytes]] = []
        gone: list[bytes] = []
        for payload, held in self._held.items():
            if everything or held.since + self.delay <= now:
                leaving = set(held.to)
            elif riding and held.since + self.piggyback_after <= now:
                leaving = held.to.intersection(riding)
            else:
                break  # the later ones were held later still
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
