"""The one error type of the commands: a mistake the user can fix."""

from __future__ import annotations

from kotp2p.net.wire import Refusal


class CommandError(Exception):
    """An error the user can fix; printed without a traceback, exit code 1.

    :attr:`refusal` is set when a refusal stopped the command (turned away by a host, nothing
    heard on the LAN...): its code lets a screen word it; the message is then its text.
    """

    def __init__(self, text: str, refusal: Refusal | None = None) -> None:
        super().__init__(text)
        self.refusal = refusal

    @classmethod
    def refused(cls, refusal: Refusal) -> CommandError:
        """The error for a command stopped by ``refusal`` (its text is the message)."""
        return cls(refusal.text, refusal)


__all__ = ["CommandError"]
