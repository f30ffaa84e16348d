"""The commands behind the command line, which calls :func:`run`.

They run local games against bots and network games. They run the full screen's event loop,
resume, replay, verify and the simulator.
"""

from __future__ import annotations

from kotp2p.app.commands import run
from kotp2p.app.errors import CommandError
from kotp2p.app.logs import NOT_PROVEN

__all__ = ["NOT_PROVEN", "CommandError", "run"]
