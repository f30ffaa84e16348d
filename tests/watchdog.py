"""A deadline for tests that read a child process's output line by line."""

from __future__ import annotations

import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def kill_after(proc: subprocess.Popen[str], seconds: float) -> Iterator[None]:
    """Kill ``proc`` if the block is still running after ``seconds``: a read from a child that
    hangs then ends (end of file), so the test fails with its own message instead of hanging."""
    timer = threading.Timer(seconds, proc.kill)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
