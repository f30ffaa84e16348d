#!/usr/bin/env python3
"""Network figures with one process per peer on 127.0.0.1, for 2, 4 and 6 peers: the time from a
MOVE that triggers a roll to every peer knowing the dice (median and p99; and the median time to
the last ACK carrying a value for that roll leaving: the rest is the peers checking them), the
wall time of a whole game between instant random bots, the peak RSS of one peer process, the CPU
time all peers spent in the game divided by its rolls (less sensitive to a busy machine than the
latencies; also mid-game only), and the bytes all peers sent each other per turn.

The peers share the cores this script may use; each line says how many. Where there are fewer
cores than peers, the latencies measure the cores more than the protocol: a peer waits for the
CPU, not for a message. So when the largest peer count has more peers than cores, it is also run
with every peer on one core (``--mesh-cores`` picks the core counts by hand): if the latency
grows as the cores shrink while the CPU per roll stays, the game is bound by the cores.

Each peer runs ``kotp2p host``/``join --bot random`` with the hidden ``--trace FILE`` option, which
marks (wall-clock ns) when a MOVE carrying the reveal for random event k leaves its author and when
each process learns the outcome of k.

``--profile DIR`` runs every peer under ``scripts/profile_peer.py`` (cProfile counting CPU time)
and leaves one ``pstats`` file per peer and game in DIR (the latencies are then meaningless)."""

from __future__ import annotations

import argparse
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

KOTP2P = [sys.executable, "-m", "kotp2p"]
ROOT = Path(__file__).resolve().parent.parent
PROFILE: list[Path] = []
"""The directory for per-peer CPU profiles, when ``--profile`` is given."""
CORES: list[int] = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
"""The cores this script may use (empty where the system cannot pin processes to cores)."""


def _pinned(cores: int) -> list[int]:
    """The first ``cores`` usable cores, or none (no pinning) when that is all of them."""
    return CORES[:cores] if cores < len(CORES) else []


def _start(home: Path, args: list[str], out: Path, cores: list[int]) -> subprocess.Popen[bytes]:
    env = {**os.environ, "KOTP2P_HOME": str(home), "PYTHONUNBUFFERED": "1",
           "PYTHONPATH": str(ROOT)}
    command = KOTP2P
    if PROFILE:
        n = 0
        while (PROFILE[0] / f"{out.stem}-{n}.pstats").exists():
            n += 1
        stats = PROFILE[0] / f"{out.stem}-{n}.pstats"  # (a peer's seat, then the game's number)
        env["KOTP2P_PROFILE"] = str(stats)
        command = [sys.executable, str(ROOT / "scripts" / "profile_peer.py")]
    with open(out, "wb") as f:
        return subprocess.Popen([*command, *args], env=env, stdin=subprocess.DEVNULL, stdout=f,
                                stderr=subprocess.STDOUT, cwd=ROOT,
                                preexec_fn=(lambda: os.sched_setaffinity(0, cores)) if cores
                                else None)


def _port(out: Path, proc: subprocess.Popen[bytes]) -> int:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        m = re.search(rb"hosting on port (\d+)", out.read_bytes())
        if m:
            return int(m.group(1))
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    raise SystemExit(f"the host did not start:\n{out.read_text()}")


def _marks(path: Path) -> list[tuple[str, int, int]]:
    out = []
    for line in path.read_text().splitlines():
        what, value, ns = line.split()
        out.append((what, int(value), int(ns)))
    return out


@dataclass
class Game:
    """The figures of one game."""

    latencies: list[float]
    """Milliseconds from each MOVE that triggered a roll to the last peer knowing the dice."""
    reveals: list[float]
    """Milliseconds from each such MOVE to the last ACK carrying a value for its roll leaving
    (what is left of the latency is the peers checking those ACKs)."""
    wall: float
    """Seconds from the first peer starting to play to the last one ending."""
    rss: int
    """Peak RSS of the largest peer process, kB."""
    cpu: float
    """CPU seconds (user + system) all peer processes spent between the game's start and end."""
    play_cpu: float
    """CPU seconds all peer processes spent from the first outcome each knew to its last one
    (links set up, the end and the goodbyes left out), per outcome shown in that span."""
    turns: int
    """Turns played."""
    sent: int
    """Bytes of the frames all peers sent each other (length prefixes included)."""


def one_game(peers: int, tmp: Path, cores: list[int]) -> Game:
    """Play one game and read its figures from the peers' traces (every peer process pinned to
    ``cores``; not pinned when empty)."""
    procs, traces = [], []
    for i in range(peers):
        (tmp / f"p{i}").mkdir()
        traces.append(tmp / f"p{i}.trace")
    host = _start(tmp / "p0", ["host", "--seats", str(peers), "--bot", "random", "--port", "0",
                               "--bind", "127.0.0.1", "--no-announce", "--plain",
                               "--trace", str(traces[0])], tmp / "p0.out", cores)
    procs.append(host)
    port = _port(tmp / "p0.out", host)
    for i in range(1, peers):
        procs.append(_start(tmp / f"p{i}", ["join", f"127.0.0.1:{port}", "--bot", "random",
                                           "--bind", "127.0.0.1", "--plain",
                                           "--trace", str(traces[i])], tmp / f"p{i}.out", cores))
    for i, p in enumerate(procs):
        if p.wait(timeout=900) != 0:
            raise SystemExit(f"peer {i} failed:\n{(tmp / f'p{i}.out').read_text()[-3000:]}")
    moves: dict[int, int] = {}
    known: dict[int, list[int]] = {}
    acked: dict[int, list[int]] = {}
    starts, ends, rss = [], [], []
    cpu = sent = turns = 0
    play: list[float] = []
    for t in traces:
        at_outcome = []
        for what, value, ns in _marks(t):
            if what == "C":
                at_outcome.append(value)
            if what == "M":
                moves[value] = min(ns, moves.get(value, ns))
            elif what == "R":
                known.setdefault(value, []).append(ns)
            elif what == "A":
                acked.setdefault(value, []).append(ns)
            elif what == "S":
                starts.append(ns)
                cpu -= value
            elif what == "E":
                ends.append(ns)
                cpu += value
            elif what == "X":
                rss.append(value)
            elif what == "B":
                sent += value
            elif what == "T":
                turns = max(turns, value)
        if len(at_outcome) > 1:
            play.append((at_outcome[-1] - at_outcome[0]) / (len(at_outcome) - 1) / 1e6)
    latencies = [(max(known[k]) - sent) / 1e6 for k, sent in moves.items()
                 if len(known.get(k, ())) == peers]
    reveals = [(max(acked[k]) - sent) / 1e6 for k, sent in moves.items()
               if len(known.get(k, ())) == peers and len(acked.get(k, ())) == peers - 1]
    return Game(latencies, reveals, (max(ends) - min(starts)) / 1e9, max(rss), cpu / 1e6, sum(play),
                turns, sent)


def _line(peers: int, cores: int, games: list[Game]) -> str:
    latencies = sorted(x for g in games for x in g.latencies)
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    cpu_per_roll = sum(g.cpu for g in games) / len(latencies) * 1000
    reveals = [x for g in games for x in g.reveals]
    return (f"{peers} peers on {cores} core{'s' if cores > 1 else ''}: MOVE to dice at every peer: "
            f"median {statistics.median(latencies):6.2f} ms, p99 {p99:6.2f} ms ({len(latencies)} "
            f"rolls; every value sent: median "
            f"{statistics.median(reveals) if reveals else math.nan:5.2f} ms); game wall time "
            f"{statistics.median(g.wall for g in games):5.1f} s; peak RSS of a peer "
            f"{max(g.rss for g in games) / 1024:5.1f} MB; CPU of all peers per roll "
            f"{cpu_per_roll:5.2f} ms (mid-game "
            f"{statistics.median(g.play_cpu for g in games) * 1000:5.2f} ms); bytes sent per turn "
            f"{sum(g.sent for g in games) / sum(g.turns for g in games):7.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mesh-peers", default="2,4,6", help="peer counts (default 2,4,6)")
    parser.add_argument("--mesh-games", type=int, default=1, help="games per peer count")
    parser.add_argument("--mesh-cores", help="core counts to pin the peers to, e.g. 1,2 (default: "
                        "every usable core; and one core for the largest peer count if it has "
                        "more peers than there are cores)")
    parser.add_argument("--profile", type=Path, help="write a CPU profile of every peer here")
    args, _ = parser.parse_known_args()
    if args.profile:
        args.profile.mkdir(parents=True, exist_ok=True)
        PROFILE.append(args.profile.resolve())
    usable = len(CORES) or os.cpu_count() or 1
    counts = [int(x) for x in args.mesh_peers.split(",")]
    runs = [(peers, usable) for peers in counts]
    if args.mesh_cores:
        runs = [(peers, min(int(c), usable)) for c in args.mesh_cores.split(",") for peers in counts]
    elif CORES and max(counts) > usable > 1:
        runs.append((max(counts), 1))
    print("one process per peer on 127.0.0.1, instant random bots")
    for peers, cores in runs:
        games = []
        for _ in range(args.mesh_games):
            with tempfile.TemporaryDirectory(prefix="kotp2p-bench-") as tmp:
                games.append(one_game(peers, Path(tmp), _pinned(cores)))
        print(_line(peers, cores, games))


if __name__ == "__main__":
    main()
