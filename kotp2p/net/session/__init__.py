"""The object every view drives: a session owns the protocol objects of the seats this process
plays, the log, the journal and the deadlines, and reports what happens as typed updates.
"""

from __future__ import annotations

from kotp2p.net.session.deadlines import Timeouts
from kotp2p.net.session.narration import recent_turns
from kotp2p.net.session.session import Decider, LocalSeat, Session
from kotp2p.net.session.updates import (
    ChatLine,
    DiceRolled,
    EjectAsked,
    FrameRefused,
    GameOver,
    LinkChanged,
    MoveApplied,
    Narrated,
    Resumed,
    Update,
    ViolationSeen,
    Waiting,
    YourTurn,
)

__all__ = [
    "ChatLine",
    "Decider",
    "DiceRolled",
    "EjectAsked",
    "FrameRefused",
    "GameOver",
    "LinkChanged",
    "LocalSeat",
    "MoveApplied",
    "Narrated",
    "Resumed",
    "Session",
    "Timeouts",
    "Update",
    "ViolationSeen",
    "Waiting",
    "YourTurn",
    "recent_turns",
]
