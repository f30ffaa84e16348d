"""The seats a replica convicted, and where it stopped reading each.

Honest replicas may find two different proofs against one seat, in either order. A seat that
sent a wrong ACK to some seats and the right one to the others is the case in point. A replica
that got the wrong one first finds a wrong state hash. One that got the right one first finds a
fork when the wrong one comes. Every proof is forwarded, so each replica ends up holding both.
The conviction must then be the same everywhere, whatever came first. So the proof with the
earliest place in its author's stream wins: the lowest seq it needs, and at one seq a fork
before any other rule. A later proof at an earlier place replaces the conviction. Every proof
stays in the log, as ``log_order`` recorded it.
"""

from __future__ import annotations

from kotp2p.net.replica.history import Violation
from kotp2p.net.replica.logorder import LogOrder


def place(v: Violation) -> tuple[int, int]:
    """Where ``v`` sits in its author's stream: the highest seq of its proof, then its rule.

    A fork comes before any other rule at one seq. The lower place wins."""
    seq = max((e.seq for e in v.evidence if e.author == v.seat), default=-1)
    return seq, 0 if v.rule == "fork" else 1


class Verdicts:
    """Convictions: the earliest violation of each seat, in the order found, and its cut."""

    def __init__(self, cursor: list[int], log_order: LogOrder) -> None:
        self._cursor = cursor
        self._log_order = log_order
        self.convicted: dict[int, Violation] = {}
        """Seat -> the earliest rule it broke; see :func:`place`."""
        self.violations: list[Violation] = []
        """The same violations, in the order their seats were first convicted."""
        self.cut: dict[int, int] = {}
        """Convicted seat -> the first seq of its stream that is not read."""

    def convict(self, v: Violation, cut: int | None = None) -> None:
        """Record ``v`` and stop reading its seat at ``cut``.

        A seat's conviction is its violation of the lowest :func:`place`, whichever came first.
        Without ``cut``, the seat stops where the replica reads it now."""
        old = self.convicted.get(v.seat)
        if old is None:
            self.convicted[v.seat] = v
            self.violations.append(v)
        elif place(v) < place(old):
            self.convicted[v.seat] = v
            self.violations[self.violations.index(old)] = v
        if old is None or self.convicted[v.seat] is v:
            self._log_order.evidence(e for e in v.evidence if e.author == v.seat)
        seq = self._cursor[v.seat] if cut is None else cut
        self.cut[v.seat] = min(self.cut.get(v.seat, seq), seq)
