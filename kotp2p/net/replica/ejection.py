"""Ejection rules of the replica.

They say which seat a vote may name and when votes eject. They say what happens to a vote whose
target's envelope was in flight. The theory is in :mod:`kotp2p.net.replica.replica`."""

from __future__ import annotations

from kotp2p.net.replica.forks import Forks
from kotp2p.net.replica.history import Entry, Point, violation
from kotp2p.net.replica.logorder import LogOrder
from kotp2p.net.replica.timeline import Timeline
from kotp2p.net.trust import Chance, Poll, Turn
from kotp2p.net.wire import Envelope, Kind, payload_problem

WAIT = object()
"""What a handler returns for an envelope that must wait. The replica shares it."""
LATER = object()
"""Like ``WAIT``, for an envelope that can only be read once the game is at another point.

Such an envelope names a later step, or an entry not held. It is retried only after the point
changes."""


def _seats(seats: tuple[int, ...]) -> str:
    if not seats:
        return "no seat (the game was over)"
    return "seat " + ", ".join(map(str, seats)) if len(seats) == 1 else \
        "seats " + ", ".join(map(str, seats))


class Ejections:
    """The votes to eject a replica holds, and the ejections they made.

    It also holds the seats the replica's own seat stopped reading because it voted them out. A
    forker's votes come from :class:`Forks`."""

    def __init__(
        self, streams: list[dict[int, Envelope]], cursor: list[int],
        named_points: dict[tuple[int, bytes], set[int]], top_step: list[int],
        timeline: Timeline, cut: dict[int, int], forks: Forks, log_order: LogOrder,
    ) -> None:
        self.n = timeline.n
        self._streams = streams
        self._cursor = cursor
        self._named_points = named_points
        self._top_step = top_step
        self._timeline = timeline
        self._entries = timeline.entries
        self._cut = cut
        self._forks = forks
        self._log_order = log_order
        self.votes: dict[tuple[int, bytes], dict[int, dict[int, Envelope]]] = {}
        """``(step, point digest)`` -> target -> voter -> that voter's first EJECT there."""
        self.frozen: dict[int, int] = {}
        """Seat -> the step where this replica's seat voted it out and stopped reading it."""
        self.ejected: dict[int, int] = {}
        """Ejected seat -> the step of its ejection entry."""
        self.eject_index: dict[tuple[int, int, bytes], set[int]] = {}
        """``(target, step, state)`` -> authors of stored votes there, consumed or not."""
        self.stall_index: dict[tuple[int, int, bytes], dict[int, int]] = {}
        """``(seat named, step, head)`` -> author of a STALL -> the lowest seq of such a STALL.

        The STALL says its author waits on the seat named."""
        self.stall_states: dict[tuple[int, bytes], dict[bytes, dict[int, int]]] = {}
        """``(step, head)`` -> state named by a STALL -> its author -> the lowest such seq."""
        self.acked_claims: dict[tuple[int, bytes], dict[int, Envelope]] = {}
        """``(step, state)`` -> author of a STALL or vote there claiming it holds every ACK of
        the last MOVE -> its claim of the lowest seq."""
        self.judging: int | None = None
        """The seat whose late envelopes the replica checks as it is ejected."""

    def awaited(self, p: Point) -> tuple[int, ...]:
        """The seats a vote to eject may name at point ``p``.

        They are those whose envelope the game may wait on there. This is judged from the point
        alone, not from what this replica received. Four kinds of seat count.

        * The seat whose decision is pending.
        * Every live seat a pending poll asks.
        * Every live seat owing its value for the pending random event. The author of the MOVE
          that carried its own value is not one.
        * Every live seat owing an ACK of the MOVE that made the entry, when it triggered no
          event."""
        if p.pending is None:
            return ()
        entry = self._entries[p.step]
        alive = p.alive
        mover = entry.seat if entry.kind == "move" and p.index == 0 else None
        out: set[int] = set()
        if isinstance(p.pending, Turn):
            out.add(p.pending.seat)
            if mover is not None and p.k is None:
                out.update(i for i in range(self.n) if i != mover)
        elif isinstance(p.pending, Chance):
            out.update(i for i in range(self.n) if i != mover)
        elif isinstance(p.pending, Poll):
            out.update(p.pending.seats)  # each owes its answer
            if mover is not None:
                out.update(i for i in range(self.n) if i != mover)  # and the others an ACK
        return tuple(sorted(i for i in out if alive[i]))

    def check(self, a: int, env: Envelope) -> object:
        """The EJECT handler: check the vote ``env`` of seat ``a`` and count it at its point."""
        target = env.payload[0]  # the schema made it another seat
        entries = self._entries
        step = len(entries) - 1
        points = entries[env.step].points
        p = next((p for p in points if p.digest == env.state_hash), None)
        if p is None:
            if env.step == step and isinstance(entries[-1].points[-1].pending, Chance | Poll):
                return WAIT  # a point of this step this replica has not reached yet
            return violation("bad-eject", env, f"a vote to eject seat {target} at step "
                             f"{env.step} names state {env.state_hash.hex()[:16]}; one of that "
                             "step's states expected")
        awaited = self.awaited(p)
        if target not in awaited:
            return violation("bad-eject", env, f"a vote to eject seat {target} at step "
                             f"{env.step}, where the game did not wait on it; a vote may name "
                             f"only {_seats(awaited)}")
        q = self._stalled_past(a, env.step, p.index)
        if q is not None and q < env.seq:
            stall = self._streams[a][q]
            return violation("bad-eject", env, f"a vote to eject seat {target} at step "
                             f"{env.step}, state {env.state_hash.hex()[:16]}, after its STALL "
                             f"#{q} said it waited on seat {stall.payload[0]} past that state; "
                             "a vote names the state its author waits at", stall)
        claim = self.acked_claims.get((env.step, env.state_hash), {}).get(a)
        if (claim is not None and claim.seq < env.seq and isinstance(p.pending, Turn)
                and target != p.pending.seat):
            return violation("bad-eject", env, f"a vote to eject seat {target} at step "
                             f"{env.step} for a missing ACK, after its #{claim.seq} said it "
                             "held every ACK there; a vote names a seat its author waits on",
                             claim)
        if env.step == step:
            here = self.votes.setdefault((env.step, env.state_hash), {})
            here.setdefault(target, {}).setdefault(a, env)
        return None

    def quorum(self) -> tuple[int, Envelope] | None:
        """The seat every other live seat voted out at the current point, or None.

        The lowest voter's vote comes with it; it is the id of the ejection entry. The votes are
        marked used. The replica then checks the target's late envelopes and calls
        :meth:`eject`."""
        timeline = self._timeline
        p = timeline.point
        if p.pending is None or not self.votes:
            return None  # no vote at all, so the point's digest need not be computed
        here = self.votes.get((timeline.step, p.digest))
        if not here:
            return None
        fork_base = self._forks.fork_base
        for target, voters in sorted(here.items()):
            if not p.alive[target]:
                continue
            others = [i for i in range(self.n) if p.alive[i] and i != target]
            for i in others:
                if i not in voters and i in fork_base:
                    self._salvage_vote(i, target, voters)
            if all(i in voters for i in others):
                timeline.used.update(voters[i].id for i in others)
                # The ejection wins over the target's envelope for this point. That envelope
                # may have been taken here or not; it was in flight. It is moot and logged
                # nowhere; see LogRules.in_block.
                timeline.used.discard(timeline.used_at.pop((target, p.step, p.index), b""))
                return target, voters[min(others)]
        return None

    def eject(self, target: int, first: Envelope) -> None:
        """Apply the ejection of ``target`` that :meth:`quorum` found. ``first`` is its id."""
        timeline = self._timeline
        p = timeline.point
        entry = Entry(timeline.step + 1, first.id, "eject", target, envelope=first,
                      before=p.state)
        self._entries.append(entry)
        timeline.entry_ids.add(entry.id)
        self.frozen.pop(target, None)
        self.ejected[target] = entry.step
        timeline.push_point(timeline.engine.eject(p.state, target))

    def _salvage_vote(self, voter: int, target: int, voters: dict[int, Envelope]) -> None:
        """Take a convicted seat's vote at the current point from envelopes not read from its
        stream.

        A vote binds to the point it names, so any copy does."""
        timeline = self._timeline
        for e in self._forks.leftovers(voter):
            if (e.kind is Kind.EJECT and e.step == timeline.step
                    and e.state_hash == timeline.point.digest
                    and payload_problem(e, self.n) is None and e.payload[0] == target):
                voters[voter] = e
                self._log_order.consumed(e)
                return

    def quorum_stored(self, target: int) -> bool:
        """Every other live seat has an EJECT of ``target`` at the current point.

        The EJECTs may be consumed or not."""
        if not self.eject_index:
            return False
        entries = self._entries
        p = entries[-1].points[-1]
        voters = self.eject_index.get((target, len(entries) - 1, p.digest))
        if not voters:
            return False
        return all(i in voters for i in range(self.n) if p.alive[i] and i != target)

    def ejected_first(self, target: int) -> bool:
        """``target``'s ejection at the current point comes before its own envelope there.

        Every other live seat's vote against it is stored, as :meth:`quorum_stored` says, and no
        lower seat's votes are. Two seats may each hold a full set of votes against the other.
        With two monsters left, each one's vote is enough. Each voter revealed its own value
        before it voted, and its vote waits behind that value in its stream. If both values
        waited for the votes, neither would ever be read. So the lower seat goes first, as
        :meth:`quorum` ejects it first, and the other's envelopes are read on."""
        return self.quorum_stored(target) and not any(
            self.quorum_stored(s) for s in range(target))

    def note_stall(self, env: Envelope) -> None:
        """Index a stored STALL whose schema was checked."""
        stalls = self.stall_index.setdefault((env.payload[0], env.step, env.head), {})
        stalls[env.author] = min(stalls.get(env.author, env.seq), env.seq)
        if env.state_hash:
            at = self.stall_states.setdefault((env.step, env.head), {}).setdefault(
                env.state_hash, {})
            at[env.author] = min(at.get(env.author, env.seq), env.seq)
        self._note_claim(env)

    def _note_claim(self, env: Envelope) -> None:
        """Index the claim of a STALL or vote ``env`` to hold every ACK, if it makes one."""
        if len(env.payload) == 2 and env.payload[1] is True and env.state_hash:
            at = self.acked_claims.setdefault((env.step, env.state_hash), {})
            known = at.get(env.author)
            if known is None or env.seq < known.seq:
                at[env.author] = env

    def note_vote(self, env: Envelope) -> bool:
        """Index a stored EJECT whose schema was checked.

        It answers whether the EJECT completes the votes to eject a seat at a point this replica
        passed. Then the replica must be rebuilt; see :meth:`_ejected_behind`."""
        self._note_claim(env)
        key = (env.payload[0], env.step, env.state_hash)
        voters = self.eject_index.setdefault(key, set())
        new = env.author not in voters
        voters.add(env.author)
        return new and env.payload[0] not in self.ejected and self._ejected_behind(env)

    def _ejected_behind(self, vote: Envelope) -> bool:
        """``vote`` completes the votes to eject a seat at a point this replica already passed.

        This replica passed it on that seat's envelope, which was in flight when the last vote
        came. This replica may be the target's own, or one that does not vote, like a dead
        monster's. The ejection wins, as on every voter's replica. So this one must be rebuilt
        to follow it. The target's envelopes from that point on are moot. This is asked once
        per new voter at a point."""
        entries = self._entries
        if vote.step > len(entries) - 1:
            return False
        target = vote.payload[0]
        p = next((p for p in entries[vote.step].points if p.digest == vote.state_hash),
                 None)
        if p is None or p is entries[-1].points[-1] or target not in self.awaited(p):
            return False
        after = entries[vote.step + 1] if vote.step + 1 < len(entries) else None
        if (after is not None and after.kind == "eject" and after.seat == target
                and p is entries[vote.step].points[-1]):
            return False  # this replica followed the ejection there
        voters = self.eject_index.get((target, vote.step, vote.state_hash), set())
        return all(i in voters for i in range(self.n) if p.alive[i] and i != target)

    def _voted_further(self, seat: int, step: int) -> bool:
        """Another seat, not convicted, signed an ACK or a vote at a point of ``step`` this
        replica has not reached.

        That seat got past the point where this replica waits on ``seat``. So it will never
        vote there, and the vote cannot succeed. The game moved on without the ejection."""
        reached = {p.digest for p in self._entries[step].points}
        if any(s == step and d not in reached
               and any(a != seat and a not in self._cut for a in authors)
               for (s, d), authors in self._named_points.items()):
            return True
        p = self._timeline.point
        for a in range(self.n):
            if a != seat and a not in self._cut:
                q = self._stalled_past(a, step, p.index)
                if q is not None and not self._voted_before(a, seat, q):
                    return True
        if seat not in self._timeline.owed_acks() or not isinstance(p.pending, Turn):
            return False
        # A seat that claims to hold every ACK here, in a STALL or a vote, holds the ACK
        # ``seat`` owes. It will never vote ``seat`` out at this point.
        claims = self.acked_claims.get((step, p.digest), {})
        return any(v != seat and v not in self._cut for v in claims)

    def _stalled_past(self, a: int, step: int, index: int) -> int | None:
        """The lowest seq of a STALL by ``a`` at entry ``step`` signed past that entry's
        ``index``-th point, or None.

        Such a STALL names a state that is none of the entry's points up to that one. Or it
        names a seat that the game awaits at none of them.

        A STALL names the state its author waits at, and a seat it waits on there. That seat
        comes from :meth:`PeerProtocol.blocking` and is always among :meth:`awaited` there. The
        points of one entry are the same on every replica. Each is fixed by the entry and the
        chain values. So such a STALL was signed further on: its author went on without voting
        at that point.

        Who could abuse it? Only its author, by voting at that point after all. Such a vote is
        its own violation, ``bad-eject``; see :meth:`check`. So it can never complete an
        ejection there. A replica that stopped waiting on the target because of the STALL is
        therefore never overtaken by an ejection at that point."""
        entry = self._entries[step]
        points = entry.points[: index + 1]
        best: int | None = None
        states = self.stall_states.get((step, entry.id))
        if states:
            reached = {p.digest for p in points}
            for digest, authors in states.items():
                q = authors.get(a)
                if q is not None and digest not in reached and (best is None or q < best):
                    best = q
        awaited: set[int] = set()
        for p in points:
            awaited.update(self.awaited(p))
        for x in range(self.n):
            if x not in awaited:
                q = self.stall_index.get((x, step, entry.id), {}).get(a)
                if q is not None and (best is None or q < best):
                    best = q
        return best

    def _voted_before(self, a: int, seat: int, seq: int) -> bool:
        """Seat ``a`` voted against ``seat`` at the current point in an envelope before its
        ``seq``-th.

        The vote may be consumed or not."""
        p = self._timeline.point
        vote = self.votes.get((p.step, p.digest), {}).get(seat, {}).get(a)
        if vote is not None:
            return vote.seq < seq
        stream = self._streams[a]
        for q in range(self._cursor[a], seq):
            e = stream.get(q)
            if (e is not None and e.kind is Kind.EJECT and e.step == p.step
                    and e.state_hash == p.digest and payload_problem(e, self.n) is None
                    and e.payload[0] == seat):
                return True
        return False

    def _went_past(self, a: int, seat: int, step: int) -> bool:
        """Seat ``a`` signed an envelope at a later step than ``step`` without voting against
        ``seat`` at the current point first.

        Its envelopes are read in ``a``'s own order, from what this replica holds without a
        gap. Such a seat went on without the ejection. A later envelope that follows such a vote
        proves nothing. It may be built on the ejection, and this replica lacks a vote of it.
        An envelope behind a gap proves nothing either."""
        digest = self._timeline.point.digest
        if a in self.votes.get((step, digest), {}).get(seat, {}):
            return False
        stream = self._streams[a]
        q = self._cursor[a]
        while (e := stream.get(q)) is not None:
            if (e.kind is Kind.EJECT and e.step == step and e.state_hash == digest
                    and payload_problem(e, self.n) is None and e.payload[0] == seat):
                return False
            if e.step > step:
                return True
            q += 1
        return False

    def is_frozen(self, seat: int) -> bool:
        """This replica's seat voted ``seat`` out at the current step and stops reading it there.

        The game may show it moved on without the ejection. Then the replica reads ``seat``
        again, for good."""
        step = self.frozen.get(seat)
        if step is None:
            return False
        if step != self._timeline.step or any(
            self._top_step[a] > step and self._went_past(a, seat, step)
            for a in range(self.n) if a != seat and a not in self._cut
        ) or self._voted_further(seat, step):
            del self.frozen[seat]  # the game moved on without the ejection
            return False
        return True
