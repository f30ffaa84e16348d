"""The one entry of the command line into the app.

:func:`run` runs a subcommand with its parsed arguments. Here too is chosen how a game is shown.
On a terminal it is the full screen, else the plain line interface.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import sys
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from kotp2p.app.errors import CommandError
from kotp2p.net.files import HomeError

if TYPE_CHECKING:  # loaded with the command that needs them
    from kotp2p.app.fullscreen import NetScreen, UiOptions
    from kotp2p.app.gametypes import Connect, FullScreen, Restore
    from kotp2p.app.netgame import NetScreenRun
    from kotp2p.net.session import Session


def ui_options(args: argparse.Namespace) -> UiOptions | None:
    """How to draw the full screen, or None for the plain line interface.

    The plain line interface comes with ``--plain``, or when standard input or output is not a
    terminal.

    :raises CommandError: a ``--pause`` or ``--auto-leave`` that makes no sense.
    """
    check_ui_args(args)
    if _plain(args):
        return None
    from kotp2p.app.fullscreen import UiOptions
    from kotp2p.ui import Comfort
    from kotp2p.ui.full import wants_colour

    return UiOptions(ascii_only=args.ascii, colour=wants_colour(os.environ, args.no_color),
                     comfort=Comfort(args.auto_leave, args.auto_stay, args.pause,
                                     args.ask_evolutions))


def _plain(args: argparse.Namespace) -> bool:
    """Whether the plain line interface is asked for, or the terminal leaves no other choice."""
    return getattr(args, "plain", True) or not (sys.stdin.isatty() and sys.stdout.isatty())


def check_ui_args(args: argparse.Namespace) -> None:
    """Refuse a ``--pause``, ``--auto-leave`` or ``--auto-stay`` the options page could not show.

    The plain interface does not use them, but a wrong value is refused there too.

    :raises CommandError: one of them is out of its range.
    """
    from kotp2p.ui import AUTO_LEAVE_MAX, AUTO_STAY_MAX

    if not 0 <= args.pause < math.inf:
        raise CommandError(f"expected --pause of 0 or more seconds, found {args.pause:g}")
    for option, value, top in (("--auto-leave", args.auto_leave, AUTO_LEAVE_MAX),
                               ("--auto-stay", args.auto_stay, AUTO_STAY_MAX)):
        if value is not None and not 1 <= value <= top:
            raise CommandError(f"expected {option} from 1 to {top} hearts, found {value}")


def _full_screen(args: argparse.Namespace) -> FullScreen | None:
    """The full-screen UI for ``play`` and ``resume``, or None for the plain line interface."""
    options = ui_options(args)
    if options is None:
        return None
    from kotp2p.app.fullscreen import run_ui

    def ui(session: Session, log_path: str, restore: Restore | None,
           connect: Connect | None) -> bool:
        return run_ui(session, log_path=log_path, options=options, restore=restore,
                      connect=connect)

    return ui


def _net_screen(args: argparse.Namespace) -> NetScreenRun | None:
    """The full screen for ``host`` and ``join``: a function running their trio code behind it.

    None means the plain line interface. It is always None when a bot plays the user's seat.
    """
    if args.bot is not None:
        check_ui_args(args)
        return None
    options = ui_options(args)
    if options is None:
        return None
    from kotp2p.app.fullscreen import run_net_ui

    def screen(main: Callable[[NetScreen], Awaitable[int]]) -> int:
        return run_net_ui(main, options)

    return screen


def _play(args: argparse.Namespace) -> int:
    from kotp2p.app.localgame import run_play_command

    return run_play_command(args, _full_screen(args))


def _resume(args: argparse.Namespace) -> int:
    from kotp2p.app.resume import run_resume_command

    return run_resume_command(args, _full_screen(args))


def _games(args: argparse.Namespace) -> int:
    from kotp2p.app.games import run_games_command

    return run_games_command(args)


def _host(args: argparse.Namespace) -> int:
    from kotp2p.app.netgame import run_host_command

    return run_host_command(args, _net_screen(args))


def _join(args: argparse.Namespace) -> int:
    from kotp2p.app.netgame import run_join_command

    return run_join_command(args, _net_screen(args))


def _simulate(args: argparse.Namespace) -> int:
    from kotp2p.app.simulate import run_simulate_command

    return run_simulate_command(args)


def _identity(args: argparse.Namespace) -> int:
    from kotp2p.app.identity import run_identity_command

    return run_identity_command(args)


def _verify(args: argparse.Namespace) -> int:
    from kotp2p.app.logs import run_verify_command

    return run_verify_command(args)


def _replay(args: argparse.Namespace) -> int:
    from kotp2p.app.logs import run_replay_command

    return run_replay_command(args)


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "play": _play, "resume": _resume, "games": _games, "host": _host, "join": _join,
    "simulate": _simulate, "identity": _identity, "verify": _verify, "replay": _replay,
}
"""Each subcommand's function.

A module loads only when its command runs, so the start is quick.
"""


def run(command: str, args: argparse.Namespace) -> int:
    """Run subcommand ``command`` with its parsed ``args``; its exit code.

    :raises CommandError: a mistake the user can fix, such as a data directory that cannot be
        used or a damaged key file.
    :raises KeyError: no such command.
    """
    try:
        if getattr(args, "ascii", False) and _plain(args):
            # --ascii in the plain interface: every line printed is ASCII.
            from kotp2p.ui import AsciiWriter

            with contextlib.redirect_stdout(AsciiWriter(sys.stdout)):
                return COMMANDS[command](args)
        return COMMANDS[command](args)
    except HomeError as exc:
        raise CommandError(str(exc)) from None

__all__ = ["COMMANDS", "run", "ui_options"]
