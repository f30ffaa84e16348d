#!/usr/bin/env python3
"""Print what must not change when the code is rearranged: the bytes of seeded games and the
verdicts on the golden logs.

It plays 20 seeded local games through the ``kotp2p`` command (2 to 6 seats, random and greedy
bots, one game stopped by its human player and resumed) and prints the sha256 of each log. Then it
prints ``verify --json`` of every golden log in tests/data. Run it before and after a change that
must keep behaviour, and compare the two outputs: they must be identical.

Usage: .venv/bin/python scripts/same_bytes.py
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import sys
import tempfile
from pathlib import Path

import msgpack

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kotp2p.cli import main as kotp2p  # noqa: E402

GAMES = [(bots, level, seed) for seed in range(1, 20)
         for bots, level in [(1 + seed % 5, "random" if seed % 2 else "greedy")]]
"""(bots, bot level, seed) of the 19 games played by bots alone; the 20th is resumed."""

TYPED = "keep 2,3\nkeep 1\nquit\n"
"""What the human types in the game that is stopped and resumed."""


def _run(args: list[str], typed: str = "") -> tuple[int, str]:
    out = io.StringIO()
    stdin, sys.stdin = sys.stdin, io.StringIO(typed)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            code = kotp2p(args)
    finally:
        sys.stdin = stdin
    return code, out.getvalue()


def _logs(home: Path) -> set[Path]:
    return set((home / "data" / "games").glob("*.kotlog"))


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def play_games(home: Path) -> list[str]:
    """One line per seeded game: its arguments and the sha256 of its log."""
    lines = []
    for bots, level, seed in GAMES:
        before = _logs(home)
        args = ["play", "--plain", "--bots", str(bots), "--level", level, "--bot", level,
                "--seed", str(seed), "--bot-delay", "0"]
        code, _ = _run(args)
        (log,) = _logs(home) - before
        lines.append(f"{' '.join(args[1:])}: exit {code}, log {_digest(log)}")
    before = _logs(home)
    args = ["play", "--plain", "--bots", "3", "--level", "greedy", "--seed", "20", "--bot-delay", "0"]
    code, _ = _run(args, TYPED)
    (log,) = _logs(home) - before
    lines.append(f"{' '.join(args[1:])} (stopped): exit {code}, log {_digest(log)}")
    code, _ = _run(["resume", "--plain", "--bot", "greedy", "--bot-delay", "0", log.name[:16]])
    lines.append(f"resume --bot greedy: exit {code}, log {_digest(log)}")
    return lines


def golden_verdicts() -> list[str]:
    """``verify --json`` of every golden log, one line each."""
    lines = []
    for path in sorted((ROOT / "tests" / "data").glob("*.kotlog")):
        code, out = _run(["verify", "--json", str(path)])
        verdict = json.dumps(json.loads(out), sort_keys=True)
        lines.append(f"{path.name}: exit {code} {verdict}")
    return lines


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        os.environ["KOTP2P_HOME"] = str(home)
        key = hashlib.sha256(b"same_bytes player").digest()
        config = home / "config"
        config.mkdir()
        (config / "identity").write_bytes(msgpack.packb([1, "Player", key]))
        for line in play_games(home):
            print(line)
    for line in golden_verdicts():
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
