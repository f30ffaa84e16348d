"""Settings for the whole suite.

The engine and the protocol make many short-lived objects. Python's default cycle collector
runs every 700 allocations and then walks every tracked object, which costs the suite about a
tenth of its time. Nothing here leaks cycles faster than a higher threshold collects them.
Objects made while collecting the tests live to the end, so they are frozen out of every walk.

Tests build tables of seats from a few seeds, again and again. Each seat's two hash chains take
4096 hashes to make. A process keeps the last 16 it made, enough for one game; the suite's
workers keep the last few thousand, so a seat's chains are made once per worker.
"""

from __future__ import annotations

import gc

import pytest

from kotp2p.net.trust import chain


def pytest_configure(config: pytest.Config) -> None:
    gc.set_threshold(50_000, 20, 20)
    chain._MADE_MAX = 4096


def pytest_collection_finish(session: pytest.Session) -> None:
    gc.collect()
    gc.freeze()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long tests go first, then the tests that mostly wait.

    With ``--dist worksteal`` the first worker's share of the run starts with them, one after
    another, while the other workers keep the cores busy. Spread over every worker, or left to
    the end, they left the cores idle. A long test left to the end ran on alone.
    """
    items.sort(key=lambda item: (item.get_closest_marker("long") is None,
                                 item.get_closest_marker("waits") is None))
