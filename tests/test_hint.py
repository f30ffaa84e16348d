"""The hint: what the hard bot would do in the player's place, from the player's view."""

from __future__ import annotations

from kotp2p import rules
from kotp2p.bots import PLAYOUTS, hint, make_bot

TABLE = "The King 10/0/9; Kraken 10/0/0 @city; Alienoid 10/0/0 | active=0 turn=3"
MARKET = "market=heal,energize,jetfighters"


def test_at_a_roll_it_names_the_dice_kept_and_the_chances_counted_on() -> None:
    s = rules.from_text(f"{TABLE} phase=roll dice=sss11h rolls=2 {MARKET}")
    words = hint(s, 0)
    assert words.startswith("the hard bot would keep ✸ ✸ ✸ and re-roll 3 (")
    assert "(chance of dice showing ✸, 4+: 42%, 5+: 7%, 6+: under 1%)" in words
    assert "better than stopping" in words


def test_with_the_best_dice_it_stops() -> None:
    s = rules.from_text(f"{TABLE} phase=roll dice=333333 rolls=2 {MARKET}")
    assert hint(s, 0) == "the hard bot would stop: no re-roll is worth more to it than these dice"


def test_elsewhere_it_names_the_action_and_for_another_seat_nothing() -> None:
    s = rules.from_text(f"{TABLE} phase=buy {MARKET}")
    assert hint(s, 0).startswith("the hard bot would choose: The King ")
    assert hint(s, 1) == "no decision of yours is pending"


def test_at_a_yield_it_names_the_choice_and_how_often_it_won_after_each() -> None:
    s = rules.from_text("The King 10/0/9; Kraken 9/0/0 @city; Alienoid 10/0/0 | active=0 turn=3 "
                        f"dice=sss111 phase=yield:1 {MARKET}")
    words = hint(s, 1)
    chosen = rules.describe_action(s, make_bot("hard").choose(s))
    assert words.startswith(f"the hard bot would choose: {chosen}; it won ")
    assert f" of {PLAYOUTS} games played on from there, against " in words
    assert "Kraken stays in Tokyo City" in words and "Kraken yields Tokyo City" in words


def test_in_a_duel_it_judges_what_to_buy_by_games_played_on() -> None:
    duel = rules.from_text(f"The King 10/0/9; Kraken 10/0/0 @city | active=0 turn=3 phase=buy {MARKET}")
    words = hint(duel, 0)
    bot = make_bot("hard")
    chosen = rules.describe_action(duel, bot.choose(duel))
    assert words.startswith(f"the hard bot would choose: {chosen}; it won ")
    assert f" of {PLAYOUTS} games played on from there, against " in words
    judged = bot.search(duel)  # type: ignore[attr-defined]
    assert {j.action for j in judged} == set(rules.legal_actions(duel))
    assert judged[0].action == bot.choose(duel)
    # With three monsters left, a purchase is the greedy bot's rule of thumb: no games played.
    three = rules.from_text(f"{TABLE} phase=buy {MARKET}")
    assert "games played on" not in hint(three, 0)
    assert make_bot("hard").choose(three) == make_bot("greedy").choose(three)
