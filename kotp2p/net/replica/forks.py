"""Fork rules of the replica: a fork never undoes the past; what the game may still use of a
forker's envelopes, and how two MOVEs of a forker for one step are settled (the theory is in
:mod:`kotp2p.net.replica.replica`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kotp2p.net.replica.history import Violation
from kotp2p.net.replica.replica_parts import ReplicaParts
from kotp2p.net.trust import Turn
from kotp2p.net.wire import Envelope, Kind, payload_problem

FORK_WINDOW = 16
"""Sequence numbers after a fork from which the forker's envelopes are kept
(see :meth:`ForkRules.take_spare`)."""


class ForkRules(ReplicaParts):
    """The replica's handling of forks (a mixin of :class:`~kotp2p.net.replica.replica.Replica`)."""

    if TYPE_CHECKING:
        def _is_frozen(self, seat: int) -> bool: ...
        def _ejected_behind(self, vote: Envelope) -> None: ...

    def _fork(self, v: Violation) -> None:
        """Two envelopes where one belongs: the author is convicted and nothing more of its
        stream is read; what this replica consumed stands (a fork never undoes the past, see
        :meth:`_contest` for the one exception: honest seats split over two MOVEs)."""
        a = v.seat
        base = min(e.seq for e in v.evidence)
        self.fork_base.setdefault(a, base)
        used = any(e.seq < self.cursor[a] and self.streams[a].get(e.seq) is e
                   for e in v.evidence)
        self._convict(v, cut=None if used else base)
        self.log_order.evidence(v.evidence)  # both branches, even after another conviction

    def _keep_spare(self, env: Envelope) -> None:
        self.spare.setdefault(env.author, []).append(env)
        if env.kind is Kind.EJECT and payload_problem(env, self.n) is None:
            key = (env.payload[0], env.step, env.state_hash)
            voters = self._eject_index.setdefault(key, set())
            new = env.author not in voters
            voters.add(env.author)
            if new and env.payload[0] not in self.ejected:
                self._ejected_behind(env)  # (a forker's vote counts, see take_spare)

    def leftovers(self, a: int) -> list[Envelope]:
        """A forker's envelopes not read from its stream, in the window after its fork: what
        other replicas may have read before they learnt of the fork (see :meth:`take_spare`)."""
        base = self.fork_base.get(a)
        if base is None:
            return []
        cut = self.cut.get(a, 1 << 62)
        stream = self.streams[a]
        return [*(stream[q] for q in sorted(stream) if cut <= q < base + FORK_WINDOW),
                *self.spare.get(a, ())]

    def take_spare(self, env: Envelope) -> bool:
        """Keep ``env`` of a convicted author, or refuse it: nothing more is stored from a
        convicted seat than its proof, except, from a forker, the envelopes within
        :data:`FORK_WINDOW` sequence numbers of its fork (at most ``2 * FORK_WINDOW``).

        Honest replicas learn of a fork within one hop, so before that some may read a few of
        the forker's envelopes on one branch, others on the other. What the game may use of
        them is the same on any branch (a value is checked against its chain alone, an ACK
        and a vote bind to a point), so a replica that stopped reading the forker takes its
        owed ACKs, values and votes from these (``_salvage_*``), and every honest replica
        goes the same way; its MOVEs are settled by :meth:`_contest`."""
        a = env.author
        base = self.fork_base.get(a)
        if (base is None or env.id in self.by_id or env.seq >= base + FORK_WINDOW
                or len(self.spare.get(a, ())) >= 2 * FORK_WINDOW):
            return False
        self.by_id[env.id] = env
        self.built_on.setdefault(env.head, set()).add(a)
        self._keep_spare(env)
        return True

    def _applied_by_others(self, move: Envelope) -> bool:
        """Some seat other than its author, not convicted, built on ``move``."""
        return any(i != move.author and i not in self.convicted
                   for i in self.built_on.get(move.id, ()))

    def _rivals(self, a: int, step: int, head: bytes) -> list[Envelope]:
        return [e for e in self.leftovers(a) if e.kind is Kind.MOVE and e.step == step
                and e.head == head and e.id not in self.moot and e.id not in self.entry_ids]

    def _contest(self) -> bool:
        """Settle the MOVEs of a seat convicted of a fork at the frontier, the same way on every
        honest replica (each honest seat applies the first valid MOVE it gets and acknowledges
        it; every envelope is forwarded, so each replica learns who applied what):

        * the last entry is such a MOVE and another seat applied a rival one: honest seats are
          split, and nobody went further (the next entry needs every ACK): both are void and the
          replica is rebuilt without them (the only case where anything is undone: one entry
          nobody could build on);
        * the game waits on the convicted seat's MOVE and exactly one of its MOVEs for the next
          step was applied by another seat: it is applied here too (so a seat that learnt of
          the fork before applying either joins the others); more than one: all are void here
          too (a seat that applied neither reads what was built on them as moot, and goes on
          with the others);
        * otherwise nothing: the convicted seat is voted out when the game waits on it.
        """
        if not self.fork_base:
            return False  # (no fork: both cases below need a forker)
        last = self.entries[-1]
        if last.kind == "move" and last.seat in self.fork_base and last.envelope is not None:
            assert last.seat is not None
            rivals = self._rivals(last.seat, last.step, self.entries[last.step - 1].id)
            if any(self._applied_by_others(r) for r in rivals):
                self.moot.update([last.id, *(r.id for r in rivals)])
                self.log_order.evidence([last.envelope, *rivals])  # both branches, logged
                seqs = [last.envelope.seq, *(r.seq for r in rivals)]
                self.cut[last.seat] = min(self.cut[last.seat], *seqs)
                self.needs_rebuild = True
                return True
        p = self.point
        if not isinstance(p.pending, Turn) or p.pending.seat not in self.fork_base:
            return False
        f = p.pending.seat
        rivals = self._rivals(f, self.step + 1, self.head)
        applied = [m for m in rivals if self._applied_by_others(m)]
        if len(applied) > 1:
            # honest seats split over them: void, as where one of them was applied (above);
            # what was built on them is moot, here too
            self.moot.update(m.id for m in rivals)
            self.log_order.evidence(rivals)
            return True
        if len(applied) != 1 or self.owed_acks():
            return False
        result = self._move(f, applied[0])
        if result is None:
            self.log_order.consumed(applied[0])
            return True
        if isinstance(result, Violation):
            self.moot.add(applied[0].id)
        return False

    def _salvage_acks(self) -> None:
        """Owed ACKs of forkers, from their envelopes not read (see :meth:`take_spare`)."""
        entry = self.entries[-1]
        if entry.kind != "move" or not self.fork_base:
            return
        first = entry.points[0]
        for a in self.owed_acks():
            if a not in self.fork_base or self._is_frozen(a):
                continue  # (after this seat voted to eject it here, only the vote decides)
            for e in self.leftovers(a):
                if (e.kind is Kind.ACK and not e.reveals and e.step == entry.step
                        and e.head == entry.id and e.state_hash == first.digest):
                    self.acked.add((a, entry.step))
                    self.use(e, first)
                    self.log_order.consumed(e)
                    break

    def _salvage_reveals(self, k: int, live: list[int]) -> None:
        """Values for event ``k`` of convicted seats, from envelopes not read from their
        streams (a value is checked against its chain alone, so any copy does)."""
        for i in live:
            if (i, k) in self.revealed or i not in self.fork_base or self._is_frozen(i):
                continue
            for e in self.leftovers(i):
                if (e.kind is Kind.ACK and len(e.reveals) == 1 and e.reveals[0][0] == k
                        and e.state_hash == self.point.digest and e.step == self.step
                        and e.head == self.head
                        and self.checkers[i].problem(*e.reveals[0]) is None):
                    self._commit_reveals(i, e)
                    self.use(e, self.point)
                    self.log_order.consumed(e)
                    break
