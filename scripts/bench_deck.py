"""The cost of a Power Up! deck's commitments and of the proof that they hold the public list.

Prints the best of many runs, in CPU milliseconds on one core: dealing and committing a deck of
8 cards, proving it, checking the proof, and checking one opened slot. Also the proof's size.
Usage: python scripts/bench_deck.py [--runs N]
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kotp2p.net.trust.deck import ROUNDS, Deck, check_deck, check_slot

CARDS = tuple(range(101, 109))
CONTEXT = b"bench"


def best(runs: int, work: Callable[[int], object]) -> float:
    """The least CPU time of ``work(i)`` over ``runs`` runs, in milliseconds."""
    times = []
    for i in range(runs):
        t0 = time.process_time()
        work(i)
        times.append(time.process_time() - t0)
    return min(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    runs = parser.parse_args().runs
    decks = [Deck.deal(CARDS, hashlib.sha256(b"%d" % i).digest()) for i in range(runs)]
    proofs = [d.prove(CONTEXT) for d in decks]
    commitments = [d.commitments for d in decks]
    print(f"deck of {len(CARDS)} cards, {ROUNDS} rounds, proof {len(proofs[0]):,} bytes")
    deal = best(runs, lambda i: Deck.deal(CARDS, b"x%d" % i).commitments)
    prove = best(runs, lambda i: decks[i].prove(CONTEXT))
    check = best(runs, lambda i: check_deck(commitments[i], CARDS, proofs[i], CONTEXT))
    slot = best(runs, lambda i: check_slot(commitments[i][0], *decks[i].opening(0)))
    print(f"  deal and commit {deal:6.1f} ms")
    print(f"  prove           {prove:6.1f} ms")
    print(f"  check the proof {check:6.1f} ms")
    print(f"  check a slot    {slot:6.2f} ms")


if __name__ == "__main__":
    main()
