"""The engine's shortcuts for the dice-rolling cycle change nothing: with them turned off,
every input of a random game gives the very same state, pending input and legal actions, and
the same inputs are refused."""

from __future__ import annotations

import random

import pytest

from kotp2p import rules
from kotp2p.rules import basics
from tests.rules.test_cards_keep_playouts import dealt_start
from tests.rules.test_playouts import random_playout


def generic_apply(state: rules.State, action: rules.Action) -> rules.State:
    """``apply`` with the shortcuts turned off."""
    basics.SHORTCUTS = False
    try:
        return rules.apply(state, action)
    finally:
        basics.SHORTCUTS = True


def same(a: rules.State, b: rules.State) -> bool:
    return (
        rules.state_to_wire(a) == rules.state_to_wire(b)
        and a.pending == b.pending
        and type(a.pending) is type(b.pending)
        and rules.legal_actions(a) == rules.legal_actions(b)
    )


def play_and_compare(start: rules.State, rng: random.Random) -> int:
    """Play a random game with the shortcuts on; at every step apply the same input with them
    off and compare. Returns how many inputs took a shortcut's path."""
    inputs, _ = random_playout(start, rng)
    s = start
    rolls = 0
    for a in inputs:
        fast = rules.apply(s, a)
        slow = generic_apply(s, a)
        assert same(fast, slow), f"the shortcut changed the result of {a!r} at {rules.to_text(s)}"
        rolls += type(a) in (rules.Reroll, rules.RandomResult)
        s = fast
    return rolls


@pytest.mark.parametrize("players", [2, 4, 6])
def test_shortcuts_give_the_same_states_in_base_games(players: int) -> None:
    for seed in range(6):
        start = rules.new_game(rules.Setup(monsters=rules.MONSTERS[:players]))
        assert play_and_compare(start, random.Random(seed)) > 50


@pytest.mark.parametrize("players", [2, 4, 6])
def test_shortcuts_give_the_same_states_with_keep_cards_in_play(players: int) -> None:
    for seed in range(6):
        rng = random.Random(100 + seed)
        play_and_compare(dealt_start(players, rng), rng)


def test_shortcuts_refuse_what_the_generic_path_refuses() -> None:
    s = rules.from_text("The King 10/0/0; Giga Zaur 10/0/0 | active=0 phase=roll dice=123ehs rolls=1")
    bad: list[object] = [
        rules.Reroll((0, 0)),
        rules.Reroll((6,)),
        rules.Reroll(()),
        rules.Reroll([0]),  # type: ignore[arg-type]
        rules.RandomResult((1, 2)),
    ]
    for action in bad:
        with pytest.raises(rules.IllegalAction) as fast:
            rules.apply(s, action)  # type: ignore[arg-type]
        with pytest.raises(rules.IllegalAction) as slow:
            generic_apply(s, action)  # type: ignore[arg-type]
        assert str(fast.value) == str(slow.value)
    rolled = rules.apply(s, rules.Reroll((0,)))
    assert isinstance(rolled.pending, rules.RandomRequest)
    for values in [(6,), (0, 1), (-1,)]:
        with pytest.raises(rules.IllegalAction) as fast:
            rules.apply(rolled, rules.RandomResult(values))
        with pytest.raises(rules.IllegalAction) as slow:
            generic_apply(rolled, rules.RandomResult(values))
        assert str(fast.value) == str(slow.value)
    # That was the last roll: the dice resolve and the turn goes on, either way.
    last = rules.apply(rolled, rules.RandomResult((3,)))
    assert same(last, generic_apply(rolled, rules.RandomResult((3,))))
    assert last.rolls_left == 0 and last.pending != rules.Decision(0, "roll")
