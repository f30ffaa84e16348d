"""What the game log says, as a new player reads it: the buy step, amounts the rules cut at a
limit, and Jets.

Each line is told from the state its input was applied to, as the views tell a game."""

from __future__ import annotations

import pytest

from kotp2p import rules
from kotp2p.rules.describe import describe_action
from tests.rules.kit import card


def shown(events: list[rules.Event], state: rules.State) -> list[str]:
    """The lines a view shows for the events of one input applied to ``state``."""
    told = zip(rules.describe_events(events, state), events, strict=True)
    return [text for text, e in told if not rules.is_minor(e)]


def told(state: rules.State, *actions: rules.Action) -> tuple[rules.State, list[str]]:
    """Apply ``actions`` in turn; return the last state and the lines a view shows for them.

    A random draw that refills the market is answered with the first card of the deck."""
    lines: list[str] = []
    for action in actions:
        events: list[rules.Event] = []
        after = rules.apply(state, action, events=events)
        lines += shown(events, state)
        state = after
        while isinstance(state.pending, rules.RandomRequest) and state.pending.purpose == rules.DRAW:
            events = []
            after = rules.apply(state, rules.RandomResult((0,)), events=events)
            lines += shown(events, state)
            state = after
    return state, lines


# --- the buy step ------------------------------------------------------------------------------


def test_ending_the_buy_step_after_buying_does_not_say_buys_nothing() -> None:
    s = rules.from_text(
        "Cyber Kitty 10/0/8; The King 10/0/0 | active=0 phase=buy market=stretchy,energize,-"
    )
    s, lines = told(s, rules.Buy(card("stretchy")))
    assert lines[0] == "Cyber Kitty buys Stretchy for 3⚡"
    assert s.pending == rules.Decision(0, "buy")
    assert describe_action(s, rules.DONE) == "Cyber Kitty is done buying"


# --- amounts cut at a limit --------------------------------------------------------------------


def test_a_smash_that_takes_the_last_hearts_says_so() -> None:
    s = rules.from_text(
        "Giga Zaur 3/0/0 @city; Cyber Kitty 10/0/0; The King 10/0/0 "
        "| active=1 phase=roll dice=ssss12 rolls=1"
    )
    _, lines = told(s, rules.STOP)
    assert "Cyber Kitty smashes Giga Zaur for 3♥ (all it had left)" in lines
    s = rules.from_text(
        "Giga Zaur 5/0/0 @city; Cyber Kitty 10/0/0; The King 10/0/0 "
        "| active=1 phase=roll dice=ssss12 rolls=1"
    )
    _, lines = told(s, rules.STOP)
    assert "Cyber Kitty smashes Giga Zaur for 4♥" in lines


@pytest.mark.parametrize(
    ("kitty", "dice", "line"),
    [
        ("10/19/0", "33331e", "Cyber Kitty gains 1★ (dice, up to the 20★ limit)"),
        ("10/10/0", "33331e", "Cyber Kitty gains 4★ (dice)"),
        ("9/0/0", "hhh123", "Cyber Kitty heals 1♥ (now at its 10♥ maximum)"),
        ("8/0/0", "hh1123", "Cyber Kitty heals 2♥ (now at its 10♥ maximum)"),
        ("5/0/0", "hhh123", "Cyber Kitty heals 3♥"),
    ],
)
def test_dice_capped_at_a_limit_say_so_and_others_do_not(kitty: str, dice: str, line: str) -> None:
    s = rules.from_text(f"Cyber Kitty {kitty}; The King 10/0/0 | active=0 phase=roll dice={dice} rolls=1")
    _, lines = told(s, rules.STOP)
    assert line in lines


def test_a_card_capped_at_twenty_stars_says_so() -> None:
    s = rules.from_text(
        "Cyber Kitty 10/16/5; The King 10/0/0 | active=0 phase=buy market=jetfighters,-,-"
    )
    _, lines = told(s, rules.Buy(card("jetfighters")))
    assert "Cyber Kitty gains 4★ (Jet Fighters, up to the 20★ limit)" in lines


def test_stars_lost_down_to_zero_say_so() -> None:
    s = rules.from_text(
        "Cyber Kitty 10/0/7; The King 10/3/0; Giga Zaur 10/8/0 "
        "| active=0 phase=buy market=evacuationorders,-,-"
    )
    _, lines = told(s, rules.Buy(card("evacuationorders")))
    assert "The King loses 3★ (Evacuation Orders, all it had)" in lines
    assert "Giga Zaur loses 5★ (Evacuation Orders)" in lines


def test_energy_paid_down_to_zero_says_so() -> None:
    seats = "Cyber Kitty 10/0/0 @city +healingray; Giga Zaur 5/0/{}; The King 10/0/0; Alienoid 10/0/0"
    s = rules.from_text(seats.format(1) + " | active=0 phase=resolve dice=11hee2")
    _, lines = told(s, rules.UseCard(card("healingray"), (1, 1)))
    assert "Giga Zaur loses 1⚡ (Healing Ray, all it had)" in lines
    s = rules.from_text(seats.format(5) + " | active=0 phase=resolve dice=11hee2")
    _, lines = told(s, rules.UseCard(card("healingray"), (1, 1)))
    assert "Giga Zaur loses 2⚡ (Healing Ray)" in lines


def test_a_cost_paid_with_the_last_energy_is_not_marked() -> None:
    s = rules.from_text(
        "Cyber Kitty 10/0/2 +stretchy; The King 10/0/0 | active=0 phase=roll dice=2233he rolls=1"
    )
    _, lines = told(s, rules.STOP, rules.UseCard(card("stretchy"), (4, 2)))
    assert "Cyber Kitty loses 2⚡ (Stretchy)" in lines


def test_poison_that_takes_the_last_hearts_says_so() -> None:
    s = rules.from_text(
        "Cyber Kitty 2/0/3 poison=3; The King 10/0/0; Giga Zaur 10/0/0 "
        "| active=0 phase=buy market=heal,-,-"
    )
    _, lines = told(s, rules.DONE)
    assert "Cyber Kitty loses 2♥ (all it had left)" in lines


# --- Jets --------------------------------------------------------------------------------------


JETS_SMASHED = (
    "Giga Zaur 10/0/0; Cyber Kitty 10/0/0 @city +jets; The King 10/0/0; Alienoid 10/0/0 "
    "| active=0 phase=roll dice=1sssss rolls=1"
)


def test_jets_is_said_when_it_saves_the_hearts() -> None:
    s, lines = told(rules.from_text(JETS_SMASHED), rules.STOP)
    assert not any("Jets" in line for line in lines)
    assert s.pending == rules.Decision(1, "yield")
    said = "Cyber Kitty yields Tokyo City, and Jets saves it 5♥"
    assert describe_action(s, rules.YIELD) == said
    _, lines = told(s, rules.YIELD)
    assert lines[0] == said


def test_jets_is_not_said_when_its_owner_stays_and_takes_the_damage() -> None:
    _, lines = told(rules.from_text(JETS_SMASHED), rules.STOP, rules.STAY)
    assert not any("Jets" in line for line in lines)
    assert "Giga Zaur smashes Cyber Kitty for 5♥" in lines


# --- several changes in one input -------------------------------------------------------------


def test_a_heal_then_a_hit_in_one_input_is_judged_after_the_heal() -> None:
    s = rules.from_text("Giga Zaur 5/0/0; The King 10/0/0 | active=1 phase=roll")
    healed, hit = rules.Healed(0, 2), rules.Damaged(0, 5, 1, True)
    assert rules.describe_events([healed, hit], s) == [
        "Giga Zaur heals 2♥", "The King smashes Giga Zaur for 5♥"]
    assert rules.describe_events([healed, rules.Damaged(0, 7, 1, True)], s)[1] == (
        "The King smashes Giga Zaur for 7♥ (all it had left)")


def test_stars_that_reach_the_limit_on_the_second_gain_are_marked_there_only() -> None:
    s = rules.from_text("Giga Zaur 10/18/0; The King 10/0/0 | active=0 phase=roll")
    gains = [rules.StarsChanged(0, 1, "dice"), rules.StarsChanged(0, 1, "dice")]
    assert rules.describe_events(gains, s) == [
        "Giga Zaur gains 1★ (dice)", "Giga Zaur gains 1★ (dice, up to the 20★ limit)"]
