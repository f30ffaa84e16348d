"""Plain-text descriptions of actions, as logs and replays show them."""

from __future__ import annotations

from kotp2p import rules
from kotp2p.rules.describe import describe_action


def test_rolls_draws_and_decisions_read_as_what_they_do() -> None:
    s = rules.new_game(rules.Setup(("The King", "Giga Zaur")))
    roll = rules.parse_action(s, "roll ssssss111111")
    assert describe_action(s, roll) == "dice: ssssss111111"
    s = rules.apply(s, roll)
    assert describe_action(s, rules.parse_action(s, "draw heal")) == "revealed Heal"
    s = rules.from_text("The King 10/0/0; Giga Zaur 10/0/0 | active=0 phase=roll dice=123ehs rolls=2")
    assert describe_action(s, rules.Reroll((0, 5))) == "The King keeps 23eh and re-rolls 2 dice"
    assert describe_action(s, rules.STOP) == "The King stops rolling with 123ehs"


def test_hidden_values_name_no_card() -> None:
    s = rules.apply(rules.new_game(rules.Setup(("The King", "Giga Zaur"))),
                    rules.RandomResult((5,) * 6 + (0,) * 6))
    assert isinstance(s.pending, rules.RandomRequest) and len(s.pending.bounds) == 1
    hidden = rules.RandomResult((rules.HIDDEN,))
    assert describe_action(s, hidden) == "random values [-1]"
    assert rules.format_action(s, hidden) == "random -1"
