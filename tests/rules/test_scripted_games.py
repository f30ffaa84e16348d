"""Scripted games in ``tests/data/games/``: a start state, inputs in words, expected states.

Each file: ``start <state>`` then lines ``> <action>`` (see ``rules.parse_action``) and
``expect <state>`` (the whole state in the text notation after the inputs so far). Lines
starting with ``#`` are comments.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kotp2p import rules

GAMES = sorted((Path(__file__).parent.parent / "data" / "games").glob("*.txt"))


def test_there_are_scripted_games() -> None:
    assert len(GAMES) >= 3


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_scripted_game(path: Path) -> None:
    state: rules.State | None = None
    checks = 0
    for number, line in enumerate(path.read_text().splitlines(), 1):
        where = f"{path.name}:{number}"
        if not line or line.startswith("#"):
            continue
        if line.startswith("start "):
            state = rules.from_text(line[6:])
            continue
        assert state is not None, f"{where}: expected 'start' first"
        if line.startswith("> "):
            action = rules.parse_action(state, line[2:])
            assert rules.format_action(state, action) == line[2:], where
            state = rules.apply(state, action)
        elif line.startswith("expect "):
            assert rules.to_text(state) == line[7:], where
            checks += 1
        else:
            raise AssertionError(f"{where}: expected start, >, expect or #, found {line!r}")
    assert checks >= 2
