"""The order in which a monster's cards take effect at one hook point.

This module is the one place that decides it.

Theory of operation
-------------------
When a hook point fires for a monster, its cards answer. So do a copier's copies, as ``registry``
describes. The order depends only on *which* cards the monster holds, never on the order it gained
them. So no outcome, no list of legal actions and no pushed frame can depend on that order:

1. First come the cards that ``RULED_ORDER`` lists for that hook point, in the listed order. These
   are the hook points where the rulings say the order matters. Each comes with the ruling that
   fixes it: the point's id in the rulings index of the tests.
2. Then comes every other card, by card id. At those hook points the effects commute: sums, star
   gains that only add, windows that open once. So any fixed order gives the same game. Card id
   order only makes the lists they produce canonical, such as legal actions and frames.

A copy takes the place of the card it copies. When the same monster holds both, the copy comes
right after the card itself. Wherever several monsters answer one hook point, the machine orders
the monsters itself, clockwise from the active monster. This table only orders one monster's
cards.
"""

from __future__ import annotations

# hook point -> the card ids in the order they take effect, and the ruling that fixes it
RULED_ORDER: dict[str, tuple[tuple[int, ...], str]] = {
    # Battery Monster pays before the other cards at the start of a turn. The paid Mimic move
    # comes after every start-of-turn effect, just before the first roll. So the energy Battery
    # Monster paid can pay for it. Urbavore's star follows the Tokyo bonus, which the turn gives
    # before any card. So Battery Monster pays after that bonus, not before it as in the rulings.
    # Nothing can tell the difference. The bonus is stars, or in the 2-player variant energy that
    # only adds to Battery Monster's.
    "start_turn": (
        (28, 46, 27),  # Battery Monster, Urbavore, Mimic
        "1.2.1, 1.2.8, 1.3",
    ),
    # The end-of-turn cards in the rulings' order. Poison comes after all of them, in the turn.
    # Rooting for the Underdog reads the stars before Energy Hoarder adds to them.
    "end_turn": (
        (39, 11, 21, 42),  # Rooting for the Underdog, Energy Hoarder, Herbivore, Solar Powered
        "1.13.2, 1.13.3, 1.13.4, 1.13.5",
    ),
    # Jets holds a smash back before any reaction, so nobody spends anything on a hit that
    # may never land. Camouflage, Wings and Rapid Healing then share one reaction window.
    "hit_window": (
        (24, 7, 48, 37),  # Jets, Camouflage, Wings, Rapid Healing
        "2.2, 4.1",
    ),
    # After the yields: the held-back Jets damage of a monster that stayed, then Burrowing's
    # damage to the monster about to take the yielded place.
    "after_yields": (
        (24, 6),  # Jets, Burrowing
        "1.8",
    ),
    # Protection: Wings, when used this turn, is checked before Armor Plating.
    "protect": (
        (48, 4),  # Wings, Armor Plating
        "4.2",
    ),
}


def rank(hook: str) -> dict[int, int]:
    """For ``hook``: card id -> its place among the ruled cards, 0 first.

    Other cards are not in the dict. They come after the ruled ones, by card id."""
    ruled = RULED_ORDER.get(hook)
    return {card: i for i, card in enumerate(ruled[0])} if ruled else {}


def effect_order(hook: str, pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``(card in play, card whose effect it has)`` pairs, sorted into the order they take
    effect at ``hook``.

    Ruled cards come first, then the rest by the id of the effect's card. A card comes before a
    copy of it."""
    ranks = rank(hook)
    last = len(ranks)
    return sorted(pairs, key=lambda ck: (ranks.get(ck[1], last), ck[1], ck[0] != ck[1], ck[0]))


def canonical_pairs(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The pairs in card id order of their effect, a card before a copy of it.

    This order is used wherever no hook point is involved, as in "the first copy of a card"."""
    return sorted(pairs, key=lambda ck: (ck[1], ck[0] != ck[1], ck[0]))
