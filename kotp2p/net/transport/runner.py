"""The trio driver of a :class:`~kotp2p.net.session.session.Session`.

It is the only place where a session meets an event loop.

Theory of operation
-------------------
One task loop owns the session. Everything that can happen arrives on one memory channel.

* Frames and link changes come from the transport, through :class:`Links`.
* Lines typed by the user come, read in a worker thread. Or typed commands come from a view in
  the same trio run, through :class:`Commands`.
* The wake-up the session asks for comes from :meth:`Session.next_wakeup`. The loop waits for
  it with ``move_on_at``.
* A session that thinks aside hands out its bots' decisions as questions. Each is answered
  on a worker thread, and the answer comes back on the channel. So a bot that searches for a
  second holds neither the links nor the screen.

After each input the loop hands the session the current trio time. Then it sends its outgoing
frames on the links and shows its updates to the view, in that order. The other seats wait on
the frames. The loop ends when the game is over and its log complete, or when the view asks to
stop.

Many frames of a game are forwarded copies of envelopes the session already holds. On the way
from the links to the loop such a frame is dropped after a hash and a lookup. So is a frame byte
for byte like one still waiting for the loop. Its sender is noted as holding it.

Inputs already waiting are taken in one pass while they give nothing urgent to send or show. The
session holds its own forwarded copies back; see :mod:`kotp2p.net.session.forwards`. The frames
to send are then queued on the links without yielding. So each link writes all of them, in
order, in one system call.

Cancelling :func:`run_session` leaves the log and the journal as the session last flushed them.
For the other seats, that is a crash. :meth:`Session.quit` is for a user who stops on purpose.
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import trio

from kotp2p.net.peer import is_sync_request
from kotp2p.net.session import Command, Question, Result, Session, Update
from kotp2p.net.wire import Value

INBOX = 10_000
"""Inputs waiting for the loop.

Links that hand frames straight to it are :class:`Admitting`. They close a link whose peer
outruns the game. That peer catches up later."""


@dataclass(frozen=True)
class FrameIn:
    """A frame payload arrived from remote seat ``seat``. It is the bytes after the length prefix."""

    seat: int
    payload: bytes


@dataclass(frozen=True)
class LinkUp:
    """The link to remote seat ``seat`` is up, for the first time or again."""

    seat: int


@dataclass(frozen=True)
class LinkDown:
    """The link to remote seat ``seat`` went down; the transport keeps reconnecting."""

    seat: int


LinkEvent = FrameIn | LinkUp | LinkDown


class Links(Protocol):
    """What the transport gives a session: the links to the remote seats of one game."""

    async def send(self, seat: int, frame: bytes) -> None:
        """Deliver ``frame`` to remote seat ``seat``. The frame includes its length prefix.

        A frame for a link that is down may be dropped; the peer catches up with ``sync``. This
        may only queue the frame for a writer task without yielding. The caller checkpoints
        after a burst, so the frames queued together leave in one write."""
        ...

    def events(self) -> AsyncIterator[LinkEvent]:
        """Frames and link changes, in the order they happened."""
        ...

    def strike(self, seat: int, reason: str) -> None:
        """The session refused a frame from remote seat ``seat`` for ``reason``.

        Count it against the link it came on. Too many close that link, so a flooding peer is
        cut off."""
        ...


class View(Protocol):
    """What a user interface does for the runner. It holds no sockets and no trio."""

    def show(self, updates: list[Update]) -> None:
        """Show what happened."""
        ...

    def on_line(self, line: str, now: float) -> bool:
        """Handle a line the user typed. False stops the game here; it can be resumed."""
        ...

    def on_end_of_input(self, now: float) -> bool:
        """The input closed. False stops the game here."""
        ...


@dataclass
class Commands:
    """Typed commands from a view running in the same trio run.

    The full screen sends them with ``TrioToken.run_sync_soon``. The loop performs each with the
    session when it takes it, through :meth:`Session.perform`. Its result is handed to
    ``answer``."""

    receive: trio.MemoryReceiveChannel[Command]
    answer: Callable[[Command, Result], None]


@dataclass(frozen=True)
class _Line:
    text: str | None  # None means the end of input


@dataclass(frozen=True)
class _Order:
    command: Command


@dataclass(frozen=True)
class _Thought:
    question: Question
    action: Value


Input = LinkEvent | _Line | _Order | _Thought


@runtime_checkable
class Admitting(Protocol):
    """Links with hooks called as each event arrives.

    :class:`~kotp2p.net.transport.meshlinks.MeshLinks` are such links. ``admit`` filters frames.
    ``sink`` takes every event admitted instead of :meth:`Links.events`. So the event goes to the
    loop with no task in between. ``sink`` returns False when there is no room; then the link
    the event came on is closed."""

    admit: Callable[[FrameIn], bool] | None
    sink: Callable[[LinkEvent], bool] | None


class _Inbox:
    """What goes from the links to the loop.

    Every event goes, except a frame that is a copy of an envelope the session holds. A frame
    byte for byte like one still waiting for the loop does not go either. Most frames of a game
    are forwarded copies. They cost a lookup here, and nothing further on.

    Some seats' copies were dropped while the frame waited. Those seats are told with the frame.
    They hold it, so it is not forwarded to them."""

    def __init__(self, session: Session, send: trio.MemorySendChannel[Input]) -> None:
        self.session = session
        self.send = send
        self.waiting: dict[bytes, set[int]] = {}
        """Frames on their way to the loop, each with the other seats that sent it too."""
        self.copies = 0

    def wanted(self, event: LinkEvent) -> bool:
        """Whether ``event`` goes on. A frame that goes on is marked waiting."""
        if not isinstance(event, FrameIn) or is_sync_request(event.payload):
            return True  # the same sync request from two seats asks for two answers
        also = self.waiting.get(event.payload)
        if also is not None:
            also.add(event.seat)
        elif not self.session.is_copy(event.payload, event.seat):
            self.waiting[event.payload] = set()
            return True
        self.copies += 1
        return False

    def taken(self, item: Input | None) -> set[int]:
        """The loop took ``item``: the other seats that sent the same frame while it waited."""
        if isinstance(item, FrameIn):
            also = self.waiting.pop(item.payload, None)
            if also is not None:
                also.discard(item.seat)
                return also
        return set()

    async def forward(self, links: Links) -> None:
        """Move the links' events on to the loop until either side closes.

        :class:`Admitting` links drop the copies as they arrive and hand the rest straight to
        the loop."""
        if not isinstance(links, Admitting):
            await self._forward(links)
            return
        links.admit = self.wanted
        links.sink = self._put
        try:
            events = links.events()  # what came before the hooks were set goes first
            if isinstance(events, trio.MemoryReceiveChannel):
                self._move_ready(events)
            await trio.sleep_forever()
        finally:
            links.admit = None
            links.sink = None

    def _put(self, event: LinkEvent) -> bool:
        try:
            self.send.send_nowait(event)
        except trio.WouldBlock:
            return False
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass  # the loop is gone: it ended or was interrupted
        return True

    async def _forward(self, links: Links) -> None:
        async with self.send:
            events = links.events()
            async for event in events:
                try:
                    if self.wanted(event):
                        try:
                            self.send.send_nowait(event)
                        except trio.WouldBlock:
                            await self.send.send(event)
                    if isinstance(events, trio.MemoryReceiveChannel):
                        self._move_ready(events)
                except trio.BrokenResourceError:  # the loop is gone: it ended or was interrupted
                    return

    def _move_ready(self, events: trio.MemoryReceiveChannel[LinkEvent]) -> None:
        """Move the events already waiting on at once, as far as the loop's channel has room.

        A burst of frames is then taken in one pass of the loop."""
        while True:
            room = self.send.statistics()
            if room.current_buffer_used >= room.max_buffer_size:
                return
            try:
                event = events.receive_nowait()
            except (trio.WouldBlock, trio.EndOfChannel):
                return
            if self.wanted(event):
                self.send.send_nowait(event)


async def _read_lines(read_line: Callable[[], str], send: trio.MemorySendChannel[Input]) -> None:
    async with send:
        while True:
            line = await trio.to_thread.run_sync(read_line, abandon_on_cancel=True)
            try:
                await send.send(_Line(line.rstrip("\r\n") if line else None))
            except trio.BrokenResourceError:  # the loop is gone: it ended or was interrupted
                return
            if not line:
                return


async def _think(question: Question, send: trio.MemorySendChannel[Input]) -> None:
    """Answer a bot's question on a worker thread, and hand the answer to the loop."""
    async with send:
        action = await trio.to_thread.run_sync(question.answer, abandon_on_cancel=True)
        try:
            await send.send(_Thought(question, action))
        except trio.BrokenResourceError:  # the loop is gone: it ended or was interrupted
            return


async def _take_commands(receive: trio.MemoryReceiveChannel[Command],
                         send: trio.MemorySendChannel[Input]) -> None:
    async with send, receive:
        async for command in receive:
            try:
                await send.send(_Order(command))
            except trio.BrokenResourceError:  # the loop is gone: it ended or was interrupted
                return


async def _flush(session: Session, links: Links | None, view: View | None) -> None:
    # The frames leave before the view prints, and before the session narrates what happened.
    # Its updates are worked out when asked for. The other seats wait on the frames. The user
    # does not notice the fraction of a millisecond.
    out = session.outgoing()
    if links is not None:
        for seat, reason in session.strikes():
            links.strike(seat, reason)
        for seat, frame in out:
            await links.send(seat, frame)
    if out:
        await trio.lowlevel.checkpoint()  # the writers run: each link's frames leave in one write
    updates = session.updates() if view is not None else []
    if view is not None and updates:
        view.show(updates)


async def _next(receive: trio.MemoryReceiveChannel[Input], wake: float | None) -> Input | None:
    """The next input; when no input can come any more, None at ``wake``."""
    try:
        return await receive.receive()
    except trio.EndOfChannel:
        if wake is None:
            raise RuntimeError("the session waits for nothing that can come") from None
        await trio.sleep_until(wake)
        return None


def _take(session: Session, view: View | None, item: Input | None, now: float,
          holders: set[int], commands: Commands | None) -> bool:
    """Hand one input to the session. None is the wake-up it asked for.

    Return False when the view stops the game. ``holders`` are other seats that sent the same
    frame."""
    if isinstance(item, FrameIn):
        session.receive(item.seat, item.payload, now, holders)
    elif isinstance(item, LinkUp):
        session.link_up(item.seat, now)
    elif isinstance(item, LinkDown):
        session.link_down(item.seat, now)
    elif isinstance(item, _Line):
        if view is not None:
            return (view.on_line(item.text, now) if item.text is not None
                    else view.on_end_of_input(now))
    elif isinstance(item, _Order):
        result = session.perform(item.command, now)
        if commands is not None:
            commands.answer(item.command, result)
    elif isinstance(item, _Thought):
        session.answer(item.question, item.action, now)
    else:
        session.tick(now)
    return True


async def run_session(
    session: Session,
    *,
    links: Links | None = None,
    view: View | None = None,
    read_line: Callable[[], str] | None = None,
    restore: tuple[list[bytes], list[bytes]] | None = None,
    commands: Commands | None = None,
) -> bool:
    """Play ``session`` until the game ends or the view stops it. Return True if it ended.

    ``restore`` resumes a game instead of starting it. It holds the log's and the journal's
    envelope payloads. ``read_line`` is a blocking function returning the next line typed. It
    returns "" at the end of input. It runs in a worker thread. ``commands`` come from a view in
    this trio run, each answered with its result.
    """
    send, receive = trio.open_memory_channel[Input](INBOX)
    async with trio.open_nursery() as nursery, receive:
        inbox = _Inbox(session, send.clone())
        if links is not None:
            nursery.start_soon(inbox.forward, links)
        else:
            inbox.send.close()
        if read_line is not None:
            nursery.start_soon(_read_lines, read_line, send.clone())
        if commands is not None:
            nursery.start_soon(_take_commands, commands.receive, send.clone())
        # Answers to the bots' questions come on the channel too, while questions may be out.
        thoughts = send.clone() if session.thinks_aside else None
        send.close()
        if restore is None:
            session.start(trio.current_time())
        else:
            session.resume(trio.current_time(), *restore)
        keep_going = True
        while keep_going and not session.is_done and not session.stopped:
            await _flush(session, links, view)
            for question in session.questions():
                assert thoughts is not None
                nursery.start_soon(_think, question, thoughts.clone())
            wake = session.next_wakeup()
            item: Input | None = None
            with trio.move_on_at(wake if wake is not None else math.inf):
                item = await _next(receive, wake)
            now = trio.current_time()
            keep_going = _take(session, view, item, now, inbox.taken(item), commands)
            # What else already arrived is taken at once while it gives nothing urgent to
            # send or show. The session holds forwarded copies. So the lot takes one pass of
            # the loop, and one write per link.
            while (keep_going and not session.has_news and not session.is_done
                   and not session.stopped):
                try:
                    item = receive.receive_nowait()
                except (trio.WouldBlock, trio.EndOfChannel):
                    break
                keep_going = _take(session, view, item, now, inbox.taken(item), commands)
        await _flush(session, links, view)
        if thoughts is not None:
            thoughts.close()
        nursery.cancel_scope.cancel()
    return session.is_over
