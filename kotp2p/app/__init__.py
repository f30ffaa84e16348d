"""What the commands orchestrate: local games against bots, network games, the full screen's
event loop, resume, replay, verify and the simulator. The command line calls this package.
"""

from __future__ import annotations

from kotp2p.app.commands import NOT_PROVEN, run_identity_command, run_replay_command, run_verify_command
from kotp2p.app.errors import CommandError
from kotp2p.app.fullscreen import Connect, NetScreen, UiOptions, run_net_ui, run_ui
from kotp2p.app.localgame import GameCommandError
from kotp2p.app.simulate import run_simulate_command

__all__ = [
    "NOT_PROVEN",
    "CommandError",
    "Connect",
    "GameCommandError",
    "NetScreen",
    "UiOptions",
    "run_identity_command",
    "run_net_ui",
    "run_replay_command",
    "run_simulate_command",
    "run_ui",
    "run_verify_command",
]
