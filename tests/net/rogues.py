"""Hostile seats for the live protocol: one modified client each, the behaviours of issue 13.

Each rogue is a :class:`~kotp2p.net.peer.PeerProtocol` that plays honestly and, from
``ARMED_AT`` on, misbehaves in its own way; :meth:`Rogue.outgoing` sees every event it returns
(so it can send different frames to different peers, or none), and :meth:`Rogue.act` is called
whenever the harness looks for decisions (so it can speak out of turn). A rogue uses only the
protocol's public seam: its public methods, its signer (``signer.seal``, or a
:class:`~kotp2p.net.peer.Signer` of its own through ``make_signer``), ``stalls.sign_vote``
and ``publish``. ``EXPECT`` says what the
honest seats must conclude: ``"convicted"`` (a signed violation of the rogue), ``"ejected"``
(the rogue is voted out, no violation needed), ``"harmless"`` (the game goes on and verifies),
or ``"forfeit"`` (the two-alive vote: the voter is convicted, or wins *by forfeit*, recorded as
such).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Collection, Sequence

from kotp2p.net.peer import Event, PeerProtocol, Send, Signer
from kotp2p.net.peer.protocol import SYNC
from kotp2p.net.replica import Point, Replica
from kotp2p.net.wire import Envelope, Kind, Value, codec, seal

ARMED_AT = 4


class Rogue(PeerProtocol):
    """Honest until armed; subclasses override :meth:`outgoing` and/or :meth:`act`."""

    name = "rogue"
    expect = "convicted"
    min_seats = 2
    """Fewer seats than this and the behaviour cannot show (no peers to split)."""
    expect_two = ""
    """What to expect in a two-seat game, when it differs."""

    def armed(self) -> bool:
        return self.started and self.replica.step >= ARMED_AT

    def acted(self) -> bool:
        """It did what it is here for (a game may end before a late trick fires)."""
        return True

    def outgoing(self, events: list[Event]) -> list[Event]:
        return events

    def act(self, choose: object) -> list[Event]:
        return []

    def start(self) -> list[Event]:
        return self.outgoing(super().start())

    def submit(self, action: Value) -> list[Event]:
        return self.outgoing(super().submit(action))

    def receive(self, payload: bytes, sender: int | None = None,
                holders: Collection[int] = ()) -> list[Event]:
        return self.outgoing(super().receive(payload, sender, holders))

    def receive_verified(self, env: Envelope, sender: int | None = None) -> list[Event]:
        return self.outgoing(super().receive_verified(env, sender))

    def soft_timeout(self) -> list[Event]:
        return self.outgoing(super().soft_timeout())

    def hard_timeout(self) -> list[Event]:
        return self.outgoing(super().hard_timeout())

    def _rng(self) -> random.Random:
        rng = getattr(self, "_rng_cache", None)
        if rng is None:
            rng = random.Random(self.genesis.game_id + bytes([self.seat]))
            self._rng_cache = rng
        return rng

    def _variant(self, env: Envelope, **change: object) -> Envelope:
        """Another envelope under the same seq and prev (an equivocation)."""
        fields: dict[str, object] = dict(
            game_id=self.genesis.game_id, author=self.seat, seq=env.seq, prev=env.prev,
            head=env.head, step=env.step, kind=env.kind, payload=env.payload,
            reveals=env.reveals, state_hash=env.state_hash)
        fields.update(change)
        return seal(self.identity, **fields)  # type: ignore[arg-type]

    def _split_send(self, ev: Send, env: Envelope, wrong_to: Collection[int],
               salt: bytes) -> tuple[list[Event], bytes]:
        """``ev`` as it is for the seats not in ``wrong_to``, and for those a variant of ``env``
        whose state hash is made from ``salt``; with the variant's id. No Send goes to nobody."""
        wrong = self._variant(env, state_hash=hashlib.sha256(salt + env.id).digest())
        right_seats = tuple(i for i in ev.to if i not in wrong_to)
        wrong_seats = tuple(i for i in ev.to if i in wrong_to)
        sends: list[Event] = []
        if right_seats:
            sends.append(Send(ev.frame, right_seats))
        if wrong_seats:
            sends.append(Send(wrong.frame, wrong_seats))
        return sends, wrong.id


class PartialWithholder(Rogue):
    """Sends its own envelopes to one peer only (the others must get them forwarded)."""

    name = "partial-withholding"
    expect = "harmless"

    def outgoing(self, events: list[Event]) -> list[Event]:
        if not self.armed():
            return events
        out: list[Event] = []
        for ev in events:
            if isinstance(ev, Send) and len(ev.to) > 1:
                ev = Send(ev.frame, ev.to[:1])
            out.append(ev)
        return out


class SplitMoves(Rogue):
    """Signs two different legal MOVEs for one step: one to half the peers, one to the rest."""

    name = "equivocating-moves"
    min_seats = 3

    done = False
    other_id = b""
    """The id of the second MOVE, once sent. Every copy of its frame may be lost."""

    def submit(self, action: Value) -> list[Event]:
        if self.done or not self.armed():
            return super().submit(action)
        legal = [a for a in self._legal() if a != action]
        if not legal:
            return super().submit(action)
        self.done = True
        out = PeerProtocol.submit(self, action)
        mine = next(ev for ev in out if isinstance(ev, Send))
        first = self.replica.entries[-1].envelope
        assert first is not None
        r = self.replica
        before = r.entries[-1].before
        after = self.engine.apply_move(before, legal[0])
        point = r.first_point(after, first.step)
        other = self._variant(first, payload=[legal[0]], state_hash=point.digest,
                              reveals=first.reveals)
        self.other_id = other.id
        peers = list(mine.to)
        half = len(peers) // 2 or 1
        rest = [ev for ev in out if ev is not mine]
        return [Send(first.frame, tuple(peers[:half])), Send(other.frame, tuple(peers[half:])),
                *rest]

    def _legal(self) -> list[Value]:
        legal = getattr(self.engine, "legal", None)
        if legal is None:
            return []
        return list(legal(self.replica.state))


class SplitAcks(Rogue):
    """Sends its ACKs (and values) with the right state hash to some peers and a wrong one to
    the others."""

    name = "equivocating-acks"
    min_seats = 3

    done = False
    wrong_id = b""
    """The id of the ACK with the wrong state hash, once sent. Its frame may be lost."""

    def outgoing(self, events: list[Event]) -> list[Event]:
        if self.done or not self.armed():
            return events
        out: list[Event] = []
        for ev in events:
            env = self.replica.by_id.get(_id(ev)) if isinstance(ev, Send) else None
            if (not self.done and isinstance(ev, Send) and env is not None
                    and env.author == self.seat and env.kind is Kind.ACK and len(ev.to) > 1):
                self.done = True
                sends, self.wrong_id = self._split_send(ev, env, ev.to[len(ev.to) // 2:], b"mine")
                out += sends
                continue
            out.append(ev)
        return out


class SplitAckTo(Rogue):
    """Sends one ACK with a wrong state hash to the seats in ``wrong_to`` and the right one to the
    others. Which ACK is its ``nth`` ACK since it was armed, counting only those that carry a
    value (``with_value``) or only those that do not. :func:`split_ack_to` makes one."""

    name = "split-ack-to"
    min_seats = 3
    wrong_to: frozenset[int] = frozenset()
    nth = 1
    with_value = False

    done = False
    seen = 0
    wrong_id = b""
    """The id of the ACK with the wrong state hash, once sent."""

    def acted(self) -> bool:
        return self.done

    def outgoing(self, events: list[Event]) -> list[Event]:
        if self.done or not self.armed():
            return events
        out: list[Event] = []
        for ev in events:
            env = self.replica.by_id.get(_id(ev)) if isinstance(ev, Send) else None
            if (self.done or not isinstance(ev, Send) or env is None
                    or env.author != self.seat or env.kind is not Kind.ACK
                    or bool(env.reveals) != self.with_value
                    or set(ev.to) != set(self.others)):  # a resend to one seat is no split
                out.append(ev)
                continue
            self.seen += 1
            if self.seen < self.nth:
                out.append(ev)
                continue
            self.done = True
            sends, self.wrong_id = self._split_send(ev, env, self.wrong_to, b"wrong")
            out += sends
        return out


def split_ack_to(wrong_to: Collection[int], nth: int = 1,
                 with_value: bool = False) -> type[SplitAckTo]:
    """A :class:`SplitAckTo` that sends its wrong ACK to the seats ``wrong_to``."""
    return type("SplitAckTo", (SplitAckTo,), {
        "wrong_to": frozenset(wrong_to), "nth": nth, "with_value": with_value})


def _id(ev: Send) -> bytes:
    from kotp2p.net.wire import envelope_id, split_frame

    try:
        return envelope_id(split_frame(ev.frame[4:])[0])
    except ValueError:
        return b""


class OldFork(Rogue):
    """Late in the game, re-signs one of its early envelopes (a fork far back) and sends it to
    everybody: a losing player trying to erase the game."""

    name = "old-fork"

    done = False

    def acted(self) -> bool:
        return self.done

    def act(self, choose: object) -> list[Event]:
        if self.done or self.replica.step < ARMED_AT + 8:
            return []
        old = self.replica.streams[self.seat].get(2)
        if old is None:
            return []
        self.done = True
        forged = self._variant(old, kind=Kind.CHAT, payload=["this never happened"],
                               reveals=[], state_hash=b"")
        return [Send(forged.frame, self.others)]


class FarAhead(Rogue):
    """Signs chats far ahead of its stream (never readable) to fill its peers' memory."""

    name = "far-ahead"
    expect = "harmless"

    sent = 0
    total = 400

    def act(self, choose: object) -> list[Event]:
        if self.sent >= self.total or not self.armed():
            return []
        out: list[Event] = []
        r = self.replica
        for _ in range(100):
            seq = self.signer.seq + 1000 + self.sent
            env = seal(self.identity, game_id=self.genesis.game_id, author=self.seat, seq=seq,
                       prev=hashlib.sha256(b"%d" % seq).digest(), head=r.head, step=r.step,
                       kind=Kind.CHAT, payload=["x" * 500])
            out.append(Send(env.frame, self.others))
            self.sent += 1
        far = seal(self.identity, game_id=self.genesis.game_id, author=self.seat,
                   seq=self.signer.seq + 1_000_000, prev=r.head, head=r.head, step=r.step,
                   kind=Kind.CHAT, payload=["far"])
        return [*out, Send(far.frame, self.others)]


class ReplayFlood(Rogue):
    """Sends every frame it has seen again, many times, to everybody."""

    name = "replay-flood"
    expect = "harmless"

    def outgoing(self, events: list[Event]) -> list[Event]:
        if not self.armed():
            return events
        frames = [e.frame for e in self.replica.by_id.values()]
        rng = self._rng()
        extra = [Send(rng.choice(frames), self.others) for _ in range(min(8, len(frames)))]
        return events + extra


class EjectSpam(Rogue):
    """Votes to eject a random other seat at every chance, awaited or not."""

    name = "eject-spam"
    expect_two = "forfeit"
    """With two seats a random vote is the two-alive vote (legal when the game waits on the
    other seat: a win by forfeit, shown as such)."""

    def act(self, choose: object) -> list[Event]:
        r = self.replica
        if not self.armed() or r.is_over or r.point.pending is None or self.seat in r.cut:
            return []
        rng = self._rng()
        if rng.random() < 0.7:
            return []
        target = rng.choice(self.others)
        if not r.point.alive[target]:
            return []
        env = self.stalls.sign_vote(r, target)
        return [] if env is None else self.publish(env)


class TwoAliveVote(Rogue):
    """Once only it and one other monster are alive, votes that one out at once: when the game
    waits on it (legal, a win by forfeit at best) or not (its own violation)."""

    name = "two-alive-vote"
    expect = "forfeit"

    def act(self, choose: object) -> list[Event]:
        r = self.replica
        p = r.point
        if r.is_over or p.pending is None or not p.alive[self.seat] or sum(p.alive) != 2:
            return []
        other = next(i for i in range(self.genesis.n) if i != self.seat and p.alive[i])
        env = self.stalls.sign_vote(r, other)
        return [] if env is None else self.publish(env)


class SyncAbuser(Rogue):
    """Asks every peer, at every chance, to resend every author's whole stream."""

    name = "sync-abuse"
    expect = "harmless"

    requested = 0

    def act(self, choose: object) -> list[Event]:
        if not self.armed() or self.requested > 20_000:
            return []
        out: list[Event] = []
        for author in range(self.genesis.n):
            frame = codec.frame(codec.pack([SYNC, author, 0]))
            out.append(Send(frame, self.others))
            self.requested += 1
        return out


class BigChat(Rogue):
    """Signs a chat line of 20,000 characters (the limit is 500)."""

    name = "oversized-chat"

    done = False

    def act(self, choose: object) -> list[Event]:
        if self.done or not self.armed():
            return []
        self.done = True
        r = self.replica
        env = self.signer.seal(Kind.CHAT, r.step, r.head, ["spam " * 4000])
        return [Send(env.frame, self.others)]


class SilentMidRoll(Rogue):
    """Goes silent (no ACK, no value) from the first random event after it is armed."""

    name = "silence-mid-roll"
    expect = "ejected"

    silent = False

    def make_signer(self) -> Signer:
        return SilentSigner(self)

    @property
    def my_turn(self) -> bool:
        return not self.silent and super().my_turn


class SilentSigner(Signer):
    """Signs no ACK and no value once its rogue is armed and a random event comes."""

    def __init__(self, rogue: SilentMidRoll) -> None:
        super().__init__(rogue.identity, rogue.genesis.game_id, rogue.seat, rogue.chain,
                         rogue.peek_chain, rogue.engine)
        self.rogue = rogue

    def duties(self, replica: Replica, points: list[Point]) -> list[Envelope]:
        if self.rogue.armed() and any(p.k is not None for p in points):
            self.rogue.silent = True
        if self.rogue.silent:
            return []
        return super().duties(replica, points)


class Garbage(Rogue):
    """Sends random bytes, cut frames and altered copies between its valid frames."""

    name = "garbage"
    expect = "harmless"

    def outgoing(self, events: list[Event]) -> list[Event]:
        if not self.armed():
            return events
        rng = self._rng()
        out: list[Event] = []
        for ev in events:
            out.append(ev)
            if not isinstance(ev, Send):
                continue
            junk = [rng.randbytes(rng.randrange(1, 300)),
                    ev.frame[4 : rng.randrange(5, len(ev.frame))],
                    _flip(ev.frame[4:], rng),
                    b"\x93\xa4sync" + rng.randbytes(20)]
            out += [Send(codec.frame(j), ev.to) for j in junk]
        return out


def _flip(data: bytes, rng: random.Random) -> bytes:
    b = bytearray(data)
    i = rng.randrange(len(b))
    b[i] ^= 1 << rng.randrange(8)
    return bytes(b)


BEHAVIOURS: Sequence[type[Rogue]] = (
    PartialWithholder, SplitMoves, SplitAcks, OldFork, FarAhead, ReplayFlood, EjectSpam,
    TwoAliveVote, SyncAbuser, BigChat, SilentMidRoll, Garbage,
)
"""Every behaviour the maverick runs play."""
