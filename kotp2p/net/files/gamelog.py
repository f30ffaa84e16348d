"""The ``.kotlog`` file: a game's genesis frame followed by every envelope frame, raw.

Frames are appended exactly as received, never re-encoded. They go in the order the protocol
hands them out. That is step by step, once every live seat has moved past a step. Each step's MOVE
comes first, then the rest by author and seq. So every honest replica of a game writes a
byte-identical log. An envelope that arrives after its step was written, such as a late CHAT,
follows with the next step. The file is flushed after each step. A crash loses at most what was
not handed out yet, and any peer can send that again. A torn last frame has fewer bytes than its
length says. Reading stops there and reports how many bytes it ignored. Opening a log for
appending cuts them off.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from kotp2p.net.files.paths import games_dir
from kotp2p.net.trust import (
    GENESIS_MAGIC,
    Genesis,
    is_genesis_payload,
    parse_genesis_frame,
    short_id,
)
from kotp2p.net.wire import RemoteProtocolError, codec

SUFFIX = ".kotlog"


class NotAKotlog(RemoteProtocolError):
    """The file does not start with a kotp2p genesis frame."""


@dataclass(frozen=True)
class LogContents:
    """What a ``.kotlog`` holds."""

    genesis: Genesis
    payloads: tuple[bytes, ...]
    """Each envelope frame's payload, without its length, in file order."""
    torn: int
    """Bytes at the end that do not make a whole frame. It is 0 for a clean file."""
    size: int
    """Bytes of whole frames. A torn file is cut back to this length."""
    offsets: tuple[int, ...] = ()
    """The file offset of each envelope frame's length prefix, in the order of ``payloads``."""
    name: str = "log"
    """The file's name, for reports."""
    damaged: tuple[tuple[int, int], ...] = ()
    """``(offset, size)`` of each run of bytes between frames that holds no frame."""
    data: bytes = field(default=b"", repr=False)
    """The file's bytes. :func:`frames_inside` uses them to look inside a damaged frame."""


def split_frames(data: bytes) -> tuple[list[bytes], int]:
    """Split a byte string into frame payloads.

    Return them and the offset after the last whole frame. A frame whose length exceeds the cap
    or the data ends the split there."""
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


_GENESIS_START = b"\x93" + codec.pack(GENESIS_MAGIC)


def _plausible(data: bytes, pos: int) -> int:
    """The length of the frame at ``pos`` if it has the shape of an envelope or genesis frame.

    The shape fits when the length prefix and the layout agree. Otherwise the answer is -1. It
    reads offsets only."""
    if pos + 4 > len(data):
        return -1
    length = int.from_bytes(data[pos : pos + 4], "big")
    if length > codec.MAX_FRAME or pos + 4 + length > len(data) or length < 3:
        return -1
    p = pos + 4
    if data[p] == 0x93:
        return length if data.startswith(_GENESIS_START, p) else -1
    if data[p] != 0x92:
        return -1
    t = data[p + 1]
    width = {0xC4: 1, 0xC5: 2, 0xC6: 4}.get(t, 0)
    if not width or length < 2 + width:
        return -1
    body = int.from_bytes(data[p + 2 : p + 2 + width], "big")
    if length != 2 + width + body + 2 + 64 or data[p + length - 66 : p + length - 64] != b"\xc4@":
        return -1
    return length


def scan_frames(data: bytes) -> tuple[list[bytes], list[int], int, list[tuple[int, int]]]:
    """Split possibly damaged log bytes into frame payloads without losing what follows damage.

    A frame is taken where its length prefix and its layout agree, as :func:`_plausible` checks.
    It is also taken where its length fits and spans no place where they agree. Otherwise the
    length may be flipped or the bytes spliced. Then the bytes up to the next place where they
    agree are a damaged region. So one damaged length cannot hide the rest of the file.

    :returns: payloads, their offsets, the end of the last whole frame, and the damaged regions
        as ``(offset, size)``. Bytes after the last frame that hold no frame are the torn tail,
        not a region.
    """
    out: list[bytes] = []
    offsets: list[int] = []
    regions: list[tuple[int, int]] = []
    pos = 0
    end = 0
    n = len(data)
    while pos < n:
        length = _plausible(data, pos)
        if length >= 0:
            offsets.append(pos)
            out.append(data[pos + 4 : pos + 4 + length])
            pos += 4 + length
            end = pos
            continue
        nxt = _resync(data, pos + 1)
        stated = int.from_bytes(data[pos : pos + 4], "big") if pos + 4 <= n else -1
        if 0 <= stated <= codec.MAX_FRAME and pos + 4 + stated <= n and (
                nxt < 0 or nxt >= pos + 4 + stated):
            # An odd frame whose length hides no plausible frame is taken as its length says.
            # The reader decides what its bytes are.
            offsets.append(pos)
            out.append(data[pos + 4 : pos + 4 + stated])
            pos += 4 + stated
            end = pos
            continue
        if nxt < 0:
            break  # the rest holds no frame: a torn tail
        regions.append((pos, nxt - pos))
        pos = nxt
    return out, offsets, end, regions


def frames_inside(log: LogContents, offset: int) -> list[tuple[int, bytes]]:
    """Frames of plausible shape that start inside the frame at ``offset`` of ``log``.

    That frame's length prefix may have been damaged. The frames that follow each of them come
    too, up to a frame the plain split already found. Each is an ``(offset, payload)`` pair."""
    data = log.data
    if offset < 0 or offset + 4 > len(data):
        return []
    stop = offset + 4 + int.from_bytes(data[offset : offset + 4], "big")
    known = set(log.offsets)
    out: list[tuple[int, bytes]] = []
    pos = _resync(data, offset + 1)
    while 0 <= pos < len(data) and pos not in known and (out or pos < stop):
        length = _plausible(data, pos)
        if length < 0:
            break
        out.append((pos, data[pos + 4 : pos + 4 + length]))
        pos += 4 + length
    return out


def _resync(data: bytes, start: int) -> int:
    """The first offset from ``start`` where a plausible frame begins, or -1."""
    n = len(data)
    while True:
        hits = [h for h in (data.find(b"\x92", start + 4), data.find(b"\x93", start + 4))
                if h >= 0]
        if not hits:
            return -1
        h = min(hits)
        if h - 4 >= start and _plausible(data, h - 4) >= 0:
            return h - 4
        start = h - 3
        if start >= n:
            return -1


def parse_log(data: bytes, name: str = "log") -> LogContents:
    """Parse the bytes of a ``.kotlog``.

    :raises NotAKotlog: the data does not start with a genesis frame.
    """
    payloads, offsets, end, regions = scan_frames(data)
    if not payloads or offsets[0] != 0:
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
                       name, tuple(regions), data)


def read_log(path: Path) -> LogContents:
    """Read a ``.kotlog`` file.

    A torn last frame is ignored and reported in ``torn``.

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
        """Append whole frames exactly as they are, length prefix included."""
        for f in frames:
            self._file.write(f)

    def flush(self) -> None:
        """Push what was appended to the operating system, and to the disk when ``fsync``."""
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
    return (directory or games_dir()) / f"{short_id(game_id)}{SUFFIX}"
