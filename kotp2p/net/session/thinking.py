"""Bot decisions worked out away from the loop that owns the session.

Theory of operation
-------------------
A bot that searches may think for a second. A session that decides for its bots in place holds
the loop for that long, and the screen with it when a person plays in the same process. A
session made with ``think_aside`` asks instead: each time a bot's delay is over, it hands out a
:class:`Question`, once per seat and point of the game. The driver answers it on a worker
thread and gives the answer back with ``Session.answer``. Meanwhile the session goes on taking
frames, lines and commands.

An answer counts only if the seat still waits at the point it was asked at. Otherwise it is
dropped, and the session asks again when the seat must decide anew. The state a question holds
is never changed: the engine makes new states. So a worker thread may read it while the loop
goes on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kotp2p.net.trust import State
from kotp2p.net.wire import Value


@dataclass(frozen=True, eq=False)
class Question:
    """A bot's decision for local seat ``seat`` at ``at``, from ``state``, its view.

    ``at`` is the replica's step and point: a window may ask a seat twice in one step."""

    seat: int
    at: tuple[int, int]
    state: State
    decide: Callable[[State], Value]

    def answer(self) -> Value:
        """Work the decision out. It may take long; the driver calls it on a worker thread."""
        return self.decide(self.state)


class Thinking:
    """The questions handed out and not answered yet, and those the driver has not taken."""

    def __init__(self) -> None:
        self._out: dict[int, Question] = {}
        self._new: list[Question] = []

    def asked(self, seat: int, at: tuple[int, int]) -> bool:
        """A question for ``seat`` at ``at`` is out."""
        q = self._out.get(seat)
        return q is not None and q.at == at

    def ask(self, question: Question) -> None:
        """Hand ``question`` out. It replaces the seat's question of an earlier point."""
        self._out[question.seat] = question
        self._new.append(question)

    def take(self) -> list[Question]:
        """The questions handed out since the last call, for the driver to answer."""
        new, self._new = self._new, []
        return new

    def thinking(self, seat: int) -> bool:
        """A question for ``seat`` is out."""
        return seat in self._out

    def answered(self, question: Question) -> bool:
        """``question`` came back answered. True if it was still the seat's question out."""
        if self._out.get(question.seat) is not question:
            return False
        del self._out[question.seat]
        return True

    @property
    def waiting(self) -> bool:
        """Questions wait for the driver to take them."""
        return bool(self._new)
