"""A game on disk, and the list of the games there.

A game has its ``.kotlog``, its journal and its seat secrets, side by side in the games directory.
Here ``ID`` is the first 16 hex digits of the game's id::

    ID.kotlog    the log of :mod:`kotp2p.net.files.gamelog`, flushed per step.
    ID.journal   the genesis, then every envelope this process's seats signed. It is flushed
                 before any of them is sent. It holds what a restart needs beyond the log.
    ID.lock      locked by the one process that plays the game; see
                 :mod:`kotp2p.net.files.lock`.
    ID.seats     the local seats' secrets, as msgpack
                 [version, mode, created, me, [[seat, key, chain secret, bot], ...]].
                 A networked game adds the lobby's hard timeout in seconds last.
                 ``key`` is None for the user's own identity, kept in the config directory.
                 ``bot`` is the level playing the seat, or None.

Only their owner can read the three files: their mode is 0600. ``mode`` is ``"local"`` for a game
of ``kotp2p play``, where every seat is in this process. Otherwise it is ``"net"``. ``created`` is
seconds since the epoch, as the caller passed it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from kotp2p.net.files.gamelog import SUFFIX, LogContents, LogWriter, NotAKotlog, game_log_path, read_log
from kotp2p.net.files.lock import LOCK_SUFFIX, GameLock, GameLocked
from kotp2p.net.files.paths import games_dir, write_private
from kotp2p.net.replica import Replica
from kotp2p.net.trust import GameEngine, Genesis, short_id
from kotp2p.net.wire import RemoteProtocolError, Value, codec, open_envelope

SEATS_VERSION = 1
JOURNAL_SUFFIX = ".journal"
SEATS_SUFFIX = ".seats"
LOCAL = "local"
NET = "net"


class StoreError(ValueError):
    """A stored game cannot be used; the message says why."""


@dataclass(frozen=True)
class SeatSecret:
    """One local seat: its key, chain secret and bot level.

    A key of None stands for the user's identity.
    """

    seat: int
    key: bytes | None
    secret: bytes
    bot: str | None


@dataclass(frozen=True)
class SeatFile:
    """What ``ID.seats`` holds."""

    mode: str
    created: int
    me: int
    seats: tuple[SeatSecret, ...]
    timeout: int | None = None
    """A networked game's hard timeout in seconds, as its lobby set it. None means the default."""

    def to_bytes(self) -> bytes:
        """The msgpack form. The timeout comes last, only when there is one."""
        timeout = [] if self.timeout is None else [self.timeout]
        return codec.pack([SEATS_VERSION, self.mode, self.created, self.me,
                           [[s.seat, s.key, s.secret, s.bot] for s in self.seats], *timeout])

    @classmethod
    def from_bytes(cls, data: bytes, name: str = "seats file") -> SeatFile:
        """Decode.

        :raises StoreError: anything malformed.
        """
        try:
            v = codec.unpack(data)
        except RemoteProtocolError as exc:
            raise StoreError(f"{name}: {exc.reason}") from None
        if (not isinstance(v, list) or len(v) not in (5, 6) or v[0] != SEATS_VERSION
                or v[1] not in (LOCAL, NET) or not isinstance(v[2], int)
                or not isinstance(v[3], int) or not isinstance(v[4], list)
                or (len(v) == 6 and (not isinstance(v[5], int) or isinstance(v[5], bool)
                                     or v[5] <= 0))):
            raise StoreError(f"{name}: expected [{SEATS_VERSION}, mode, created, me, seats, "
                             "optional timeout in seconds > 0]")
        seats = []
        for s in v[4]:
            if (not isinstance(s, list) or len(s) != 4 or not isinstance(s[0], int)
                    or not (s[1] is None or isinstance(s[1], bytes))
                    or not isinstance(s[2], bytes) or not (s[3] is None or isinstance(s[3], str))):
                raise StoreError(f"{name}: expected each seat as [seat, key, secret, bot]")
            seats.append(SeatSecret(s[0], s[1], s[2], s[3]))
        return cls(v[1], v[2], v[3], tuple(seats), v[5] if len(v) == 6 else None)


class _LockedWriter(LogWriter):
    """A log writer that also holds the game's lock until it is closed."""

    def __init__(self, path: Path, genesis: Genesis, lock: GameLock) -> None:
        self._lock = lock
        try:
            super().__init__(path, genesis)
        except BaseException:
            lock.release()
            raise

    def close(self) -> None:
        """Flush, close, and let another process open the game."""
        super().close()
        self._lock.release()


def _private_writer(path: Path, genesis: Genesis, lock: GameLock | None = None) -> LogWriter:
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
    os.chmod(path, 0o600)
    if lock is not None:
        return _LockedWriter(path, genesis, lock)
    return LogWriter(path, genesis)


@dataclass
class StoredGame:
    """The files of one game in a directory."""

    log_path: Path

    @property
    def journal_path(self) -> Path:
        """The journal beside the log."""
        return self.log_path.with_suffix(JOURNAL_SUFFIX)

    @property
    def lock_path(self) -> Path:
        """The lock file beside the log."""
        return self.log_path.with_suffix(LOCK_SUFFIX)

    def lock(self) -> GameLock:
        """Take the game's lock: one process per game.

        :raises StoreError: another process holds it. The message names that process.
        """
        try:
            return GameLock.acquire(self.lock_path)
        except GameLocked as exc:
            raise StoreError(str(exc)) from None
        except OSError as exc:
            raise StoreError(f"cannot lock {self.lock_path}: {exc.strerror or exc}") from None

    @property
    def seats_path(self) -> Path:
        """The seat secrets beside the log."""
        return self.log_path.with_suffix(SEATS_SUFFIX)

    @classmethod
    def for_game(cls, game_id: bytes, directory: Path | None = None) -> StoredGame:
        """Where the game ``game_id`` lives. By default it is the games directory."""
        return cls(game_log_path(game_id, directory))

    def create(self, genesis: Genesis, seats: SeatFile) -> tuple[LogWriter, LogWriter]:
        """Write the seat secrets and open the log and journal for a new game.

        :raises StoreError: the game is already stored here.
        """
        if self.log_path.exists():
            raise StoreError(f"{self.log_path} already exists")
        lock = self.lock()
        try:
            write_private(self.seats_path, seats.to_bytes())
        except BaseException:
            lock.release()
            raise
        return (_private_writer(self.log_path, genesis, lock),
                _private_writer(self.journal_path, genesis))

    def open(self) -> tuple[LogContents, list[bytes], SeatFile]:
        """Read a stored game to resume it: the log, the journal's envelope payloads, the seats.

        :raises StoreError: a file is missing, damaged or of another game.
        """
        try:
            contents = read_log(self.log_path)
            journal = self._journal() if self.journal_path.exists() else None
            seats = SeatFile.from_bytes(self.seats_path.read_bytes(), self.seats_path.name)
        except NotAKotlog as exc:
            raise StoreError(exc.reason) from None
        except OSError as exc:
            raise StoreError(f"cannot read {exc.filename}: {exc.strerror}") from None
        if journal is not None and journal.genesis.game_id != contents.genesis.game_id:
            raise StoreError(f"{self.journal_path}: it is the journal of game "
                             f"{short_id(journal.genesis.game_id)}; expected game "
                             f"{short_id(contents.genesis.game_id)}, as in the log (move the "
                             "journal away to resume without it)")
        return contents, list(journal.payloads) if journal else [], seats

    def _journal(self) -> LogContents | None:
        """The journal, or None if its start is damaged past reading.

        Such a journal is moved aside to ``ID.journal.damaged``. A seat resumed without it asks
        its peers what it signed; see :mod:`kotp2p.net.peer.catchup`."""
        try:
            return read_log(self.journal_path)
        except NotAKotlog:
            os.replace(self.journal_path, self.journal_path.with_suffix(".journal.damaged"))
            return None

    def reopen(self, genesis: Genesis, lock: GameLock | None = None
               ) -> tuple[LogWriter, LogWriter]:
        """Open the log and journal for appending again. A torn last frame is cut off.

        The game stays locked until the log is closed, so two processes never play one stored
        game. ``lock`` is the game's lock if the caller took it already; the log holds it then.

        :raises StoreError: another process has the game open, or a file is of another game.
        """
        lock = lock or self.lock()
        try:
            log = _private_writer(self.log_path, genesis, lock)
        except NotAKotlog as exc:
            raise StoreError(f"{self.log_path}: {exc.reason}") from None
        try:
            return log, _private_writer(self.journal_path, genesis)
        except NotAKotlog as exc:
            log.close()
            raise StoreError(f"{self.journal_path}: {exc.reason}") from None
        except BaseException:
            log.close()
            raise


@dataclass(frozen=True)
class GameInfo:
    """One game on disk, as ``kotp2p games`` lists it."""

    game_id: str
    date: float
    players: tuple[str, ...]
    finished: bool
    winners: tuple[str, ...]
    step: int
    mode: str | None
    log_path: Path

    def to_json(self) -> dict[str, Value]:
        """Plain JSON values."""
        return {"id": self.game_id, "date": int(self.date), "players": list(self.players),
                "state": "finished" if self.finished else "unfinished",
                "winners": list(self.winners), "step": self.step, "mode": self.mode,
                "log": str(self.log_path)}


def game_info(path: Path, engine: GameEngine) -> GameInfo:
    """Read one ``.kotlog`` and its seats file, if any, and replay it.

    :raises StoreError: not a readable game log.
    """
    try:
        contents = read_log(path)
        date = path.stat().st_mtime
    except NotAKotlog as exc:
        raise StoreError(exc.reason) from None
    except OSError as exc:
        raise StoreError(f"cannot read {path.name}: {exc.strerror}") from None
    g = contents.genesis
    mode = None
    seats_path = path.with_suffix(SEATS_SUFFIX)
    if seats_path.exists():
        try:
            stored = SeatFile.from_bytes(seats_path.read_bytes(), seats_path.name)
            mode, date = stored.mode, float(stored.created)
        except (StoreError, OSError):
            mode = None
    players = tuple(f"{s.name} ({s.monster})" for s in g.seats)
    try:
        replica = Replica(g, engine)
    except ValueError as exc:
        raise StoreError(f"{path.name}: its genesis cannot start a game ({exc})") from None
    for payload in contents.payloads:
        try:
            replica.add(open_envelope(payload, g.game_id, g.keys))
        except RemoteProtocolError:
            continue
    replica.advance()
    finished = replica.is_over
    winners = tuple(players[w] for w in engine.winners(replica.state)) if finished else ()
    return GameInfo(short_id(g.game_id), date, players, finished, winners, replica.step, mode,
                    path)


def list_games(engine: GameEngine, directory: Path | None = None) -> list[GameInfo]:
    """Every readable game log in the games directory, oldest first.

    Unreadable ones are skipped.
    """
    out = []
    for path in sorted((directory or games_dir()).glob(f"*{SUFFIX}")):
        try:
            out.append(game_info(path, engine))
        except StoreError:
            continue
    return sorted(out, key=lambda g: (g.date, g.game_id))


def find_log(name: str, directory: Path | None = None) -> Path:
    """The log a user names on the command line.

    That is a file that exists. Or else it is the one game in the games directory whose id starts
    with ``name``. The id is the one ``kotp2p games`` lists.

    :raises StoreError: no such file, and no game's id or more than one starts with ``name``.
    """
    path = Path(name)
    if path.exists():
        return path
    prefix = name.strip().lower()
    folder = directory or games_dir()
    matches = sorted(p for p in folder.glob(f"*{SUFFIX}")
                     if prefix and p.name.startswith(prefix)) if folder.is_dir() else []
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise StoreError(f"{len(matches)} games on disk have an id starting with {name!r} "
                         f"({', '.join(p.stem for p in matches)}): give more of it")
    if os.sep in name or path.suffix:  # a path, not an id
        raise StoreError(f"cannot read {name}: no such file")
    raise StoreError(f"no file {name!r}, and no game on disk has an id starting with {name!r} "
                     "(see `kotp2p games`)")


def latest_game(engine: GameEngine, directory: Path | None = None, *,
                unfinished: bool = False) -> GameInfo:
    """The game played last in the games directory: the one whose log or journal changed last.

    With ``unfinished``, it is the last one not over that has its seat secrets on disk. So it can
    be resumed.

    :raises StoreError: there is none.
    """
    games = [g for g in list_games(engine, directory) if not unfinished or (
        not g.finished and g.log_path.with_suffix(SEATS_SUFFIX).exists())]
    if not games:
        what = "unfinished game to resume" if unfinished else "game"
        raise StoreError(f"no {what} in {directory or games_dir()} (see `kotp2p games`)")
    return max(games, key=_played)


def _played(game: GameInfo) -> tuple[float, float]:
    """When ``game`` was last played: its log's or journal's last change, then its creation."""
    times = [0.0]
    for path in (game.log_path, game.log_path.with_suffix(JOURNAL_SUFFIX)):
        try:
            times.append(path.stat().st_mtime)
        except OSError:
            continue
    return max(times), game.date
