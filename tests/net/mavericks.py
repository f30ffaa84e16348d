"""Maverick seats: protocol objects that break one rule once, from a chosen step on.

Each is a ``PeerProtocol`` that behaves honestly until ``AT_STEP`` and then misbehaves once in
its own way. ``act(choose)`` is called by the harness whenever it looks for decisions, so a
maverick can also speak out of turn. A maverick uses only the protocol's public seam: a
:class:`MaverickSigner` of its own (``signer_type``, made by ``make_signer``) for what it signs
wrongly in the protocol's own steps, and ``signer.seal`` with ``publish`` for envelopes it makes
up.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

from kotp2p.net.peer import Event, PeerProtocol, Send, Signer
from kotp2p.net.replica import Point, Replica
from kotp2p.net.trust import Chance, Turn, draw, peek_seed
from kotp2p.net.wire import Envelope, Kind, Value, codec, seal

AT_STEP = 6

Chooser = Callable[[int, object], Value]


class MaverickSigner(Signer):
    """A signer that knows its maverick (to ask whether it is armed); honest as it is."""

    def __init__(self, maverick: Maverick) -> None:
        super().__init__(maverick.identity, maverick.genesis.game_id, maverick.seat,
                         maverick.chain, maverick.peek_chain, maverick.engine)
        self.maverick = maverick


class Maverick(PeerProtocol):
    """Honest until armed; subclasses misbehave once."""

    rule = ""
    done = False
    signer_type: type[MaverickSigner] = MaverickSigner
    """The signer this maverick signs with."""

    def make_signer(self) -> Signer:
        return self.signer_type(self)

    def armed(self) -> bool:
        return self.started and not self.done and self.replica.step >= AT_STEP

    def act(self, choose: Chooser) -> list[Event]:
        return []


class BadRevealSigner(MaverickSigner):
    def seal(self, kind: Kind, step: int, head: bytes, payload: Sequence[Value] = (),
             reveals: Sequence[tuple[int, bytes, bytes | None]] = (),
             state_hash: bytes = b"") -> Envelope:
        if reveals and self.maverick.armed():
            self.maverick.done = True
            k, x, nxt = reveals[0]
            reveals = [(k, hashlib.sha256(b"not on my chain" + x).digest(), nxt)]
        return super().seal(kind, step, head, payload, reveals, state_hash)


class BadReveal(Maverick):
    """Reveals a value that is not on its chain."""

    rule = "bad-reveal"
    signer_type = BadRevealSigner


class PrematureRevealSigner(MaverickSigner):
    def seal(self, kind: Kind, step: int, head: bytes, payload: Sequence[Value] = (),
             reveals: Sequence[tuple[int, bytes, bytes | None]] = (),
             state_hash: bytes = b"") -> Envelope:
        if kind is Kind.ACK and not reveals and self.maverick.armed():
            self.maverick.done = True
            reveals = [self.chain.reveal(max(self.maverick.replica.trigger) + 1)]
        return super().seal(kind, step, head, payload, reveals, state_hash)


class PrematureReveal(Maverick):
    """Puts its value for the next random event into an ACK before that event is reached."""

    rule = "premature-reveal"
    signer_type = PrematureRevealSigner


class WrongStateHashSigner(MaverickSigner):
    def seal(self, kind: Kind, step: int, head: bytes, payload: Sequence[Value] = (),
             reveals: Sequence[tuple[int, bytes, bytes | None]] = (),
             state_hash: bytes = b"") -> Envelope:
        if kind in (Kind.ACK, Kind.MOVE) and self.maverick.armed():
            self.maverick.done = True
            state_hash = hashlib.sha256(b"a state of my own").digest()
        return super().seal(kind, step, head, payload, reveals, state_hash)


class WrongStateHash(Maverick):
    """Signs a state hash that differs from the replay."""

    rule = "wrong-state-hash"
    signer_type = WrongStateHashSigner


class IllegalMove(Maverick):
    """Signs an action the rules do not allow."""

    rule = "illegal-move"
    moved_at = -1
    """The step of its illegal MOVE: it has no decision pending there any more."""

    @property
    def my_turn(self) -> bool:
        return super().my_turn and self.moved_at != self.replica.step + 1

    def submit(self, action: Value) -> list[Event]:
        if not self.armed():
            return super().submit(action)
        self.done = True
        r = self.replica
        self.moved_at = r.step + 1
        env = self.signer.seal(Kind.MOVE, r.step + 1, r.head, [["no such action", 7]], [],
                               r.point.digest)
        return self.publish(env)


class Fork(Maverick):
    """Signs two different MOVEs for one step: one to everybody, the other to one seat."""

    rule = "fork"

    def submit(self, action: Value) -> list[Event]:
        if not self.armed():
            return super().submit(action)
        self.done = True
        r = self.replica
        seq, prev = self.signer.seq, self.signer.prev
        head, step, digest = r.head, r.step + 1, r.point.digest
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
        env = self.signer.seal(Kind.MOVE, r.step + 1, r.head, [action], [],
                               r.first_point(after, r.step + 1).digest)
        return self.publish(env)


class BadOpening(Maverick):
    """Opens one of its private slots with a salt that does not match its commitment."""

    rule = "bad-opening"

    def act(self, choose: Chooser) -> list[Event]:
        if not self.armed() or self.slots is None:
            return []
        self.done = True
        i, salt, content = self.slots.opening(0)
        r = self.replica
        env = self.signer.seal(Kind.OPEN, r.step, r.head,
                               ["slot", i, hashlib.sha256(salt).digest(), content])
        return self.publish(env)


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
        return [Send(env.frame, self.others)]


class ByteFlipper(Maverick):
    """Sends one of its envelopes with a byte changed after signing."""

    rule = "bad-signature"

    def act(self, choose: Chooser) -> list[Event]:
        if not self.armed():
            return []
        self.done = True
        r = self.replica
        env = seal(self.identity, game_id=self.genesis.game_id, author=self.seat,
                   seq=self.signer.seq, prev=self.signer.prev, head=r.head, step=r.step, kind=Kind.CHAT, payload=["gg"])
        body = bytearray(env.body)
        body[-3] ^= 0x01
        return [Send(codec.frame(codec.pack([bytes(body), env.sig])), self.others)]


class WithholderSigner(MaverickSigner):
    def duties(self, replica: Replica, points: list[Point]) -> list[Envelope]:
        if replica.step >= AT_STEP:
            return []
        return super().duties(replica, points)


class Withholder(Maverick):
    """Stops revealing its chain values (the others must eject it after a hard timeout)."""

    rule = "withheld"
    signer_type = WithholderSigner


class LyingPeekerSigner(MaverickSigner):
    def openings(self, replica: Replica, action: Value, digest: bytes) -> list[Value]:
        honest = super().openings(replica, action, digest)
        if not honest or self.maverick.done:
            return honest
        self.maverick.done = True
        _, k, y = honest[-1]
        priv = replica.private[k]
        pending = self.engine.pending(priv.before)
        assert isinstance(pending, Chance)

        def shows(value: bytes) -> int:
            values = draw(peek_seed(priv.seed, self.seat, value), pending.bounds)
            return self.engine.slot_content(priv.before, values)

        i = 0
        while shows(fake := hashlib.sha256(b"a better card %d" % i).digest()) == shows(y):
            i += 1
        return [*honest[:-1], ["peek", k, fake]]


class LyingPeeker(Maverick):
    """Buys a card it peeked at (Made in a Lab) but opens the peek with a value off its peek
    chain, chosen so that the others would see another card: it claims a card it did not draw.
    (Not in ``CONVICTED``: the toy game has no peeks.)"""

    rule = "bad-opening"
    signer_type = LyingPeekerSigner


class MalformedEject(Maverick):
    """Signs a vote to eject "seat [0]": a list where a seat number belongs (once this made every
    peer that received it raise)."""

    rule = "malformed-payload"

    def act(self, choose: Chooser) -> list[Event]:
        if not self.armed():
            return []
        self.done = True
        r = self.replica
        env = self.signer.seal(Kind.EJECT, r.step, r.head, [[0]], state_hash=r.point.digest)
        return self.publish(env)


CONVICTED = [BadReveal, PrematureReveal, WrongStateHash, IllegalMove, Fork, OutOfTurn, BadOpening,
             MalformedEject]
REJECTED = [Forger, ByteFlipper]
