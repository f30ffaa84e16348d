"""Effects that several Evolution cards share, made for each amount: one function per card would
repeat the same line."""

from __future__ import annotations

from collections.abc import Callable

from kotp2p.rules.actions import Action, UseCard
from kotp2p.rules.basics import NOBODY
from kotp2p.rules.card import HookFn
from kotp2p.rules.effects import (
    UNHARMED,
    deal_damage,
    gain_energy,
    gain_stars,
    heal,
    lose_energy,
    lose_stars,
    note,
    set_turn_bit,
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


def offered_for(energy: int) -> Callable[[State, int, int], tuple[Action, ...]]:
    """A card's offer to be used, ``UseCard``, while its owner has ``energy``⚡ to pay."""
    def offer(s: State, seat: int, c: int) -> tuple[Action, ...]:
        return (UseCard(c),) if s.energy[seat] >= energy else ()

    return offer


def unharmed_this_turn(s: State, seat: int, c: int) -> None:
    """The card's owner loses no ♥ for the rest of the turn."""
    set_turn_bit(s, UNHARMED, seat)


GIVE_ENERGY, GIVE_STAR, GIVE_HEART, GAIN_ENERGY, GAIN_HEART, LOSE_TWO, LOSE_ONE = range(7)
"""The answers to a card's question such as Mega Purr's, as the ``UseCard`` argument: give the
card's owner 1⚡, 1★ or 1♥; gain 1⚡ or 1♥ from the bank; lose 2♥ to the owner; or lose 1♥ more,
as from nobody."""
ANSWER_WORDS = {GIVE_ENERGY: "1⚡", GIVE_STAR: "1★", GIVE_HEART: "1♥", GAIN_ENERGY: "1⚡",
                GAIN_HEART: "1♥", LOSE_TWO: "2♥", LOSE_ONE: "1♥ more"}
"""What each answer moves, in words."""
GIVES = (GIVE_ENERGY, GIVE_STAR, GIVE_HEART)
"""The answers that give something to the card's owner."""


def each_other_answers(*choices: int) -> HookFn:
    """Each other monster answers the card's owner with one of ``choices``, clockwise, each as
    it chooses: the question ``give``."""
    mask = sum(1 << x for x in choices)

    def effect(s: State, seat: int, c: int) -> None:
        s.stack.extend(("ask", t, "give", seat, c, mask) for t in reversed(others_of(s, seat)))

    return effect


def owner_answers(s: State, seat: int, c: int, *choices: int) -> None:
    """The card's owner chooses one of ``choices``: the question ``give`` asked of itself."""
    s.stack.append(("ask", seat, "give", seat, c, sum(1 << x for x in choices)))


def answers_possible(s: State, seat: int, mask: int) -> list[int]:
    """The answers of ``mask`` ``seat`` can give: ⚡ and ★ it has, ♥ but its last, and any
    gain or loss."""
    have = {GIVE_ENERGY: s.energy[seat] > 0, GIVE_STAR: s.stars[seat] > 0,
            GIVE_HEART: s.hp[seat] > 1}
    return [x for x in range(LOSE_ONE + 1) if mask >> x & 1 and have.get(x, True)]


def answer(s: State, seat: int, owner: int, choice: int, c: int) -> None:
    """``seat`` answers card ``c`` of ``owner`` with ``choice``."""
    if choice == GIVE_ENERGY:
        lose_energy(s, seat, 1, card=c)
        gain_energy(s, owner, 1, bonus=False, card=c)
    elif choice == GIVE_STAR:
        lose_stars(s, seat, 1, card=c)
        gain_stars(s, owner, 1, card=c)
    elif choice == GIVE_HEART:
        s.hp[seat] -= 1
        note(s, Damaged(seat, 1, NOBODY, False))
        heal(s, owner, 1, card=c)
    elif choice == GAIN_ENERGY:
        gain_energy(s, seat, 1, card=c)
    elif choice == GAIN_HEART:
        heal(s, seat, 1, card=c)
    elif choice == LOSE_TWO:
        deal_damage(s, owner, {seat: 2})
    else:  # not a new wound by the owner, which would ask again
        deal_damage(s, NOBODY, {seat: 1})


def others_lose(n: int) -> HookFn:
    """Every other monster loses ``n``♥, as one hit from the card's owner."""
    def effect(s: State, seat: int, c: int) -> None:
        deal_damage(s, seat, dict.fromkeys(others_of(s, seat), n))

    return effect
