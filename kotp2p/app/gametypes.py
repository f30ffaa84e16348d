"""Types shared by the local game, the network game and the full screen."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager

from kotp2p.net.session import Session
from kotp2p.net.transport import Links

Restore = tuple[list[bytes], list[bytes]]
"""The envelope payloads of a stored game's log and journal."""

Connect = Callable[[Session], AbstractAsyncContextManager[Links]]
"""Opens the links of a networked game for a session (the transport's part), closing them after."""

FullScreen = Callable[[Session, str, Restore | None, Connect | None], bool]
"""The full-screen UI: (session, log path, restore, connect) -> the game ended."""

__all__ = ["Connect", "FullScreen", "Restore"]
