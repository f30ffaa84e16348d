"""Surviving a restart: the journal written as the game goes, read back on resume.

Theory of operation
-------------------
The ``.kotlog`` gets a step's envelopes only once the step closes, in the canonical order. It
gets the proofs of a violation only when the game ends. So the log alone cannot restore a seat.
A seat restored from it might sign a second, different envelope for a sequence number a peer
already holds. That is a fork: its own conviction. And it would not find again a violation it
had found.

So every envelope a local seat signed is appended to the *journal*. So is every proof of a
violation the view's replica found. The journal is flushed as soon as the session's loop gets to
it. That is before the call returns, and so before any frame leaves. :meth:`Journal.sync` does
it, and :meth:`~kotp2p.net.session.session.Session.quit` does it too.

After a crash or a quit, :meth:`~kotp2p.net.session.session.Session.resume` rebuilds every local
seat. It uses the log's envelope payloads and the journal's; see
:meth:`~kotp2p.net.peer.protocol.PeerProtocol.restore`. What the rebuilt seats hold is journaled
already; see :meth:`Journal.restored`. The replay is not told as news. The first update is
:class:`~kotp2p.net.session.updates.Resumed`: the game so far, told from the rebuilt replica.
Chat is included, so no line read before is told again. Then every local seat asks its peers for
what it missed; see :mod:`kotp2p.net.peer.sync`.

The journal may be lost, cut or damaged. So a restored seat first asks its peers for its own
envelopes and signs nothing before they answered; see :mod:`kotp2p.net.peer.catchup`. What they
send back is journaled again like what it signs. It may fill a hole: the journal writes each
envelope of a local seat once, whatever the order it comes in.
"""

from __future__ import annotations

from collections.abc import Mapping

from kotp2p.net.files import FrameSink
from kotp2p.net.peer import PeerProtocol


class Journal:
    """What the local seats signed and the proofs the view's replica found.

    They are written to ``sink`` as they come. With no sink no journal is kept."""

    def __init__(self, sink: FrameSink | None, protocols: Mapping[int, PeerProtocol],
                 view: int) -> None:
        self._sink = sink
        self._protocols = protocols
        """By local seat, its protocol; ``view``'s replica finds the proofs."""
        self._view = view
        self._written = {s: 0 for s in protocols}
        """By local seat, how many of its own envelopes are journaled, from its first on."""
        self._ahead: dict[int, set[int]] = {s: set() for s in protocols}
        """By local seat, the sequence numbers of its envelopes journaled past a hole."""
        self._proofs_written = 0

    def sync(self) -> None:
        """Journal what came since the last call, then flush.

        That is every envelope a local seat signed, and every proof of a violation found.
        Restored, the proofs convict again."""
        if self._sink is None:
            return
        wrote = False
        proofs = self._protocols[self._view].replica.log_order.proofs
        if self._proofs_written < len(proofs):
            self._sink.append([e.frame for e in proofs[self._proofs_written:]])
            self._proofs_written = len(proofs)
            wrote = True
        for seat, protocol in self._protocols.items():
            stream = protocol.replica.streams[seat]
            ahead = self._ahead[seat]
            while self._written[seat] in stream:
                if ahead and self._written[seat] in ahead:
                    ahead.discard(self._written[seat])
                else:
                    self._sink.append([stream[self._written[seat]].frame])
                    wrote = True
                self._written[seat] += 1
        if wrote:
            self._sink.flush()

    def restored(self) -> None:
        """The local seats were rebuilt from the log and journal.

        What they hold now is journaled already."""
        for seat, protocol in self._protocols.items():
            stream = protocol.replica.streams[seat]
            n = 0
            while n in stream:
                n += 1
            self._written[seat] = n
            self._ahead[seat] = {q for q in stream if q > n}
        self._proofs_written = len(self._protocols[self._view].replica.log_order.proofs)

    def flush(self) -> None:
        """Make what was journaled survive the process."""
        if self._sink is not None:
            self._sink.flush()
