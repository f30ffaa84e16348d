"""Power Up!'s Evolution deck slots: where each slot is, and what this replica knows of its card.

A seat's deck is a row of numbered slots; :mod:`kotp2p.rules.powerup` says how they are drawn and
played. The flag ``evo.<seat>.<slot>`` holds a slot's zone, absent while it is in the deck.
``evo.n.<seat>`` counts the slots numbered so far. An open slot's card is in
``evoc.<seat>.<slot>``. A closed one's is in ``State.slots`` under :func:`slot_key`, on its
owner's replica only.
"""

from __future__ import annotations

from kotp2p.rules.basics import HIDDEN, POWER_UP_FLAG
from kotp2p.rules.card import EVOLUTION_KINDS
from kotp2p.rules.cardindex import CARDS, EVOLUTION_DECKS
from kotp2p.rules.state import State

DECK_SIZE = 8
"""The cards in each monster's Evolution deck."""

DRAWN = 1
"""A slot just drawn, waiting for its owner to choose which one it keeps."""
HAND = 2
"""A slot in its owner's hand, closed."""
DISCARDED = 3
"""A slot in its owner's discard, closed: its card was declined at a draw."""
PLAYED_OUT = 4
"""A slot in its owner's discard, open: its card was played and is gone."""
IN_PLAY = 5
"""A slot face up in front of a monster: a Permanent Evolution, or a Gift."""
GONE = 6
"""A discarded slot shuffled back into the deck: its card is in one of the new slots."""

_SLOTS_PER_SEAT = 1000


def is_power_up(s: State) -> bool:
    """True in a Power Up! game."""
    return bool(s.flags) and POWER_UP_FLAG in s.flags


def evolution_deck(monster: str) -> tuple[int, ...]:
    """The ids of ``monster``'s 8 Evolution cards, in id order. It is empty for a monster
    without a deck."""
    return EVOLUTION_DECKS.get(monster, ())


def slot_key(seat: int, slot: int) -> int:
    """The key of ``seat``'s deck slot ``slot`` in ``State.slots``.

    Keys of random events are positive. Deck slots have negative keys, so the two never meet."""
    return -1 - seat * _SLOTS_PER_SEAT - slot


def slot_seat(key: int) -> int:
    """The seat whose deck slot has the key ``key`` in ``State.slots``; -1 for a random
    event's slot."""
    return (-1 - key) // _SLOTS_PER_SEAT if key < 0 else -1


def zone(s: State, seat: int, slot: int) -> int:
    """Where ``seat``'s slot is: 0 in the deck, else one of the zones above."""
    return s.flags.get(f"evo.{seat}.{slot}", 0)


def slot_count(s: State, seat: int) -> int:
    """How many slots ``seat``'s deck has numbered so far."""
    return s.flags.get(f"evo.n.{seat}", 0)


def slots_in(s: State, seat: int, where: int) -> tuple[int, ...]:
    """``seat``'s slots in zone ``where`` (0 for the deck), in slot order."""
    return tuple(j for j in range(slot_count(s, seat)) if zone(s, seat, j) == where)


def hand_of(s: State, seat: int) -> tuple[tuple[int, int], ...]:
    """``seat``'s hand as ``(slot, card)`` pairs in slot order.

    Everyone knows the slots. The card is ``HIDDEN`` on every replica but the owner's."""
    return tuple((j, known_card(s, seat, j)) for j in slots_in(s, seat, HAND))


def known_card(s: State, seat: int, slot: int) -> int:
    """The card in ``seat``'s ``slot`` as this replica knows it, or ``HIDDEN``."""
    card = s.flags.get(f"evoc.{seat}.{slot}")
    if card is not None:
        return card
    return s.slots.get(slot_key(seat, slot), HIDDEN)


def set_zone(s: State, seat: int, slot: int, where: int) -> None:
    key = f"evo.{seat}.{slot}"
    if where:
        s.flags[key] = where
    else:
        s.flags.pop(key, None)


def evolution_owner(s: State, card: int) -> int:
    """The seat whose deck holds the Evolution ``card``: the one playing its monster."""
    return s.monsters.index(CARDS[card].monster)


def is_evolution(card: int) -> bool:
    """True for an Evolution card, as opposed to a Power card."""
    return CARDS[card].kind in EVOLUTION_KINDS


def _move(s: State, seat: int, card: int, source: int, target: int) -> None:
    """The slot of ``seat``'s deck in zone ``source`` holding ``card`` goes to zone ``target``."""
    for j in slots_in(s, seat, source):
        if known_card(s, seat, j) == card:
            set_zone(s, seat, j, target)
            return


def retire(s: State, seat: int, card: int) -> None:
    """The Evolution ``card`` of ``seat``'s deck leaves play: its slot goes to the discard, open."""
    _move(s, seat, card, IN_PLAY, PLAYED_OUT)


def discard_hand(s: State, seat: int) -> None:
    """``seat``'s monster is out: the slots in its hand, or just drawn, go to its discard, closed."""
    for j in range(slot_count(s, seat)):
        if zone(s, seat, j) in (DRAWN, HAND):
            set_zone(s, seat, j, DISCARDED)


def put_in_play(s: State, seat: int, card: int) -> None:
    """The Evolution ``card``, just played by ``seat``, stays face up in front of a monster."""
    _move(s, seat, card, PLAYED_OUT, IN_PLAY)


def take_back(s: State, seat: int, card: int) -> None:
    """The Evolution ``card``, just played by ``seat``, goes back to its hand, open."""
    _move(s, seat, card, PLAYED_OUT, HAND)
