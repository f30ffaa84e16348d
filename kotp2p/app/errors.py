"""Errors shared by the command-line side (the ``kotp2p`` CLI and the commands it runs)."""

from __future__ import annotations


class CommandError(Exception):
    """An error the user can fix; printed without a traceback, exit code 1."""


__all__ = ["CommandError"]
