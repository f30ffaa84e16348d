"""Power Up!: Evolutions that buy, reveal or take Power cards, and one that softens a smash.

Each test names the cards it covers with ``@pytest.mark.card(id, ..., edge=...)``."""

from __future__ import annotations

import pytest

from kotp2p import rules
from tests.rules.kit import asked, card
from tests.rules.test_powerup_cards import holding, play, table, use

ONE, TWO, THREE, ENERGY, HEART, SMASH = range(6)


def buying(seat: str, *, market: str = "heal,energize,jetfighters", extra: str = "") -> rules.State:
    """Seat 0, ``seat``, at its buy step against Kraken, with ``market``."""
    return table(seat, "Kraken 10/0/0 @city", phase="buy",
                 extra=f"market={market} {extra}".replace("market=heal,energize,jetfighters ", ""))


@pytest.mark.card(1012)
def test_miraculous_catch_reveals_a_discarded_card_to_buy_for_one_energy_less() -> None:
    s = buying("Space Penguin 10/0/4 +miraculouscatch", extra="discard=friendofchildren,gourmet")
    assert use("miraculouscatch") in rules.legal_actions(s)
    s = rules.apply(s, use("miraculouscatch"))
    assert isinstance(s.pending, rules.RandomRequest) and s.pending.bounds == (2,)
    s = rules.apply(s, rules.RandomResult((1,)))  # Gourmet, cost 4
    assert asked(s) == (0, "catch")
    s = rules.apply(s, use("miraculouscatch", card("gourmet")))
    assert card("gourmet") in s.cards[0] and s.energy[0] == 4 - 3
    assert s.discard == (card("friendofchildren"),)


@pytest.mark.card(1012, edge=True)
def test_miraculous_catch_once_a_turn_and_a_card_left_in_the_discard_pile() -> None:
    s = buying("Space Penguin 10/0/9 +miraculouscatch", extra="discard=gourmet")
    s = rules.apply(s, use("miraculouscatch"))
    s = rules.apply(s, rules.RandomResult((0,)))
    s = rules.apply(s, rules.PASS)
    assert asked(s) == (0, "buy") and s.discard == (card("gourmet"),)
    assert use("miraculouscatch") not in rules.legal_actions(s)


@pytest.mark.card(1028)
def test_superior_alien_technology_buys_keep_cards_at_half_cost_with_a_ufo() -> None:
    s = buying("Alienoid 10/0/3 +superioralientechnology", market="gourmet,heal,energize")
    assert use("superioralientechnology", card("gourmet")) in rules.legal_actions(s)
    assert use("superioralientechnology", card("heal")) not in rules.legal_actions(s)  # Discard
    s = rules.apply(s, use("superioralientechnology", card("gourmet")))
    assert card("gourmet") in s.cards[0] and s.energy[0] == 3 - 2


@pytest.mark.card(1028, edge=True)
def test_superior_alien_technology_loses_a_card_to_a_smash_at_its_owners_turn_start() -> None:
    seats = ("Alienoid 10/0/0 +superioralientechnology +gourmet +friendofchildren",
             "Kraken 10/0/0")
    s = table(*seats, phase="start", flags=f"ufo.0.{card('gourmet')}:1,"
                                           f"ufo.0.{card('friendofchildren')}:1")
    while asked(s) is not None:
        s = rules.apply(s, rules.PASS)
    assert isinstance(s.pending, rules.RandomRequest) and s.pending.bounds == (6, 6)
    s = rules.apply(s, rules.RandomResult((SMASH, HEART)))  # friendofchildren first, by id
    assert card("friendofchildren") not in s.cards[0] and card("gourmet") in s.cards[0]
    assert card("friendofchildren") in s.discard


@pytest.mark.card(1085)
def test_bobbing_for_apples_buys_for_two_less_and_keeps_it_on_an_even_refill() -> None:
    s = buying("Pumpkin Jack 10/0/2 +bobbingforapples", market="gourmet,heal,energize",
               extra="deck=acidattack")  # cost 6
    s = rules.apply(s, use("bobbingforapples", card("gourmet")))
    s = rules.apply(s, rules.RandomResult((0,)))
    assert card("gourmet") in s.cards[0] and s.energy[0] == 0


@pytest.mark.card(1085, edge=True)
def test_bobbing_for_apples_gives_back_the_card_and_the_energy_on_an_odd_refill() -> None:
    s = buying("Pumpkin Jack 10/0/2 +bobbingforapples", market="gourmet,heal,energize",
               extra="deck=energyhoarder")  # cost 3
    s = rules.apply(s, use("bobbingforapples", card("gourmet")))
    s = rules.apply(s, rules.RandomResult((0,)))
    assert card("gourmet") not in s.cards[0] and s.energy[0] == 2
    assert card("gourmet") in s.discard


@pytest.mark.card(1035)
def test_play_with_your_food_takes_a_star_and_an_energy_for_two_hearts_less() -> None:
    s = table("Cyber Kitty 10/0/0 +playwithyourfood", "Kraken 10/3/2 @city", phase="roll",
              extra="dice=sss12e rolls=0")
    assert asked(s) == (0, "food")
    s = rules.apply(s, use("playwithyourfood", 1))
    assert (s.hp[1], s.stars, s.energy) == (9, [1, 2], [2, 1])


@pytest.mark.card(1035, edge=True)
def test_play_with_your_food_is_not_offered_for_a_smash_of_one() -> None:
    s = table("Cyber Kitty 10/0/0 +playwithyourfood", "Kraken 10/3/2 @city", phase="roll",
              extra="dice=s112ee rolls=0")
    assert asked(s) != (0, "food") and s.hp[1] == 9


def test_the_buys_of_these_evolutions_are_worded_with_the_card_and_the_price() -> None:
    s = buying("Alienoid 10/0/3 +superioralientechnology", market="gourmet,heal,energize")
    assert (rules.describe_action(s, use("superioralientechnology", card("gourmet")))
            == "Alienoid buys Gourmet for 2⚡ (Superior Alien Technology)")
    s = table("Cyber Kitty 10/0/0 +playwithyourfood", "Kraken 10/3/2 @city", phase="roll",
              extra="dice=sss12e rolls=0")
    assert (rules.describe_action(s, use("playwithyourfood", 1))
            == "Cyber Kitty makes Kraken lose 2♥ fewer and takes 1★ and 1⚡ from it "
               "(Play with Your Food)")


def _diving(deck: str = "gourmet,friendofchildren") -> tuple[rules.State, int]:
    """Space Penguin has played Deep Dive on ``deck``: the state and the number of the first
    look, a private random event."""
    s = table("Space Penguin 10/0/0", "Kraken 10/0/0", phase="end", flags="evo.0.0:2",
              extra=f"deck={deck} slots={rules.slot_key(0, 0)}:{card('deepdive')}")
    s = rules.apply(s, rules.PlayEvolution(0, card("deepdive")))
    while asked(s) == (1, "evolution"):
        s = rules.apply(s, rules.PASS)
    assert isinstance(s.pending, rules.RandomRequest)
    return s, s.pending.index


@pytest.mark.card(1013)
def test_deep_dive_looks_at_three_cards_and_puts_one_in_play_for_free() -> None:
    s, _ = _diving("gourmet,friendofchildren,energyhoarder,giantbrain")
    looks = []
    for bound in (4, 3, 2):
        assert isinstance(s.pending, rules.RandomRequest)
        assert s.pending.bounds == (bound,) and s.pending.private_to == 0
        looks.append(s.pending.index)
        s = rules.apply(s, rules.RandomResult((0,)))
    deck = s.deck
    seen = [s.slots[k] for k in looks]
    assert len(set(seen)) == 3 and set(seen) <= set(deck)  # three different cards
    assert asked(s) == (0, "dive") and len(rules.legal_actions(s)) == 3
    s = rules.apply(s, use("deepdive", looks[1]))
    assert s.cards[0] == (seen[1],) and s.energy[0] == 0
    assert sorted(s.deck) == sorted(c for c in deck if c != seen[1])


@pytest.mark.card(1013, edge=True)
def test_deep_dive_is_refused_by_a_replica_that_did_not_see_the_card() -> None:
    s, first = _diving()
    s = rules.apply(s, rules.RandomResult((rules.HIDDEN,)))
    s = rules.apply(s, rules.RandomResult((rules.HIDDEN,)))
    assert asked(s) == (0, "dive")  # two cards only: the deck holds no more
    with pytest.raises(rules.IllegalAction):
        rules.apply(s, use("deepdive", first))


def _buying_with(slug: str, energy: int, market: str) -> rules.State:
    """The King, at its buy step with ``energy``⚡, while Pandakaï holds ``slug``."""
    return holding(f"The King 10/0/{energy}; Pandakaï 10/0/0", slug, seat=1, phase="buy",
                   extra=f"market={market}")


@pytest.mark.card(1133)
def test_bam_boozle_makes_a_buyer_take_another_card_it_can_afford() -> None:
    s = _buying_with("bamboozle", 9, "gourmet,friendofchildren,energize")
    s = rules.apply(s, rules.Buy(card("gourmet")))
    assert rules.window_of(s) == "buying" and asked(s) == (1, "evolution")
    s, _ = play(s, "bamboozle", seat=1)
    assert asked(s) == (1, "boozle")
    assert rules.legal_actions(s) == (use("bamboozle", card("friendofchildren")),
                                      use("bamboozle", card("energize")))
    words = rules.describe_action(s, rules.legal_actions(s)[0])
    assert words == "Pandakaï makes The King buy Friend of Children instead (Bam-Boozle)"
    s = rules.apply(s, use("bamboozle", card("friendofchildren")))
    assert s.cards[0] == (card("friendofchildren"),) and s.energy[0] == 9 - 3
    while asked(s) != (0, "buy"):
        s = rules.apply(s, rules.RandomResult((0,)) if asked(s) is None else rules.PASS)
    assert rules.Buy(card("gourmet")) not in rules.legal_actions(s)  # not this turn


@pytest.mark.card(1133, edge=True)
def test_bam_boozle_with_nothing_else_affordable_leaves_the_buyer_with_nothing() -> None:
    s = _buying_with("bamboozle", 4, "gourmet,energize,jetfighters")
    s = rules.apply(s, rules.Buy(card("gourmet")))
    s, _ = play(s, "bamboozle", seat=1)
    assert s.cards[0] == () and s.energy[0] == 4 and card("gourmet") in s.market


def test_deep_dive_says_which_card_only_to_the_replica_that_saw_it() -> None:
    s, first = _diving()
    seen = rules.apply(rules.apply(s, rules.RandomResult((0,))), rules.RandomResult((0,)))
    blind = rules.apply(rules.apply(s, rules.RandomResult((rules.HIDDEN,))),
                        rules.RandomResult((rules.HIDDEN,)))
    name = rules.CARDS[seen.slots[first]].name
    assert (rules.describe_action(seen, use("deepdive", first))
            == f"Space Penguin puts {name} in play for free (Deep Dive)")
    assert (rules.describe_action(blind, use("deepdive", first))
            == "Space Penguin puts a card it looked at in play for free (Deep Dive)")
