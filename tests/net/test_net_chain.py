"""Fair randomness: hash chains, R_k, exactly uniform draws, peeks and slot commitments."""

from __future__ import annotations

import hashlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kotp2p.net.trust.chain import (
    DICE_TAG,
    PEEK_TAG,
    ChainChecker,
    SecretChain,
    SlotDeck,
    check_opening,
    draw,
    link,
    peek_seed,
    position,
    random_seed,
)

GAME = hashlib.sha256(b"g").digest()


def _seed(i: int) -> bytes:
    return hashlib.sha256(i.to_bytes(4, "big")).digest()


def test_each_reveal_hashes_to_the_previous_one_across_re_anchoring() -> None:
    chain = SecretChain(b"s" * 32, seat=2, length=4)
    checker = ChainChecker(2, chain.anchor(0), length=4)
    for k in range(1, 14):
        k_, x, nxt = chain.reveal(k)
        assert (nxt is not None) == (k % 4 == 0)  # the last value of a chain brings the next anchor
        assert checker.check(k_, x, nxt) is None
    assert position(13, 4) == (3, 1)


def test_an_anchor_is_the_same_bytes_as_ever() -> None:
    # (an anchor is in every genesis: a faster way to build a chain must make the same one)
    assert SecretChain(b"s" * 32, seat=2).anchor(0).hex() == (
        "c270794ca1979b98824aec37a45624667ad11a683e5f13565930b2a3d49d4e28")
    assert SecretChain(b"s" * 32, seat=2, tag=PEEK_TAG).anchor(1).hex() == (
        "2aa989d71f74ee29adb4d8e95b2814025600d109f29c60c191afbd18c1a98c40")


@pytest.mark.parametrize("length", [2, 63, 64, 65, 200])
def test_every_value_hashes_to_the_one_before_it_whatever_order_they_are_asked_in(
        length: int) -> None:
    # (a generation keeps one value in 64 and makes the others again: they must be the same)
    chain = SecretChain(b"o" * 32, seat=3, length=length)
    order = list(range(1, 2 * length + 1))
    random.Random(length).shuffle(order)
    values = {k: chain.value(k) for k in order}
    for k in range(1, 2 * length + 1):
        g, j = position(k, length)
        below = chain.anchor(g) if j == 1 else values[k - 1]
        assert link(DICE_TAG, 3, values[k]) == below
    assert chain.anchor(1) != chain.anchor(0) and chain.reveal(length)[2] == chain.anchor(1)


def test_a_seat_starting_play_reuses_the_chains_made_for_its_anchors(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from kotp2p.net.peer import PeerProtocol
    from kotp2p.net.trust import chain as chain_module
    from tests.net.harness import make_table
    from tests.net.toy import ToyEngine

    table = make_table(ToyEngine(), 3, seed=41)  # (the lobby's part: every seat's anchors)

    def walked_again(*args: object) -> list[bytes]:
        raise AssertionError("a chain was built again")

    monkeypatch.setattr(chain_module, "_walk", walked_again)
    proto = PeerProtocol(table.genesis, 1, table.identities[1], table.secrets[1], ToyEngine())
    assert proto.chain.reveal(1)[1] == SecretChain(table.secrets[1], 1).value(1)
    with pytest.raises(AssertionError, match="built again"):
        SecretChain(b"another secret" * 2, seat=1).anchor(0)


def test_a_value_off_the_chain_or_out_of_order_is_refused() -> None:
    chain = SecretChain(b"s" * 32, seat=0, length=8)
    checker = ChainChecker(0, chain.anchor(0), length=8)
    assert "does not hash" in (checker.check(1, b"\x00" * 32, None) or "")
    assert "event 1 expected" in (checker.check(2, chain.value(2), None) or "")
    other_seat = SecretChain(b"s" * 32, seat=1, length=8)
    assert checker.check(1, other_seat.value(1), None) is not None
    assert checker.check(1, chain.value(1), None) is None


def test_a_chain_end_without_the_next_anchor_is_refused() -> None:
    chain = SecretChain(b"s" * 32, seat=0, length=2)
    checker = ChainChecker(0, chain.anchor(0), length=2)
    assert checker.check(1, chain.value(1), None) is None
    assert "anchor" in (checker.check(2, chain.value(2), None) or "")


def test_r_k_depends_on_every_input() -> None:
    vals = [(0, b"\x01" * 32), (1, b"\x02" * 32)]
    base = random_seed(GAME, 5, b"t" * 32, vals)
    assert base != random_seed(GAME, 6, b"t" * 32, vals)
    assert base != random_seed(GAME, 5, b"u" * 32, vals)
    assert base != random_seed(GAME, 5, b"t" * 32, [(0, b"\x01" * 32), (1, b"\x03" * 32)])
    assert base != random_seed(GAME, 5, b"t" * 32, [(0, b"\x01" * 32), (2, b"\x02" * 32)])


def _chi_square(counts: list[int]) -> float:
    expected = sum(counts) / len(counts)
    return sum((c - expected) ** 2 / expected for c in counts)


def test_dice_are_uniform_chi_square() -> None:
    counts = [0] * 6
    for i in range(3000):
        for face in draw(_seed(i), (6,) * 6):
            counts[face] += 1
    # 5 degrees of freedom: 20.5 is the 0.1% critical value.
    assert _chi_square(counts) < 20.5, counts


def test_card_indices_are_uniform_chi_square() -> None:
    counts = [0] * 66
    for i in range(6600):
        counts[draw(_seed(i), (66,))[0]] += 1
    # 65 degrees of freedom: 107.3 is the 0.1% critical value.
    assert _chi_square(counts) < 107.3


def test_large_bounds_use_more_bytes_and_stay_in_range() -> None:
    values = draw(_seed(1), (1, 2, 255, 256, 257, 70000, 2**40))
    assert values[0] == 0
    assert all(0 <= v < b for v, b in zip(values, (1, 2, 255, 256, 257, 70000, 2**40),
                                          strict=True))


@settings(max_examples=100, deadline=None)
@given(
    st.binary(min_size=32, max_size=32),
    st.lists(st.integers(1, 6), min_size=1, max_size=8),
    st.lists(st.integers(1, 6), min_size=1, max_size=8),
)
def test_how_many_dice_are_rolled_never_changes_the_earlier_ones(
    seed: bytes, kept_a: list[int], kept_b: list[int]
) -> None:
    # A keep-set decides how many dice roll; the values already drawn do not move.
    a = draw(seed, (6,) * len(kept_a))
    b = draw(seed, (6,) * len(kept_b))
    n = min(len(a), len(b))
    assert a[:n] == b[:n]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.binary(min_size=32, max_size=32), min_size=2, max_size=6, unique=True),
    st.integers(1, 30),
    st.binary(min_size=32, max_size=32),
    st.binary(min_size=32, max_size=32),
)
def test_a_seats_keep_set_cannot_change_any_other_roll(
    masters: list[bytes], k: int, move_a: bytes, move_b: bytes
) -> None:
    # Seat 0 triggers event k with MOVE a or b (different keep-sets, different ids). Every other
    # event's outcome is fixed by the chains and its own trigger: identical under either choice.
    chains = [SecretChain(m, i, length=16) for i, m in enumerate(masters)]

    def outcomes(trigger_k: bytes) -> list[tuple[int, ...]]:
        out = []
        for j in range(1, 31):
            trigger = trigger_k if j == k else hashlib.sha256(b"trigger %d" % j).digest()
            vals = [(i, c.value(j)) for i, c in enumerate(chains)]
            out.append(draw(random_seed(GAME, j, trigger, vals), (6,) * 6))
        return out

    a, b = outcomes(move_a), outcomes(move_b)
    assert [x for j, x in enumerate(a, 1) if j != k] == [x for j, x in enumerate(b, 1) if j != k]


def test_a_peek_is_private_until_opened_and_then_checkable() -> None:
    peeker = SecretChain(b"p" * 32, seat=1, tag=PEEK_TAG, length=8)
    r_k = random_seed(GAME, 4, b"t" * 32, [(0, b"\x01" * 32), (1, b"\x02" * 32)])
    public = draw(r_k, (60,))
    private = draw(peek_seed(r_k, 1, peeker.value(1)), (60,))
    checker = ChainChecker(1, peeker.anchor(0), tag=PEEK_TAG, length=8)
    assert checker.check(1, peeker.value(1), None) is None  # the opening is checked...
    assert draw(peek_seed(r_k, 1, peeker.value(1)), (60,)) == private  # ...and re-derived
    assert peek_seed(r_k, 1, peeker.value(1)) != r_k and isinstance(public, tuple)


def test_slot_commitments_bind_and_hide() -> None:
    owner = b"k" * 32
    deck = SlotDeck.build(owner, [b"card A", b"card B", b"card A"], secret=b"x" * 32)
    commits = deck.commitments
    assert len(set(commits)) == 3  # equal contents, different salts: nothing leaks
    for i in range(3):
        assert check_opening(owner, commits, *deck.opening(i)) is None
    i, salt, _ = deck.opening(0)
    assert "do not match" in (check_opening(owner, commits, i, salt, b"card B") or "")
    assert "do not match" in (check_opening(owner, commits, 1, salt, b"card A") or "")
    assert "committed to 3" in (check_opening(owner, commits, 7, salt, b"x") or "")


@pytest.mark.parametrize("bad", [0, -1])
def test_bounds_and_event_numbers_are_checked(bad: int) -> None:
    with pytest.raises(ValueError):
        draw(b"s", (bad,))
    with pytest.raises(ValueError):
        position(bad)
