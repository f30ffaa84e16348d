"""Keep cards that work on the dice: extra dice and rolls, changing faces, patterns, added smashes.

Each test names the cards it covers with ``@pytest.mark.card(id, ..., edge=...)``.
"""

from __future__ import annotations

import pytest

from kotp2p import rules
from tests.rules.keep_kit import finish_turn
from tests.rules.kit import act, asked, card, roll

FOUR = "The King {}; Giga Zaur {}; Alienoid {}; Cyber Kitty {}"


def four(a: str = "10/0/0", b: str = "10/0/0 @city", c: str = "10/0/0", d: str = "10/0/0") -> str:
    return FOUR.format(a, b, c, d)


def resolve(seats: str, dice: str, extra: str = "") -> rules.State:
    """Seat 0's final dice ``dice`` resolve now."""
    return rules.from_text(f"{seats} | active=0 phase=resolve dice={dice} {extra}")


def at_roll(seats: str, dice: str, rolls: int = 0, extra: str = "") -> rules.State:
    """Seat 0 decides about its dice ``dice`` with ``rolls`` re-rolls left."""
    return rules.from_text(f"{seats} | active=0 phase=roll dice={dice} rolls={rolls} {extra}")


def use(slug: str, *args: int) -> rules.UseCard:
    return rules.UseCard(card(slug), tuple(args))


# --- extra dice and rolls ---------------------------------------------------------------------


@pytest.mark.card(13, 14)
def test_each_extra_head_adds_a_die() -> None:
    s = rules.from_text(four("10/0/0 +extrahead") + " | active=0 phase=start")
    assert s.pending.bounds == (6,) * 7  # type: ignore[union-attr]
    s = rules.from_text(four("10/0/0 +extrahead +extrahead2") + " | active=0 phase=start")
    assert s.pending.bounds == (6,) * 8  # type: ignore[union-attr]


@pytest.mark.card(13, 14, edge=True)
def test_extra_heads_and_shrink_tokens_add_up_never_below_zero() -> None:
    s = rules.from_text(four("10/0/0 +extrahead +extrahead2 shrink=3") + " | active=0 phase=start")
    assert s.pending.bounds == (6,) * 5  # type: ignore[union-attr]
    s = rules.from_text(four("10/0/0 +extrahead shrink=9") + " | active=0 phase=start")
    # No dice at all: nothing is rolled and the next monster's turn begins.
    assert s.k == 0 and s.active == 1 and s.pending.bounds == (6,) * 6  # type: ignore[union-attr]


@pytest.mark.card(18)
def test_giant_brain_gives_a_fourth_roll() -> None:
    s = rules.from_text(four("10/0/0 +giantbrain") + " | active=0 phase=start")
    s = roll(s, "111111")
    assert s.rolls_left == 3


@pytest.mark.card(18, edge=True)
def test_giant_brain_rolls_are_spent_like_normal_ones() -> None:
    s = rules.from_text(four("10/0/0 +giantbrain") + " | active=0 phase=start")
    s = roll(s, "111111")
    for _ in range(2):
        s = roll(rules.apply(s, rules.Reroll((0,))), "2")
    assert s.rolls_left == 1 and asked(s) == (0, "roll")
    s = roll(rules.apply(s, rules.Reroll((0,))), "2")
    assert s.active == 1  # the fourth roll was the last: the dice resolved, the turn ended


@pytest.mark.card(45)
@pytest.mark.ruling("1.4")
def test_energy_drink_buys_a_roll_after_the_last_one() -> None:
    s = at_roll(four("10/0/3 +energydrink"), "11122s")
    assert asked(s) == (0, "roll")
    s = rules.apply(s, use("energydrink"))
    assert s.energy[0] == 2 and s.rolls_left == 1
    s = roll(rules.apply(s, rules.Reroll((3, 4))), "11")
    assert s.dice == rules.parse_dice("11111s")


@pytest.mark.card(45, edge=True)
def test_energy_drink_needs_energy_and_is_not_offered_while_rolls_remain() -> None:
    s = at_roll(four("10/0/0 +energydrink"), "11122s")
    assert asked(s) != (0, "roll")  # no energy: the dice resolved at once
    s = at_roll(four("10/0/5 +energydrink"), "11122s", rolls=1)
    assert use("energydrink") not in rules.legal_actions(s)


@pytest.mark.card(41)
def test_smoke_cloud_comes_with_three_smoke_and_spends_one_per_roll() -> None:
    s = rules.from_text(four("10/0/4") + " | active=0 phase=buy market=smokecloud,heal,tank")
    s = rules.apply(s, rules.Buy(card("smokecloud")))
    assert s.tokens[card("smokecloud")] == 3
    s = at_roll(four("10/0/0 +smokecloud"), "11122s", extra="tokens=smokecloud:3")
    s = rules.apply(s, use("smokecloud"))
    assert s.tokens[card("smokecloud")] == 2 and s.rolls_left == 1


@pytest.mark.card(41, edge=True)
def test_smoke_cloud_is_discarded_with_its_last_smoke() -> None:
    s = at_roll(four("10/0/0 +smokecloud"), "11122s", extra="tokens=smokecloud:1")
    s = rules.apply(s, use("smokecloud"))
    assert card("smokecloud") not in s.cards[0] and card("smokecloud") in s.discard
    assert s.rolls_left == 1 and card("smokecloud") not in s.tokens


@pytest.mark.card(5)
def test_background_dweller_rerolls_a_three_without_spending_a_roll() -> None:
    s = at_roll(four("10/0/0 +backgrounddweller"), "3311ss", rolls=1)
    s = rules.apply(s, use("backgrounddweller", 0))
    assert s.pending.bounds == (6,)  # type: ignore[union-attr]
    s = roll(s, "s")
    assert s.dice == rules.parse_dice("s311ss") and s.rolls_left == 1


@pytest.mark.card(5, edge=True)
@pytest.mark.ruling("1.4")
def test_background_dweller_works_after_the_last_roll_and_only_on_threes() -> None:
    s = at_roll(four("10/0/0 +backgrounddweller"), "3121ss")
    legal = rules.legal_actions(s)
    assert use("backgrounddweller", 0) in legal and use("backgrounddweller", 1) not in legal
    s = roll(rules.apply(s, use("backgrounddweller", 0)), "3")
    s = roll(rules.apply(s, use("backgrounddweller", 0)), "1")  # again and again
    assert s.dice == rules.parse_dice("1121ss")


# --- the change-die window ---------------------------------------------------------------------


def after_stop(seats: str, dice: str) -> rules.State:
    """Seat 0 stops with ``dice``: the windows after the final roll open."""
    return rules.apply(at_roll(seats, dice, rolls=1), rules.STOP)


@pytest.mark.card(22)
def test_herd_culler_turns_a_die_into_a_one() -> None:
    s = after_stop(four("10/0/0 +herdculler"), "11sshe")
    assert asked(s) == (0, "change")
    s = rules.apply(s, use("herdculler", 2))
    assert s.dice == rules.parse_dice("111she")
    assert asked(s) == (1, "yield")  # nothing else to change: the dice resolved
    assert s.stars[0] == 1 and s.hp[1] == 9


@pytest.mark.card(22, edge=True)
def test_herd_culler_works_once_per_turn() -> None:
    s = after_stop(four("10/0/0 +herdculler"), "11sshe")
    s = rules.apply(s, use("herdculler", 2))
    # Nothing else to change: the window closed by itself and the dice resolved.
    assert asked(s) != (0, "change") and s.stars[0] == 1


@pytest.mark.card(33)
def test_plot_twist_sets_any_face_then_is_discarded() -> None:
    s = after_stop(four("10/0/2 +plottwist"), "2233he")
    s = rules.apply(s, use("plottwist", 4, 1))
    assert s.dice == rules.parse_dice("22332e") and asked(s) == (0, "buy")
    assert card("plottwist") in s.discard and s.stars[0] == 2


@pytest.mark.card(33, edge=True)
def test_plot_twist_cannot_set_the_face_a_die_already_shows() -> None:
    s = after_stop(four("10/0/0 +plottwist"), "2233he")
    assert use("plottwist", 0, 1) not in rules.legal_actions(s)
    assert use("plottwist", 0, 2) in rules.legal_actions(s)


@pytest.mark.card(44)
def test_stretchy_changes_faces_for_two_energy_each_time() -> None:
    s = after_stop(four("10/0/5 +stretchy"), "2233he")
    s = act(s, use("stretchy", 4, 2), use("stretchy", 5, 2))
    assert s.energy[0] == 1
    assert asked(s) != (0, "change")  # 1 energy left: no more changes
    assert s.stars[0] == 4  # 3 + 1 for the extra 3


@pytest.mark.card(44, edge=True)
def test_stretchy_is_not_offered_below_two_energy() -> None:
    s = after_stop(four("10/0/1 +stretchy"), "2233he")
    assert asked(s) != (0, "change")


@pytest.mark.card(36)
def test_psychic_probe_rerolls_one_die_after_the_final_roll() -> None:
    s = after_stop(four("10/0/0", "10/0/0 @city +psychicprobe"), "sssss1")
    assert asked(s) == (1, "probe")
    s = rules.apply(s, use("psychicprobe", 0))
    s = roll(s, "1")
    assert s.dice == rules.parse_dice("1ssss1")
    assert s.hp[1] == 6 and card("psychicprobe") in s.cards[1]


@pytest.mark.card(36, edge=True)
def test_psychic_probe_showing_a_heart_is_discarded() -> None:
    s = after_stop(four("10/0/0", "10/0/0 @city +psychicprobe"), "sssss1")
    s = roll(rules.apply(s, use("psychicprobe", 0)), "h")
    assert card("psychicprobe") in s.discard and card("psychicprobe") not in s.cards[1]
    assert s.hp[1] == 6  # 4 smashes left


@pytest.mark.card(36, 5, edge=True)
def test_a_three_from_psychic_probe_can_be_rerolled_by_background_dweller() -> None:
    s = after_stop(four("10/0/0 +backgrounddweller", "10/0/0 @city +psychicprobe"), "sssss1")
    s = roll(rules.apply(s, use("psychicprobe", 0)), "3")
    assert asked(s) == (0, "change")
    s = roll(rules.apply(s, use("backgrounddweller", 0)), "s")
    assert s.hp[1] == 5 and asked(s) == (1, "yield")


# --- added smashes ---------------------------------------------------------------------------------


@pytest.mark.card(1)
def test_acid_attack_adds_a_smash_even_without_smash_dice() -> None:
    s = resolve(four("10/0/0 +acidattack"), "1122ee")
    assert s.hp[1] == 9


@pytest.mark.card(1, 43, edge=True)
@pytest.mark.ruling("5.1", "D.at-least-one-smash")
def test_acid_attack_does_not_enable_spiked_tail_and_hits_only_reachable_monsters() -> None:
    s = resolve(four("10/0/0 +acidattack +spikedtail"), "1122ee")
    assert s.hp[1] == 9
    s = resolve(four("10/0/0 +acidattack", "10/0/0"), "1122ee")
    assert s.hp == [10, 10, 10, 10] and s.city == 0


@pytest.mark.card(43)
def test_spiked_tail_adds_a_smash_to_a_roll_with_one() -> None:
    s = resolve(four("10/0/0 +spikedtail"), "1122es")
    assert s.hp[1] == 8


@pytest.mark.card(34)
def test_poison_quills_three_twos_add_two_smashes() -> None:
    s = resolve(four("10/0/0 +poisonquills"), "2221ee")
    assert s.hp[1] == 8 and s.stars[0] == 2


@pytest.mark.card(34, 43, edge=True)
@pytest.mark.ruling("5.1", "D.at-least-one-smash")
def test_poison_quills_smashes_enable_spiked_tail() -> None:
    s = resolve(four("10/0/0 +poisonquills +spikedtail"), "2221ee")
    assert s.hp[1] == 7
    s = resolve(four("10/0/0 +poisonquills"), "2211ee")
    assert s.hp[1] == 10  # two 2s are not enough


@pytest.mark.card(46)
def test_urbavore_gives_a_star_more_at_the_start_of_a_turn_in_tokyo() -> None:
    s = rules.from_text(four("10/0/0 @city +urbavore", "10/0/0") + " | active=0 phase=start")
    assert s.stars[0] == 3


@pytest.mark.card(46, edge=True)
@pytest.mark.ruling("8.1")
def test_urbavore_smash_only_in_tokyo_and_its_star_in_the_two_player_variant() -> None:
    s = resolve("The King 10/0/0 @city +urbavore; Giga Zaur 10/0/0", "1122es")
    assert s.hp[1] == 8
    s = resolve(four("10/0/0 +urbavore"), "1122es")
    assert s.hp[1] == 9
    s = rules.from_text("The King 10/0/0 @city +urbavore; Giga Zaur 10/0/0 | active=0 phase=start")
    assert s.stars[0] == 1 and s.energy[0] == 1


@pytest.mark.card(6)
def test_burrowing_adds_a_smash_while_in_tokyo() -> None:
    s = resolve(four("10/0/0 @city +burrowing", "10/0/0"), "1122ee")
    assert s.hp[1:] == [9, 9, 9]


# --- patterns and numbers ---------------------------------------------------------------------------


@pytest.mark.card(8)
def test_complete_destruction_gives_nine_stars_for_all_six_faces() -> None:
    s = resolve(four("10/0/0 +completedestruction"), "123ehs")
    assert s.stars[0] == 9


@pytest.mark.card(8, 1, edge=True)
@pytest.mark.ruling("5.1")
def test_complete_destruction_counts_a_card_smash_but_needs_the_other_faces() -> None:
    s = resolve(four("10/0/0 +completedestruction +acidattack"), "123eh1")
    assert s.stars[0] == 9
    s = resolve(four("10/0/0 +completedestruction"), "123es1")
    assert s.stars[0] == 0


@pytest.mark.card(30)
def test_detritivore_gives_two_stars_for_one_two_three() -> None:
    s = resolve(four("10/0/0 +detritivore"), "123ees")
    assert s.stars[0] == 2


@pytest.mark.card(30, edge=True)
def test_detritivore_adds_to_the_numbers_and_needs_all_three() -> None:
    s = resolve(four("10/0/0 +detritivore"), "111231")
    assert s.stars[0] == 2 + 2  # four 1s = 2, plus the card
    s = resolve(four("10/0/0 +detritivore"), "1133ee")
    assert s.stars[0] == 0


@pytest.mark.card(19)
def test_gourmet_adds_two_stars_to_three_ones() -> None:
    s = resolve(four("10/0/0 +gourmet"), "111eee")
    assert s.stars[0] == 3


@pytest.mark.card(19, edge=True)
def test_gourmet_needs_three_ones_and_adds_to_extra_ones() -> None:
    s = resolve(four("10/0/0 +gourmet"), "11eeee")
    assert s.stars[0] == 0
    s = resolve(four("10/0/0 +gourmet"), "11111e")
    assert s.stars[0] == 3 + 2


@pytest.mark.card(16)
def test_freeze_time_three_ones_give_another_turn_with_one_die_fewer() -> None:
    s = finish_turn(resolve(four("10/0/0 +freezetime"), "111eee"))
    assert s.active == 0 and s.turn == 2
    assert s.pending.bounds == (6,) * 5  # type: ignore[union-attr]


@pytest.mark.card(16, edge=True)
@pytest.mark.ruling("5.4")
def test_freeze_time_stacks_one_die_fewer_each_time_then_play_moves_on() -> None:
    s = finish_turn(resolve(four("10/0/0 +freezetime"), "111eee"))
    s = finish_turn(rules.apply(roll(s, "111ee"), rules.STOP))
    assert s.active == 0 and s.turn == 3
    assert s.pending.bounds == (6,) * 4  # type: ignore[union-attr]
    s = finish_turn(roll(s, "2222"))
    assert s.active == 1  # no 1s: the next seat plays, with every die back
    assert s.pending.bounds == (6,) * 6  # type: ignore[union-attr]


@pytest.mark.card(16, edge=True)
@pytest.mark.ruling("5.4")
def test_freeze_time_bought_after_rolling_three_ones_still_gives_the_turn() -> None:
    s = rules.from_text(four("10/0/5") + " | active=0 phase=buy dice=111eee market=freezetime,heal,tank")
    s = rules.apply(s, rules.Buy(card("freezetime")))
    s = rules.apply(s, rules.RandomResult((0,)))  # the refill; nothing left to buy
    assert s.active == 0 and s.turn == 2
    assert s.pending.bounds == (6,) * 5  # type: ignore[union-attr]
