"""Effects that several Evolution cards share, made for each amount: one function per card would
repeat the same line."""

from __future__ import annotations

from kotp2p.rules.basics import NOBODY
from kotp2p.rules.card import HookFn
from kotp2p.rules.effects import (
    UNHARMED,
    bit,
    deal_damage,
    gain_energy,
    gain_stars,
    heal,
    lose_energy,
    lose_stars,
    note,
    set_turn_flag,
    turn_flag,
)
from kotp2p.rules.events import Damaged
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


GIVE_ENERGY, GIVE_STAR, GIVE_HEART = 0, 1, 2
"""What a monster gives in answer to a card such as Mega Purr: the ``UseCard`` argument."""
GIVE_WORDS = {GIVE_ENERGY: "1⚡", GIVE_STAR: "1★", GIVE_HEART: "1♥"}
"""Each gift in words."""


def each_other_gives(s: State, seat: int, c: int) -> None:
    """Each other monster gives ``seat`` one of the things card ``c`` names, clockwise, each as
    it chooses: the question ``give``."""
    s.stack.extend(("ask", t, "give", seat, c) for t in reversed(others_of(s, seat)))


def gifts_possible(s: State, giver: int, choices: tuple[int, ...]) -> list[int]:
    """The ``choices`` ``giver`` can give: ⚡ and ★ it has, and ♥ but its last."""
    have = {GIVE_ENERGY: s.energy[giver] > 0, GIVE_STAR: s.stars[giver] > 0,
            GIVE_HEART: s.hp[giver] > 1}
    return [g for g in choices if have[g]]


def give(s: State, giver: int, owner: int, gift: int, c: int) -> None:
    """``giver`` gives ``owner`` one ⚡, ★ or ♥, for card ``c``."""
    if gift == GIVE_ENERGY:
        lose_energy(s, giver, 1, card=c)
        gain_energy(s, owner, 1, bonus=False, card=c)
    elif gift == GIVE_STAR:
        lose_stars(s, giver, 1, card=c)
        gain_stars(s, owner, 1, card=c)
    else:
        s.hp[giver] -= 1
        note(s, Damaged(giver, 1, NOBODY, False))
        heal(s, owner, 1, card=c)


def others_lose(n: int) -> HookFn:
    """Every other monster loses ``n``♥, as one hit from the card's owner."""
    def effect(s: State, seat: int, c: int) -> None:
        deal_damage(s, seat, dict.fromkeys(others_of(s, seat), n))

    return effect
