"""Illegal or malformed actions raise IllegalAction with a reason, never another error."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kotp2p import rules
from tests.rules.kit import card

BUY = "The King 10/0/3 @city; Giga Zaur 10/0/0; Alienoid 10/0/0 | active=0 phase=buy market=cornerstore,heal,tank"
ROLL = "The King 10/0/0; Giga Zaur 10/0/0 @city | active=0 phase=roll dice=123ehs rolls=2"


def test_wrong_seat_is_named_in_the_reason() -> None:
    s = rules.from_text(ROLL)
    with pytest.raises(rules.IllegalAction, match=r"seat 0 \(The King\) must make a 'roll' decision"):
        rules.apply(s, rules.YIELD)


@pytest.mark.parametrize(
    "action",
    [
        rules.Reroll(()),
        rules.Reroll((6,)),
        rules.Reroll((-1,)),
        rules.Reroll((1, 0)),
        rules.Reroll((2, 2)),
        rules.Buy(card("heal")),
        rules.UseCard(card("heal")),
        rules.RandomResult((1,)),
    ],
)
def test_bad_roll_decisions(action: rules.Action) -> None:
    with pytest.raises(rules.IllegalAction):
        rules.apply(rules.from_text(ROLL), action)


def test_buying_without_energy_and_cards_not_in_the_market() -> None:
    s = rules.from_text(BUY)
    for a in (rules.Buy(card("tank")), rules.Buy(card("skyscraper")), rules.Buy(99999)):
        with pytest.raises(rules.IllegalAction, match="not legal"):
            rules.apply(s, a)


def test_random_results_must_match_the_request() -> None:
    s = rules.new_game(rules.Setup(("The King", "Giga Zaur")))
    for bad in [(0,) * 11, (0,) * 13, (6,) * 12, (-1,) + (0,) * 11]:
        with pytest.raises(rules.IllegalAction, match="random values"):
            rules.apply(s, rules.RandomResult(bad))
    with pytest.raises(rules.IllegalAction, match="expected a RandomResult"):
        rules.apply(s, rules.STOP)


def test_nothing_is_legal_after_the_game() -> None:
    s = rules.from_text("The King 10/20/0; Giga Zaur 10/0/0 | active=0 phase=end")
    assert s.is_over
    with pytest.raises(rules.IllegalAction, match="game is over"):
        rules.apply(s, rules.DONE)


def test_foreign_objects_are_illegal_not_crashes() -> None:
    s = rules.from_text(BUY)
    for junk in (None, 3, "buy", [5, 1], {"a": 1}):
        with pytest.raises(rules.IllegalAction):
            rules.apply(s, junk)  # type: ignore[arg-type]


wire_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5) | st.binary(max_size=5),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=3), children, max_size=3),
    max_leaves=12,
)


@settings(max_examples=300)
@given(obj=wire_values)
def test_malformed_actions_from_the_wire_raise_illegal_action(obj: object) -> None:
    try:
        a = rules.action_from_wire(obj)
    except rules.IllegalAction as exc:
        assert exc.reason
        return
    assert rules.action_from_wire(rules.action_to_wire(a)) == a


@settings(max_examples=200)
@given(tag=st.integers(-3, 12), fields=st.lists(st.integers(-5, 300) | st.lists(st.integers(-5, 9), max_size=9), max_size=3))
def test_any_decoded_action_applied_anywhere_is_legal_or_illegal_action(tag: int, fields: list[object]) -> None:
    try:
        a = rules.action_from_wire([tag, *fields])
    except rules.IllegalAction:
        return
    for text in (BUY, ROLL):
        s = rules.from_text(text)
        with contextlib.suppress(rules.IllegalAction):
            rules.apply(s, a)


def test_state_from_wire_rejects_corrupt_input_with_a_reason() -> None:
    good = rules.state_to_wire(rules.from_text(BUY))
    for i in range(len(good)):
        for junk in (None, -7, "x", [1, 2], 10**12):
            bad = list(good)
            bad[i] = junk
            try:
                rules.state_from_wire(bad)
            except rules.InvalidState as exc:
                assert exc.reason
    with pytest.raises(rules.InvalidState, match="expected a list"):
        rules.state_from_wire(7)


def test_from_text_explains_what_it_expected() -> None:
    with pytest.raises(rules.InvalidState, match="expected seats"):
        rules.from_text("The King 10/0/0")
    with pytest.raises(rules.InvalidState, match="expected a monster"):
        rules.from_text("Godzilla 10/0/0; The King 10/0/0 | active=0")
    with pytest.raises(rules.InvalidState, match="card name"):
        rules.from_text("The King 10/0/0 +laser; Giga Zaur 10/0/0 | active=0")
    with pytest.raises(rules.InvalidState, match="phase"):
        rules.from_text("The King 10/0/0; Giga Zaur 10/0/0 | phase=lunch")
