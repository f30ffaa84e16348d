"""A trio byte stream cut into length-prefixed frames.

The framing is that of :mod:`kotp2p.net.wire.codec`. :class:`~kotp2p.net.wire.codec.FrameDecoder`
checks the size cap from the 4-byte header, before a byte of the frame is buffered. The handshake
reads single frames through it with a small cap. Bytes that arrive behind the handshake stay in
the decoder for the link that follows.
"""

from __future__ import annotations

from collections import deque

import trio

from kotp2p.net.wire import FrameDecoder, NetError

CHUNK = 65536


class PeerClosed(NetError):
    """The peer closed the connection, or it broke."""


class FrameStream:
    """A stream plus the frame decoder fed by it."""

    def __init__(self, stream: trio.abc.Stream, max_frame: int) -> None:
        self.stream = stream
        self.decoder = FrameDecoder(max_frame)
        self._ready: deque[bytes] = deque()

    @property
    def max_frame(self) -> int:
        """The current cap on a frame's payload."""
        return self.decoder.max_frame

    @max_frame.setter
    def max_frame(self, value: int) -> None:
        self.decoder.max_frame = value

    async def receive_chunk(self) -> tuple[list[bytes], int]:
        """The frames completed by the next chunk of bytes, and the chunk's size.

        :raises PeerClosed: end of stream or a broken connection.
        :raises FrameTooLarge: a frame announced more than the cap.
        """
        if self._ready:
            frames = list(self._ready)
            self._ready.clear()
            return frames, 0
        try:
            data = await self.stream.receive_some(CHUNK)
        except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
            raise PeerClosed(f"the connection broke ({exc or type(exc).__name__})") from None
        if not data:
            raise PeerClosed("the peer closed the connection")
        return self.decoder.feed(bytes(data)), len(data)

    async def receive(self) -> bytes:
        """The next whole frame payload. It raises the errors of :meth:`receive_chunk`."""
        while not self._ready:
            frames, _ = await self.receive_chunk()
            self._ready.extend(frames)
        return self._ready.popleft()

    async def send(self, frame: bytes) -> None:
        """Send one frame, length prefix included.

        :raises PeerClosed: the connection is broken.
        """
        try:
            await self.stream.send_all(frame)
        except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
            raise PeerClosed(f"the connection broke ({exc or type(exc).__name__})") from None

    async def send_eof(self) -> None:
        """End our direction of the stream.

        The peer reads an end of stream after our data.

        :raises PeerClosed: the connection is broken.
        """
        try:
            if isinstance(self.stream, trio.abc.HalfCloseableStream):
                await self.stream.send_eof()
            else:
                await self.stream.aclose()
        except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
            raise PeerClosed(f"the connection broke ({exc or type(exc).__name__})") from None

    async def aclose(self) -> None:
        """Close the stream at once."""
        await trio.aclose_forcefully(self.stream)
