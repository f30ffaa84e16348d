"""The ``resume`` subcommand: a stopped game goes on, on this machine or over the network."""

from __future__ import annotations

import argparse

from kotp2p.app.errors import CommandError
from kotp2p.app.games import info, result
from kotp2p.app.gametypes import FullScreen
from kotp2p.app.localgame import (
    check_delay,
    check_level,
    check_playouts,
    lock_game,
    play_session,
    resume_session,
)
from kotp2p.app.netgame import resume_networked
from kotp2p.net.files import LOCAL, StoredGame, StoreError, find_log, latest_game
from kotp2p.net.trust import RulesEngine


def _find_game(name: str | None) -> StoredGame:
    """The stored game named by an id prefix or a path.

    By default it is the latest unfinished game with its seat secrets on disk.
    """
    try:
        if name is not None:
            return StoredGame(find_log(name))
        return StoredGame(latest_game(RulesEngine(), unfinished=True).log_path)
    except StoreError as exc:
        raise CommandError(str(exc)) from None


def run_resume_command(args: argparse.Namespace, ui: FullScreen | None = None) -> int:
    """``kotp2p resume``: continue a stored game from its log.

    With ``ui``, it goes on in the full screen. A local game is played here again. A networked
    one opens its links first.
    """
    own = check_level(args.bot, "--bot") if args.bot else None
    check_delay(args.bot_delay)
    playouts = check_playouts(args.playouts)
    stored = _find_game(args.game)
    lock = lock_game(stored)  # first: a second process of this game stops at once
    try:
        game = info(stored.log_path)
        if game.finished:
            raise CommandError(f"game {game.game_id} is over ({result(game)}); nothing to "
                               "resume")
        session, restore, files = resume_session(stored, own, lock, think_aside=ui is not None,
                                                   playouts=playouts)
    except BaseException:
        lock.release()
        raise
    try:
        if game.mode == LOCAL:
            return play_session(session, stored.log_path, bot_delay=args.bot_delay,
                                restore=restore, ui=ui)
        return resume_networked(session, stored, restore, args, ui)
    finally:
        for f in files:
            f.close()
