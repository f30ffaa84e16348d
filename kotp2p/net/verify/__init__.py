"""Settling a dispute offline: read logs, check a game and replay it.

Logs are read whatever their damage. A game is checked from its genesis to its end. A replay tells
it turn by turn.
"""

from __future__ import annotations

from kotp2p.net.verify.replay import replay_lines
from kotp2p.net.verify.verify import INCOMPLETE, DifferentGames, Verdict, verify_logs

__all__ = [
    "INCOMPLETE",
    "DifferentGames",
    "Verdict",
    "replay_lines",
    "verify_logs",
]
