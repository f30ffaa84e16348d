"""The errors of ``kotp2p.net``, split like h11's.

* :class:`LocalProtocolError`: *we* broke the protocol. The caller asked the protocol object to
  do something it cannot do now, such as submit a move when it is not our seat's turn. It is a bug
  on our side.
* :class:`RemoteProtocolError`: a *peer* broke it: a bad frame, a bad signature, an illegal move or
  a fork. This is normal. The protocol object never raises it out of ``receive``; it reports it as
  an event. Readers of files, such as the log and ``verify``, raise it. The reason names what was
  expected.
* :class:`CodecError`: bytes that are not a well-formed frame or msgpack value within our limits.
  It subclasses :class:`RemoteProtocolError`, because bytes always come from somebody else.
"""

from __future__ import annotations

from kotp2p.net.wire.refusal import Why


class NetError(Exception):
    """Base class of every error raised by ``kotp2p.net``."""


class LocalProtocolError(NetError):
    """The local side misused the protocol.

    This is a bug in the caller, not in a peer. ``why`` is the code a screen words the refusal
    by, set where the refusal happens.
    """

    def __init__(self, message: str, why: Why = Why.OTHER) -> None:
        super().__init__(message)
        self.why = why


class RemoteProtocolError(NetError, ValueError):
    """Something received from a peer or read from a file breaks the protocol.

    ``reason`` is one line naming what was expected and what was found.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class CodecError(RemoteProtocolError):
    """Bytes that are not a well-formed frame or msgpack value within our limits."""


class FrameTooLarge(CodecError):
    """A frame announced a length above the cap.

    The length is checked before anything is buffered.
    """
