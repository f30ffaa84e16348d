"""What ``host`` and ``join`` report to, and the plain line interface's way of showing it.

The network game never prints for a screen to read. It calls a :class:`NetView`.

The plain interface is :class:`PlainNet`. It prints each report as a line, as the terminal has
always shown it. It reads the user's lines from standard input. The full screen is
:class:`~kotp2p.app.fullscreen.NetScreen`. It updates what it draws.
"""

from __future__ import annotations

import queue
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol, TextIO

import trio

from kotp2p import rules
from kotp2p.app.errors import CommandError
from kotp2p.app.gametypes import Restore
from kotp2p.app.trace import Trace, TracedView
from kotp2p.net.lobby import GuestEvent, HostEvent, LobbyError
from kotp2p.net.session import Session
from kotp2p.net.transport import GuestLobby, HostLobby, Links, View, run_session
from kotp2p.net.wire import Refusal, Why
from kotp2p.ui import PlainLobby, PlainView, Request


class NetView(Protocol):
    """What ``host`` and ``join`` tell the user, from the lobby to the end of the game."""

    thinks_aside: bool
    """The bots of this process think away from the loop, so that the view never waits on
    them: a full screen redraws and takes keys while they think."""

    def notice(self, text: str) -> None:
        """A line about what the command does.

        It may name the port it hosts on, or whom it joins. It may tell of the search for games,
        or of the game that begins.
        """
        ...

    def lobby_opened(self, runner: HostLobby | GuestLobby, *, host: bool,
                     join_code: str | None) -> None:
        """The lobby runs: show it; the user's requests go to ``runner``."""
        ...

    def lobby_table(self, lines: list[str]) -> None:
        """The lobby as it opens, in plain lines. A screen draws it from the lobby's view."""
        ...

    def lobby_event(self, event: HostEvent | GuestEvent) -> None:
        """News of the lobby: a change, a notice, a failure, the start."""
        ...

    async def lobby_input(self) -> None:
        """Carry the user's requests to the lobby until cancelled or the input ends."""
        ...

    async def choose(self, games: list[str], ambiguous: Sequence[bool] = ()) -> int:
        """Show the games heard on the LAN and wait for the user's pick. Return its index.

        ``ambiguous`` marks the games a look-alike may stand for. A pick made without the user
        never takes one of them.

        :raises CommandError: the answer picks no game.
        """
        ...

    async def ask_join_code(self) -> str:
        """Ask for the join code of the game picked, whose beacon says it needs one.

        :raises CommandError: nobody can type it.
        """
        ...

    async def play(self, session: Session, links: Links, log_path: str,
                   restore: Restore | None, trace: Trace | None) -> bool:
        """Play ``session`` over ``links`` until the game ends or the user stops.

        True means the game ended.
        """
        ...

    def game_stopped(self, text: str) -> None:
        """The game stopped resumably; ``text`` says where its log is and how to go on."""
        ...

    def leaving(self, hurry: Callable[[], None]) -> None:
        """The game ended, and the peers get time to read its end. Call ``hurry`` once the user
        leaves the end of the game, so they get less. It runs in trio."""
        ...

    def game_ended(self, session: Session, log_path: Path, over: bool) -> None:
        """The game is played out here, and its log is at ``log_path``.

        ``over`` means the game ended.
        """
        ...


class Lines:
    """Lines typed on standard input, read by one daemon thread.

    The thread starts on first use.
    """

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self._queue: queue.Queue[str] = queue.Queue()
        self._thread: threading.Thread | None = None

    def _read(self) -> None:
        while True:
            try:
                line = self.stream.readline()
            except (OSError, ValueError):
                line = ""
            self._queue.put(line)
            if not line:
                return

    def _start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._read, daemon=True, name="kotp2p-input")
            self._thread.start()

    def get(self) -> str:
        """The next line, waiting for it. At the end of input it is ""."""
        self._start()
        return self._queue.get()

    def get_within(self, seconds: float) -> str | None:
        """The next line if one comes within ``seconds``, else None."""
        self._start()
        try:
            return self._queue.get(timeout=seconds)
        except queue.Empty:
            return None


class PlainNet:
    """The plain line interface of ``host`` and ``join``. Every report is a line on ``out``.

    ``lines`` are what the user types. None means nobody types: a bot plays the user's seat. The
    lobby and the game share the lines typed, so none is lost between them.
    """

    thinks_aside = False  # a line typed ahead waits for its turn: the bots decide in place

    def __init__(self, out: TextIO, lines: Lines | None, *, host: bool = False) -> None:
        self.out = out
        self.lines = lines
        self.lobby = PlainLobby(out, rules.MONSTERS, host=host)
        self._runner: HostLobby | GuestLobby | None = None

    @classmethod
    def on_terminal(cls, *, host: bool, typing: bool) -> PlainNet:
        """The plain interface on standard output; standard input is read when ``typing``."""
        return cls(sys.stdout, Lines(sys.stdin) if typing else None, host=host)

    def notice(self, text: str) -> None:
        """Print ``text``."""
        self.lobby.say(text)

    def lobby_opened(self, runner: HostLobby | GuestLobby, *, host: bool,
                     join_code: str | None) -> None:
        """Typed lines go to ``runner`` from now on."""
        self._runner = runner

    def lobby_table(self, lines: list[str]) -> None:
        """Print the lobby's lines."""
        for line in lines:
            self.lobby.say(line)

    def lobby_event(self, event: HostEvent | GuestEvent) -> None:
        """Print what the user should see of ``event``."""
        self.lobby.show(event)

    async def lobby_input(self) -> None:
        """Feed typed lines to the lobby until cancelled or the input ends."""
        if self.lines is None or self._runner is None:
            return
        while True:
            line = await trio.to_thread.run_sync(self.lines.get_within, 0.2)
            if line is None:
                continue
            if not line:
                self._input_closed()
                return
            self._lobby_line(line)

    def _input_closed(self) -> None:
        """The input ended in the lobby: refuse to wait for a line that cannot come.

        A host must type ``start`` and a joiner ``ready``. Once that is done, the game goes on
        without input: the plain game stops the user's seat when it needs a line.

        :raises CommandError: the game cannot start without a typed line.
        """
        runner = self._runner
        if isinstance(runner, HostLobby):
            need, waiting = "start", runner.lobby.phase == "lobby"
        elif runner is not None:
            seat, view = runner.lobby.seat, runner.lobby.view
            need = "ready"
            waiting = seat is None or view is None or not view.seats[seat].ready
        else:
            return
        if waiting:
            raise CommandError(f"standard input closed before `{need}` was typed, so the game "
                               "cannot start; expected the lobby's commands on standard input, "
                               "or --bot LEVEL to let a bot play your seat")

    def _lobby_line(self, line: str) -> None:
        """Carry out the request a typed lobby line asks for; a refusal is said, not raised."""
        request = self.lobby.request(line)
        if request is None:
            return
        try:
            self._request(request)
        except LobbyError as exc:
            self.lobby.say(str(exc))

    def _request(self, request: Request) -> None:
        runner = self._runner
        if isinstance(runner, HostLobby):
            runner.command(request.to_host)
        elif runner is not None:
            runner.command(request.to_guest)

    async def choose(self, games: list[str], ambiguous: Sequence[bool] = ()) -> int:
        """Print the games numbered, then read the number typed.

        When nobody types, the pick is the first game that is not ``ambiguous``.

        :raises CommandError: the answer picks no game, or nobody types and every game is
            ambiguous.
        """
        for i, game in enumerate(games, start=1):
            self.notice(f"  {i}. {game}")
        if self.lines is None:
            return self._pick_alone(games, ambiguous)
        self.notice("which game? (number)")
        text = await trio.to_thread.run_sync(self.lines.get, abandon_on_cancel=True)
        if not text.strip().isdigit() or not 1 <= int(text) <= len(games):
            raise CommandError(f"expected a number from 1 to {len(games)}")
        return int(text) - 1

    def _pick_alone(self, games: list[str], ambiguous: Sequence[bool]) -> int:
        """The first game that no look-alike may stand for, said aloud."""
        doubtful = [i for i in range(len(games)) if i < len(ambiguous) and ambiguous[i]]
        if doubtful:
            numbers = ", ".join(str(i + 1) for i in doubtful)
            one = len(doubtful) == 1
            which = (f"game {numbers}: its name or host key is" if one
                     else f"games {numbers}: their names or host keys are")
            self.notice(f"not picking {which} announced twice, so a look-alike may stand in "
                        f"{'its' if one else 'their'} place")
        for i in range(len(games)):
            if i not in doubtful:
                return i
        raise CommandError("every game heard has a name or host key that is announced twice, "
                           "so none is picked without you; compare the host key with the one on "
                           "the host's screen and join with the host's address: "
                           "kotp2p join HOST[:PORT]")

    async def ask_join_code(self) -> str:
        """Print the question, then read the code typed.

        When nobody types, or the input ends, say how to give the code instead."""
        needs = CommandError.refused(Refusal(
            Why.NEEDS_JOIN_CODE, "this game needs a join code; give it with --join-code CODE"))
        if self.lines is None:
            raise needs
        self.notice("this game needs a join code: type the code the host's screen shows")
        line = await trio.to_thread.run_sync(self.lines.get, abandon_on_cancel=True)
        if not line:
            raise needs
        return line.strip()

    async def play(self, session: Session, links: Links, log_path: str,
                   restore: Restore | None, trace: Trace | None) -> bool:
        """Print the game as it goes; typed lines are its input."""
        view = PlainView(session, self.out)
        shown: View = view if trace is None else TracedView(view, trace)
        return await run_session(session, links=links, view=shown, restore=restore,
                                 read_line=self.lines.get if self.lines is not None else None)

    def game_stopped(self, text: str) -> None:
        """Print ``text``."""
        self.notice(text)

    def leaving(self, hurry: Callable[[], None]) -> None:
        """Nothing: the plain interface has no end screen to leave, so the peers get their time."""

    def game_ended(self, session: Session, log_path: Path, over: bool) -> None:
        """Print where the log is."""
        self.notice(f"Log: {log_path}")


__all__ = ["Lines", "NetView", "PlainNet"]
