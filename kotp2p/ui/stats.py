"""The end screen's figures per monster, read off the sequence of states the game went through.

Theory of operation: between two consecutive states, a monster whose ♥ dropped took that damage,
credited as dealt to the monster whose turn it was (poison and card damage included; a monster
hurting itself deals nothing); ⚡ that dropped was spent; a turn that begins with its monster in
Tokyo City or Bay counts as a turn in Tokyo. Purchases are counted from the moves themselves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from kotp2p import rules


@dataclass(frozen=True)
class MonsterStats:
    """One monster's line on the end screen."""

    seat: int
    monster: str
    rank: int
    stars: int
    hp: int
    alive: bool
    damage_dealt: int
    damage_taken: int
    turns_in_tokyo: int
    cards_bought: int
    energy_spent: int


def game_stats(states: Sequence[rules.State], buyers: Sequence[int]) -> list[MonsterStats]:
    """Figures per monster, ranked best first, from every state in order (at least one) and the
    seat of each purchase."""
    last = states[-1]
    n = last.n
    dealt, taken, spent, tokyo = [0] * n, [0] * n, [0] * n, [0] * n
    for a, b in pairwise(states):
        for seat in range(n):
            loss = a.hp[seat] - b.hp[seat]
            if loss > 0:
                taken[seat] += loss
                if a.active != seat:
                    dealt[a.active] += loss
            spent[seat] += max(0, a.energy[seat] - b.energy[seat])
        if b.turn != a.turn and b.active in (b.city, b.bay):
            tokyo[b.active] += 1
    bought = [0] * n
    for seat in buyers:
        if 0 <= seat < n:
            bought[seat] += 1
    rank_of = {}
    for r, group in enumerate(rules.ranking(last), 1):
        for seat in group:
            rank_of[seat] = r
    out = [MonsterStats(seat, last.monsters[seat], rank_of.get(seat, n), last.stars[seat],
                        last.hp[seat], last.alive[seat], dealt[seat], taken[seat], tokyo[seat],
                        bought[seat], spent[seat]) for seat in range(n)]
    return sorted(out, key=lambda m: (m.rank, m.seat))
