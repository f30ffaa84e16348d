"""The sans-IO peer protocol: one object per local seat, fed frames, returning events and frames.

Theory of operation
-------------------
A :class:`PeerProtocol` owns a :class:`~kotp2p.net.replica.replica.Replica` and this seat's
secrets: its key and its chain. It never touches a socket or a clock. The caller hands it each
received frame payload through :meth:`receive`. It hands it this seat's decisions through
:meth:`submit`. It tells it that a deadline passed through :meth:`soft_timeout` and
:meth:`hard_timeout`. Every call returns a list of events. Among them are :class:`Send`, bytes
for the caller to deliver, and :class:`Logged`, bytes for the ``.kotlog``.

The protocol holds three member objects, each with its own theory of operation.

* A :class:`~kotp2p.net.peer.signer.Signer` seals every envelope this seat signs.
* A :class:`~kotp2p.net.peer.stalls.StallKeeper` decides what to sign when the game waits.
* :class:`~kotp2p.net.peer.sync.SyncAnswers` handles the catch-up between peers.
* After a restart, a :class:`~kotp2p.net.peer.catchup.CatchUp` holds the seat until its remote
  peers said what they hold of its own stream. Until then it signs nothing.

Each is handed the replica on every call, as the protocol may replace it. This module holds the
rest: the intake of envelopes, their forwarding, what follows each change, and the log.

* A received envelope is checked before anything else: its length, its signature over the
  received bytes, and its fields. The frame is split by offsets. Nothing is unpacked before its
  signature is checked. A ``sync`` request, a few capped bytes, is the one exception.
* A frame that fails is a :class:`Rejected` event, never an exception. A signed envelope may
  break its kind's schema in :mod:`kotp2p.net.wire.schema`. That is its author's
  :class:`Misbehaviour`. An exception from the engine other than its refusal of an action is a
  bug here and propagates.
* Envelopes are de-duplicated by id. A known body costs a hash, no signature check.
* Every first-seen envelope of another author is forwarded once to every seat but those known to
  hold it. Those are its sender, its author, and the seats that sent the same frame too; the
  caller passes them as ``holders``. They are also the seats whose signed envelopes built on it
  through ``head``, since they applied it. So an equivocation of any kind reaches every honest
  seat within one hop, and honest seats take the same branch. An equivocation may be two MOVEs,
  ACKs, votes or chats under one seq.
* Knowing that a seat holds one envelope says nothing of a rival one under the same seq. That
  rival still goes to it. The forwarded copy goes before this seat's own envelopes of the same
  call. So on every link an envelope never arrives before one it builds on.
* Memory and bandwidth are bounded in bytes. An author's envelopes held ahead of its read
  position are bounded by :data:`MAX_AHEAD_BYTES`. Nothing is stored from a convicted seat past
  its proof. Sync answers are capped per request, and per peer between two soft deadlines; see
  :mod:`kotp2p.net.peer.sync`.
* After each change the protocol looks at what the replica reached and does this seat's part. It
  signs an ACK for a MOVE it applied. It signs its chain value for each random event it reaches.
  A MOVE that triggers an event carries its author's value itself. What this seat signs is in
  :mod:`kotp2p.net.peer.signer`.
* The next MOVE is consumed only once every live seat acknowledged the last one. :attr:`my_turn`
  waits for that too. So all replicas agree on the state hash before the game goes on. And a
  vote to eject can never cross a MOVE.
* :class:`Logged` events come in the canonical order of :meth:`Replica.close_blocks`. So honest
  replicas write byte-identical logs. :class:`Flush` follows each step.
* Frames that come from their author itself, not relayed, are counted. A seat forwards what it
  saw first before anything it signs later, on the same link. So once a seat's own envelope came,
  every fork that seat saw before is known here. A copy relayed by a third seat could overtake
  those forwards. This matters at the end, below.
* At the end a live seat signs its BYE once it holds an ACK of the last MOVE from every seat
  owing one, and each other seat sent it, itself, the last envelope it read of that seat. The
  last block waits for each live seat's BYE from that seat itself. A seat whose monster died
  says a farewell, a BYE with no result, as soon as it sees it; blocks wait for it too.
* A process that plays several seats sends their frames on one link, so they seem relayed. Such
  a seat is never heard from itself, and nothing waits on it. A seat whose link broke, or that
  left, sends nothing more. So the session stops waiting after
  :data:`~kotp2p.net.session.session.SETTLE` seconds; see :meth:`PeerProtocol.end_wait_passed`.
* A private random event is a peek. Its owner learns it from its peek chain; the others record
  it hidden. Its content becomes public with the owner's MOVE that needs it, or with an OPEN when
  the game ends. :mod:`kotp2p.net.peer.signer` signs those. The contract is in
  :mod:`kotp2p.net.replica.peeks`.
* A violation by a peer is a :class:`Misbehaviour` event. That seat is ignored from then on.
  Once the game waits on it, this seat votes to eject it, so honest seats keep playing. Its
  proofs are in :attr:`Replica.log_order` at once, as ``proofs``, for the session to journal.
* When the game waits, :meth:`soft_timeout` sends a STALL naming who we wait for. It also asks
  peers for every hole with ``["sync", author, seq]``. That request is link level and not
  logged; see :mod:`kotp2p.net.peer.sync`. :meth:`hard_timeout` votes EJECT for the seats the
  game waits on; see :mod:`kotp2p.net.peer.stalls`.

Test peers that cheat use a public seam, never the internals. Such a peer subclasses
:class:`PeerProtocol`. It overrides :meth:`PeerProtocol.make_signer` to hand the protocol a
subclass of :class:`~kotp2p.net.peer.signer.Signer` that signs what an honest seat would not. It
may override public methods such as :meth:`submit`, :attr:`my_turn` or :meth:`receive` to change
what it does or returns. It sends an envelope of its own making with :meth:`publish`. Its signer
seals that envelope. For a vote the rules do not allow, :meth:`StallKeeper.sign_vote` seals it.
``tests/net/test_net_seam.py`` checks that no test reaches past this seam.

Errors split like h11's. :class:`~kotp2p.net.wire.errors.LocalProtocolError` is raised when the
caller misuses the object, such as a move out of turn. Peer faults come only as events.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from kotp2p.net.peer.catchup import CatchUp
from kotp2p.net.peer.peer_events import (
    Applied,
    Event,
    Finished,
    Flush,
    Logged,
    Misbehaviour,
    Polled,
    Rejected,
    Rolled,
    Send,
)
from kotp2p.net.peer.signer import Signer
from kotp2p.net.peer.stalls import StallKeeper
from kotp2p.net.peer.sync import (
    HELD_PREFIX,
    MAX_SYNC_ANSWER,
    MAX_SYNC_BATCH,
    MAX_SYNC_SIZE,
    SYNC,
    SYNC_BUDGET,
    SYNC_PREFIX,
    SyncAnswers,
    is_sync_request,
)
from kotp2p.net.replica import Entry, Point, Replica, Violation, deck_secret, describe_entry
from kotp2p.net.trust import PEEK_TAG, GameEngine, Genesis, Poll, SecretChain, SlotDeck, Turn
from kotp2p.net.wire import (
    Envelope,
    Identity,
    Kind,
    LocalProtocolError,
    RemoteProtocolError,
    Value,
    Why,
    envelope_id,
    open_envelope,
    open_split,
    split_frame,
)

__all__ = [
    "MAX_AHEAD", "MAX_AHEAD_BYTES", "MAX_SYNC_ANSWER", "MAX_SYNC_BATCH", "MAX_SYNC_SIZE",
    "SYNC", "SYNC_BUDGET", "Applied", "Event", "Finished", "Flush", "Logged", "Misbehaviour",
    "PeerProtocol", "Polled", "Rejected", "Rolled", "Send", "is_sync_request",
]

_SPLIT_KEPT = 16
"""Frames :meth:`PeerProtocol.is_copy` keeps split and hashed for :meth:`PeerProtocol.receive`."""
MAX_AHEAD = 4096
"""Envelopes further ahead of an author's read position are refused. It bounds memory."""
MAX_AHEAD_BYTES = 1 << 20
"""Bytes of one author's envelopes held ahead of its read position. Beyond, they are refused.

The one envelope the reader needs next is always taken."""


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
        """Frame payloads :meth:`is_copy` found new -> their ``(body, sig, id)``.

        :meth:`receive` reads them, so each frame is split and hashed once."""
        self._forward_to: dict[tuple[int | None, int], tuple[int, ...]] = {}
        """``(sender, author)`` -> the seats a new envelope goes on to when no other seat is known
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
        self.replica = Replica(genesis, engine, local_seat=seat, peek_chain=self.peek_chain,
                               deck_secret=deck_secret(chain_secret, genesis.game_id))
        self.engine = engine
        self.signer = self.make_signer()
        """Seals every envelope this seat signs."""
        self.stalls = StallKeeper(seat, self.signer)
        """Decides and signs this seat's STALLs and votes to eject."""
        self.sync = SyncAnswers(seat, genesis.n, self.others)
        """This seat's ``sync`` requests and answers."""
        self._reported: dict[int, Violation] = {}
        """Seat -> the conviction reported in a :class:`Misbehaviour` event."""
        self._finished = False
        self._direct = [-1] * genesis.n
        """Each seat's highest seq among its envelopes that came from itself, not relayed."""
        self._end_waited = False
        """The session's wait at the end passed; see :meth:`end_wait_passed`."""
        self._bye_at: tuple[int, bytes] | None = None
        """The step and head of the last BYE this seat signed: one per point it ends at."""
        self._started = False
        self._rolled = 0
        self._polled = 0
        self._moved = -1  # the step of the last MOVE this seat signed
        self._logged: set[bytes] = set()
        self.catch_up: CatchUp | None = None
        """After :meth:`restore` with peers to ask: who still has to say what this seat signed."""
        self._went_on = False
        self._slots_opened: set[int] = set()
        self._view: tuple[Point, object] | None = None
        """The poll point asking this seat, and the state this seat answers it in."""
        self._answered_at: tuple[int, int] | None = None
        """The point of the last poll this seat signed an answer at."""
        """Slots of this seat's hidden deck it signed an OPEN for."""

    def make_signer(self) -> Signer:
        """The signer of this seat, made once by the constructor from its public fields.

        This is the seam for test peers that cheat. Such a peer overrides this method to return
        a subclass of :class:`Signer` whose public methods sign what an honest seat would not.
        """
        return Signer(self.identity, self.genesis.game_id, self.seat, self.chain,
                      self.peek_chain, self.engine)

    # -- queries --------------------------------------------------------------------------------

    @property
    def state(self) -> object:
        """The current engine state; during a poll that asks this seat and that it has not
        answered yet, the state it answers in, its own question pending."""
        if not self._poll_asks():
            return self.replica.state
        p = self.replica.point
        if self._view is None or self._view[0] is not p:  # views and bots read it often
            self._view = (p, self.engine.poll_view(p.state, self.seat))
        return self._view[1]

    def _poll_asks(self) -> bool:
        """A poll is pending that asks this seat, and it has not answered it."""
        r = self.replica
        p = r.point
        return (isinstance(p.pending, Poll) and self.seat in p.pending.seats
                and p.alive[self.seat] and self._answered_at != (p.step, p.index)
                and not r.polls.answered(p, self.seat))

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
        """This seat must decide now, by calling :meth:`submit`.

        Its decision is pending and every live seat acknowledged the last move. So a vote to
        eject can never cross this MOVE."""
        p = self.replica.point.pending
        if isinstance(p, Poll):
            return self._started and not self.holding and self._poll_asks()
        return (isinstance(p, Turn) and p.seat == self.seat and self._started
                and self._moved != self.replica.step + 1 and not self.replica.owed_acks()
                and not self.holding)

    @property
    def holding(self) -> bool:
        """Restarted, this seat waits for its peers to say what it signed before. It signs nothing.

        See :mod:`kotp2p.net.peer.catchup`."""
        return self.catch_up is not None and self.catch_up.holding

    def waiting_for(self) -> tuple[int, ...]:
        """The seats the game waits on."""
        return self.replica.waiting_for()

    # -- inputs ---------------------------------------------------------------------------------

    def start(self) -> list[Event]:
        """Begin play once the genesis is signed. Reveal for the first random events, if any."""
        if self._started:
            raise LocalProtocolError("start() was already called")
        self._started = True
        out: list[Event] = [Logged(self.genesis.frame()), Flush()]
        out += self._react([], self.replica.entries[0].points)
        return out

    def restore(self, logged: Sequence[bytes], journal: Sequence[bytes] = (),
                ask: Collection[int] = ()) -> list[Event]:
        """Rebuild this seat after a restart, then begin play where it stopped.

        ``logged`` are the envelope payloads of this seat's ``.kotlog``, without the genesis.
        They count as written.

        ``journal`` holds two kinds of payload that may not be in the log yet. First, the
        envelopes this seat signed. With them the seat never signs a second, different envelope
        for a sequence number a peer may already hold. Second, the proofs of the violations it
        found. The log gets them only at the end. With them the seat finds each violation again.

        What the game needs from this seat at the point it reached is done again, such as a lost
        ACK or reveal. Envelopes of others that were not logged come back through ``sync``; see
        :meth:`soft_timeout`. Until its replica is back at the step of the last envelope it
        signed, the seat casts no vote. It had gone past those points.

        ``ask`` are the remote seats to ask first what this seat signed before. Until each
        answered, the seat *holds* and signs nothing; see :mod:`kotp2p.net.peer.catchup`. Their
        requests come from :meth:`sync_requests`. Seats out of the game are not asked: they may
        have left it.

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
        self._logged.update(logged_ids)
        r = self.replica
        # Seats out of the game, eliminated, ejected or convicted, may have left it: not asked.
        ask = [s for s in ask if r.point.alive[s] and s not in r.cut]
        if ask:
            self.catch_up = CatchUp(self.seat, ask)
        out += self._report(entries, points)
        self._started = True
        out += [Logged(self.genesis.frame()), Flush()]
        if self.holding:
            return out + self._react([], [])
        return out + self._go_on()

    def _go_on(self) -> list[Event]:
        """Sign on after the highest envelope this seat holds of its own, restored or adopted.

        Do what the game needs from it at the point its replica reached."""
        r = self.replica
        self.stalls.restored_at = r.top_step(self.seat)
        mine = r.streams[self.seat]
        for seq in sorted(mine):
            env = mine[seq]
            self.signer.resume(env)
            self.stalls.recall(env)
            if env.kind is Kind.MOVE:
                self._moved = max(self._moved, env.step)
        return self._react([], [r.point])

    def stop_holding(self) -> tuple[int, ...]:
        """Go on with the answers of the peers that gave one, and name those that did not.

        Nothing happens, and the answer is empty, unless at least one peer answered. The session
        calls it once the hard deadline passed since the restart; see
        :meth:`CatchUp.give_up_on`. The events follow from :meth:`held_back`."""
        if not self.holding or self.catch_up is None:
            return ()
        return self.catch_up.give_up_on()

    def held_back(self) -> list[Event]:
        """What this seat signs once it stopped holding: what it had held back."""
        if self.holding or self.catch_up is None or self._went_on:
            return []
        self._went_on = True
        return self._go_on()

    def receive(self, payload: bytes, sender: int | None = None,
                holders: Collection[int] = ()) -> list[Event]:
        """Handle one received frame payload from ``sender``: the bytes after the length prefix.

        ``holders`` are other seats that sent this very frame too. The caller dropped their
        copies. Like the sender, they are known to hold it, and it is not forwarded to them.

        It never raises for bad input. A bad frame gives a :class:`Rejected` event. A signed
        envelope that breaks a rule gives a :class:`Misbehaviour` naming its author. Nothing is
        unpacked before the signature is checked, except a ``sync`` request. That is a few
        bytes, capped.
        """
        if payload.startswith(SYNC_PREFIX):  # is_sync_request, inline: every frame asks
            return self.sync.answer(self.replica, payload, sender)
        if payload.startswith(HELD_PREFIX):
            return self._held(payload, sender)
        try:
            known = (self._split.pop(payload, None) if self._split and type(payload) is bytes
                     else None)
            if known is None:
                body, sig = split_frame(payload)
                env_id = envelope_id(body)
            else:
                body, sig, env_id = known  # is_copy split and hashed these very bytes
            if env_id in self.replica.by_id:
                # A known envelope's copy gets no signature check: replay floods.
                return self._heard_again(self.replica.by_id[env_id], sender)
            env = open_split(payload, body, sig, self.genesis.game_id, self.genesis.keys,
                             env_id)
        except RemoteProtocolError as exc:
            return [Rejected(sender, exc.reason)]
        return self._take(env, sender, holders)

    def receive_verified(self, env: Envelope, sender: int | None = None) -> list[Event]:
        """As :meth:`receive`, for an envelope another seat of this process signed or checked.

        ``env.frame`` are the bytes it checked. Its signature is not checked again. This is only
        for envelopes from this process's own replicas, never for bytes off a link.

        :raises LocalProtocolError: the envelope is of another game.
        """
        if env.game_id != self.genesis.game_id:
            raise LocalProtocolError(f"{env.describe()} is of another game")
        if env.id in self.replica.by_id:
            return self._heard_again(self.replica.by_id[env.id], sender)
        return self._take(env, sender, ())

    def _heard_again(self, env: Envelope, sender: int | None) -> list[Event]:
        """A copy of ``env``, which this seat holds, came from ``sender``.

        It matters only once the game is over, and only from its author: it may let this
        seat's BYE go, or the last block close. See the module's theory."""
        if sender != env.author or env.seq <= self._direct[env.author]:
            return []
        self._direct[env.author] = env.seq
        return self._react([], []) if self.replica.is_over and self._started else []

    def _held(self, payload: bytes, sender: int | None) -> list[Event]:
        """A peer said where its copy of this seat's own stream ends: see
        :mod:`kotp2p.net.peer.catchup`."""
        if self.catch_up is None:
            return []
        out = self.catch_up.heard(self.replica, payload, sender)
        return out + self.held_back()

    def _take(self, env: Envelope, sender: int | None, holders: Collection[int]
              ) -> list[Event]:
        """Store a checked envelope new to this seat, within the bounds, and act on it."""
        r = self.replica
        if env.id in r.by_id:
            return []
        if sender == env.author and env.seq > self._direct[sender]:
            self._direct[sender] = env.seq
        cut = r.cut.get(env.author)
        held = r.streams[env.author].get(env.seq)
        if cut is not None and (env.seq >= cut or held is not None) and (
                held is None or env.author in r.fork_base):  # else a fork: the first proof
            # A convicted seat. Nothing more of it is stored than its proof and what the game
            # may still use; see Replica.take_spare.
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

    def is_copy(self, payload: bytes, sender: int | None = None) -> bool:
        """``payload`` is an envelope this seat holds already, and news of nothing.

        :meth:`receive` would return nothing for it from ``sender``. This costs a hash and a
        lookup. Nothing is decoded, nothing checked."""
        try:
            body, sig = split_frame(payload)
        except RemoteProtocolError:
            return False
        env_id = envelope_id(body)
        known = self.replica.by_id.get(env_id)
        if known is not None:
            # A copy from its author, after copies relayed, is news; see _heard_again.
            return sender != known.author or known.seq <= self._direct[known.author]
        # The transport hands a frame that is no copy to receive next, so it is kept for it.
        # Only a few are kept, of at most MAX_BODY bytes each; split_frame refused any bigger.
        if type(payload) is bytes:
            if len(self._split) >= _SPLIT_KEPT:
                del self._split[next(iter(self._split))]
            self._split[payload] = (body, sig, env_id)
        return False

    def submit(self, action: Value) -> list[Event]:
        """Sign and send this seat's decision, the action in the engine's wire form.

        :raises LocalProtocolError: not this seat's turn, or the action is illegal.
        """
        if not self.my_turn:
            raise LocalProtocolError(f"seat {self.seat} has no decision pending",
                                     Why.NOT_YOUR_DECISION)
        r = self.replica
        if isinstance(r.point.pending, Poll):  # an answer, signed at once, as every seat's is
            try:
                self.engine.apply_move(self.engine.poll_view(r.state, self.seat), action)
            except ValueError as exc:
                raise LocalProtocolError(f"illegal action {action!r}: {exc}", Why.ILLEGAL_MOVE
                                         ) from None
            self._answered_at = (r.point.step, r.point.index)
            return self.publish(self.signer.answer(r, action))
        try:
            after = self.engine.apply_move(r.state, action)
        except ValueError as exc:
            raise LocalProtocolError(f"illegal action {action!r}: {exc}", Why.ILLEGAL_MOVE
                                     ) from None
        first = r.first_point(after, r.step + 1)
        env = self.signer.move(r, action, first)
        self._moved = r.step + 1
        r.own_move = (env.id, r.state, first)  # what applying it gives, not worked out twice
        return self.publish(env)

    def chat(self, text: str) -> list[Event]:
        """Send a chat line. It is signed and logged like everything else.

        :raises LocalProtocolError: this seat holds after a restart; see :attr:`holding`.
        """
        self._not_holding()
        r = self.replica
        return self.publish(self.signer.seal(Kind.CHAT, r.step, r.head, [text[:500]]))

    def open_slot(self, index: int) -> list[Event]:
        """Open one of this seat's committed private slots."""
        if self.slots is None:
            raise LocalProtocolError("this seat has no private slots")
        self._not_holding()
        i, salt, content = self.slots.opening(index)
        r = self.replica
        return self.publish(self.signer.seal(Kind.OPEN, r.step, r.head, ["slot", i, salt,
                                                                          content]))

    def open_peek(self, k: int) -> list[Event]:
        """Open this seat's private random event ``k``, once it may become public.

        The opening is the peek chain value that lets every replica check and learn it."""
        r = self.replica
        priv = r.private.get(k)
        if priv is None or priv.owner != self.seat:
            raise LocalProtocolError(f"event {k} is not a private event of seat {self.seat}")
        if k not in r.unopened(self.seat):
            return []
        return self.publish(self.signer.seal(Kind.OPEN, r.step, r.head,
                                             self.signer.peek_opening(r, k)))

    def _not_holding(self) -> None:
        """:raises LocalProtocolError: this seat holds after a restart and signs nothing."""
        if self.holding:
            raise LocalProtocolError(f"seat {self.seat} is catching up after a restart: it signs "
                                     "nothing until its peers said what it signed before",
                                     Why.CATCHING_UP)

    def publish(self, env: Envelope) -> list[Event]:
        """Send ``env`` to every other seat and take it in here.

        This seat's signer sealed ``env``.

        The protocol publishes everything it signs this way. A test peer that cheats calls it
        for an envelope it had its signer seal on its own.
        """
        return [Send(env.frame, self.others), *self._accept(env, forward_from=self.seat)]

    def soft_timeout(self) -> list[Event]:
        """A soft deadline passed. Say who we wait for and where, and send again the proof of
        each conviction. Ask peers to resend whatever we miss.

        The STALL goes once per state of the game and seat named. None goes once the game is
        over; see :meth:`StallKeeper.stall`. The proofs go again because a forwarded copy may
        have been lost. A peer that never sees the other branch of a split ACK stays on it. It
        then votes out who does see it.
        """
        r = self.replica
        out: list[Event] = [Send(e.frame, self.others)
                            for v in r.convicted.values() for e in v.evidence]
        self.sync.refill()
        stall = None if self.holding else self.stalls.stall(r)
        if stall is not None:
            out += self.publish(stall)
        return out + self.sync_requests()

    def hard_timeout(self) -> list[Event]:
        """A hard deadline passed: vote to eject every seat holding the game up."""
        out: list[Event] = []
        if self.holding:
            return out  # it signs nothing before its peers said what it signed before
        for target in self.blocking():
            if target != self.seat:
                out += self._vote(target)
        return out

    def blocking(self) -> tuple[int, ...]:
        """The seats holding the game up.

        They are those owing an ACK. Else they are those whose MOVE or value is due."""
        return self.stalls.blocking(self.replica)

    def sync_requests(self) -> list[Event]:
        """Ask every other seat to resend each author's envelopes this seat has not read yet.

        This serves after a restart, or when a link comes back. While this seat holds after a
        restart, it also asks the peers that have not answered for its own envelopes."""
        out = self.sync.requests(self.replica)
        if self.holding and self.catch_up is not None:
            out += self.catch_up.requests(self.replica)
        return out

    # -- internals ------------------------------------------------------------------------------

    def _accept(self, env: Envelope, forward_from: int | None, stored: bool = False,
                holders: Collection[int] = ()) -> list[Event]:
        forward: list[Event] = []
        if env.author != self.seat:  # every first-seen envelope goes on once: equivocation
            # It goes to every seat but those known to hold it. Those are its sender, its
            # author, the seats that sent it too, and each seat whose signed envelope built on
            # it. Such a seat applied it.
            built_on = self.replica.built_on.get(env.id, ())
            if holders or built_on:
                to = tuple(i for i in self.others
                           if i != forward_from and i != env.author and i not in holders
                           and i not in built_on)
            else:  # the common case: the same seats for every envelope of this author
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
            # Each vote is taken in at once and may change the replica, so read it again.
            if target in self.replica.cut and target != self.seat:
                out += self._vote(target)
        return out

    def _rebuild(self) -> list[Event]:
        """Replay everything without the forked branch, after a fork this replica had used."""
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
            mine = (self.signer.duties(r, points) if self._started and not self.holding
                    else [])
            if not mine:
                break
            for env in mine:
                out.append(Send(env.frame, self.others))
                r.add(env)
            entries, points = r.advance()
        if self.holding:  # it signs nothing yet: no vote, no BYE; they come once it goes on
            return out + self._write_blocks()
        out += self._ejections()
        call = r.point.pending
        if isinstance(call, Turn) and call.deck is not None and self.my_turn:
            return out + self.submit(call.deck.action)  # the protocol commits a hidden deck
        for j in r.owed_slots(self.seat):  # its deck's slots open at the end, or once it is out
            if j not in self._slots_opened:
                self._slots_opened.add(j)
                out += self.publish(self.signer.seal(Kind.OPEN, r.step, r.head,
                                                     r.hands.own_opening(j)))
        if not self._finished and r.is_over:
            self._finished = True
            for k in r.owed_openings(self.seat):  # at the end every private event is opened
                out += self.open_peek(k)
            out.append(Finished(tuple(self.engine.winners(r.state)), r.forfeit))
        if self.seat not in r.byes and self._bye_at != (r.step, r.head) and self._may_say_bye():
            # A live seat's BYE names the winners; a dead seat's farewell names nothing.
            self._bye_at = (r.step, r.head)
            said = [list(self.engine.winners(r.state))] if r.point.alive[self.seat] else []
            bye = self.signer.seal(Kind.BYE, r.step, r.head, said)
            out.append(Send(bye.frame, self.others))
            r.add(bye)
            r.advance()
        return out + self._write_blocks()

    @property
    def log_complete(self) -> bool:
        """The game is over and its log is written whole; see :meth:`_write_blocks`.

        The replica's record may be whole before that, as ``verify`` judges it. A dead seat's
        farewell or a live seat's own BYE may not have come yet."""
        r = self.replica
        return r.log_complete and r.farewells_read() and self._heard_every_bye()

    def _heard_every_bye(self) -> bool:
        """Every live seat's BYE came from that seat itself; see the module's theory."""
        r = self.replica
        alive, byes, direct = r.point.alive, r.byes, self._direct
        return all(a == self.seat or a in r.cut or a in r.ejected or not alive[a]
                   or direct[a] < 0 or (a in byes and direct[a] >= byes[a].seq)
                   for a in range(self.genesis.n))

    def _heard_from_everyone(self) -> bool:
        """Every other seat still in the game sent this seat, itself, its copy of the last
        envelope this seat read of it.

        So whatever that seat sent before, such as the other half of a fork, came too. A seat
        never heard from itself is not waited on: a process playing several seats sends their
        frames on one link."""
        r = self.replica
        alive, direct = r.point.alive, self._direct
        return all(a == self.seat or a in r.ejected or not alive[a] or direct[a] < 0
                   or direct[a] >= r.cursor[a] - 1 for a in range(self.genesis.n))

    def end_wait_passed(self) -> list[Event]:
        """The session waited long enough at the end: say BYE without hearing from everyone.

        A process playing several seats sends their frames on one link, so their own copies
        may seem relayed. A seat may also never send its own copy."""
        self._end_waited = True
        return self._react([], []) if self._started else []

    def _write_blocks(self) -> list[Event]:
        """Log the blocks the replica closed. The last one waits for every direct BYE."""
        r = self.replica
        if r.is_over and not self._heard_every_bye():
            return []
        written = self._unlogged(r.close_blocks())
        return [*(Logged(e.frame) for e in written), Flush()] if written else []

    def _may_say_bye(self) -> bool:
        """This seat's monster died, or the game is over and this seat holds an ACK of the last
        MOVE from every seat that owes one.

        A dead seat says its farewell at once, unless it must open a peek at the end; then it
        says it after that. The log's blocks wait for it. See
        :class:`~kotp2p.net.replica.logrules.LogRules`. An ejected seat says nothing.

        A convicted seat owes no ACK. The BYE waits for the rest, so a seat's BYE comes after
        every ACK it forwarded. A seat that got a forker's wrong ACK forwards it before its BYE.
        Every other honest seat needs that BYE to close the last block, so each learns of the
        fork first, and all write the same last block."""
        r = self.replica
        if not r.point.alive[self.seat]:  # its peeks still hidden are opened first, at the end
            return (self.seat not in r.ejected and not r.owed_openings(self.seat)
                    and not r.owed_slots(self.seat))
        return (r.is_over and all(a in r.cut for a in r.owed_acks())
                and (self._end_waited or self._heard_from_everyone()))

    def close(self) -> list[Event]:
        """Stop here: flush the log.

        A finished game's last envelopes are logged now. An unfinished game's step still open is
        not. It would break the canonical order when the game resumes. Its envelopes come back
        from the journal and from the peers' ``sync``. They are logged, in order, once the step
        closes."""
        if not self.replica.is_over:
            return [Flush()]
        written = self._unlogged(self.replica.drain())
        return [*(Logged(e.frame) for e in written), Flush()]

    def _unlogged(self, envs: list[Envelope]) -> list[Envelope]:
        """``envs`` not written yet, each once. They are marked written."""
        out = []
        for e in envs:
            if e.id not in self._logged:
                self._logged.add(e.id)
                out.append(e)
        return out

    def _report(self, entries: list[Entry], points: list[Point]) -> list[Event]:
        out: list[Event] = []
        for v in self.replica.violations:
            if self._reported.get(v.seat) is not v:  # new, or an earlier proof replaced it
                self._reported[v.seat] = v
                out.append(Misbehaviour(v))
        for e in entries:
            desc = describe_entry(self.engine, self.genesis, e)
            out.append(Applied(e.step, e.kind, e.seat, desc))
        resolved = self.replica.resolved
        if len(resolved) > self._rolled:
            out += [Rolled(x.k, x.values) for x in resolved[self._rolled :]]
        self._rolled = len(resolved)
        polled = self.replica.polls.resolved
        if len(polled) > self._polled:
            out += [Polled(x.step, x.index) for x in polled[self._polled :]]
        self._polled = len(polled)
        return out
