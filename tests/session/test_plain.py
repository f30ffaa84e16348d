"""The plain interface's state display and input reading, on scenario states."""

from __future__ import annotations

import pytest

from kotp2p import rules
from kotp2p.ui.plain import HELP, action_line, format_state, listed_actions, parse_line
from kotp2p.ui.symbols import ASCII

ROLL = ("The King 10/3/2 @city +acidattack poison=2; Giga Zaur 7/0/5; Alienoid 10/1/0 dead=1 | active=1 "
        "phase=roll dice=123ehs rolls=2 market=flamethrower,energize,-")
BUY = "The King 10/0/3; Giga Zaur 10/0/0 @city | active=0 phase=buy market=flamethrower,-,-"
YIELD = "The King 10/0/0; Giga Zaur 10/0/0 @city | active=0 phase=resolve dice=11sss2"


def test_the_state_shows_tokyo_each_monster_the_dice_with_keep_marks_and_the_market() -> None:
    s = rules.from_text(ROLL)
    lines = format_state(s, s.monsters, kept=frozenset({0, 5}), me=1)
    assert lines[0] == "Turn 1. Tokyo City: The King"
    assert lines[1] == "  The King: ★3 ♥10/10 ⚡2, poison 2; Acid Attack"
    assert lines[2] == "> Giga Zaur (you): ★0 ♥7/10 ⚡5; no cards"
    assert lines[3] == "  Alienoid: out of the game"
    assert lines[4] == "Dice: 1:1▲ 2:2 3:3 4:⚡ 5:♥ 6:✸▲; rolls left 2"
    assert lines[5] == "Market: Flame Thrower (3⚡), Energize (8⚡)"


def test_with_ascii_the_dice_faces_are_the_letters_the_screen_shows() -> None:
    s = rules.from_text(ROLL)
    lines = format_state(s, s.monsters, kept=frozenset({0}), symbols=ASCII)
    # The keep mark is the board's, never *, which is the ASCII star.
    assert lines[4] == "Dice: 1:1^ 2:2 3:3 4:E 5:H 6:S; rolls left 2"


def test_a_roll_lists_stop_and_reroll_all_and_reads_keep_reroll_and_numbers() -> None:
    s = rules.from_text(ROLL)
    listed = listed_actions(s)
    assert rules.STOP in listed and rules.Reroll((0, 1, 2, 3, 4, 5)) in listed and len(listed) == 2
    assert parse_line(s, "keep 1, 6") == rules.Reroll((1, 2, 3, 4))
    assert parse_line(s, "keep 1 6") == rules.Reroll((1, 2, 3, 4))
    assert parse_line(s, "reroll 2,3") == rules.Reroll((1, 2))
    assert parse_line(s, str(listed.index(rules.STOP) + 1)) == rules.STOP


def test_a_roll_lists_its_words_with_dice_from_1_and_enter_beside_stop() -> None:
    s = rules.from_text(ROLL)
    lines = [action_line(s, a) for a in listed_actions(s)]
    assert lines == ["reroll 1,2,3,4,5,6: Giga Zaur keeps nothing and re-rolls 6 dice",
                     "stop (or Enter): Giga Zaur stops rolling with 1 2 3 ⚡ ♥ ✸"]


def test_r_rerolls_the_dice_not_kept_and_an_empty_line_resolves_as_in_the_full_screen() -> None:
    s = rules.from_text(ROLL)
    assert parse_line(s, "r", kept=frozenset({0, 5})) == rules.Reroll((1, 2, 3, 4))
    assert parse_line(s, "r") == rules.Reroll((0, 1, 2, 3, 4, 5))
    assert parse_line(s, "") == rules.STOP
    last = rules.from_text("The King 8/0/0 +herdculler; Giga Zaur 10/0/0 @city | active=0 "
                           "phase=roll dice=h3esss rolls=0")
    with pytest.raises(rules.IllegalAction, match="'r' does nothing now; type a number from 1 to 7, "
                       r"an empty line \(done\), or help"):
        parse_line(last, "r")


def test_y_yields_and_s_stays_at_the_yield_question_and_say_why_elsewhere() -> None:
    s = rules.from_text(YIELD)
    assert parse_line(s, "y") == rules.YIELD and parse_line(s, "s") == rules.STAY
    assert [action_line(s, a).partition(":")[0] for a in listed_actions(s)] == [
        "yield (or y)", "stay (or s)"]
    with pytest.raises(rules.IllegalAction, match="nobody asks you to yield Tokyo now"):
        parse_line(rules.from_text(ROLL), "y")


def test_buy_takes_a_market_slot_and_an_empty_line_is_done() -> None:
    s = rules.from_text(BUY)
    assert parse_line(s, "buy 1") == rules.Buy(s.market[0])
    assert parse_line(s, "") == rules.DONE
    with pytest.raises(rules.IllegalAction, match="market slot 2 holds no card"):
        parse_line(s, "buy 2")
    assert parse_line(s, "w") == rules.SWEEP


def test_a_refused_word_lists_only_what_a_player_may_type() -> None:
    with pytest.raises(rules.IllegalAction) as refused:
        parse_line(rules.from_text(ROLL), "random 1,2")
    said = str(refused.value)
    assert said == ("'random 1,2' is not a choice; type a number from 1 to 2, keep or reroll "
                    "with dice from 1 to 6, r (re-roll the dice not kept), an empty line "
                    "(resolve the dice), or help")


def test_the_help_tells_the_words_counted_from_1() -> None:
    assert "keep 1 3 (or keep 1,3) keeps dice 1 and 3" in HELP
    assert "r re-rolls the dice not kept" in HELP and "An empty line resolves" in HELP
    assert "y yields Tokyo, s stays" in HELP and "buy 2 (market slot 2)" in HELP
    assert "reroll 0" not in HELP and "use CARD" not in HELP


@pytest.mark.parametrize(
    ("typed", "why"),
    [
        ("3", "expected a number from 1 to 2, found 3"),
        ("keep one", "expected dice from 1 to 6 after keep"),
        ("reroll 7", "there is no die 7: the dice are 1 to 6"),
        ("keep 0", "there is no die 0: the dice are 1 to 6"),
        ("buy flamethrower", "is not allowed now"),
        ("dance", "'dance' is not a choice; type a number from 1 to 2, keep or reroll"),
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
    assert lines[6] == "7. done (or Enter): The King is done"
