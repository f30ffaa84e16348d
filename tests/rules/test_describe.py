"""Plain-text descriptions of actions, as logs and replays show them: dice as face symbols,
and the same words as the events the action causes."""

from __future__ import annotations

import re

from kotp2p import rules
from kotp2p.rules.describe import describe_action

NOTATION_DICE = re.compile(r"\b[123ehs]{3,}\b")


def test_rolls_draws_and_decisions_read_as_what_they_do() -> None:
    s = rules.new_game(rules.Setup(("The King", "Giga Zaur")))
    roll = rules.parse_action(s, "roll ssssss111111")
    assert describe_action(s, roll) == "dice: ✸ ✸ ✸ ✸ ✸ ✸ 1 1 1 1 1 1"
    s = rules.apply(s, roll)
    assert describe_action(s, rules.parse_action(s, "draw heal")) == "revealed Heal"
    s = rules.from_text("The King 10/0/0; Giga Zaur 10/0/0 | active=0 phase=roll dice=123ehs rolls=2")
    assert describe_action(s, rules.Reroll((0, 5))) == "The King keeps 2 3 ⚡ ♥ and re-rolls 2 dice"
    assert describe_action(s, rules.Reroll((5,))) == "The King keeps 1 2 3 ⚡ ♥ and re-rolls 1 die"
    assert describe_action(s, rules.Reroll(tuple(range(6)))) == (
        "The King keeps nothing and re-rolls 6 dice"
    )
    assert describe_action(s, rules.STOP) == "The King stops rolling with 1 2 3 ⚡ ♥ ✸"


def test_a_move_and_its_event_say_it_in_the_same_words() -> None:
    """A view prints the events and not the move when the move caused some (the rule in the
    ``kotp2p.rules`` docstring); the words agree, so either alone reads right."""
    s = rules.from_text(
        "Giga Zaur 10/0/0; Cyber Kitty 10/3/0 @city; The King 10/5/0 @bay; Alienoid 10/0/0; "
        "Meka Dragon 10/0/0 | active=0 phase=roll dice=ss1eh2 rolls=1"
    )
    s = rules.apply(s, rules.STOP)
    for action, place in ((rules.STAY, "Tokyo City"), (rules.YIELD, "Tokyo City")):
        events: list[rules.Event] = []
        rules.apply(s, action, events=events)
        assert rules.describe_event(events[0], s) == describe_action(s, action)
        assert place in describe_action(s, action)
    s = rules.apply(s, rules.STAY)
    assert s.pending == rules.Decision(2, "yield")
    assert describe_action(s, rules.YIELD) == "The King yields Tokyo Bay"
    s = rules.from_text("The King 10/0/7; Giga Zaur 10/0/0 | active=0 phase=buy market=frenzy,-,-")
    frenzy = rules.card_by_name("Frenzy")
    events = []
    rules.apply(s, rules.Buy(frenzy), events=events)
    assert rules.describe_event(events[0], s) == describe_action(s, rules.Buy(frenzy)) == (
        "The King buys Frenzy for 7⚡"
    )
    assert describe_action(s, rules.DONE) == "The King is done buying"


def test_plain_words_never_show_notation_letters_for_dice() -> None:
    s = rules.from_text("The King 10/0/0; Giga Zaur 10/0/0 | active=0 phase=roll dice=11se32 rolls=2")
    s = rules.apply(s, rules.Reroll((2, 3, 4)))
    events: list[rules.Event] = []
    s = rules.apply(s, rules.RandomResult((3, 3, 5)), events=events)
    words = [rules.describe_event(e, s) for e in events]
    assert words == ["The King re-rolls 3 dice: ⚡ ⚡ ✸"]
    assert not any(NOTATION_DICE.search(w) for w in words)


def test_hidden_values_name_no_card() -> None:
    s = rules.apply(rules.new_game(rules.Setup(("The King", "Giga Zaur"))),
                    rules.RandomResult((5,) * 6 + (0,) * 6))
    assert isinstance(s.pending, rules.RandomRequest) and len(s.pending.bounds) == 1
    hidden = rules.RandomResult((rules.HIDDEN,))
    assert describe_action(s, hidden) == "random values [-1]"
    assert rules.format_action(s, hidden) == "random -1"
