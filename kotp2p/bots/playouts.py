"""Flat Monte Carlo: a choice judged by the games that follow it.

Theory of operation
-------------------
For each legal action of a decision, the search applies it, then plays the game to its end a
number of times, every seat played by the greedy bot and every die and draw random. The action
whose games the deciding seat wins most often is chosen. Each action's games get the same dice
and draws, game for game, so the actions are compared on the same luck. Only the greedy bots'
rare random tie-breaks run on from game to game.

The search starts from what the seat may know (:func:`blinded`): the other seats' hidden cards,
and every private look at a deck, are hidden in it, and a private event of another seat is
answered with hidden values, as that seat's replica would see it. So two states that differ
only in what the seat cannot see get the same choice. A game the engine cannot go on with from
such a view, because it would need a hidden card, counts as lost.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from kotp2p import rules
from kotp2p.bots.greedy import GreedyBot

PLAYOUT_LIMIT = 3000
"""Inputs after which a game that has not ended counts as lost."""


@dataclass(frozen=True)
class Judged:
    """An action, and how many of the ``games`` played on after it the seat won: a game won
    with others counts a share."""

    action: rules.Action
    wins: float
    games: int


def blinded(state: rules.State, seat: int) -> rules.State:
    """``state`` as ``seat`` may know it: every hidden slot but its own deck's is hidden."""
    if not state.slots:
        return state
    s = state.copy()
    s.slots = {k: v if rules.slot_seat(k) == seat else rules.HIDDEN
               for k, v in state.slots.items()}
    return s


def playout(state: rules.State, seat: int, rng: random.Random,
            bots: Sequence[GreedyBot]) -> float:
    """Play ``state`` to its end, greedy bots in every seat: 1 if ``seat`` won alone, a share
    of 1 if it won with others, 0 if it lost."""
    apply = rules.apply
    random_request = rules.RandomRequest
    try:
        for _ in range(PLAYOUT_LIMIT):
            if state.over:
                return 1.0 / len(state.winners) if seat in state.winners else 0.0
            p = state.pending
            if type(p) is random_request:
                if 0 <= p.private_to != seat:
                    values = (rules.HIDDEN,) * len(p.bounds)
                else:
                    values = tuple([rng.randrange(b) for b in p.bounds])
                state = apply(state, rules.RandomResult(values))
            else:
                assert isinstance(p, rules.Decision)
                state = apply(state, bots[p.seat].choose(state))
    except (rules.IllegalAction, ValueError, KeyError, IndexError):
        return 0.0  # the game needed a card this seat cannot see
    return 0.0


def judge_actions(state: rules.State, seat: int, actions: Sequence[rules.Action], games: int,
                  seed: int) -> list[Judged]:
    """Each of ``actions``, legal at ``seat``'s pending decision, with the share of ``games``
    games after it that ``seat`` won. ``seed`` fixes the random numbers."""
    view = blinded(state, seat)
    bots = [GreedyBot(seed) for _ in range(state.n)]
    out = []
    for action in actions:
        after = rules.apply(view, action)
        wins = sum(playout(after, seat, random.Random(seed * 7919 + g), bots)
                   for g in range(games))
        out.append(Judged(action, wins, games))
    return out
