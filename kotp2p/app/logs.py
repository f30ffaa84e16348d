"""The ``verify`` and ``replay`` subcommands: what a game's logs prove, and the game they hold."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kotp2p.net.files import LogContents, StoreError, find_log, latest_game, read_log
from kotp2p.net.replica import Replica
from kotp2p.net.trust import GameEngine, State
from kotp2p.net.verify import INCOMPLETE, DifferentGames, verify_logs
from kotp2p.net.wire import RemoteProtocolError

NOT_PROVEN = 2
"""Exit code when nothing could be checked, as for INCOMPLETE.

A log could not be read, or was not a log.
"""


def game_logs(names: list[str | None]) -> list[str] | None:
    """The log files that ``names`` name, or None when one of them names no game.

    Each name is a file, or the id of a game on disk as ``kotp2p games`` lists it, or a prefix
    of one. A name of None means the latest game. When a name names no game, standard error says
    so.
    """
    from kotp2p.net.trust import RulesEngine

    try:
        return [str(latest_game(RulesEngine()).log_path if name is None else find_log(name))
                for name in names]
    except StoreError as exc:
        print(f"kotp2p: {exc}", file=sys.stderr)
        return None


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
    paths = game_logs(args.logs)
    if paths is None:
        return NOT_PROVEN
    logs = _read(paths)
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
    """The state as the plain interface shows it, with the dice as faces.

    It shows Tokyo, each monster's ★ ♥ ⚡ and cards, and the market. Once the game is over, it
    leaves out the dice and whose turn it was.
    """
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
    """Print a game turn by turn, or up to ``--step``. ``--verbose`` adds every detail."""
    from kotp2p.net.verify import replay_lines

    paths = game_logs([args.log])
    logs = None if paths is None else _read(paths)
    if logs is None:
        return NOT_PROVEN
    try:
        lines = replay_lines(logs[0], _engine(), args.step, args.all_details, _state_in_words,
                             _figures)
    except ValueError as exc:
        print(f"kotp2p: {exc}", file=sys.stderr)
        return NOT_PROVEN
    print("\n".join(lines))
    return 0


def _figures(replica: Replica) -> list[str]:
    """The figures of a game that is over, as the end screen shows them, then the hidden
    Evolutions of a Power Up! game, as they became known."""
    from kotp2p.ui import replica_stats, stats_legend, stats_rows

    return ["", "Figures:", *stats_rows(replica_stats(replica, replica.state)),
            "  " + stats_legend(), *hidden_cards_lines(replica)]


def hidden_cards_lines(replica: Replica) -> list[str]:
    """Each seat's Evolution deck slots, with the card each held and the step it became known
    at: played face up, or opened by its owner once hidden. Empty for a game without decks."""
    from kotp2p import rules

    hands, monsters = replica.hands, replica.state.monsters
    if not any(hands.commitments):
        return []
    lines = ["", "Evolutions, as each hidden card became known:"]
    for seat, shown in enumerate(hands.shown_at):
        told = []
        for slot in sorted(shown):
            step, played = shown[slot]
            name = rules.CARDS[hands.opened[seat][slot]].name
            how = "played" if played else "opened"
            told.append(f"slot {slot} {name} ({how} at step {step})")
        missing = hands.unopened(seat)
        if missing:
            told.append("never opened: slot" + ("s " if len(missing) > 1 else " ")
                        + ", ".join(map(str, missing)))
        if told:
            lines.append(f"  {monsters[seat]}: " + "; ".join(told))
    return lines


__all__ = ["INCOMPLETE", "NOT_PROVEN", "hidden_cards_lines", "run_replay_command",
           "run_verify_command"]
