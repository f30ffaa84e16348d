"""The ``kotp2p`` command line.

It parses the arguments and runs the subcommand with :func:`kotp2p.app.run`, which returns its
exit code.

The exit codes:

* 0: success.
* 1: our error, such as bad input or a failed check.
* 2: a usage error.
* 3: a crash. The message points at the log file that holds the traceback.
* 130: Ctrl-C.
* 141: a closed pipe cut the output, as in ``kotp2p replay GAME | head``. The command stops
  quietly, as ``cat`` would.

Every command's ``--help`` lists them with what they mean for that command. See
:func:`exit_codes_help`.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import tempfile
import traceback
from collections.abc import Sequence
from pathlib import Path

from kotp2p import __version__

log = logging.getLogger(__name__)

__all__ = ["main"]


def _add_simulate(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "simulate",
        help="play games between bots and print statistics",
        description="Play games between bots, a seeded PRNG driving every die and draw.",
    )
    p.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    p.add_argument("--players", type=int, default=4, help="seats per game, 2-6 (default 4)")
    p.add_argument("--seed", type=int, default=0, help="PRNG seed; same seed, same games")
    p.add_argument(
        "--bots",
        default="random",
        help="comma-separated bot kinds, cycled over the seats (random, greedy, hard); default "
        "random",
    )
    _add_playouts(p)
    p.add_argument("--jobs", type=int, default=1, metavar="N",
                   help="play the games in N processes, the same games in the same order "
                   "(default 1)")
    p.add_argument("--halloween", action="store_true",
                   help="play with the Halloween expansion; the summary adds the costumes")
    p.add_argument("--power-up", action="store_true",
                   help="play with Power Up!: each game deals the seats monsters among all 12; "
                   "the summary adds the Evolutions played and each monster's win rate")
    p.add_argument("--check", action="store_true",
                   help="test the rules' invariants after every input; exit 1 if one breaks")
    p.add_argument("--engine", choices=("auto", "pure", "compiled"), default="auto",
                   help="the rules engine: compiled (built by scripts/build_engine), pure "
                   "Python, or auto, the compiled one when it is built for these sources "
                   "(default); both play the same games")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def _add_identity(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "identity",
        help="show your key fingerprint and name (made on first use)",
        description="Show your long-term signing key's fingerprint and your display name. "
        "The key is made on first use and kept in your config directory (mode 0600).",
    )
    p.add_argument("--new", action="store_true", help="make a new key (the old one is kept)")
    p.add_argument("--name", help="set your display name")


def _add_verify(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "verify",
        help="check game logs: VALID, INVALID (who cheated, with proof) or INCOMPLETE",
        description="Merge the .kotlog files of one game and check every signature, move, "
        "die and card.",
    )
    p.add_argument("logs", nargs="+", metavar="LOG",
                   help="logs of the same game: .kotlog files, or the id of a game on disk "
                   "(`kotp2p games` lists them; the first digits are enough)")
    p.add_argument("--json", action="store_true", help="print the verdict as JSON")
    p.add_argument(
        "--evidence", metavar="FILE", help="when INVALID, write the signed proof to FILE"
    )


def _add_replay(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "replay",
        help="print a game turn by turn from its log",
        description="Print a game from its .kotlog: dice, choices, purchases, and the state. "
        "GAME is a .kotlog file or the id of a game on disk (`kotp2p games` lists them; the "
        "first digits are enough); by default the latest game.",
    )
    p.add_argument("log", nargs="?", metavar="GAME",
                   help="the game (default: the latest game on disk)")
    p.add_argument("--step", type=int, help="stop after this step and show the state there")
    p.add_argument(
        "--verbose",
        dest="all_details",
        action="store_true",
        help="every detail: each move's author, each random value, the decisions the engine "
        "took because only one answer was legal, and the last state in the rules' notation",
    )


_SCREEN_HELP = (
    "The game is played in the full screen: the keys you can press now are listed at its foot, "
    "? shows the help, q leaves (`kotp2p resume` goes on). With --plain (or "
    "when not on a terminal) it is a line interface instead: type the number of an action or "
    "its words, with dice counted from 1 as shown (keep 1 3 keeps dice 1 and 3 and re-rolls the "
    "others, r re-rolls the dice not kept, an empty line resolves the dice or is done buying, "
    "y yields Tokyo, s stays, buy 2 buys market slot 2); `help` lists the commands.")
"""How ``play`` and ``resume`` are played, for their --help."""


def _lobby_help(host: bool) -> str:
    """How ``host`` and ``join`` are played, for their --help."""
    keys = "m pick a monster, r ready, s start, q leave" if host else \
        "m pick a monster, r ready, q leave"
    return (f"In the full screen the lobby lists its keys at its foot ({keys}), then the "
            "game's screen lists its keys and ? shows the help. With --plain (or when not on a "
            "terminal) you type lines instead: `help` lists the lobby's commands, then the "
            "game's.")


def _add_ui_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--plain", action="store_true",
                   help="the plain line interface instead of the full screen (also the default "
                   "when standard input or output is not a terminal)")
    p.add_argument("--ascii", action="store_true", help="ASCII symbols only (no ★ ♥ ⚡)")
    p.add_argument("--no-color", action="store_true",
                   help="monochrome (also when the NO_COLOR environment variable is set)")
    p.add_argument("--pause", type=float, default=0.8, metavar="S",
                   help="seconds to show others' moves before the next one (default 0.8; "
                   "after your roll or a hit on you, 3 times as long, at least 2 s)")
    p.add_argument("--auto-leave", type=int, metavar="HP",
                   help="yield Tokyo by itself when smashed at or under HP hearts, 1 to 9")
    p.add_argument("--auto-stay", type=int, metavar="HP",
                   help="stay in Tokyo by itself when smashed at or over HP hearts, 1 to 12")
    p.add_argument("--ask-evolutions", choices=("always", "playable", "never"),
                   default="playable",
                   help="Power Up!: when the full screen asks whether you play an Evolution: "
                   "at every window, only with a card playable now (default), or never")


def _add_playouts(p: argparse.ArgumentParser) -> None:
    p.add_argument("--playouts", type=int, metavar="N",
                   help="games a hard bot plays out for each choice when it judges whether "
                   "to leave Tokyo, and in a duel what to buy (default 64): more plays "
                   "stronger and thinks longer; 0 leaves it to rules of thumb")


def _add_play(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "play",
        help="play a game against bots on this machine",
        description="Play against bots in this process, through the same signed protocol and "
        "log as a networked game (the log verifies with `kotp2p verify`). " + _SCREEN_HELP,
    )
    p.add_argument("--bots", type=int, default=3, help="how many bots, 1-5 (default 3)")
    p.add_argument("--level", default="greedy", help="the bots' level: random, greedy or hard "
                   "(default greedy)")
    p.add_argument("--monster", help="your monster (default: the first free one)")
    p.add_argument("--seed", type=int, help="derive the bots' keys and every chain from this "
                   "number: the same game again for the same player (your key is part of the "
                   "game, so another player's seed 7 is another game); for tests and demos")
    p.add_argument("--bot", metavar="LEVEL", help="a bot of this level plays your seat")
    p.add_argument("--bot-delay", type=float, default=0.0, metavar="S",
                   help="seconds a bot waits before each decision (default 0)")
    _add_playouts(p)
    p.add_argument("--halloween", action="store_true",
                   help="play with the Halloween expansion: costumes, and stealing them")
    p.add_argument("--power-up", action="store_true",
                   help="play with Power Up!: each monster's own Evolution cards, in a hand "
                   "nobody else sees")
    _add_ui_options(p)


def _add_resume(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "resume",
        help="continue a stopped or crashed game from its log",
        description="Reopen a game's log (cutting a torn last frame), rebuild the game and go "
        "on. GAME is an id prefix from `kotp2p games` or a .kotlog path; by default the latest "
        "unfinished game. " + _SCREEN_HELP,
    )
    p.add_argument("game", nargs="?", metavar="GAME", help="the game (default: latest unfinished)")
    p.add_argument("--bot", metavar="LEVEL", help="a bot of this level plays your seat")
    p.add_argument("--bot-delay", type=float, default=0.0, metavar="S",
                   help="seconds a bot waits before each decision (default 0)")
    p.add_argument("--bind", metavar="ADDR", help="a networked game listens on this address "
                   "only (default: all), as with host and join")
    _add_playouts(p)
    _add_ui_options(p)


def _add_games(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "games",
        help="list the games on disk",
        description="List the games in your data directory: id, date, players, state, winner "
        "and log path.",
    )
    p.add_argument("--json", action="store_true", help="print the list as JSON")


def _add_game_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--name", help="your name in this game (default: your identity's)")
    p.add_argument("--bot", metavar="LEVEL", help="a bot of this level plays your seat")
    p.add_argument("--bot-delay", type=float, default=0.0, metavar="S",
                   help="seconds a bot waits before each decision (default 0)")
    p.add_argument("--bind", metavar="ADDR", help="listen on this address only (default: all)")
    _add_playouts(p)
    _add_ui_options(p)
    p.add_argument("--trace", metavar="FILE", help=argparse.SUPPRESS)  # timing marks for the bench


def _add_host(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "host",
        help="host a game on the LAN: others join it",
        description="Open a lobby others join with `kotp2p join`, announce it on the LAN, and "
        "start when every seat is ready. " + _lobby_help(True) + " With --bot the game starts by "
        "itself as soon as every seat is filled and ready, in the plain interface.",
    )
    p.add_argument("--port", type=int, default=7447,
                   help="the lobby's TCP port (default 7447; a free one if taken, and it says "
                   "which)")
    p.add_argument("--seats", type=int, default=4, help="seats in the game, 2-6 (default 4)")
    p.add_argument("--bots", type=int, default=0, help="seats played by bots in this process")
    p.add_argument("--level", default="greedy", help="those bots' level: random, greedy or hard "
                   "(default greedy)")
    p.add_argument("--two-player-variant", choices=("on", "off"),
                   help="the 2-player rules (default: when two play)")
    p.add_argument("--halloween", action="store_true",
                   help="play with the Halloween expansion: costumes, and stealing them (the "
                   "lobby can turn it off again)")
    p.add_argument("--power-up", action="store_true",
                   help="play with Power Up!: each monster's Evolution cards, in a hand nobody "
                   "else sees (the lobby can turn it off again)")
    p.add_argument("--timeout", type=int, default=120, metavar="SECONDS",
                   help="seconds before an absent player may be ejected, 10 to 3600 "
                   "(default 120)")
    p.add_argument("--join-code", metavar="CODE", nargs="?", const=True,
                   help="joiners must give this code; without CODE, a new one to say aloud, "
                   "such as 7-tiger-ocean, is made and shown")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--announce", metavar="ADDR",
                       help="send the beacon to ADDR[:PORT] (default: the LAN broadcast)")
    where.add_argument("--no-announce", action="store_true", help="send no beacon")
    _add_game_options(p)


def _add_join(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "join",
        help="join a game hosted on the LAN",
        description="Join the lobby at HOST[:PORT] (port 7447 by default), or, without an "
        "address, list the games announced nearby and pick one. " + _lobby_help(False),
    )
    p.add_argument("address", nargs="?", metavar="HOST[:PORT]",
                   help="the host's lobby; an IPv6 address goes in brackets, as [::1]:7447")
    p.add_argument("--join-code", metavar="CODE",
                   help="the code the host's screen shows; case and spaces or hyphens between "
                   "its words do not matter")
    p.add_argument("--discover", metavar="ADDR", default="0.0.0.0:7447",
                   help="where to listen for beacons (default 0.0.0.0:7447)")
    _add_game_options(p)


EXIT_CODES: dict[int, str] = {
    0: "success",
    1: "an error you can fix (bad option, missing file, failed check)",
    2: "usage error (an unknown command, a bad or missing option)",
    3: "internal error; the message names a file holding the details",
    130: "interrupted with Ctrl-C",
    141: "the output's reader went away (`| head`): the command stopped quietly",
}
"""What each exit code means, for every command.

:data:`COMMAND_EXIT_CODES` says more for some commands. There a code may mean more, or may never
be returned.
"""

_GAME_EXIT_CODES: dict[int, str | None] = {
    0: "the game ended, or you stopped it (`kotp2p resume` goes on with it)",
    130: "interrupted with Ctrl-C (`kotp2p resume` goes on with the game)",
}
_NET_EXIT_CODES: dict[int, str | None] = {
    0: "the game ended or you stopped it (resumable), or you left the lobby",
    130: "interrupted with Ctrl-C (a started game is resumable: `kotp2p resume`)",
}

COMMAND_EXIT_CODES: dict[str, dict[int, str | None]] = {
    "play": _GAME_EXIT_CODES,
    "resume": _GAME_EXIT_CODES,
    "host": _NET_EXIT_CODES,
    "join": _NET_EXIT_CODES,
    "verify": {
        0: "VALID",
        1: "INVALID: a player broke the rules (named, with the proof)",
        2: "INCOMPLETE, no such game or not a readable game log, or a usage error",
    },
    "games": {1: None},
    "replay": {
        1: None,
        2: "no such game, a log that cannot be read, not a game log, or a usage error",
    },
}
"""Per command, the codes whose meaning differs from :data:`EXIT_CODES`.

None marks a code the command never returns.
"""


def exit_codes_help(command: str | None = None) -> str:
    """The "exit codes:" section of a help text, one line per code in numeric order.

    With a ``command``, the section is that subcommand's.
    """
    codes: dict[int, str | None] = {**EXIT_CODES, **COMMAND_EXIT_CODES.get(command or "", {})}
    lines = [f"  {code:<4} {text}" for code, text in sorted(codes.items()) if text is not None]
    return "exit codes:\n" + "\n".join(lines) + "\n"


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's help layout, except that a text already laid out in lines keeps its lines.

    The exit codes are such a text. A one-paragraph description is still filled to the
    terminal's width.
    """

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if "\n" not in text:
            return super()._fill_text(text, width, indent)
        return "".join(indent + line for line in text.splitlines(keepends=True))


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="kotp2p",
        description="King of Tokyo for 2-6 players on a LAN: no server, no trust needed.",
        epilog=exit_codes_help(),
        formatter_class=_HelpFormatter,
    )
    parser.add_argument("-V", "--version", action="version", version=f"kotp2p {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_play(sub)
    _add_host(sub)
    _add_join(sub)
    _add_resume(sub)
    _add_games(sub)
    _add_simulate(sub)
    _add_identity(sub)
    _add_verify(sub)
    _add_replay(sub)
    for name, command in sub.choices.items():
        command.epilog = exit_codes_help(name)
        command.formatter_class = _HelpFormatter
        command.set_defaults(parser=command)  # for its usage, in an error about its arguments
    return parser


def _parse(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """``argv`` parsed.

    An argument a subcommand does not know is a usage error. It is shown with that subcommand's
    usage, as its other usage errors are. argparse alone would show the top level's usage.

    :raises SystemExit: on a usage error, ``--help`` and ``--version``.
    """
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        command: argparse.ArgumentParser = getattr(args, "parser", parser)
        command.error(f"unrecognized arguments: {' '.join(unknown)}")
    return args


def _crash_log(exc: BaseException) -> Path:
    fd, name = tempfile.mkstemp(prefix="kotp2p-crash-", suffix=".log")
    with open(fd, "w", encoding="utf-8") as f:
        f.write("".join(traceback.format_exception(exc)))
    return Path(name)


PIPE_CLOSED = 141
"""Exit code when the reader of our output went away: 128 + SIGPIPE, as the shell reports."""


def _pipe_closed() -> int:
    """The reader of stdout went away: say nothing more.

    Point stdout at the null device. Then the interpreter's last flush of what is still buffered
    cannot fail again at exit.
    """
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout is not a real file, as in a test's capture
        pass
    finally:
        os.close(devnull)
    return PIPE_CLOSED


def _only_closed_pipes(exc: BaseException) -> bool:
    """True for a closed pipe, alone or grouped. trio gathers its tasks' errors in groups."""
    if isinstance(exc, BaseExceptionGroup):
        return all(_only_closed_pipes(e) for e in exc.exceptions)
    return isinstance(exc, BrokenPipeError)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv``; return the exit code.

    ``argv`` defaults to ``sys.argv[1:]``.
    """
    parser = build_parser()
    try:
        args = _parse(parser, argv)
    except SystemExit as exc:  # argparse exits on --help, --version and usage errors
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            return _pipe_closed()
        return int(exc.code or 0)
    except BrokenPipeError:
        return _pipe_closed()
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    if args.command is None:
        parser.print_help()
        return 2
    if args.command == "simulate":  # before the rules are imported
        from kotp2p import compiled

        try:
            compiled.choose(args.engine)
        except compiled.BuildError as exc:
            print(f"kotp2p: {exc}", file=sys.stderr)
            return 1
    # Loaded only now, so that --help and --version answer at once.
    from kotp2p.app import CommandError, run

    try:
        code = run(args.command, args)
        sys.stdout.flush()  # a closed pipe shows here, not at exit where nobody handles it
        return code
    except BrokenPipeError:
        return _pipe_closed()
    except CommandError as exc:
        print(f"kotp2p: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("kotp2p: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        if _only_closed_pipes(exc):  # a game's output cut inside its event loop's task group
            return _pipe_closed()
        path = _crash_log(exc)
        print(f"kotp2p: internal error: {exc!r}; details in {path}", file=sys.stderr)
        return 3
