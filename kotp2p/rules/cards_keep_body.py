"""Keep cards about the monster itself: health, energy, Battery Monster, end-of-turn rewards.

End-of-turn cards fire in the order the rules list them: Rooting for the Underdog, Energy
Hoarder, Herbivore, Solar Powered. The table is in ``hookorder``. Poison comes after all of
them, in the turn.
"""

from __future__ import annotations

from kotp2p.rules.card import KEEP, Card
from kotp2p.rules.effects import (
    bit,
    gain_energy,
    gain_stars,
    heal,
    remove_card,
    set_card_tokens,
    turn_flag,
)
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


def _even_bigger(s: State, seat: int, c: int) -> int:
    return 2


def _even_bigger_heal(s: State, seat: int, c: int) -> None:
    heal(s, seat, 2, card=c)


def _regeneration(s: State, seat: int, c: int) -> int:
    return 1


def _friend_of_children(s: State, seat: int, c: int) -> int:
    return 1


def _battery_charge(s: State, seat: int, c: int) -> None:
    set_card_tokens(s, seat, c, BATTERY_CHARGE)


def _battery_monster(s: State, seat: int, c: int) -> None:
    stored = s.tokens.get(c, 0)
    moved = min(BATTERY_PER_TURN, stored)
    set_card_tokens(s, seat, c, stored - moved)
    gain_energy(s, seat, moved, bonus=False, card=c)
    if stored - moved <= 0:
        remove_card(s, seat, c)


def _rooting_for_the_underdog(s: State, seat: int, c: int) -> None:
    mine = s.stars[seat]
    if all(s.stars[t] > mine for t in range(s.n) if t != seat and s.alive[t]):
        gain_stars(s, seat, 1, card=c)


def _energy_hoarder(s: State, seat: int, c: int) -> None:
    gain_stars(s, seat, s.energy[seat] // 6, card=c)


def _herbivore(s: State, seat: int, c: int) -> None:
    if not turn_flag(s, "dealt") & bit(seat):
        gain_stars(s, seat, 1, card=c)


def _solar_powered(s: State, seat: int, c: int) -> None:
    if s.energy[seat] == 0:
        gain_energy(s, seat, 1, card=c)


CARDS: tuple[Card, ...] = (
    Card(
        ENERGY_HOARDER, "Energy Hoarder", 3, KEEP, "end of your turn",
        text="Gain 1★ for each full 6⚡ you hold.",
        hooks={"end_turn": _energy_hoarder},
        worth=4,
    ),
    Card(
        EVEN_BIGGER, "Even Bigger", 4, KEEP, "when gained; ongoing",
        text="Gain 2♥ when you get it. Your maximum life becomes 12 while you own it.",
        hooks={"max_hp": _even_bigger, "gained": _even_bigger_heal},
        worth=6,
    ),
    Card(
        FRIEND_OF_CHILDREN, "Friend of Children", 3, KEEP, "whenever you gain energy",
        text="Each time you gain energy, gain 1⚡ more.",
        hooks={"energy_bonus": _friend_of_children},
        worth=5,
    ),
    Card(
        HERBIVORE, "Herbivore", 5, KEEP, "end of your turn",
        text="Gain 1★ if you made no one lose ♥ this turn.",
        hooks={"end_turn": _herbivore},
        worth=5,
    ),
    Card(
        BATTERY_MONSTER, "Battery Monster", 3, KEEP, "when bought; start of your turn",
        text=(
            "On buying, put 6⚡ from the bank on it. At the start of each of your turns move 2 of them to "
            "your pool; discard it once empty."
        ),
        hooks={"gained": _battery_charge, "start_turn": _battery_monster},
        worth=5,
    ),
    Card(
        REGENERATION, "Regeneration", 4, KEEP, "whenever you heal",
        text="Each time you gain ♥, gain 1♥ more.",
        hooks={"heal_bonus": _regeneration},
        worth=5,
    ),
    Card(
        ROOTING_FOR_THE_UNDERDOG, "Rooting for the Underdog", 3, KEEP, "end of your turn",
        text="If you alone have the fewest ★, gain 1★.",
        hooks={"end_turn": _rooting_for_the_underdog},
        worth=3,
    ),
    Card(
        SOLAR_POWERED, "Solar Powered", 2, KEEP, "end of your turn",
        text="If you have 0⚡, gain 1⚡.",
        hooks={"end_turn": _solar_powered},
        worth=2,
    ),
)
