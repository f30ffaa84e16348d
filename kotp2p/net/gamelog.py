"""The ``.kotlog`` file: a game's genesis frame followed by every envelope frame, raw.

Frames are appended exactly as received (never re-encoded), in the order the protocol hands them
out: step by step, once every live seat has moved past a step, each step's MOVE first and then the
rest by author and seq. So every honest replica of a game writes a byte-identical log (envelopes
that arrive after their step was written, such as a late CHAT, follow with the next step). The
file is flushed after each step; a crash loses at most what was not handed out yet, which any
peer can send again. Reading stops at a torn last frame (fewer bytes than its
length says) and reports how many bytes it ignored; opening a log for appending cuts them off.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from kotp2p.net import codec
from kotp2p.net.errors import RemoteProtocolError
from kotp2p.net.genesis import Genesis, is_genesis_payload, parse_genesis_frame
from kotp2p.net.paths import games_dir

SUFFIX = ".kotlog"


class NotAKotlog(RemoteProtocolError):
    """The file does not start with a kotp2p genesis frame."""


@dataclass(frozen=True)
class LogContents:
    """What a ``.kotlog`` holds."""

    genesis: Genesis
    payloads: tuple[bytes, ...]
    """Each envelope frame's payload (without its length), in file order."""
    torn: int
    """Bytes at the end that do not make a whole frame (0 for a clean file)."""
    size: int
    """Bytes of whole frames (the length a torn file is cut back to)."""
    offsets: tuple[int, ...] = ()
    """The byte offset in the file of each envelope frame (its length prefix), as ``payloads``."""
    name: str = "log"
    """The file's name, for reports."""


def split_frames(data: bytes) -> tuple[list[bytes], int]:
    """Split a byte string into frame payloads; return them and the offset after the last whole
    frame. A frame whose length exceeds the cap or the data ends the split there."""
    out, _, pos = split_frames_at(data)
    return out, pos


def split_frames_at(data: bytes) -> tuple[list[bytes], list[int], int]:
    """Like :func:`split_frames`, also giving each frame's offset in ``data``."""
    out: list[bytes] = []
    offsets: list[int] = []
    pos = 0
    while pos + 4 <= len(data):
        length = int.from_bytes(data[pos : pos + 4], "big")
        if length > codec.MAX_FRAME or pos + 4 + length > len(data):
            break
        offsets.append(pos)
        out.append(data[pos + 4 : pos + 4 + length])
        pos += 4 + length
    return out, offsets, pos


def parse_log(data: bytes, name: str = "log") -> LogContents:
    """Parse the bytes of a ``.kotlog``.

    :raises NotAKotlog: the data does not start with a genesis frame.
    """
    payloads, offsets, end = split_frames_at(data)
    if not payloads:
        raise NotAKotlog(f"{name} is not a kotp2p game log (no genesis frame at its start)")
    try:
        first = codec.unpack(payloads[0])
    except RemoteProtocolError:
        first = None
    if not is_genesis_payload(first):
        raise NotAKotlog(f"{name} is not a kotp2p game log (no genesis frame at its start)")
    try:
        genesis = parse_genesis_frame(payloads[0])
    except RemoteProtocolError as exc:
        raise NotAKotlog(f"{name}: its genesis frame is damaged ({exc.reason})") from None
    return LogContents(genesis, tuple(payloads[1:]), len(data) - end, end, tuple(offsets[1:]),
                       name)


def read_log(path: Path) -> LogContents:
    """Read a ``.kotlog`` file (a torn last frame is ignored and reported in ``torn``).

    :raises NotAKotlog: it is not a game log.
    :raises OSError: it cannot be read.
    """
    return parse_log(path.read_bytes(), path.name)


class LogWriter:
    """Appends raw frames to a ``.kotlog``, creating it with the genesis or cutting a torn tail."""

    def __init__(self, path: Path, genesis: Genesis, *, fsync: bool = False) -> None:
        self.path = path
        self._fsync = fsync
        if path.exists() and path.stat().st_size > 0:
            contents = read_log(path)
            if contents.genesis.game_id != genesis.game_id:
                raise NotAKotlog(f"{path.name} holds another game")
            if contents.torn:
                os.truncate(path, contents.size)
            self._file: BinaryIO = open(path, "ab")  # noqa: SIM115 - closed in close()
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._file = open(path, "ab")  # noqa: SIM115 - closed in close()
            self._file.write(genesis.frame())
            self.flush()

    def append(self, frames: Iterable[bytes]) -> None:
        """Append whole frames (length prefix included) exactly as they are."""
        for f in frames:
            self._file.write(f)

    def flush(self) -> None:
        """Push what was appended to the operating system (and the disk when ``fsync``)."""
        self._file.flush()
        if self._fsync:
            os.fsync(self._file.fileno())

    def close(self) -> None:
        """Flush and close."""
        if not self._file.closed:
            self.flush()
            self._file.close()

    def __enter__(self) -> LogWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def game_log_path(game_id: bytes, directory: Path | None = None) -> Path:
    """Where the log of a game lives by default: ``<games dir>/<game id hex prefix>.kotlog``."""
    return (directory or games_dir()) / f"{game_id.hex()[:16]}{SUFFIX}"
