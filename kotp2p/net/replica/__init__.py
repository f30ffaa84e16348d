"""One game's state, driven by signed envelopes: the replica and the rules of the log (kinds,
forks, votes to eject, peeks, the order of entries), and the history it keeps.
"""

from __future__ import annotations

from kotp2p.net.replica.history import Entry, Point, Violation, describe_entry
from kotp2p.net.replica.replica import Replica

__all__ = [
    "Entry",
    "Point",
    "Replica",
    "Violation",
    "describe_entry",
]
