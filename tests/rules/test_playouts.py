"""Seeded random playouts: thousands of games over 2-6 players keep every invariant."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kotp2p import rules
from tests.rules.kit import random_input


def check_invariants(s: rules.State) -> None:
    broken = rules.broken_invariants(s)
    assert not broken, f"{broken} in {rules.to_text(s)}"


def random_playout(
    start: rules.State,
    rng: random.Random,
    each: Callable[[rules.State, rules.State, int], None] | None = None,
    limit: int = 20_000,
) -> tuple[list[rules.Action], rules.State]:
    """Play ``start`` to the end with uniform random choices and outcomes; ``each(before,
    after, step)`` runs after every input. Returns the inputs and the final state."""
    s = start
    inputs: list[rules.Action] = []
    for step in range(limit):
        if s.is_over:
            break
        a = random_input(s, rng)
        nxt = rules.apply(s, a)
        if each is not None:
            each(s, nxt, step)
        inputs.append(a)
        s = nxt
    assert s.is_over, "the game did not end"
    return inputs, s


def playout(
    n: int, seed: int, check: bool = True
) -> tuple[rules.State, list[rules.Action], rules.State]:
    start = rules.new_game(rules.Setup(monsters=rules.MONSTERS[:n]))
    texts = {id(start): rules.to_text(start)}

    def each(before: rules.State, after: rules.State, step: int) -> None:
        # ``before`` was printed when it was produced: apply must not have changed it.
        assert rules.to_text(before) == texts.pop(id(before)), "apply mutated its input"
        texts[id(after)] = rules.to_text(after)
        check_invariants(after)

    inputs, end = random_playout(start, random.Random(seed), each if check else None)
    return start, inputs, end


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_playouts_keep_every_invariant(players: int) -> None:
    for seed in range(8):
        playout(players, seed * 10 + players)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_thousands_of_games_end_with_a_consistent_result(players: int) -> None:
    for seed in range(400):
        _, _, end = playout(players, 1000 + seed, check=False)
        check_invariants(end)
        assert all(end.alive[w] for w in end.winners)
        if len(end.winners) != 1 or end.alive_count() > 1:
            assert all(end.stars[w] == 20 for w in end.winners)
        ranks = [seat for group in rules.ranking(end) for seat in group]
        assert sorted(ranks) == list(range(players))


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_round_trips_and_replay_give_equal_digests(players: int, seed: int) -> None:
    start, inputs, end = playout(players, seed, check=False)
    s = start
    for i, a in enumerate(inputs):
        if i % 7 == 0:
            wire = rules.state_to_wire(s)
            assert rules.state_from_wire(wire).digest() == s.digest()
            again = rules.from_text(rules.to_text(s))
            assert again.digest() == s.digest() and again.pending == s.pending
            assert rules.action_from_wire(rules.action_to_wire(a)) == a
        s = rules.apply(s, a)
    assert s.digest() == end.digest()
    # Replaying from a decoded start gives the same game.
    s = rules.state_from_wire(rules.state_to_wire(start))
    for a in inputs:
        s = rules.apply(s, a)
    assert s.digest() == end.digest()


def test_digest_tells_different_positions_apart() -> None:
    start, inputs, _ = playout(3, 5, check=False)
    digests = set()
    s = start
    for a in inputs[:50]:
        digests.add(s.digest())
        s = rules.apply(s, a)
    assert len(digests) == 50


def test_the_invariant_checks_say_what_broke() -> None:
    s = rules.from_text("The King 10/0/0 @city; Giga Zaur 10/0/0 | active=0 phase=buy "
                        "market=heal,tank,energize")
    assert rules.broken_invariants(s) == []
    bad = s.copy()
    bad.energy[1] = -2
    bad.stars[0] = 21
    bad.market = (bad.market[0], bad.market[0], bad.market[2])
    found = rules.broken_invariants(bad)
    assert "seat 1 has -2⚡" in found and "seat 0 has 21★, outside 0..20" in found
    assert any("missing [" in f and "twice [" in f for f in found)
