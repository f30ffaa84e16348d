"""How the player runs this program, for the messages that tell them a command to type."""

from __future__ import annotations

import os
import shutil
import sys


def program() -> str:
    """The command that runs this kotp2p, as the player would type it.

    It is ``kotp2p`` when that name on the PATH is this program, or when it runs as
    ``python -m kotp2p``. Started by a path, as ``scripts/play`` starts it from the venv, it is
    that path: ``.venv/bin/kotp2p`` from the directory it runs in.
    """
    started = sys.argv[0] if sys.argv else ""
    if os.path.basename(started) != "kotp2p":
        return "kotp2p"
    found = shutil.which("kotp2p")
    try:
        if found is not None and os.path.samefile(found, started):
            return "kotp2p"
    except OSError:
        pass
    here = os.path.relpath(started)
    return os.path.abspath(started) if here.startswith("..") else here
