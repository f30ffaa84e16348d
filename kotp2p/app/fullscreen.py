"""The bridge between the screen and the game: prompt_toolkit on asyncio, trio in guest mode.

Theory of operation
-------------------
``asyncio.run`` hosts prompt_toolkit. trio runs as a guest on the same loop and thread, by
``trio.lowlevel.start_guest_run``. So the UI and the network share one thread, with no locks.

The trio side runs the session with the transport's own runner, ``run_session``. This bridge is
its view. What the player does becomes a typed *command* of :mod:`kotp2p.net.session.commands`.
It may be a key that submits, a chat line, a vote or quitting. A :class:`Pipe` hands the command
to the trio run, through the run's token and then a memory channel. The runner performs it with
the session at ``now`` and hands the result back. A refusal carries its reason code, which the
controller words. Then the runner shows the updates and sends the frames, as for any input.
Updates land in the controller, which asks the application to redraw.

The application leaves when the player closes the end screen or quits. That stops the runner.
Quitting is a command too, so the log and journal are flushed and the game can be resumed.

``host`` and ``join`` report to :class:`NetScreen`, a :class:`~kotp2p.app.netview.NetView`. The
lobby screen comes first, then the game's. The lobby's requests go through a pipe as well, to a
task that runs them. The pick among the games heard is awaited on a trio Event.
"""

from __future__ import annotations

import asyncio
import math
import sys
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TextIO, TypeVar, cast

import trio
from prompt_toolkit.application import Application

from kotp2p import rules
from kotp2p.app.errors import CommandError
from kotp2p.app.gametypes import QUIT_LINGER, Connect, NetLinks, Restore
from kotp2p.app.localgame import last_words
from kotp2p.app.trace import Trace
from kotp2p.net.lobby import (
    Changed,
    Failed,
    GuestEvent,
    HostEvent,
    LobbyError,
    LobbyView,
    Notice,
    Started,
)
from kotp2p.net.session import (
    Chat,
    Command,
    Quit,
    Refused,
    Result,
    Session,
    Submit,
    Update,
    VoteEject,
)
from kotp2p.net.transport import Commands, GuestLobby, HostLobby, Links, run_session
from kotp2p.net.trust import check_words
from kotp2p.net.wire import Refusal, Why, safe_text
from kotp2p.ui import (
    Comfort,
    Controller,
    LobbyController,
    logs_to,
    plain_refusal,
    session_stats,
    symbols,
)
from kotp2p.ui.full import build_app, build_lobby_app

T = TypeVar("T")


class Pipe(Generic[T]):
    """Values from the screen's key handlers into the trio run, in order.

    The key handlers run on asyncio, on the same thread as trio. A value is handed over with the
    run's token, by ``TrioToken.run_sync_soon``, into an unbounded memory channel. Values sent
    before the trio side opened the pipe go first.
    """

    def __init__(self) -> None:
        self._token: trio.lowlevel.TrioToken | None = None
        self._send: trio.MemorySendChannel[T] | None = None
        self._early: list[T] = []

    def open(self) -> trio.MemoryReceiveChannel[T]:
        """The trio side's end. It is called in the trio run."""
        send, receive = trio.open_memory_channel[T](math.inf)
        self._token, self._send = trio.lowlevel.current_trio_token(), send
        for value in self._early:
            send.send_nowait(value)
        self._early.clear()
        return receive

    def send(self, value: T) -> None:
        """Hand ``value`` to the trio side. Once the trio run is over, it is dropped."""
        if self._token is None:
            self._early.append(value)
            return
        with suppress(trio.RunFinishedError):  # the trio run is over
            self._token.run_sync_soon(self._deliver, value)

    def _deliver(self, value: T) -> None:
        assert self._send is not None
        # once the game is over nobody takes commands any more
        with suppress(trio.BrokenResourceError, trio.ClosedResourceError):
            self._send.send_nowait(value)


class SessionPort:
    """The controller's :class:`~kotp2p.ui.model.GamePort` over a session.

    Reads go straight to the session. Writes are typed commands sent to the trio side. That side
    answers each one with :meth:`_BridgeView.answer`.
    """

    def __init__(self, session: Session, send: Callable[[Command], None]) -> None:
        self.session = session
        self.me = session.me
        self._send = send
        self.redraw: Callable[[], None] = lambda: None
        """Redraws the screen; set once the screen is built."""

    @property
    def state(self) -> rules.State:
        """The state as the player's seat holds it."""
        state: rules.State = self.session.state
        return state

    def players(self) -> tuple[tuple[str, str], ...]:
        """Each seat's player name and key fingerprint, terminal-safe."""
        from kotp2p.net.wire import fingerprint

        return tuple((safe_text(s.name), fingerprint(s.public_key))
                     for s in self.session.genesis.seats)

    def levels(self) -> tuple[str, ...]:
        """Each seat's bot level; empty for a human."""
        return self.session.levels()

    def awaited(self) -> tuple[int, ...]:
        """The seats the game waits on."""
        return self.session.awaited()[0]

    def submit(self, action: rules.Action) -> None:
        """Play ``action`` for the player's seat."""
        self._send(Submit(rules.action_to_wire(action)))

    def chat(self, text: str) -> None:
        """Say a line to every seat."""
        self._send(Chat(text))

    def vote_eject(self) -> None:
        """Vote to eject the seats holding the game up."""
        self._send(VoteEject())

    def quit(self) -> None:
        """Stop the game here, so that it can be resumed."""
        self._send(Quit())

    def aside(self, work: Callable[[], str], done: Callable[[str], None]) -> None:
        """Run ``work`` on a worker thread of the screen's loop; ``done`` gets its result on
        the loop, then the screen redraws."""
        def finished(result: asyncio.Future[str]) -> None:
            if not result.cancelled():
                done(result.result())
                self.redraw()

        asyncio.get_running_loop().run_in_executor(None, work).add_done_callback(finished)


@dataclass
class UiOptions:
    """How the player wants the screen."""

    ascii_only: bool = False
    colour: bool = True
    comfort: Comfort | None = None


class _BridgeView:
    """The runner's view: it hands updates and the answers to commands to the controller."""

    def __init__(self, ctrl: Controller, redraw: Callable[[], None],
                 session: Session | None = None, base_delay: float = 0.0) -> None:
        self.ctrl = ctrl
        self.redraw = redraw
        self.session = session
        self.base_delay = base_delay
        """The bots' delay the command line asked for. The player's pause comes on top."""

    def show(self, updates: list[Update]) -> None:
        self.ctrl.on_updates(updates)
        if self.session is not None:  # the pause, longer after news about the player
            self.session.bot_delay = self.ctrl.bot_delay(self.base_delay)
        self.redraw()

    def answer(self, command: Command, result: Result) -> None:
        """The session's answer to a command: a refusal is said in plain words."""
        if isinstance(result, Refused):
            self.ctrl.refused(result.refusal)
        self.redraw()

    def on_line(self, line: str, now: float) -> bool:
        """No lines are typed here. The keys send commands."""
        return True

    def on_end_of_input(self, now: float) -> bool:
        """No input to end."""
        return True


def _game_screen(session: Session, send: Callable[[Command], None], log_path: str,
                 options: UiOptions) -> tuple[Controller, Application[None]]:
    """The game screen's controller and application over ``session``; commands go to ``send``."""
    port = SessionPort(session, send)
    comfort = options.comfort or Comfort()
    ctrl = Controller(port, symbols=symbols(options.ascii_only), comfort=comfort,
                      clock=time.monotonic, words=check_words(session.genesis.game_id),
                      log_path=log_path, end_stats=lambda: session_stats(session))
    session.bot_delay = max(session.bot_delay, comfort.pause)
    if session.seats[session.me].decide is None:
        session.seats[session.me].standing = ctrl.evolutions
    app = build_app(ctrl, colour=options.colour)
    port.redraw = app.invalidate
    return ctrl, app


def run_ui(session: Session, *, log_path: str, options: UiOptions,
           connect: Connect | None = None,
           restore: Restore | None = None) -> bool:
    """Play ``session`` in the full-screen UI until the player leaves; True if the game ended.

    ``connect`` opens the links of a networked game. ``restore`` resumes a game.

    :raises KeyboardInterrupt: the player pressed Ctrl-C.
    """
    return asyncio.run(_main(session, log_path, options, connect, restore))


async def _main(session: Session, log_path: str, options: UiOptions, connect: Connect | None,
                restore: Restore | None) -> bool:
    loop = asyncio.get_running_loop()
    pipe: Pipe[Command] = Pipe()
    base = session.bot_delay
    ctrl, app = _game_screen(session, pipe.send, log_path, options)
    view = _BridgeView(ctrl, app.invalidate, session, base)
    done: asyncio.Future[bool] = loop.create_future()

    def show(text: str, refusal: Refusal | None) -> None:
        ctrl.add_log(text if refusal is None else plain_refusal(refusal), "log.warn")

    with logs_to(show):
        return await _run_game_app(session, ctrl, app, view, pipe, done, connect, restore)


def _wrap_lines_again(app: Application[Any]) -> None:
    """Make sure the terminal wraps long lines again once ``app``'s full screen is gone.

    The screen turns wrapping off while it draws. What the command prints next must not be cut
    at the right edge. The log's long path and the ``kotp2p resume`` hint are such lines.
    """
    app.output.enable_autowrap()
    app.output.flush()


async def _run_game_app(session: Session, ctrl: Controller, app: Application[None],
                        view: _BridgeView, pipe: Pipe[Command], done: asyncio.Future[bool],
                        connect: Connect | None,
                        restore: Restore | None) -> bool:
    loop = asyncio.get_running_loop()

    opened: list[tuple[NetLinks, trio.lowlevel.TrioToken]] = []

    async def trio_main() -> bool:
        commands = Commands(pipe.open(), view.answer)
        if connect is None:
            over = await run_session(session, view=view, commands=commands, restore=restore)
        else:
            async with connect(session) as links:
                over = await run_session(session, links=links, view=view, commands=commands,
                                         restore=restore)
                opened.append((links, trio.lowlevel.current_trio_token()))
                if ctrl.exit_requested:
                    links.hurry(QUIT_LINGER)
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
    _wrap_lines_again(app)
    if not done.done() and not session.stopped and not session.is_done:
        ctrl.port.quit()
    if not done.done() and opened:  # The user left the end: the peers get a short time.
        links, token = opened[0]
        token.run_sync_soon(links.hurry, QUIT_LINGER)
    over = await done
    if ctrl.interrupted:
        raise KeyboardInterrupt
    return over


# -- host and join: the lobby screen, then the game screen --------------------------------------


class AfterScreen:
    """The lines ``host`` and ``join`` leave on the terminal once their full screen is gone.

    What the screen said vanishes with it. The lines give the game's log, and the winner or how
    to go on. :func:`~kotp2p.app.localgame.last_words` words them.
    """

    def __init__(self) -> None:
        self.lines: list[str] = []

    def say(self, text: str) -> None:
        """Keep ``text`` for later."""
        self.lines.append(text)

    def print(self, out: TextIO) -> None:
        """Print the lines kept, and forget them."""
        for line in self.lines:
            print(line, file=out, flush=True)
        self.lines.clear()


class _Joining:
    """The lobby port before the lobby is known."""

    view = LobbyView("connecting…", ())

    def my_seat(self) -> int | None:
        return None

    def pick(self, monster: str) -> None:
        """Too early."""
        raise LobbyError("the lobby is not open yet", Why.NOT_SEATED)

    def set_ready(self, ready: bool) -> None:
        """Too early."""
        raise LobbyError("the lobby is not open yet", Why.NOT_SEATED)

    def start(self) -> None:
        """Too early."""
        raise LobbyError("the lobby is not open yet", Why.NOT_SEATED)

    def leave(self) -> None:
        """Nothing to leave yet."""


class RunnerPort:
    """The lobby screen's port over the transport's lobby runner, the host's or a joiner's.

    Requests run on the trio side.
    """

    def __init__(self, screen: NetScreen, runner: HostLobby | GuestLobby, host: bool) -> None:
        self.screen = screen
        self.runner = runner
        self.host = host

    @property
    def view(self) -> LobbyView:
        """The lobby as last known."""
        view = self.runner.lobby.view
        return view if view is not None else _Joining.view

    def my_seat(self) -> int | None:
        """The user's seat."""
        return 0 if self.host else cast(GuestLobby, self.runner).lobby.seat

    def _request(self, call: Callable[[Any], Any]) -> None:
        runner = self.runner
        self.screen.send(lambda: runner.command(call))

    def pick(self, monster: str) -> None:
        """Pick a monster."""
        self._request(lambda lobby: lobby.pick(monster))

    def set_ready(self, ready: bool) -> None:
        """(Un)ready."""
        self._request(lambda lobby: lobby.set_ready(ready))

    def start(self) -> None:
        """Start the game, as the host."""
        self._request(lambda lobby: lobby.start())

    def leave(self) -> None:
        """Leave the lobby: the command stops."""
        self.screen.leave()

    def waiting(self) -> list[str]:
        """The addresses of the connections waiting for a seat, for the host."""
        runner = self.runner
        return [a for _, a, _ in runner.waiting()] if isinstance(runner, HostLobby) else []

    def turn_away(self, who: str) -> None:
        """Turn away a joiner, as the host."""
        self._request(lambda lobby: lobby.turn_away(who))

    def set_expansion(self, name: str, on: bool) -> None:
        """Turn an expansion on or off, as the host."""
        self._request(lambda lobby: lobby.set_expansion(name, on))


class NetScreen:
    """The full screen of ``host`` and ``join``, which their trio code reports to.

    It is a :class:`~kotp2p.app.netview.NetView`. The lobby screen comes first, then the game's.
    :attr:`after` keeps the lines for the terminal once the screen is gone.
    """

    thinks_aside = True

    def __init__(self, options: UiOptions) -> None:
        self.options = options
        self.after = AfterScreen()
        self.lobby = LobbyController(_Joining(), is_host=False)
        self.lobby.status = ""  # the command's first lines, as notes, say what it does
        self.apps: deque[Application[None]] = deque()
        self.current: Application[None] | None = None
        self.left = False
        self.game: Controller | None = None
        self._requests: Pipe[Callable[[], None]] = Pipe()
        self._cancel: trio.CancelScope | None = None
        self._hurry: Callable[[], None] | None = None
        self._left_end = False

    def _redraw(self) -> None:
        if self.current is not None:
            self.current.invalidate()

    def notice(self, text: str) -> None:
        """A line about what the command does: one of the lobby's notes."""
        self.lobby.notes.append(safe_text(text))
        self._redraw()

    def lobby_table(self, lines: list[str]) -> None:
        """Nothing: the lobby screen draws the lobby from its view."""

    async def lobby_input(self) -> None:
        """Nothing to do: the keys reach the lobby through :class:`RunnerPort`."""

    def game_stopped(self, text: str) -> None:
        """Keep ``text`` for the terminal, once the screen is gone."""
        self.after.say(text)

    def game_ended(self, session: Session, log_path: Path, over: bool) -> None:
        """Keep the line the game leaves on the terminal: its log, and the winner."""
        self.after.say(last_words(session, log_path, over))

    def leaving(self, hurry: Callable[[], None]) -> None:
        """Call ``hurry`` once the user leaves the end screen, or now if they already did."""
        self._hurry = hurry
        if self._left_end:
            hurry()

    def left_end(self) -> None:
        """The user left the end screen: the peers get a short time to read the end."""

        def hurry() -> None:
            self._left_end = True
            if self._hurry is not None:
                self._hurry()

        self.send(hurry)

    def lobby_event(self, event: HostEvent | GuestEvent) -> None:
        """What the lobby said.

        A refusal answers the user's request. It goes in plain words to the status line. Other
        news becomes a note.
        """
        if isinstance(event, Notice):
            if event.refusal is not None:
                self.lobby.refused(event.refusal)
            else:
                self.lobby.notes.append(safe_text(event.text))
        elif isinstance(event, Failed):
            self.lobby.notes.append(plain_refusal(event.refusal))
        elif isinstance(event, Started):
            words = " ".join(check_words(event.genesis.game_id))
            self.lobby.notes.append(f"the game starts; check words: {words}")
        elif not isinstance(event, Changed):  # a change is drawn from the lobby's view
            return
        if self.current is not None:
            self.current.invalidate()

    def send(self, command: Callable[[], None]) -> None:
        """Run ``command`` on the trio side."""
        self._requests.send(command)

    def leave(self) -> None:
        """The user leaves before the game: cancel the command."""
        self.left = True

        def cancel() -> None:
            if self._cancel is not None:
                self._cancel.cancel()

        self.send(cancel)

    async def _pump(self, requests: trio.MemoryReceiveChannel[Callable[[], None]]) -> None:
        """Run the lobby requests the keys send, in order; a refusal goes to the status line."""
        async for request in requests:
            try:
                request()
            except LobbyError as exc:
                self.lobby.refused(exc.refusal)
            except ValueError as exc:
                self.lobby.refused(str(exc))
            self._redraw()

    async def choose(self, games: list[str], ambiguous: Sequence[bool] = ()) -> int:
        """Show the games heard on the LAN and wait for the user to pick one. Return its index.

        The user picks. So an ``ambiguous`` game is only marked, in its line."""
        self.lobby.heard = list(games)
        self.lobby.notes.clear()  # "listening for games...": the list is the answer
        self.lobby.say("pick a game: Up/Down then Enter, or type its number (q: leave)")
        self._redraw()
        picked = trio.Event()
        token = trio.lowlevel.current_trio_token()
        self.lobby.on_chosen = lambda index: token.run_sync_soon(picked.set)
        try:
            await picked.wait()
        finally:
            self.lobby.on_chosen = lambda index: None
        assert self.lobby.chosen is not None
        chosen, self.lobby.heard = self.lobby.chosen, []
        return chosen

    async def ask_join_code(self) -> str:
        """Ask for the join code in the status line and wait for the user's Enter."""
        self.lobby.code = ""
        self.lobby.notes.append("this game needs a join code: type the code the host's screen "
                                "shows, then press Enter")
        self._redraw()
        typed: list[str] = []
        done = trio.Event()
        token = trio.lowlevel.current_trio_token()

        def entered(code: str) -> None:
            typed.append(code)
            token.run_sync_soon(done.set)

        self.lobby.on_code = entered
        try:
            await done.wait()
        finally:
            self.lobby.on_code = lambda code: None
            self.lobby.code = None
        return typed[0]

    def lobby_opened(self, runner: HostLobby | GuestLobby, *, host: bool,
                   join_code: str | None = None) -> None:
        """The lobby runs: show it and let the keys drive ``runner``."""
        port = RunnerPort(self, runner, host)
        self.lobby.port = port
        self.lobby.host_tools = port if host else None
        self.lobby.is_host = host
        self.lobby.say("pick a monster with m, then press r when ready")
        self.lobby.join_code = join_code
        if self.current is not None:
            self.current.invalidate()

    def _switch(self, app: Application[None]) -> None:
        self.apps.append(app)
        current = self.current
        if current is not None and current.is_running and current.future is not None \
                and not current.future.done():
            current.exit()

    async def play(self, session: Session, links: Links, log_path: str,
                   restore: Restore | None = None, trace: Trace | None = None) -> bool:
        """The game screen over ``session`` until the game ends or the user quits.

        True means the game ended. ``trace`` is only for the plain interface, as the benchmark
        does not draw.
        """
        self.lobby.port = _Joining()
        pipe: Pipe[Command] = Pipe()
        base = session.bot_delay
        ctrl, app = _game_screen(session, pipe.send, log_path, self.options)
        self.game = ctrl
        self._switch(app)
        view = _BridgeView(ctrl, app.invalidate, session, base)
        return await run_session(session, links=links, view=view, restore=restore,
                                 commands=Commands(pipe.open(), view.answer))


def run_net_ui(main: Callable[[NetScreen], Awaitable[int]], options: UiOptions) -> int:
    """Run a networked command behind the full screen; return its exit code.

    ``main`` is the command's trio code. The exit code is 0 when the user left the lobby. What the
    game left for the terminal is printed once the screen is gone. That holds also when it
    stopped on Ctrl-C or an error.
    """
    screen = NetScreen(options)
    try:
        return asyncio.run(_net_main(screen, main, options))
    finally:
        screen.after.print(sys.stdout)


async def _net_main(screen: NetScreen, main: Callable[[NetScreen], Awaitable[int]],
                    options: UiOptions) -> int:

    def show(text: str, refusal: Refusal | None) -> None:
        said = safe_text(text) if refusal is None else plain_refusal(refusal)
        if screen.game is not None:
            screen.game.add_log(said, "log.warn")
        else:
            screen.lobby.notes.append(said)

    with logs_to(show):
        return await _run_net(screen, main, options)


async def _run_net(screen: NetScreen, main: Callable[[NetScreen], Awaitable[int]],
                   options: UiOptions) -> int:
    loop = asyncio.get_running_loop()
    done: asyncio.Future[int] = loop.create_future()

    async def trio_main() -> int:
        result = 0
        async with trio.open_nursery() as nursery:
            nursery.start_soon(screen._pump, screen._requests.open())
            with trio.CancelScope() as scope:
                screen._cancel = scope
                result = await main(screen)
            nursery.cancel_scope.cancel()
        return result

    def finished(outcome: Any) -> None:
        try:
            done.set_result(outcome.unwrap())
        except BaseException as exc:
            done.set_exception(exc)
            failure = _command_error(exc)
            if failure is not None and screen.game is None and not screen.left \
                    and screen.current is not None:  # the lobby stays up to say why
                screen.lobby.fail(_refusal_of(failure))
                screen.current.invalidate()
                return
        current = screen.current
        if (current is not None and current.future is not None and not current.future.done()
                and (screen.game is None or screen.game.end is None)):
            current.exit()

    trio.lowlevel.start_guest_run(
        trio_main, run_sync_soon_threadsafe=loop.call_soon_threadsafe,
        done_callback=finished, host_uses_signal_set_wakeup_fd=True)
    app: Application[None] | None = build_lobby_app(screen.lobby, colour=options.colour,
                                                    ascii_only=options.ascii_only)
    while app is not None:
        screen.current = app
        await app.run_async()
        _wrap_lines_again(app)
        if screen.lobby.exit_requested and not screen.left:
            screen.leave()
        if screen.game is not None and screen.game.end is not None \
                and screen.game.exit_requested:
            screen.left_end()
        app = screen.apps.popleft() if screen.apps else None
    screen.current = None
    try:
        result = await done
    except BaseException as exc:
        failure = _command_error(exc)
        if failure is None:
            raise
        raise CommandError(plain_refusal(_refusal_of(failure)), failure.refusal) from None
    if screen.lobby.interrupted or (screen.game is not None and screen.game.interrupted):
        raise KeyboardInterrupt
    if screen.left:
        print("left the lobby")
    return result


def _refusal_of(failure: CommandError) -> Refusal | str:
    """The refusal that stopped a command, with its code, or else the error's text."""
    return failure.refusal if failure.refusal is not None else str(failure)


def _command_error(exc: BaseException) -> CommandError | None:
    """The error the user can fix that ended a command, taken out of trio's exception groups."""
    if isinstance(exc, CommandError):
        return exc
    if isinstance(exc, BaseExceptionGroup):
        found = [_command_error(e) for e in exc.exceptions]
        if found and all(f is not None for f in found):
            return found[0]
    return None
