"""The effects of the 18 Discard cards: each happens once, when bought, then the card goes to
the discard pile. Damage from these cards is never a smash: no tokens, no yield."""

from __future__ import annotations

import kotp2p.rules.cardlist  # noqa: F401  (the cards must exist before their effects)
from kotp2p.rules.effects import (
    deal_damage,
    enter_tokyo,
    gain_energy,
    gain_stars,
    grant_extra_turn,
    heal,
    leave_tokyo,
    lose_energy,
    lose_stars,
)
from kotp2p.rules.registry import card_hook
from kotp2p.rules.state import BAY, CITY, NOBODY, State


def _others(s: State, seat: int) -> list[int]:
    return [t for t in range(s.n) if t != seat and s.alive[t]]


def _stars(card: int, n: int) -> None:
    @card_hook(card, "bought")
    def effect(s: State, seat: int, c: int) -> None:
        gain_stars(s, seat, n, card=c)


_stars(101, 3)  # Apartment Building
_stars(102, 2)  # Commuter Train
_stars(103, 1)  # Corner Store
_stars(116, 4)  # Skyscraper


@card_hook(104, "bought")
def _death_from_above(s: State, seat: int, c: int) -> None:
    gain_stars(s, seat, 2)
    if s.city == seat:
        return
    if s.bay == seat:
        # Already in Tokyo: simply move to the City; its occupant is put out.
        s.bay = NOBODY
        if s.city != NOBODY:
            leave_tokyo(s, s.city)
        s.city = seat
        return
    for place in (CITY, BAY):
        occupant = s.city if place == CITY else s.bay
        if occupant != NOBODY:
            leave_tokyo(s, occupant)
    enter_tokyo(s, seat, CITY)


@card_hook(105, "bought")
def _energize(s: State, seat: int, c: int) -> None:
    gain_energy(s, seat, 9, card=c)


def _evacuation_orders(s: State, seat: int, c: int) -> None:
    for t in _others(s, seat):
        lose_stars(s, t, 5, card=c)


card_hook(106, "bought")(_evacuation_orders)
card_hook(107, "bought")(_evacuation_orders)


@card_hook(108, "bought")
def _flame_thrower(s: State, seat: int, c: int) -> None:
    deal_damage(s, seat, dict.fromkeys(_others(s, seat), 2))


@card_hook(109, "bought")
def _frenzy(s: State, seat: int, c: int) -> None:
    grant_extra_turn(s, seat, card=c)


@card_hook(110, "bought")
def _gas_refinery(s: State, seat: int, c: int) -> None:
    gain_stars(s, seat, 2, card=c)
    deal_damage(s, seat, dict.fromkeys(_others(s, seat), 3))


@card_hook(111, "bought")
def _heal(s: State, seat: int, c: int) -> None:
    heal(s, seat, 2, card=c)


@card_hook(112, "bought")
def _high_altitude_bombing(s: State, seat: int, c: int) -> None:
    deal_damage(s, seat, dict.fromkeys([*_others(s, seat), seat], 3))


def _stars_and_self_damage(card: int, stars: int, loss: int) -> None:
    @card_hook(card, "bought")
    def effect(s: State, seat: int, c: int) -> None:
        gain_stars(s, seat, stars, card=c)
        deal_damage(s, seat, {seat: loss})


_stars_and_self_damage(113, 5, 4)  # Jet Fighters
_stars_and_self_damage(114, 2, 2)  # National Guard
_stars_and_self_damage(117, 4, 3)  # Tank


@card_hook(115, "bought")
def _nuclear_power_plant(s: State, seat: int, c: int) -> None:
    gain_stars(s, seat, 2, card=c)
    heal(s, seat, 3, card=c)


@card_hook(118, "bought")
def _vast_storm(s: State, seat: int, c: int) -> None:
    gain_stars(s, seat, 2, card=c)
    for t in _others(s, seat):
        lose_energy(s, t, s.energy[t] // 2, card=c)
