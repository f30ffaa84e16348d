"""Timing marks for the network benchmark.

They say when a MOVE that triggers a roll leaves, and when each process knows the outcome. They
are only written with the hidden ``--trace FILE`` option.
"""

from __future__ import annotations

import resource
import time
from collections.abc import Iterable

from kotp2p.net.session import DiceRolled, Update
from kotp2p.net.trust import Genesis
from kotp2p.net.wire import Kind, RemoteProtocolError, codec, peek_author, split_frame
from kotp2p.ui import PlainView


def _cpu_us() -> int:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return round((usage.ru_utime + usage.ru_stime) * 1e6)


class Trace:
    """Timing marks for the network benchmark, one line each.

    The hidden option ``--trace FILE`` writes them. The marks are these:

    * ``M k ns``: a MOVE triggering random event ``k`` leaves.
    * ``R k ns``: this process knows the outcome of ``k``. A ``C us`` mark follows. It holds the
      process's CPU time so far.
    * ``A k ns``: an ACK of one of its seats leaves, carrying its value for ``k``.
    * ``S us`` and ``E us``: the game starts or ends here. They hold the CPU time the process
      spent so far, user and system.
    * ``T turns`` and ``B bytes`` follow ``E``. The bytes are those of the frames it sent.
    * ``X kB``: the peak RSS.

    Times are wall-clock nanoseconds. They compare between processes on one machine.
    """

    def __init__(self, path: str, genesis: Genesis, authors: Iterable[int]) -> None:
        self.file = open(path, "a", encoding="utf-8")  # noqa: SIM115 - closed by close()
        self._moves: set[int] = set()
        self._acks: set[tuple[int, int]] = set()
        self._authors = frozenset(authors)
        """The seats this process plays. Only their envelopes are looked into.

        A forwarded copy leaves later than its author's. And decoding every frame would slow the
        game the benchmark times.
        """
        self._game = genesis.game_id
        self._seats = genesis.n
        self._last: bytes | None = None
        self.bytes_sent = 0
        """Bytes of the frames sent to other processes, length prefixes included."""

    def mark(self, what: str, value: int = 0) -> None:
        """Write one mark now."""
        self.file.write(f"{what} {value} {time.time_ns()}\n")

    def started(self) -> None:
        """The game starts here. The value is the process's CPU time so far, in microseconds."""
        self.mark("S", _cpu_us())

    def ended(self, turns: int) -> None:
        """The game ended here after ``turns`` turns.

        Mark the process's CPU time so far in microseconds, the turns, and the bytes of the
        frames this process sent so far.
        """
        self.mark("E", _cpu_us())
        self.mark("T", turns)
        self.mark("B", self.bytes_sent)

    def sent(self, seat: int, frame: bytes) -> None:
        """A frame leaves: count its bytes, mark the MOVEs that trigger a random event."""
        self.bytes_sent += len(frame)
        if frame is self._last:  # the same frame to the next seat
            return
        self._last = frame
        try:
            body, _ = split_frame(frame[4:])
            if peek_author(body, self._game, self._seats) not in self._authors:
                return
            fields = codec.unpack(body)
        except RemoteProtocolError:
            return
        if not isinstance(fields, list) or len(fields) != 11:
            return
        if fields[7] == Kind.MOVE:
            for reveal in fields[9]:
                if reveal[0] not in self._moves:
                    self._moves.add(reveal[0])
                    self.mark("M", reveal[0])
        elif fields[7] == Kind.ACK:
            for reveal in fields[9]:
                if (fields[2], reveal[0]) not in self._acks:
                    self._acks.add((fields[2], reveal[0]))
                    self.mark("A", reveal[0])

    def close(self) -> None:
        """The peak RSS, then close the file."""
        self.mark("X", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
        self.file.close()


class TracedView:
    """A view that marks every random outcome shown, then shows it."""

    def __init__(self, view: PlainView, trace: Trace) -> None:
        self.view = view
        self.trace = trace

    def show(self, updates: list[Update]) -> None:
        """Mark, then show."""
        for u in updates:
            if isinstance(u, DiceRolled):
                self.trace.mark("R", u.k)
                self.trace.mark("C", _cpu_us())
        self.view.show(updates)

    def on_line(self, line: str, now: float) -> bool:
        """As the plain view."""
        return self.view.on_line(line, now)

    def on_end_of_input(self, now: float) -> bool:
        """As the plain view."""
        return self.view.on_end_of_input(now)
