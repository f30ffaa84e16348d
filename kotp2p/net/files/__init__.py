"""What is on disk, and where it lives.

A stored game has its log file, its journal and its seat files. The user has a key file. The peers
last seen are kept too.
"""

from __future__ import annotations

from kotp2p.net.files.gamelog import LogContents, LogWriter, frames_inside, parse_log, read_log
from kotp2p.net.files.keys import (
    IDENTITY_FILE,
    identity_path,
    load_identity,
    new_identity,
    rename_identity,
    save_identity,
)
from kotp2p.net.files.lock import GameLock, GameLocked
from kotp2p.net.files.paths import HomeError, config_dir, games_dir, write_private
from kotp2p.net.files.peers import PeersFile
from kotp2p.net.files.sinks import FrameSink
from kotp2p.net.files.store import (
    LOCAL,
    NET,
    GameInfo,
    SeatFile,
    SeatSecret,
    StoredGame,
    StoreError,
    find_log,
    game_info,
    latest_game,
    list_games,
)

__all__ = [
    "IDENTITY_FILE",
    "LOCAL",
    "NET",
    "FrameSink",
    "GameInfo",
    "GameLock",
    "GameLocked",
    "HomeError",
    "LogContents",
    "LogWriter",
    "PeersFile",
    "SeatFile",
    "SeatSecret",
    "StoreError",
    "StoredGame",
    "config_dir",
    "find_log",
    "frames_inside",
    "game_info",
    "games_dir",
    "identity_path",
    "latest_game",
    "list_games",
    "load_identity",
    "new_identity",
    "parse_log",
    "read_log",
    "rename_identity",
    "save_identity",
    "write_private",
]
