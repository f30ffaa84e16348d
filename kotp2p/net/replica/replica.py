"""A replica of one game, driven only by signed envelopes: the shared core of the peer protocol
and of ``verify``.

Theory of operation
-------------------
The game is a sequence of *entries* (step 0 is the genesis; then one per MOVE or unanimous
EJECT). After each entry the engine passes through *points*: zero or more random events (the
engine's ``Chance``, numbered k) and then one decision (``Turn``) or the end. A point is left when
its input is known: the designated seat's MOVE, or the chain value of every live seat for event k.

Each author's envelopes are consumed strictly in ``seq`` order, each ``prev`` naming the one
before, and each is checked at the point it claims (``step`` and ``head``):

* MOVE at step s: only the seat the engine names may author it, on top of entry s-1, once every
  live seat acknowledged MOVE s-1 (so all replicas agree before going on); its payload is
  ``[action, *openings]`` (peek openings, ``peeks.py``); the action must be legal; it carries its
  author's value for the event it triggers (and nothing else); its ``state_hash`` is the digest
  of the first point after it.
* ACK at step s: the acker's value for event k at point (s, k), or, with no value, "I applied
  MOVE s" (only for a MOVE that triggers no event); ``state_hash`` is that point's digest.
* EJECT at step s: a vote, bound to one point by its ``state_hash``; once every other live seat
  voted against seat X at the current point, the ejection is entry s+1 (its id is the lowest
  voter's first EJECT id there). Votes are indexed by point, so a flood of them costs one lookup
  per point, and a repeated vote changes nothing. A vote may name only a seat the game waits on
  at that point (:meth:`Replica.awaited`: judged from the point alone, not from what a replica
  received): the seat whose decision is pending, a live seat owing its value for the pending
  event, a live seat owing its ACK of the MOVE just made. Any other vote, or one naming no
  state of its step, is the voter's violation (``bad-eject``): one player alone can never
  eject another who owes nothing, even with two monsters left.
* OPEN, STALL, CHAT, BYE, EVIDENCE: checked against the point they name; OPEN against the
  genesis commitments, BYE against the result.

Private events (a "Made in a Lab" peek) are resolved hidden on every replica but the owner's;
a MOVE that needs one carries its opening, any other is opened by an OPEN when the game ends (the
contract is in :mod:`kotp2p.net.replica.peeks`).

Every payload is checked against its kind's schema (:mod:`kotp2p.net.wire.schema`) when it is
stored: a signed envelope that breaks it convicts its author (``malformed-payload``) at once,
wherever it sits, and never reaches a handler. An exception from the engine other than its
``ValueError`` for a refused action is a bug here, not the peer's: it propagates.

A verdict needs a proof signed by the seat it names. An envelope whose ``head`` names an id this
replica does not hold proves nothing against its author (the entry may be a MOVE of an
equivocator that this replica never received): it waits, like one whose step is not reached.

The first rule an author breaks is a :class:`Violation`; that author is *convicted* and nothing
more of theirs is read (``cut``: its envelopes from the bad one on); the others vote it out once
the game waits on it. An envelope beyond the current point waits; an author who moves on without
a value the current point needs from them is convicted of a missing reveal, unless every vote to
eject them there is stored (the ejection then comes first).

Ejections. When the target's envelope for the point was in flight as the last vote came, *the
ejection wins*: every voter had stopped reading the target there (``frozen``), so no honest
replica used it; a replica that did (the target's own, or a non-voter's: a dead monster's)
follows the ejection once it holds the votes (:meth:`Ejections.note_vote` says to rebuild it), and
everything an ejected seat sent is moot from then on (read, logged, never used, never a
violation). A vote a seat cast is void once another seat (not convicted) shows the game moved
on without it: an envelope at a later step not preceded by its own vote there, an ACK or vote
naming a later state of the step, or a STALL at the step naming a later state or a seat that
the game awaits at none of the step's states up to the vote's (points are the same on every
replica, and a STALL names the state its author waits at and a seat it waits on there, so it
was signed further on). Only that STALL's author could
abuse it, by voting at the state after all: a vote at a state its author's earlier STALL said
it was past is its violation (``bad-eject``), so it never completes an ejection there, and a
replica that stopped waiting on the target because of the STALL is never overtaken by one.
A game that ends because an ejection left one monster is a win *by forfeit*
(:attr:`forfeit`), reported as such by ``verify``, ``replay`` and the session.

Forks never undo the past. Every honest seat forwards every envelope it sees first, so a fork
reaches every honest replica within one hop; each convicts the forker and stops reading its
stream where it stands (what was applied stays applied: an old envelope signed again rewinds
nothing). Before they learnt of it, honest replicas may have read a few of the forker's
envelopes on different branches; what the game uses of those is the same on any branch (a
value is checked against its chain alone, an ACK or a vote binds to one point), so a replica
that stopped reading takes the forker's owed ACKs, values and votes from the envelopes kept
within :data:`FORK_WINDOW` of the fork (:meth:`take_spare`). Two MOVEs for one step are settled
by who applied which (:meth:`Forks.contest`): all honest seats on one of them, it stands; some on
each, both are void and the one entry is undone (nobody could build on it: the next entry needs
every ACK). Each honest log ends with the proofs of what it convicted (both branches); they
are at hand from the conviction on (``log_order.proofs``), and the session journals them at
once, so a seat restored after a crash finds the violation again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from kotp2p.net.replica.ejection import LATER, WAIT, Ejections
from kotp2p.net.replica.forks import SPLIT, VOID, Forks
from kotp2p.net.replica.history import Entry, Point, Private, Resolved, Violation, violation
from kotp2p.net.replica.kinds import Kinds
from kotp2p.net.replica.logorder import LogOrder
from kotp2p.net.replica.logrules import LogRules
from kotp2p.net.replica.peeks import Peeks
from kotp2p.net.replica.timeline import Timeline
from kotp2p.net.replica.verdicts import Verdicts
from kotp2p.net.trust import (
    Chance,
    GameEngine,
    Genesis,
    SecretChain,
    State,
    Turn,
    draw,
    random_seed,
)
from kotp2p.net.wire import Envelope, Kind, payload_problem, short_repr

_WAIT = WAIT
_LATER = LATER
_NO_CUT = 1 << 62
"""The cut of a seat not convicted: beyond any sequence number."""


class Replica:
    """The game as the consumed envelopes make it. Feed :meth:`add`, then call :meth:`advance`.

    The replica reads each author's stream in order and hands each envelope to the handler of
    its kind. Its members hold the rest, each given what it reads:

    * ``timeline`` (:class:`Timeline`): the entries, their points, the values and ACKs taken;
    * ``verdicts`` (:class:`Verdicts`): who is convicted, and where reading them stops;
    * ``forks`` (:class:`Forks`): forkers, their spare envelopes, the moot ids, the contest;
    * ``ejections`` (:class:`Ejections`): votes, ejections, seats frozen by this seat's vote;
      it takes a forker's votes from ``forks``;
    * ``kinds`` (:class:`Kinds`): the MOVE, ACK, OPEN and BYE handlers;
    * ``log_rules`` (:class:`LogRules`): which blocks of the log are closed, and what they keep.

    The fields other packages read (``entries``, ``cut``, ``frozen``...) are the members' own
    containers, not copies.
    """

    def __init__(
        self, genesis: Genesis, engine: GameEngine, *, local_seat: int | None = None,
        peek_chain: SecretChain | None = None,
    ) -> None:
        self.genesis = genesis
        self.local_seat = local_seat
        self.peek_chain = peek_chain
        self.engine = engine
        self.game_id = genesis.game_id
        n = self.n = genesis.n
        self.peeks = Peeks(genesis, engine, local_seat, peek_chain)
        self.private: dict[int, Private] = self.peeks.private
        """Private event k -> what this replica knows of it."""
        self.streams: list[dict[int, Envelope]] = [{} for _ in range(n)]
        self.by_id: dict[bytes, Envelope] = {}
        self.unread_bytes = [0] * n
        """Bytes of each author's stored envelopes at or after its read position."""
        self.built_on: dict[bytes, set[int]] = {}
        """Envelope id -> the authors of stored envelopes whose ``head`` names it."""
        self.named_points: dict[tuple[int, bytes], set[int]] = {}
        """(step, state digest) -> authors of stored ACKs and votes naming that point."""
        self.cursor = [0] * n
        self.last_id = [self.game_id] * n
        self._last_step = [-1] * n
        self._top_step = [-1] * n
        """Per author: the highest step among its stored envelopes (whether read or not)."""
        self.needs_rebuild = False
        """A fork or an ejection this replica passed undoes what it read: see :meth:`rebuilt`."""
        self.resolved: list[Resolved] = []

        self.log_order = LogOrder()
        self.timeline = Timeline(genesis, engine)
        self.verdicts = Verdicts(self.cursor, self.log_order)
        self.forks = Forks(self.streams, self.cursor, self.by_id, self.built_on, self.timeline,
                           self.verdicts, self.log_order)
        self.ejections = Ejections(self.streams, self.cursor, self.named_points, self._top_step,
                                   self.timeline, self.verdicts.cut, self.forks, self.log_order)
        self.kinds = Kinds(genesis, self.timeline, self.peeks, self.forks, self.ejections)
        self.log_rules = LogRules(self.streams, self.cursor, self._last_step, self.timeline,
                                  self.verdicts, self.forks, self.ejections, self.kinds,
                                  self.peeks, self.log_order)
        self._handlers: dict[Kind, Callable[[int, Envelope], object]] = {
            Kind.MOVE: self.kinds.move,
            Kind.ACK: self.kinds.ack,
            Kind.EJECT: self.ejections.check,
            Kind.OPEN: self.kinds.open,
            Kind.BYE: self.kinds.bye,
        }
        """Envelope kind -> its handler (a kind without one is consumed as it is)."""

        # The members' containers, under the names other packages and the tests read.
        self.entries: list[Entry] = self.timeline.entries
        self.entry_ids = self.timeline.entry_ids
        self.checkers = self.timeline.checkers
        self.revealed = self.timeline.revealed
        self.trigger = self.timeline.trigger
        self.acked = self.timeline.acked
        self.used = self.timeline.used
        self.used_at = self.timeline.used_at
        self.convicted = self.verdicts.convicted
        self.violations = self.verdicts.violations
        self.cut = self.verdicts.cut
        self.fork_base = self.forks.fork_base
        self.spare = self.forks.spare
        self.moot = self.forks.moot
        self.votes = self.ejections.votes
        self.frozen = self.ejections.frozen
        """Seat -> step: the protocol sets it when its seat votes that seat out."""
        self.ejected = self.ejections.ejected
        self.opened = self.kinds.opened
        self.byes = self.kinds.byes
        self._parked_acks = self.kinds.parked_acks

    @property
    def own_move(self) -> tuple[bytes, State, Point] | None:
        """(id, state it was made in, its first point) of the last MOVE this replica's own seat
        signed, as the protocol worked it out (see :meth:`Kinds.move`)."""
        return self.kinds.own_move

    @own_move.setter
    def own_move(self, value: tuple[bytes, State, Point] | None) -> None:
        self.kinds.own_move = value

    # -- where we are -------------------------------------------------------------------------

    @property
    def step(self) -> int:
        """Entries applied after the genesis."""
        return len(self.entries) - 1

    @property
    def head(self) -> bytes:
        """Id of the last entry."""
        return self.entries[-1].id

    @property
    def point(self) -> Point:
        """The point the game waits at."""
        return self.entries[-1].points[-1]

    @property
    def state(self) -> State:
        """The current engine state."""
        return self.point.state

    @property
    def is_over(self) -> bool:
        """The game has ended."""
        return self.point.pending is None

    @property
    def forfeit(self) -> bool:
        """The game ended because its last opponent was ejected: a win *by forfeit*, never
        shown as a played win."""
        return self.is_over and any(
            e.kind == "eject" and sum(e.points[0].alive) <= 1 for e in self.entries)

    def owed_acks(self) -> tuple[int, ...]:
        """The live seats whose ACK of the last MOVE is still missing (the next MOVE waits)."""
        return self.timeline.owed_acks()

    def waiting_for(self) -> tuple[int, ...]:
        """The seats whose envelope the game needs next."""
        p = self.point
        if isinstance(p.pending, Turn):
            return tuple(sorted({p.pending.seat, *self.owed_acks()}))
        if isinstance(p.pending, Chance):
            return tuple(i for i in range(self.n) if p.alive[i] and (i, p.pending.index)
                         not in self.revealed)
        return ()

    def first_point(self, state: State, step: int) -> Point:
        """The point a state would be (not recorded): what a MOVE's state_hash must name."""
        return self.timeline.first_point(state, step)

    def awaited(self, p: Point) -> tuple[int, ...]:
        """The seats a vote to eject may name at point ``p`` (see :meth:`Ejections.awaited`)."""
        return self.ejections.awaited(p)

    def leftovers(self, a: int) -> list[Envelope]:
        """A forker's envelopes not read from its stream (see :meth:`Forks.leftovers`)."""
        return self.forks.leftovers(a)

    def take_spare(self, env: Envelope) -> bool:
        """Keep ``env`` of a convicted author, or refuse it (see :meth:`Forks.take_spare`)."""
        if not self.forks.take_spare(env):
            return False
        self._count_spare_vote(env)
        return True

    def _keep_spare(self, env: Envelope) -> None:
        self.forks.keep(env)
        self._count_spare_vote(env)

    def _count_spare_vote(self, env: Envelope) -> None:
        if (env.kind is Kind.EJECT and payload_problem(env, self.n) is None
                and self.ejections.note_vote(env)):
            self.needs_rebuild = True  # (a forker's vote counts, see Forks.take_spare)

    # -- intake ---------------------------------------------------------------------------------

    def add(self, env: Envelope) -> Violation | None:
        """Store a verified envelope (duplicates by id are ignored). A second, different envelope
        with the same author and seq is a fork: returned (and recorded) as a violation."""
        if env.id in self.by_id:
            return None
        author, kind = env.author, env.kind
        stream = self.streams[author]
        other = stream.get(env.seq)
        self.by_id[env.id] = env
        builders = self.built_on.get(env.head)
        if builders is None:
            self.built_on[env.head] = {author}
        else:
            builders.add(author)
        if (kind is Kind.ACK or kind is Kind.EJECT) and env.state_hash:
            named = self.named_points.get((env.step, env.state_hash))
            if named is None:
                self.named_points[(env.step, env.state_hash)] = {author}
            else:
                named.add(author)
        if other is not None:
            v = Violation("fork", env.author, min(env.step, other.step),
                          f"two different envelopes #{env.seq} (steps {other.step} and "
                          f"{env.step}); one expected", (other, env))
            self._keep_spare(env)
            self.forks.fork(v)
            return v
        stream[env.seq] = env
        if env.seq >= self.cursor[author]:
            self.unread_bytes[author] += len(env.frame)
        if env.step > self._top_step[author]:
            self._top_step[author] = env.step
        problem = payload_problem(env, self.n)
        if problem is not None:
            v = violation("malformed-payload", env, f"{env.kind.name} #{env.seq}: {problem}, "
                          f"found {short_repr(env.payload)}")
            self.verdicts.convict(v, cut=env.seq)
            return v
        if kind is Kind.ACK:
            return None  # (the common case: neither a STALL nor an EJECT)
        if kind is Kind.STALL:
            self.ejections.note_stall(env)
        elif kind is Kind.EJECT and self.ejections.note_vote(env):
            self.needs_rebuild = True
        return None

    def rebuilt(self) -> Replica:
        """A fresh replica of the same envelopes, keeping the cuts and moot ids (after a fork)."""
        fresh = Replica(self.genesis, self.engine, local_seat=self.local_seat,
                        peek_chain=self.peek_chain)
        # (the members hold these containers: they are filled in place, never replaced)
        fresh.cut.update(self.cut)
        fresh.moot.update(self.moot)
        fresh.fork_base.update(self.fork_base)
        fresh.convicted.update(self.convicted)
        fresh.violations.extend(self.violations)
        fresh.log_order.evidence(self.log_order.proofs)  # (the protocol writes each once)
        for a in range(self.n):
            for _, e in sorted(self.streams[a].items()):
                fresh.add(e)
        for a, envs in sorted(self.spare.items()):
            for e in envs:
                if e.id not in fresh.by_id:
                    fresh.by_id[e.id] = e
                    fresh.built_on.setdefault(e.head, set()).add(a)
                    fresh._keep_spare(e)
        fresh.by_id.update(self.by_id)
        fresh.frozen.clear()
        fresh.advance()
        return fresh

    def _past_cut(self, head: bytes) -> bool:
        env = self.by_id.get(head)
        return (env is not None and env.seq >= self.cut.get(env.author, 1 << 62)
                and head not in self.entry_ids)

    def _readable(self, a: int) -> bool:
        return self.cursor[a] < self.cut.get(a, _NO_CUT) and not self.ejections.is_frozen(a)

    def top_step(self, a: int) -> int:
        """The highest step among ``a``'s stored envelopes, read or not (-1 if none)."""
        return self._top_step[a]

    # -- progress -------------------------------------------------------------------------------

    def advance(self) -> tuple[list[Entry], list[Point]]:
        """Consume everything that can be consumed; return the new entries and points reached."""
        all_entries = self.entries  # (appended to, never replaced)
        first_entry, first_point = len(all_entries), len(all_entries[-1].points)
        progress = True
        gen = 0  # bumps whenever anything is consumed: a waiting envelope is retried only then
        waited = [-1] * self.n
        parked: list[tuple[int, int] | None] = [None] * self.n  # (entries, points) at a _LATER
        cut, frozen, cursor, streams = self.cut, self.frozen, self.cursor, self.streams
        is_frozen = self.ejections.is_frozen
        if self._parked_acks:
            for a, (seq, point_at) in self._parked_acks.items():
                if cursor[a] == seq:
                    parked[a] = point_at  # (still waits for a new point: see Kinds.ack)
        seats = range(self.n)
        settled = False
        while progress:
            progress = False
            for a in seats:
                stream = streams[a]
                while True:
                    # (what _readable says; the common case, a seat not frozen, asks first
                    # whether anything is there to read: each check but is_frozen is free of
                    # side effects, so only a frozen seat keeps _readable's order)
                    c = cursor[a]
                    if a in frozen:
                        if c >= cut.get(a, _NO_CUT) or is_frozen(a) or waited[a] == gen:
                            break
                    elif c not in stream or waited[a] == gen or c >= cut.get(a, _NO_CUT):
                        break
                    at = parked[a]
                    if at is not None and at == (len(all_entries), len(all_entries[-1].points)):
                        break
                    env = stream.get(c)
                    if env is None:
                        break
                    result = self._consume(a, env)
                    if result is _WAIT:
                        waited[a] = gen
                        break
                    if result is _LATER:
                        parked[a] = (len(all_entries), len(all_entries[-1].points))
                        break
                    if isinstance(result, Violation):
                        self.verdicts.convict(result)
                        if self.needs_rebuild:
                            return [], []
                        break
                    self._step_cursor(a, env)
                    progress = True
                    gen += 1
            if settled and not progress and not self.fork_base and not self.votes:
                break  # (nothing consumed since _settle left nothing to settle: it would again)
            settled = True
            if self._settle():
                progress = True
                gen += 1
        if len(all_entries) == first_entry:  # (no new entry: the new points of the last one)
            return [], all_entries[-1].points[first_point:]
        points: list[Point] = []
        for i in range(first_entry - 1, len(all_entries)):
            start = first_point if i == first_entry - 1 else 0
            points.extend(all_entries[i].points[start:])
        return all_entries[first_entry:], points

    def _settle(self) -> bool:
        """Resolve random events whose values are all known, and complete ejections."""
        moved = False
        revealed = self.revealed
        while True:
            if self.fork_base:  # (with no forker, the salvages and the contest do nothing)
                self.forks.salvage_acks(self.ejections)
                if self._contest():
                    if self.needs_rebuild:
                        return True
                    moved = True
                    continue
            if self.votes and self._eject_quorum():  # (no vote at all: no ejection)
                moved = True
                continue
            p = self.entries[-1].points[-1]
            pending = p.pending
            if not isinstance(pending, Chance):
                return moved
            k = pending.index
            alive = p.alive
            missing = False  # (a plain loop: this runs for every envelope at a random event)
            for i in range(self.n):
                if alive[i] and (i, k) not in revealed:
                    missing = True
                    break
            if missing:
                if not self.fork_base:
                    return moved  # (only a forker's value can be salvaged)
                live = [i for i in range(self.n) if alive[i]]
                self.forks.salvage_reveals(k, live, self.ejections)
                if any((i, k) not in revealed for i in live):
                    return moved
            live = [i for i in range(self.n) if alive[i]]
            seed = random_seed(self.game_id, k, self.trigger[k],
                               [(i, revealed[(i, k)]) for i in live])
            if pending.private_to >= 0:
                self.timeline.push_point(self.peeks.resolve(p.state, seed))
                moved = True
                continue
            values = draw(seed, pending.bounds)
            self.resolved.append(Resolved(p.step, k, values))
            self.timeline.push_point(self.engine.apply_random(p.state, values))
            moved = True

    def _contest(self) -> bool:
        """Settle a forker's rival MOVEs (see :meth:`Forks.contest`); whether anything moved."""
        got = self.forks.contest()
        if got is None:
            return False
        if got == SPLIT:
            self.needs_rebuild = True
            return True
        if got == VOID:
            return True
        assert isinstance(got, Envelope)
        if self.owed_acks():
            return False
        result = self.kinds.move(got.author, got)
        if result is None:
            self.log_order.consumed(got)
            return True
        if isinstance(result, Violation):
            self.moot.add(got.id)
        return False

    def _eject_quorum(self) -> bool:
        """Complete the ejection every other live seat voted for at the current point."""
        found = self.ejections.quorum()
        if found is None:
            return False
        target, first = found
        self._judge_late(target)
        self.ejections.eject(target, first)
        return True

    def _judge_late(self, target: int) -> None:
        """Check the envelopes an ejected seat sent for this point, though they come too late:
        an illegal move or a bad reveal is still a violation. None of them changes the game."""
        self.ejections.judging = target
        try:
            while self._readable(target):
                late = self.streams[target].get(self.cursor[target])
                if late is None or late.kind not in (Kind.MOVE, Kind.ACK):
                    break
                if late.step > self.step + 1:
                    break
                result = self._consume(target, late)
                if result is WAIT or result is LATER:
                    break
                if isinstance(result, Violation):
                    self.verdicts.convict(result)
                    break
                self._step_cursor(target, late)
        finally:
            self.ejections.judging = None

    def unopened(self, seat: int) -> list[int]:
        """The private events of ``seat`` whose peek it has not opened yet, in order."""
        return self.peeks.unopened(seat)

    def owed_openings(self, seat: int) -> list[int]:
        """The private events ``seat`` must still open (see :meth:`LogRules.owed_openings`)."""
        return self.log_rules.owed_openings(seat)

    def _step_cursor(self, a: int, env: Envelope) -> None:
        self.cursor[a] += 1
        self.unread_bytes[a] -= len(env.frame)
        self.last_id[a] = env.id
        if env.step > self._last_step[a]:
            self._last_step[a] = env.step
        self.log_order.consumed(env)

    def owes(self, seat: int) -> int | None:
        """The event whose value the current point still needs from ``seat``."""
        return self.timeline.owes(seat)

    def _consume(self, a: int, env: Envelope) -> object:
        head = env.head
        # (each check below needs a forker, a moot id or a cut to say anything: the common
        # case, none of them, costs three truth tests)
        if self.fork_base:
            named = self.by_id.get(head)
            if (named is not None and named.kind is Kind.MOVE
                    and named.author in self.fork_base and head not in self.entry_ids
                    and head not in self.moot and named.author != a):
                return _WAIT  # built on a MOVE of a forker this replica has not applied: Forks.contest
        moot = self.moot
        if (moot and (env.id in moot or head in moot)) or (self.cut and self._past_cut(head)):
            moot.add(env.id)
            return None  # built on a forked envelope, or on one after its author's cut: ignored
        if env.prev != self.last_id[a]:
            return violation("broken-chain", env, f"prev should be the id of seat {a}'s "
                             f"envelope #{env.seq - 1} ({self.last_id[a].hex()[:12]}), found "
                             f"{env.prev.hex()[:12]}")
        if a in self.ejected:
            # sent before its ejection took effect (its envelope was in flight when the last
            # vote came: the ejection wins), or after it, on whatever it believed: moot either
            # way, an ejected seat's word changes nothing and proves nothing about the game
            return None
        entries = self.entries
        step = len(entries) - 1
        is_move = env.kind is Kind.MOVE
        limit = step + 1 if is_move else step
        if env.step > limit or (is_move and env.step == limit
                                and entries[-1].points[-1].k is not None):
            owed = self.timeline.owes(a)
            if owed is not None and not self.ejections.quorum_stored(a):
                # (with every vote to eject it here stored, the game moves on without it: a
                # later envelope of an ejected seat is no sign it skipped a value)
                return violation("missing-reveal", env, f"moved on to step {env.step} without "
                                 f"revealing its value for random event {owed}")
            return _LATER
        base = env.step - 1 if is_move else env.step
        if base >= 0 and head != entries[base].id:
            if head not in self.by_id and head != self.game_id:
                return _LATER  # names an entry not held here: no proof of anything (see above)
            return violation("bad-head", env, f"head should be entry {base} "
                             f"({entries[base].id.hex()[:12]}), found {head.hex()[:12]}")
        handler = self._handlers.get(env.kind)
        return handler(a, env) if handler else None

    # -- the log --------------------------------------------------------------------------------

    @property
    def log_complete(self) -> bool:
        """The game is over and every live seat said BYE (see :attr:`LogRules.log_complete`)."""
        return self.log_rules.log_complete

    def close_blocks(self) -> list[Envelope]:
        """Consumed envelopes of the steps every live seat has moved past, in log order."""
        return self.log_rules.close_blocks()

    def drain(self) -> list[Envelope]:
        """Every consumed envelope not handed out yet (when stopping before the end)."""
        return self.log_rules.drain()

    # -- reports --------------------------------------------------------------------------------

    def gaps(self) -> list[str]:
        """What is missing, by seat: holes in each author's sequence."""
        out = []
        for a in range(self.n):
            if a in self.cut:
                continue
            held = self.streams[a]
            if self.cursor[a] not in held and any(q > self.cursor[a] for q in held):
                later = min(q for q in held if q > self.cursor[a])
                which = (f"envelope #{self.cursor[a]} is" if later == self.cursor[a] + 1 else
                         f"envelopes #{self.cursor[a]} to #{later - 1} are")
                out.append(f"seat {a}: {which} missing (its #{later} is at step "
                           f"{held[later].step})")
        return out

    def pending_envelopes(self) -> Iterable[Envelope]:
        """Envelopes stored but not consumed (waiting, or after a conviction)."""
        for a in range(self.n):
            for q, e in sorted(self.streams[a].items()):
                if q >= self.cursor[a]:
                    yield e

