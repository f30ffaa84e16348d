"""Engine throughput: full random-bot games per second (CPU time, one core) and the mean cost of
one ``apply``, for 2, 4 and 6 players.

Usage: scripts/bench [--games N]
"""

from __future__ import annotations

import argparse
import random
import time

from kotp2p import rules


def play(n: int, seed: int) -> tuple[rules.State, list[rules.Action]]:
    rng = random.Random(seed)
    rand = rng.random
    start = rules.new_game(rules.Setup(monsters=rules.MONSTERS[:n]))
    s = start
    inputs: list[rules.Action] = []
    apply = rules.apply
    legal_actions = rules.legal_actions
    RandomRequest = rules.RandomRequest
    RandomResult = rules.RandomResult
    while not s.over:
        p = s.pending
        if type(p) is RandomRequest:
            a: rules.Action = RandomResult(tuple([int(rand() * b) for b in p.bounds]))
        else:
            legal = legal_actions(s)
            a = legal[int(rand() * len(legal))]
        inputs.append(a)
        s = apply(s, a)
    return start, inputs


def bench(n: int, games: int) -> None:
    t0 = time.process_time()
    recorded = [play(n, seed) for seed in range(games)]
    full = time.process_time() - t0
    applies = sum(len(i) for _, i in recorded)
    t0 = time.process_time()
    for start, inputs in recorded:
        s = start
        for a in inputs:
            s = rules.apply(s, a)
    replay = time.process_time() - t0
    print(
        f"{n} players: {games / full:7.0f} games/s ({full / games * 1e3:.2f} ms CPU per game, "
        f"{applies / games:.0f} inputs/game); apply {replay / applies * 1e6:.2f} us mean"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=400)
    args = parser.parse_args()
    for n in (2, 4, 6):
        bench(n, args.games)


if __name__ == "__main__":
    main()
