"""The replica's checks of the envelopes that carry the game: a MOVE, an ACK (with or without
its author's chain value), an OPEN and a BYE, each at the point it claims (a mixin of
:class:`~kotp2p.net.replica.replica.Replica`; the rules are in its theory of operation). A handler
returns ``None`` (consumed), a :class:`~kotp2p.net.replica.history.Violation` of the envelope's author,
or the replica's marker that the envelope waits."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kotp2p.net.replica.ejection import LATER, WAIT
from kotp2p.net.replica.history import Entry, Point, Violation
from kotp2p.net.replica.peeks import parse_opening
from kotp2p.net.replica.replica_parts import ReplicaParts
from kotp2p.net.trust import Turn, check_opening
from kotp2p.net.wire import Envelope, short_repr

_WAIT = WAIT
_LATER = LATER


class KindRules(ReplicaParts):
    """How the replica checks and applies MOVE, ACK, OPEN and BYE envelopes."""

    if TYPE_CHECKING:
        def _fork(self, v: Violation) -> None: ...
        def _quorum_stored(self, target: int) -> bool: ...

    def _wrong_hash(self, env: Envelope, expected: bytes) -> Violation:
        return self._v("wrong-state-hash", env, f"state hash {expected.hex()[:16]} expected, "
                       f"found {env.state_hash.hex()[:16]}")
    def _check_reveals(
        self, a: int, env: Envelope, expected: Point, first_of_move: bool
    ) -> Violation | None:
        k = expected.k
        needed = k is not None and expected.alive[a] and (a, k) not in self.revealed
        if not needed:
            if env.reveals:
                rk = env.reveals[0][0]
                rule = "premature-reveal" if k is None or rk > k else "unexpected-reveal"
                return self._v(rule, env, f"revealed its value for event {rk} where "
                               + ("no random event is pending" if k is None else
                                  f"event {k} is pending and its value was not due from it"))
            return None
        assert k is not None
        if not env.reveals:
            what = "its MOVE" if first_of_move else "its ACK"
            return self._v("missing-reveal", env, f"{what} lacks its value for event {k}")
        if len(env.reveals) != 1 or env.reveals[0][0] != k:
            rk = max(r[0] for r in env.reveals)
            rule = "premature-reveal" if rk > k else "unexpected-reveal"
            return self._v(rule, env, f"reveals for events {[r[0] for r in env.reveals]}, "
                           f"exactly event {k} expected")
        _, x, nxt = env.reveals[0]
        problem = self.checkers[a].problem(k, x, nxt)
        if problem:
            return self._v("bad-reveal", env, problem)
        return None

    def _commit_reveals(self, a: int, env: Envelope) -> None:
        for k, x, nxt in env.reveals:
            self.checkers[a].accept(k, x, nxt)  # _check_reveals found it sound
            self.revealed[(a, k)] = x

    def _move(self, a: int, env: Envelope) -> object:
        s = env.step
        if s <= self.step:
            entry = self.entries[s] if s >= 1 else self.entries[0]
            if entry.kind == "move" and entry.seat == a and entry.envelope is not None:
                v = Violation("fork", a, s, f"two different MOVEs for step {s}; one expected",
                              (entry.envelope, env))
                self._fork(v)
                return v
            return self._v("out-of-turn", env, f"a MOVE for step {s}, which already holds "
                           f"{f'seat {entry.seat}' if entry.kind == 'move' else entry.kind}")
        p = self.point
        if p.pending is None:
            return self._v("out-of-turn", env, "a MOVE after the game ended")
        if isinstance(p.pending, Turn) and p.pending.seat != a:
            return self._v("out-of-turn", env, f"seat {p.pending.seat}'s decision expected, "
                           f"found a MOVE by seat {a}")
        if self.owed_acks():
            return _WAIT
        if not env.payload:
            return self._v("illegal-move", env, "a MOVE payload holds one action, then the "
                           "openings of the peeks it uses")
        action = env.payload[0]
        opened = self.peeks.check_move(a, p.state, env.payload[1:])
        if isinstance(opened, str):
            return self._v("bad-opening", env, opened)
        before, checker, ks = opened
        own = self.own_move
        if own is not None and own[0] == env.id and own[1] is before:
            # this replica's own MOVE, made from this very state: the engine is deterministic,
            # so what the protocol worked out when it signed the MOVE is what applying it gives
            first = own[2]
            after = first.state
        else:
            try:
                after = self.engine.apply_move(before, action)
            except ValueError as exc:  # the engine refuses the action (anything else: its bug)
                held = [k for k in self.unopened(a)
                        if k not in ks and self.trigger.get(k) == self.head]
                hint = (f" (seat {a} peeked at event {held[-1]} since the last entry and did "
                        "not open it: a MOVE that uses a peeked card carries its opening)"
                        if held else "")
                return self._v("illegal-move", env, f"{short_repr(action)} is not legal here: "
                               f"{short_repr(str(exc), 300)}{hint}")
            first = self.first_point(after, s)
        problem = self._check_reveals(a, env, first, first_of_move=True)
        if problem:
            return problem
        if env.state_hash != first.digest:
            return self._wrong_hash(env, first.digest)
        if self._judging == a or self._quorum_stored(a):
            return _WAIT  # the others ejected this seat here: this MOVE comes too late
        self._commit_reveals(a, env)
        if ks:
            self.peeks.commit(a, checker, ks)
            p.state = before  # the slots this MOVE opened are known here from now on
        self.entries.append(Entry(s, env.id, "move", a, action, env, before=before))
        self.entry_ids.add(env.id)
        self._push_point(after, first)
        return None

    def _ack(self, a: int, env: Envelope) -> object:
        s = env.step
        points = self.entries[s].points
        if env.reveals:
            k = env.reveals[0][0]
            target: Point | None = None
            for p in points:
                if p.k == k:
                    target = p
                    break
            if target is None:
                cur = self.point
                waiting = cur.k is not None and k > cur.k and (a, cur.k) in self.revealed
                if s == self.step and waiting:
                    # event k may still come at this step: not before a new point (nothing
                    # else changes this answer, not even envelopes stored meanwhile), so it
                    # waits for one (_LATER, and noted: not retried in later calls either)
                    self._parked_acks[a] = (env.seq, (len(self.entries), len(points)))
                    return _LATER
                reached = max(self.trigger, default=0)
                if k > reached:
                    return self._v("premature-reveal", env, f"revealed its value for event {k} "
                                   f"at step {s}, before that event was reached")
                return self._v("unexpected-reveal", env, f"revealed its value for event {k} at "
                               f"step {s}, where that event is not pending")
        else:
            target = points[0]
            entry = self.entries[s]
            if (a, s) in self.acked or entry.kind != "move" or entry.seat == a:
                return self._v("unexpected-ack", env, f"no ACK is due from seat {a} at step {s}")
        problem = self._check_reveals(a, env, target, first_of_move=False)
        if problem:
            return problem
        if env.state_hash != target.digest:
            return self._wrong_hash(env, target.digest)
        if (self._eject_index and target is self.point and self._judging != a
                and self._quorum_stored(a)):
            return _WAIT  # the others ejected this seat here: this ACK comes too late
        if not env.reveals:
            self.acked.add((a, s))
        self._commit_reveals(a, env)
        if self._judging != a:  # (a late one, checked as its seat is ejected, is not used)
            self.use(env, target)
        return None

    def _open(self, a: int, env: Envelope) -> object:
        pl = env.payload
        seat = self.genesis.seats[a]
        if pl[0] == "slot":  # (the schema checked the shape)
            if (a, pl[1]) in self.opened:
                return self._v("bad-opening", env, f"slot {pl[1]} was already opened")
            problem = check_opening(seat.public_key, seat.slots, pl[1], pl[2], pl[3])
            if problem:
                return self._v("bad-opening", env, problem)
            self.opened.add((a, pl[1]))
            return None
        peek = parse_opening(pl)
        if peek is not None:
            return self._open_peek(a, env, *peek)
        return self._v("bad-opening", env, "OPEN holds ['slot', index, salt, content] or "
                       f"['peek', k, value], found {short_repr(pl)}")

    def _open_peek(self, a: int, env: Envelope, k: int, y: bytes, nxt: bytes | None) -> object:
        cur = self.point
        if k not in self.private and env.step == self.step and cur.k is not None and k >= cur.k:
            return _WAIT  # this replica has not resolved event k yet; its author had
        opened = self.peeks.open(a, k, y, nxt, cur.state)
        if isinstance(opened, str):
            return self._v("bad-opening", env, opened)
        cur.state = opened
        return None

    def _bye(self, a: int, env: Envelope) -> object:
        if env.payload and not self.is_over:
            if env.step == self.step:
                return _WAIT  # the claim is checked once the last random events are resolved
            return self._v("wrong-result", env, f"claims the game ended at step {env.step}; "
                           "it goes on")
        self.byes[a] = env
        if env.payload:
            claimed = env.payload[0]
            actual = list(self.engine.winners(self.state))
            if claimed != actual:
                return self._v("wrong-result", env, f"claims winners {short_repr(claimed)}, the replay "
                               f"gives {actual!r}")
        return None
