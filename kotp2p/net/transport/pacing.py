"""Pacing, sans-IO: a token bucket that spots floods and the back-off between reconnections.

Both take the current time as a parameter, in seconds from any origin. So they are tested without
a clock, and the transport passes its event loop's time.
"""

from __future__ import annotations


class TokenBucket:
    """Allows ``rate`` units a second on average and bursts of up to ``burst`` units."""

    def __init__(self, rate: float, burst: float, now: float) -> None:
        if rate <= 0 or burst <= 0:
            raise ValueError("a token bucket needs a positive rate and burst")
        self.rate = rate
        self.burst = burst
        self._tokens = burst
        self._at = now

    def take(self, amount: float, now: float) -> bool:
        """Spend ``amount`` units at time ``now``; False when that exceeds the allowance."""
        self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
        self._at = now
        if amount > self._tokens:
            return False
        self._tokens -= amount
        return True


class Backoff:
    """Delays between reconnection attempts: ``first``, then doubling up to ``cap`` seconds."""

    def __init__(self, first: float = 0.5, cap: float = 30.0, factor: float = 2.0) -> None:
        if first <= 0 or cap < first or factor < 1:
            raise ValueError("back-off: expected 0 < first <= cap and factor >= 1")
        self.first = first
        self.cap = cap
        self.factor = factor
        self._next = first

    def next_delay(self) -> float:
        """The delay before the next attempt. It also grows the one after."""
        delay = self._next
        self._next = min(self.cap, self._next * self.factor)
        return delay

    def reset(self) -> None:
        """A connection worked: start again from ``first``."""
        self._next = self.first
