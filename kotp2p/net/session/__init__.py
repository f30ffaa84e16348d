"""The object every view drives: a session.

A session owns the protocol objects of the seats this process plays. It owns the log, the
journal and the deadlines. It reports what happens as typed updates.
"""

from __future__ import annotations

from kotp2p.net.session.commands import (
    Chat,
    Command,
    Done,
    Quit,
    Refused,
    Result,
    Submit,
    VoteEject,
)
from kotp2p.net.session.deadlines import Timeouts
from kotp2p.net.session.narration import recent_turns
from kotp2p.net.session.session import Decider, LocalSeat, Session
from kotp2p.net.session.telling import UpdateView, tell
from kotp2p.net.session.thinking import Question
from kotp2p.net.session.updates import (
    CaughtUp,
    ChatLine,
    DiceRolled,
    EjectAsked,
    FrameRefused,
    GameOver,
    LinkChanged,
    MoveApplied,
    Narrated,
    Notice,
    Resumed,
    Update,
    ViolationSeen,
    Waiting,
    YourTurn,
)

__all__ = [
    "CaughtUp",
    "Chat",
    "ChatLine",
    "Command",
    "Decider",
    "DiceRolled",
    "Done",
    "EjectAsked",
    "FrameRefused",
    "GameOver",
    "LinkChanged",
    "LocalSeat",
    "MoveApplied",
    "Narrated",
    "Notice",
    "Question",
    "Quit",
    "Refused",
    "Result",
    "Resumed",
    "Session",
    "Submit",
    "Timeouts",
    "Update",
    "UpdateView",
    "ViolationSeen",
    "VoteEject",
    "Waiting",
    "YourTurn",
    "recent_turns",
    "tell",
]
