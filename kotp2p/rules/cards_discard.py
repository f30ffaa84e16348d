"""The 18 Discard cards.

Each takes effect once, when bought, then goes to the discard pile. Damage from these cards is never
a smash: it gives no tokens and asks for no yield."""

from __future__ import annotations

from kotp2p.rules.card import DISCARD, Card, HookFn
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
    note,
)
from kotp2p.rules.events import EnteredTokyo
from kotp2p.rules.state import CITY, NOBODY, State

BOUGHT = "when bought"


def _others(s: State, seat: int) -> list[int]:
    return [t for t in range(s.n) if t != seat and s.alive[t]]


def _stars(n: int) -> HookFn:
    def effect(s: State, seat: int, c: int) -> None:
        gain_stars(s, seat, n, card=c)

    return effect


def _stars_and_self_damage(stars: int, loss: int) -> HookFn:
    def effect(s: State, seat: int, c: int) -> None:
        gain_stars(s, seat, stars, card=c)
        deal_damage(s, seat, {seat: loss})

    return effect


def _death_from_above(s: State, seat: int, c: int) -> None:
    """Everyone else in Tokyo is put out.

    That is no yield, so nothing that fires on a yield fires. The buyer ends in the City. From
    outside, it gets the entry bonus. From the Bay, it simply moves."""
    gain_stars(s, seat, 2, card=c)
    was_city, was_bay = s.city == seat, s.bay == seat
    for occupant in (s.city, s.bay):
        if occupant != NOBODY and occupant != seat:
            leave_tokyo(s, occupant, card=c)
    if was_bay:
        leave_tokyo(s, seat, card=c)
        s.city = seat
        note(s, EnteredTokyo(seat, CITY, c))
    elif not was_city:
        enter_tokyo(s, seat, CITY, card=c)


def _energize(s: State, seat: int, c: int) -> None:
    gain_energy(s, seat, 9, card=c)


def _evacuation_orders(s: State, seat: int, c: int) -> None:
    for t in _others(s, seat):
        lose_stars(s, t, 5, card=c)


def _flame_thrower(s: State, seat: int, c: int) -> None:
    deal_damage(s, seat, dict.fromkeys(_others(s, seat), 2))


def _frenzy(s: State, seat: int, c: int) -> None:
    grant_extra_turn(s, seat, card=c)


def _gas_refinery(s: State, seat: int, c: int) -> None:
    gain_stars(s, seat, 2, card=c)
    deal_damage(s, seat, dict.fromkeys(_others(s, seat), 3))


def _heal(s: State, seat: int, c: int) -> None:
    heal(s, seat, 2, card=c)


def _high_altitude_bombing(s: State, seat: int, c: int) -> None:
    deal_damage(s, seat, dict.fromkeys([*_others(s, seat), seat], 3))


def _nuclear_power_plant(s: State, seat: int, c: int) -> None:
    gain_stars(s, seat, 2, card=c)
    heal(s, seat, 3, card=c)


def _vast_storm(s: State, seat: int, c: int) -> None:
    gain_stars(s, seat, 2, card=c)
    for t in _others(s, seat):
        lose_energy(s, t, s.energy[t] // 2, card=c)


CARDS: tuple[Card, ...] = (
    Card(
        101, "Apartment Building", 5, DISCARD, BOUGHT,
        text="+3★.",
        hooks={"bought": _stars(3)},
    ),
    Card(
        102, "Commuter Train", 4, DISCARD, BOUGHT,
        text="+2★.",
        hooks={"bought": _stars(2)},
    ),
    Card(
        103, "Corner Store", 3, DISCARD, BOUGHT,
        text="+1★.",
        hooks={"bought": _stars(1)},
    ),
    Card(
        104, "Death From Above", 5, DISCARD, BOUGHT,
        text="+2★, and you take control of Tokyo; everyone in Tokyo must leave.",
        hooks={"bought": _death_from_above},
    ),
    Card(
        105, "Energize", 8, DISCARD, BOUGHT,
        text="+9⚡.",
        hooks={"bought": _energize},
    ),
    Card(
        106, "Evacuation Orders", 7, DISCARD, BOUGHT,
        text="Every other monster loses 5★.",
        hooks={"bought": _evacuation_orders},
    ),
    Card(
        107, "Evacuation Orders", 7, DISCARD, BOUGHT,
        text="Every other monster loses 5★.",
        hooks={"bought": _evacuation_orders},
    ),
    Card(
        108, "Flame Thrower", 3, DISCARD, BOUGHT,
        text="Every other monster loses 2♥.",
        hooks={"bought": _flame_thrower},
    ),
    Card(
        109, "Frenzy", 7, DISCARD, BOUGHT,
        text="Take another turn after this one.",
        hooks={"bought": _frenzy},
    ),
    Card(
        110, "Gas Refinery", 6, DISCARD, BOUGHT,
        text="+2★, and every other monster loses 3♥.",
        hooks={"bought": _gas_refinery},
    ),
    Card(
        111, "Heal", 3, DISCARD, BOUGHT,
        text="+2♥.",
        hooks={"bought": _heal},
    ),
    Card(
        112, "High Altitude Bombing", 4, DISCARD, BOUGHT,
        text="Every monster, you included, loses 3♥.",
        hooks={"bought": _high_altitude_bombing},
        self_damage=3,
    ),
    Card(
        113, "Jet Fighters", 5, DISCARD, BOUGHT,
        text="+5★ and you lose 4♥.",
        hooks={"bought": _stars_and_self_damage(5, 4)},
        self_damage=4,
    ),
    Card(
        114, "National Guard", 3, DISCARD, BOUGHT,
        text="+2★ and you lose 2♥.",
        hooks={"bought": _stars_and_self_damage(2, 2)},
        self_damage=2,
    ),
    Card(
        115, "Nuclear Power Plant", 6, DISCARD, BOUGHT,
        text="+2★ and +3♥.",
        hooks={"bought": _nuclear_power_plant},
    ),
    Card(
        116, "Skyscraper", 6, DISCARD, BOUGHT,
        text="+4★.",
        hooks={"bought": _stars(4)},
    ),
    Card(
        117, "Tank", 4, DISCARD, BOUGHT,
        text="+4★ and you lose 3♥.",
        hooks={"bought": _stars_and_self_damage(4, 3)},
        self_damage=3,
    ),
    Card(
        118, "Vast Storm", 6, DISCARD, BOUGHT,
        text="+2★; every other monster loses 1⚡ for each 2⚡ it has.",
        hooks={"bought": _vast_storm},
    ),
)
