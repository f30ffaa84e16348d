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


class HomeError(ValueError):
    """A directory or file of the user's that cannot be used. The message says which and why."""


def unusable(path: Path, exc: OSError, expected: str = "a directory there") -> HomeError:
    """The error for ``path``, which failed with ``exc``, in plain words.

    It says what was ``expected``. When ``KOTP2P_HOME`` is set to something other than a
    directory, it says that this is what must change.
    """
    home = os.environ.get(HOME_ENV)
    if home and not Path(home).is_dir():
        expected = f"{HOME_ENV} to name a directory"
    return HomeError(f"cannot use {path}: {exc.strerror or exc}; expected {expected}")


def games_dir() -> Path:
    """The directory of the user's ``.kotlog`` files, created on first use.

    :raises HomeError: it cannot be made.
    """
    path = data_dir() / "games"
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise unusable(path, exc) from None
    return path


def write_private(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically, readable by its owner only.

    It writes a temporary file, then renames it. The mode is 0600. The parent directory is created
    if need be.

    :raises HomeError: the directory cannot be made.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise unusable(path.parent, exc) from None
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
