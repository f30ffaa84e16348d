"""One scenario per rule of RULES.md, each with hand-chosen dice in the text notation."""

from __future__ import annotations

import pytest

from kotp2p import rules
from tests.rules.kit import act, asked, card, draw, finish_turn, roll

FOUR = "The King {}; Giga Zaur {}; Alienoid {}; Cyber Kitty {}"


def four(a: str = "10/0/0", b: str = "10/0/0", c: str = "10/0/0", d: str = "10/0/0") -> str:
    return FOUR.format(a, b, c, d)


def resolve(seats: str, dice: str, extra: str = "") -> rules.State:
    """Seat 0 resolves ``dice`` (its final roll)."""
    return rules.from_text(f"{seats} | active=0 phase=resolve dice={dice} {extra}")


# --- numbers, energy, hearts --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "stars"),
    [
        ("2222ee", 3),  # four 2s: 2 + 1 extra
        ("111eee", 1),
        ("33eeee", 0),  # a pair scores nothing
        ("333331", 5),  # five 3s: 3 + 2 extras
        ("111222", 3),  # two triples score both
        ("123ehs", 0),
    ],
)
def test_number_faces_score_three_of_a_kind_plus_one_per_extra(dice: str, stars: int) -> None:
    s = resolve(four("10/0/0 @city"), dice)
    assert s.stars[0] == stars + 0  # already in Tokyo: no entry star


def test_each_energy_face_gives_one_energy() -> None:
    s = resolve(four("10/0/2 @city"), "eee12h")
    assert s.energy[0] == 5


def test_hearts_heal_outside_tokyo_up_to_the_maximum() -> None:
    s = resolve(four("7/0/0", "10/0/0 @city"), "hhhh12")
    assert s.hp[0] == 10


def test_hearts_heal_nothing_in_tokyo() -> None:
    s = resolve(four("5/0/0 @city"), "hhh123")
    assert s.hp[0] == 5


# --- smashes and Tokyo --------------------------------------------------------------------------


def test_smashes_from_outside_hit_only_the_monster_in_tokyo() -> None:
    s = resolve(four("10/0/0", "10/0/0 @city"), "sss123")
    assert s.hp == [10, 7, 10, 10]
    assert asked(s) == (1, "yield")


def test_smashes_from_tokyo_hit_every_monster_outside() -> None:
    s = resolve(four("10/0/0 @city"), "ss1123")
    assert s.hp == [10, 8, 8, 8]
    assert s.pending is not None and asked(s) != (1, "yield")


def test_first_players_smashes_hurt_nobody_when_tokyo_is_empty() -> None:
    s = resolve(four(), "ssssss")
    assert s.hp == [10, 10, 10, 10]
    assert s.city == 0 and s.stars[0] == 1  # forced entry, +1 star


@pytest.mark.ruling("2.2", "2.5")
def test_yielding_lets_the_attacker_take_the_city_and_its_star() -> None:
    s = resolve(four("10/0/0", "10/0/0 @city"), "s11223")
    assert asked(s) == (1, "yield")
    s = rules.apply(s, rules.YIELD)
    assert s.city == 0 and s.hp[1] == 9  # the lost health stays lost
    assert s.stars[0] == 1


def test_staying_keeps_the_place_and_the_attacker_stays_out() -> None:
    s = rules.apply(resolve(four("10/0/0", "10/0/0 @city"), "s11223"), rules.STAY)
    assert s.city == 1 and not s.in_tokyo(0) and s.stars[0] == 0


@pytest.mark.ruling("2.5")
def test_forced_entry_when_the_city_is_empty_even_without_smashing() -> None:
    s = resolve(four(), "11223e")
    assert s.city == 0 and s.stars[0] == 1


@pytest.mark.ruling("1.2.8")
def test_starting_a_turn_in_tokyo_gives_two_stars() -> None:
    s = rules.from_text(four("10/3/0 @city") + " | active=0 phase=start")
    assert s.stars[0] == 5
    assert isinstance(s.pending, rules.RandomRequest) and s.pending.bounds == (6,) * 6


@pytest.mark.ruling("2.3", "3.6")
def test_elimination_at_once_discards_cards_and_frees_tokyo() -> None:
    s = resolve(four("10/0/0", "2/5/6 @city +giantbrain"), "sss123")
    assert not s.alive[1] and s.hp[1] == 0
    assert s.cards[1] == () and s.energy[1] == 0
    assert card("giantbrain") in s.discard
    assert s.city == 0  # nobody to ask; the attacker enters the free City


@pytest.mark.ruling("2.1")
def test_a_monster_in_tokyo_cannot_yield_after_card_damage() -> None:
    s = rules.from_text(four("10/0/3", "10/0/0 @city") + " | active=0 phase=buy market=flamethrower,-,-")
    s = draw(rules.apply(s, rules.Buy(card("flamethrower"))), "heal")
    assert s.hp == [10, 8, 8, 8]
    # Nobody was asked to yield: the turn ended and seat 1 rolls, still in the City.
    assert s.active == 1 and s.city == 1 and isinstance(s.pending, rules.RandomRequest)


# --- Tokyo Bay ----------------------------------------------------------------------------------

FIVE = "The King {}; Giga Zaur {}; Alienoid {}; Cyber Kitty {}; Meka Dragon {}"


def five(*seats: str) -> str:
    padded = list(seats) + ["10/0/0"] * (5 - len(seats))
    return FIVE.format(*padded)


def test_with_five_monsters_the_second_arrival_enters_the_bay() -> None:
    s = resolve(five("10/0/0", "10/0/0 @city"), "11223e")
    assert s.city == 1 and s.bay == 0 and s.stars[0] == 1


def test_with_four_monsters_there_is_no_bay() -> None:
    s = resolve(four("10/0/0", "10/0/0 @city"), "11223e")
    assert s.bay == -1 and not s.in_tokyo(0)


@pytest.mark.ruling("2.8")
def test_city_and_bay_never_smash_each_other_and_both_hit_outside() -> None:
    s = resolve(five("10/0/0 @bay", "10/0/0 @city"), "ss1122")
    assert s.hp == [10, 10, 8, 8, 8]


@pytest.mark.ruling("2.4")
def test_smash_from_outside_hits_city_and_bay_and_asks_clockwise_from_active() -> None:
    # Seat 2 attacks; City is seat 1 and Bay seat 3: seat 3 is asked first (clockwise from 2).
    s = rules.from_text(five("10/0/0", "10/0/0 @city", "10/0/0", "10/0/0 @bay")
                        + " | active=2 phase=resolve dice=s11223")
    assert s.hp == [10, 9, 10, 9, 10]
    assert asked(s) == (3, "yield")
    s = rules.apply(s, rules.STAY)
    assert asked(s) == (1, "yield")


@pytest.mark.ruling("2.5", "2.8")
def test_rulebook_five_players_both_yield_only_the_attacker_enters_the_city() -> None:
    s = rules.from_text(five("10/0/0", "10/0/0 @city", "10/0/0", "10/0/0 @bay")
                        + " | active=2 phase=resolve dice=ss1223")
    s = act(s, rules.YIELD, rules.YIELD)
    assert s.city == 2 and s.bay == -1
    assert s.stars[2] == 1


@pytest.mark.ruling("2.8")
def test_bay_closes_when_a_death_leaves_four_and_its_occupant_moves_to_an_empty_city() -> None:
    # Seat 0 in the Bay smashes everyone outside; nobody in the City; seat 2 dies.
    s = rules.from_text(five("10/0/0 @bay", "10/0/0", "1/0/0") + " | active=0 phase=resolve dice=s11223")
    assert not s.alive[2]
    assert s.bay == -1 and s.city == 0
    assert s.stars[0] == 0  # moving to the City this way gives no star


@pytest.mark.ruling("2.8")
def test_bay_closing_puts_its_occupant_out_when_the_city_is_taken() -> None:
    s = rules.from_text(five("10/0/0", "10/0/0 @city", "10/0/0 @bay", "1/0/0")
                        + " | active=1 phase=resolve dice=s11223")
    assert not s.alive[3]
    assert s.bay == -1 and s.city == 1 and not s.in_tokyo(2)


# --- rolling ------------------------------------------------------------------------------------


def test_three_rolls_then_the_dice_resolve_without_asking() -> None:
    s = rules.from_text(four("10/0/0", "10/0/0 @city") + " | active=0 phase=start")
    s = roll(s, "123ehs")
    assert asked(s) == (0, "roll") and s.rolls_left == 2
    s = roll(rules.apply(s, rules.Reroll((0, 1, 2))), "sss")
    assert s.dice == rules.parse_dice("ssseh" + "s")
    # Kept dice may be re-rolled too.
    s = roll(rules.apply(s, rules.Reroll((3, 4, 5))), "111")
    assert s.rolls_left == 0
    # No roll left: the only choice (stop) is applied by the engine, the dice resolve.
    assert s.hp[1] == 7 and asked(s) == (1, "yield")


def test_rerolling_with_no_rolls_left_is_illegal() -> None:
    s = rules.from_text(four("10/0/5") + " | active=0 phase=roll dice=123ehs rolls=1 market=heal,tank,-")
    s = roll(rules.apply(s, rules.Reroll((0,))), "1")
    assert s.rolls_left == 0 and s.dice == rules.parse_dice("123ehs".replace("1", "1", 1))
    assert asked(s) == (0, "buy")  # no roll decision left: the dice resolved
    with pytest.raises(rules.IllegalAction, match="'buy' decision"):
        rules.apply(s, rules.Reroll((0,)))


def test_stopping_early_resolves_the_current_dice() -> None:
    s = rules.from_text(four("10/0/0", "10/0/0 @city") + " | active=0 phase=roll dice=sss123 rolls=2")
    s = rules.apply(s, rules.STOP)
    assert s.hp[1] == 7


# --- buying -------------------------------------------------------------------------------------


def test_buying_refills_the_slot_and_the_new_card_can_be_bought_the_same_turn() -> None:
    s = rules.from_text(four("10/0/10 @city") + " | active=0 phase=buy market=cornerstore,heal,tank")
    s = rules.apply(s, rules.Buy(card("cornerstore")))
    assert isinstance(s.pending, rules.RandomRequest) and s.pending.bounds == (len(s.deck),)
    s = draw(s, "skyscraper")
    assert s.market[0] == card("skyscraper") and s.energy[0] == 7 and s.stars[0] == 1
    s = draw(rules.apply(s, rules.Buy(card("skyscraper"))), "energize")
    assert s.stars[0] == 5 and s.energy[0] == 1


@pytest.mark.ruling("6.2")
def test_rulebook_sweep_then_buy_one_of_the_new_cards() -> None:
    s = rules.from_text(four("10/0/9 @city") + " | active=0 phase=buy market=cornerstore,heal,tank")
    s = rules.apply(s, rules.SWEEP)
    s = draw(draw(draw(s, "skyscraper"), "commutertrain"), "frenzy")
    assert s.energy[0] == 7
    assert set(s.discard) == {card("cornerstore"), card("heal"), card("tank")}
    assert s.market == (card("skyscraper"), card("commutertrain"), card("frenzy"))
    assert rules.Buy(card("skyscraper")) in rules.legal_actions(s)
    s = draw(rules.apply(s, rules.Buy(card("skyscraper"))), "energize")
    assert s.stars[0] == 4 and s.energy[0] == 1
    assert s.market == (card("energize"), card("commutertrain"), card("frenzy"))


def test_cannot_buy_without_the_energy() -> None:
    s = rules.from_text(four("10/0/3 @city") + " | active=0 phase=buy market=cornerstore,heal,tank")
    assert rules.Buy(card("tank")) not in rules.legal_actions(s)
    with pytest.raises(rules.IllegalAction, match="not legal"):
        rules.apply(s, rules.Buy(card("tank")))


def test_a_card_not_in_the_market_cannot_be_bought() -> None:
    s = rules.from_text(four("10/0/9 @city") + " | active=0 phase=buy market=cornerstore,heal,tank")
    with pytest.raises(rules.IllegalAction):
        rules.apply(s, rules.Buy(card("skyscraper")))


@pytest.mark.ruling("6.2")
def test_an_empty_deck_is_refilled_from_the_discard_pile() -> None:
    s = rules.from_text(four("10/0/9 @city") + " | active=0 phase=buy market=cornerstore,heal,tank "
                        "deck=- discard=skyscraper,frenzy")
    s = rules.apply(s, rules.Buy(card("cornerstore")))
    assert isinstance(s.pending, rules.RandomRequest) and s.pending.bounds == (2,)
    assert s.deck == (card("frenzy"), card("skyscraper")) and s.discard == ()
    s = draw(s, "frenzy")
    assert s.market[0] == card("frenzy") and s.discard == (card("cornerstore"),)


def test_a_slot_stays_empty_when_deck_and_discard_are_both_empty() -> None:
    s = rules.from_text(four("10/0/9 @city") + " | active=0 phase=buy market=skyscraper,heal,tank deck=-")
    s = rules.apply(s, rules.Buy(card("skyscraper")))
    # The Skyscraper itself is discarded after its effect: it refills nothing this time (the
    # draw came first) and the slot stays empty.
    assert s.market[0] == 0
    assert asked(s) == (0, "buy")


@pytest.mark.ruling("6.4")
def test_with_nothing_affordable_the_buy_step_is_not_asked() -> None:
    s = rules.from_text(four("10/0/1 @city") + " | active=0 phase=buy market=cornerstore,heal,tank")
    assert s.turn == 2 and s.active == 1
    assert isinstance(s.pending, rules.RandomRequest)


# --- end of the game ----------------------------------------------------------------------------


@pytest.mark.ruling("3.8", "D.limits")
def test_stars_are_capped_at_twenty() -> None:
    s = resolve(four("10/18/0 @city"), "333333")
    assert s.stars[0] == 20


@pytest.mark.ruling("3.1", "D.game-end")
def test_twenty_stars_wins_at_the_end_of_the_turn_not_at_once() -> None:
    s = resolve(four("10/19/3 @city"), "333h12", "market=cornerstore,heal,tank")
    assert s.stars[0] == 20 and not s.is_over
    assert asked(s) == (0, "buy")  # the turn goes on
    s = rules.apply(s, rules.DONE)
    assert s.is_over and s.winners == (0,)


@pytest.mark.ruling("3.2")
def test_twenty_stars_and_zero_health_is_a_loss() -> None:
    s = rules.from_text(four("4/19/5 @city", "1/0/0") + " | active=0 phase=buy market=jetfighters,heal,tank")
    s = draw(rules.apply(s, rules.Buy(card("jetfighters"))), "cornerstore")
    assert not s.alive[0] and s.stars[0] == 0
    assert not s.is_over and s.active == 1


@pytest.mark.ruling("3.4", "D.game-end")
def test_several_monsters_at_twenty_share_the_win() -> None:
    s = rules.from_text(four("10/20/0", "10/20/0 @city") + " | active=0 phase=end")
    assert s.is_over and s.winners == (0, 1)
    assert rules.ranking(s)[0] == (0, 1)


@pytest.mark.ruling("D.game-end")
def test_last_monster_standing_wins_at_once_mid_turn() -> None:
    s = rules.from_text("The King 10/0/0; Giga Zaur 2/0/0 @city | active=0 phase=resolve dice=sss123 "
                        "market=cornerstore,heal,tank")
    assert s.is_over and s.winners == (0,)
    assert s.pending is None and rules.legal_actions(s) == ()


@pytest.mark.ruling("3.3", "D.game-end")
def test_everybody_dying_together_means_nobody_wins() -> None:
    s = rules.from_text("The King 3/0/4 @city; Giga Zaur 3/0/0 | active=0 phase=buy "
                        "market=highaltitudebombing,heal,tank")
    s = rules.apply(s, rules.Buy(card("highaltitudebombing")))
    s = draw(s, "cornerstore")
    assert s.is_over and s.winners == ()
    assert rules.ranking(s) == ((0, 1),)


@pytest.mark.ruling("3.4", "D.ranking")
def test_ranking_winners_then_survivors_by_stars_then_later_eliminations() -> None:
    s = rules.from_text(
        "The King 10/20/0; Giga Zaur 10/5/0; Alienoid 0/0/0 dead=1; Cyber Kitty 10/7/0; "
        "Meka Dragon 0/0/0 dead=2 | active=0 phase=end"
    )
    assert s.is_over
    assert rules.ranking(s) == ((0,), (3,), (1,), (4,), (2,))


@pytest.mark.ruling("3.7")
def test_the_active_monster_dying_on_its_turn_skips_the_rest_of_it() -> None:
    s = rules.from_text(four("4/0/6", "10/0/0 @city") + " | active=0 phase=buy market=jetfighters,heal,tank")
    s = draw(rules.apply(s, rules.Buy(card("jetfighters"))), "cornerstore")
    assert not s.alive[0]
    assert s.active == 1 and s.turn == 2  # no more buying: seat 1's turn began


# --- the 2-player variant -----------------------------------------------------------------------


@pytest.mark.ruling("8.1")
def test_two_player_variant_gives_energy_for_tokyo_instead_of_stars() -> None:
    s = rules.from_text("The King 10/0/0; Giga Zaur 10/0/0 | active=0 phase=resolve dice=11223e")
    assert s.city == 0 and s.stars[0] == 0 and s.energy[0] == 2
    s = rules.from_text("The King 10/0/0 @city; Giga Zaur 10/0/0 | active=0 phase=start")
    assert s.stars[0] == 0 and s.energy[0] == 1


@pytest.mark.ruling("8.1")
def test_two_player_variant_is_keyed_on_the_starting_player_count() -> None:
    # Three monsters started; one is dead: Tokyo still gives stars, not energy.
    s = rules.from_text("The King 10/0/0; Giga Zaur 10/0/0; Alienoid 0/0/0 dead=1 | active=0 phase=resolve dice=11223e")
    assert s.city == 0 and s.stars[0] == 1 and s.energy[0] == 1


def test_two_player_variant_can_be_turned_off() -> None:
    s = rules.from_text("The King 10/0/0; Giga Zaur 10/0/0 | active=0 phase=resolve dice=11223e 2p=0")
    assert s.stars[0] == 1 and s.energy[0] == 1
    g = rules.new_game(rules.Setup(("The King", "Giga Zaur"), rules.Options(two_player_variant=False)))
    assert not g.two_player
    assert rules.new_game(rules.Setup(("The King", "Giga Zaur"))).two_player


# --- turn order, extra turns, who is asked --------------------------------------------------------


def test_play_passes_clockwise_skipping_the_dead() -> None:
    s = rules.from_text("The King 10/0/0 @city; Giga Zaur 0/0/0 dead=1; Alienoid 10/0/0 | "
                        "active=0 phase=end")
    assert s.active == 2 and s.turn == 2


def test_non_active_decisions_come_one_seat_at_a_time() -> None:
    s = rules.from_text(five("10/0/0", "10/0/0 @city", "10/0/0", "10/0/0 @bay")
                        + " | active=2 phase=resolve dice=ss1223")
    assert isinstance(s.pending, rules.Decision) and s.pending.seat == 3
    with pytest.raises(rules.IllegalAction, match="seat 3"):
        rules.apply(s, rules.Buy(card("heal")))


@pytest.mark.ruling("D.first-player")
def test_roll_off_most_smashes_starts_ties_roll_again_among_themselves() -> None:
    s = rules.new_game(rules.Setup(("The King", "Giga Zaur", "Alienoid")))
    assert isinstance(s.pending, rules.RandomRequest) and len(s.pending.bounds) == 18
    s = roll(s, "ss123e" + "ss123e" + "s123eh")
    # Seats 0 and 1 tie with two smashes: only they roll again.
    assert isinstance(s.pending, rules.RandomRequest) and len(s.pending.bounds) == 12
    s = roll(s, "111111" + "s11111")
    s = draw(draw(draw(s, "heal"), "tank"), "frenzy")
    assert s.active == 1 and s.turn == 1
    assert s.market == (card("heal"), card("tank"), card("frenzy"))


def test_random_events_are_numbered_one_by_one() -> None:
    s = rules.new_game(rules.Setup(("The King", "Giga Zaur")))
    seen = []
    for faces in ("s11111" + "111111",):
        assert isinstance(s.pending, rules.RandomRequest)
        seen.append(s.pending.index)
        s = roll(s, faces)
    for c in ("heal", "tank", "frenzy"):
        assert isinstance(s.pending, rules.RandomRequest)
        seen.append(s.pending.index)
        s = draw(s, c)
    assert seen == [1, 2, 3, 4] and s.k == 4


def test_finish_turn_helper_reaches_the_next_roll() -> None:
    s = rules.from_text(four() + " | active=0 phase=roll dice=123ehs rolls=2")
    s = finish_turn(s)
    assert s.active == 1 and isinstance(s.pending, rules.RandomRequest)
