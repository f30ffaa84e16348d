"""What Power Up!'s hidden hands cost a networked game: wall time and envelopes per turn.

Plays 4-seat games over loopback, each between three processes: a host with one bot of its own,
and two joiners, every seat a random bot with no delay. Half the games are base games, half have
Power Up! on. Prints, for each, the wall time per game and per turn (from the first turn to the
end, as the host's output shows them), and from the host's log the envelopes per turn by kind.
Usage: python scripts/bench_powerup.py [--games N]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kotp2p.net.files import parse_log  # noqa: E402
from kotp2p.net.wire import open_envelope  # noqa: E402

KOTP2P = [sys.executable, "-m", "kotp2p"]


def _start(home: Path, args: list[str]) -> subprocess.Popen[str]:
    env = {**os.environ, "KOTP2P_HOME": str(home), "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen([*KOTP2P, *args], env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)


def one_game(root: Path, power_up: bool) -> tuple[float, int, Counter[str]]:
    """Play one game; return its seconds from the first turn to the end, its turns, and the
    envelopes of its log by kind."""
    extra = ["--power-up"] if power_up else []
    host = _start(root / "host", ["host", "--bot", "random", "--seats", "4", "--bots", "1",
                                  "--level", "random", "--no-announce", "--plain", "--bind",
                                  "127.0.0.1", *extra])
    assert host.stdout is not None
    stamps: dict[str, float] = {}
    turns = 0
    port = 0
    for line in host.stdout:
        m = re.search(r"hosting on port (\d+)", line)
        if m:
            port = int(m.group(1))
            break
    joiners = [_start(root / f"join{i}", ["join", f"127.0.0.1:{port}", "--bot", "random",
                                          "--plain"]) for i in range(2)]
    for j in joiners:  # their output is not read: drain it so they never block
        threading.Thread(target=j.communicate, daemon=True).start()
    for line in host.stdout:
        now = time.perf_counter()
        if line.startswith("-- turn "):
            turns += 1
            stamps.setdefault("first", now)
        if line.startswith("Game over."):
            stamps["end"] = now
    host.wait(timeout=300)
    for j in joiners:
        j.wait(timeout=60)
    (log,) = (root / "host").rglob("*.kotlog")
    parsed = parse_log(log.read_bytes())
    kinds = Counter(open_envelope(p, parsed.genesis.game_id, parsed.genesis.keys).kind.name
                    for p in parsed.payloads)
    return stamps["end"] - stamps["first"], turns, kinds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games of each kind (default 6)")
    games = parser.parse_args().games
    for power_up in (False, True):
        per_turn, per_game, all_turns = [], [], 0
        kinds: Counter[str] = Counter()
        for _ in range(games):
            with tempfile.TemporaryDirectory() as tmp:
                seconds, turns, found = one_game(Path(tmp), power_up)
            per_game.append(seconds)
            per_turn.append(seconds / turns)
            all_turns += turns
            kinds += found
        name = "Power Up!" if power_up else "base    "
        envelopes = ", ".join(f"{k} {n / all_turns:.1f}" for k, n in sorted(kinds.items()))
        print(f"{name}: {statistics.mean(per_game):5.2f} s a game, "
              f"{statistics.median(per_turn) * 1000:5.1f} ms a turn (median of {games}), "
              f"{all_turns / games:.0f} turns a game; envelopes a turn: {envelopes}")


if __name__ == "__main__":
    main()
