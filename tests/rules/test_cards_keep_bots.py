"""The bots play every Keep card: the greedy bot answers each card window sensibly, and games
between bots that start with Keep cards in play always end."""

from __future__ import annotations

import random

import pytest

from kotp2p import rules
from kotp2p.bots import make_bot
from tests.rules.keep_kit import use
from tests.rules.kit import bots_play, card
from tests.rules.test_cards_keep_playouts import dealt_start

FOUR = "The King {}; Giga Zaur {}; Alienoid {}; Cyber Kitty {}"


@pytest.mark.parametrize("kind", ["greedy", "random"])
def test_bots_finish_games_with_keep_cards_in_play(kind: str) -> None:
    for seed in range(30):
        rng = random.Random(seed)
        s = dealt_start(4, rng)
        bots = [make_bot(kind, seed * 10 + seat) for seat in range(4)]
        s = bots_play(s, bots, rng)
        assert s.is_over


def test_greedy_uses_camouflage_and_wings_against_a_big_hit() -> None:
    seats = FOUR.format("10/0/0", "10/0/4 @city +camouflage +wings", "10/0/0", "10/0/0")
    s = rules.from_text(f"{seats} | active=0 phase=resolve dice=ssss11")
    assert make_bot("greedy").choose(s) in (use("camouflage"), use("wings"))


def test_greedy_spends_hearts_on_poison_tokens() -> None:
    seats = FOUR.format("10/0/0 poison=2", "10/0/0 @city", "10/0/0", "10/0/0")
    s = rules.from_text(f"{seats} | active=0 phase=resolve dice=hh1122")
    assert make_bot("greedy").choose(s) == use("poisonspit", 2)


def test_greedy_buys_a_keep_card_worth_its_cost_and_completes_a_triple_with_stretchy() -> None:
    seats = FOUR.format("10/0/7", "10/0/0 @city", "10/0/0", "10/0/0")
    s = rules.from_text(f"{seats} | active=0 phase=buy market=extrahead,heal,-")
    assert make_bot("greedy").choose(s) == rules.Buy(card("extrahead"))
    seats = FOUR.format("10/0/2 +stretchy", "10/0/0 @city", "10/0/0", "10/0/0")
    s = rules.apply(rules.from_text(f"{seats} | active=0 phase=roll dice=3312ee rolls=1"), rules.STOP)
    choice = make_bot("greedy").choose(s)
    assert isinstance(choice, rules.UseCard) and choice.args[1] == 2  # a third 3
