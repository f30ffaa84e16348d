"""Exact dice decisions: which dice to keep, by expectimax over the rolls left.

Theory of operation
-------------------
The order of the dice does not matter to what they do, so a roll of ``n`` dice is a multiset
of faces, written as its counts: six numbers, one per face, that sum to ``n``. Six dice have 462
such rolls. A decision keeps a sub-multiset ``K`` of the dice and rolls the other ``m``; the new
dice are ``K`` plus an outcome ``O`` of ``m`` dice, whose chance is the multinomial
``m! / (o1! ... o6!) / 6**m``.

With a value ``V`` for every final roll of ``n`` dice, the best play is computed bottom up:
``W0 = V``, and with ``t`` rolls left, ``Et(K) = sum over O of P(O) * W(t-1)(K + O)`` for each
keep ``K``, then ``Wt(M) = max(V(M), max over K inside M, K not M, of Et(K))``. The decision at
the dice ``D`` with ``r`` rolls left is to stop, worth ``V(D)``, or the keep with the highest
``Er``. For six dice and two rolls left this is some hundred thousand additions: tens of
milliseconds.

The value of a final roll is the caller's: :mod:`kotp2p.bots.hard` resolves each roll with the
engine and weighs the state it leads to.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from functools import cache
from math import factorial, prod

FACES = 6
Counts = tuple[int, ...]
"""A multiset of die faces: how many dice show each of the six faces."""


@cache
def rolls_of(n: int) -> tuple[Counts, ...]:
    """Every multiset of ``n`` dice, as counts."""
    out = []
    for cut in itertools.combinations(range(n + FACES - 1), FACES - 1):
        edges = (-1, *cut, n + FACES - 1)
        out.append(tuple(edges[i + 1] - edges[i] - 1 for i in range(FACES)))
    return tuple(out)


@cache
def chances(m: int) -> tuple[tuple[Counts, float], ...]:
    """Each outcome of rolling ``m`` dice, with its chance."""
    total = FACES ** m
    return tuple((o, factorial(m) / prod(factorial(c) for c in o) / total)
                 for o in rolls_of(m))


@cache
def keeps_of(roll: Counts) -> tuple[Counts, ...]:
    """Every sub-multiset of ``roll`` but ``roll`` itself: the dice a reroll may keep."""
    ranges = [range(c + 1) for c in roll]
    return tuple(k for k in itertools.product(*ranges) if k != roll)


def add(a: Counts, b: Counts) -> Counts:
    """The multiset of both."""
    return tuple(x + y for x, y in zip(a, b, strict=True))


def counts_of(dice: tuple[int, ...]) -> Counts:
    """The counts of a tuple of faces."""
    return tuple(dice.count(f) for f in range(FACES))


@cache
def _ids(n: int) -> dict[Counts, int]:
    """Each roll of ``n`` dice -> its place in :func:`rolls_of`."""
    return {roll: i for i, roll in enumerate(rolls_of(n))}


@cache
def _outcomes(n: int, kept: Counts) -> tuple[tuple[float, ...], tuple[int, ...]]:
    """For ``kept`` of ``n`` dice: the chance of each outcome of the others, and the place of
    the roll it makes, kept dice and all."""
    ids = _ids(n)
    pairs = chances(n - sum(kept))
    return (tuple(p for _, p in pairs), tuple(ids[add(kept, o)] for o, _ in pairs))


def plan(value: Mapping[Counts, float], n: int, rolls: int) -> Callable[[Counts], float]:
    """``E(K)`` for the decision with ``rolls`` rolls left: the expected value of keeping ``K``
    of ``n`` dice and rolling the rest, then playing on at best."""
    rolls_n = rolls_of(n)
    first = [value[m] for m in rolls_n]
    best = first
    expect: dict[Counts, float] = {}
    for t in range(1, rolls + 1):
        expect = {}
        for k in range(n):
            for kept in rolls_of(k):
                probs, places = _outcomes(n, kept)
                expect[kept] = sum([p * best[i] for p, i in zip(probs, places, strict=True)])
        if t < rolls:
            best = [max(first[j], max(expect[k] for k in keeps_of(m)))
                    for j, m in enumerate(rolls_n)]
    return expect.__getitem__


def best_keep(value: Mapping[Counts, float], dice: tuple[int, ...], rolls: int,
              allowed: Callable[[Counts], bool] = lambda k: True) -> tuple[Counts | None, float]:
    """The keep worth most at ``dice`` with ``rolls`` rolls left, and its worth: None to stop.

    ``allowed`` refuses keeps the rules forbid, such as one that rerolls a held die."""
    here = counts_of(dice)
    stop = value[here]
    if rolls <= 0:
        return None, stop
    expect = plan(value, len(dice), rolls)
    choice: Counts | None = None
    worth = stop
    for kept in keeps_of(here):
        if allowed(kept):
            e = expect(kept)
            if e > worth + 1e-9:
                choice, worth = kept, e
    return choice, worth


def reroll_indices(dice: tuple[int, ...], kept: Counts) -> tuple[int, ...]:
    """The positions of the dice to roll again so that ``kept`` stays, the first of each face
    kept."""
    left = list(kept)
    out = []
    for i, face in enumerate(dice):
        if left[face]:
            left[face] -= 1
        else:
            out.append(i)
    return tuple(out)
