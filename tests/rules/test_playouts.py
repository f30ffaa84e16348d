"""Seeded random playouts: thousands of games over 2-6 players keep every invariant."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kotp2p import rules
from tests.rules.kit import random_input

COSTUMES = [c for c, card in rules.CARDS.items() if card.kind == rules.COSTUME]


def check_invariants(s: rules.State) -> None:
    for seat in range(s.n):
        assert 0 <= s.hp[seat] <= rules.max_hp(s, seat) or not s.alive[seat]
        assert s.energy[seat] >= 0
        assert 0 <= s.stars[seat] <= 20
        if not s.alive[seat]:
            assert s.hp[seat] == 0 and not s.in_tokyo(seat) and s.cards[seat] == ()
    assert s.city == -1 or s.alive[s.city]
    assert s.bay == -1 or s.alive[s.bay]
    assert s.city == -1 or s.city != s.bay
    if s.alive_count() < 5:
        assert s.bay == -1
    if s.is_over:
        assert s.pending is None
    else:
        p = s.pending
        assert isinstance(p, rules.Decision | rules.RandomRequest)
        if isinstance(p, rules.Decision):
            assert s.alive[p.seat]
            assert len(rules.legal_actions(s)) >= 2  # one option is never asked
    cards = [c for c in (*s.market, *s.deck, *s.discard) if c]
    for owned in s.cards:
        cards.extend(owned)
    halloween = "halloween" in s.flags
    if halloween and ("costumes_in",) in s.stack:  # costumes not picked yet: not in the deck
        cards.extend(c for c in COSTUMES if all(c not in owned for owned in s.cards))
    in_play = [c for c, card in rules.CARDS.items() if card.box == "base" or halloween]
    assert sorted(cards) == in_play  # every card in exactly one place


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
