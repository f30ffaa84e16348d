"""The game session: one object per local game, the thing every view drives.

Theory of operation
-------------------
A :class:`Session` owns the :class:`~kotp2p.net.peer.protocol.PeerProtocol` of every seat this
process plays. Those may be a human, bots, or both. The session routes their events.

* A ``Send`` to a local seat is queued and delivered in the same call, in order, like a link.
  An envelope the sending seat signed or checked is not checked again by the others.
* A ``Send`` to a remote seat goes to the outbox. The transport drains it onto that seat's link
  through :meth:`outgoing`. A *forwarded* copy is held back there a moment; see
  :mod:`kotp2p.net.session.outbox`.
* ``Logged`` and ``Flush`` of the *view's seat*, :attr:`me`, go to the ``.kotlog``. Every local
  seat's replica writes the same bytes, so one log per process is enough.
* Before any frame leaves, the envelopes the local seats signed are appended to the *journal*
  and flushed. So are the proofs of every violation found. After a crash a seat is restored from
  its log and journal; see :meth:`resume` and :mod:`kotp2p.net.session.journal`.
* A restored seat with remote peers first asks them what it signed before, and signs nothing
  until they said; see :mod:`kotp2p.net.peer.catchup`. The view is told whom it waits for with a
  :class:`~kotp2p.net.session.updates.Notice`. The question goes again every
  :data:`CATCH_UP_ASK` seconds. Once the hard deadline passed since the restart, the seat goes on
  with the answers it has, if it has one.
* Bots decide when their seat's protocol says so through ``my_turn``, after ``bot_delay``
  seconds. The deadlines run on the time passed in, ``now``, never on a clock. After ``soft``
  seconds without progress every local seat sends its STALL. After ``hard`` seconds the bots
  vote to eject whoever holds the game up, and a human seat is asked; see :meth:`vote_eject`.
  :mod:`kotp2p.net.session.deadlines` times both.

Everything a view needs comes out of :meth:`updates`, in order. The plain words come from
:mod:`kotp2p.net.session.narration`, with the view's seat's replica. Every public method that
takes ``now`` runs the session to quiescence before returning. The caller then drains
:meth:`outgoing` and shows :meth:`updates`. It calls :meth:`tick` again by :meth:`next_wakeup`.

The session holds these member objects, each with its own theory of operation.

* :class:`~kotp2p.net.session.deadlines.Deadlines` keeps the times.
* :class:`~kotp2p.net.session.outbox.Outbox` holds the frames for remote seats.
* :class:`~kotp2p.net.session.journal.Journal` keeps the journal.
* :class:`~kotp2p.net.session.returns.Returns` knows which peers were away when the game ended.
  The session stays open a while for them to come back for the end.
* :class:`~kotp2p.net.session.thinking.Thinking`, with ``think_aside``, holds the bots'
  decisions handed out to be worked out away from the loop.

They know nothing of the session; it passes them what they need. This module holds the rest:
the inputs, the loop that runs them to quiescence, the routing of events, the bots, the
deadlines' actions, the resume, the chat and the end.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass

from kotp2p.net.files import FrameSink
from kotp2p.net.peer import (
    Applied,
    Event,
    Finished,
    Flush,
    Logged,
    Misbehaviour,
    PeerProtocol,
    Polled,
    Rejected,
    Rolled,
    Send,
)
from kotp2p.net.session.commands import Command, Result, perform
from kotp2p.net.session.deadlines import DEFAULT_SOFT, Deadlines, Timeouts
from kotp2p.net.session.forwards import FORWARD_DELAY
from kotp2p.net.session.journal import Journal
from kotp2p.net.session.narration import chat_line, history_updates, tell_later
from kotp2p.net.session.outbox import Outbox
from kotp2p.net.session.returns import Returns
from kotp2p.net.session.thinking import Question, Thinking
from kotp2p.net.session.updates import (
    CaughtUp,
    EjectAsked,
    FrameRefused,
    GameOver,
    LinkChanged,
    Notice,
    Resumed,
    Update,
    ViolationSeen,
    Waiting,
    YourTurn,
)
from kotp2p.net.trust import GameEngine, Genesis, State
from kotp2p.net.wire import (
    MAX_CHAT,
    Envelope,
    LocalProtocolError,
    RemoteProtocolError,
    Value,
    Why,
    envelope_id,
    split_frame,
)

log = logging.getLogger(__name__)

DEFAULT_TIMEOUTS = Timeouts()
CATCH_UP_ASK = 3.0
"""Seconds between two questions of a restarted seat to the peers that have not answered."""
SETTLE = 1.0
"""Seconds a seat waits at the end to hear from each peer itself, before its BYE and before
writing the last block.

A peer whose link broke may never send its own copy. After this wait the BYE goes anyway, and
once the record is whole, the log is written. A dead seat's farewell is waited for longer,
through the grace period. See :mod:`kotp2p.net.peer.protocol`."""

Decider = Callable[[State], Value]
"""A bot. It maps the seat's view of the state to its action for the pending decision.

The action is in wire form."""


Standing = Callable[[State], Value | None]
"""A human's standing answer: the action it gives for the pending decision without asking the
human, or None to ask. Such as "pass when I hold no card playable now"."""


@dataclass
class LocalSeat:
    """A seat this process plays: its protocol, and its bot. None means a human decides.

    A human's ``standing`` answer, if any, is given for it without asking."""

    protocol: PeerProtocol
    decide: Decider | None = None
    standing: Standing | None = None
    level: str = ""
    """The bot's level, such as ``greedy``, for the screens; empty for a human."""


class Session:
    """One local game: the seats this process plays, their routing, log, journal and deadlines."""

    def __init__(
        self,
        genesis: Genesis,
        engine: GameEngine,
        seats: Mapping[int, LocalSeat],
        *,
        me: int,
        log: FrameSink,
        journal: FrameSink | None = None,
        timeouts: Timeouts = DEFAULT_TIMEOUTS,
        bot_delay: float = 0.0,
        forward_delay: float = FORWARD_DELAY,
        think_aside: bool = False,
    ) -> None:
        if me not in seats:
            raise LocalProtocolError(f"the view's seat {me} is not one of this process's seats")
        self.genesis = genesis
        self.engine = engine
        self.seats = dict(sorted(seats.items()))
        self.me = me
        self.log = log
        self.journal = journal
        self.links_up: set[int] = set()
        self.bot_levels: dict[int, str] = {}
        """The levels of other processes' bots, as the lobby told them."""
        self.stopped = False
        self._queue: deque[tuple[int, int, bytes, tuple[int, ...]]] = deque()
        """Frames between local seats, as ``(from, to, frame, remote seats)``.

        The remote seats are those the frame went to as well."""
        self._deadlines = Deadlines(timeouts, bot_delay)
        self._outbox = Outbox(forward_delay)
        self._journal = Journal(journal, {s: ls.protocol for s, ls in self.seats.items()}, me)
        self._strikes: list[tuple[int, str]] = []
        self._genesis_frame = genesis.frame()  # the log starts with it; never appended again
        self._updates: list[Update | Callable[[], list[Update]]] = []
        """Updates in order.

        The narration of moves and random outcomes is worked out only when :meth:`updates` is
        called. That is after the frames left; see ``tell_later``."""
        self._asked_after_end = False
        self._chat_next = [0] * genesis.n
        self._announced = (-1, -1)
        """The step and point of the last decision told to the view: a window may ask the
        player twice in one step."""
        self._over: GameOver | None = None
        self._over_at = 0.0
        self._complete_at = -1.0
        self._end_waited = False
        """When the record became whole, as ``verify`` judges it, if it did."""
        self._done = False
        self.grace = DEFAULT_SOFT
        """Seconds to wait after the end for the other seats' BYEs, and for seats that were away
        at the end to come back."""
        self._returns = Returns()
        self._quiet = False
        self._started = False
        self._busy = False
        self._holding: set[int] = set()
        """Local seats that hold after a restart; see :mod:`kotp2p.net.peer.catchup`."""
        self._resumed_at = 0.0
        self._ask_at: float | None = None
        """When the holding seats ask again the peers that have not answered."""
        self._thinking = Thinking() if think_aside else None
        """With ``think_aside``, the bots' decisions are handed out as questions; see
        :mod:`kotp2p.net.session.thinking`."""

    # -- what a view reads ----------------------------------------------------------------------

    @property
    def timeouts(self) -> Timeouts:
        """Seconds without progress before the soft and hard deadlines."""
        return self._deadlines.timeouts

    @property
    def bot_delay(self) -> float:
        """Seconds a bot waits before it decides. A view may change it between calls."""
        return self._deadlines.bot_delay

    @bot_delay.setter
    def bot_delay(self, seconds: float) -> None:
        self._deadlines.bot_delay = seconds

    @property
    def protocol(self) -> PeerProtocol:
        """The view's seat's protocol."""
        return self.seats[self.me].protocol

    @property
    def state(self) -> State:
        """The current state as the view's seat holds it. Its own hidden slots are known."""
        return self.protocol.state

    @property
    def view(self) -> State:
        """The state as every seat may see it. No hidden slot is filled."""
        return self.engine.public_view(self.protocol.state)

    @property
    def is_over(self) -> bool:
        """The game has ended."""
        return self._over is not None

    @property
    def is_done(self) -> bool:
        """Over, and the log holds the whole game. The session can be closed.

        Either every live seat's BYE came in, or the grace period after the end passed."""
        return self._over is not None and self._done

    @property
    def result(self) -> GameOver | None:
        """How the game ended, once it did."""
        return self._over

    @property
    def catching_up(self) -> tuple[int, ...]:
        """The local seats that hold after a restart: they sign nothing until their peers said
        what they signed before. See :mod:`kotp2p.net.peer.catchup`."""
        return tuple(sorted(self._holding))

    @property
    def my_turn(self) -> bool:
        """The view's seat must decide now and a human decides it."""
        ls = self.seats[self.me]
        return (ls.decide is None and self.protocol.my_turn
                and (ls.standing is None or ls.standing(self.protocol.state) is None))

    def names(self) -> tuple[str, ...]:
        """Each seat's player name and monster, as the genesis fixes them. They are terminal-safe."""
        return tuple(s.label for s in self.genesis.seats)

    def updates(self) -> list[Update]:
        """What happened since the last call, in order."""
        pending, self._updates = self._updates, []
        out: list[Update] = []
        for u in pending:
            if callable(u):
                out += u()
            else:
                out.append(u)
        return out

    def levels(self) -> tuple[str, ...]:
        """Each seat's bot level as far as this process knows it: its own bots', and those the
        lobby told of in :attr:`bot_levels`; empty for a human or an unknown player."""
        return tuple(self.seats[t].level if t in self.seats else self.bot_levels.get(t, "")
                     for t in range(len(self.genesis.seats)))

    def awaited(self) -> tuple[tuple[int, ...], float]:
        """The seats the game waits on, and since when. The time is as passed in."""
        return self.protocol.blocking(), self._deadlines.since

    def next_wakeup(self) -> float | None:
        """The time :meth:`tick` must be called at next. None means only when something arrives."""
        if self.stopped or self.is_done:
            return None
        if self._over is not None:
            times = [self._over_at + self.grace]
            if not self._end_waited:
                times.append(self._over_at + SETTLE)
            if self._complete_at >= 0:
                times.append(self._complete_at + SETTLE)
            back = self._returns.until(self.grace)
            if back is not None:
                times.append(back)
            return min(times)
        times = [t for t in (self._deadlines.next_due(self._bot_waits), self._outbox.next_due(),
                             self._ask_at) if t is not None]
        return min(times) if times else None

    @property
    def has_news(self) -> bool:
        """Something waits that should not wait for the next frame.

        It may be a frame of a local seat's own to send. Forwarded copies may wait and leave
        together. It may be updates to show, or refusals to report. The transport takes them
        before reading on."""
        return (self._outbox.urgent or bool(self._updates or self._strikes)
                or (self._thinking is not None and self._thinking.waiting))

    @property
    def thinks_aside(self) -> bool:
        """The bots' decisions are handed out as questions, to be worked out away from the loop."""
        return self._thinking is not None

    def questions(self) -> list[Question]:
        """The bot decisions to work out since the last call, with ``think_aside``. Each is
        answered with :meth:`answer`."""
        return self._thinking.take() if self._thinking is not None else []

    # -- inputs ---------------------------------------------------------------------------------

    def start(self, now: float) -> None:
        """Begin play. Every seat has signed the genesis."""
        with self._working():
            self._begin(now)
            for seat, ls in self.seats.items():
                self._handle(seat, ls.protocol.start())
            self._run(now)

    def resume(self, now: float, logged: list[bytes], journal: list[bytes]) -> None:
        """Continue a game after a restart.

        Every local seat is rebuilt from the log's envelope payloads and the journal's. Then it
        asks its peers for what it missed. The first update is
        :class:`~kotp2p.net.session.updates.Resumed`: the game so far, told from the rebuilt
        replica. See :mod:`kotp2p.net.session.journal`."""
        with self._working():
            self._begin(now)
            self._quiet = True
            remote = tuple(s for s in range(self.genesis.n) if s not in self.seats)
            for seat, ls in self.seats.items():
                self._handle(seat, ls.protocol.restore(logged, journal, remote))
            self._quiet = False
            self._holding = {s for s, ls in self.seats.items() if ls.protocol.holding}
            self._resumed_at = now
            if self._holding:
                self._ask_at = now + CATCH_UP_ASK
                asked: set[int] = set()
                for seat in self._holding:
                    catch_up = self.seats[seat].protocol.catch_up
                    asked |= catch_up.waiting if catch_up is not None else set()
                self._updates.append(Notice(
                    f"catching up after the restart: waiting for {self._who(asked)} to say where "
                    "you were; you play again once they answer"))
            self._journal.restored()
            r = self.protocol.replica
            # What happened before, told from the replayed log. Nothing is sent for it.
            self._updates.insert(0, Resumed(tuple(history_updates(self.engine, r)),
                                            bool(self._holding)))
            self._chat_next = list(r.cursor)
            for seat, ls in self.seats.items():
                self._handle(seat, ls.protocol.sync_requests())
            self._run(now)

    def _who(self, seats: Collection[int]) -> str:
        """The players of ``seats``, as a view names them."""
        names = self.names()
        return " and ".join(names[s] for s in sorted(seats)) or "nobody"

    def _begin(self, now: float) -> None:
        if self._started:
            raise LocalProtocolError("the session was already started")
        self._started = True
        self._deadlines.begin(now)

    def receive(self, sender: int, payload: bytes, now: float,
                holders: Collection[int] = ()) -> None:
        """A frame payload came from remote seat ``sender``. It is the bytes after the length
        prefix.

        The same frame came from the remote seats ``holders`` too, and the transport dropped
        their copies. Every local seat reads it. Each ignores what it already has."""
        with self._working():
            if sender in self.seats or not 0 <= sender < self.genesis.n:
                self._updates.append(FrameRefused(sender, f"a link claims seat {sender}, expected a "
                                                  "remote seat of this game"))
                return
            refused: str | None = None
            changed = False
            self._outbox.heard(payload, (sender, *holders))
            for seat, ls in self.seats.items():
                read = sum(ls.protocol.replica.cursor)
                events = ls.protocol.receive(payload, sender, holders)
                if not events:
                    # A copy of an envelope this seat holds changes nothing. Or the envelope
                    # was read and asks for nothing, like a chat line with no seat to forward
                    # it to. That one is shown now. Or the seat stopped holding after a restart:
                    # its bot may move now.
                    changed = (changed or sum(ls.protocol.replica.cursor) != read
                               or seat in self._holding)
                    continue
                changed = True
                if refused is None:
                    refused = next((e.reason for e in events if isinstance(e, Rejected)), None)
                self._handle(seat, events)
            if refused is not None:  # once per frame, however many local seats refused it
                self._strikes.append((sender, refused))
            if changed:
                self._run(now)

    def _whole_but_direct_byes(self) -> bool:
        """The log lacks nothing but BYEs that came relayed, not from their authors.

        A dead seat's farewell is waited for through the grace period: it may come late from a
        busy peer, and the blocks would differ without it."""
        r = self.protocol.replica
        return r.log_complete and r.farewells_read()

    def strikes(self) -> list[tuple[int, str]]:
        """Frames refused since the last call, as ``(remote seat, reason)``, in order.

        The transport counts them against the link they came on. Too many close it."""
        out, self._strikes = self._strikes, []
        return out

    def is_copy(self, payload: bytes, sender: int | None = None) -> bool:
        """Every local seat holds the envelope ``payload`` already.

        So :meth:`receive` would do nothing with it, and the transport may drop it as it
        arrives. Most frames of a game are such forwarded copies. ``sender`` is the remote seat
        it came from. It holds the envelope, so a held copy of it no longer goes there."""
        if sender is not None:
            self._outbox.heard(payload, (sender,))
        return all(ls.protocol.is_copy(payload, sender) for ls in self.seats.values())

    def outgoing(self) -> list[tuple[int, bytes]]:
        """Frames for remote seats, as ``(seat, frame)``, in order. The transport delivers them."""
        return self._outbox.drain()

    def link_up(self, seat: int, now: float) -> None:
        """The link to remote ``seat`` is up or back up. Ask it for whatever we miss."""
        with self._working():
            self.links_up.add(seat)
            self._returns.link_up(seat, now)
            self._updates.append(LinkChanged(seat, True))
            for s, ls in self.seats.items():
                self._handle(s, [Send(e.frame, (seat,)) for e in ls.protocol.sync_requests()
                                 if isinstance(e, Send)])
            self._run(now)

    def notice(self, text: str) -> None:
        """Tell the views ``text``, a fact about this process such as a port it could not get."""
        self._updates.append(Notice(text))

    def link_down(self, seat: int, now: float) -> None:
        """The link to remote ``seat`` went down. The transport reconnects."""
        with self._working():
            self.links_up.discard(seat)
            self._returns.link_down(seat)
            self._updates.append(LinkChanged(seat, False))
            self._run(now)

    def submit(self, action: Value, now: float) -> None:
        """The view's human decides. The action is in the engine's wire form.

        :raises LocalProtocolError: not this seat's decision now, or an illegal action. The
            message says why.
        """
        with self._working():
            if self.seats[self.me].decide is not None:
                raise LocalProtocolError("a bot plays this seat", Why.BOT_SEAT)
            self._handle(self.me, self.protocol.submit(action))
            self._run(now)

    def chat(self, text: str, now: float) -> None:
        """Say a line to every seat. It is signed and logged, but not part of the game.

        The line is cut at 500 characters.

        :raises LocalProtocolError: an empty line.
        """
        with self._working():
            text = text.strip()[:MAX_CHAT]
            if not text:
                raise LocalProtocolError("expected some text to say", Why.EMPTY_CHAT)
            self._handle(self.me, self.protocol.chat(text))
            self._run(now)

    def perform(self, command: Command, now: float) -> Result:
        """Carry out a view's ``command`` at ``now``. It is done, or refused with its reason code."""
        return perform(self, command, now)

    def vote_eject(self, now: float) -> None:
        """The view's human agrees to eject the seats holding the game up.

        Nothing happens unless every other live seat votes the same.

        :raises LocalProtocolError: the hard deadline of the current wait has not passed.
        """
        with self._working():
            overdue = tuple(s for s in self.protocol.blocking() if s not in self.seats)
            if not self._deadlines.hard_passed(now) or not overdue or self.is_over:
                raise LocalProtocolError("nobody is overdue: a vote to eject comes after the "
                                         "hard deadline", Why.NOBODY_OVERDUE)
            self._handle(self.me, self.protocol.hard_timeout())
            self._run(now)

    def answer(self, question: Question, action: Value, now: float) -> None:
        """A bot's ``action``, worked out for ``question``. It is played if its seat still
        waits where it was asked; otherwise it is dropped, and the seat is asked again."""
        if self._thinking is None or not self._thinking.answered(question):
            return
        p = self.seats[question.seat].protocol
        with self._working():
            if p.my_turn and _point(p) == question.at and not self.stopped:
                self._deadlines.turn_done(question.seat)
                self._handle(question.seat, p.submit(action))
            self._run(now)

    def tick(self, now: float) -> None:
        """Time passed: bots whose delay is over decide, deadlines fire."""
        with self._working():
            self._run(now)

    def quit(self) -> None:
        """Stop here: log what was accepted, flush, stop. The game can be resumed.

        It may be called while the session was busy, after Ctrl-C in the middle of a call. Then
        it only flushes what was written. The protocol objects may be half-way through a
        change."""
        if self.stopped:
            return
        self.stopped = True
        if self._busy:
            self.log.flush()
            self._journal.flush()
            return
        self._handle(self.me, self.protocol.close())
        self._journal.sync()

    # -- the loop -------------------------------------------------------------------------------

    @contextmanager
    def _working(self) -> Iterator[None]:
        """Mark the session busy for one input. An interruption such as Ctrl-C leaves it marked."""
        self._busy = True
        try:
            yield
        except LocalProtocolError:
            self._busy = False
            raise
        self._busy = False

    def _run(self, now: float) -> None:
        if self.stopped:
            return
        while True:
            while self._queue:
                src, dst, frame, also = self._queue.popleft()
                proto = self.seats[dst].protocol
                env = self._checked(src, frame)
                self._handle(dst, proto.receive(frame[4:], src) if env is None
                             else proto.receive_verified(env, src), (frame, also))
            if self._bots(now) or self._catch_up(now):
                continue
            self._journal.sync()
            self._chats()
            if not self._act_on_deadlines(now):
                break
        self._outbox.forward(now, self.protocol.replica.built_on,
                             everything=self._over is not None)
        if self._over is not None and not self._done:
            if self._over_at < 0:
                self._over_at = now
                self._returns.ended(now, self.links_up)
            if not self._end_waited and now >= self._over_at + SETTLE:
                self._end_waited = True  # a BYE not said yet goes now; see end_wait_passed
                for seat, ls in self.seats.items():
                    self._handle(seat, ls.protocol.end_wait_passed())
            if self.protocol.log_complete:
                self._done = not self._returns.waiting(now, self.grace)
            elif self._complete_at < 0 and self._whole_but_direct_byes():
                self._complete_at = now  # it waits for a BYE from its author itself
            elif 0 <= self._complete_at <= now - SETTLE:
                self._done = True
                self._handle(self.me, self.protocol.close())
            elif now >= self._over_at + self.grace and not self._asked_after_end:
                self._asked_after_end = True  # a last envelope may have been lost; ask once
                self._over_at = now
                for seat, ls in self.seats.items():
                    self._handle(seat, ls.protocol.sync_requests())
            elif now >= self._over_at + self.grace:
                self._done = True
                self._handle(self.me, self.protocol.close())
        at = _point(self.protocol)
        if self.my_turn and at != self._announced:
            self._announced = at
            self._updates.append(YourTurn(self.me))

    def _catch_up(self, now: float) -> bool:
        """The seats that held after a restart and no longer do: tell the view. True if one did.

        Those that still hold ask again when it is time. Once the hard deadline passed since the
        restart, they go on with the answers they have."""
        if not self._holding:
            return False
        went_on = False
        hard = self.timeouts.hard
        for seat in sorted(self._holding):
            p = self.seats[seat].protocol
            if p.holding and hard is not None and now >= self._resumed_at + hard:
                late = p.stop_holding()
                if late:
                    self._updates.append(Notice(
                        f"{self._who(late)} did not answer within {hard:g} s: going on with what "
                        f"{self._who(p.catch_up.answered if p.catch_up else ())} said"))
                    self._handle(seat, p.held_back())
            if not p.holding:
                self._holding.discard(seat)
                went_on = True
                self._updates.append(CaughtUp(f"{self.names()[seat]} caught up with the others"))
        if not self._holding:
            self._ask_at = None
        elif self._ask_at is not None and now >= self._ask_at:
            self._ask_at = now + CATCH_UP_ASK
            for seat in sorted(self._holding):
                p = self.seats[seat].protocol
                if p.catch_up is not None:
                    self._handle(seat, p.catch_up.requests(p.replica))
        return went_on

    def _checked(self, seat: int, frame: bytes) -> Envelope | None:
        """The envelope local ``seat`` signed or checked that ``frame`` is, byte for byte, if any.

        The other local seats need not check its signature again."""
        try:
            body, _ = split_frame(frame[4:])
        except RemoteProtocolError:
            return None
        env = self.seats[seat].protocol.replica.by_id.get(envelope_id(body))
        return env if env is not None and env.frame == frame else None

    def _is_bot(self, seat: int) -> bool:
        return self.seats[seat].decide is not None

    def _bot_waits(self, seat: int) -> bool:
        """A bot plays ``seat`` and waits for its delay: it is not thinking already."""
        return self._is_bot(seat) and not (self._thinking is not None
                                           and self._thinking.thinking(seat))

    def _bots(self, now: float) -> bool:
        """Let each bot whose turn it is decide, once its delay passed. True if one did."""
        acted = False
        for seat, ls in self.seats.items():
            p = ls.protocol
            if not p.my_turn:
                self._deadlines.turn_done(seat)
                continue
            if ls.decide is None:
                answer = None if ls.standing is None else ls.standing(p.state)
                if answer is not None:  # the human's standing answer, given at once
                    self._handle(seat, p.submit(answer))
                    acted = True
                continue
            at = _point(p)
            if not self._deadlines.bot_ready(seat, at[0], now):
                continue
            if self._thinking is not None:  # worked out away from here; see answer()
                if not self._thinking.asked(seat, at):
                    self._thinking.ask(Question(seat, at, p.state, ls.decide))
                continue
            self._deadlines.turn_done(seat)
            self._handle(seat, p.submit(ls.decide(p.state)))
            acted = True
        return acted

    def _act_on_deadlines(self, now: float) -> bool:
        """Act on the deadlines that passed. True if that gave the local seats something to do.

        See :mod:`kotp2p.net.session.deadlines`."""
        r = self.protocol.replica
        self._deadlines.progressed(r.step + len(r.resolved), now)
        if self._over is not None:
            return False
        acted = False
        blocking = tuple(s for s in self.protocol.blocking() if s not in self.seats)
        soft = self._deadlines.soft_due(now)
        if soft is not None and blocking:
            if soft == "first":
                self._updates.append(Waiting(blocking, self._deadlines.since))
            for seat, ls in self.seats.items():
                self._handle(seat, ls.protocol.soft_timeout())
            acted = True
        if self._deadlines.hard_due(now) and blocking:
            for seat, ls in self.seats.items():
                if ls.decide is not None:
                    self._handle(seat, ls.protocol.hard_timeout())
            if self.seats[self.me].decide is None:
                self._updates.append(EjectAsked(blocking))
            acted = True
        return acted

    def _chats(self) -> None:
        r = self.protocol.replica
        for author in range(self.genesis.n):
            stream = r.streams[author]
            while self._chat_next[author] < r.cursor[author]:
                env = stream.get(self._chat_next[author])
                self._chat_next[author] += 1
                line = None if env is None else chat_line(env)
                if line is not None:
                    self._updates.append(line)

    def _handle(self, seat: int, events: list[Event],
                sent: tuple[bytes, Collection[int]] = (b"", ())) -> None:
        """Route the events of local ``seat``.

        ``sent`` is a frame it got from another local seat, and the remote seats that one sent
        it to. Those get no forwarded copy from here."""
        mine = seat == self.me
        for ev in events:
            if isinstance(ev, Send):
                remote = [to for to in ev.to if to not in self.seats
                          and not (ev.forwarded and ev.frame == sent[0] and to in sent[1])]
                local = [to for to in ev.to if to in self.seats and to != seat]
                for to in local:
                    self._queue.append((seat, to, ev.frame, tuple(remote)))
                self._outbox.send(ev.frame, remote, ev.forwarded)
            elif isinstance(ev, Logged):
                if mine and ev.frame != self._genesis_frame:
                    self.log.append([ev.frame])
            elif isinstance(ev, Flush):
                if mine:
                    self.log.flush()
            elif isinstance(ev, Rejected):
                log.info("seat %d refused a frame from %s: %s", seat, ev.sender, ev.reason)
                if mine:
                    self._updates.append(FrameRefused(ev.sender, ev.reason))
            elif isinstance(ev, Misbehaviour):
                log.warning("seat %d saw a violation: %s", seat, ev.violation.describe())
                if mine:
                    self._updates.append(ViolationSeen(ev.violation.seat,
                                                       ev.violation.describe()))
            elif not mine:
                continue
            elif isinstance(ev, Applied):
                if not self._quiet:
                    self._applied(ev)
            elif isinstance(ev, Rolled | Polled):
                if not self._quiet:
                    self._rolled(ev)
            elif isinstance(ev, Finished):
                self._finish(ev.winners)

    def _applied(self, ev: Applied) -> None:
        self._updates.append(tell_later(self.engine, self.protocol.replica, ev))

    def _rolled(self, ev: Rolled | Polled) -> None:
        self._updates.append(tell_later(self.engine, self.protocol.replica, ev))

    def _finish(self, winners: tuple[int, ...]) -> None:
        r = self.protocol.replica
        forfeit = bool(winners) and r.forfeit
        names = self.names()
        if not winners:
            summary = "Everybody lost."
        else:
            who = " and ".join(names[w] for w in winners)
            summary = f"{who} won{' by forfeit' if forfeit else ''}."
        self._over = GameOver(tuple(winners), forfeit, summary)
        self._over_at = -1.0
        self._updates.append(self._over)


def _point(p: PeerProtocol) -> tuple[int, int]:
    """Where ``p``'s replica is: its step, and the point within the step."""
    return p.replica.step, p.replica.point.index
