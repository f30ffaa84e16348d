"""Power Up!'s Evolution decks: the first draw, the draw after 3 hearts, the reshuffle, and hands
that no other replica can see."""

from __future__ import annotations

import random

import pytest

from kotp2p import rules
from tests.rules.kit import asked, past_wounds, random_input
from tests.rules.test_playouts import check_invariants

KRAKEN = rules.evolution_deck("Kraken")


def power_up_game(n: int, *, halloween: bool = False, first: int = 0) -> rules.State:
    """A new game whose seats have committed their decks: the first draw is pending."""
    s = new_power_up_game(n, halloween=halloween, first=first)
    while rules.deck_call(s) is not None:
        s = rules.apply(s, rules.PASS)
    return s


def new_power_up_game(n: int, *, halloween: bool = False, first: int = 0) -> rules.State:
    monsters = rules.MONSTERS[first : first + n]
    return rules.new_game(rules.Setup(
        monsters=monsters, options=rules.Options(power_up=True, halloween=halloween)))


def keep(slot: int) -> rules.KeepEvolution:
    return rules.KeepEvolution(slot)


def pending_random(s: rules.State) -> rules.RandomRequest:
    p = s.pending
    assert isinstance(p, rules.RandomRequest), f"expected a random event, found {p}"
    return p


def hidden_answer(s: rules.State) -> rules.RandomResult:
    return rules.RandomResult((rules.HIDDEN,) * len(pending_random(s).bounds))


def test_every_deck_is_committed_before_the_first_draw() -> None:
    s = new_power_up_game(3, first=8)  # King Kong, Pandakaï, Cyber Bunny
    for seat in range(3):
        assert asked(s) == (seat, "evodeck") and rules.legal_actions(s) == (rules.PASS,)
        assert rules.deck_call(s) == (seat, 0, rules.evolution_deck(s.monsters[seat]), ())
        s = rules.apply(s, rules.PASS)
    assert rules.deck_call(s) is None and pending_random(s).bounds == (8, 7)


def test_each_seat_draws_two_keeps_one_and_puts_the_other_back_before_the_roll_off() -> None:
    s = power_up_game(2, first=8)  # King Kong and Pandakaï
    pick = pending_random(s)
    assert pick.private_to == -1 and pick.bounds == (8, 7)  # public: which slots, of 8
    s = rules.apply(s, rules.RandomResult((2, 2)))  # slots 2 and 3
    cards = pending_random(s)
    assert cards.private_to == 0 and cards.bounds == (8, 7)  # private: what they hold
    assert rules.drawn_slots(s) == (2, 3)
    s = rules.apply(s, rules.RandomResult((0, 6)))
    kong = rules.evolution_deck("King Kong")
    assert rules.legal_actions(s) == (keep(2), keep(3)) and asked(s) == (0, "evolve")
    s = rules.apply(s, keep(3))
    assert rules.hand_of(s, 0) == ((3, kong[7]),)
    assert "evo.0.2" not in s.flags  # slot 2 is back in the deck
    s = rules.apply(s, rules.RandomResult((0, 0)))
    s = rules.apply(s, rules.RandomResult((1, 1)))
    s = rules.apply(s, keep(0))
    assert len(rules.hand_of(s, 1)) == 1
    assert pending_random(s).purpose == rules.ROLLOFF
    assert rules.from_text(rules.to_text(s)) == s
    assert rules.to_text(rules.from_text(rules.to_text(s))) == rules.to_text(s)


def test_another_replica_sees_which_slots_were_drawn_and_kept_but_not_their_cards() -> None:
    s = rules.apply(power_up_game(2), rules.RandomResult((5, 0)))
    mine = rules.apply(rules.apply(s, rules.RandomResult((3, 4))), keep(5))
    theirs = rules.apply(rules.apply(s, hidden_answer(s)), keep(5))
    assert mine.digest() == theirs.digest()
    assert rules.hand_of(theirs, 0) == ((5, rules.HIDDEN),)
    assert rules.hand_of(mine, 0)[0][1] in rules.evolution_deck("Alienoid")
    assert rules.legal_actions(mine) == rules.legal_actions(theirs)


def _at_resolve(dice: str, *, city: str = "") -> rules.State:
    """Kraken (seat 0) with Healing Rain in hand about to resolve ``dice``. The King is in Tokyo
    unless Kraken is."""
    king = "" if city else "@city"
    return rules.from_text(
        f"Kraken 5/0/10 {city} ; The King 10/0/0 {king} | active=0 turn=3 phase=resolve "
        f"dice={dice} "
        f"market=heal,energize,jetfighters "
        f"flags=powerup:1,evo.n.0:8,evo.n.1:8,evo.0.0:2,evo.1.4:2 slots=-1:{KRAKEN[0]},-1005:?")


def test_three_hearts_draw_two_keep_one_and_discard_the_other_closed() -> None:
    s = rules.apply(_at_resolve("hhh123"), rules.RandomResult((0, 0)))  # slots 1 and 2
    assert s.hp[0] == 8 and asked(s) is None  # the hearts healed first
    s = rules.apply(s, rules.RandomResult((4, 0)))
    assert rules.legal_actions(s) == (keep(1), keep(2))
    s = rules.apply(s, keep(2))
    assert [slot for slot, _ in rules.hand_of(s, 0)] == [0, 2]
    assert s.flags["evo.0.1"] == 3  # discarded, closed
    assert asked(s) == (0, "buy")


def test_fewer_than_three_hearts_draw_nothing_and_tokyo_does_not_stop_a_draw() -> None:
    s = _at_resolve("hh1123")
    assert asked(s) == (0, "buy") and s.hp[0] == 7
    s = past_wounds(_at_resolve("hhhs23", city="@city"))
    assert s.hp[0] == 5 and pending_random(s).bounds == (7, 6)  # no healing in Tokyo, a draw


def test_an_empty_deck_takes_back_the_discard_under_new_slot_numbers() -> None:
    flags = ",".join(
        [*(f"evo.0.{j}:3" for j in range(6)), "evo.0.6:2", "evo.n.0:8", "evo.n.1:8", "powerup:1"])
    slots = ",".join(f"-{j + 1}:{KRAKEN[j]}" for j in range(7))
    s = rules.from_text(
        f"Kraken 5/0/0 ; The King 10/0/0 | active=0 turn=3 phase=resolve dice=hhh123 "
        f"market=heal,energize,jetfighters flags={flags} slots={slots}")
    assert pending_random(s).bounds == (1,)  # the last card of the deck first
    s = rules.apply(s, rules.RandomResult((0,)))
    assert pending_random(s).bounds == (1,) and pending_random(s).private_to == 0
    s = rules.apply(s, rules.RandomResult((0,)))  # its owner learns it: the only one left
    assert rules.known_card(s, 0, 7) == KRAKEN[7]
    assert asked(s) == (0, "evodeck")  # the owner commits the new order before the pick
    assert rules.deck_call(s) == (0, 8, (), (0, 1, 2, 3, 4, 5))
    s, seen = _events(s, rules.PASS)
    assert rules.EvolutionsShuffled(0, (0, 1, 2, 3, 4, 5), 8) in seen
    assert pending_random(s).bounds == (6,)  # then one of the six shuffled back
    s = rules.apply(s, rules.RandomResult((5,)))
    assert s.flags["evo.0.7"] == 1 and s.flags["evo.0.13"] == 1
    s = rules.apply(s, rules.RandomResult((1,)))
    assert rules.known_card(s, 0, 13) == KRAKEN[1]
    assert rules.legal_actions(s) == (keep(7), keep(13))
    check_invariants(s)


def _events(s: rules.State, a: rules.Action) -> tuple[rules.State, list[rules.Event]]:
    found: list[rules.Event] = []
    return rules.apply(s, a, events=found), found


def test_every_monster_has_a_deck_and_power_up_has_its_own_engine_id() -> None:
    base, powered = rules.engine_id(rules.Options()), rules.engine_id(rules.Options(power_up=True))
    both = rules.engine_id(rules.Options(power_up=True, halloween=True))
    assert len({base, powered, both, rules.engine_id(rules.Options(halloween=True))}) == 4
    assert len(rules.MONSTERS) == 12 and all(len(rules.evolution_deck(m)) == 8
                                             for m in rules.MONSTERS)


@pytest.mark.parametrize(("n", "halloween"), [(2, False), (3, True), (4, False), (6, True)])
def test_random_power_up_games_keep_every_invariant_and_a_replica_blind_to_hands_agrees(
        n: int, halloween: bool) -> None:
    """Another seat's replica gets ``HIDDEN`` for every private event. Its state hashes the same
    at every step, and the same inputs rebuild the game."""
    played = 0
    for seed in range(6 if n < 6 else 3):
        rng = random.Random(n * 100 + seed)
        first = rng.randrange(len(rules.MONSTERS) - n + 1)
        full = blind = power_up_game(n, halloween=halloween, first=first)
        inputs: list[rules.Action] = []
        while not full.is_over:
            a = random_input(full, rng)
            p = full.pending
            private = isinstance(p, rules.RandomRequest) and p.private_to >= 0
            b = hidden_answer(full) if private else a
            played += isinstance(a, rules.PlayEvolution)
            before, full = full, rules.apply(full, a)
            try:
                blind = rules.apply(blind, b)
            except rules.IllegalAction:  # a move that needs a peek: its owner opens it first
                for k, v in before.slots.items():
                    if blind.slots.get(k) == rules.HIDDEN and k > 0:
                        blind = rules.open_slot(blind, k, v)
                blind = rules.apply(blind, b)
            check_invariants(full)
            check_invariants(blind)
            assert blind.digest() == full.digest()
            if len(inputs) % 16 == 0 and isinstance(full.pending, rules.Decision):
                assert rules.from_text(rules.to_text(full)) == full  # a window survives a file
            inputs.append(a)
        assert any(k < 0 for k in full.slots), "some Evolution was drawn"
        again = power_up_game(n, halloween=halloween, first=first)
        for a in inputs:
            again = rules.apply(again, a)
        assert rules.to_text(again) == rules.to_text(full)
        assert rules.from_text(rules.to_text(full)) == full
    assert played, "some Evolution was played"
