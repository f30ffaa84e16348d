"""The ``identity`` subcommand: the user's key and name."""

from __future__ import annotations

import argparse
import sys

from kotp2p.net.files import identity_path, load_identity, new_identity, rename_identity


def run_identity_command(args: argparse.Namespace) -> int:
    """Show this user's identity, making it on first use.

    ``--new`` makes a fresh key. ``--name`` sets the display name.
    """
    path = identity_path()
    try:
        if args.new:
            ident = new_identity(path, args.name)
            print("made a new key; the old one (if any) is kept beside it")
        elif args.name:
            ident = rename_identity(args.name, path)
        else:
            ident = load_identity(path)
    except ValueError as exc:
        print(f"kotp2p: {exc}", file=sys.stderr)
        return 1
    print(f"{ident.name} [{ident.fingerprint}]")
    print(f"key file: {path}")
    return 0
