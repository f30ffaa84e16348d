"""Engine throughput: full random-bot games per second (CPU time, one core: the bots' choices
and random values included) and the mean cost of one ``apply`` when the recorded inputs of
those games are replayed (the engine alone), for 2, 4 and 6 players.

Each figure is the best of many short batches (like ``timeit``): the CPU time of a process
also grows when other work shares the machine's caches and cores, and on a shared host that
lasts minutes, so many short batches find the quiet moments that a few long ones miss.
The compiled engine is measured when ``scripts/build_engine`` has built it for these sources,
the pure one otherwise; ``--engine`` chooses. The first line says which ran.
Usage: scripts/bench [--games N] [--batches B] [--engine auto|pure|compiled]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from kotp2p import compiled

if TYPE_CHECKING:
    from kotp2p import rules

# Random dice straight from random bytes: each byte below 252 gives the face ``byte % 6``, the
# four bytes above are dropped (so every face stays equally likely). A game draws its faces in
# blocks of about a thousand and deals them out in order.
_FACE_OF_BYTE = bytes(b % 6 for b in range(256))
_DROPPED = bytes(range(252, 256))
_BLOCK = 1024


def random_faces(getrandbits: Callable[[int], int]) -> bytes:
    """A block of independent uniform die faces (a few short of ``_BLOCK``)."""
    return getrandbits(8 * _BLOCK).to_bytes(_BLOCK, "little").translate(_FACE_OF_BYTE, _DROPPED)


def play(n: int, seed: int) -> tuple[rules.State, list[rules.Action]]:
    """One game between random bots (uniform over the legal actions, uniform random values);
    returns the start state and every input."""
    from kotp2p import rules  # after the engine is chosen

    rng = random.Random(seed)
    rand = rng.random
    getrandbits = rng.getrandbits
    faces, used = random_faces(getrandbits), 0
    start = rules.new_game(rules.Setup(monsters=rules.MONSTERS[:n]))
    s = start
    inputs: list[rules.Action] = []
    apply = rules.apply
    legal_actions = rules.legal_actions
    random_request = rules.RandomRequest
    random_result = rules.RandomResult
    while not s.over:
        p = s.pending
        if type(p) is random_request:
            bounds = p.bounds
            k = len(bounds)
            if bounds.count(6) == k:  # dice
                if used + k > len(faces):
                    faces, used = faces[used:] + random_faces(getrandbits), 0
                values = tuple(faces[used : used + k])
                used += k
            else:
                values = tuple([int(rand() * b) for b in bounds])
            a: rules.Action = random_result(values)
        else:
            legal = legal_actions(s)
            a = legal[int(rand() * len(legal))]
        inputs.append(a)
        s = apply(s, a)
    return start, inputs


def bench(n: int, games: int, batches: int) -> None:
    """Print the figures for ``n`` players."""
    from kotp2p import rules
    best_game = best_apply = float("inf")
    inputs_per_game = 0.0
    for b in range(batches):
        seeds = range(b * games, (b + 1) * games)
        t0 = time.process_time()
        for seed in seeds:  # each game on its own, as a table plays it
            play(n, seed)
        best_game = min(best_game, (time.process_time() - t0) / games)
        # The same games again, kept this time (untimed) to replay their inputs below.
        recorded = [play(n, seed) for seed in seeds]
        applies = sum(len(i) for _, i in recorded)
        inputs_per_game = applies / games
        t0 = time.process_time()
        for start, inputs in recorded:
            s = start
            for a in inputs:
                s = rules.apply(s, a)
        best_apply = min(best_apply, (time.process_time() - t0) / applies)
    print(
        f"{n} players: {1 / best_game:6.0f} games/s ({best_game * 1e3:.2f} ms CPU per game, "
        f"{inputs_per_game:.0f} inputs/game); apply {best_apply * 1e6:.2f} us mean, "
        f"{best_apply * inputs_per_game * 1e3:.2f} ms per game in the engine alone"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100, help="games per batch")
    parser.add_argument("--batches", type=int, default=12, help="batches; the best one counts")
    parser.add_argument("--engine", choices=("auto", "pure", "compiled"), default="auto",
                        help="the engine to measure (default: the compiled one if built)")
    args = parser.parse_args()
    try:
        print(f"engine: {compiled.choose(args.engine)}")
    except compiled.BuildError as exc:
        parser.exit(1, f"bench_engine: {exc}\n")
    for n in (2, 4, 6):
        bench(n, args.games, args.batches)


if __name__ == "__main__":
    main()
