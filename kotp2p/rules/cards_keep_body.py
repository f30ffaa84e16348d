"""Keep cards about the monster itself: health, energy, Battery Monster, end-of-turn rewards.

End-of-turn cards fire in the order the rules list them (Rooting for the Underdog, Energy
Hoarder, Herbivore, Solar Powered); poison comes after all of them (in the machine).
"""

from __future__ import annotations

import kotp2p.rules.cardlist  # noqa: F401  (the cards must exist before their effects)
from kotp2p.rules.effects import (
    bit,
    gain_energy,
    gain_stars,
    heal,
    remove_card,
    set_card_tokens,
    turn_flag,
)
from kotp2p.rules.registry import card_hook
from kotp2p.rules.state import State

ENERGY_HOARDER = 11
EVEN_BIGGER = 12
FRIEND_OF_CHILDREN = 17
HERBIVORE = 21
BATTERY_MONSTER = 28
REGENERATION = 38
ROOTING_FOR_THE_UNDERDOG = 39
SOLAR_POWERED = 42

BATTERY_CHARGE = 6
BATTERY_PER_TURN = 2


@card_hook(EVEN_BIGGER, "max_hp")
def _even_bigger(s: State, seat: int, c: int) -> int:
    return 2


@card_hook(EVEN_BIGGER, "gained")
def _even_bigger_heal(s: State, seat: int, c: int) -> None:
    heal(s, seat, 2, card=c)


@card_hook(REGENERATION, "heal_bonus")
def _regeneration(s: State, seat: int, c: int) -> int:
    return 1


@card_hook(FRIEND_OF_CHILDREN, "energy_bonus")
def _friend_of_children(s: State, seat: int, c: int) -> int:
    return 1


@card_hook(BATTERY_MONSTER, "gained")
def _battery_charge(s: State, seat: int, c: int) -> None:
    set_card_tokens(s, seat, c, BATTERY_CHARGE)


@card_hook(BATTERY_MONSTER, "start_turn")
def _battery_monster(s: State, seat: int, c: int) -> None:
    stored = s.tokens.get(c, 0)
    moved = min(BATTERY_PER_TURN, stored)
    set_card_tokens(s, seat, c, stored - moved)
    gain_energy(s, seat, moved, bonus=False, card=c)
    if stored - moved <= 0:
        remove_card(s, seat, c)


@card_hook(ROOTING_FOR_THE_UNDERDOG, "end_turn", order=1)
def _rooting_for_the_underdog(s: State, seat: int, c: int) -> None:
    mine = s.stars[seat]
    if all(s.stars[t] > mine for t in range(s.n) if t != seat and s.alive[t]):
        gain_stars(s, seat, 1, card=c)


@card_hook(ENERGY_HOARDER, "end_turn", order=2)
def _energy_hoarder(s: State, seat: int, c: int) -> None:
    gain_stars(s, seat, s.energy[seat] // 6, card=c)


@card_hook(HERBIVORE, "end_turn", order=3)
def _herbivore(s: State, seat: int, c: int) -> None:
    if not turn_flag(s, "dealt") & bit(seat):
        gain_stars(s, seat, 1, card=c)


@card_hook(SOLAR_POWERED, "end_turn", order=4)
def _solar_powered(s: State, seat: int, c: int) -> None:
    if s.energy[seat] == 0:
        gain_energy(s, seat, 1, card=c)
