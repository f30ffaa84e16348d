"""Where a session appends whole frames.

On disk a ``LogWriter`` writes the ``.kotlog`` and the journal. Tests and games nobody keeps use
memory."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol


class FrameSink(Protocol):
    """Where whole frames are appended: the ``.kotlog`` or the journal, through a ``LogWriter``."""

    def append(self, frames: Iterable[bytes]) -> None:
        """Append frames as they are, length prefix included."""
        ...

    def flush(self) -> None:
        """Make what was appended survive the process."""
        ...


class MemorySink:
    """A :class:`FrameSink` in memory, for tests and games nobody keeps."""

    def __init__(self) -> None:
        self.data = bytearray()

    def append(self, frames: Iterable[bytes]) -> None:
        """Append frames."""
        for f in frames:
            self.data += f

    def flush(self) -> None:
        """Nothing to do in memory."""
