"""One process per game on disk: an exclusive lock on ``ID.lock`` beside the game's log.

Theory of operation
-------------------
Two processes playing one seat from one directory would each sign that seat's envelopes. The
second would sign again at sequence numbers the first used: a fork, and its own conviction. So a
process that plays a stored game, new or resumed, first takes an exclusive ``flock`` on
``ID.lock``. It writes its process id and command there. A second process fails to take it at
once, reads who holds it, and says so.

The operating system drops the lock when the process ends, even when it is killed. So a crash
leaves no stale lock. The file stays; its words about the last holder only count while it is
locked. A copy of the data directory has its own lock file, and this lock cannot see it; the
peers refuse a second live connection for a seat instead.

Where ``flock`` does not exist, there is no lock.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import BinaryIO

LOCK_SUFFIX = ".lock"
MAX_HOLDER = 200
"""Characters of the holder's words read back from a lock file."""


class GameLocked(Exception):
    """Another process holds the lock. The message names it."""


def command_name() -> str:
    """This process's command, as a lock records it, such as ``kotp2p resume``."""
    args = [a for a in sys.argv[1:] if not a.startswith("-")][:1]
    return " ".join(["kotp2p", *args])


class GameLock:
    """An exclusive lock on one game's lock file, held until :meth:`release` or the end."""

    def __init__(self, path: Path, handle: BinaryIO) -> None:
        self.path = path
        self._handle = handle

    @classmethod
    def acquire(cls, path: Path, what: str | None = None) -> GameLock:
        """Take the lock at ``path``, recording this process's id and ``what`` it runs.

        :raises GameLocked: another process holds it. The message names that process.
        """
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        handle = os.fdopen(fd, "r+b")
        if sys.platform != "win32":
            import fcntl

            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _holder(handle)
                handle.close()
                raise GameLocked(f"this game is open in another kotp2p process{holder}, which "
                                 f"holds {path}; expected one process per game: stop that one "
                                 "first, or let it finish") from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()} {what or command_name()}\n".encode())
        handle.flush()
        return cls(path, handle)

    def release(self) -> None:
        """Let another process open the game."""
        if not self._handle.closed:
            self._handle.close()


def _holder(handle: BinaryIO) -> str:
    """The words the holder of a lock wrote, as ``: process 123 (kotp2p resume)``, or ``""``."""
    try:
        handle.seek(0)
        text = handle.read(MAX_HOLDER).decode("utf-8", "replace").strip()
    except OSError:
        text = ""
    pid, _, what = text.partition(" ")
    if not pid.isdigit():
        return ""
    clean = "".join(c for c in what if c.isprintable())[:80]
    return f": process {pid} ({clean})" if clean else f": process {pid}"
