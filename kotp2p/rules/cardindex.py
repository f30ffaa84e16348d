"""The index of the Power cards in play in this engine.

It holds cards by id, their notation names, the copier cards, the token kinds and the Evolution
decks.
:func:`kotp2p.rules.registry.install_cards` fills it once, from the list in
:mod:`kotp2p.rules.cardlist`. This module imports nothing of the engine."""

from __future__ import annotations

from collections.abc import Iterable

from kotp2p.rules.card import BASE, COSTUME, EVOLUTION_KINDS, Card, slugify
from kotp2p.rules.card import SLUGS as SLUGS

CARDS: dict[int, Card] = {}
"""Every card by id, in id order."""
BY_SLUG: dict[str, int] = {}
"""The reverse of ``SLUGS``."""
COPIERS: dict[int, str] = {}
"""Copier card, such as Mimic -> the flag naming the card it copies now."""
EVOLUTION_DECKS: dict[str, tuple[int, ...]] = {}
"""Monster -> the ids of the Evolution cards of its own deck, in id order."""
TOKEN_CARDS: dict[str, int] = {}
"""Token kind kept per seat in the state, such as ``"poison"`` -> the card whose name the
tokens bear. That card also names them in actions: ``UseCard(card, (n,))`` spends hearts to
remove n tokens."""
DECKS: dict[str, tuple[int, ...]] = {}
"""The base game's Power cards and Halloween's Costumes, in id order: see :func:`base_deck`."""


def index_cards(cards: Iterable[Card]) -> None:
    """Fill the tables above from ``cards``, which must have distinct ids and token kinds.

    :raises ValueError: for an id or a token kind that two cards share.
    """
    ordered = sorted(cards, key=lambda c: c.id)
    ids = [c.id for c in ordered]
    if len(set(ids)) != len(ids):
        raise ValueError(f"expected distinct card ids, found {ids}")
    for table in (CARDS, SLUGS, BY_SLUG, COPIERS, TOKEN_CARDS, EVOLUTION_DECKS, DECKS):
        table.clear()
    for card in ordered:
        CARDS[card.id] = card
        base = slug = slugify(card.name)
        copy = 2
        while slug in BY_SLUG:
            slug = f"{base}{copy}"
            copy += 1
        SLUGS[card.id] = slug
        BY_SLUG[slug] = card.id
        if card.copier:
            COPIERS[card.id] = f"copy.{card.id}"
        if card.kind in EVOLUTION_KINDS:
            EVOLUTION_DECKS[card.monster] = (*EVOLUTION_DECKS.get(card.monster, ()), card.id)
        if card.token:
            if card.token in TOKEN_CARDS:
                raise ValueError(f"token kind {card.token!r} given by two cards")
            TOKEN_CARDS[card.token] = card.id
    DECKS[BASE] = tuple(c.id for c in ordered if c.box == BASE)
    DECKS[COSTUME] = tuple(c.id for c in ordered if c.kind == COSTUME)


def card_by_name(name: str) -> int:
    """The id of the card with this printed name or notation name.

    A printed name is ``"Battery Monster"``, a notation name ``"batterymonster"``. Case and
    punctuation do not matter. A name two cards share, such as Extra Head, gives the first. The
    notation names the second ``extrahead2``.

    :raises ValueError: for a name no card has, saying what was expected.
    """
    found = BY_SLUG.get(slugify(name))
    if found is None:
        raise ValueError(f"expected the name of a Power card, like 'Battery Monster', found {name!r}")
    return found


def base_deck() -> tuple[int, ...]:
    """The ids of the base game's 66 Power cards, in id order."""
    return DECKS[BASE]


def costume_ids() -> tuple[int, ...]:
    """The ids of Halloween's Costume cards, in id order."""
    return DECKS[COSTUME]
