"""The bridge between the screen and the game: prompt_toolkit on asyncio, trio in guest mode.

Theory of operation
-------------------
``asyncio.run`` hosts prompt_toolkit; trio runs as a guest on the same loop and thread
(``trio.lowlevel.start_guest_run``), so the UI and the network share one thread with no locks.
This file is the only module of ``kotp2p/ui`` that imports trio.

The trio side runs the session with the transport's own runner (``run_session``), this bridge
being its view. What the player does (a key that submits, a chat line, a vote, quitting) becomes a
*command*: a function of the current trio time queued here; the runner learns of it the way it
learns of a typed line (a worker thread blocked on the queue hands it a token), runs it with the
session at ``now``, then shows the updates and sends the frames as for any input. Updates land in
the controller, which asks the application to redraw. The application leaving (the end screen
closed, or quitting) stops the runner; quitting first calls :meth:`Session.quit`, so the log and
journal are flushed and the game can be resumed.
"""

from __future__ import annotations

import asyncio
import queue
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

import trio

from kotp2p import rules
from kotp2p.net.errors import LocalProtocolError
from kotp2p.net.narration import printable
from kotp2p.net.session import Session
from kotp2p.net.transport.runner import Links, run_session
from kotp2p.net.updates import Update
from kotp2p.net.words import check_words
from kotp2p.ui.app import build_app
from kotp2p.ui.model import Comfort, Controller
from kotp2p.ui.stats import MonsterStats, game_stats
from kotp2p.ui.symbols import symbols

Command = Callable[[float], bool]
"""A player's command, run with the session at trio time ``now``; False stops the game."""
_TOKEN = "command\n"


class SessionPort:
    """The controller's :class:`~kotp2p.ui.model.GamePort` over a session: reads go straight to
    the session, writes become commands run by the trio side."""

    def __init__(self, session: Session, send: Callable[[Command], None]) -> None:
        self.session = session
        self.me = session.me
        self._send = send
        self.on_refused: Callable[[str], None] = lambda reason: None

    @property
    def state(self) -> rules.State:
        """The state as the player's seat holds it."""
        state: rules.State = self.session.state
        return state

    def players(self) -> tuple[tuple[str, str], ...]:
        """Each seat's player name and key fingerprint, terminal-safe."""
        from kotp2p.net.identity import fingerprint

        return tuple((printable(s.name), fingerprint(s.public_key))
                     for s in self.session.genesis.seats)

    def awaited(self) -> tuple[int, ...]:
        """The seats the game waits on."""
        return self.session.awaited()[0]

    def _guarded(self, call: Callable[[float], None]) -> None:
        def run(now: float) -> bool:
            try:
                call(now)
            except (LocalProtocolError, rules.IllegalAction) as exc:
                self.on_refused(str(exc))
            return True

        self._send(run)

    def submit(self, action: rules.Action) -> None:
        """Play ``action`` for the player's seat."""
        wire = rules.action_to_wire(action)
        self._guarded(lambda now: self.session.submit(wire, now))

    def chat(self, text: str) -> None:
        """Say a line to every seat."""
        self._guarded(lambda now: self.session.chat(text, now))

    def vote_eject(self) -> None:
        """Vote to eject the seats holding the game up."""
        self._guarded(lambda now: self.session.vote_eject(now))

    def quit(self) -> None:
        """Stop the game here (resumable)."""

        def stop(now: float) -> bool:
            self.session.quit()
            return False

        self._send(stop)


def session_stats(session: Session) -> list[MonsterStats]:
    """The end screen's figures, from every state the view's seat went through."""
    replica = session.protocol.replica
    states: list[rules.State] = []
    buyers: list[int] = []
    for entry in replica.entries:
        if entry.before is not None:
            states.append(entry.before)
        states += [p.state for p in entry.points]
        if entry.kind == "move" and entry.seat is not None:
            try:
                action = rules.action_from_wire(entry.action)
            except rules.IllegalAction:
                continue
            if isinstance(action, rules.Buy):
                buyers.append(entry.seat)
    states.append(session.state)
    return game_stats(states, buyers)


@dataclass
class UiOptions:
    """How the player wants the screen."""

    ascii_only: bool = False
    colour: bool = True
    comfort: Comfort | None = None


class _BridgeView:
    """The runner's view: updates go to the controller; queued commands run on a token."""

    def __init__(self, ctrl: Controller, commands: deque[Command],
                 redraw: Callable[[], None]) -> None:
        self.ctrl = ctrl
        self.commands = commands
        self.redraw = redraw

    def show(self, updates: list[Update]) -> None:
        self.ctrl.on_updates(updates)
        self.redraw()

    def on_line(self, line: str, now: float) -> bool:
        keep_going = True
        while self.commands and keep_going:
            keep_going = self.commands.popleft()(now)
        self.redraw()
        return keep_going

    def on_end_of_input(self, now: float) -> bool:
        return True


def run_ui(session: Session, *, log_path: str, options: UiOptions,
           links: Links | None = None,
           restore: tuple[list[bytes], list[bytes]] | None = None) -> bool:
    """Play ``session`` in the full-screen UI until the player leaves; True if the game ended."""
    return asyncio.run(_main(session, log_path, options, links, restore))


async def _main(session: Session, log_path: str, options: UiOptions, links: Links | None,
                restore: tuple[list[bytes], list[bytes]] | None) -> bool:
    loop = asyncio.get_running_loop()
    tokens: queue.Queue[str] = queue.Queue()
    commands: deque[Command] = deque()

    def send(command: Command) -> None:
        commands.append(command)
        tokens.put(_TOKEN)

    port = SessionPort(session, send)
    comfort = options.comfort or Comfort()
    ctrl = Controller(port, symbols=symbols(options.ascii_only), comfort=comfort,
                      clock=time.monotonic, words=check_words(session.genesis.game_id),
                      log_path=log_path, end_stats=lambda: session_stats(session))
    port.on_refused = ctrl.refused
    session.bot_delay = max(session.bot_delay, comfort.pause)
    app = build_app(ctrl, colour=options.colour)
    view = _BridgeView(ctrl, commands, app.invalidate)
    done: asyncio.Future[bool] = loop.create_future()

    async def trio_main() -> bool:
        over = await run_session(session, links=links, view=view, read_line=tokens.get,
                                 restore=restore)
        app.invalidate()
        return over

    def leave() -> None:
        if app.is_running and app.future is not None and not app.future.done():
            app.exit()

    def finished_outcome(outcome: object) -> None:
        try:
            value = outcome.unwrap()  # type: ignore[attr-defined]
        except BaseException as exc:
            if not done.done():
                done.set_exception(exc)
            leave()
            return
        if not done.done():
            done.set_result(bool(value))
        if not value:
            leave()

    trio.lowlevel.start_guest_run(
        trio_main, run_sync_soon_threadsafe=loop.call_soon_threadsafe,
        done_callback=finished_outcome, host_uses_signal_set_wakeup_fd=True)
    await app.run_async()
    if not done.done():
        if not session.stopped and not session.is_done:
            port.quit()
        tokens.put(_TOKEN)
    result = await done
    tokens.put("")  # lets the worker thread blocked on the queue go
    return result
