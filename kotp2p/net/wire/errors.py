"""The errors of ``kotp2p.net``, split like h11's.

* :class:`LocalProtocolError`: *we* broke the protocol (the caller asked the protocol object to do
  something it cannot do now, e.g. submit a move when it is not our seat's turn). A bug on our side.
* :class:`RemoteProtocolError`: a *peer* broke it (bad frame, bad signature, illegal move, fork).
  Normal and expected: the protocol object never raises it out of ``receive``; it reports it as an
  event. Readers of files (the log, ``verify``) raise it with a reason naming what was expected.
* :class:`CodecError`: bytes that are not a well-formed, in-limits frame or msgpack value. A
  subclass of :class:`RemoteProtocolError`, because bytes always come from somebody else.
"""

from __future__ import annotations


class NetError(Exception):
    """Base class of every error raised by ``kotp2p.net``."""


class LocalProtocolError(NetError):
    """The local side misused the protocol (a bug in the caller, not in a peer)."""


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
    """A frame announced a length above the cap (checked before buffering anything)."""
