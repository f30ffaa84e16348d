"""The ``identity``, ``verify`` and ``replay`` subcommands (the CLI only parses arguments); they
print, so they live on the CLI side, outside the sans-IO ``kotp2p.net``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kotp2p.net.files import (
    LogContents,
    identity_path,
    load_identity,
    new_identity,
    read_log,
    rename_identity,
)
from kotp2p.net.trust import GameEngine, State
from kotp2p.net.verify import INCOMPLETE, DifferentGames, verify_logs
from kotp2p.net.wire import RemoteProtocolError

NOT_PROVEN = 2
"""Exit code when nothing could be checked (as for INCOMPLETE): unreadable or not a log."""


def run_identity_command(args: argparse.Namespace) -> int:
    """Show this user's identity, making it on first use (``--new``: a fresh key; ``--name``)."""
    path = identity_path()
    try:
        if args.new:
            ident = new_identity(path, args.name)
            print("made a new key; the old one (if any) is kept beside it")
        elif args.name:
            ident = rename_identity(args.name, path)
        else:
            ident = load_identity(path)
    except ValueError as exc:
        print(f"kotp2p: {exc}", file=sys.stderr)
        return 1
    print(f"{ident.name} [{ident.fingerprint}]")
    print(f"key file: {path}")
    return 0


def _read(paths: list[str]) -> list[LogContents] | None:
    logs = []
    for name in paths:
        try:
            logs.append(read_log(Path(name)))
        except RemoteProtocolError as exc:
            print(f"kotp2p: {exc.reason}", file=sys.stderr)
            return None
        except OSError as exc:
            print(f"kotp2p: cannot read {name}: {exc.strerror or exc}", file=sys.stderr)
            return None
    return logs


def _engine() -> GameEngine:
    from kotp2p.net.trust import RulesEngine

    return RulesEngine()


def run_verify_command(args: argparse.Namespace) -> int:
    """Verify one or more logs of one game: 0 VALID, 1 INVALID, 2 INCOMPLETE."""
    logs = _read(args.logs)
    if logs is None:
        return NOT_PROVEN
    try:
        verdict = verify_logs(logs, _engine())
    except DifferentGames as exc:
        print(f"kotp2p: {exc}", file=sys.stderr)
        return NOT_PROVEN
    print(verdict.to_json() if args.json else verdict.render())
    if args.evidence:
        if verdict.evidence:
            Path(args.evidence).write_bytes(verdict.evidence)
            if not args.json:
                print(f"evidence written to {args.evidence} (check it with: kotp2p verify "
                      f"{args.evidence})")
        elif not args.json:
            print("no evidence to write: the verdict is not INVALID")
    return verdict.exit_code


def _state_in_words(state: State) -> list[str]:
    """The state as the plain interface shows it (Tokyo, each monster's ★ ♥ ⚡ and cards, the
    market), the dice as faces; once the game is over, without the dice or whose turn it was."""
    from kotp2p import rules
    from kotp2p.ui import format_state

    lines = [line for line in format_state(state, state.monsters)
             if not line.startswith("Dice: ")]
    if state.over:
        return [line.replace("> ", "  ", 1) if line.startswith("> ") else line
                for line in lines]
    if state.dice:
        lines.insert(-1, f"Dice: {rules.SYMBOLS.dice(state.dice)}; "
                         f"rolls left {state.rolls_left}")
    return lines


def run_replay_command(args: argparse.Namespace) -> int:
    """Print a game turn by turn, or up to ``--step``; ``--verbose``: every detail."""
    from kotp2p.net.verify import replay_lines

    logs = _read([args.log])
    if logs is None:
        return NOT_PROVEN
    try:
        lines = replay_lines(logs[0], _engine(), args.step, args.all_details, _state_in_words)
    except ValueError as exc:
        print(f"kotp2p: {exc}", file=sys.stderr)
        return NOT_PROVEN
    print("\n".join(lines))
    return 0


__all__ = ["INCOMPLETE", "run_identity_command", "run_replay_command", "run_verify_command"]
