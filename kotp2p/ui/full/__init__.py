"""The full screen: the prompt_toolkit application, its layouts and its styles.

It draws the controller of ``kotp2p.ui`` and sends it every key. Only this package imports
prompt_toolkit, so a game with the plain interface never loads it.
"""

from __future__ import annotations

from kotp2p.ui.full.app import build_app, build_lobby_app
from kotp2p.ui.full.styles import wants_colour

__all__ = ["build_app", "build_lobby_app", "wants_colour"]
