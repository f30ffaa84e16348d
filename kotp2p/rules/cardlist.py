"""Every Power card the engine knows, in one list, and the one place that installs them.

The cards themselves are declared in the card modules, grouped by theme. The Discard cards are in
:mod:`~kotp2p.rules.cards_discard`, the Keep cards in the ``cards_keep_*`` modules, Halloween's
Costume cards in :mod:`~kotp2p.rules.cards_costume`, Power Up!'s Evolution cards in the
``cards_evolution_*`` modules. A new card module is added to ``ALL_CARDS``
here. It is added to ``CARD_FRAMES`` too if it adds kinds of frames. Everything else the engine
knows about cards comes from this list: cards by id, notation names, hook tables, copiers and
token kinds.
"""

from __future__ import annotations

from kotp2p.rules import (
    cards_costume,
    cards_discard,
    cards_evolution_base,
    cards_evolution_box,
    cards_keep_body,
    cards_keep_damage,
    cards_keep_dice,
    cards_keep_market,
    cards_keep_mimic,
    evomarket,
)
from kotp2p.rules.card import Card
from kotp2p.rules.registry import Frames, install_cards, install_frames

ALL_CARDS: tuple[Card, ...] = (
    *cards_keep_body.CARDS,
    *cards_keep_damage.CARDS,
    *cards_keep_dice.CARDS,
    *cards_keep_market.CARDS,
    *cards_keep_mimic.CARDS,
    *cards_discard.CARDS,
    *cards_costume.CARDS,
    *cards_evolution_base.CARDS,
    *cards_evolution_box.CARDS,
)

CARD_FRAMES: tuple[Frames, ...] = (
    cards_keep_damage.FRAMES,
    cards_keep_dice.FRAMES,
    cards_keep_market.FRAMES,
    cards_keep_mimic.FRAMES,
    cards_costume.FRAMES,
    cards_evolution_base.FRAMES,
    cards_evolution_box.FRAMES,
    evomarket.FRAMES,
)
"""The kinds of frames the cards add to the turn machine: their windows and their own rolls."""

install_cards(ALL_CARDS)
install_frames(CARD_FRAMES)
