"""Types shared by the local game, the network game and the full screen."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Protocol

from kotp2p.net.session import Session
from kotp2p.net.transport import Links

Restore = tuple[list[bytes], list[bytes]]
"""The envelope payloads of a stored game's log and journal."""

LINGER = 30.0
"""Seconds a finished process waits for slower peers to read the end of the game."""
QUIT_LINGER = 2.0
"""Seconds a process takes to close its links in order once the user left.

The user left with Ctrl-C, or with q on the end screen."""


class NetLinks(Links, Protocol):
    """The links of a networked game: they may be told that the user left the end."""

    def hurry(self, seconds: float) -> None:
        """Wait at most ``seconds`` more for the peers to read the end of the game."""
        ...


Connect = Callable[[Session], AbstractAsyncContextManager[NetLinks]]
"""Opens the links of a networked game for a session, and closes them after.

This is the transport's part.
"""

FullScreen = Callable[[Session, str, Restore | None, Connect | None], bool]
"""The full-screen UI: it plays a session, given its log path, restore and connect.

It returns True if the game ended.
"""

__all__ = ["LINGER", "QUIT_LINGER", "Connect", "FullScreen", "NetLinks", "Restore"]
