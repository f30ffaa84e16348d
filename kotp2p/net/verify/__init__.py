"""Settling a dispute offline: reading logs whatever their damage, checking a game from its
genesis to its end, and replaying it turn by turn.
"""

from __future__ import annotations

from kotp2p.net.verify.replay import replay_lines
from kotp2p.net.verify.verify import INCOMPLETE, DifferentGames, verify_logs

__all__ = [
    "INCOMPLETE",
    "DifferentGames",
    "replay_lines",
    "verify_logs",
]
