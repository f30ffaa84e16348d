"""Scenarios for the card rulings not already covered by the card and base-rule tests.

Each test names the points of the rulings index it checks with ``@pytest.mark.ruling(...)``
(see ``tests/rules/rulings.py``).
"""

from __future__ import annotations

import pytest

from kotp2p import rules
from tests.rules.keep_kit import finish_turn, use
from tests.rules.kit import asked, card, draw, roll

FOUR = "The King {}; Giga Zaur {}; Alienoid {}; Cyber Kitty {}"
FIVE = "The King {}; Giga Zaur {}; Alienoid {}; Cyber Kitty {}; Meka Dragon {}"


def four(a: str = "10/0/0", b: str = "10/0/0 @city", c: str = "10/0/0", d: str = "10/0/0") -> str:
    return FOUR.format(a, b, c, d)


def resolve(seats: str, dice: str, extra: str = "", active: int = 0) -> rules.State:
    """The active seat's final dice ``dice`` resolve now."""
    return rules.from_text(f"{seats} | active={active} phase=resolve dice={dice} {extra}")


def bounds(s: rules.State) -> int:
    """How many dice the pending roll throws."""
    p = s.pending
    assert isinstance(p, rules.RandomRequest) and set(p.bounds) == {6}, f"expected a roll, found {p}"
    return len(p.bounds)


# --- 1. the turn sequence ----------------------------------------------------------------------


@pytest.mark.ruling("1.1")
def test_wings_immunity_lasts_until_the_next_turn_begins() -> None:
    s = resolve(four("10/0/0", "10/0/0 @city +wings"), "sss112", "flags=t.wings:2")
    assert s.hp[1] == 10  # protected for the rest of this turn
    s = roll(finish_turn(s), "11223e")  # seat 1's own turn: a new turn resets the record
    s = roll(finish_turn(s), "sss112")
    s = rules.apply(s, rules.STOP)
    assert s.active == 2 and s.hp[1] == 7


@pytest.mark.ruling("1.1")
def test_a_once_per_turn_card_is_usable_again_next_turn() -> None:
    seats = FOUR.format("10/0/0 +herdculler", "10/0/0 @city", "10/0/0", "10/0/0")
    s = rules.from_text(f"{seats} | active=0 phase=roll dice=sss222 rolls=1 flags=t.used.22:1")
    s = rules.apply(s, rules.STOP)
    assert asked(s) != (0, "change")  # used this turn already
    s = finish_turn(s)
    for _ in range(3):  # seats 1 to 3 play; then seat 0 again
        s = finish_turn(roll(s, "11223e"))
    s = rules.apply(roll(s, "sss222"), rules.STOP)
    assert s.active == 0 and asked(s) == (0, "change")
    assert use("herdculler", 0) in rules.legal_actions(s)


@pytest.mark.ruling("1.2.10")
def test_a_turn_starts_without_the_previous_turns_dice() -> None:
    s = finish_turn(resolve(four(), "ssssss"))
    assert s.active == 1 and s.dice == () and bounds(s) == 6


@pytest.mark.ruling("1.3")
def test_the_paid_mimic_move_comes_before_the_first_roll_and_fixes_its_dice() -> None:
    seats = four("10/0/1 +mimic", "10/0/0 @city +extrahead +giantbrain")
    s = rules.from_text(f"{seats} | active=0 phase=start flags=copy.27:18")
    assert asked(s) == (0, "mimic")
    s = rules.apply(s, use("mimic", card("extrahead")))
    assert s.energy[0] == 0 and bounds(s) == 7


@pytest.mark.ruling("1.3")
def test_shrink_tokens_fix_the_number_of_dice_of_the_first_roll() -> None:
    s = rules.from_text(four("10/0/0 shrink=2") + " | active=0 phase=start")
    assert bounds(s) == 4
    s = roll(s, "ss11")
    s = rules.apply(s, rules.Reroll((2, 3)))
    assert bounds(s) == 2 and len(s.dice) == 4


@pytest.mark.ruling("1.5")
def test_psychic_probes_are_asked_in_seat_order_after_the_active_monster() -> None:
    seats = FOUR.format("10/0/0", "10/0/0 @city +psychicprobe", "10/0/0", "10/0/0 +mimic")
    s = rules.from_text(f"{seats} | active=2 phase=roll dice=ss1122 rolls=1 flags=copy.27:36")
    s = rules.apply(s, rules.STOP)
    assert asked(s) == (3, "probe")
    s = rules.apply(s, rules.PASS)
    assert asked(s) == (1, "probe")


@pytest.mark.ruling("1.6")
def test_the_change_die_step_comes_after_the_other_monsters_probes() -> None:
    seats = FOUR.format("10/0/0 +herdculler", "10/0/0 @city +psychicprobe", "10/0/0", "10/0/0")
    s = rules.from_text(f"{seats} | active=0 phase=roll dice=ss1122 rolls=1")
    s = rules.apply(s, rules.STOP)
    assert asked(s) == (1, "probe")
    s = rules.apply(s, rules.PASS)
    assert asked(s) == (0, "change")


@pytest.mark.ruling("1.7")
def test_dice_resolve_numbers_then_hearts_then_energy_then_smashes() -> None:
    # A poison token makes the hearts a decision, so the resolution can be watched half-way.
    s = resolve(four("8/0/0 poison=1"), "111hes")
    assert asked(s) == (0, "hearts")
    assert s.stars[0] == 1  # the numbers are done
    assert s.energy[0] == 0 and s.hp[1] == 10  # energy and smashes are not
    s = rules.apply(s, rules.DONE)
    assert s.hp[0] == 9 and s.energy[0] == 1 and s.hp[1] == 9


@pytest.mark.ruling("1.9")
def test_the_attacker_enters_after_the_yields_and_burrowing_and_before_buying() -> None:
    s = resolve(four("10/0/5", "10/0/0 @city +burrowing"), "ss1122", "market=cornerstore,heal,tank")
    s = rules.apply(s, rules.YIELD)
    assert asked(s) == (0, "buy")
    assert s.city == 0 and s.stars[0] == 1 and s.hp[0] == 9


@pytest.mark.ruling("1.13.4", "1.13.5", "1.13.7")
def test_herbivore_and_solar_powered_at_the_end_of_the_turn_then_poison() -> None:
    s = rules.from_text(four("5/0/0 +herbivore +solarpowered poison=1") + " | active=0 phase=end")
    assert s.stars[0] == 1 and s.energy[0] == 1 and s.hp[0] == 4


@pytest.mark.ruling("1.13.7", "3.1")
def test_poison_still_bites_at_the_end_of_a_turn_that_reached_twenty_stars() -> None:
    s = rules.from_text(four("1/19/0 poison=1 +herbivore") + " | active=0 phase=end")
    assert not s.alive[0] and s.stars[0] == 0  # Herbivore's 20th star came first: no win
    assert not s.is_over and s.active == 1


# --- 3. winning and elimination -------------------------------------------------------------------


@pytest.mark.ruling("3.5", "2.8")
def test_monsters_killed_by_one_smash_share_a_rank_and_then_the_bay_closes() -> None:
    seats = FIVE.format("10/0/0", "1/0/0 @city", "10/0/0", "1/0/0 @bay", "10/0/0")
    s = resolve(seats, "s11223", active=2)
    assert not s.alive[1] and not s.alive[3] and s.elim[1] == s.elim[3]
    assert s.bay == -1 and s.city == 2 and s.stars[2] == 1  # the attacker enters the City


# --- 4. damage ------------------------------------------------------------------------------------


@pytest.mark.ruling("4.1")
def test_damage_resolves_in_seat_order_after_the_dealer_with_the_dealer_last() -> None:
    seats = FOUR.format("10/0/0 +camouflage", "10/0/4 @city +mimic", "10/0/2 +wings", "10/0/0")
    s = rules.from_text(f"{seats} | active=1 phase=buy market=highaltitudebombing,heal,tank flags=copy.27:7")
    s = draw(rules.apply(s, rules.Buy(card("highaltitudebombing"))), "cornerstore")
    assert asked(s) == (2, "react")
    s = rules.apply(s, rules.PASS)
    assert s.hp == [10, 10, 7, 7]  # seat 3 had nothing to use: its hit landed at once
    assert asked(s) == (0, "react")
    s = rules.apply(s, rules.PASS)
    assert asked(s) == (1, "react") and s.hp[0] == 7


# --- 6. buying ------------------------------------------------------------------------------------


@pytest.mark.ruling("6.1")
def test_a_purchase_pays_scores_places_refills_then_asks_mimic_then_opportunists() -> None:
    seats = four("10/0/8 +mediafriendly", "10/0/4 @city +opportunist +extrahead")
    s = rules.from_text(f"{seats} | active=0 phase=buy market=mimic,heal,tank")
    s = rules.apply(s, rules.Buy(card("mimic")))
    assert isinstance(s.pending, rules.RandomRequest)  # the refill comes before the Mimic choice
    assert s.energy[0] == 0 and s.stars[0] == 1 and card("mimic") in s.cards[0]
    s = draw(s, "cornerstore")
    assert asked(s) == (0, "mimic")
    s = rules.apply(s, use("mimic", card("extrahead")))
    assert asked(s) == (1, "opportunist")
    assert rules.Buy(card("cornerstore")) in rules.legal_actions(s)


# --- 7. extra turns -------------------------------------------------------------------------------


@pytest.mark.ruling("7.3", "7.5")
def test_freeze_time_turn_comes_first_then_the_frenzy_turn_then_the_next_seat() -> None:
    seats = four("10/0/7 +freezetime")
    s = rules.from_text(f"{seats} | active=0 phase=buy dice=111eee market=frenzy,heal,tank")
    s = finish_turn(draw(rules.apply(s, rules.Buy(card("frenzy"))), "cornerstore"))
    assert s.active == 0 and bounds(s) == 5  # Freeze Time's turn, one die fewer
    s = finish_turn(roll(s, "2233ee"[:5]))
    assert s.active == 0 and bounds(s) == 6  # then Frenzy's turn, with every die
    s = finish_turn(roll(s, "2233ee"))
    assert s.active == 1


# --- the order cards were gained never matters -------------------------------------------------------


@pytest.mark.ruling("1.2.1", "1.3")
@pytest.mark.parametrize("hand", ["+mimic +batterymonster", "+batterymonster +mimic"])
def test_battery_monster_pays_before_the_paid_mimic_move_is_offered(hand: str) -> None:
    seats = four(f"10/0/0 {hand}", "10/0/0 @city +extrahead")
    s = rules.from_text(f"{seats} | active=0 phase=start flags=copy.27:13 tokens=batterymonster:4")
    assert s.energy[0] == 2 and asked(s) == (0, "mimic")
    s = rules.apply(s, use("mimic", card("batterymonster")))
    assert s.energy[0] == 1 and s.tokens[card("mimic")] == 6


@pytest.mark.card(13, 14, 27, edge=True)
def test_two_extra_heads_and_a_mimic_of_one_roll_nine_dice() -> None:
    seats = four("10/0/0 +extrahead +extrahead2 +mimic")
    s = rules.from_text(f"{seats} | active=0 phase=start flags=copy.27:13")
    assert bounds(s) == 9
    s = roll(s, "sssss1111")
    s = roll(rules.apply(s, rules.Reroll((5, 6, 7, 8))), "ssss")
    assert s.dice == rules.parse_dice("sssssssss")
    assert rules.from_text(rules.to_text(s)).digest() == s.digest()


@pytest.mark.ruling("2.7")
@pytest.mark.card(104, edge=True)
def test_death_from_above_from_the_city_puts_the_bay_monster_out() -> None:
    seats = FIVE.format("10/0/5 @city", "10/0/0", "10/0/0 @bay", "10/0/0", "10/0/0")
    s = rules.from_text(f"{seats} | active=0 phase=buy market=deathfromabove,heal,tank")
    s = draw(rules.apply(s, rules.Buy(card("deathfromabove"))), "cornerstore")
    assert s.city == 0 and s.bay == -1 and not s.in_tokyo(2)
    assert s.stars[0] == 2  # already in the City: no entry star


@pytest.mark.ruling("2.7")
def test_death_from_above_reports_who_it_put_out_and_where_its_buyer_went() -> None:
    seats = FIVE.format("10/0/5 @bay", "10/0/0 @city", "10/0/0", "10/0/0", "10/0/0")
    s = rules.from_text(f"{seats} | active=0 phase=buy market=deathfromabove,heal,tank")
    s = rules.apply(s, rules.Buy(card("deathfromabove")))
    events: list[rules.Event] = []
    s = rules.apply(s, rules.RandomResult((s.deck.index(card("cornerstore")),)), events=events)
    dfa = card("deathfromabove")
    moves = [e for e in events if isinstance(e, rules.LeftTokyo | rules.EnteredTokyo)]
    assert moves == [
        rules.LeftTokyo(1, rules.CITY, dfa),
        rules.LeftTokyo(0, rules.BAY, dfa),
        rules.EnteredTokyo(0, rules.CITY, dfa),
    ]
    assert s.city == 0 and s.bay == -1 and s.stars[0] == 2  # from the Bay: no entry star


@pytest.mark.ruling("2.7", "2.6")
def test_death_from_above_ejects_without_a_yield_so_burrowing_does_not_fire() -> None:
    seats = FIVE.format("10/0/5", "10/0/0 @city +burrowing", "10/0/0 @bay", "10/0/0", "10/0/0")
    s = rules.from_text(f"{seats} | active=0 phase=buy market=deathfromabove,heal,tank")
    s = draw(rules.apply(s, rules.Buy(card("deathfromabove"))), "cornerstore")
    assert s.city == 0 and s.bay == -1 and s.hp[0] == 10 and s.stars[0] == 3
