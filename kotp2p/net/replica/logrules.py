"""The log rules of the replica.

They say when a step's block of the ``.kotlog`` is complete, and which consumed envelopes it
holds. :mod:`kotp2p.net.replica.logorder` gives the order inside a block, and why."""

from __future__ import annotations

from kotp2p.net.replica.ejection import Ejections
from kotp2p.net.replica.forks import Forks
from kotp2p.net.replica.hands import Hands
from kotp2p.net.replica.kinds import Kinds
from kotp2p.net.replica.logorder import LogOrder
from kotp2p.net.replica.peeks import Peeks
from kotp2p.net.replica.timeline import Timeline
from kotp2p.net.replica.verdicts import Verdicts
from kotp2p.net.wire import Envelope, Kind


class LogRules:
    """The replica's side of the canonical log order.

    It decides for ``log_order`` which envelopes a block keeps, and when a block is closed. It
    sets the ``keep`` of ``log_order`` for that.

    A live replica, one that writes a log, also waits for each dead monster's farewell. A seat
    whose monster died signs nothing the game waits for. It may still sign a STALL or a chat
    line, and honest replicas read those at different moments. So its BYE with no result, the
    farewell it signs once it sees itself dead, holds every block from then on. Each of its
    envelopes before the farewell is read by then, in its place. Nothing after the farewell is
    logged. A dead seat that must open a peek at the end says its farewell only after that.
    ``verify`` does not wait for farewells: a log without them is whole."""

    def __init__(
        self, streams: list[dict[int, Envelope]], cursor: list[int], last_step: list[int],
        timeline: Timeline, verdicts: Verdicts, forks: Forks, ejections: Ejections,
        kinds: Kinds, peeks: Peeks, hands: Hands, log_order: LogOrder, *, live: bool = False,
    ) -> None:
        self.n = timeline.n
        self.live = live
        """Blocks wait for the farewells of dead seats; see the class's comment."""
        self._streams = streams
        self._cursor = cursor
        self._last_step = last_step
        self._timeline = timeline
        self._entries = timeline.entries
        self._verdicts = verdicts
        self._forks = forks
        self._ejections = ejections
        self._kinds = kinds
        self._peeks = peeks
        self._hands = hands
        self._log_order = log_order
        self._needed: dict[int, tuple[tuple[int, int, int, bool], int]] = {}
        """Memo of :meth:`_last_needed`, with what it depends on."""
        log_order.keep = self.in_block

    def owed_openings(self, seat: int) -> list[int]:
        """The private events ``seat`` must still open once the game is over.

        The record is complete only then. They are its unopened events, unless it was convicted
        or ejected. An absent seat cannot open anything. And nothing public depends on them: a
        MOVE that needed a peek carried its opening."""
        if seat in self._verdicts.cut or seat in self._ejections.ejected:
            return []
        return self._peeks.unopened(seat)

    def owed_slots(self, seat: int) -> list[int]:
        """The slots of its hidden deck ``seat`` must still open.

        It opens them all once the game is over, or its monster is out. A seat convicted or
        ejected is excused, as for :meth:`owed_openings`."""
        if seat in self._verdicts.cut or seat in self._ejections.ejected:
            return []
        last = self._entries[-1].points[-1]
        if last.alive[seat] and last.pending is not None:
            return []
        return self._hands.unopened(seat)

    def _closed(self, s: int) -> bool:
        entries = self._entries  # the step and point are read without the calls: asked often
        if s < len(entries) - 1:
            # Entry s+1 needed every envelope step s required. A live seat may say more at
            # step s, such as a STALL or a CHAT. That comes before its first envelope of a later
            # step. Every live seat sends one, an ACK or a value. Once each has, block s is
            # complete. A split MOVE may undo a step a seat had ACKed; the seat then speaks
            # from the step before again. So the step of its last envelope counts, not its
            # highest.
            alive = entries[-1].points[-1].alive
            last_step, cut, ejected = self._last_step, self._verdicts.cut, self._ejections.ejected
            for a in range(self.n):
                if last_step[a] <= s and alive[a] and a not in cut and a not in ejected:
                    return False
            return not self.live or self.farewells_read()
        return self._last_closed(s) and (not self.live or self.farewells_read())

    def _last_closed(self, s: int) -> bool:
        """Block ``s`` is the last one, and every live seat said BYE, as ``verify`` judges it."""
        entries = self._entries
        p = entries[-1].points[-1]
        if s > len(entries) - 1 or p.pending is not None:
            return False
        alive = p.alive
        if any(self.owed_openings(a) or self.owed_slots(a) for a in range(self.n)):
            return False
        byes, cut = self._kinds.byes, self._verdicts.cut
        return all(a in byes or a in cut or not alive[a] for a in range(self.n))

    def farewells_read(self) -> bool:
        """Every seat whose monster died said its farewell, unless it was convicted or ejected."""
        alive = self._entries[-1].points[-1].alive
        byes, cut, ejected = self._kinds.byes, self._verdicts.cut, self._ejections.ejected
        return all(alive[a] or a in byes or a in cut or a in ejected for a in range(self.n))

    def in_block(self, env: Envelope) -> bool:
        """Whether ``env`` goes into its step's block of the log.

        It does not if its author left the game before it and the game did not use it. Honest
        replicas read such an envelope or not, depending on when it came. But whatever the game
        used of it, all of them used. Envelopes proving a violation are logged in the closing
        section anyway. A seat leaves the game in three ways.

        * A forker leaves at its fork. Replicas cut a forker where they learnt of the fork.
          ``verify`` needs nothing past the fork but what the game used; see :meth:`take_spare`.
        * After its first BYE a seat's envelopes are left out, but for its openings. A dead
          seat's chat line after its farewell, or a winner's after its BYE, would else land in
          different places. An opening is awaited before the last block closes, so it lands in
          the same place everywhere.
        * An ejected seat leaves at the step of the point where it was ejected. Its envelopes
          are left out past the last one the game used or that proves its violation. Such an
          envelope was in flight there, or sent later. So each author's logged envelopes stay a
          gapless run, as ``verify`` reads them in order."""
        a = env.author
        if env.id in self._timeline.used or env.id in self._timeline.entry_ids:
            return True
        bye = self._kinds.byes.get(a)
        if bye is not None and env.seq > bye.seq and env.kind is not Kind.OPEN:
            return False  # after its BYE a seat's word is not logged, but for its openings
        fork_base = self._forks.fork_base
        if a in fork_base:
            return env.seq < min(self._verdicts.cut.get(a, fork_base[a]), fork_base[a])
        gone = self._ejections.ejected.get(a)
        return gone is None or env.step < gone - 1 or env.seq <= self._last_needed(a)

    def _last_needed(self, a: int) -> int:
        """The highest seq of ``a``'s envelopes that the game used or that prove its violation.

        It is -1 if there is none."""
        v = self._verdicts.convicted.get(a)
        used, entry_ids = self._timeline.used, self._timeline.entry_ids
        key = (self._cursor[a], len(used), len(entry_ids), v is not None)
        known = self._needed.get(a)
        if known is not None and known[0] == key:
            return known[1]  # an ejected seat may send many envelopes, and each one asks
        last = max((e.seq for e in v.evidence if e.author == a), default=-1) if v else -1
        stream = self._streams[a]
        for q in range(self._cursor[a] - 1, last, -1):  # what the game used, it read
            e = stream.get(q)
            if e is not None and (e.id in used or e.id in entry_ids):
                last = q
                break
        self._needed[a] = (key, last)
        return last

    @property
    def log_complete(self) -> bool:
        """The game is over and its last step is closed: every live seat said BYE.

        Then the log of this replica holds the whole game. A dead seat's farewell is not
        needed for that."""
        entries = self._entries
        return entries[-1].points[-1].pending is None and self._last_closed(len(entries) - 1)

    def close_blocks(self) -> list[Envelope]:
        """Consumed envelopes of the steps every live seat has moved past.

        They come in the canonical order of :class:`~kotp2p.net.replica.logorder.LogOrder`."""
        entries = self._entries
        step, over = len(entries) - 1, entries[-1].points[-1].pending is None
        if not over:
            # Before the end, the current step's block never closes; see _closed. The blocks
            # close in order. So there is nothing to hand out unless the first open one is
            # closed.
            written = self._log_order.written
            if written >= step or not self._closed(written):
                return []
        return self._log_order.close(self._closed, step, over)

    def drain(self) -> list[Envelope]:
        """Every consumed envelope not handed out yet. It serves when stopping before the end."""
        return self._log_order.drain()
