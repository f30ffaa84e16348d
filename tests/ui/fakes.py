"""A stand-in for a game session: a bare engine state the UI drives, recording what it submits."""

from __future__ import annotations

from collections.abc import Callable

from kotp2p import rules
from kotp2p.net.wire import LocalProtocolError


class FakeGame:
    """A game port over a state: submitted actions are checked and applied by the engine."""

    def __init__(self, text: str | rules.State, me: int = 0,
                 names: tuple[str, ...] | None = None,
                 levels: tuple[str, ...] | None = None) -> None:
        self._state = rules.from_text(text) if isinstance(text, str) else text
        self.me = me
        self.submitted: list[rules.Action] = []
        self.chats: list[str] = []
        self.ejects = 0
        self.quits = 0
        n = self._state.n
        self._names = names or tuple(f"player{i}" for i in range(n))
        self._levels = levels or ("",) * n

    @property
    def state(self) -> rules.State:
        return self._state

    def players(self) -> tuple[tuple[str, str], ...]:
        return tuple((name, f"ab{i}c-d{i}e5-f6a7-b8c9") for i, name in enumerate(self._names))

    def levels(self) -> tuple[str, ...]:
        return self._levels

    def awaited(self) -> tuple[int, ...]:
        p = self._state.pending
        return (p.seat,) if isinstance(p, rules.Decision) else ()

    def submit(self, action: rules.Action) -> None:
        if action not in rules.legal_actions(self._state):
            raise LocalProtocolError(f"illegal {action}")
        self.submitted.append(action)
        self._state = rules.apply(self._state, action)

    def chat(self, text: str) -> None:
        self.chats.append(text)

    def vote_eject(self) -> None:
        self.ejects += 1

    def quit(self) -> None:
        self.quits += 1

    def aside(self, work: Callable[[], str], done: Callable[[str], None]) -> None:
        done(work())
