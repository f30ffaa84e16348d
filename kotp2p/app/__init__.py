"""What the commands orchestrate: local games against bots, network games, the full screen's
event loop, resume, replay, verify and the simulator. The command line calls :func:`run`.
"""

from __future__ import annotations

from kotp2p.app.commands import run
from kotp2p.app.errors import CommandError
from kotp2p.app.logs import NOT_PROVEN

__all__ = ["NOT_PROVEN", "CommandError", "run"]
