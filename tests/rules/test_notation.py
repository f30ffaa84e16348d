"""The text notation and the words for actions: readable, exact, and strict about input."""

from __future__ import annotations

import pytest

from kotp2p import rules


def test_new_game_in_the_notation() -> None:
    s = rules.new_game(rules.Setup(("The King", "Giga Zaur", "Alienoid")))
    assert rules.to_text(s) == (
        "The King 10/0/0; Giga Zaur 10/0/0; Alienoid 10/0/0 | active=0 turn=0 market=-,-,- "
        "stack=first_turn;rand:draw,2;rand:draw,1;rand:draw,0;rand:rolloff,7"
    )


def test_every_seat_field_round_trips() -> None:
    text = (
        "The King 7/3/2 @bay +acidattack +extrahead2 poison=2 shrink=1; Giga Zaur 0/0/0 dead=1; "
        "Alienoid 10/0/0 @city; Cyber Kitty 9/19/12; Meka Dragon 10/2/0 | active=3 rotation=2 "
        "turn=7 k=40 market=heal,-,tank discard=frenzy 2p=1 extra=3 flags=t.dealt:2 phase=start"
    )
    s = rules.from_text(text)
    assert s.shrink[0] == 1 and s.poison[0] == 2 and s.cards[0] == (1, 14)
    assert rules.from_text(rules.to_text(s)).digest() == s.digest()


def test_phase_roll_waits_for_the_roll_decision() -> None:
    s = rules.from_text("The King 10/0/0; Giga Zaur 10/0/0 | phase=roll dice=123ehs rolls=1")
    assert s.pending == rules.Decision(0, "roll")
    assert "phase=roll" in rules.to_text(s)


@pytest.mark.parametrize(
    "text",
    ["stop", "yield", "stay", "sweep", "done", "pass", "reroll 0,2,5", "buy heal", "use energydrink",
     "use stretchy 2,5", "random 4"],
)
def test_action_words_round_trip(text: str) -> None:
    s = rules.new_game(rules.Setup(("The King", "Giga Zaur")))
    a = rules.parse_action(s, text)
    assert rules.format_action(s, a) == text


def test_roll_and_draw_words_answer_the_pending_event() -> None:
    s = rules.new_game(rules.Setup(("The King", "Giga Zaur")))
    a = rules.parse_action(s, "roll ssssss111111")
    assert a == rules.RandomResult((5,) * 6 + (0,) * 6)
    s = rules.apply(s, a)
    draw = rules.parse_action(s, "draw heal")
    assert rules.format_action(s, draw) == "draw heal"
    assert rules.apply(s, draw).market[0] == rules.CARDS[111].id


@pytest.mark.parametrize("text", ["fly", "buy laser", "reroll a,b", "roll 7", "stop now"])
def test_bad_action_words_say_what_was_expected(text: str) -> None:
    s = rules.new_game(rules.Setup(("The King", "Giga Zaur")))
    with pytest.raises(rules.IllegalAction, match="expected"):
        rules.parse_action(s, text)


def test_a_card_is_found_by_its_printed_or_notation_name() -> None:
    assert rules.card_by_name("Battery Monster") == rules.card_by_name("batterymonster")
    assert rules.CARDS[rules.card_by_name("it has a child")].name == "It Has a Child!"
    with pytest.raises(ValueError, match="expected the name of a Power card"):
        rules.card_by_name("Battery Mon")


def test_mimic_writes_its_copy_at_the_seat() -> None:
    text = (
        "The King 10/0/0 +mimic>batterymonster; Giga Zaur 10/0/0 +batterymonster | active=1 phase=roll "
        "dice=123123 rolls=1 tokens=batterymonster:6,mimic:4"
    )
    s = rules.from_text(text)
    mimic = rules.card_by_name("mimic")
    assert s.flags == {f"copy.{mimic}": rules.card_by_name("batterymonster")}
    assert "+mimic>batterymonster" in rules.to_text(s) and "flags=" not in rules.to_text(s)
    assert rules.from_text(rules.to_text(s)) == s
    with pytest.raises(rules.InvalidState, match="only for a copier"):
        rules.from_text("The King 10/0/0 +heal>mimic; Giga Zaur 10/0/0 | phase=start")


def test_a_state_can_start_at_the_yield_decisions() -> None:
    s = rules.from_text(
        "Giga Zaur 10/0/0; Cyber Kitty 7/3/0 @city; The King 8/5/0 @bay; Alienoid 10/0/0; "
        "Meka Dragon 10/0/0 | active=0 dice=ssseh1 phase=yield:2,1"
    )
    assert s.pending == rules.Decision(2, "yield")
    assert "phase=yield:2,1" in rules.to_text(s)
    assert rules.from_text(rules.to_text(s)) == s
    s = rules.apply(s, rules.STAY)
    assert s.pending == rules.Decision(1, "yield")
    s = rules.apply(s, rules.YIELD)
    assert (s.city, s.bay) == (0, 2)  # Giga Zaur takes the City Cyber Kitty left
