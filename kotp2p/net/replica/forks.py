"""Fork rules of the replica.

A fork never undoes the past. These rules say what the game may still use of a forker's
envelopes. They say how two MOVEs of a forker for one step are settled. The theory is in
:mod:`kotp2p.net.replica.replica`."""

from __future__ import annotations

from typing import Protocol

from kotp2p.net.replica.history import Violation
from kotp2p.net.replica.logorder import LogOrder
from kotp2p.net.replica.timeline import Timeline
from kotp2p.net.replica.verdicts import Verdicts
from kotp2p.net.trust import Turn
from kotp2p.net.wire import Envelope, Kind

FORK_WINDOW = 16
"""Sequence numbers after a fork from which the forker's envelopes are kept.

See :meth:`Forks.take_spare`."""

SPLIT = "split"
"""What :meth:`Forks.contest` returns when the last entry is void: the replica is rebuilt."""
VOID = "void"
"""What :meth:`Forks.contest` returns when it voided rival MOVEs not applied here."""


class Frozen(Protocol):
    """Whether the replica stopped reading a seat at this point, because its ejection is voted."""

    def is_frozen(self, seat: int) -> bool:
        """``seat`` is not read here: the replica's own seat voted it out at this point."""


class Forks:
    """The forkers a replica found, their envelopes outside their streams, and the moot ids.

    An id is moot because of a fork."""

    def __init__(
        self, streams: list[dict[int, Envelope]], cursor: list[int], by_id: dict[bytes, Envelope],
        built_on: dict[bytes, set[int]], timeline: Timeline, verdicts: Verdicts,
        log_order: LogOrder,
    ) -> None:
        self._streams = streams
        self._cursor = cursor
        self._by_id = by_id
        self._built_on = built_on
        self._timeline = timeline
        self._entries = timeline.entries
        self._verdicts = verdicts
        self._cut = verdicts.cut
        self._log_order = log_order
        self.fork_base: dict[int, int] = {}
        """Forker -> the lowest sequence number of its first fork."""
        self.spare: dict[int, list[Envelope]] = {}
        """Envelopes of convicted seats kept outside their streams.

        They are the other half of a fork, and what the game may still use from those seats.
        See :meth:`take_spare`."""
        self.moot: set[bytes] = set()
        """Ids of envelopes read and never used: built on a forked envelope or past a cut."""

    def fork(self, v: Violation) -> None:
        """Two envelopes where one belongs: the author is convicted.

        Nothing more of its stream is read. What this replica consumed stands: a fork never
        undoes the past. :meth:`contest` has the one exception, when honest seats split over
        two MOVEs."""
        a = v.seat
        base = min(e.seq for e in v.evidence)
        self.fork_base.setdefault(a, base)
        used = any(e.seq < self._cursor[a] and self._streams[a].get(e.seq) is e
                   for e in v.evidence)
        self._verdicts.convict(v, cut=None if used else base)
        self._log_order.evidence(v.evidence)  # both branches, even after another conviction

    def keep(self, env: Envelope) -> None:
        """Keep ``env`` of a convicted seat outside its stream. The replica counts its vote."""
        self.spare.setdefault(env.author, []).append(env)

    def leftovers(self, a: int) -> list[Envelope]:
        """A forker's envelopes not read from its stream, in the window after its fork.

        Other replicas may have read them before they learnt of the fork. See
        :meth:`take_spare`."""
        base = self.fork_base.get(a)
        if base is None:
            return []
        cut = self._cut.get(a, 1 << 62)
        stream = self._streams[a]
        return [*(stream[q] for q in sorted(stream) if cut <= q < base + FORK_WINDOW),
                *self.spare.get(a, ())]

    def take_spare(self, env: Envelope) -> bool:
        """Keep ``env`` of a convicted author, or refuse it.

        Nothing more than its proof is stored from a convicted seat. A forker is the exception.
        Its envelopes within :data:`FORK_WINDOW` sequence numbers of its fork are kept, at most
        ``2 * FORK_WINDOW`` of them.

        Honest replicas learn of a fork within one hop. Before that, some may read a few of the
        forker's envelopes on one branch, others on the other. What the game may use of them is
        the same on any branch. A value is checked against its chain alone. An ACK and a vote
        bind to a point. So a replica that stopped reading the forker takes its owed ACKs,
        values and votes from these; the ``salvage_*`` methods do it. Every honest replica goes
        the same way. The forker's MOVEs are settled by :meth:`contest`. The replica counts a
        kept vote."""
        a = env.author
        base = self.fork_base.get(a)
        if (base is None or env.id in self._by_id or env.seq >= base + FORK_WINDOW
                or len(self.spare.get(a, ())) >= 2 * FORK_WINDOW):
            return False
        self._by_id[env.id] = env
        self._built_on.setdefault(env.head, set()).add(a)
        self.keep(env)
        return True

    def _applied_by_others(self, move: Envelope) -> bool:
        """Some seat other than its author, not convicted, built on ``move``."""
        convicted = self._verdicts.convicted
        return any(i != move.author and i not in convicted
                   for i in self._built_on.get(move.id, ()))

    def _rivals(self, a: int, step: int, head: bytes) -> list[Envelope]:
        entry_ids = self._timeline.entry_ids
        return [e for e in self.leftovers(a) if e.kind is Kind.MOVE and e.step == step
                and e.head == head and e.id not in self.moot and e.id not in entry_ids]

    def contest(self) -> str | Envelope | None:
        """Settle the MOVEs of a seat convicted of a fork at the frontier.

        Every honest replica settles them the same way. Each honest seat applies the first valid
        MOVE it gets and acknowledges it. Every envelope is forwarded, so each replica learns
        who applied what.

        * The last entry may be such a MOVE, and another seat applied a rival one. Then honest
          seats are split. Nobody went further, since the next entry needs every ACK. Both MOVEs
          are void and the replica is rebuilt without them. This returns :data:`SPLIT`. It is
          the only case where anything is undone: one entry nobody could build on. A seat knows
          who applied a MOVE only by what was built on it. So when nobody but its author built
          on the last entry, as when a monster out of the game applied it and owes no ACK, it
          alone is void, and the replica, rebuilt, takes the rival as below.
        * The game may wait on the convicted seat's MOVE. If exactly one of its MOVEs for the
          next step was applied by another seat, that MOVE is returned. The replica applies it
          too. So a seat that learnt of the fork before applying either joins the others.
        * If more than one was applied, all are void here too. This returns :data:`VOID`. A
          seat that applied neither reads what was built on them as moot, and goes on with the
          others.
        * Otherwise this returns None. The convicted seat is voted out when the game waits on
          it.
        """
        if not self.fork_base:
            return None  # no fork, and both cases below need a forker
        entries = self._entries
        last = entries[-1]
        if (last.kind == "move" and last.seat in self.fork_base and last.envelope is not None
                and last.id not in self.moot):  # a void entry waits for the rebuild
            assert last.seat is not None
            rivals = self._rivals(last.seat, last.step, entries[last.step - 1].id)
            if any(self._applied_by_others(r) for r in rivals):
                # Applied here without a word, as by a monster out of the game that owes no ACK,
                # the MOVE counts for nobody: the others cannot know of it. Only it is void,
                # and the rival the others are on is taken as they took it.
                void = ([last.id, *(r.id for r in rivals)]
                        if self._applied_by_others(last.envelope) else [last.id])
                self.moot.update(void)
                self._log_order.evidence([last.envelope, *rivals])  # both branches are logged
                seqs = [last.envelope.seq, *(r.seq for r in rivals)]
                self._cut[last.seat] = min(self._cut[last.seat], *seqs)
                return SPLIT
        p = last.points[-1]
        if not isinstance(p.pending, Turn) or p.pending.seat not in self.fork_base:
            return None
        f = p.pending.seat
        rivals = self._rivals(f, len(entries), last.id)
        applied = [m for m in rivals if self._applied_by_others(m)]
        if len(applied) > 1:
            # Honest seats split over them. They are void, as above where one was applied.
            # What was built on them is moot here too.
            self.moot.update(m.id for m in rivals)
            self._log_order.evidence(rivals)
            return VOID
        if len(applied) != 1:
            return None
        return applied[0]

    def salvage_acks(self, frozen: Frozen) -> None:
        """Take owed ACKs of forkers from their envelopes not read; see :meth:`take_spare`.

        Nothing is taken from a seat that ``frozen`` says is not read here."""
        timeline = self._timeline
        entry = self._entries[-1]
        if entry.kind != "move" or not self.fork_base:
            return
        first = entry.points[0]
        for a in timeline.owed_acks():
            if a not in self.fork_base or frozen.is_frozen(a):
                continue  # this seat voted to eject it here, so only the vote decides
            for e in self.leftovers(a):
                if (e.kind is Kind.ACK and not e.reveals and e.step == entry.step
                        and e.head == entry.id and e.state_hash == first.digest):
                    timeline.acked.add((a, entry.step))
                    timeline.use(e, first)
                    self._log_order.consumed(e)
                    break

    def salvage_reveals(self, k: int, live: list[int], frozen: Frozen) -> None:
        """Take values for event ``k`` of convicted seats from envelopes not read from their
        streams.

        A value is checked against its chain alone, so any copy does. Nothing is taken from a
        seat that ``frozen`` says is not read here."""
        timeline = self._timeline
        for i in live:
            if (i, k) in timeline.revealed or i not in self.fork_base or frozen.is_frozen(i):
                continue
            for e in self.leftovers(i):
                if (e.kind is Kind.ACK and len(e.reveals) == 1 and e.reveals[0][0] == k
                        and e.state_hash == timeline.point.digest and e.step == timeline.step
                        and e.head == timeline.head
                        and timeline.checkers[i].problem(*e.reveals[0]) is None):
                    timeline.commit_reveals(i, e)
                    timeline.use(e, timeline.point)
                    self._log_order.consumed(e)
                    break
