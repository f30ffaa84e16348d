"""Effects that several Evolution cards share, made for each amount: one function per card would
repeat the same line."""

from __future__ import annotations

from kotp2p.rules.card import HookFn
from kotp2p.rules.effects import (
    UNHARMED,
    bit,
    deal_damage,
    gain_energy,
    gain_stars,
    heal,
    set_turn_flag,
    turn_flag,
)
from kotp2p.rules.registry import others_of
from kotp2p.rules.state import State


def heals(n: int) -> HookFn:
    """The card's owner gains ``n``♥."""
    def effect(s: State, seat: int, c: int) -> None:
        heal(s, seat, n, card=c)

    return effect


def gains_stars(n: int) -> HookFn:
    """The card's owner gains ``n``★."""
    def effect(s: State, seat: int, c: int) -> None:
        gain_stars(s, seat, n, card=c)

    return effect


def gains_energy(n: int) -> HookFn:
    """The card's owner gains ``n``⚡."""
    def effect(s: State, seat: int, c: int) -> None:
        gain_energy(s, seat, n, card=c)

    return effect


def unharmed_this_turn(s: State, seat: int, c: int) -> None:
    """The card's owner loses no ♥ for the rest of the turn."""
    set_turn_flag(s, UNHARMED, turn_flag(s, UNHARMED) | bit(seat))


def others_lose(n: int) -> HookFn:
    """Every other monster loses ``n``♥, as one hit from the card's owner."""
    def effect(s: State, seat: int, c: int) -> None:
        deal_damage(s, seat, dict.fromkeys(others_of(s, seat), n))

    return effect
