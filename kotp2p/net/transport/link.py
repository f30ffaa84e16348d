"""One open, authenticated connection to one peer: a reader, a writer and a pinger in one nursery.

Theory of operation
-------------------
:meth:`Link.run` opens a nursery with three tasks and returns when any of them closes the link:

* The *reader* pulls chunks from the stream into the frame decoder. The decoder checks the size
  cap from the header before buffering. The reader charges every chunk and every frame to two
  token buckets, and a flood closes the link. It answers PING with PONG and hands every other frame
  to ``on_frame``. A frame that is not a msgpack array closes the link at once. So does a handshake
  message on an open link.
* The *writer* drains a bounded memory channel into the stream. :meth:`Link.send` never blocks.
  When the channel is full, the peer is not reading, and the link is closed. The peer catches up
  with ``sync`` once reconnected. :meth:`Link.close_soon` closes after what is queued is written,
  so a farewell frame reaches the peer.
* The *pinger* sends PING every ``ping_interval`` seconds. It closes the link when nothing at all
  arrived for ``dead_after`` seconds.

A peer may end a link with a refusal, ``["kotp2p-refuse", reason, code]``, as the handshake does.
The link then closes, and keeps it in :attr:`Link.refusal`. Only the codes in
:data:`LINK_CODES` are taken from a peer there. :meth:`Link.answering` pings the peer and says
whether it answers in time.

Whoever consumes the frames may report a bad one with :meth:`Link.strike`. ``max_strikes`` of them
close the link. Every close is logged with its reason, which :attr:`Link.reason` keeps. A link
knows nothing of the game. PING and PONG are link-level and never logged.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import dataclass

import trio

from kotp2p.net.lobby import MAGICS
from kotp2p.net.transport.framed import FrameStream, PeerClosed
from kotp2p.net.transport.pacing import TokenBucket
from kotp2p.net.wire import (
    MAX_FRAME,
    CodecError,
    FrameTooLarge,
    Refusal,
    Why,
    codec,
    peer_code,
    safe_text,
)

log = logging.getLogger(__name__)

PING = codec.pack(["ping"])
PONG = codec.pack(["pong"])
PING_FRAME = codec.frame(PING)
PONG_FRAME = codec.frame(PONG)
BATCH = 65536
"""Bytes of queued frames the writer joins into one send."""
_HANDSHAKE_PREFIXES = tuple(codec.pack([m])[1:] for m in MAGICS)
_REFUSE = "kotp2p-refuse"
MAX_REFUSAL = 200
"""Characters of a peer's refusal kept, as for a handshake refusal."""
LINK_CODES = frozenset({Why.SEAT_RUNNING_TWICE})
"""The codes a refusal on an open link may carry."""


def read_refusal(payload: bytes) -> Refusal | None:
    """The refusal a peer ended a link with, or None if ``payload`` is no refusal.

    Its words are the peer's, made terminal-safe. A code not in :data:`LINK_CODES` reads as
    :attr:`Why.OTHER`."""
    try:
        value = codec.unpack(payload, max_size=4 * MAX_REFUSAL)
    except CodecError:
        return None
    if not isinstance(value, list) or len(value) != 3 or value[0] != _REFUSE \
            or not isinstance(value[1], str):
        return None
    said = safe_text(value[1], MAX_REFUSAL)
    return Refusal(peer_code(value[2], LINK_CODES), said, by_peer=True, details=(said,))


@dataclass(frozen=True)
class LinkConfig:
    """Limits and timings of a link, in seconds, frames and bytes."""

    ping_interval: float = 5.0
    dead_after: float = 15.0
    queue: int = 1024
    max_frame: int = MAX_FRAME
    frames_per_second: float = 2000.0
    frame_burst: float = 4000.0
    bytes_per_second: float = 4.0 * MAX_FRAME
    byte_burst: float = 8.0 * MAX_FRAME
    max_strikes: int = 8


def is_array(payload: bytes) -> bool:
    """True when ``payload`` starts like a msgpack array. Everything peers say is one."""
    if not payload:
        return False
    first = payload[0]
    return 0x90 <= first <= 0x9F or first in (0xDC, 0xDD)


def is_handshake(payload: bytes) -> bool:
    """True when ``payload`` is a handshake message. An open link refuses those."""
    return payload[1:].startswith(_HANDSHAKE_PREFIXES)


class Link:
    """A framed, liveness-checked connection to one peer. See the module comment."""

    def __init__(self, framed: FrameStream, label: str, on_frame: Callable[[bytes], None],
                 config: LinkConfig | None = None) -> None:
        self.framed = framed
        self.label = label
        self.on_frame = on_frame
        self.config = config or LinkConfig()
        self.reason: str | None = None
        self.fault = False
        """The link was closed for something the peer did, such as garbage, a flood or silence."""
        self.heard = False
        """Something arrived from the peer on this link."""
        self.strikes = 0
        self.refusal: Refusal | None = None
        """The refusal the peer closed the link with, if it sent one."""
        self._pong: trio.Event | None = None
        self._send, self._outgoing = trio.open_memory_channel[bytes | None](self.config.queue)
        self._closing: str | None = None
        self._linger = False
        self._eof_sent = False
        self._scope: trio.CancelScope | None = None
        self._last_rx = -math.inf

    @property
    def closed(self) -> bool:
        """The link was closed. :attr:`reason` says why."""
        return self.reason is not None

    def send(self, frame: bytes) -> bool:
        """Queue ``frame`` for the peer, length prefix included.

        The answer is False if the link is closed, or closes now because the peer does not read."""
        if self.closed or self._closing is not None:
            return False
        try:
            self._send.send_nowait(frame)
        except trio.WouldBlock:
            self.close(f"the peer does not read ({self.config.queue} frames queued)")
            return False
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            return False
        return True

    def close_soon(self, reason: str, *, linger: bool = False) -> None:
        """Close the link once every frame queued before this call was written.

        With ``linger``, end our direction of the stream there instead. Keep the link until the
        peer closes its end. Then the peer has read everything we sent. This is for the end of a
        game, for a peer that is behind.
        """
        if self.closed or self._closing is not None:
            return
        self._closing = reason
        self._linger = linger
        try:
            self._send.send_nowait(None)
        except (trio.WouldBlock, trio.ClosedResourceError, trio.BrokenResourceError):
            self.close(reason, fault=False)

    def strike(self, reason: str) -> None:
        """The consumer refused a frame from this peer; too many close the link."""
        self.strikes += 1
        if self.strikes >= self.config.max_strikes:
            self.close(f"{self.strikes} bad frames (the last: {reason})")

    def close(self, reason: str, *, fault: bool = True) -> None:
        """Close the link once, and log ``reason``.

        It is logged as a warning when the peer is at ``fault``, such as for garbage, a flood or
        silence. Otherwise it is logged as information, such as when the peer left or we are
        done."""
        if self.reason is not None:
            return
        self.reason = reason
        self.fault = fault
        log.log(logging.WARNING if fault else logging.INFO, "link to %s closed: %s", self.label,
                reason)
        if self._scope is not None:
            self._scope.cancel()

    async def answering(self, within: float) -> bool:
        """Ping the peer: True if it answers within ``within`` seconds and the link stays open."""
        if self.closed or self._closing is not None:
            return False
        pong = self._pong = trio.Event()
        if not self.send(PING_FRAME):
            return False
        with trio.move_on_after(within):
            await pong.wait()
        return pong.is_set() and not self.closed

    async def run(self) -> str:
        """Run the link until it closes; return the reason."""
        self._last_rx = trio.current_time()
        self.framed.max_frame = self.config.max_frame
        try:
            with trio.CancelScope() as scope:
                self._scope = scope
                if self.reason is None:
                    async with trio.open_nursery() as nursery:
                        nursery.start_soon(self._reader)
                        nursery.start_soon(self._writer)
                        nursery.start_soon(self._pinger)
        finally:
            self._send.close()
            with trio.CancelScope(shield=True):
                await self.framed.aclose()
        if self.reason is None:  # pragma: no cover - every task ends by closing the link
            self.close("closed", fault=False)
        assert self.reason is not None
        return self.reason

    async def _reader(self) -> None:
        cfg = self.config
        now = trio.current_time()
        frames_allowed = TokenBucket(cfg.frames_per_second, cfg.frame_burst, now)
        bytes_allowed = TokenBucket(cfg.bytes_per_second, cfg.byte_burst, now)
        while True:
            try:
                frames, size = await self.framed.receive_chunk()
            except PeerClosed as exc:
                self.close(self._closing if self._eof_sent and self._closing else str(exc),
                           fault=False)
                return
            except FrameTooLarge as exc:
                self.close(f"oversized frame: {exc.reason}")
                return
            now = trio.current_time()
            self._last_rx = now
            self.heard = True
            if not bytes_allowed.take(size, now) or not frames_allowed.take(len(frames), now):
                self.close(f"flood: more than {cfg.frames_per_second:g} frames or "
                           f"{cfg.bytes_per_second:g} bytes a second")
                return
            for payload in frames:
                if not self._handle(payload):
                    return

    def _handle(self, payload: bytes) -> bool:
        if self._eof_sent:
            return True  # We are done talking. Wait for the peer's end; read nothing more.
        if payload == PING:
            self.send(PONG_FRAME)
            return True
        if payload == PONG:
            if self._pong is not None:
                self._pong.set()
            return True
        if not is_array(payload):
            self.close("garbage: a frame that is not a msgpack array")
            return False
        if is_handshake(payload):
            refused = read_refusal(payload)
            if refused is not None:
                self.refusal = refused
                self.close(f"refused by the peer: {refused.text}", fault=False)
                return False
            self.close("replayed handshake on an open link")
            return False
        self.on_frame(payload)
        return not self.closed

    async def _writer(self) -> None:
        async with self._outgoing:
            async for first in self._outgoing:
                batch, end = self._batch(first)
                try:
                    if batch:
                        await self.framed.send(batch)
                    if end and self._linger:
                        await self.framed.send_eof()
                except PeerClosed as exc:
                    self.close(str(exc), fault=False)
                    return
                if end:
                    if self._linger:
                        self._eof_sent = True
                    else:
                        self.close(self._closing or "closed", fault=False)
                    return

    def _batch(self, first: bytes | None) -> tuple[bytes, bool]:
        """``first`` and the frames already queued behind it, joined up to :data:`BATCH` bytes.

        Joining makes one system call for a burst. The flag is True when the close marker was
        reached."""
        parts: list[bytes] = []
        size = 0
        item = first
        while item is not None:
            parts.append(item)
            size += len(item)
            if size >= BATCH:
                return b"".join(parts), False
            try:
                item = self._outgoing.receive_nowait()
            except (trio.WouldBlock, trio.EndOfChannel):
                return b"".join(parts), False
        return b"".join(parts), True

    async def _pinger(self) -> None:
        cfg = self.config
        next_ping = trio.current_time() + cfg.ping_interval
        while True:
            dead_at = self._last_rx + cfg.dead_after
            await trio.sleep_until(min(next_ping, dead_at))
            now = trio.current_time()
            if now >= self._last_rx + cfg.dead_after:
                self.close(f"the peer was silent for {cfg.dead_after:g} s")
                return
            if now >= next_ping:
                if not self._eof_sent:
                    self.send(PING_FRAME)
                next_ping = now + cfg.ping_interval
