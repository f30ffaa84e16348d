"""Where kotp2p keeps a user's files.

The identity lives in the user config directory. The game logs live in the user data directory.
``platformdirs`` names both for the platform. Setting ``KOTP2P_HOME`` puts both under that one
directory instead, as ``$KOTP2P_HOME/config`` and ``$KOTP2P_HOME/data``. Tests and portable
installs use it, so the real home directory is never touched.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

HOME_ENV = "KOTP2P_HOME"


def config_dir() -> Path:
    """The directory holding the user's identity. It is not created here."""
    home = os.environ.get(HOME_ENV)
    if home:
        return Path(home) / "config"
    return Path(platformdirs.user_config_dir("kotp2p", appauthor=False))


def data_dir() -> Path:
    """The directory holding the user's data. It is not created here."""
    home = os.environ.get(HOME_ENV)
    if home:
        return Path(home) / "data"
    return Path(platformdirs.user_data_dir("kotp2p", appauthor=False))


def games_dir() -> Path:
    """The directory of the user's ``.kotlog`` files, created on first use."""
    path = data_dir() / "games"
    path.mkdir(parents=True, exist_ok=True)
    return path


def write_private(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically, readable by its owner only.

    It writes a temporary file, then renames it. The mode is 0600. The parent directory is created
    if need be."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
