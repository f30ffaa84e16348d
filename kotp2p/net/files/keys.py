"""The user's key file.

It is created on first use in the user config directory. Only its owner can read it: its mode is
0600."""

from __future__ import annotations

import os
from pathlib import Path

from kotp2p.net.files.paths import HomeError, config_dir, unusable, write_private
from kotp2p.net.wire import DEFAULT_NAME, Identity, RemoteProtocolError, check_name

IDENTITY_FILE = "identity"


def identity_path(directory: Path | None = None) -> Path:
    """Where the identity is stored."""
    return (directory or config_dir()) / IDENTITY_FILE


def save_identity(identity: Identity, path: Path) -> None:
    """Write ``identity`` to ``path`` atomically, readable by its owner only, with mode 0600."""
    write_private(path, identity.to_bytes())


def _read(path: Path) -> Identity:
    """The identity in the key file at ``path``.

    :raises HomeError: the file cannot be read or is damaged.
    """
    try:
        return Identity.from_bytes(path.read_bytes())
    except OSError as exc:
        raise unusable(path, exc, "a key file there") from None
    except RemoteProtocolError as exc:
        raise HomeError(f"your key file {path} is damaged: {exc.reason}; move it away and "
                        "a new key is made") from None


def load_identity(path: Path | None = None) -> Identity:
    """Load the identity, creating and saving a new one on first use.

    :raises HomeError: the key file cannot be read or is damaged.
    """
    path = path or identity_path()
    if path.exists():
        return _read(path)
    identity = Identity.generate()
    save_identity(identity, path)
    return identity


def new_identity(path: Path | None = None, name: str | None = None) -> Identity:
    """Replace the identity with a fresh key, keeping the name.

    The old file is kept as a backup named after its fingerprint. So games signed with it can still
    be resumed."""
    path = path or identity_path()
    old_name = DEFAULT_NAME
    if path.exists():
        old = _read(path)
        old_name = old.name
        os.replace(path, path.with_name(f"{path.name}.{old.fingerprint}.old"))
    identity = Identity.generate(name or old_name)
    save_identity(identity, path)
    return identity


def rename_identity(name: str, path: Path | None = None) -> Identity:
    """Set the display name of the stored identity, creating it if needed."""
    path = path or identity_path()
    identity = Identity(check_name(name), load_identity(path).private_key)
    save_identity(identity, path)
    return identity
