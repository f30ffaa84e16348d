"""Every Power card's declaration is complete and agrees with itself and with its effects.

A card is one :class:`rules.Card` value. These tests read the declarations only: the screen
text, the bot's worth, the hooks. The amounts a text promises are checked against the numbers
the effects use.
"""

from __future__ import annotations

import re

import pytest

from kotp2p import rules
from kotp2p.rules import cards_keep_body, cards_keep_damage, cards_keep_dice, cards_keep_mimic
from kotp2p.rules.registry import HOOK_POINTS, SLUGS, TOKEN_CARDS

CARDS = sorted(rules.ALL_CARDS, key=lambda c: c.id)
POWER_CARDS = [c for c in CARDS if c.kind in (rules.KEEP, rules.DISCARD, rules.COSTUME)]
"""The cards a monster buys or takes: every card but Power Up!'s Evolutions."""
EVOLUTIONS = [c for c in CARDS if c not in POWER_CARDS]
NAMES = sorted({c.name for c in CARDS}, key=len, reverse=True)


def _ids(card: rules.Card) -> str:
    return SLUGS[card.id]


def test_the_list_holds_each_card_once_and_the_index_is_made_from_it() -> None:
    assert len({c.id for c in CARDS}) == len(CARDS)
    assert {c.id: c for c in CARDS} == rules.CARDS
    assert list(rules.CARDS) == sorted(rules.CARDS)


@pytest.mark.parametrize("card", POWER_CARDS, ids=_ids)
def test_a_card_has_a_name_a_cost_a_kind_a_timing_and_hooks(card: rules.Card) -> None:
    assert card.name and card.name == card.name.strip() and "  " not in card.name
    assert card.cost > 0
    assert card.kind in (rules.KEEP, rules.DISCARD, rules.COSTUME)
    assert card.timing and card.timing == card.timing.strip() and card.timing[0].islower()
    assert card.hooks and set(card.hooks) <= set(HOOK_POINTS)
    assert card.monster == ""
    # Costumes are Halloween's, and only they: the base deck holds the 66 others.
    assert card.box == ("halloween" if card.kind == rules.COSTUME else "base")


@pytest.mark.parametrize("card", EVOLUTIONS, ids=_ids)
def test_an_evolution_belongs_to_one_monster_and_costs_nothing(card: rules.Card) -> None:
    assert card.name and card.name == card.name.strip() and "  " not in card.name
    assert card.cost == 0 and card.kind in ("temporary", "permanent", "gift")
    assert card.timing and card.timing == card.timing.strip() and card.timing[0].islower()
    assert set(card.hooks) <= set(HOOK_POINTS)
    assert card.monster in rules.MONSTERS and card.box == "power up"
    assert card.id // 10 % 100 in (1, 2, 3, 4, 5, 6, 7, 8, 11, 13, 14, 15)


@pytest.mark.parametrize("card", CARDS, ids=_ids)
def test_a_card_has_screen_text_in_plain_sentences(card: rules.Card) -> None:
    text = card.text
    assert text and text == text.strip(), "no text, or text with stray whitespace at an end"
    assert "  " not in text and "\n" not in text and " ." not in text and " ," not in text
    assert text[0].isupper() or text[0] == "+", "a sentence starts with a capital or a gain"
    assert text.endswith("."), "a sentence ends with a full stop"
    assert rules.card_text(card.id) == text


@pytest.mark.parametrize("card", CARDS, ids=_ids)
def test_amounts_in_the_text_are_written_with_symbols(card: rules.Card) -> None:
    assert not re.search(r"\d\s+[⚡♥★]", card.text), "no space between an amount and its symbol"
    assert not re.search(r"\d\s*(energy|stars?|hearts?|health|life)\b", card.text), (
        "an amount of energy, stars or health is written 2⚡, 2★, 2♥"
    )


@pytest.mark.parametrize("card", CARDS, ids=_ids)
def test_the_text_names_no_card_but_its_own(card: rules.Card) -> None:
    named = [n for n in NAMES if re.search(rf"\b{re.escape(n)}\b", card.text)]
    assert named in ([], [card.name])


@pytest.mark.parametrize("card", POWER_CARDS, ids=_ids)
def test_a_card_has_a_worth_for_the_bots(card: rules.Card) -> None:
    if card.kind == rules.KEEP:
        assert card.worth is not None, "a Keep card says what it is worth"
    assert card.rough_worth > 0
    assert card.rough_worth == (card.cost if card.worth is None else card.worth)


@pytest.mark.parametrize("card", POWER_CARDS, ids=_ids)
def test_self_damage_is_what_the_text_says_the_buyer_loses(card: rules.Card) -> None:
    said = re.search(r"you lose (\d+)♥|you included, loses? (\d+)♥", card.text)
    loss = int(next(g for g in said.groups() if g)) if said else 0
    assert card.self_damage == loss


def test_two_copies_of_a_printed_card_are_declared_alike() -> None:
    by_name: dict[str, list[rules.Card]] = {}
    for card in CARDS:
        by_name.setdefault(card.name, []).append(card)
    twins = [cs for cs in by_name.values() if len(cs) > 1]
    assert sorted(cs[0].name for cs in twins) == ["Evacuation Orders", "Extra Head"]
    for first, second in twins:
        assert (first.cost, first.kind, first.timing, first.text, first.worth, first.self_damage) == (
            second.cost, second.kind, second.timing, second.text, second.worth, second.self_damage
        )
        assert dict(first.hooks) == dict(second.hooks)
        assert SLUGS[second.id] == SLUGS[first.id] + "2"


def test_tokens_and_copiers_come_from_the_declarations() -> None:
    assert {c.token: c.id for c in CARDS if c.token} == TOKEN_CARDS
    assert {"poison": rules.card_by_name("Poison Spit"), "shrink": rules.card_by_name("Shrink Ray")} == TOKEN_CARDS
    assert [c.name for c in CARDS if c.copier] == ["Mimic", "Icy Reflection"]


# card name -> (a phrase of its text with {} for an amount, the amount its effect uses)
PROMISED = {
    "Wings": ("Pay {}⚡", cards_keep_damage.WINGS_COST),
    "Rapid Healing": ("Pay {}⚡", cards_keep_damage.RAPID_HEALING_COST),
    "Healing Ray": ("pays you {}⚡ per ♥", cards_keep_damage.HEALING_RAY_PRICE),
    "Stretchy": ("Pay {}⚡", cards_keep_dice.STRETCHY_COST),
    "Smoke Cloud": ("Comes with {} Smoke tokens", cards_keep_dice.SMOKE_TOKENS),
    "Battery Monster": ("put {}⚡ from the bank", cards_keep_body.BATTERY_CHARGE),
    "Mimic": ("pay {}⚡ to move the token", cards_keep_mimic.MOVE_COST),
}


@pytest.mark.parametrize("name", sorted(PROMISED))
def test_the_text_states_the_amounts_the_effect_uses(name: str) -> None:
    phrase, amount = PROMISED[name]
    assert phrase.format(amount) in rules.card_text(rules.card_by_name(name))


def test_battery_monster_moves_what_its_text_says() -> None:
    text = rules.card_text(rules.card_by_name("Battery Monster"))
    assert f"move {cards_keep_body.BATTERY_PER_TURN} of them" in text
