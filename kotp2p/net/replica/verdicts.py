"""The seats a replica convicted, and where it stopped reading each."""

from __future__ import annotations

from kotp2p.net.replica.history import Violation
from kotp2p.net.replica.logorder import LogOrder


class Verdicts:
    """Convictions: the first violation of each seat, in the order found, and its cut."""

    def __init__(self, cursor: list[int], log_order: LogOrder) -> None:
        self._cursor = cursor
        self._log_order = log_order
        self.convicted: dict[int, Violation] = {}
        """Seat -> the first rule it broke."""
        self.violations: list[Violation] = []
        """The same violations, in the order found."""
        self.cut: dict[int, int] = {}
        """Convicted seat -> the first seq of its stream that is not read."""

    def convict(self, v: Violation, cut: int | None = None) -> None:
        """Record ``v`` and stop reading its seat at ``cut``.

        Only the first violation of a seat counts. Without ``cut``, the seat stops where the
        replica reads it now."""
        if v.seat not in self.convicted:
            self.convicted[v.seat] = v
            self.violations.append(v)
            self._log_order.evidence(e for e in v.evidence if e.author == v.seat)
        seq = self._cursor[v.seat] if cut is None else cut
        self.cut[v.seat] = min(self.cut.get(v.seat, seq), seq)
