"""The one module that calls msgpack, and the sans-IO frame decoder.

Every value on the wire and in a ``.kotlog`` is msgpack with fixed, safe options. Bytes use the
``bin`` type and text uses ``str``. Map keys are strict. There are no floats and no extension types.
Sizes and nesting are bounded. Canonical encodings are arrays in fixed order, never dicts, so a
value has exactly one encoding.

A frame is a 4-byte big-endian length followed by that many bytes. :class:`FrameDecoder` is fed
bytes as they arrive and hands back whole frames. It checks the announced length against the cap
before it buffers a single byte of the frame. So a hostile peer cannot make us hold more than
``max_frame + 4`` bytes.
"""

from __future__ import annotations

import struct
from typing import Any

import msgpack

from kotp2p.net.wire.errors import CodecError, FrameTooLarge

MAX_FRAME = 1 << 20
"""Largest frame payload we accept, 1 MiB. It is far above any honest envelope."""

MAX_DEPTH = 16
"""Deepest nesting of arrays or maps we accept in a decoded value."""

_LEN = struct.Struct(">I")

Value = Any
"""A decoded msgpack value: None, bool, int, str, bytes, list or dict.

Dict keys are str or bytes.
"""


def _no_ext(code: int, data: bytes) -> object:
    raise CodecError(f"msgpack extension type {code} where plain values were expected")


def pack(value: Value) -> bytes:
    """Encode ``value`` canonically.

    Floats and unknown types are refused. Passing one is a local bug.

    :raises TypeError: for a float or a type msgpack cannot hold.
    """
    _check_encodable(value, 0)
    out: bytes = msgpack.packb(value, use_bin_type=True)
    return out


_PLAIN = frozenset({type(None), bool, int, str, bytes})
"""The exact types of plain scalars: an item of one of them is accepted without a call."""


def _check_encodable(value: Value, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise TypeError(f"value nested deeper than {MAX_DEPTH}")
    if value is None or isinstance(value, (bool, int, str, bytes)):
        return
    if isinstance(value, (list, tuple)):
        if value and depth >= MAX_DEPTH:  # Its items would be too deep, scalars too.
            raise TypeError(f"value nested deeper than {MAX_DEPTH}")
        for item in value:
            if type(item) not in _PLAIN:
                _check_encodable(item, depth + 1)
        return
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, (str, bytes)):
                raise TypeError(f"map key {k!r}: only str or bytes keys are allowed")
            _check_encodable(v, depth + 1)
        return
    raise TypeError(f"cannot encode {type(value).__name__} (floats and objects are not allowed)")


def unpack(data: bytes, *, max_size: int = MAX_FRAME) -> Value:
    """Decode exactly one msgpack value from ``data`` with the safe options.

    The bytes are first walked by :func:`scan`, which allocates nothing. So msgpack never sees a
    value nested too deep, or a float, or an extension type. Nor does it see a container that
    announces more items than there are bytes left.

    :raises CodecError: malformed, trailing bytes, too big, too deep, a float or an extension type.
    """
    if len(data) > max_size:
        raise CodecError(f"value of {len(data)} bytes, at most {max_size} expected")
    scan(data)
    try:
        value = msgpack.unpackb(
            data,
            raw=False,
            use_list=True,
            strict_map_key=True,
            ext_hook=_no_ext,
            max_str_len=max_size,
            max_bin_len=max_size,
            max_array_len=max_size,
            max_map_len=max_size,
            max_ext_len=max_size,
        )
    except CodecError:
        raise
    except (ValueError, TypeError, OverflowError) as exc:
        raise CodecError(f"not a well-formed msgpack value ({exc or type(exc).__name__})") from None
    return value


# How each first byte of a msgpack item is read. Each entry is ``(how, argument, multiplier)``.
#   _SKIP n: n more bytes. Scalars use it.
#   _SIZED w: a w-byte length, then that many bytes. Str and bin use it.
#   _SIZED1: the same with a 1-byte length. It reads the common bin8 and str8 without a slice.
#   _ITEMS n: a container of n items. A map counts keys and values.
#   _COUNTED w, m: a w-byte count, times m items.
#   _BAD: an error naming what the byte is.
_SKIP, _SIZED, _ITEMS, _COUNTED, _BAD, _SIZED1 = range(6)


def _table() -> list[tuple[int, int, int]]:
    t: list[tuple[int, int, int]] = [(_BAD, 0, 0)] * 256
    for b in range(0x00, 0x80):
        t[b] = (_SKIP, 0, 0)
    for b in range(0xE0, 0x100):
        t[b] = (_SKIP, 0, 0)
    for b in range(0x80, 0x90):
        t[b] = (_ITEMS, 2 * (b & 0x0F), 0)
    for b in range(0x90, 0xA0):
        t[b] = (_ITEMS, b & 0x0F, 0)
    for b in range(0xA0, 0xC0):
        t[b] = (_SKIP, b & 0x1F, 0)
    for b in (0xC0, 0xC2, 0xC3):
        t[b] = (_SKIP, 0, 0)
    for b, w in ((0xC5, 2), (0xC6, 4), (0xDA, 2), (0xDB, 4)):
        t[b] = (_SIZED, w, 0)
    for b in (0xC4, 0xD9):
        t[b] = (_SIZED1, 1, 0)
    for b, w in ((0xCC, 1), (0xCD, 2), (0xCE, 4), (0xCF, 8), (0xD0, 1), (0xD1, 2), (0xD2, 4),
                 (0xD3, 8)):
        t[b] = (_SKIP, w, 0)
    t[0xDC] = (_COUNTED, 2, 1)
    t[0xDD] = (_COUNTED, 4, 1)
    t[0xDE] = (_COUNTED, 2, 2)
    t[0xDF] = (_COUNTED, 4, 2)
    return t


_READ = _table()
_WHY = {0xC1: "the never-used byte 0xc1", 0xCA: "a float", 0xCB: "a float"}


def scan(data: bytes, max_depth: int = MAX_DEPTH) -> None:
    """Check the structure of one msgpack value without building it.

    ``data`` must hold exactly one value. It nests at most ``max_depth`` containers. Every
    container announces at most as many items as bytes remain. There is no float and no extension
    type. The check allocates nothing but a small stack. So hostile bytes are refused before
    msgpack preallocates anything for them.

    :raises CodecError: naming the first problem.
    """
    end = len(data)
    pos = 0
    todo = 1  # Items still to read in the innermost open container, or the one top value.
    stack: list[int] = []
    read = _READ
    while True:
        if not todo:
            if not stack:
                break
            todo = stack.pop()
            continue
        if pos >= end:
            raise CodecError("not a well-formed msgpack value (it ends in the middle of a value)")
        b = data[pos]
        pos += 1
        todo -= 1
        if b < 0x80:  # A positive fixint, the most common item. It is _SKIP 0, read without the table.
            continue
        how, arg, mult = read[b]
        if how == _SKIP:
            pos += arg
            continue
        if how == _SIZED1:
            pos += 1 + (data[pos] if pos < end else 0)  # Past the end, 0, as _SIZED reads it.
            continue
        if how == _SIZED:
            pos += arg + int.from_bytes(data[pos : pos + arg], "big")
            continue
        if how == _ITEMS:
            count = arg
        elif how == _COUNTED:
            count = int.from_bytes(data[pos : pos + arg], "big") * mult
            pos += arg
        else:
            what = _WHY.get(b, "an extension type" if 0xC7 <= b <= 0xD8 else f"byte {b:#x}")
            if "float" in what:
                raise CodecError("a float where only integers are allowed")
            if b == 0xC1:
                raise CodecError(f"not a well-formed msgpack value ({what})")
            raise CodecError(f"msgpack {what} where plain values were expected")
        if not count:
            continue
        if count > end - pos:
            raise CodecError(f"not a well-formed msgpack value (a container announces {count} "
                             f"items, only {end - pos} bytes follow)")
        if len(stack) >= max_depth:
            raise CodecError(f"value nested deeper than {max_depth} levels")
        stack.append(todo)
        todo = count
    if pos != end:
        what = "ends early" if pos > end else f"has {end - pos} trailing bytes"
        raise CodecError(f"not a well-formed msgpack value (it {what})")


def frame(payload: bytes, *, max_frame: int = MAX_FRAME) -> bytes:
    """Prefix ``payload`` with its 4-byte big-endian length.

    :raises ValueError: if the payload is larger than ``max_frame``. That is a local bug.
    """
    if len(payload) > max_frame:
        raise ValueError(f"frame of {len(payload)} bytes exceeds the cap of {max_frame}")
    return _LEN.pack(len(payload)) + payload


class FrameDecoder:
    """Sans-IO splitter of a byte stream into frames.

    Feed bytes with :meth:`feed`; it returns the frames completed so far. After a
    :class:`FrameTooLarge` the stream is unusable, because the next frame boundary is unknown. The
    decoder stays broken and raises again.
    """

    def __init__(self, max_frame: int = MAX_FRAME) -> None:
        self.max_frame = max_frame
        self._buf = bytearray()
        self._need: int | None = None
        self._broken: FrameTooLarge | None = None

    @property
    def buffered(self) -> int:
        """How many bytes are held waiting for the rest of a frame."""
        return len(self._buf)

    def feed(self, data: bytes) -> list[bytes]:
        """Add received bytes; return every frame now complete, in order.

        :raises FrameTooLarge: a frame announced more than ``max_frame`` bytes.
        """
        if self._broken is not None:
            raise self._broken
        frames: list[bytes] = []
        pos = 0
        if self._need is None and not self._buf:  # At a boundary, whole frames need no copy.
            end = len(data)
            while pos + 4 <= end:
                (length,) = _LEN.unpack_from(data, pos)
                if length > self.max_frame or pos + 4 + length > end:
                    break  # The slow path below says why, or keeps the partial frame.
                frames.append(data[pos + 4:pos + 4 + length])
                pos += 4 + length
        view = memoryview(data)[pos:]
        while True:
            if self._need is None:
                if not view:
                    break
                take = min(4 - len(self._buf), len(view))
                self._buf += view[:take]
                view = view[take:]
                if len(self._buf) < 4:
                    break
                (length,) = _LEN.unpack(self._buf)
                self._buf.clear()
                if length > self.max_frame:
                    self._broken = FrameTooLarge(
                        f"frame announces {length} bytes, at most {self.max_frame} expected"
                    )
                    raise self._broken
                self._need = length
            take = min(self._need - len(self._buf), len(view))
            self._buf += view[:take]
            view = view[take:]
            if len(self._buf) < self._need:
                break
            frames.append(bytes(self._buf))
            self._buf.clear()
            self._need = None
        return frames

    @property
    def at_boundary(self) -> bool:
        """True when no partial frame is buffered, so the stream could end cleanly here."""
        return self._need is None and not self._buf
