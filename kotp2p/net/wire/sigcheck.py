"""Many Ed25519 signature checks at once, on every core when it pays.

Theory of operation
-------------------
Checking a signature holds the interpreter lock, so threads do not help; processes do. The batch
is cut into one slice per core when the platform can ``fork`` and this process runs a single
thread. Forking a threaded process can deadlock. Each child checks its slice in memory it
inherited, so nothing is pickled. It writes one byte per signature into a pipe, then leaves with
``os._exit``. The parent checks the first slice meanwhile. A child that fails for any reason counts
for nothing: its slice is checked again here. With a small batch, one core or no ``fork``,
everything is checked here, one by one.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence

from kotp2p.net.wire.identity import verify_signature

PARALLEL_FROM = 400
"""Signatures in a batch before more processes are worth their start.

Each process takes a few ms to start.
"""


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def _check(items: Sequence[tuple[bytes, bytes, bytes]]) -> bytes:
    return bytes(verify_signature(k, s, m) for k, s, m in items)


def check_signatures(items: Sequence[tuple[bytes, bytes, bytes]], *, workers: int = 0) -> list[bool]:
    """For each ``(public key, signature, message)``: does the signature check?

    ``workers`` is the number of processes to use. 0 means one per core, for batches of at least
    :data:`PARALLEL_FROM`. 1 means this process alone.
    """
    n = workers or _cores()
    if (n <= 1 or len(items) < (PARALLEL_FROM if not workers else 2)
            or not hasattr(os, "fork") or threading.active_count() > 1):
        return [b == 1 for b in _check(items)]
    n = min(n, len(items))
    size = -(-len(items) // n)
    slices = [items[i : i + size] for i in range(0, len(items), size)]
    children: list[tuple[int, int]] = []
    for part in slices[1:]:
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # The child checks its slice, reports, and leaves without cleaning up.
            code = 1
            try:
                os.close(read)
                data = _check(part)
                view = memoryview(data)
                while view:
                    view = view[os.write(write, view):]
                code = 0
            finally:
                os._exit(code)
        os.close(write)
        children.append((pid, read))
    results = [_check(slices[0])]
    for (pid, read), part in zip(children, slices[1:], strict=True):
        chunks = []
        with os.fdopen(read, "rb") as pipe:
            chunks.append(pipe.read())
        _, status = os.waitpid(pid, 0)
        data = b"".join(chunks)
        if status != 0 or len(data) != len(part):
            data = _check(part)  # the child failed: nothing it said counts
        results.append(data)
    return [b == 1 for chunk in results for b in chunk]
