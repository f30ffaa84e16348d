"""The sans-IO peer protocol: one object per local seat, fed frames, returning events and frames.

Theory of operation
-------------------
A :class:`PeerProtocol` owns a :class:`~kotp2p.net.replica.replica.Replica` and this seat's secrets (key,
chain). It never touches a socket or a clock: the caller hands it each received frame payload
(:meth:`receive`), this seat's decisions (:meth:`submit`) and the news that a deadline passed
(:meth:`soft_timeout`, :meth:`hard_timeout`); every call returns a list of events, among them
:class:`Send` (bytes for the caller to deliver) and :class:`Logged` (bytes for the ``.kotlog``).

The protocol holds three member objects, each with its own theory of operation: a
:class:`~kotp2p.net.peer.signer.Signer` seals every envelope this seat signs, a
:class:`~kotp2p.net.peer.stalls.StallKeeper` decides what to sign when the game waits, and
:class:`~kotp2p.net.peer.sync.SyncAnswers` handles the catch-up between peers. Each is handed
the replica on every call, as the protocol may replace it. This module holds the rest: the
intake of envelopes, their forwarding, what follows each change, the log.

* A received envelope is checked (length, signature over the received bytes, fields) before
  anything else: the frame is split by offsets and nothing is unpacked before its signature
  checked (a ``sync`` request, a few capped bytes, is the one exception). A frame that fails is
  a :class:`Rejected` event, never an exception; a signed envelope whose payload breaks its
  kind's schema (:mod:`kotp2p.net.wire.schema`) is its author's :class:`Misbehaviour`. An exception
  from the engine other than its refusal of an action is a bug here and propagates.
* Envelopes are de-duplicated by id (a known body costs a hash, no signature check). Every
  first-seen envelope of another author is forwarded once to every seat but those known to
  hold it: its sender, its author, the seats that sent the same frame too (the caller's
  ``holders``) and the seats whose signed envelopes built on it (``head``: they applied it), so an
  equivocation of any kind (two MOVEs, ACKs, votes or chats under one seq) reaches every honest
  seat within one hop, and honest seats take the same branch. Knowing that a seat holds one
  envelope says nothing of a rival one under the same seq, which still goes to it. The
  forwarded copy goes before this seat's own envelopes of the same call, so on every link an
  envelope never arrives before one it builds on.
* Memory and bandwidth are bounded in bytes: an author's envelopes held ahead of its read
  position (:data:`MAX_AHEAD_BYTES`), nothing stored from a convicted seat past its proof, sync
  answers capped per request and per peer between two soft deadlines (:mod:`kotp2p.net.peer.sync`).
* After each change the protocol looks at what the replica reached and does this seat's part: an
  ACK for a MOVE it applied, its chain value for each random event it reaches (a MOVE that triggers
  an event carries its author's value itself; what this seat signs is in
  :mod:`kotp2p.net.peer.signer`). The next MOVE is consumed only once every live seat acknowledged
  the last one, and :attr:`my_turn` waits for that too: all replicas agree on the state hash
  before the game goes on, and a vote to eject can never cross a MOVE.
* :class:`Logged` events come in the canonical order of :meth:`Replica.close_blocks`, so honest
  replicas write byte-identical logs; :class:`Flush` follows each step.
* A private random event (a peek) is learnt by its owner from its peek chain; the others record it
  hidden. Its content becomes public with the owner's MOVE that needs it, or with an OPEN when
  the game ends (:mod:`kotp2p.net.peer.signer`, the contract in :mod:`kotp2p.net.replica.peeks`).
* A violation by a peer is a :class:`Misbehaviour` event; that seat is ignored from then on, and
  once the game waits on it this seat votes to eject it (so honest seats keep playing). Its
  proofs are in :attr:`Replica.log_order` at once (``proofs``), for the session to journal.
* When the game waits, :meth:`soft_timeout` sends a STALL naming who we wait for and asks peers
  for every hole (``["sync", author, seq]``, link level, not logged: :mod:`kotp2p.net.peer.sync`);
  :meth:`hard_timeout` votes EJECT for the seats the game waits on (:mod:`kotp2p.net.peer.stalls`).

Test peers that cheat use a public seam, never the internals. Such a peer subclasses
:class:`PeerProtocol` and overrides :meth:`PeerProtocol.make_signer` to hand the protocol a
subclass of :class:`~kotp2p.net.peer.signer.Signer` that signs what an honest seat would not. It
may override public methods such as :meth:`submit`, :attr:`my_turn` or :meth:`receive` to
change what it does or returns. It sends an envelope of its own making with :meth:`publish`, sealed
by its signer, or by :meth:`StallKeeper.sign_vote` for a vote the rules do not allow.
``tests/net/test_net_seam.py`` checks that no test reaches past this seam.

Errors split like h11's: :class:`~kotp2p.net.wire.errors.LocalProtocolError` when the caller misuses
the object (a move out of turn), peer faults only as events.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from kotp2p.net.peer.peer_events import (
    Applied,
    Event,
    Finished,
    Flush,
    Logged,
    Misbehaviour,
    Rejected,
    Rolled,
    Send,
)
from kotp2p.net.peer.signer import Signer
from kotp2p.net.peer.stalls import StallKeeper
from kotp2p.net.peer.sync import (
    MAX_SYNC_ANSWER,
    MAX_SYNC_BATCH,
    MAX_SYNC_SIZE,
    SYNC,
    SYNC_BUDGET,
    SYNC_PREFIX,
    SyncAnswers,
    is_sync_request,
)
from kotp2p.net.replica import Entry, Point, Replica, describe_entry
from kotp2p.net.trust import PEEK_TAG, GameEngine, Genesis, SecretChain, SlotDeck, Turn
from kotp2p.net.wire import (
    Envelope,
    Identity,
    Kind,
    LocalProtocolError,
    RemoteProtocolError,
    Value,
    envelope_id,
    open_envelope,
    open_split,
    split_frame,
)

__all__ = [
    "MAX_AHEAD", "MAX_AHEAD_BYTES", "MAX_SYNC_ANSWER", "MAX_SYNC_BATCH", "MAX_SYNC_SIZE",
    "SYNC", "SYNC_BUDGET", "Applied", "Event", "Finished", "Flush", "Logged", "Misbehaviour",
    "PeerProtocol", "Rejected", "Rolled", "Send", "is_sync_request",
]

_SPLIT_KEPT = 16
"""Frames :meth:`PeerProtocol.is_copy` keeps split and hashed for :meth:`PeerProtocol.receive`."""
MAX_AHEAD = 4096
"""Envelopes further ahead of an author's read position are refused (bounded memory)."""
MAX_AHEAD_BYTES = 1 << 20
"""Bytes of one author's envelopes held ahead of its read position; beyond, they are refused
(the one envelope the reader needs next is always taken)."""


class PeerProtocol:
    """The protocol state machine of one local seat."""

    def __init__(
        self,
        genesis: Genesis,
        seat: int,
        identity: Identity,
        chain_secret: bytes,
        engine: GameEngine,
        *,
        slots: SlotDeck | None = None,
    ) -> None:
        if genesis.seats[seat].public_key != identity.public_key:
            raise LocalProtocolError(f"seat {seat} of this genesis is not this identity's")
        self.genesis = genesis
        self.seat = seat
        self.others = tuple(i for i in range(genesis.n) if i != seat)
        """Every seat but this one."""
        self._split: dict[bytes, tuple[bytes, bytes, bytes]] = {}
        """Frame payloads :meth:`is_copy` found new -> their (body, sig, id), for
        :meth:`receive` (each frame is split and hashed once)."""
        self._forward_to: dict[tuple[int | None, int], tuple[int, ...]] = {}
        """(sender, author) -> the seats a new envelope goes on to when no other seat is known
        to hold it."""
        self.identity = identity
        self.chain = SecretChain(chain_secret, seat, length=genesis.chain_length)
        if self.chain.anchor(0) != genesis.seats[seat].anchor:
            raise LocalProtocolError("the chain secret does not match this seat's genesis anchor")
        self.peek_chain = SecretChain(chain_secret, seat, tag=PEEK_TAG,
                                      length=genesis.chain_length)
        if self.peek_chain.anchor(0) != genesis.seats[seat].peek_anchor:
            raise LocalProtocolError("the chain secret does not match this seat's peek anchor")
        self.slots = slots
        self.replica = Replica(genesis, engine, local_seat=seat, peek_chain=self.peek_chain)
        self.engine = engine
        self.signer = self.make_signer()
        """Seals every envelope this seat signs."""
        self.stalls = StallKeeper(seat, self.signer)
        """Decides and signs this seat's STALLs and votes to eject."""
        self.sync = SyncAnswers(seat, genesis.n, self.others)
        """This seat's ``sync`` requests and answers."""
        self._reported: set[int] = set()
        self._finished = False
        self._started = False
        self._rolled = 0
        self._moved = -1  # the step of the last MOVE this seat signed
        self._logged: set[bytes] = set()

    def make_signer(self) -> Signer:
        """The signer of this seat, made once by the constructor from its public fields.

        This is the seam for test peers that cheat: such a peer overrides this method to return
        a subclass of :class:`Signer` whose public methods sign what an honest seat would not.
        """
        return Signer(self.identity, self.genesis.game_id, self.seat, self.chain,
                      self.peek_chain, self.engine)

    # -- queries --------------------------------------------------------------------------------

    @property
    def state(self) -> object:
        """The current engine state."""
        return self.replica.state

    @property
    def started(self) -> bool:
        """Play began: :meth:`start` or :meth:`restore` was called."""
        return self._started

    @property
    def is_over(self) -> bool:
        """The game has ended."""
        return self.replica.is_over

    @property
    def my_turn(self) -> bool:
        """This seat must decide now (call :meth:`submit`): its decision is pending and every
        live seat acknowledged the last move (so a vote to eject can never cross this MOVE)."""
        p = self.replica.point.pending
        return (isinstance(p, Turn) and p.seat == self.seat and self._started
                and self._moved != self.replica.step + 1 and not self.replica.owed_acks())

    def waiting_for(self) -> tuple[int, ...]:
        """The seats the game waits on."""
        return self.replica.waiting_for()

    # -- inputs ---------------------------------------------------------------------------------

    def start(self) -> list[Event]:
        """Begin play (after the genesis is signed): reveal for the first random event(s)."""
        if self._started:
            raise LocalProtocolError("start() was already called")
        self._started = True
        out: list[Event] = [Logged(self.genesis.frame()), Flush()]
        out += self._react([], self.replica.entries[0].points)
        return out

    def restore(self, logged: Sequence[bytes], journal: Sequence[bytes] = ()) -> list[Event]:
        """Rebuild this seat after a restart, then begin play where it stopped.

        ``logged`` are the envelope payloads of this seat's ``.kotlog`` (genesis excluded): they
        count as written. ``journal`` are payloads of envelopes this seat signed that may not be
        in the log yet: with them the seat never signs a second, different envelope for a
        sequence number a peer may already hold; and the proofs of the violations it found
        (the log gets them only at the end): with them it finds each violation again. What
        the game needs from this seat at the point it reached is done again (a lost ACK or
        reveal); envelopes of others that were not logged come back through ``sync``
        (:meth:`soft_timeout`). Until its replica is back at the step of the last envelope it
        signed, it casts no vote: it had gone past those points.

        :raises LocalProtocolError: called after :meth:`start` or :meth:`restore`.
        """
        if self._started:
            raise LocalProtocolError("restore() must come before play begins")
        out: list[Event] = []
        logged_ids: set[bytes] = set()
        for i, payload in enumerate((*logged, *journal)):
            try:
                env = open_envelope(payload, self.genesis.game_id, self.genesis.keys)
            except RemoteProtocolError as exc:
                out.append(Rejected(None, f"while restoring: {exc.reason}"))
                continue
            if i < len(logged):
                logged_ids.add(env.id)
            self.replica.add(env)
        entries, points = self.replica.advance()
        if self.replica.needs_rebuild:
            self.replica = self.replica.rebuilt()
            entries = self.replica.entries[1:]
            points = [p for e in self.replica.entries for p in e.points]
        r = self.replica
        self._logged.update(logged_ids)
        self.stalls.restored_at = r.top_step(self.seat)
        mine = r.streams[self.seat]
        for seq in sorted(mine):
            env = mine[seq]
            self.signer.resume(env)
            self.stalls.recall(env)
            if env.kind is Kind.MOVE:
                self._moved = max(self._moved, env.step)
        out += self._report(entries, points)
        self._started = True
        out += [Logged(self.genesis.frame()), Flush()]
        out += self._react([], [r.point])
        return out

    def receive(self, payload: bytes, sender: int | None = None,
                holders: Collection[int] = ()) -> list[Event]:
        """Handle one received frame payload (the bytes after the length prefix) from ``sender``.

        ``holders`` are other seats that sent this very frame too (the caller dropped their
        copies): like the sender, they are known to hold it, and it is not forwarded to them.

        Never raises for bad input: a bad frame gives a :class:`Rejected` event; a signed
        envelope that breaks a rule gives a :class:`Misbehaviour` naming its author. Nothing is
        unpacked before the signature checked, except a ``sync`` request (a few bytes, capped).
        """
        if payload.startswith(SYNC_PREFIX):  # (is_sync_request, inline: every frame asks)
            return self.sync.answer(self.replica, payload, sender)
        try:
            known = (self._split.pop(payload, None) if self._split and type(payload) is bytes
                     else None)
            if known is None:
                body, sig = split_frame(payload)
                env_id = envelope_id(body)
            else:
                body, sig, env_id = known  # (is_copy split and hashed these very bytes)
            if env_id in self.replica.by_id:
                return []  # a copy of a known envelope: no signature check (replay floods)
            env = open_split(payload, body, sig, self.genesis.game_id, self.genesis.keys,
                             env_id)
        except RemoteProtocolError as exc:
            return [Rejected(sender, exc.reason)]
        return self._take(env, sender, holders)

    def receive_verified(self, env: Envelope, sender: int | None = None) -> list[Event]:
        """As :meth:`receive`, for an envelope another seat of this process signed or already
        checked (``env.frame`` are the bytes it checked): its signature is not checked again.
        Only for envelopes from this process's own replicas, never for bytes off a link.

        :raises LocalProtocolError: the envelope is of another game.
        """
        if env.game_id != self.genesis.game_id:
            raise LocalProtocolError(f"{env.describe()} is of another game")
        if env.id in self.replica.by_id:
            return []
        return self._take(env, sender, ())

    def _take(self, env: Envelope, sender: int | None, holders: Collection[int]
              ) -> list[Event]:
        """Store a checked envelope new to this seat, within the bounds, and act on it."""
        r = self.replica
        if env.id in r.by_id:
            return []
        cut = r.cut.get(env.author)
        held = r.streams[env.author].get(env.seq)
        if cut is not None and (env.seq >= cut or held is not None) and (
                held is None or env.author in r.fork_base):  # (else: a fork, the first proof)
            # a convicted seat: nothing more of it is stored than its proof and what the game
            # may still use (Replica.take_spare)
            if not r.take_spare(env):
                return []
            return self._accept(env, forward_from=sender, stored=True, holders=holders)
        if env.seq > r.cursor[env.author] + MAX_AHEAD:
            return [Rejected(sender, f"envelope #{env.seq} of seat {env.author} is more than "
                             f"{MAX_AHEAD} ahead of what this seat has read")]
        if (env.seq != r.cursor[env.author]
                and r.unread_bytes[env.author] + len(env.frame) - 4 > MAX_AHEAD_BYTES):
            return [Rejected(sender, f"envelope #{env.seq} of seat {env.author}: at most "
                             f"{MAX_AHEAD_BYTES} bytes of a seat's envelopes are held ahead of "
                             "what this seat has read")]
        return self._accept(env, forward_from=sender, holders=holders)

    def is_copy(self, payload: bytes) -> bool:
        """``payload`` is an envelope this seat holds already (:meth:`receive` would return
        nothing for it): a hash and a lookup, nothing decoded, nothing checked."""
        try:
            body, sig = split_frame(payload)
        except RemoteProtocolError:
            return False
        env_id = envelope_id(body)
        if env_id in self.replica.by_id:
            return True
        # the transport hands a frame that is no copy to receive next: kept for it (a few, of
        # at most MAX_BODY bytes each: split_frame refused any bigger)
        if type(payload) is bytes:
            if len(self._split) >= _SPLIT_KEPT:
                del self._split[next(iter(self._split))]
            self._split[payload] = (body, sig, env_id)
        return False

    def submit(self, action: Value) -> list[Event]:
        """Sign and send this seat's decision (the action in the engine's wire form).

        :raises LocalProtocolError: not this seat's turn, or the action is illegal.
        """
        if not self.my_turn:
            raise LocalProtocolError(f"seat {self.seat} has no decision pending")
        r = self.replica
        try:
            after = self.engine.apply_move(r.state, action)
        except ValueError as exc:
            raise LocalProtocolError(f"illegal action {action!r}: {exc}") from None
        first = r.first_point(after, r.step + 1)
        env = self.signer.move(r, action, first)
        self._moved = r.step + 1
        r.own_move = (env.id, r.state, first)  # what applying it gives: not worked out twice
        return self.publish(env)

    def chat(self, text: str) -> list[Event]:
        """Send a chat line (signed and logged like everything else)."""
        r = self.replica
        return self.publish(self.signer.seal(Kind.CHAT, r.step, r.head, [text[:500]]))

    def open_slot(self, index: int) -> list[Event]:
        """Open one of this seat's committed private slots."""
        if self.slots is None:
            raise LocalProtocolError("this seat has no private slots")
        i, salt, content = self.slots.opening(index)
        r = self.replica
        return self.publish(self.signer.seal(Kind.OPEN, r.step, r.head, ["slot", i, salt,
                                                                          content]))

    def open_peek(self, k: int) -> list[Event]:
        """Open this seat's private random event ``k`` (once it may become public): the peek
        chain value that lets every replica check and learn it."""
        r = self.replica
        priv = r.private.get(k)
        if priv is None or priv.owner != self.seat:
            raise LocalProtocolError(f"event {k} is not a private event of seat {self.seat}")
        if k not in r.unopened(self.seat):
            return []
        return self.publish(self.signer.seal(Kind.OPEN, r.step, r.head,
                                             self.signer.peek_opening(r, k)))

    def publish(self, env: Envelope) -> list[Event]:
        """Send ``env``, an envelope this seat's signer sealed, to every other seat and take it
        in here.

        The protocol publishes everything it signs this way. A test peer that cheats calls it
        for an envelope it had its signer seal on its own.
        """
        return [Send(env.frame, self.others), *self._accept(env, forward_from=self.seat)]

    def soft_timeout(self) -> list[Event]:
        """A soft deadline passed: say who we wait for and where, send again the proof of each
        conviction, and ask peers to resend whatever we miss.

        The STALL goes once per state of the game and seat named, none once the game is over
        (:meth:`StallKeeper.stall`). The proofs go again because a forwarded copy may have been
        lost: a peer that never sees the other branch of a split ACK stays on it and votes out
        who does.
        """
        r = self.replica
        out: list[Event] = [Send(e.frame, self.others)
                            for v in r.convicted.values() for e in v.evidence]
        self.sync.refill()
        stall = self.stalls.stall(r)
        if stall is not None:
            out += self.publish(stall)
        return out + self.sync_requests()

    def hard_timeout(self) -> list[Event]:
        """A hard deadline passed: vote to eject every seat holding the game up."""
        out: list[Event] = []
        for target in self.blocking():
            if target != self.seat:
                out += self._vote(target)
        return out

    def blocking(self) -> tuple[int, ...]:
        """The seats holding the game up: those owing an ACK, else those whose MOVE or value
        is due."""
        return self.stalls.blocking(self.replica)

    def sync_requests(self) -> list[Event]:
        """Ask every other seat to resend each author's envelopes this seat has not read yet
        (after a restart, or when a link comes back)."""
        return self.sync.requests(self.replica)

    # -- internals ------------------------------------------------------------------------------

    def _accept(self, env: Envelope, forward_from: int | None, stored: bool = False,
                holders: Collection[int] = ()) -> list[Event]:
        forward: list[Event] = []
        if env.author != self.seat:  # every first-seen envelope goes on once (equivocation)
            # to every seat but those known to hold it: its sender, its author, the seats that
            # sent it too, and each seat whose signed envelope built on it (it applied it)
            built_on = self.replica.built_on.get(env.id, ())
            if holders or built_on:
                to = tuple(i for i in self.others
                           if i != forward_from and i != env.author and i not in holders
                           and i not in built_on)
            else:  # (the common case: the same seats for every envelope of this author)
                key = (forward_from, env.author)
                known = self._forward_to.get(key)
                if known is None:
                    known = self._forward_to[key] = tuple(
                        i for i in self.others if i != forward_from and i != env.author)
                to = known
            if to:
                forward.append(Send(env.frame, to, forwarded=True))
        if not stored:
            self.replica.add(env)
        entries, points = self.replica.advance()
        if self.replica.needs_rebuild:
            return forward + self._rebuild()
        return forward + self._react(entries, points)

    def _vote(self, target: int) -> list[Event]:
        """Vote to eject ``target`` at the point the game waits at, unless this seat may not."""
        env = self.stalls.vote(self.replica, target)
        return [] if env is None else self.publish(env)

    def _ejections(self) -> list[Event]:
        """Vote to eject a convicted seat once the game waits on it."""
        if not self.replica.cut:
            return []  # no seat convicted: nobody to vote out
        out: list[Event] = []
        for target in self.blocking():
            # each vote is taken in at once and may change the replica: read it again
            if target in self.replica.cut and target != self.seat:
                out += self._vote(target)
        return out

    def _rebuild(self) -> list[Event]:
        """After a fork this replica had used: replay everything without the forked branch."""
        old = self.replica
        out: list[Event] = self._report([], [])
        self.replica = old.rebuilt()
        self._reported.update(self.replica.convicted)
        self._rolled = len(self.replica.resolved)
        self._moved = -1
        points = [p for e in self.replica.entries for p in e.points]
        return out + self._react([], points)

    def _react(self, entries: list[Entry], points: list[Point]) -> list[Event]:
        """Report what happened and do this seat's part at each point reached."""
        out: list[Event] = []
        r = self.replica
        while True:
            out += self._report(entries, points)
            mine = self.signer.duties(r, points) if self._started else []
            if not mine:
                break
            for env in mine:
                out.append(Send(env.frame, self.others))
                r.add(env)
            entries, points = r.advance()
        out += self._ejections()
        if not self._finished and r.is_over:
            self._finished = True
            for k in r.owed_openings(self.seat):  # at the end every private event is opened
                out += self.open_peek(k)
            winners = tuple(self.engine.winners(r.state))
            if r.point.alive[self.seat]:
                bye = self.signer.seal(Kind.BYE, r.step, r.head, [list(winners)])
                out.append(Send(bye.frame, self.others))
                r.add(bye)
                r.advance()
            out.append(Finished(winners, r.forfeit))
        written = self._unlogged(r.close_blocks())
        if written:
            out += [Logged(e.frame) for e in written]
            out.append(Flush())
        return out

    def close(self) -> list[Event]:
        """Stop here: flush the log. A finished game's last envelopes are logged now; an
        unfinished game's step still open is not (it would break the canonical order when the
        game resumes: its envelopes come back from the journal and from the peers' ``sync``,
        and are logged, in order, once the step closes)."""
        if not self.replica.is_over:
            return [Flush()]
        written = self._unlogged(self.replica.drain())
        return [*(Logged(e.frame) for e in written), Flush()]

    def _unlogged(self, envs: list[Envelope]) -> list[Envelope]:
        """``envs`` not written yet, each once (and mark them written)."""
        out = []
        for e in envs:
            if e.id not in self._logged:
                self._logged.add(e.id)
                out.append(e)
        return out

    def _report(self, entries: list[Entry], points: list[Point]) -> list[Event]:
        out: list[Event] = []
        for v in self.replica.violations:
            if v.seat not in self._reported:
                self._reported.add(v.seat)
                out.append(Misbehaviour(v))
        for e in entries:
            desc = describe_entry(self.engine, self.genesis, e)
            out.append(Applied(e.step, e.kind, e.seat, desc))
        resolved = self.replica.resolved
        if len(resolved) > self._rolled:
            out += [Rolled(x.k, x.values) for x in resolved[self._rolled :]]
        self._rolled = len(resolved)
        return out
