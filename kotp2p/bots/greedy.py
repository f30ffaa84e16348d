"""A simple greedy bot: keeps the dice that help now, buys the card worth most per energy.

It reads only the public state and its own seat. Its choices are deterministic; the seed only
breaks ties.
"""

from __future__ import annotations

import random

from kotp2p import rules
from kotp2p.rules.dice import ENERGY, HEART, SMASH, THREE

# Rough worth of each Discard card's effect in stars (negative for self-damage risk is handled
# separately); Keep cards are worth their cost plus a little for lasting effect.
_SELF_DAMAGE = {112: 3, 113: 4, 114: 2, 117: 3}


class GreedyBot:
    """Greedy play: good dice kept, Tokyo left when hurt, cards bought by value."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, state: rules.State) -> rules.Action:
        """A legal action for the pending decision, chosen greedily."""
        legal = rules.legal_actions(state)
        if not legal:
            raise ValueError("expected a pending decision, found none")
        pending = state.pending
        assert isinstance(pending, rules.Decision)
        seat = pending.seat
        if pending.kind == "roll":
            return self._roll(state, seat, legal)
        if pending.kind == "yield":
            return rules.YIELD if state.hp[seat] <= 5 and rules.YIELD in legal else rules.STAY
        if pending.kind == "buy":
            return self._buy(state, seat, legal)
        passes = [a for a in legal if isinstance(a, rules.Pass | rules.Done)]
        return passes[0] if passes else legal[self._rng.randrange(len(legal))]

    def _wanted(self, state: rules.State, seat: int, face: int, count: int) -> bool:
        if face in (SMASH, ENERGY):
            return True
        if face == HEART:
            return not state.in_tokyo(seat) and state.hp[seat] < rules.max_hp(state, seat)
        # Numbers: worth keeping towards three of a kind.
        return count >= 3 or (face == THREE and count >= 2)

    def _roll(self, state: rules.State, seat: int, legal: tuple[rules.Action, ...]) -> rules.Action:
        dice = state.dice
        counts = [dice.count(f) for f in range(6)]
        reroll = tuple(i for i, d in enumerate(dice) if not self._wanted(state, seat, d, counts[d]))
        if reroll and rules.Reroll(reroll) in legal:
            return rules.Reroll(reroll)
        return rules.STOP

    def _buy(self, state: rules.State, seat: int, legal: tuple[rules.Action, ...]) -> rules.Action:
        best: rules.Action = rules.DONE
        best_value = 0.0
        for a in legal:
            if not isinstance(a, rules.Buy):
                continue
            card = rules.CARDS[a.card]
            if _SELF_DAMAGE.get(a.card, 0) >= state.hp[seat]:
                continue
            value = card.cost + (0.5 if card.kind == rules.KEEP else 0.0)
            if value > best_value:
                best, best_value = a, value
        return best if best in legal else rules.DONE
