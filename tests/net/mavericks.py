"""Maverick seats: protocol objects that break one rule once, from a chosen step on.

Each is a ``PeerProtocol`` that behaves honestly until ``AT_STEP`` and then misbehaves once in
its own way. ``act(choose)`` is called by the harness whenever it looks for decisions, so a
maverick can also speak out of turn.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

from kotp2p.net.peer import Event, PeerProtocol, Send
from kotp2p.net.trust import Chance, Turn, draw, peek_seed
from kotp2p.net.wire import Envelope, Kind, Value, codec, seal

AT_STEP = 6

Chooser = Callable[[int, object], Value]


class Maverick(PeerProtocol):
    """Honest until armed; subclasses misbehave once."""

    rule = ""
    done = False

    def armed(self) -> bool:
        return self._started and not self.done and self.replica.step >= AT_STEP

    def act(self, choose: Chooser) -> list[Event]:
        return []


class BadReveal(Maverick):
    """Reveals a value that is not on its chain."""

    rule = "bad-reveal"

    def _seal(self, kind: Kind, step: int, head: bytes, payload: Sequence[Value] = (),
              reveals: Sequence[tuple[int, bytes, bytes | None]] = (),
              state_hash: bytes = b"") -> Envelope:
        if reveals and self.armed():
            self.done = True
            k, x, nxt = reveals[0]
            reveals = [(k, hashlib.sha256(b"not on my chain" + x).digest(), nxt)]
        return super()._seal(kind, step, head, payload, reveals, state_hash)


class PrematureReveal(Maverick):
    """Puts its value for the next random event into an ACK before that event is reached."""

    rule = "premature-reveal"

    def _seal(self, kind: Kind, step: int, head: bytes, payload: Sequence[Value] = (),
              reveals: Sequence[tuple[int, bytes, bytes | None]] = (),
              state_hash: bytes = b"") -> Envelope:
        if kind is Kind.ACK and not reveals and self.armed():
            self.done = True
            reveals = [self.chain.reveal(max(self.replica.trigger) + 1)]
        return super()._seal(kind, step, head, payload, reveals, state_hash)


class WrongStateHash(Maverick):
    """Signs a state hash that differs from the replay."""

    rule = "wrong-state-hash"

    def _seal(self, kind: Kind, step: int, head: bytes, payload: Sequence[Value] = (),
              reveals: Sequence[tuple[int, bytes, bytes | None]] = (),
              state_hash: bytes = b"") -> Envelope:
        if kind in (Kind.ACK, Kind.MOVE) and self.armed():
            self.done = True
            state_hash = hashlib.sha256(b"a state of my own").digest()
        return super()._seal(kind, step, head, payload, reveals, state_hash)


class IllegalMove(Maverick):
    """Signs an action the rules do not allow."""

    rule = "illegal-move"

    def submit(self, action: Value) -> list[Event]:
        if not self.armed():
            return super().submit(action)
        self.done = True
        self._moved = self.replica.step + 1
        r = self.replica
        env = self._seal(Kind.MOVE, r.step + 1, r.head, [["no such action", 7]], [],
                         r.point.digest)
        return self._own(env, broadcast=True)


class Fork(Maverick):
    """Signs two different MOVEs for one step: one to everybody, the other to one seat."""

    rule = "fork"

    def submit(self, action: Value) -> list[Event]:
        if not self.armed():
            return super().submit(action)
        self.done = True
        r = self.replica
        seq, prev, head, step, digest = self._seq, self._prev, r.head, r.step + 1, r.point.digest
        out = super().submit(action)
        other = seal(self.identity, game_id=self.genesis.game_id, author=self.seat, seq=seq,
                     prev=prev, head=head, step=step, kind=Kind.MOVE,
                     payload=[["the other branch"]], state_hash=digest)
        target = (self.seat + 1) % self.genesis.n
        return [*out, Send(other.frame, (target,))]


class OutOfTurn(Maverick):
    """Moves for another seat while that seat must decide."""

    rule = "out-of-turn"

    def act(self, choose: Chooser) -> list[Event]:
        r = self.replica
        p = r.point.pending
        if not self.armed() or not isinstance(p, Turn) or p.seat == self.seat or r.owed_acks():
            return []
        self.done = True
        action = choose(p.seat, r.state)
        after = self.engine.apply_move(r.state, action)
        env = self._seal(Kind.MOVE, r.step + 1, r.head, [action], [],
                         r.first_point(after, r.step + 1).digest)
        return self._own(env, broadcast=True)


class BadOpening(Maverick):
    """Opens one of its private slots with a salt that does not match its commitment."""

    rule = "bad-opening"

    def act(self, choose: Chooser) -> list[Event]:
        if not self.armed() or self.slots is None:
            return []
        self.done = True
        i, salt, content = self.slots.opening(0)
        r = self.replica
        env = self._seal(Kind.OPEN, r.step, r.head,
                         ["slot", i, hashlib.sha256(salt).digest(), content])
        return self._own(env, broadcast=True)


class Forger(Maverick):
    """Sends a CHAT claiming to be the next seat's, signed with its own key."""

    rule = "forged-signature"

    def act(self, choose: Chooser) -> list[Event]:
        if not self.armed():
            return []
        self.done = True
        victim = (self.seat + 1) % self.genesis.n
        r = self.replica
        env = seal(self.identity, game_id=self.genesis.game_id, author=victim, seq=0,
                   prev=self.genesis.game_id, head=r.head, step=r.step, kind=Kind.CHAT,
                   payload=["I resign"])
        return [Send(env.frame, self._others())]


class ByteFlipper(Maverick):
    """Sends one of its envelopes with a byte changed after signing."""

    rule = "bad-signature"

    def act(self, choose: Chooser) -> list[Event]:
        if not self.armed():
            return []
        self.done = True
        r = self.replica
        env = seal(self.identity, game_id=self.genesis.game_id, author=self.seat, seq=self._seq,
                   prev=self._prev, head=r.head, step=r.step, kind=Kind.CHAT, payload=["gg"])
        body = bytearray(env.body)
        body[-3] ^= 0x01
        return [Send(codec.frame(codec.pack([bytes(body), env.sig])), self._others())]


class Withholder(Maverick):
    """Stops revealing its chain values (the others must eject it after a hard timeout)."""

    rule = "withheld"

    def _duties(self, points: list) -> list[Envelope]:  # type: ignore[type-arg]
        if self._started and self.replica.step >= AT_STEP:
            return []
        return super()._duties(points)


class LyingPeeker(Maverick):
    """Buys a card it peeked at (Made in a Lab) but opens the peek with a value off its peek
    chain, chosen so that the others would see another card: it claims a card it did not draw.
    (Not in ``CONVICTED``: the toy game has no peeks.)"""

    rule = "bad-opening"

    def _openings(self, action: Value, digest: bytes) -> list[Value]:
        honest = super()._openings(action, digest)
        if not honest or self.done:
            return honest
        self.done = True
        _, k, y = honest[-1]
        priv = self.replica.private[k]
        pending = self.engine.pending(priv.before)
        assert isinstance(pending, Chance)

        def shows(value: bytes) -> int:
            values = draw(peek_seed(priv.seed, self.seat, value), pending.bounds)
            return self.engine.slot_content(priv.before, values)

        i = 0
        while shows(fake := hashlib.sha256(b"a better card %d" % i).digest()) == shows(y):
            i += 1
        return [*honest[:-1], ["peek", k, fake]]


class MalformedEject(Maverick):
    """Signs a vote to eject "seat [0]": a list where a seat number belongs (once this made every
    peer that received it raise)."""

    rule = "malformed-payload"

    def act(self, choose: Chooser) -> list[Event]:
        if not self.armed():
            return []
        self.done = True
        r = self.replica
        env = self._seal(Kind.EJECT, r.step, r.head, [[0]], state_hash=r.point.digest)
        return self._own(env, broadcast=True)


CONVICTED = [BadReveal, PrematureReveal, WrongStateHash, IllegalMove, Fork, OutOfTurn, BadOpening,
             MalformedEject]
REJECTED = [Forger, ByteFlipper]
