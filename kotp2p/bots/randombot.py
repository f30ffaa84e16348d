"""A bot that picks uniformly among the legal actions."""

from __future__ import annotations

import random

from kotp2p import rules


class RandomBot:
    """Uniform over ``rules.legal_actions(state)``. It is reproducible from its seed."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, state: rules.State) -> rules.Action:
        """A uniformly chosen legal action.

        :raises ValueError: if nothing is pending for a player.
        """
        legal = rules.legal_actions(state)
        if not legal:
            raise ValueError("expected a pending decision, found none")
        return legal[self._rng.randrange(len(legal))]
