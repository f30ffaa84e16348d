"""Timing marks for the network benchmark: when a MOVE that triggers a roll leaves, and when each
process knows the outcome. Only written with the hidden ``--trace FILE`` option."""

from __future__ import annotations

import resource
import time

from kotp2p.net import codec
from kotp2p.net.envelope import Kind, split_frame
from kotp2p.net.errors import RemoteProtocolError
from kotp2p.net.updates import DiceRolled, Update
from kotp2p.ui.plain import PlainView


class Trace:
    """Timing marks for the network benchmark (hidden option ``--trace FILE``), one line each:
    ``M k ns`` when a MOVE triggering random event ``k`` leaves, ``R k ns`` when this process
    knows the outcome of ``k``, ``S``/``E`` when the game starts/ends here, ``X kB`` the peak RSS.
    Times are wall-clock nanoseconds, comparable between processes on one machine."""

    def __init__(self, path: str) -> None:
        self.file = open(path, "a", encoding="utf-8")  # noqa: SIM115 - closed by close()
        self._moves: set[int] = set()

    def mark(self, what: str, value: int = 0) -> None:
        """Write one mark now."""
        self.file.write(f"{what} {value} {time.time_ns()}\n")

    def sent(self, seat: int, frame: bytes) -> None:
        """A frame leaves: mark the MOVEs that trigger a random event."""
        try:
            body, _ = split_frame(frame[4:])
            fields = codec.unpack(body)
        except RemoteProtocolError:
            return
        if isinstance(fields, list) and len(fields) == 11 and fields[7] == Kind.MOVE:
            for reveal in fields[9]:
                if reveal[0] not in self._moves:
                    self._moves.add(reveal[0])
                    self.mark("M", reveal[0])

    def close(self) -> None:
        """The peak RSS, then close the file."""
        self.mark("X", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
        self.file.close()


class TracedView:
    """A view that marks every random outcome shown (then shows it)."""

    def __init__(self, view: PlainView, trace: Trace) -> None:
        self.view = view
        self.trace = trace

    def show(self, updates: list[Update]) -> None:
        """Mark, then show."""
        for u in updates:
            if isinstance(u, DiceRolled):
                self.trace.mark("R", u.k)
        self.view.show(updates)

    def on_line(self, line: str, now: float) -> bool:
        """As the plain view."""
        return self.view.on_line(line, now)

    def on_end_of_input(self, now: float) -> bool:
        """As the plain view."""
        return self.view.on_end_of_input(now)
