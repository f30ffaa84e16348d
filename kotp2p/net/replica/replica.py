"""A replica of one game, driven only by signed envelopes.

It is the shared core of the peer protocol and of ``verify``.

Theory of operation
-------------------
The game is a sequence of *entries*. Step 0 is the genesis. Then there is one entry per MOVE or
unanimous EJECT. After each entry the engine passes through *points*. First come zero or more
random events, the engine's ``Chance``, numbered k. Then comes one decision, a ``Turn``, or the
end. A point is left when its input is known. That input is the designated seat's MOVE, or the
chain value of every live seat for event k.

Each author's envelopes are consumed strictly in ``seq`` order. Each ``prev`` names the one
before. Each envelope is checked at the point it claims by its ``step`` and ``head``.

* MOVE at step s. Only the seat the engine names may author it, on top of entry s-1. It must
  wait until every live seat acknowledged MOVE s-1, so all replicas agree before going on. Its
  payload is ``[action, *openings]``; the openings are of peeks, see ``peeks.py``. The action
  must be legal. The MOVE carries its author's value for the event it triggers, and nothing
  else. Its ``state_hash`` is the digest of the first point after it.
* ACK at step s. It carries the acker's value for event k at point (s, k). With no value, it
  says "I applied MOVE s". That is only for a MOVE that triggers no event. Its ``state_hash`` is
  that point's digest.
* EJECT at step s. It is a vote, bound to one point by its ``state_hash``. Once every other live
  seat voted against seat X at the current point, the ejection is entry s+1. Its id is the
  lowest voter's first EJECT id there. Votes are indexed by point. So a flood of them costs one
  lookup per point, and a repeated vote changes nothing.
* A vote may name only a seat the game waits on at that point. :meth:`Replica.awaited` judges
  that from the point alone, not from what a replica received. One such seat is the seat whose
  decision is pending. Others are live seats owing their value for the pending event, or owing
  their ACK of the MOVE just made. Any other vote is the voter's violation, ``bad-eject``. So is a
  vote naming no state of its step. So one player alone can never eject another who owes
  nothing, even with two monsters left.
* OPEN, STALL, CHAT and BYE are checked against the point they name. OPEN is checked
  against the genesis commitments, BYE against the result.

Private events are resolved hidden on every replica but the owner's. A "Made in a Lab" peek is
one. A MOVE that needs one carries its opening. Any other is opened by an OPEN when the game
ends. The contract is in :mod:`kotp2p.net.replica.peeks`.

Every payload is checked against its kind's schema when it is stored; see
:mod:`kotp2p.net.wire.schema`. A signed envelope that breaks it convicts its author at once,
wherever it sits. The rule is ``malformed-payload``. Such an envelope never reaches a handler.
The engine raises ``ValueError`` for a refused action. Any other exception from it is a bug here,
not the peer's, and it propagates.

A verdict needs a proof signed by the seat it names. An envelope may name in its ``head`` an id
this replica does not hold. It proves nothing against its author. The entry may be a MOVE of an
equivocator that this replica never received. So the envelope waits, like one whose step is not
reached.

The first rule an author breaks is a :class:`Violation`. That author is *convicted*. Nothing
more of theirs is read: ``cut`` marks its envelopes from the bad one on. The others vote it out
once the game waits on it. An envelope beyond the current point waits. An author may move on
without a value the current point needs from them. Then they are convicted of a missing reveal,
unless every vote to eject them there is stored. In that case the ejection comes first.

Two proofs against one author may reach replicas in either order. A split ACK is one case: the
wrong one is a wrong state hash, and with the right one it is a fork. Each honest seat forwards
both, so every replica ends up holding both. The conviction is the proof of the earliest place
in the author's stream, and at one seq a fork comes first; see :mod:`.verdicts`. So every honest
replica convicts the author of the same thing, whichever proof came first.

Ejections. The target's envelope for the point may be in flight as the last vote comes. Then
*the ejection wins*. Every voter had stopped reading the target there; that is ``frozen``. So no
honest replica used the envelope. A replica that did use it follows the ejection once it holds
the votes. Such a replica is the target's own, or a non-voter's, like a dead monster's.
:meth:`Ejections.note_vote` says to rebuild it. Everything an ejected seat sent is moot from then
on. It is read and logged, but never used and never a violation.

A vote a seat cast is void once another seat shows the game moved on without it. That other seat
must not be convicted. It shows it in one of four ways.

* It signs an envelope at a later step, not preceded by its own vote there.
* It signs an ACK or vote naming a later state of the step.
* It signs a STALL at the step that names a later state. Or the STALL names a seat that the game
  awaits at none of the step's states up to the vote's.
* It signs a STALL or vote at the vote's state that claims it holds every ACK of the last MOVE,
  when the vote was cast for a missing ACK. A vote for a missing ACK after its author's own
  such claim is ``bad-eject``.

Points are the same on every replica. A STALL names the state its author waits at and a seat it
waits on there. So such a STALL was signed further on. Only that STALL's author could abuse it,
by voting at the state after all. A vote at a state its author's earlier STALL said it was past
is its violation, ``bad-eject``. So it never completes an ejection there. A replica that stopped
waiting on the target because of the STALL is never overtaken by one.

A game that ends because an ejection left one monster is a win *by forfeit*; see
:attr:`forfeit`. ``verify``, ``replay`` and the session report it as such.

Forks never undo the past. Every honest seat forwards every envelope it sees first. So a fork
reaches every honest replica within one hop. Each convicts the forker and stops reading its
stream where it stands. What was applied stays applied: an old envelope signed again rewinds
nothing.

Before they learnt of the fork, honest replicas may have read a few of the forker's envelopes on
different branches. What the game uses of those is the same on any branch. A value is checked
against its chain alone. An ACK or a vote binds to one point. So a replica that stopped reading
takes the forker's owed ACKs, values and votes from the envelopes it kept. It keeps those within
:data:`FORK_WINDOW` of the fork; see :meth:`take_spare`.

Two MOVEs for one step are settled by who applied which; see :meth:`Forks.contest`. If all
honest seats are on one of them, it stands. If some are on each, both are void and the one entry
is undone. Nobody could build on it, since the next entry needs every ACK. A seat is on a MOVE
when an envelope of its own is built on it: a monster out of the game applies MOVEs without a
word, so it is on none, and follows the live seats.

Each honest log ends with the proofs of what it convicted, both branches of a fork included.
They are at hand from the conviction on, in ``log_order.proofs``. The session journals them at
once. So a seat restored after a crash finds the violation again.
"""

from __future__ import annotations

from collections.abc import Callable

from kotp2p.net.replica.ejection import LATER, WAIT, Ejections
from kotp2p.net.replica.forks import SPLIT, VOID, Forks
from kotp2p.net.replica.hands import Hands
from kotp2p.net.replica.history import Entry, Point, Private, Resolved, Violation, violation
from kotp2p.net.replica.kinds import Kinds
from kotp2p.net.replica.logorder import LogOrder
from kotp2p.net.replica.logrules import LogRules
from kotp2p.net.replica.peeks import Peeks
from kotp2p.net.replica.polls import Polls
from kotp2p.net.replica.timeline import Timeline
from kotp2p.net.replica.verdicts import Verdicts
from kotp2p.net.trust import (
    Chance,
    GameEngine,
    Genesis,
    Poll,
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

    The replica reads each author's stream in order. It hands each envelope to the handler of
    its kind. Its members hold the rest, each given what it reads:

    * ``timeline`` is a :class:`Timeline`: the entries, their points, the values and ACKs taken.
    * ``verdicts`` is a :class:`Verdicts`: who is convicted, and where reading them stops.
    * ``forks`` is a :class:`Forks`: forkers, their spare envelopes, the moot ids, the contest.
    * ``ejections`` is an :class:`Ejections`: votes, ejections, seats frozen by this seat's
      vote. It takes a forker's votes from ``forks``.
    * ``kinds`` is a :class:`Kinds`: the MOVE, ACK, OPEN and BYE handlers.
    * ``log_rules`` is a :class:`LogRules`: which blocks of the log are closed, and what they
      keep.

    Other packages read fields such as ``entries``, ``cut`` and ``frozen``. They are the
    members' own containers, not copies.
    """

    def __init__(
        self, genesis: Genesis, engine: GameEngine, *, local_seat: int | None = None,
        peek_chain: SecretChain | None = None, deck_secret: bytes | None = None,
    ) -> None:
        self.genesis = genesis
        self.local_seat = local_seat
        self.peek_chain = peek_chain
        self.deck_secret = deck_secret
        self.engine = engine
        self.game_id = genesis.game_id
        n = self.n = genesis.n
        self.peeks = Peeks(genesis, engine, local_seat, peek_chain)
        self.hands = Hands(genesis, engine, local_seat, deck_secret)
        """Every seat's hidden deck: its commitments and openings."""
        self.private: dict[int, Private] = self.peeks.private
        """Private event k -> what this replica knows of it."""
        self.streams: list[dict[int, Envelope]] = [{} for _ in range(n)]
        self.by_id: dict[bytes, Envelope] = {}
        self.unread_bytes = [0] * n
        """Bytes of each author's stored envelopes at or after its read position."""
        self.built_on: dict[bytes, set[int]] = {}
        """Envelope id -> the authors of stored envelopes whose ``head`` names it."""
        self.named_points: dict[tuple[int, bytes], set[int]] = {}
        """``(step, state digest)`` -> authors of stored ACKs and votes naming that point."""
        self.cursor = [0] * n
        self.last_id = [self.game_id] * n
        self._last_step = [-1] * n
        self._top_step = [-1] * n
        """Per author: the highest step among its stored envelopes, read or not."""
        self.needs_rebuild = False
        """A fork or an ejection this replica passed undoes what it read. See :meth:`rebuilt`."""
        self.resolved: list[Resolved] = []

        self.log_order = LogOrder()
        self.timeline = Timeline(genesis, engine)
        self.verdicts = Verdicts(self.cursor, self.log_order)
        self.forks = Forks(self.streams, self.cursor, self.by_id, self.built_on, self.timeline,
                           self.verdicts, self.log_order)
        self.ejections = Ejections(self.streams, self.cursor, self.named_points, self._top_step,
                                   self.timeline, self.verdicts.cut, self.forks, self.log_order)
        self.polls = Polls(self.timeline, self.hands)
        """The answers to each poll, and the polls resolved."""
        self.kinds = Kinds(genesis, self.timeline, self.peeks, self.hands, self.polls,
                           self.forks, self.ejections)
        self.log_rules = LogRules(self.streams, self.cursor, self._last_step, self.timeline,
                                  self.verdicts, self.forks, self.ejections, self.kinds,
                                  self.peeks, self.hands, self.log_order,
                                  live=local_seat is not None)
        self._handlers: dict[Kind, Callable[[int, Envelope], object]] = {
            Kind.MOVE: self.kinds.move,
            Kind.ACK: self.kinds.ack,
            Kind.EJECT: self.ejections.check,
            Kind.OPEN: self.kinds.open,
            Kind.BYE: self.kinds.bye,
        }
        """Envelope kind -> its handler. A kind without one is consumed as it is."""

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
        """The last MOVE this replica's own seat signed, as the protocol worked it out.

        It is the id, the state it was made in and its first point. See :meth:`Kinds.move`."""
        return self.kinds.own_move

    @own_move.setter
    def own_move(self, value: tuple[bytes, State, Point] | None) -> None:
        self.kinds.own_move = value

    # -- where we are -------------------------------------------------------------------------

    @property
    def step(self) -> int:
        """Entries applied after the genesis."""
        return self.timeline.step

    @property
    def head(self) -> bytes:
        """Id of the last entry."""
        return self.timeline.head

    @property
    def point(self) -> Point:
        """The point the game waits at."""
        return self.timeline.point

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
        """The game ended because its last opponent was ejected.

        That is a win *by forfeit*, never shown as a played win."""
        return self.is_over and any(
            e.kind == "eject" and sum(e.points[0].alive) <= 1 for e in self.entries)

    def owed_acks(self) -> tuple[int, ...]:
        """The live seats whose ACK of the last MOVE is still missing. The next MOVE waits."""
        return self.timeline.owed_acks()

    def waiting_for(self) -> tuple[int, ...]:
        """The seats whose envelope the game needs next."""
        p = self.point
        if isinstance(p.pending, Turn):
            return tuple(sorted({p.pending.seat, *self.owed_acks()}))
        if isinstance(p.pending, Chance):
            return tuple(i for i in range(self.n) if p.alive[i] and (i, p.pending.index)
                         not in self.revealed)
        if isinstance(p.pending, Poll):
            return tuple(sorted({*self.polls.missing(p), *self.owed_acks()}))
        return ()

    def first_point(self, state: State, step: int) -> Point:
        """The point a state would be, not recorded. A MOVE's state_hash must name it."""
        return self.timeline.first_point(state, step)

    def awaited(self, p: Point) -> tuple[int, ...]:
        """The seats a vote to eject may name at point ``p``. See :meth:`Ejections.awaited`."""
        return self.ejections.awaited(p)

    def leftovers(self, a: int) -> list[Envelope]:
        """A forker's envelopes not read from its stream. See :meth:`Forks.leftovers`."""
        return self.forks.leftovers(a)

    def take_spare(self, env: Envelope) -> bool:
        """Keep ``env`` of a convicted author, or refuse it. See :meth:`Forks.take_spare`."""
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
            self.needs_rebuild = True  # a forker's vote counts; see Forks.take_spare

    # -- intake ---------------------------------------------------------------------------------

    def add(self, env: Envelope) -> Violation | None:
        """Store a verified envelope. Duplicates by id are ignored.

        A second, different envelope with the same author and seq is a fork. It is recorded and
        returned as a violation."""
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
            # The proof reads the same on every replica, whichever envelope came first.
            pair = (other, env) if other.id < env.id else (env, other)
            v = Violation("fork", env.author, min(env.step, other.step),
                          f"two different envelopes #{env.seq} (steps {pair[0].step} and "
                          f"{pair[1].step}); one expected", pair)
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
            return None  # the common case: neither a STALL nor an EJECT
        if kind is Kind.STALL:
            self.ejections.note_stall(env)
        elif kind is Kind.EJECT and self.ejections.note_vote(env):
            self.needs_rebuild = True
        return None

    def rebuilt(self) -> Replica:
        """A fresh replica of the same envelopes, keeping the cuts and moot ids. It follows a fork."""
        fresh = Replica(self.genesis, self.engine, local_seat=self.local_seat,
                        peek_chain=self.peek_chain, deck_secret=self.deck_secret)
        # The members hold these containers, so they are filled in place, never replaced.
        fresh.cut.update(self.cut)
        fresh.moot.update(self.moot)
        fresh.fork_base.update(self.fork_base)
        fresh.convicted.update(self.convicted)
        fresh.violations.extend(self.violations)
        fresh.log_order.evidence(self.log_order.proofs)  # the protocol writes each once
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
        """The highest step among ``a``'s stored envelopes, read or not. It is -1 if none."""
        return self._top_step[a]

    # -- progress -------------------------------------------------------------------------------

    def advance(self) -> tuple[list[Entry], list[Point]]:
        """Consume everything that can be consumed; return the new entries and points reached."""
        all_entries = self.entries  # appended to, never replaced
        first_entry, first_point = len(all_entries), len(all_entries[-1].points)
        progress = True
        gen = 0  # bumps when anything is consumed; a waiting envelope is retried only then
        waited = [-1] * self.n
        parked: list[tuple[int, int] | None] = [None] * self.n  # entries, points at a _LATER
        cut, frozen, cursor, streams = self.cut, self.frozen, self.cursor, self.streams
        is_frozen = self.ejections.is_frozen
        if self._parked_acks:
            for a, (seq, point_at) in self._parked_acks.items():
                if cursor[a] == seq:
                    parked[a] = point_at  # it still waits for a new point; see Kinds.ack
        seats = range(self.n)
        settled = False
        while progress:
            progress = False
            for a in seats:
                stream = streams[a]
                while True:
                    # This says what _readable says. The common case is a seat not frozen. It
                    # asks first whether anything is there to read. Each check but is_frozen is
                    # free of side effects. So only a frozen seat keeps _readable's order.
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
                break  # nothing consumed since _settle left nothing to settle; it would again
            settled = True
            if self._settle():
                progress = True
                gen += 1
        if len(all_entries) == first_entry:  # no new entry: the new points of the last one
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
            if self.fork_base:  # with no forker, the salvages and the contest do nothing
                self.forks.salvage_acks(self.ejections)
                if self._contest():
                    if self.needs_rebuild:
                        return True
                    moved = True
                    continue
            if self.votes and self._eject_quorum():  # no vote at all means no ejection
                moved = True
                continue
            p = self.entries[-1].points[-1]
            pending = p.pending
            if isinstance(pending, Poll):
                # At the first point after a MOVE, the ACKs of the seats not asked come first:
                # the game never leaves a point where a seat still owes its ACK.
                if self.polls.missing(p) or (p.index == 0 and self.timeline.owed_acks()):
                    return moved
                self.timeline.push_point(self.polls.resolve(p))
                moved = True
                continue
            if not isinstance(pending, Chance):
                return moved
            k = pending.index
            alive = p.alive
            missing = False  # a plain loop: this runs for every envelope at a random event
            for i in range(self.n):
                if alive[i] and (i, k) not in revealed:
                    missing = True
                    break
            if missing:
                if not self.fork_base:
                    return moved  # only a forker's value can be salvaged
                live = [i for i in range(self.n) if alive[i]]
                self.forks.salvage_reveals(k, live, self.ejections)
                if any((i, k) not in revealed for i in live):
                    return moved
            live = [i for i in range(self.n) if alive[i]]
            seed = random_seed(self.game_id, k, self.trigger[k],
                               [(i, revealed[(i, k)]) for i in live])
            if pending.deck_slots:
                self.timeline.push_point(self.hands.resolve(p.state, pending))
                moved = True
                continue
            if pending.private_to >= 0:
                self.timeline.push_point(self.peeks.resolve(p.state, seed))
                moved = True
                continue
            values = draw(seed, pending.bounds)
            self.resolved.append(Resolved(p.step, k, values))
            self.timeline.push_point(self.engine.apply_random(p.state, values))
            moved = True

    def _contest(self) -> bool:
        """Settle a forker's rival MOVEs; see :meth:`Forks.contest`. Say whether anything moved."""
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
        """Check the envelopes an ejected seat sent for this point, though they come too late.

        An illegal move or a bad reveal is still a violation. None of them changes the game."""
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
        """The private events ``seat`` must still open. See :meth:`LogRules.owed_openings`."""
        return self.log_rules.owed_openings(seat)

    def owed_slots(self, seat: int) -> list[int]:
        """The slots of its hidden deck ``seat`` must still open. See :meth:`LogRules.owed_slots`."""
        return self.log_rules.owed_slots(seat)

    def _step_cursor(self, a: int, env: Envelope) -> None:
        self.cursor[a] += 1
        self.unread_bytes[a] -= len(env.frame)
        self.last_id[a] = env.id
        # Where the seat is now: its last envelope's step. It is the highest one, unless a
        # split MOVE undid the seat's last step and it spoke again from the step before.
        self._last_step[a] = env.step
        self.log_order.consumed(env)

    def owes(self, seat: int) -> int | None:
        """The event whose value the current point still needs from ``seat``."""
        return self.timeline.owes(seat)

    def _consume(self, a: int, env: Envelope) -> object:
        head = env.head
        # Each check below needs a forker, a moot id or a cut to say anything. The common case
        # has none of them and costs three truth tests.
        if self.fork_base:
            named = self.by_id.get(head)
            if (named is not None and named.kind is Kind.MOVE
                    and named.author in self.fork_base and head not in self.entry_ids
                    and head not in self.moot and named.author != a):
                return _WAIT  # built on a forker's MOVE not applied here; see Forks.contest
        moot = self.moot
        if (moot and (env.id in moot or head in moot)) or (self.cut and self._past_cut(head)):
            moot.add(env.id)
            return None  # ignored: built on a forked envelope, or on one past its author's cut
        if env.prev != self.last_id[a]:
            return violation("broken-chain", env, f"prev should be the id of seat {a}'s "
                             f"envelope #{env.seq - 1} ({self.last_id[a].hex()[:12]}), found "
                             f"{env.prev.hex()[:12]}")
        if a in self.ejected:
            # It was sent before its ejection took effect, or after it. Before, it was in
            # flight when the last vote came, and the ejection wins. After, it rests on
            # whatever the seat believed. It is moot either way. An ejected seat's word changes
            # nothing and proves nothing about the game.
            return None
        entries = self.entries
        step = len(entries) - 1
        is_move = env.kind is Kind.MOVE
        limit = step + 1 if is_move else step
        last = entries[-1].points[-1]
        if is_move and env.step == limit and isinstance(last.pending, Poll):
            if a in self.polls.missing(last) and not self.ejections.quorum_stored(a):
                return violation("missing-answer", env, f"moved on to step {env.step} without "
                                 f"answering the window at step {step}")
            return _LATER
        if env.step > limit or (is_move and env.step == limit and last.k is not None):
            owed = self.timeline.owes(a)
            if owed is not None and not self.ejections.quorum_stored(a):
                # With every vote to eject it here stored, the game moves on without it. A
                # later envelope of an ejected seat is no sign it skipped a value.
                return violation("missing-reveal", env, f"moved on to step {env.step} without "
                                 f"revealing its value for random event {owed}")
            return _LATER
        base = env.step - 1 if is_move else env.step
        if base >= 0 and head != entries[base].id:
            if head not in self.by_id and head != self.game_id:
                return _LATER  # it names an entry not held here, so it proves nothing yet
            return violation("bad-head", env, f"head should be entry {base} "
                             f"({entries[base].id.hex()[:12]}), found {head.hex()[:12]}")
        handler = self._handlers.get(env.kind)
        return handler(a, env) if handler else None

    # -- the log --------------------------------------------------------------------------------

    @property
    def log_complete(self) -> bool:
        """The game is over and every live seat said BYE. See :attr:`LogRules.log_complete`."""
        return self.log_rules.log_complete

    def farewells_read(self) -> bool:
        """Every dead seat said its farewell. See :class:`LogRules`."""
        return self.log_rules.farewells_read()

    def close_blocks(self) -> list[Envelope]:
        """Consumed envelopes of the steps every live seat has moved past, in log order."""
        return self.log_rules.close_blocks()

    def drain(self) -> list[Envelope]:
        """Every consumed envelope not handed out yet. It serves when stopping before the end."""
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

