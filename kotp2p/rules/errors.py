"""The engine's errors: narrow ``ValueError`` subclasses that say what was expected."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action that is not legal in the given state, or a malformed action.

    ``reason`` says what was expected, in words fit to show a player or write in a log.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class InvalidState(ValueError):
    """A state from the wire or the text notation that cannot be decoded or is inconsistent."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
