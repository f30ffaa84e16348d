"""Keep cards about buying, selling, health, energy and the end of the turn; Mimic.

Each test names the cards it covers with ``@pytest.mark.card(id, ..., edge=...)``.
"""

from __future__ import annotations

import pytest

from kotp2p import rules
from tests.rules.keep_kit import finish_turn, use
from tests.rules.kit import act, asked, card, draw, roll

FOUR = "The King {}; Giga Zaur {}; Alienoid {}; Cyber Kitty {}"


def four(a: str = "10/0/0", b: str = "10/0/0 @city", c: str = "10/0/0", d: str = "10/0/0") -> str:
    return FOUR.format(a, b, c, d)


def buy_phase(seats: str, market: str = "heal,tank,skyscraper", extra: str = "") -> rules.State:
    return rules.from_text(f"{seats} | active=0 phase=buy market={market} {extra}")


def end_of_turn(seats: str, extra: str = "") -> rules.State:
    return rules.from_text(f"{seats} | active=0 phase=end {extra}")


# --- buying ------------------------------------------------------------------------------------


@pytest.mark.card(2)
def test_alien_origin_makes_cards_one_energy_cheaper() -> None:
    s = buy_phase(four("10/0/3 +alienorigin"), "tank,heal,skyscraper")
    assert rules.Buy(card("tank")) in rules.legal_actions(s)
    s = draw(rules.apply(s, rules.Buy(card("tank"))), "cornerstore")
    assert s.energy[0] == 0 and s.stars[0] == 4


@pytest.mark.card(2, 32, edge=True)
@pytest.mark.ruling("6.8")
def test_alien_origin_discounts_a_tentacles_purchase_and_the_owner_gets_what_was_paid() -> None:
    s = buy_phase(four("10/0/3 +alienorigin +parasitictentacles", "10/0/0 @city +camouflage"))
    s = rules.apply(s, use("parasitictentacles", card("camouflage")))
    assert card("camouflage") in s.cards[0] and s.energy == [1, 2, 0, 0]


@pytest.mark.card(9)
def test_media_friendly_gains_a_star_per_purchase() -> None:
    s = buy_phase(four("10/0/6 +mediafriendly"), "heal,tank,skyscraper")
    s = draw(rules.apply(s, rules.Buy(card("heal"))), "cornerstore")
    s = draw(rules.apply(s, rules.Buy(card("cornerstore"))), "apartmentbuilding")
    assert s.stars[0] == 1 + 1 + 1


@pytest.mark.card(9, 31, edge=True)
def test_media_friendly_counts_a_purchase_on_someone_elses_turn() -> None:
    s = buy_phase(four("10/0/3", "10/0/0 @city", "10/0/3 +opportunist +mediafriendly"))
    s = draw(rules.apply(s, rules.Buy(card("heal"))), "cornerstore")
    assert asked(s) == (2, "opportunist")
    s = draw(rules.apply(s, rules.Buy(card("cornerstore"))), "energize")
    assert s.stars[2] == 1 + 1


@pytest.mark.card(31)
def test_opportunist_may_buy_a_card_as_soon_as_it_is_revealed() -> None:
    s = buy_phase(four("10/0/3", "10/0/4 @city +opportunist"))
    s = draw(rules.apply(s, rules.Buy(card("heal"))), "energydrink")
    assert asked(s) == (1, "opportunist")
    s = draw(rules.apply(s, rules.Buy(card("energydrink"))), "cornerstore")
    assert card("energydrink") in s.cards[1] and s.energy[1] == 0


@pytest.mark.card(31, 27, edge=True)
@pytest.mark.ruling("6.3")
def test_two_opportunists_via_mimic_are_asked_clockwise_from_the_active_monster() -> None:
    seats = FOUR.format("10/0/4 +opportunist", "10/0/0 @city", "10/0/3", "10/0/4 +mimic")
    s = rules.from_text(f"{seats} | active=2 phase=buy market=heal,tank,skyscraper flags=copy.27:31")
    s = draw(rules.apply(s, rules.Buy(card("heal"))), "energydrink")
    assert asked(s) == (3, "opportunist")  # after the active seat 2: seat 3 (by Mimic) first
    s = rules.apply(s, rules.PASS)
    assert asked(s) == (0, "opportunist")
    s = draw(rules.apply(s, rules.Buy(card("energydrink"))), "cornerstore")
    assert card("energydrink") in s.cards[0]


@pytest.mark.card(31, 109, edge=True)
@pytest.mark.ruling("6.3")
def test_frenzy_bought_by_an_opportunist_plays_right_after_this_turn() -> None:
    s = buy_phase(four("10/0/3", "10/0/0 @city", "10/0/7 +opportunist"))
    s = draw(rules.apply(s, rules.Buy(card("heal"))), "frenzy")
    s = draw(rules.apply(s, rules.Buy(card("frenzy"))), "cornerstore")
    assert s.active == 2 and s.turn == 2  # nothing left to buy: the Opportunist's extra turn
    s = finish_turn(rules.apply(roll(s, "1122ee"), rules.STOP))
    assert s.active == 1  # then play resumes after the original player


@pytest.mark.card(32)
def test_parasitic_tentacles_buys_another_monsters_card_paying_the_owner() -> None:
    s = buy_phase(four("10/0/5 +parasitictentacles", "10/0/0 @city +giantbrain"))
    s = rules.apply(s, use("parasitictentacles", card("giantbrain")))
    assert card("giantbrain") in s.cards[0] and s.cards[1] == ()
    assert s.energy[:2] == [0, 5]


@pytest.mark.card(32, 27, edge=True)
def test_mimic_token_follows_its_card_bought_with_tentacles() -> None:
    seats = four("10/0/7 +parasitictentacles", "10/0/0 @city +extrahead", "10/0/0 +mimic")
    s = buy_phase(seats, extra="flags=copy.27:13")
    s = rules.apply(s, use("parasitictentacles", card("extrahead")))
    assert card("extrahead") in s.cards[0] and s.flags["copy.27"] == card("extrahead")
    s = finish_turn(rules.apply(roll(s, "1122ee"), rules.STOP))  # Giga Zaur's turn
    assert s.active == 2 and s.pending.bounds == (6,) * 7  # type: ignore[union-attr]


@pytest.mark.card(25)
def test_made_in_a_lab_peeks_privately_and_may_buy_the_card() -> None:
    s = buy_phase(four("10/0/5 +madeinalab"))
    s = rules.apply(s, use("madeinalab"))
    # Only the peeker's replica learns the card: the peek is private to seat 0.
    assert isinstance(s.pending, rules.RandomRequest) and s.pending.private_to == 0
    s = rules.apply(s, rules.RandomResult((s.deck.index(card("giantbrain")),)))
    slot = s.k
    assert s.slots == {slot: card("giantbrain")} and asked(s) == (0, "lab")
    s = rules.apply(s, use("madeinalab", slot))
    assert card("giantbrain") in s.cards[0] and card("giantbrain") not in s.deck
    assert s.energy[0] == 0 and s.slots == {}


@pytest.mark.card(25, edge=True)
def test_made_in_a_lab_peek_is_hidden_from_other_replicas_until_opened() -> None:
    s = buy_phase(four("10/2/5", "10/0/5 @city +madeinalab"), extra="active=1")
    s = rules.apply(s, use("madeinalab"))
    assert isinstance(s.pending, rules.RandomRequest) and s.pending.private_to == 1
    mine = rules.apply(s, rules.RandomResult((s.deck.index(card("giantbrain")),)))
    theirs = rules.apply(s, rules.RandomResult((rules.HIDDEN,)))
    slot = mine.k
    assert theirs.slots == {slot: rules.HIDDEN} and mine.digest() == theirs.digest()
    assert asked(theirs) == (1, "lab")  # every replica agrees the peeker decides next
    with pytest.raises(rules.IllegalAction):
        rules.apply(theirs, use("madeinalab", slot))  # cannot buy a card it has not seen
    opened = rules.apply(rules.open_slot(theirs, slot, card("giantbrain")), use("madeinalab", slot))
    assert opened.digest() == rules.apply(mine, use("madeinalab", slot)).digest()
    assert card("giantbrain") in opened.cards[1] and opened.energy[1] == 0
    passed = rules.apply(theirs, rules.PASS)  # passing needs no opening
    assert passed.digest() == rules.apply(mine, rules.PASS).digest() and passed.slots == {}


@pytest.mark.card(25, edge=True)
def test_made_in_a_lab_peek_passed_leaves_the_card_in_the_deck_once_per_turn() -> None:
    s = rules.apply(buy_phase(four("10/0/5 +madeinalab")), use("madeinalab"))
    s = rules.apply(s, rules.RandomResult((s.deck.index(card("giantbrain")),)))
    with pytest.raises(rules.IllegalAction):
        rules.apply(s, use("madeinalab", s.k + 7))  # only the slot that was peeked
    passed = rules.apply(s, rules.PASS)
    assert card("giantbrain") in passed.deck and passed.slots == {}
    assert use("madeinalab") not in rules.legal_actions(passed)  # one peek per copy per turn


@pytest.mark.card(26)
@pytest.mark.ruling("6.5", "1.11")
def test_metamorph_sells_keep_cards_for_their_printed_cost_after_buying() -> None:
    s = buy_phase(four("10/0/2 +metamorph +extrahead"))
    s = rules.apply(s, rules.DONE)
    assert asked(s) == (0, "sell")
    s = rules.apply(s, use("metamorph", card("extrahead")))
    assert s.energy[0] == 9 and card("extrahead") in s.discard


@pytest.mark.card(26, 17, 11, edge=True)
@pytest.mark.ruling("1.13", "D.friend-of-children")
def test_metamorph_sale_gets_friend_of_children_and_counts_for_energy_hoarder() -> None:
    s = buy_phase(four("10/0/2 +metamorph +friendofchildren +energyhoarder +solarpowered"))
    s = act(s, rules.DONE, use("metamorph", card("solarpowered")))
    assert s.energy[0] == 2 + 2 + 1
    s = rules.apply(s, rules.DONE)
    assert s.stars[0] == 0 + 0  # 5 energy: no full 6
    s = buy_phase(four("10/0/3 +metamorph +friendofchildren +energyhoarder +solarpowered"))
    s = act(s, rules.DONE, use("metamorph", card("solarpowered")), rules.DONE)
    assert s.energy[0] == 6 and s.stars[0] == 1


# --- health and energy ----------------------------------------------------------------------------


@pytest.mark.card(12)
def test_even_bigger_heals_two_and_raises_the_maximum_to_twelve() -> None:
    s = buy_phase(four("10/0/4"), "evenbigger,heal,tank")
    s = draw(rules.apply(s, rules.Buy(card("evenbigger"))), "cornerstore")
    assert s.hp[0] == 12 and rules.max_hp(s, 0) == 12


@pytest.mark.card(12, 26, edge=True)
def test_losing_even_bigger_lowers_health_to_ten() -> None:
    s = buy_phase(four("12/0/0 +evenbigger +metamorph"))
    s = rules.apply(s, use("metamorph", card("evenbigger")))
    assert s.hp[0] == 10 and s.energy[0] == 4


@pytest.mark.card(17)
def test_friend_of_children_adds_one_to_each_energy_gain() -> None:
    s = rules.from_text(four("10/0/0 +friendofchildren") + " | active=0 phase=resolve dice=eee112")
    assert s.energy[0] == 4


@pytest.mark.card(28)
def test_battery_monster_stores_six_and_pays_two_per_turn() -> None:
    s = buy_phase(four("10/0/3"), "batterymonster,heal,tank")
    s = draw(rules.apply(s, rules.Buy(card("batterymonster"))), "cornerstore")
    assert s.tokens[card("batterymonster")] == 6
    s = rules.from_text(four("10/0/0 +batterymonster") + " | active=0 phase=start tokens=batterymonster:6")
    assert s.energy[0] == 2 and s.tokens[card("batterymonster")] == 4


@pytest.mark.card(28, 17, edge=True)
@pytest.mark.ruling("D.friend-of-children")
def test_battery_monster_is_discarded_when_empty_and_friend_of_children_does_not_apply() -> None:
    seats = four("10/0/0 +batterymonster +friendofchildren")
    s = rules.from_text(seats + " | active=0 phase=start tokens=batterymonster:2")
    assert s.energy[0] == 2
    assert card("batterymonster") in s.discard and card("batterymonster") not in s.tokens


# --- the end of the turn ---------------------------------------------------------------------------


@pytest.mark.card(11)
def test_energy_hoarder_gives_a_star_per_six_energy() -> None:
    s = end_of_turn(four("10/0/13 +energyhoarder"))
    assert s.stars[0] == 2


@pytest.mark.card(21)
def test_herbivore_gains_a_star_when_nobody_was_wounded() -> None:
    s = rules.from_text(four("10/0/0 +herbivore") + " | active=0 phase=resolve dice=1122hh")
    assert s.stars[0] == 1


@pytest.mark.card(21, edge=True)
def test_herbivore_gives_nothing_after_a_wounding_smash() -> None:
    s = rules.from_text(four("10/0/0 +herbivore") + " | active=0 phase=resolve dice=1122es")
    assert s.stars[0] == 0 and s.hp[1] == 9


@pytest.mark.card(39)
def test_rooting_for_the_underdog_alone_with_fewest_stars_gains_one() -> None:
    s = end_of_turn(four("10/2/0 +rootingfortheunderdog", "10/3/0 @city", "10/5/0", "10/4/0"))
    assert s.stars[0] == 3


@pytest.mark.card(39, edge=True)
@pytest.mark.ruling("D.underdog")
def test_rooting_for_the_underdog_gives_nothing_on_a_tie_or_on_others_turns() -> None:
    s = end_of_turn(four("10/2/0 +rootingfortheunderdog", "10/2/0 @city", "10/5/0", "10/4/0"))
    assert s.stars[0] == 2
    s = rules.from_text(four("10/2/0 +rootingfortheunderdog", "10/3/0 @city", "10/5/0", "10/4/0") + " | active=1 phase=end")
    assert s.stars[0] == 2


@pytest.mark.card(42)
def test_solar_powered_gives_one_energy_to_an_empty_pool() -> None:
    s = end_of_turn(four("10/0/0 +solarpowered"))
    assert s.energy[0] == 1


@pytest.mark.card(42, 17, edge=True)
def test_solar_powered_needs_zero_energy_and_friend_of_children_adds_one() -> None:
    s = end_of_turn(four("10/0/1 +solarpowered"))
    assert s.energy[0] == 1
    s = end_of_turn(four("10/0/0 +solarpowered +friendofchildren"))
    assert s.energy[0] == 2


@pytest.mark.card(11, edge=True)
def test_energy_hoarder_below_six_gives_nothing_and_stars_stop_at_twenty() -> None:
    s = end_of_turn(four("10/0/5 +energyhoarder"))
    assert s.stars[0] == 0
    s = end_of_turn(four("10/19/30 +energyhoarder"))
    assert s.stars[0] == 20 and s.is_over


@pytest.mark.card(118, edge=True)
def test_vast_storm_takes_half_the_energy_rounded_down() -> None:
    s = buy_phase(four("10/0/6", "10/0/7 @city", "10/0/1", "10/0/4"), "vaststorm,heal,tank")
    s = draw(rules.apply(s, rules.Buy(card("vaststorm"))), "cornerstore")
    assert s.energy == [0, 4, 1, 2] and s.stars[0] == 2


# --- Mimic -------------------------------------------------------------------------------------------


@pytest.mark.card(27)
def test_mimic_copies_a_card_chosen_when_bought() -> None:
    s = buy_phase(four("10/0/8", "10/0/0 @city +extrahead", "10/0/0 +giantbrain"), "mimic,heal,tank")
    s = draw(rules.apply(s, rules.Buy(card("mimic"))), "cornerstore")
    assert asked(s) == (0, "mimic")
    assert set(rules.legal_actions(s)) == {use("mimic", card("extrahead")), use("mimic", card("giantbrain"))}
    s = finish_turn(rules.apply(s, use("mimic", card("extrahead"))))
    s = finish_turn(rules.apply(roll(s, "1122ee1"), rules.STOP))  # Giga Zaur: its Extra Head
    s = finish_turn(rules.apply(roll(s, "1122ee"), rules.STOP))
    s = finish_turn(rules.apply(roll(s, "1122ee"), rules.STOP))
    assert s.active == 0 and s.pending.bounds == (6,) * 7  # type: ignore[union-attr]


@pytest.mark.card(27, 13, edge=True)
@pytest.mark.ruling("6.6")
def test_mimic_counts_as_one_more_copy_and_moves_for_one_energy_at_the_start() -> None:
    seats = four("10/0/1 +extrahead +mimic", "10/0/0 @city +giantbrain")
    s = rules.from_text(seats + " | active=0 phase=start flags=copy.27:13")
    assert asked(s) == (0, "mimic")
    assert rules.PASS in rules.legal_actions(s) and use("mimic", 13) not in rules.legal_actions(s)
    kept = rules.apply(s, rules.PASS)
    assert kept.pending.bounds == (6,) * 8  # type: ignore[union-attr]
    moved = rules.apply(s, use("mimic", card("giantbrain")))
    assert moved.energy[0] == 0 and moved.pending.bounds == (6,) * 7  # type: ignore[union-attr]
    moved = roll(moved, "1122ee1")
    assert moved.rolls_left == 3


@pytest.mark.card(27, 28, edge=True)
@pytest.mark.ruling("6.6")
def test_mimic_on_battery_monster_gets_its_own_energy_and_is_discarded_when_empty() -> None:
    s = buy_phase(four("10/0/10", "10/0/0 @city +batterymonster"), "mimic,heal,tank", "tokens=batterymonster:2")
    s = draw(rules.apply(s, rules.Buy(card("mimic"))), "cornerstore")
    assert s.tokens[card("mimic")] == 6 and s.tokens[card("batterymonster")] == 2
    s = rules.from_text(four("10/0/0 +mimic", "10/0/0 @city +batterymonster") + " | active=0 phase=start flags=copy.27:28 tokens=mimic:2,batterymonster:6")
    assert s.energy[0] == 2 and card("mimic") in s.discard and "copy.27" not in s.flags


@pytest.mark.card(27, 41, edge=True)
@pytest.mark.ruling("6.6")
def test_mimic_on_smoke_cloud_gets_three_smoke_and_stays_when_they_are_spent() -> None:
    s = buy_phase(four("10/0/10", "10/0/0 @city +smokecloud"), "mimic,heal,tank", "tokens=smokecloud:1")
    s = draw(rules.apply(s, rules.Buy(card("mimic"))), "cornerstore")
    assert s.tokens[card("mimic")] == 3
    seats = four("10/0/0 +mimic", "10/0/0 @city +smokecloud")
    s = rules.from_text(f"{seats} | active=0 phase=roll dice=11122s flags=copy.27:41 tokens=mimic:1,smokecloud:3")
    s = rules.apply(s, use("mimic"))
    assert s.rolls_left == 1 and card("mimic") in s.cards[0] and s.tokens[card("mimic")] == 0


@pytest.mark.card(27, 35, 40, edge=True)
def test_mimic_on_poison_spit_and_shrink_ray_gives_a_token_per_copy() -> None:
    seats = four("10/0/0 +poisonspit +shrinkray +mimic", "10/0/0 @city")
    s = rules.from_text(f"{seats} | active=0 phase=resolve dice=1122es flags=copy.27:35")
    assert s.poison[1] == 2 and s.shrink[1] == 1
    s = rules.from_text(f"{seats} | active=0 phase=resolve dice=1122es flags=copy.27:40")
    assert s.poison[1] == 1 and s.shrink[1] == 2


@pytest.mark.card(27, 12, edge=True)
def test_mimic_losing_its_target_copies_nothing_until_moved() -> None:
    seats = four("12/0/0 +mimic", "10/0/0 @city +evenbigger +metamorph")
    s = rules.from_text(f"{seats} | active=1 phase=buy flags=copy.27:12")
    assert rules.max_hp(s, 0) == 12
    s = rules.apply(s, use("metamorph", card("evenbigger")))
    assert "copy.27" not in s.flags and s.hp[0] == 10 and rules.max_hp(s, 0) == 10
    assert card("mimic") in s.cards[0]


@pytest.mark.card(27, edge=True)
@pytest.mark.ruling("3.6")
def test_mimic_loses_its_token_when_the_copied_cards_owner_is_eliminated() -> None:
    seats = four("10/0/0 +mimic", "1/0/0 @city +giantbrain")
    s = rules.from_text(f"{seats} | active=0 phase=resolve dice=1122es flags=copy.27:18")
    assert not s.alive[1] and "copy.27" not in s.flags


@pytest.mark.card(39, 11, edge=True)
@pytest.mark.ruling("1.13.2", "1.13.3", "1.13.7")
def test_end_of_turn_cards_fire_in_the_listed_order_with_poison_last() -> None:
    # Rooting for the Underdog comes before Energy Hoarder: alone with the fewest stars first.
    seats = four("2/2/6 +energyhoarder +rootingfortheunderdog poison=2", "10/3/0 @city", "10/3/0", "10/3/0")
    s = end_of_turn(seats)
    assert s.stars[0] == 0 and not s.alive[0]  # 2 + 1 + 1 stars, then poison kills it
    s = end_of_turn(seats.replace("poison=2", "poison=1"))
    assert s.stars[0] == 4 and s.hp[0] == 1


@pytest.mark.card(27, 36, edge=True)
@pytest.mark.ruling("6.7")
def test_psychic_probe_and_its_mimic_copy_probe_once_and_a_heart_discards_both() -> None:
    seats = four("10/0/0", "10/0/0 @city +psychicprobe +mimic")
    s = rules.from_text(f"{seats} | active=0 phase=roll dice=sssss1 rolls=1 flags=copy.27:36")
    s = rules.apply(s, rules.STOP)
    assert asked(s) == (1, "probe")
    s = roll(rules.apply(s, use("psychicprobe", 0)), "h")
    assert s.cards[1] == () and {card("psychicprobe"), card("mimic")} <= set(s.discard)
    assert s.hp[1] == 6 and asked(s) == (1, "yield")  # asked once: no second probe


@pytest.mark.card(32, 28, edge=True)
def test_a_tentacles_purchase_is_a_purchase_battery_monster_is_charged_again() -> None:
    seats = four("10/0/3 +parasitictentacles", "10/0/0 @city +batterymonster")
    s = buy_phase(seats, extra="tokens=batterymonster:2")
    s = rules.apply(s, use("parasitictentacles", card("batterymonster")))
    assert card("batterymonster") in s.cards[0] and s.tokens[card("batterymonster")] == 6
    assert s.energy[:2] == [0, 3]
