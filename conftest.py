"""The suite runs the examples in kotp2p's docstrings (``--doctest-modules``).

Looking for examples means importing each module and walking every object in it, about a
second and a half for the whole package in every worker. Only a few modules have examples.
A module whose source has no ``>>>`` prompt cannot have one, so it is not searched.
"""

from __future__ import annotations

from pathlib import Path

import pytest

_PACKAGE = Path(__file__).parent / "kotp2p"


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Skip a module of the package that holds no example; decide nothing about the rest."""
    if collection_path.suffix != ".py" or not collection_path.is_relative_to(_PACKAGE):
        return None
    if ">>>" in collection_path.read_text(encoding="utf-8"):
        return None
    return True
