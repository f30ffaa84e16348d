"""Bot thinking time: the CPU time of each decision of one bot level, as percentiles.

One bot of the level plays against greedy bots; every decision it makes is timed (process CPU
time, one core). Roll, yield and buy decisions are counted apart: the hard bot searches the
dice at a roll and plays games out at a yield, and at a buy when two monsters are left. All
decisions together come last.
Usage: .venv/bin/python scripts/bench_bots.py [--level hard] [--games N] [--players P]
       [--playouts N]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kotp2p import rules
from kotp2p.bots import make_bot


def percentile(xs: list[float], q: float) -> float:
    """The ``q`` quantile of ``xs``, nearest rank."""
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else 0.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--level", default="hard")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--playouts", type=int, help="the hard bot's --playouts")
    args = ap.parse_args()
    times: dict[str, list[float]] = {"roll": [], "yield": [], "buy": [], "other": []}
    for game in range(args.games):
        rng = random.Random(args.seed * 1000 + game)
        s = rules.new_game(rules.Setup(monsters=rules.MONSTERS[:args.players]))
        bots = [make_bot(args.level, game * 10, args.playouts) if seat == 0
                else make_bot("greedy", game * 10 + seat) for seat in range(args.players)]
        while not s.is_over:
            p = s.pending
            if isinstance(p, rules.RandomRequest):
                s = rules.apply(s, rules.RandomResult(tuple(rng.randrange(b) for b in p.bounds)))
                continue
            assert isinstance(p, rules.Decision)
            start = time.process_time()
            action = bots[p.seat].choose(s)
            if p.seat == 0:
                times[p.kind if p.kind in times else "other"].append(
                    time.process_time() - start)
            s = rules.apply(s, action)
    times["all"] = [t for xs in times.values() for t in xs]
    for kind, xs in times.items():
        print(f"{args.level} bot, {kind} decisions: {len(xs)}; CPU ms p50 "
              f"{1000 * percentile(xs, 0.5):.1f}, p95 {1000 * percentile(xs, 0.95):.1f}, "
              f"max {1000 * max(xs, default=0.0):.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
