"""The plain interface's state display and input reading, on scenario states."""

from __future__ import annotations

import pytest

from kotp2p import rules
from kotp2p.ui.plain import action_line, format_state, listed_actions, parse_line

ROLL = ("The King 10/3/2 @city +acidattack poison=2; Giga Zaur 7/0/5; Alienoid 10/1/0 dead=1 | active=1 "
        "phase=roll dice=123ehs rolls=2 market=flamethrower,energize,-")
BUY = "The King 10/0/3; Giga Zaur 10/0/0 @city | active=0 phase=buy market=flamethrower,-,-"


def test_the_state_shows_tokyo_each_monster_the_dice_with_keep_marks_and_the_market() -> None:
    s = rules.from_text(ROLL)
    lines = format_state(s, s.monsters, kept=frozenset({0, 5}), me=1)
    assert lines[0] == "Turn 1. Tokyo City: The King"
    assert lines[1] == "  The King: ★3 ♥10/10 ⚡2, poison 2; Acid Attack"
    assert lines[2] == "> Giga Zaur (you): ★0 ♥7/10 ⚡5; no cards"
    assert lines[3] == "  Alienoid: out of the game"
    assert lines[4] == "Dice: [0]1* [1]2 [2]3 [3]e [4]h [5]s*; rolls left 2"
    assert lines[5] == "Market: Flame Thrower (3⚡), Energize (8⚡)"


def test_a_roll_lists_stop_and_reroll_all_and_reads_keep_reroll_and_numbers() -> None:
    s = rules.from_text(ROLL)
    listed = listed_actions(s)
    assert rules.STOP in listed and rules.Reroll((0, 1, 2, 3, 4, 5)) in listed and len(listed) == 2
    assert parse_line(s, "keep 0, 5") == rules.Reroll((1, 2, 3, 4))
    assert parse_line(s, "reroll 1,2") == rules.Reroll((1, 2))
    assert parse_line(s, str(listed.index(rules.STOP) + 1)) == rules.STOP


@pytest.mark.parametrize(
    ("typed", "why"),
    [
        ("3", "expected a number from 1 to 2, found 3"),
        ("keep one", "expected dice positions after keep"),
        ("reroll 7", "is not allowed now"),
        ("buy flamethrower", "is not allowed now"),
        ("dance", "expected an action"),
    ],
)
def test_a_refused_line_says_what_was_expected(typed: str, why: str) -> None:
    with pytest.raises(rules.IllegalAction, match=why):
        parse_line(rules.from_text(ROLL), typed)


def test_a_buy_lists_every_legal_action_by_number() -> None:
    s = rules.from_text(BUY)
    listed = listed_actions(s)
    assert listed == list(rules.legal_actions(s))
    assert parse_line(s, "buy flamethrower") == rules.Buy(s.market[0])
    assert parse_line(s, str(listed.index(rules.Buy(s.market[0])) + 1)) == rules.Buy(s.market[0])
    assert format_state(s, s.monsters)[-1] == "Market: Flame Thrower (3⚡)"


def test_a_card_question_lists_each_die_from_1_with_its_face() -> None:
    s = rules.from_text("The King 8/0/0 +herdculler; Giga Zaur 10/0/0 @city | active=0 "
                        "phase=roll dice=h3esss rolls=0")
    lines = [f"{i}. {action_line(s, a)}" for i, a in enumerate(listed_actions(s), 1)]
    assert lines[0] == "1. turn die 1 (♥) into a 1 with Herd Culler (once a turn)"
    assert lines[5] == "6. turn die 6 (✸) into a 1 with Herd Culler (once a turn)"
    assert lines[6] == "7. done: The King is done"
