"""After the end: wait a little for the peers that were away when the game ended.

Theory of operation
-------------------
A peer whose process died near the end may come back with ``kotp2p resume``. It asks the others
for what it missed, and only they can give it the end of the game. A session whose log is whole
would otherwise close at once, and the returning peer would wait for nobody.

So a session that ends keeps its links open a while for each remote seat that is *away*: it was
connected in this run, and its link was down when the game ended. It waits at most ``grace``
seconds after the end. A seat that comes back in that time is waited for until its link goes
down again, at most ``grace`` seconds after it came back. It closes its link once its own log is
whole, which is the sign it has what it missed.

A link that goes down after the end is a peer that finished, and nobody waits for it. So a game
that ends with everyone connected closes as before. A seat that left for good costs the others
at most ``grace`` seconds after the end. Nothing here decides anything of the game: it only
keeps the session open to answer questions.
"""

from __future__ import annotations

from collections.abc import Collection


class Returns:
    """Which remote seats a session that ended still waits for, and until when."""

    def __init__(self) -> None:
        self._seen: set[int] = set()
        """Remote seats whose link was up at some time in this run."""
        self._ended_at: float | None = None
        self._away: set[int] = set()
        """Seats that were away at the end and have not come back yet."""
        self._back: dict[int, float] = {}
        """Seats that came back after the end, with the time they did, while their link is up."""

    def link_up(self, seat: int, now: float) -> None:
        """The link to remote ``seat`` is up."""
        self._seen.add(seat)
        if seat in self._away:
            self._away.discard(seat)
            self._back[seat] = now

    def link_down(self, seat: int) -> None:
        """The link to remote ``seat`` went down. A seat that came back and leaves again is done."""
        self._back.pop(seat, None)

    def ended(self, now: float, up: Collection[int]) -> None:
        """The game ended at ``now``, with the links to ``up`` up. The seats seen before and not
        connected now are away."""
        self._ended_at = now
        self._away = self._seen.difference(up)

    def until(self, grace: float) -> float | None:
        """The time the session waits until, ``grace`` seconds after the end or after the last
        seat came back, or None when it waits for nobody."""
        if self._ended_at is None:
            return None
        times = [t + grace for t in self._back.values()]
        if self._away:
            times.append(self._ended_at + grace)
        return max(times) if times else None

    def waiting(self, now: float, grace: float) -> bool:
        """The session still waits at ``now`` for a seat that was away at the end."""
        until = self.until(grace)
        return until is not None and now < until
