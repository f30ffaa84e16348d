"""Surviving a restart: the journal written as the game goes, and the resume from log and journal.

Theory of operation
-------------------
The ``.kotlog`` gets a step's envelopes only once the step closes (in the canonical order), and
the proofs of a violation only when the game ends, so the log alone cannot restore a seat: one
restored from it might sign a second, different envelope for a sequence number a peer already
holds (a fork: its own conviction), and would not find again a violation it had found.

So every envelope a local seat signed, and every proof of a violation the view's replica
found, is appended to the *journal* and flushed as soon as the session's loop gets to it, before
the call returns and so before any frame leaves (:meth:`Resumption._sync_journal`; on
:meth:`~kotp2p.net.session.session.Session.quit` too).

After a crash or a quit, :meth:`Resumption.resume` rebuilds every local seat from the log's
envelope payloads and the journal's (:meth:`~kotp2p.net.peer.protocol.PeerProtocol.restore`). The
replay is not told as news: the first update is :class:`~kotp2p.net.session.updates.Resumed`, the game
so far told from the rebuilt replica (chat included, so no line read before is told again).
Then every local seat asks its peers for what it missed (:mod:`kotp2p.net.peer.sync`).
"""

from __future__ import annotations

from kotp2p.net.session.narration import history_updates
from kotp2p.net.session.session_parts import SessionParts
from kotp2p.net.session.updates import Resumed


class Resumption(SessionParts):
    """The session's journal and resume (a mixin of :class:`~kotp2p.net.session.session.Session`)."""

    def resume(self, now: float, logged: list[bytes], journal: list[bytes]) -> None:
        """Continue a game after a restart: every local seat is rebuilt from the log's envelope
        payloads and the journal's, then asks its peers for what it missed. The first update is
        :class:`~kotp2p.net.session.updates.Resumed`: the game so far, told from the rebuilt replica."""
        with self._working():
            self._begin(now)
            self._quiet = True
            for seat, ls in self.seats.items():
                self._handle(seat, ls.protocol.restore(logged, journal))
                self._journaled[seat] = len(ls.protocol.replica.streams[seat])
            self._quiet = False
            self._proofs_journaled = len(self.protocol.replica.log_order.proofs)
            r = self.protocol.replica
            # what happened before, told from the replayed log (nothing is sent for it)
            self._updates.insert(0, Resumed(tuple(history_updates(self.engine, r))))
            self._chat_next = list(r.cursor)
            for seat, ls in self.seats.items():
                self._handle(seat, ls.protocol.sync_requests())
            self._run(now)

    def _sync_journal(self) -> None:
        """Journal every envelope a local seat signed since the last call, and every proof
        of a violation found since (restored, they convict again), then flush."""
        if self.journal is None:
            return
        wrote = False
        proofs = self.protocol.replica.log_order.proofs
        if self._proofs_journaled < len(proofs):
            self.journal.append([e.frame for e in proofs[self._proofs_journaled:]])
            self._proofs_journaled = len(proofs)
            wrote = True
        for seat, ls in self.seats.items():
            stream = ls.protocol.replica.streams[seat]
            while self._journaled[seat] in stream:
                self.journal.append([stream[self._journaled[seat]].frame])
                self._journaled[seat] += 1
                wrote = True
        if wrote:
            self.journal.flush()

