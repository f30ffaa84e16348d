"""The screens: the plain line interface, the full screen's controller, and their lobbies.

They read a session and send it commands. They never touch a socket. The full screen's drawing
is in ``kotp2p.ui.full``, the one package that loads prompt_toolkit.
"""

from __future__ import annotations

from kotp2p.ui.lobby import LobbyController
from kotp2p.ui.lobby_plain import PlainLobby, Request
from kotp2p.ui.logscreen import logs_to
from kotp2p.ui.model import AUTO_LEAVE_MAX, AUTO_STAY_MAX, Comfort, Controller
from kotp2p.ui.plain import PlainView, format_state
from kotp2p.ui.program import program
from kotp2p.ui.refusals import plain_refusal
from kotp2p.ui.stats import replica_stats, session_stats, stats_legend, stats_rows
from kotp2p.ui.symbols import AsciiWriter, symbols

__all__ = [
    "AUTO_LEAVE_MAX",
    "AUTO_STAY_MAX",
    "AsciiWriter",
    "Comfort",
    "Controller",
    "LobbyController",
    "PlainLobby",
    "PlainView",
    "Request",
    "format_state",
    "logs_to",
    "plain_refusal",
    "program",
    "replica_stats",
    "session_stats",
    "stats_legend",
    "stats_rows",
    "symbols",
]
