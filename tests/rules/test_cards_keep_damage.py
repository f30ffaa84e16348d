"""Keep cards of the damage pipeline: reactions, protection, smash extras, tokens, after-hit effects.

Each test names the cards it covers with ``@pytest.mark.card(id, ..., edge=...)``.
"""

from __future__ import annotations

import pytest

from kotp2p import rules
from tests.rules.keep_kit import use
from tests.rules.kit import act, asked, card, draw

FOUR = "The King {}; Giga Zaur {}; Alienoid {}; Cyber Kitty {}"


def four(a: str = "10/0/0", b: str = "10/0/0 @city", c: str = "10/0/0", d: str = "10/0/0") -> str:
    return FOUR.format(a, b, c, d)


def resolve(seats: str, dice: str, extra: str = "") -> rules.State:
    """Seat 0's final dice ``dice`` resolve now."""
    return rules.from_text(f"{seats} | active=0 phase=resolve dice={dice} {extra}")


def end_of_turn(seats: str, extra: str = "") -> rules.State:
    """Seat 0's end-of-turn effects run now."""
    return rules.from_text(f"{seats} | active=0 phase=end {extra}")


# --- protection and reactions ------------------------------------------------------------------


@pytest.mark.card(4)
@pytest.mark.ruling("2.1", "4.2")
def test_armor_plating_ignores_a_loss_of_exactly_one() -> None:
    s = resolve(four("10/0/0", "10/0/0 @city +armorplating"), "1122es")
    assert s.hp[1] == 10
    assert asked(s) != (1, "yield")  # not wounded: no yield choice


@pytest.mark.card(4, 35, edge=True)
def test_armor_plating_blocks_one_poison_token_but_not_two_damage() -> None:
    s = end_of_turn(four("10/0/0 +armorplating poison=1"))
    assert s.hp[0] == 10
    s = resolve(four("10/0/0", "10/0/0 @city +armorplating"), "1122ss")
    assert s.hp[1] == 8


@pytest.mark.card(7)
@pytest.mark.ruling("4.4")
def test_camouflage_rolls_a_die_per_damage_and_each_heart_cancels_one() -> None:
    s = resolve(four("10/0/0", "10/0/0 @city +camouflage"), "11sssh")
    assert asked(s) == (1, "react")
    s = rules.apply(s, use("camouflage"))
    assert s.pending.bounds == (6,) * 3  # type: ignore[union-attr]
    s = rules.apply(s, rules.RandomResult(rules.parse_dice("h1s")))
    assert s.hp[1] == 8 and asked(s) == (1, "yield")


@pytest.mark.card(7, 5, edge=True)
@pytest.mark.ruling("4.4", "2.1")
def test_camouflage_with_background_dweller_rerolls_threes_and_a_full_cancel_gives_no_yield() -> None:
    s = resolve(four("10/0/0", "10/0/0 @city +camouflage +backgrounddweller"), "11sse1")
    s = rules.apply(s, use("camouflage"))
    s = rules.apply(s, rules.RandomResult(rules.parse_dice("h3")))
    assert s.pending.bounds == (6,)  # type: ignore[union-attr]  # the 3 again
    s = rules.apply(s, rules.RandomResult(rules.parse_dice("h")))
    assert s.hp[1] == 10
    assert asked(s) != (1, "yield") and s.city == 1


@pytest.mark.card(48)
def test_wings_prevent_every_loss_for_the_rest_of_the_turn() -> None:
    s = resolve(four("10/0/0", "10/0/3 @city +wings"), "1sssss")
    s = rules.apply(s, use("wings"))
    assert s.hp[1] == 10 and s.energy[1] == 1


@pytest.mark.card(48, edge=True)
@pytest.mark.ruling("2.1", "4.2")
def test_wings_then_no_yield_choice_and_later_card_damage_is_also_prevented() -> None:
    s = resolve(four("10/0/9", "10/0/3 @city +wings"), "1sssss", "market=flamethrower,heal,tank")
    s = rules.apply(s, use("wings"))
    assert asked(s) == (0, "buy")  # the City monster was not asked to yield
    s = draw(rules.apply(s, rules.Buy(card("flamethrower"))), "cornerstore")
    assert s.hp[1] == 10 and s.hp[2] == 8


@pytest.mark.card(37)
def test_rapid_healing_buys_a_heart_for_two_energy() -> None:
    s = rules.from_text(four("6/0/5 +rapidhealing") + " | active=0 phase=buy")
    s = rules.apply(s, use("rapidhealing"))
    assert s.hp[0] == 7 and s.energy[0] == 3


@pytest.mark.card(37, edge=True)
def test_rapid_healing_saves_a_monster_from_a_lethal_hit() -> None:
    s = resolve(four("10/0/0", "2/0/4 @city +rapidhealing"), "11sss1")
    assert asked(s) == (1, "react")
    s = act(s, use("rapidhealing"), use("rapidhealing"))
    assert s.hp[1] == 1 and s.alive[1] and s.energy[1] == 0


@pytest.mark.card(38)
def test_regeneration_adds_a_heart_to_each_heal() -> None:
    s = resolve(four("5/0/0 +regeneration"), "11hhe2")
    assert s.hp[0] == 8


@pytest.mark.card(38, edge=True)
def test_regeneration_never_goes_above_the_maximum_and_does_not_heal_in_tokyo() -> None:
    s = resolve(four("9/0/0 +regeneration"), "11hhe2")
    assert s.hp[0] == 10
    s = resolve(four("5/0/0 @city +regeneration", "10/0/0"), "11hhe2")
    assert s.hp[0] == 5


# --- Jets and Burrowing -----------------------------------------------------------------------


@pytest.mark.card(24)
@pytest.mark.ruling("2.2")
def test_jets_yielding_after_a_smash_costs_no_health() -> None:
    s = resolve(four("10/0/0", "10/0/0 @city +jets"), "1sssss")
    assert asked(s) == (1, "yield") and s.hp[1] == 10
    s = rules.apply(s, rules.YIELD)
    assert s.hp[1] == 10 and s.city == 0


@pytest.mark.card(24, edge=True)
@pytest.mark.ruling("2.2")
def test_jets_staying_takes_the_held_back_damage() -> None:
    s = resolve(four("10/0/0", "10/0/0 @city +jets"), "1sssss")
    s = rules.apply(s, rules.STAY)
    assert s.hp[1] == 5 and s.city == 1


@pytest.mark.card(6, edge=True)
@pytest.mark.ruling("2.6")
def test_burrowing_yield_wounds_the_monster_taking_the_place() -> None:
    s = resolve(four("10/0/0", "10/0/0 @city +burrowing"), "1sssse")
    s = rules.apply(s, rules.YIELD)
    assert s.hp[0] == 9 and s.city == 0 and s.stars[0] == 1


@pytest.mark.card(6, 24, edge=True)
@pytest.mark.ruling("1.8")
def test_burrowing_and_jets_yield_takes_no_damage_and_still_burrows() -> None:
    s = resolve(four("10/0/0", "10/0/0 @city +jets +burrowing"), "1sssse")
    s = rules.apply(s, rules.YIELD)
    assert s.hp == [9, 10, 10, 10] and s.city == 0


# --- smash resolution extras -------------------------------------------------------------------


@pytest.mark.card(3)
def test_alpha_monster_gains_a_star_when_smashing() -> None:
    s = resolve(four("10/0/0 +alphamonster"), "1122es")
    assert s.stars[0] == 1


@pytest.mark.card(3, edge=True)
def test_alpha_monster_gains_even_when_nobody_can_be_hit() -> None:
    s = resolve(four("10/0/0 +alphamonster", "10/0/0"), "1122es")
    assert s.stars[0] == 1 + 1  # and one for entering the empty City
    s = resolve(four("10/0/0 +alphamonster"), "1122ee")
    assert s.stars[0] == 0


@pytest.mark.card(29)
def test_nova_breath_smashes_every_other_monster() -> None:
    s = resolve(four("10/0/0 +novabreath"), "1122ss")
    assert s.hp == [10, 8, 8, 8]


@pytest.mark.card(29, edge=True)
def test_nova_breath_from_tokyo_still_lets_nobody_else_in_and_smashed_tokyo_may_yield() -> None:
    s = resolve(four("10/0/0 +novabreath"), "1122ss")
    assert asked(s) == (1, "yield")
    s = rules.apply(s, rules.YIELD)
    assert s.city == 0


@pytest.mark.card(15)
@pytest.mark.ruling("D.fire-breathing")
def test_fire_breathing_burns_both_neighbours() -> None:
    s = resolve(four("10/0/0 +firebreathing"), "1122es")
    # Giga Zaur (City) is smashed and burnt: one hit of 2; Cyber Kitty, the other neighbour: 1.
    assert s.hp == [10, 8, 10, 9]


@pytest.mark.card(15, edge=True)
@pytest.mark.ruling("4.5", "8.2")
def test_fire_breathing_with_two_monsters_burns_once_merged_into_the_smash() -> None:
    s = resolve("The King 10/0/0 +firebreathing; Giga Zaur 10/0/0 @city", "1122es")
    assert s.hp == [10, 8] and asked(s) == (1, "yield")
    s = resolve(four("10/0/0 +firebreathing"), "1122ee")
    assert s.hp == [10, 10, 10, 10]  # no smash, no fire


# --- tokens -------------------------------------------------------------------------------------


@pytest.mark.card(35)
@pytest.mark.ruling("5.2")
def test_poison_spit_poisons_the_wounded_and_poison_bites_at_their_turns_end() -> None:
    s = resolve(four("10/0/0 +poisonspit"), "1122es")
    assert s.poison == [0, 1, 0, 0]
    s = rules.from_text(four("10/0/0", "10/0/0 @city poison=2") + " | active=1 phase=end")
    assert s.hp[1] == 8


@pytest.mark.card(35, edge=True)
@pytest.mark.ruling("5.2")
def test_poison_heart_removes_a_token_only_outside_tokyo_and_tokens_outlive_the_card() -> None:
    s = resolve(four("8/0/1 poison=2"), "11hhe2")
    assert asked(s) == (0, "hearts")
    s = rules.apply(s, use("poisonspit", 1))
    s = rules.apply(s, rules.DONE)
    assert asked(s) == (0, "buy")
    assert s.poison[0] == 1 and s.hp[0] == 9
    s = resolve(four("8/0/1 @city poison=2", "10/0/0"), "11hhe2")
    assert s.poison[0] == 2 and s.hp[0] == 8


@pytest.mark.card(35, 7, edge=True)
@pytest.mark.ruling("5.2")
def test_a_fully_cancelled_smash_gives_no_poison() -> None:
    s = resolve(four("10/0/0 +poisonspit", "10/0/0 @city +camouflage"), "1122es")
    s = rules.apply(rules.apply(s, use("camouflage")), rules.RandomResult((4,)))
    assert s.poison[1] == 0 and s.hp[1] == 10


@pytest.mark.card(40)
def test_shrink_ray_tokens_take_a_die_each_at_the_start_of_the_turn() -> None:
    s = resolve(four("10/0/0 +shrinkray"), "1122es")
    assert s.shrink == [0, 1, 0, 0]
    s = rules.from_text(four("10/0/0", "10/0/0 @city shrink=2") + " | active=1 phase=start")
    assert s.pending.bounds == (6,) * 4  # type: ignore[union-attr]


@pytest.mark.card(40, edge=True)
def test_shrink_tokens_are_removed_by_hearts_outside_tokyo_and_persist_without_the_card() -> None:
    s = resolve(four("10/0/0 shrink=2"), "11hhe2")
    s = rules.apply(s, use("shrinkray", 2))
    assert s.shrink[0] == 0 and s.hp[0] == 10


# --- after a hit --------------------------------------------------------------------------------


@pytest.mark.card(10)
def test_eater_of_the_dead_gains_three_stars_when_a_monster_drops_to_zero() -> None:
    s = resolve(four("10/0/0", "2/0/0 @city", "10/0/0 +eaterofthedead"), "11sss2")
    assert not s.alive[1] and s.stars[2] == 3


@pytest.mark.card(10, 23, edge=True)
@pytest.mark.ruling("4.6")
def test_eater_of_the_dead_fires_even_when_it_has_a_child_saves_the_monster() -> None:
    s = resolve(four("10/0/0", "2/5/0 @city +ithasachild", "10/0/0 +eaterofthedead"), "11sss2")
    assert s.alive[1] and s.stars[2] == 3


@pytest.mark.card(47)
@pytest.mark.ruling("4.6")
def test_making_it_stronger_two_lost_in_one_hit_give_an_energy() -> None:
    s = resolve(four("10/0/0", "10/0/0 @city +wereonlymakingitstronger"), "1122ss")
    assert s.energy[1] == 1


@pytest.mark.card(47, edge=True)
def test_making_it_stronger_ignores_a_single_lost_heart() -> None:
    s = resolve(four("10/0/0", "10/0/0 @city +wereonlymakingitstronger"), "1122es")
    assert s.energy[1] == 0 and s.hp[1] == 9


@pytest.mark.card(23)
def test_it_has_a_child_restarts_at_ten_without_cards_or_stars_but_keeps_energy() -> None:
    s = resolve(four("10/0/0", "2/7/4 @city +ithasachild +armorplating poison=1"), "11sss2")
    assert s.alive[1] and s.hp[1] == 10 and s.stars[1] == 0 and s.energy[1] == 4
    assert s.cards[1] == () and card("ithasachild") in s.discard
    assert s.poison[1] == 1  # tokens are not cleared


@pytest.mark.card(23, 6, edge=True)
@pytest.mark.ruling("2.3", "D.it-has-a-child")
def test_it_has_a_child_in_tokyo_leaves_without_a_yield() -> None:
    s = resolve(four("10/0/0", "2/0/0 @city +ithasachild +burrowing"), "11sss2")
    assert s.city == 0  # the attacker took the City, without a yield choice
    assert s.hp[0] == 10  # and no Burrowing: leaving by rebirth is not a yield


# --- Healing Ray ----------------------------------------------------------------------------------


@pytest.mark.card(20)
@pytest.mark.ruling("5.3")
def test_healing_ray_heals_another_monster_who_pays_two_energy_per_heart() -> None:
    s = resolve(four("10/0/0 +healingray", "10/0/0 @city", "5/0/9"), "11hhe2")
    assert asked(s) == (0, "hearts")
    s = rules.apply(s, use("healingray", 2, 2))
    assert s.hp[2] == 7 and s.energy[2] == 5 and s.energy[0] == 1 + 4


@pytest.mark.card(20, 38, edge=True)
@pytest.mark.ruling("5.3", "D.regeneration")
def test_healing_ray_regeneration_of_the_healed_applies_and_a_poor_target_pays_what_it_has() -> None:
    s = resolve(four("10/0/0 @city +healingray", "5/0/1 +regeneration"), "11hee2")
    s = rules.apply(s, use("healingray", 1, 1))
    assert s.hp[1] == 7  # 1 heart + its own Regeneration
    assert s.energy[1] == 0 and s.energy[0] == 2 + 1  # paid 1: all it had


@pytest.mark.card(20, edge=True)
def test_healing_ray_offers_no_target_at_full_health() -> None:
    s = resolve(four("9/0/0 +healingray"), "11hee2")
    assert s.hp[0] == 10  # nobody else to heal: the heart healed its owner at once


@pytest.mark.card(21, 113, edge=True)
@pytest.mark.ruling("4.7")
def test_herbivore_damage_to_itself_counts_as_dealing_damage() -> None:
    s = rules.from_text(four("10/0/5 +herbivore") + " | active=0 phase=buy market=jetfighters,heal,tank")
    s = draw(rules.apply(s, rules.Buy(card("jetfighters"))), "cornerstore")
    assert s.active == 1  # the turn is over
    assert s.stars[0] == 5 and s.hp[0] == 6


@pytest.mark.card(113, edge=True)
def test_jet_fighters_at_nineteen_stars_kills_its_buyer_who_does_not_win() -> None:
    s = rules.from_text(four("4/19/5") + " | active=0 phase=buy market=jetfighters,heal,tank")
    s = draw(rules.apply(s, rules.Buy(card("jetfighters"))), "cornerstore")
    assert not s.alive[0] and s.stars[0] == 0
    assert s.active == 1 and not s.is_over


@pytest.mark.card(7, edge=True)
def test_a_field_less_action_of_the_wrong_kind_is_illegal_in_a_card_window() -> None:
    s = resolve(four("10/0/0", "10/0/0 @city +camouflage"), "11sssh")
    assert asked(s) == (1, "react")
    for wrong in (rules.DONE, rules.STOP, rules.STAY, rules.SWEEP):
        with pytest.raises(rules.IllegalAction):
            rules.apply(s, wrong)
    assert rules.apply(s, rules.PASS).hp[1] == 7
