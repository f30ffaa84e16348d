"""Every Discard card: its effect, and its edges (the 20★ cap, 0♥, Tokyo).

Each test names the cards it covers with ``@pytest.mark.card(id, ..., edge=...)``.
"""

from __future__ import annotations

import pytest

from kotp2p import rules
from tests.rules.kit import asked, card, draw

SEATS = "The King {}; Giga Zaur {}; Alienoid {}; Cyber Kitty {}"


def buy(buyer: str, others: tuple[str, ...], slug: str, refill: str = "cornerstore") -> rules.State:
    """Seat 0 (``buyer``) buys ``slug`` from the market; the refill reveals ``refill``."""
    seats = SEATS.format(buyer, *others)
    market = slug + ",heal,tank" if slug not in ("heal", "tank") else slug + ",skyscraper,frenzy"
    s = rules.from_text(f"{seats} | active=0 phase=buy market={market}")
    return draw(rules.apply(s, rules.Buy(card(slug))), refill)


OTHERS = ("10/0/0 @city", "10/0/0", "10/0/0")


@pytest.mark.card(101)
@pytest.mark.parametrize(("slug", "stars"), [("apartmentbuilding", 3), ("commutertrain", 2),
                                               ("cornerstore", 1), ("skyscraper", 4)])
def test_star_cards_give_stars_and_go_to_the_discard_pile(slug: str, stars: int) -> None:
    s = buy("10/2/9", OTHERS, slug, refill="energize")
    assert s.stars[0] == 2 + stars
    assert s.energy[0] == 9 - rules.CARDS[card(slug)].cost
    assert card(slug) in s.discard and card(slug) not in s.cards[0]


@pytest.mark.card(102, 103, 116)
def test_star_cards_respect_the_cap() -> None:
    assert buy("10/19/9", OTHERS, "skyscraper").stars[0] == 20
    assert buy("10/19/9", OTHERS, "commutertrain").stars[0] == 20


@pytest.mark.card(101, edge=True)
@pytest.mark.card(102, 103, 116, edge=True)
def test_star_cards_at_twenty_end_the_game_at_the_end_of_the_turn() -> None:
    s = buy("10/18/7", OTHERS, "apartmentbuilding")
    assert s.stars[0] == 20 and not s.is_over
    assert asked(s) == (0, "buy")  # the turn goes on: 2 energy left to sweep
    s = rules.apply(s, rules.DONE)
    assert s.is_over and s.winners == (0,)


@pytest.mark.card(104)
def test_death_from_above_puts_everyone_out_and_takes_the_city_with_its_star() -> None:
    s = buy("10/0/5", OTHERS, "deathfromabove")
    assert s.city == 0 and not s.in_tokyo(1)
    assert s.stars[0] == 3  # 2 from the card, 1 for entering


@pytest.mark.card(104, edge=True)
@pytest.mark.ruling("2.7")
def test_death_from_above_ejects_city_and_bay_with_five_monsters() -> None:
    seats = "The King 10/0/5; Giga Zaur 10/0/0 @city; Alienoid 10/0/0 @bay; Cyber Kitty 10/0/0; Meka Dragon 10/0/0"
    s = rules.from_text(f"{seats} | active=0 phase=buy market=deathfromabove,heal,tank")
    s = draw(rules.apply(s, rules.Buy(card("deathfromabove"))), "cornerstore")
    assert s.city == 0 and s.bay == -1
    assert not s.in_tokyo(1) and not s.in_tokyo(2)


@pytest.mark.card(104, edge=True)
@pytest.mark.ruling("2.7")
def test_death_from_above_from_the_bay_moves_to_the_city_without_the_entry_star() -> None:
    seats = "The King 10/0/5 @bay; Giga Zaur 10/0/0 @city; Alienoid 10/0/0; Cyber Kitty 10/0/0; Meka Dragon 10/0/0"
    s = rules.from_text(f"{seats} | active=0 phase=buy market=deathfromabove,heal,tank")
    s = draw(rules.apply(s, rules.Buy(card("deathfromabove"))), "cornerstore")
    assert s.city == 0 and s.bay == -1 and s.stars[0] == 2


@pytest.mark.card(104, edge=True)
def test_death_from_above_in_the_city_only_gives_stars() -> None:
    s = buy("10/0/5 @city", ("10/0/0", "10/0/0", "10/0/0"), "deathfromabove")
    assert s.city == 0 and s.stars[0] == 2


@pytest.mark.card(105)
def test_energize_gives_nine_energy() -> None:
    s = buy("10/0/8", OTHERS, "energize")
    assert s.energy[0] == 9


@pytest.mark.card(105, edge=True)
def test_energize_works_in_tokyo_and_the_energy_can_be_spent_at_once() -> None:
    s = buy("10/0/8 @city", ("10/0/0",) * 3, "energize", refill="skyscraper")
    assert s.energy[0] == 9
    assert rules.Buy(card("skyscraper")) in rules.legal_actions(s)


@pytest.mark.card(106, 107)
def test_evacuation_orders_take_five_stars_from_every_other_monster() -> None:
    s = buy("10/3/9", ("10/7/0 @city", "10/2/0", "10/5/0"), "evacuationorders")
    assert s.stars == [3, 2, 0, 0]


@pytest.mark.card(106, 107, edge=True)
def test_second_evacuation_orders_copy_is_the_same_and_stars_stop_at_zero() -> None:
    s = buy("10/3/9", ("10/20/0 @city", "10/0/0", "10/4/0"), "evacuationorders2")
    assert s.stars == [3, 15, 0, 0]


@pytest.mark.card(108)
def test_flame_thrower_wounds_every_other_monster_by_two() -> None:
    s = buy("10/0/3", OTHERS, "flamethrower")
    assert s.hp == [10, 8, 8, 8]


@pytest.mark.card(108, edge=True)
def test_flame_thrower_can_eliminate_and_gives_no_yield() -> None:
    s = buy("10/0/3", ("2/0/0 @city", "1/0/0", "10/0/0"), "flamethrower")
    assert s.alive == (True, False, False, True)
    assert s.elim[1] == s.elim[2]  # one resolution, one shared rank
    assert s.city == -1  # freed; the buyer does not enter: its Enter step is over
    assert not s.in_tokyo(0)


@pytest.mark.card(109)
@pytest.mark.ruling("D.frenzy")
def test_frenzy_gives_another_turn_after_this_one() -> None:
    s = buy("10/0/7 @city", ("10/0/0",) * 3, "frenzy")
    assert asked(s) is None  # nothing affordable: the turn ends
    assert s.active == 0 and s.turn == 2
    assert s.stars[0] == 2  # the extra turn started in Tokyo


@pytest.mark.card(109, edge=True)
@pytest.mark.ruling("1.14")
def test_after_a_frenzy_turn_play_resumes_with_the_next_seat() -> None:
    s = buy("10/0/7 @city", ("10/0/0",) * 3, "frenzy")
    s = rules.apply(s, rules.RandomResult(rules.parse_dice("111222")))
    s = rules.apply(s, rules.STOP)
    assert s.active == 1 and s.turn == 3


@pytest.mark.card(110)
def test_gas_refinery_gives_two_stars_and_wounds_others_by_three() -> None:
    s = buy("10/0/6", OTHERS, "gasrefinery")
    assert s.stars[0] == 2 and s.hp == [10, 7, 7, 7]


@pytest.mark.card(110, edge=True)
def test_gas_refinery_killing_everyone_else_wins_at_once() -> None:
    s = buy("10/0/6", ("3/0/0 @city", "2/0/0", "1/0/0"), "gasrefinery")
    assert s.is_over and s.winners == (0,)


@pytest.mark.card(111)
def test_heal_gives_two_health() -> None:
    s = buy("5/0/3", OTHERS, "heal")
    assert s.hp[0] == 7


@pytest.mark.card(111, edge=True)
def test_heal_works_in_tokyo_and_stops_at_ten() -> None:
    s = buy("9/0/3 @city", ("10/0/0",) * 3, "heal")
    assert s.hp[0] == 10


@pytest.mark.card(112)
def test_high_altitude_bombing_wounds_everyone_including_the_buyer() -> None:
    s = buy("10/0/4", OTHERS, "highaltitudebombing")
    assert s.hp == [7, 7, 7, 7]


@pytest.mark.card(112, edge=True)
def test_high_altitude_bombing_can_kill_the_buyer_and_others_in_one_resolution() -> None:
    s = buy("3/5/4", ("3/0/0 @city", "10/0/0", "10/0/0"), "highaltitudebombing")
    assert s.alive == (False, False, True, True)
    assert s.elim[0] == s.elim[1]
    assert s.active == 1 or s.active == 2  # the buyer's turn is over
    assert s.city == -1


@pytest.mark.card(113)
def test_jet_fighters_five_stars_and_four_wounds() -> None:
    s = buy("10/0/5", OTHERS, "jetfighters")
    assert s.stars[0] == 5 and s.hp[0] == 6


@pytest.mark.card(113, edge=True)
@pytest.mark.ruling("3.2")
def test_jet_fighters_killing_its_buyer_at_nineteen_stars_is_no_win() -> None:
    s = buy("4/19/5", OTHERS, "jetfighters")
    assert not s.alive[0] and not s.is_over
    assert s.active == 1


@pytest.mark.card(114)
def test_national_guard_two_stars_and_two_wounds() -> None:
    s = buy("10/0/3", OTHERS, "nationalguard")
    assert s.stars[0] == 2 and s.hp[0] == 8


@pytest.mark.card(114, edge=True)
def test_national_guard_in_tokyo_gives_no_yield_choice() -> None:
    s = buy("10/0/3 @city", ("10/0/0",) * 3, "nationalguard")
    assert s.city == 0 and s.hp[0] == 8
    assert asked(s) is None or asked(s) == (0, "buy")


@pytest.mark.card(115)
def test_nuclear_power_plant_two_stars_three_health() -> None:
    s = buy("5/0/6", OTHERS, "nuclearpowerplant")
    assert s.stars[0] == 2 and s.hp[0] == 8


@pytest.mark.card(115, edge=True)
def test_nuclear_power_plant_heals_in_tokyo_up_to_ten() -> None:
    s = buy("9/19/6 @city", ("10/0/0",) * 3, "nuclearpowerplant")
    assert s.hp[0] == 10 and s.stars[0] == 20


@pytest.mark.card(117)
def test_tank_four_stars_three_wounds() -> None:
    s = buy("10/0/4", OTHERS, "tank", refill="cornerstore")
    assert s.stars[0] == 4 and s.hp[0] == 7


@pytest.mark.card(117, edge=True)
def test_tank_at_three_health_kills_the_buyer() -> None:
    s = buy("3/17/4", OTHERS, "tank")
    assert not s.alive[0] and s.stars[0] == 0


@pytest.mark.card(118)
def test_vast_storm_takes_half_of_each_others_energy_rounded_down() -> None:
    s = buy("10/0/6", ("10/0/5 @city", "10/0/1", "10/0/8"), "vaststorm")
    assert s.stars[0] == 2
    assert s.energy == [0, 3, 1, 4]


@pytest.mark.card(118, edge=True)
@pytest.mark.ruling("3.8")
def test_vast_storm_spares_the_buyer_and_zero_energy() -> None:
    s = buy("10/0/9", ("10/0/0 @city", "10/0/2", "10/0/3"), "vaststorm")
    assert s.energy == [3, 0, 1, 2]
