"""A hidden deck proven to hold its public cards: commitments, the cut-and-choose proof, openings,
and forgers who try to pass a deck that is not the list."""

from __future__ import annotations

import hashlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kotp2p.net.trust import deck
from kotp2p.net.trust.deck import Deck, check_commitments, check_deck, check_slot
from kotp2p.net.wire import codec

CARDS = (101, 102, 103, 104, 105, 106, 107, 108)
CONTEXT = b"game 1, seat 2, deck 0"
HONEST = Deck.deal(CARDS, hashlib.sha256(b"honest").digest())
HONEST_PROOF = HONEST.prove(CONTEXT)


def _secret(i: int) -> bytes:
    return hashlib.sha256(b"secret %d" % i).digest()


def test_an_honest_deck_passes_and_each_slot_opens_to_its_card() -> None:
    d = HONEST
    assert sorted(d.cards) == sorted(CARDS)
    commitments = d.commitments
    assert check_deck(commitments, CARDS, HONEST_PROOF, CONTEXT) is None
    for slot in range(len(CARDS)):
        card, blind = d.opening(slot)
        assert check_slot(commitments[slot], card, blind) is None
        other = next(c for c in CARDS if c != card)
        assert check_slot(commitments[slot], other, blind) == (
            "the card and blinding do not open the slot's commitment")


def test_the_order_and_the_commitments_hide_the_cards_and_a_restart_makes_them_again() -> None:
    decks = [Deck.deal(CARDS, _secret(i)) for i in range(20)]
    assert len({d.cards for d in decks}) > 15  # secret orders, not the list's
    assert len({c for d in decks for c in d.commitments}) == 20 * len(CARDS)
    again = Deck.deal(CARDS, hashlib.sha256(b"honest").digest())
    assert again == HONEST and again.prove(CONTEXT) == HONEST_PROOF
    reshuffled = Deck.deal(CARDS, hashlib.sha256(b"honest").digest(), generation=1)
    assert not set(reshuffled.commitments) & set(HONEST.commitments)


def test_a_deck_with_a_strong_card_twice_is_refused_before_any_draw() -> None:
    forged = Deck.deal((101, 101, 103, 104, 105, 106, 107, 108), _secret(4))
    problem = check_deck(forged.commitments, CARDS, forged.prove(CONTEXT), CONTEXT)
    assert problem == "the deck proof does not answer the questions its own copies ask"


def test_a_proof_is_bound_to_its_context_and_to_its_commitments() -> None:
    d, proof = HONEST, HONEST_PROOF
    assert check_deck(d.commitments, CARDS, proof, b"game 1, seat 3, deck 0") == (
        "the deck proof does not answer the questions its own copies ask")
    other = Deck.deal(CARDS, _secret(6))
    assert check_deck(other.commitments, CARDS, proof, CONTEXT) is not None


def _forge(cards: tuple[int, ...], claimed: tuple[int, ...], rng: random.Random) -> bytes | None:
    """A forger's proof that a deck of ``cards`` holds ``claimed``: in each round it guesses
    which question comes and makes a copy that answers that one. None when a guess was wrong."""
    n = len(cards)
    blinds = [rng.randrange(1, deck.ORDER) for _ in cards]
    commitments = [deck._commit(c, r) for c, r in zip(cards, blinds, strict=True)]
    references = deck.list_points(claimed)
    guesses = [rng.randrange(2) for _ in range(deck.ROUNDS)]
    copies: list[bytes] = []
    answers: list[codec.Value] = []
    for guess in guesses:
        if guess:  # a true shuffled copy of the forged deck
            seed = rng.randbytes(32)
            order, moves = deck._moves(seed, n)
            copies += [deck._commit(cards[order[k]], (blinds[order[k]] + moves[k]) % deck.ORDER)
                       for k in range(n)]
            answers.append(seed)
        else:  # a fresh deck of the claimed list, unrelated to the commitments
            origin = rng.sample(range(n), n)
            fresh = [rng.randrange(1, deck.ORDER) for _ in range(n)]
            copies += [deck._commit(claimed[o], r) for o, r in zip(origin, fresh, strict=True)]
            answers.append([bytes(origin), b"".join(deck._bytes(r) for r in fresh)])
    if deck._challenge(CONTEXT, references, commitments, copies) != guesses:
        return None
    return codec.pack([commitments, answers])


def test_a_forger_who_guesses_the_questions_passes_once_in_two_to_the_rounds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # With three rounds a forger passes about one try in eight, and each proof it passes with is
    # accepted: the check is as strong as its rounds, and no stronger. With 80 rounds it never
    # passes.
    forged = (101, 101, 103, 104, 105, 106, 107, 108)
    rng = random.Random(7)
    assert all(_forge(forged, CARDS, rng) is None for _ in range(5))
    monkeypatch.setattr(deck, "ROUNDS", 3)
    passed = 0
    for _ in range(240):
        packed = _forge(forged, CARDS, rng)
        if packed is None:
            continue
        commitments, answers = codec.unpack(packed)
        assert check_deck(commitments, CARDS, codec.pack(answers), CONTEXT) is None
        passed += 1
    assert 15 <= passed <= 45  # 30 expected


def test_points_outside_the_prime_order_group_are_refused() -> None:
    d = HONEST
    good = list(d.commitments)
    identity = (1).to_bytes(32, "little")
    order_two = (2**255 - 20).to_bytes(32, "little")  # -1 as y: the point of order 2
    not_canonical = (2**255 - 19 + 1).to_bytes(32, "little")  # y = p + 1
    for bad in (identity, order_two, not_canonical, b"\xff" * 32, b"short"):
        commitments = [*good[:3], bad, *good[4:]]
        assert check_commitments(commitments) == (
            "slot 3: expected a point of ed25519's prime-order group, 32 bytes")
        assert check_deck(commitments, CARDS, HONEST_PROOF, CONTEXT) is not None


def test_a_wrong_number_of_slots_or_answers_is_named() -> None:
    d, proof = HONEST, HONEST_PROOF
    assert check_deck(d.commitments[:7], CARDS, proof, CONTEXT) == (
        "expected 8 slots, one per card of the deck, not 7")
    answers = codec.unpack(proof)
    assert isinstance(answers, list)
    assert check_deck(d.commitments, CARDS, codec.pack(answers[:-1]), CONTEXT) == (
        f"expected a deck proof of {deck.ROUNDS} answers")
    assert check_deck(d.commitments, CARDS, b"\xc1", CONTEXT) is not None
    assert check_slot(d.commitments[0], 0, b"\x00" * 32) == (
        "expected a card number from 1 to 65535")
    assert check_slot(d.commitments[0], 101, b"\xff" * 32) == (
        "expected a blinding scalar of 32 bytes, below the group order")


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_a_damaged_proof_is_refused_with_a_reason_and_never_crashes(data: st.DataObject) -> None:
    proof = bytearray(HONEST_PROOF)
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(proof) - 1))
        proof[i] = data.draw(st.integers(0, 255))
    problem = check_deck(HONEST.commitments, CARDS, bytes(proof), CONTEXT)
    assert (problem is None) == (bytes(proof) == HONEST_PROOF)


def test_a_reshuffled_discard_pile_holds_exactly_the_discarded_cards_in_a_new_order() -> None:
    discarded = (1, 4, 6)
    old = HONEST.commitments
    pile = HONEST.reshuffle(discarded, generation=1)
    assert sorted(pile.cards) == sorted(HONEST.cards[i] for i in discarded)
    references = [old[i] for i in discarded]
    assert not set(pile.commitments) & set(old)  # nobody can tell which slot became which
    proof = pile.prove(CONTEXT)
    assert deck.check_shuffle(references, pile.commitments, proof, CONTEXT) is None
    for slot in range(3):
        assert check_slot(pile.commitments[slot], *pile.opening(slot)) is None
    # A pile that swaps a discarded card for a card still in play is refused.
    kept = next(i for i in range(8) if i not in discarded)
    forged = HONEST.reshuffle((1, 4, kept), generation=1)
    problem = deck.check_shuffle(references, forged.commitments, forged.prove(CONTEXT), CONTEXT)
    assert problem == "the deck proof does not answer the questions its own copies ask"
