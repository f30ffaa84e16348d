"""The canonical order of a ``.kotlog``: how honest replicas come to write byte-identical logs.

Envelopes are grouped by the step they name. Blocks are handed out in step order. A step's
block is handed out once every live seat has moved past it; the replica decides that. Inside a
block the MOVE comes first, then everything else by author and seq. An envelope consumed after
its step was handed out goes with the next block. A late CHAT is one such envelope.

The envelopes proving violations are sorted by author, seq and id. They close the log once the
game is over, or come last when a stopped game is drained. Honest replicas learn of a violation
at different moments, so any earlier place would differ.

What a block holds must not depend on the delivery order either. So the replica's ``keep``
decides, when the block is handed out, which of its envelopes go in at all. It leaves out what a
seat sent after it left the game, if the game did not use it. A seat leaves the game at its
ejection point, its fork or its violation. Honest replicas read such envelopes or not, depending
on when they arrived. Examples are an ejected seat's MOVE in flight, or a forker's STALL read
before the fork was known. But what the game used of them, every honest replica used. The proofs
are written whatever ``keep`` says.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from kotp2p.net.wire import Envelope, Kind


class LogOrder:
    """Collects consumed envelopes and hands them out block by block."""

    def __init__(self, keep: Callable[[Envelope], bool] = lambda env: True) -> None:
        self.keep = keep
        """Whether a consumed envelope goes into its block. The replica's log rules set it."""
        self._blocks: dict[int, list[Envelope]] = {}
        self._written = 0
        self._evidence: list[Envelope] = []
        self._seen: set[bytes] = set()
        self._proofs: set[bytes] = set()
        self.proofs: list[Envelope] = []
        """Every envelope recorded as a proof, handed out or not, in the order recorded.

        A session journals them at once: a crash before the game ends must not lose them."""

    @property
    def written(self) -> int:
        """The first step whose block has not been handed out."""
        return self._written

    def consumed(self, env: Envelope) -> None:
        """Record an envelope the replica consumed. A repeat is ignored."""
        if env.id in self._seen:
            return
        self._seen.add(env.id)
        s = env.step if env.step > self._written else self._written
        block = self._blocks.get(s)
        if block is None:
            self._blocks[s] = [env]
        else:
            block.append(env)

    def evidence(self, envs: Iterable[Envelope]) -> None:
        """Record envelopes that prove a violation. They are never consumed, but they belong in
        the log."""
        for env in envs:
            if env.id not in self._proofs:
                self._proofs.add(env.id)
                self._evidence.append(env)
                self.proofs.append(env)

    def take_evidence(self) -> list[Envelope]:
        """The evidence not handed out yet. It is forgotten here."""
        out, self._evidence = self._evidence, []
        return sorted(out, key=lambda e: (e.author, e.seq, e.id))

    def close(
        self, is_closed: Callable[[int], bool], step: int, is_over: bool
    ) -> list[Envelope]:
        """Hand out every block up to ``step`` that ``is_closed``. After the end, add stragglers."""
        out: list[Envelope] = []
        while self._written <= step and is_closed(self._written):
            out += self._block(self._written)
            self._written += 1
        if is_over and self._written > step:
            for s in sorted(k for k in self._blocks if k >= self._written):
                out += self._block(s)
        if is_over and self._written > step:
            out += self.take_evidence()  # proofs close the log: the same place on every replica
        return out

    def drain(self) -> list[Envelope]:
        """Every block not handed out yet, then the evidence."""
        out: list[Envelope] = []
        steps = sorted(k for k in self._blocks if k >= self._written)
        for s in steps:
            out += self._block(s)
        if steps:
            self._written = steps[-1] + 1
        return out + self.take_evidence()

    def _block(self, s: int) -> list[Envelope]:
        block = [e for e in self._blocks.pop(s, []) if self.keep(e)]
        return sorted(block, key=lambda e: (e.kind is not Kind.MOVE, e.author, e.seq))
