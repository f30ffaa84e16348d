"""The replica's checks of the envelopes that carry the game.

These are a MOVE, an ACK, an OPEN and a BYE, each at the point it claims. An ACK may carry its
author's chain value or not. The rules are in the theory of operation of
:mod:`kotp2p.net.replica.replica`.

A handler returns one of three things. ``None`` means the envelope was consumed. A
:class:`~kotp2p.net.replica.history.Violation` blames the envelope's author. The replica's marker
means the envelope waits."""

from __future__ import annotations

from kotp2p.net.replica.ejection import LATER, WAIT, Ejections
from kotp2p.net.replica.forks import Forks
from kotp2p.net.replica.hands import Hands
from kotp2p.net.replica.history import Entry, Point, Violation, violation
from kotp2p.net.replica.peeks import Peeks, parse_opening
from kotp2p.net.replica.polls import Polls
from kotp2p.net.replica.timeline import Timeline
from kotp2p.net.trust import Genesis, Poll, State, Turn, check_opening
from kotp2p.net.wire import PEEK_ITEM, SLOT_ITEM, Envelope, short_repr

_WAIT = WAIT
_LATER = LATER


class Kinds:
    """How the replica checks and applies MOVE, ACK, OPEN and BYE envelopes.

    There is one handler per kind. Each takes the author and the envelope."""

    def __init__(
        self, genesis: Genesis, timeline: Timeline, peeks: Peeks, hands: Hands, polls: Polls,
        forks: Forks, ejections: Ejections,
    ) -> None:
        self._genesis = genesis
        self._engine = timeline.engine
        self._timeline = timeline
        self._entries = timeline.entries
        self._revealed = timeline.revealed
        self._checkers = timeline.checkers
        self._peeks = peeks
        self._hands = hands
        self._polls = polls
        self._forks = forks
        self._ejections = ejections
        self.opened: set[tuple[int, int]] = set()
        """``(seat, slot)`` of every slot of the genesis commitments opened."""
        self.byes: dict[int, Envelope] = {}
        """Seat -> its BYE."""
        self.own_move: tuple[bytes, State, Point] | None = None
        """The last MOVE this replica's own seat signed, as the protocol worked it out.

        It is the id, the state it was made in and its first point. :meth:`move` uses it."""
        self.parked_acks: dict[int, tuple[int, tuple[int, int]]] = {}
        """Author -> ``(seq, (entries, points))``.

        The author's ACK with that seq was read at that point. It carries a value for a later
        event of the step, and it waits for a new point."""

    def _wrong_hash(self, env: Envelope, expected: bytes) -> Violation:
        return violation("wrong-state-hash", env, f"state hash {expected.hex()[:16]} "
                         f"expected, found {env.state_hash.hex()[:16]}")

    def _check_reveals(
        self, a: int, env: Envelope, expected: Point, first_of_move: bool
    ) -> Violation | None:
        k = expected.k
        needed = k is not None and expected.alive[a] and (a, k) not in self._revealed
        if not needed:
            if env.reveals:
                rk = env.reveals[0][0]
                rule = "premature-reveal" if k is None or rk > k else "unexpected-reveal"
                return violation(rule, env, f"revealed its value for event {rk} where "
                                 + ("no random event is pending" if k is None else
                                    f"event {k} is pending and its value was not due from it"))
            return None
        assert k is not None
        if not env.reveals:
            what = "its MOVE" if first_of_move else "its ACK"
            return violation("missing-reveal", env, f"{what} lacks its value for event {k}")
        if len(env.reveals) != 1 or env.reveals[0][0] != k:
            rk = max(r[0] for r in env.reveals)
            rule = "premature-reveal" if rk > k else "unexpected-reveal"
            return violation(rule, env, f"reveals for events {[r[0] for r in env.reveals]}, "
                             f"exactly event {k} expected")
        _, x, nxt = env.reveals[0]
        problem = self._checkers[a].problem(k, x, nxt)
        if problem:
            return violation("bad-reveal", env, problem)
        return None

    def move(self, a: int, env: Envelope) -> object:
        """The MOVE handler: check ``env`` of seat ``a`` at its step and apply it."""
        s = env.step
        timeline = self._timeline
        if s <= timeline.step:
            entry = self._entries[s] if s >= 1 else self._entries[0]
            if entry.kind == "move" and entry.seat == a and entry.envelope is not None:
                v = Violation("fork", a, s, f"two different MOVEs for step {s}; one expected",
                              (entry.envelope, env))
                self._forks.fork(v)
                return v
            return violation("out-of-turn", env, f"a MOVE for step {s}, which already holds "
                             f"{f'seat {entry.seat}' if entry.kind == 'move' else entry.kind}")
        p = timeline.point
        if p.pending is None:
            return violation("out-of-turn", env, "a MOVE after the game ended")
        if isinstance(p.pending, Turn) and p.pending.seat != a:
            return violation("out-of-turn", env, f"seat {p.pending.seat}'s decision expected, "
                             f"found a MOVE by seat {a}")
        if isinstance(p.pending, Poll):
            return violation("out-of-turn", env, "a window's answers expected, each an ACK of "
                             f"a seat it asks, found a MOVE by seat {a}")
        if timeline.owed_acks():
            return _WAIT
        if not env.payload:
            return violation("illegal-move", env, "a MOVE payload holds one action, then the "
                             "openings of the peeks it uses")
        action = env.payload[0]
        extras = env.payload[1:]
        peeks = [o for o in extras if isinstance(o, list) and o[0] == PEEK_ITEM]
        opened = self._peeks.check_move(a, p.state, peeks)
        if isinstance(opened, str):
            return violation("bad-opening", env, opened)
        before, checker, ks = opened
        dealt = self._hands.check_move(a, before, p.pending, action,
                                       [o for o in extras if o not in peeks])
        if isinstance(dealt, str):
            return violation("bad-opening", env, dealt)
        before, deck, shown = dealt
        own = self.own_move
        if own is not None and own[0] == env.id and own[1] is before:
            # This replica's own MOVE, made from this very state. The engine is deterministic.
            # So what the protocol worked out when it signed the MOVE is what applying it gives.
            first = own[2]
            after = first.state
        else:
            try:
                after = self._engine.apply_move(before, action)
            except ValueError as exc:  # the engine refuses the action; anything else is its bug
                held = [k for k in self._peeks.unopened(a)
                        if k not in ks and timeline.trigger.get(k) == timeline.head]
                hint = (f" (seat {a} peeked at event {held[-1]} since the last entry and did "
                        "not open it: a MOVE that uses a peeked card carries its opening)"
                        if held else "")
                return violation("illegal-move", env, f"{short_repr(action)} is not legal "
                                 f"here: {short_repr(str(exc), 300)}{hint}")
            first = timeline.first_point(after, s)
        problem = self._check_reveals(a, env, first, first_of_move=True)
        if problem:
            return problem
        if env.state_hash != first.digest:
            return self._wrong_hash(env, first.digest)
        if self._ejections.judging == a or self._ejections.ejected_first(a):
            return _WAIT  # the others ejected this seat here, so this MOVE comes too late
        timeline.commit_reveals(a, env)
        if ks:
            self._peeks.commit(a, checker, ks)
        if deck is not None or shown:
            self._hands.commit(a, deck, shown, s)
        if ks or shown:
            p.state = before  # from now on, the slots this MOVE opened are known here
        self._entries.append(Entry(s, env.id, "move", a, action, env, before=before))
        timeline.entry_ids.add(env.id)
        timeline.push_point(after, first)
        return None

    def ack(self, a: int, env: Envelope) -> object:
        """The ACK handler: check ``env`` of seat ``a`` at the point it names, and take it.

        The ACK may carry its chain value or not."""
        if env.payload:
            return self._answer(a, env)
        s = env.step
        entries = self._entries
        timeline = self._timeline
        points = entries[s].points
        if env.reveals:
            k = env.reveals[0][0]
            target: Point | None = None
            for p in points:
                if p.k == k:
                    target = p
                    break
            if target is None:
                cur = entries[-1].points[-1]
                waiting = ((cur.k is not None and k > cur.k and (a, cur.k) in self._revealed)
                           or isinstance(cur.pending, Poll))  # a window resolves first
                if s == len(entries) - 1 and waiting:
                    # Event k may still come at this step, but not before a new point. Nothing
                    # else changes this answer, not even envelopes stored meanwhile. So it waits
                    # for a new point. It returns _LATER and is noted, so later calls do not
                    # retry it either.
                    self.parked_acks[a] = (env.seq, (len(entries), len(points)))
                    return _LATER
                reached = max(timeline.trigger, default=0)
                if k > reached:
                    return violation("premature-reveal", env, f"revealed its value for event "
                                     f"{k} at step {s}, before that event was reached")
                return violation("unexpected-reveal", env, f"revealed its value for event {k} "
                                 f"at step {s}, where that event is not pending")
        else:
            target = points[0]
            entry = entries[s]
            if (a, s) in timeline.acked or entry.kind != "move" or entry.seat == a:
                return violation("unexpected-ack", env, f"no ACK is due from seat {a} at step "
                                 f"{s}")
        problem = self._check_reveals(a, env, target, first_of_move=False)
        if problem:
            return problem
        if env.state_hash != target.digest:
            return self._wrong_hash(env, target.digest)
        ejections = self._ejections
        if (ejections.eject_index and target is entries[-1].points[-1]
                and ejections.judging != a and ejections.ejected_first(a)):
            return _WAIT  # the others ejected this seat here, so this ACK comes too late
        if not env.reveals:
            timeline.acked.add((a, s))
        timeline.commit_reveals(a, env)
        if ejections.judging != a:  # a late ACK, checked as its seat is ejected, is not used
            timeline.use(env, target)
        return None

    def _answer(self, a: int, env: Envelope) -> object:
        """An ACK carrying seat ``a``'s answer to a poll: see :mod:`kotp2p.net.replica.polls`."""
        if env.reveals:
            return violation("unexpected-reveal", env, "an answer to a window carries no value "
                             "of a random event")
        timeline = self._timeline
        p = timeline.point
        q = next((q for q in self._entries[env.step].points
                  if isinstance(q.pending, Poll) and q.digest == env.state_hash), None)
        if q is p:
            answer = self._polls.check(a, env, p)
            if isinstance(answer, tuple):
                return violation(answer[0], env, answer[1])
            self._polls.take(answer, p)
            return None
        if q is not None and isinstance(q.pending, Poll) and a in q.pending.seats:
            if self._polls.answered(q, a):
                return violation("unexpected-ack", env, "a second answer to the window at step "
                                 f"{env.step}")
            return None  # a window the game left, as after an ejection: used for nothing
        if env.step == p.step and p.pending is not None:
            return _WAIT  # it answers a window of this step not reached here yet
        return violation("unexpected-ack", env, f"an answer at step {env.step} where no window "
                         f"asks seat {a}")

    def open(self, a: int, env: Envelope) -> object:
        """The OPEN handler: check the opening of a slot or of a peek by seat ``a``."""
        pl = env.payload
        seat = self._genesis.seats[a]
        if pl[0] == "slot":  # the schema checked the shape
            if (a, pl[1]) in self.opened:
                return violation("bad-opening", env, f"slot {pl[1]} was already opened")
            problem = check_opening(seat.public_key, seat.slots, pl[1], pl[2], pl[3])
            if problem:
                return violation("bad-opening", env, problem)
            self.opened.add((a, pl[1]))
            return None
        if pl[0] == SLOT_ITEM:
            problem = self._hands.open(a, pl, env.step)
            return None if problem is None else violation("bad-opening", env, problem)
        peek = parse_opening(pl)
        if peek is not None:
            return self._open_peek(a, env, *peek)
        return violation("bad-opening", env, "OPEN holds ['slot', index, salt, content] or "
                         f"['peek', k, value], found {short_repr(pl)}")

    def _open_peek(self, a: int, env: Envelope, k: int, y: bytes, nxt: bytes | None) -> object:
        timeline = self._timeline
        cur = timeline.point
        if (k not in self._peeks.private and env.step == timeline.step and cur.k is not None
                and k >= cur.k):
            return _WAIT  # its author had resolved event k; this replica has not yet
        opened = self._peeks.open(a, k, y, nxt, cur.state)
        if isinstance(opened, str):
            return violation("bad-opening", env, opened)
        cur.state = opened
        return None

    def bye(self, a: int, env: Envelope) -> object:
        """The BYE handler: record seat ``a``'s farewell and check the result it claims."""
        p = self._timeline.point
        if env.payload and p.pending is not None:
            if env.step == self._timeline.step:
                return _WAIT  # the claim is checked once the last random events are resolved
            return violation("wrong-result", env, f"claims the game ended at step {env.step}; "
                             "it goes on")
        self.byes.setdefault(a, env)  # the first one: a seat says nothing logged after it
        if env.payload:
            claimed = env.payload[0]
            actual = list(self._engine.winners(p.state))
            if claimed != actual:
                return violation("wrong-result", env, f"claims winners {short_repr(claimed)}, "
                                 f"the replay gives {actual!r}")
        return None
