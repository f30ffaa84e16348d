"""One game's state, driven by signed envelopes.

The package holds the replica and the rules of the log: kinds, forks, votes to eject, peeks and
the order of entries. It also holds the history the replica keeps.
"""

from __future__ import annotations

from kotp2p.net.replica.hands import deck_secret
from kotp2p.net.replica.history import Entry, Point, Violation, describe_entry
from kotp2p.net.replica.polls import PollResolved
from kotp2p.net.replica.replica import Replica

__all__ = [
    "Entry",
    "Point",
    "PollResolved",
    "Replica",
    "Violation",
    "deck_secret",
    "describe_entry",
]
