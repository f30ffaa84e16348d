"""The ``games`` subcommand: the games on disk, and how one stands."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from kotp2p.app.errors import CommandError
from kotp2p.net.files import GameInfo, StoreError, game_info, games_dir, list_games
from kotp2p.net.trust import RulesEngine


def info(path: Path) -> GameInfo:
    """What the log at ``path`` says of its game.

    :raises CommandError: the log cannot be read.
    """
    try:
        return game_info(path, RulesEngine())
    except StoreError as exc:
        raise CommandError(str(exc)) from None


def result(g: GameInfo) -> str:
    """How a game stands, in words: unfinished at a step, won by somebody, or lost by all."""
    if not g.finished:
        return f"unfinished at step {g.step}"
    return f"won by {' and '.join(g.winners)}" if g.winners else "everybody lost"


def run_games_command(args: argparse.Namespace) -> int:
    """``kotp2p games``: the games on disk."""
    games = list_games(RulesEngine())
    if args.json:
        print(json.dumps([g.to_json() for g in games], indent=2, ensure_ascii=False))
        return 0
    if not games:
        print(f"no games in {games_dir()}")
        return 0
    for g in games:
        date = time.strftime("%Y-%m-%d %H:%M", time.localtime(g.date))
        print(f"{g.game_id}  {date}  {g.mode or '?':5}  {result(g)}")
        print(f"    players: {', '.join(g.players)}")
        print(f"    log: {g.log_path}")
    return 0
