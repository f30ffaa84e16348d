"""What a view asks of the session, and the session's answer, as values.

A view is the full screen or a test. It does not call the session's methods and guess why one
refused. It hands :meth:`~kotp2p.net.session.session.Session.perform` a command and gets a
result. The result is :class:`Done`, or :class:`Refused` with the :class:`~kotp2p.net.wire.Why`
code a screen words. The session and its protocol set the code where they refuse.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from kotp2p.net.wire import LocalProtocolError, Refusal, Value, Why


@dataclass(frozen=True)
class Submit:
    """Play ``action`` for the view's seat. The action is in the engine's wire form."""

    action: Value


@dataclass(frozen=True)
class Chat:
    """Say ``text`` to every seat."""

    text: str


@dataclass(frozen=True)
class VoteEject:
    """Vote to eject the seats holding the game up."""


@dataclass(frozen=True)
class Quit:
    """Stop here; the game can be resumed."""


Command = Submit | Chat | VoteEject | Quit


@dataclass(frozen=True)
class Done:
    """The session did what it was asked."""


@dataclass(frozen=True)
class Refused:
    """The session refused. :attr:`refusal` says why, with its code."""

    refusal: Refusal


Result = Done | Refused


class Performer(Protocol):
    """The part of a session a command needs."""

    def submit(self, action: Value, now: float) -> None:
        """Play ``action`` for the view's seat."""
        ...

    def chat(self, text: str, now: float) -> None:
        """Say a line to every seat."""
        ...

    def vote_eject(self, now: float) -> None:
        """Vote to eject the overdue seats."""
        ...

    def quit(self) -> None:
        """Stop here."""
        ...


def perform(session: Performer, command: Command, now: float) -> Result:
    """Carry out ``command`` with ``session`` at time ``now``.

    A refusal comes back with the code and the words of the error the session raised."""
    try:
        if isinstance(command, Submit):
            session.submit(command.action, now)
        elif isinstance(command, Chat):
            session.chat(command.text, now)
        elif isinstance(command, VoteEject):
            session.vote_eject(now)
        else:
            session.quit()
    except LocalProtocolError as exc:
        return Refused(Refusal(exc.why, str(exc)))
    except ValueError as exc:
        return Refused(Refusal(Why.OTHER, str(exc)))
    return Done()


__all__ = ["Chat", "Command", "Done", "Performer", "Quit", "Refused", "Result", "Submit",
           "VoteEject", "perform"]
