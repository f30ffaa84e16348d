"""Hidden slots: a private random outcome known to one replica, the same digest everywhere."""

from __future__ import annotations

import pytest

from kotp2p import rules
from kotp2p.rules.registry import RANDOMS, random_event
from kotp2p.rules.state import Frame, State


def _bounds(s: State, frame: Frame) -> tuple[int, ...]:
    return (len(s.deck),)


def _handle(s: State, frame: Frame, values: tuple[int, ...]) -> None:
    s.slots[s.k] = rules.HIDDEN if values[0] == rules.HIDDEN else s.deck[values[0]]


if "test_peek" not in RANDOMS:
    random_event("test_peek", _bounds, _handle, private=lambda s, frame: frame[2])

PEEK = "The King 10/0/0 @city; Giga Zaur 10/0/0 | active=0 phase=buy market=heal,tank,frenzy stack=turn:after_buy;rand:test_peek,0"


def test_a_private_event_names_the_seat_that_learns_it() -> None:
    s = rules.from_text(PEEK)
    assert isinstance(s.pending, rules.RandomRequest)
    assert s.pending.private_to == 0 and s.pending.bounds == (len(s.deck),)


def test_owner_and_others_agree_on_the_digest_and_opening_fills_the_slot() -> None:
    s = rules.from_text(PEEK)
    mine = rules.apply(s, rules.RandomResult((4,)))
    theirs = rules.apply(s, rules.RandomResult((rules.HIDDEN,)))
    peeked = s.deck[4]
    assert mine.slots == {1: peeked} and theirs.slots == {1: rules.HIDDEN}
    assert mine.digest() == theirs.digest()
    assert "slots=1:?" in rules.to_text(theirs)
    assert rules.from_text(rules.to_text(theirs)).slots == {1: rules.HIDDEN}
    opened = rules.open_slot(theirs, 1, peeked)
    assert opened.slots == mine.slots and opened.digest() == mine.digest()
    assert theirs.slots == {1: rules.HIDDEN}  # open_slot returns a new state


def test_opening_checks_its_arguments() -> None:
    s = rules.apply(rules.from_text(PEEK), rules.RandomResult((rules.HIDDEN,)))
    with pytest.raises(rules.IllegalAction, match="hidden slot"):
        rules.open_slot(s, 2, 5)
    with pytest.raises(rules.IllegalAction, match="non-negative"):
        rules.open_slot(s, 1, -4)
    known = rules.open_slot(s, 1, 5)
    with pytest.raises(rules.IllegalAction, match="hidden slot"):
        rules.open_slot(known, 1, 5)


def test_hidden_values_are_only_accepted_for_private_events() -> None:
    s = rules.new_game(rules.Setup(("The King", "Giga Zaur")))
    with pytest.raises(rules.IllegalAction):
        rules.apply(s, rules.RandomResult((rules.HIDDEN,) * 12))
