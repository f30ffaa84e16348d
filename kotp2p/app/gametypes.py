"""Types shared by the local game, the network game and the full screen."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager

from kotp2p.net.session import Session
from kotp2p.net.transport import Links

Restore = tuple[list[bytes], list[bytes]]
"""The envelope payloads of a stored game's log and journal."""

Connect = Callable[[Session], AbstractAsyncContextManager[Links]]
"""Opens the links of a networked game for a session, and closes them after.

This is the transport's part.
"""

FullScreen = Callable[[Session, str, Restore | None, Connect | None], bool]
"""The full-screen UI: it plays a session, given its log path, restore and connect.

It returns True if the game ended.
"""

__all__ = ["Connect", "FullScreen", "Restore"]
