"""The commands' one way into an event loop, so no module outside the transport imports trio."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

import trio

T = TypeVar("T")


def run_main(async_fn: Callable[[], Awaitable[T]]) -> T:
    """Run ``async_fn`` in a fresh trio event loop until it returns; return its result."""
    return trio.run(async_fn)
