"""The one error type of the commands: a mistake the user can fix."""

from __future__ import annotations

from kotp2p.net.wire import Refusal


class CommandError(Exception):
    """An error the user can fix. It is printed without a traceback, and the exit code is 1.

    :attr:`refusal` is set when a refusal stopped the command. A host may have turned the user
    away, or nothing was heard on the LAN. The refusal's code lets a screen word it. The message
    is then the refusal's text.
    """

    def __init__(self, text: str, refusal: Refusal | None = None) -> None:
        super().__init__(text)
        self.refusal = refusal

    @classmethod
    def refused(cls, refusal: Refusal) -> CommandError:
        """The error for a command stopped by ``refusal``. Its text is the message."""
        return cls(refusal.text, refusal)


__all__ = ["CommandError"]
