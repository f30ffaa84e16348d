"""The hard bot keeps dice by expectimax over the engine's own resolution of every final roll."""

from __future__ import annotations

import random

import pytest

from kotp2p import rules
from kotp2p.bots import make_bot
from kotp2p.bots.dice import best_keep, chances, plan, reroll_indices, rolls_of
from tests.rules.kit import bots_play

ONE, TWO, THREE, ENERGY, HEART, SMASH = range(6)
TABLE = "market=heal,energize,jetfighters"


def test_six_dice_make_462_rolls_whose_chances_add_up_to_one() -> None:
    assert len(rolls_of(6)) == 462 and len(set(rolls_of(6))) == 462
    for m in range(7):
        assert sum(p for _, p in chances(m)) == pytest.approx(1.0)
    assert dict(chances(2))[(0, 0, 0, 0, 0, 2)] == pytest.approx(1 / 36)
    assert dict(chances(2))[(1, 0, 0, 0, 0, 1)] == pytest.approx(2 / 36)


def test_expectimax_chases_a_value_only_a_reroll_can_reach() -> None:
    # Only six smashes are worth anything: keep every smash, reroll the rest, until none left.
    value = {r: (1.0 if r[SMASH] == 6 else 0.0) for r in rolls_of(6)}
    dice = (SMASH, SMASH, ONE, TWO, SMASH, HEART)
    keep, worth = best_keep(value, dice, 1)
    assert keep == (0, 0, 0, 0, 0, 3) and worth == pytest.approx(1 / 216)
    assert reroll_indices(dice, keep) == (2, 3, 5)
    _, two_rolls = best_keep(value, dice, 2)
    assert two_rolls > worth  # a second roll can only help
    assert plan(value, 6, 1)((0, 0, 0, 0, 0, 5)) == pytest.approx(1 / 6)


def test_expectimax_stops_when_the_dice_are_already_the_best() -> None:
    value = {r: float(r[THREE]) for r in rolls_of(6)}
    assert best_keep(value, (THREE,) * 6, 2) == (None, 6.0)


def test_the_hard_bot_keeps_three_smashes_against_tokyo_and_rolls_the_rest() -> None:
    s = rules.from_text(f"The King 10/0/0; Kraken 10/0/0 @city; Alienoid 10/0/0 | active=0 "
                        f"turn=3 phase=roll dice=sss11h rolls=2 {TABLE}")
    assert make_bot("hard", 1).choose(s) == rules.Reroll((3, 4, 5))


def test_the_hard_bot_at_one_heart_keeps_hearts_outside_tokyo() -> None:
    s = rules.from_text(f"The King 1/0/0; Kraken 10/0/0 @city; Alienoid 10/0/0 | active=0 "
                        f"turn=3 phase=roll dice=hhh123 rolls=1 {TABLE}")
    choice = make_bot("hard", 1).choose(s)
    assert isinstance(choice, rules.Reroll) and not {0, 1, 2} & set(choice.dice)


def test_the_hard_bot_decides_only_from_what_its_seat_sees() -> None:
    """Two states that differ only in another seat's hidden Evolution get the same decision."""
    base = ("Space Penguin 10/0/0; Kraken 10/0/0 @city | active=0 turn=3 phase=roll "
            f"dice=sss11h rolls=2 {TABLE} flags=powerup:1,evo.n.0:8,evo.n.1:8,evo.1.0:2")
    one = rules.from_text(f"{base} slots=-1001:{rules.card_by_name('Healing Rain')}")
    other = rules.from_text(f"{base} slots=-1001:{rules.card_by_name('Terror of the Deep')}")
    blind = rules.from_text(f"{base} slots=-1001:?")  # as seat 0's own replica holds it
    bot = make_bot("hard", 3)
    assert bot.choose(one) == bot.choose(other) == bot.choose(blind)


def test_the_hard_bot_stays_in_tokyo_when_its_next_turn_wins_where_the_greedy_bot_leaves() -> None:
    """At 4 hearts and 18 stars, nobody plays between this smash and its next turn, which
    starts in Tokyo for the last 2 stars. The greedy bot leaves at 5 hearts or less."""
    s = rules.from_text("The King 10/0/9; Kraken 4/18/0 @city; Alienoid 10/0/0 | active=0 "
                        "turn=3 dice=sss111 phase=yield:1")
    assert make_bot("greedy", 1).choose(s) == rules.YIELD
    assert make_bot("hard", 1).choose(s) == rules.STAY


def test_the_hard_bot_leaves_tokyo_when_staying_loses_more_games() -> None:
    """At 2 hearts with two monsters to smash it before its turn, staying mostly ends its game."""
    s = rules.from_text("The King 10/0/9; Giga Zaur 10/0/0; Kraken 2/5/0 @city; Alienoid 10/0/0 "
                        "| active=0 turn=3 dice=sss111 phase=yield:2")
    assert make_bot("hard", 1).choose(s) == rules.YIELD


def test_a_searched_choice_depends_only_on_what_the_seat_sees() -> None:
    """Two Power Up! states that differ only in another seat's hidden Evolution get the same
    choice to stay or leave, however the games played on go."""
    base = ("Space Penguin 10/0/0; Kraken 6/3/0 @city; Alienoid 10/0/0 | active=0 turn=3 "
            f"dice=sss111 phase=yield:1 {TABLE} "
            "flags=powerup:1,evo.n.0:8,evo.n.1:8,evo.n.2:8,evo.2.0:2")
    one = rules.from_text(f"{base} slots=-2001:{rules.card_by_name('Healing Rain')}")
    other = rules.from_text(f"{base} slots=-2001:{rules.card_by_name('Terror of the Deep')}")
    blind = rules.from_text(f"{base} slots=-2001:?")
    bot = make_bot("hard", 3)
    assert bot.search(one) == bot.search(other) == bot.search(blind)  # type: ignore[attr-defined]


def test_playouts_trade_time_for_strength_and_none_leave_it_to_rules_of_thumb() -> None:
    """With no games played out, the hard bot leaves Tokyo as the greedy bot does; the more it
    plays out, the surer its count."""
    s = rules.from_text("The King 10/0/9; Kraken 4/18/0 @city; Alienoid 10/0/0 | active=0 "
                        "turn=3 dice=sss111 phase=yield:1")
    assert make_bot("hard", 1, playouts=0).choose(s) == rules.YIELD
    few, many = (make_bot("hard", 1, playouts=n).search(s) for n in (4, 40))  # type: ignore[attr-defined]
    assert [j.games for j in few] == [4, 4] and [j.games for j in many] == [40, 40]
    assert many[0].action == rules.STAY


def test_a_game_of_a_hard_bot_against_greedy_bots_ends() -> None:
    s = rules.new_game(rules.Setup(monsters=rules.MONSTERS[:3]))
    bots = [make_bot("hard", 1), make_bot("greedy", 2), make_bot("greedy", 3)]
    s = bots_play(s, bots, random.Random(5), limit=3000)
    assert s.is_over
