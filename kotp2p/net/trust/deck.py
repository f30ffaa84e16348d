"""A hidden deck that is proven to hold exactly its public cards, before anyone draws from it.

Theory of operation
-------------------
A Power Up! deck is a monster's public list of cards in an order only its owner knows. Each slot
``i`` is a Pedersen commitment ``C_i = m_i*H + r_i*B`` in the prime-order group of ed25519. ``m_i``
is the card's number, ``r_i`` a secret blinding scalar, ``B`` the group's base point and ``H`` a
point hashed to the curve, whose discrete log nobody knows. So a commitment hides its card and
binds its owner to it. Opening slot ``i`` publishes ``m_i`` and ``r_i``.

The owner proves that the slots hold the public list, in some order, without saying which card
is where. In general the proof shows that the slots are some *references*, shuffled and blinded
again: for a new deck the references are ``card*H`` for each card of the public list; for a
reshuffle they are the commitments of the discarded slots. So a reshuffled discard pile holds
exactly the cards that were discarded, and nobody can tell which new slot was which old one.

The proof is a cut-and-choose over ``ROUNDS`` rounds. In round ``j`` the owner makes a shuffled
copy of the slots: ``D_j,k = C_p(k) + s_j,k*B`` for a secret permutation ``p`` and secret scalars
``s``. A challenge bit then asks for one of two answers:

* bit 0: link every ``D_j,k`` to a reference: its index and the scalar ``t`` with
  ``D_j,k = R_index + t*B``. The indices must be a permutation.
* bit 1: give ``p`` and the ``s``. Every ``D_j,k`` must be ``C_p(k)`` moved by ``s_j,k*B``.

Either answer alone says nothing about which slot is which reference. Slots that are not the
references can answer at most one of the two questions in each round, so they pass with a chance
of at most ``2**-ROUNDS``. The bits are the first ``ROUNDS`` bits of a hash of the context, the
references, the commitments and every ``D`` (Fiat-Shamir), so the proof is one message that
anyone can check offline. A forger may try again and again offline, but each try costs a whole
proof and succeeds with a chance of ``2**-80``: after ``2**40`` tries it is still at most
``2**-40``.

The proof does not carry the ``D`` points: the checker makes them again from the answers and
hashes them. A bit-1 answer is a 32-byte seed that gives ``p`` and the ``s``. A bit-0 answer is
the reference indices as bytes and the scalars.

Every secret comes from the owner's secret, the deck's generation and the cards. So a restarted
process makes exactly the same deck, commitments and proof again. A point from a peer is used only
after ``crypto_core_ed25519_is_valid_point`` accepted it: a canonical encoding of a point of the
prime-order subgroup. Scalars are reduced modulo the group order before use.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from nacl import bindings as sodium
from nacl.exceptions import RuntimeError as SodiumError

from kotp2p.net.wire import CodecError, Value, codec

ROUNDS = 80
"""Rounds of the cut-and-choose; a forged deck passes with a chance of ``2**-ROUNDS`` per try."""

ORDER = 2**252 + 27742317777372353535851937790883648493
"""The order of ed25519's prime-order subgroup, called L."""

_H = sodium.crypto_core_ed25519_from_uniform(hashlib.sha256(b"kotp2p deck H").digest())
_base = sodium.crypto_scalarmult_ed25519_base_noclamp
_add = sodium.crypto_core_ed25519_add
_valid = sodium.crypto_core_ed25519_is_valid_point


def _hash(*parts: bytes) -> bytes:
    """SHA-512 over the parts, each prefixed with its length."""
    data = b"".join(len(p).to_bytes(4, "big") + p for p in parts)
    return hashlib.sha512(b"kotp2p deck\x00" + data).digest()


def _scalar(*parts: bytes) -> int:
    """A scalar modulo L from a hash of ``parts``: uniform to within ``2**-259``."""
    return int.from_bytes(_hash(*parts), "little") % ORDER


def _bytes(s: int) -> bytes:
    return s.to_bytes(32, "little")


@lru_cache(maxsize=256)
def _card_point(card: int) -> bytes:
    """``card * H``."""
    return sodium.crypto_scalarmult_ed25519_noclamp(_bytes(card), _H)


def _commit(card: int, blind: int) -> bytes:
    """``card * H + blind * B``."""
    return _add(_card_point(card), _base(_bytes(blind)))


def _shuffle(seed: bytes, n: int) -> list[int]:
    """A permutation of ``range(n)`` from ``seed``, by Fisher-Yates on hashed values."""
    order = list(range(n))
    for i in range(n - 1, 0, -1):
        j = int.from_bytes(_hash(seed, b"swap", i.to_bytes(2, "big")), "little") % (i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def _moves(seed: bytes, n: int) -> tuple[list[int], list[int]]:
    """A round's permutation ``p`` and scalars ``s`` from its seed."""
    return _shuffle(seed, n), [_scalar(seed, b"move", k.to_bytes(2, "big")) for k in range(n)]


def _challenge(context: bytes, references: Sequence[bytes], commitments: Sequence[bytes],
               copies: Sequence[bytes]) -> list[int]:
    """The ``ROUNDS`` challenge bits for these references, commitments and shuffled copies."""
    digest = _hash(context, b"".join(references), b"".join(commitments), b"".join(copies))
    bits = int.from_bytes(digest, "little")
    return [(bits >> j) & 1 for j in range(ROUNDS)]


@dataclass(frozen=True)
class Deck:
    """An owner's deck: the cards in slot order, each slot's blinding scalar, and how the slots
    were made from the references the proof links them to. Secret."""

    cards: tuple[int, ...]
    blinds: tuple[int, ...]
    origin: tuple[int, ...]
    """Slot ``i`` is reference ``origin[i]``, blinded again."""
    offsets: tuple[int, ...]
    """Slot ``i`` is its reference plus ``offsets[i] * B``."""
    references: tuple[bytes, ...]
    """The points the proof links the slots to: the public list's ``card * H``, or the
    commitments of the slots a reshuffle takes."""
    secret: bytes

    @classmethod
    def deal(cls, cards: Sequence[int], secret: bytes, generation: int = 0) -> Deck:
        """Put ``cards``, the monster's public list, in a secret order, from ``secret`` (32
        bytes, kept by the owner)."""
        if not 0 < len(cards) < 256 or any(not 0 < c < 2**16 for c in cards):
            raise ValueError("expected 1 to 255 cards, each numbered 1 to 65535")
        seed = _hash(b"deal", secret, generation.to_bytes(4, "big"), _card_list(cards))
        order = _shuffle(seed, len(cards))
        blinds = tuple(_scalar(seed, b"blind", i.to_bytes(2, "big")) for i in range(len(cards)))
        return cls(tuple(cards[p] for p in order), blinds, tuple(order), blinds,
                   list_points(cards), seed)

    def reshuffle(self, slots: Sequence[int], generation: int) -> Deck:
        """A new deck of the cards in ``slots`` of this one, in a new secret order and blinded
        again: a discard pile shuffled to become the deck. Its proof links it to those slots'
        commitments, so it holds exactly their cards."""
        if not slots or len(set(slots)) != len(slots) or any(
                not 0 <= i < len(self.cards) for i in slots):
            raise ValueError(f"expected distinct slots of this deck, 0 to {len(self.cards) - 1}")
        seed = _hash(b"reshuffle", self.secret, generation.to_bytes(4, "big"),
                     b"".join(i.to_bytes(2, "big") for i in slots))
        order = _shuffle(seed, len(slots))
        offsets = tuple(_scalar(seed, b"blind", i.to_bytes(2, "big")) for i in range(len(slots)))
        old = self.commitments
        return Deck(tuple(self.cards[slots[p]] for p in order),
                    tuple((self.blinds[slots[p]] + u) % ORDER for p, u in zip(order, offsets,
                                                                               strict=True)),
                    tuple(order), offsets, tuple(old[i] for i in slots), seed)

    @property
    def commitments(self) -> tuple[bytes, ...]:
        """One 32-byte commitment per slot, in slot order: public."""
        return tuple(_commit(c, r) for c, r in zip(self.cards, self.blinds, strict=True))

    def opening(self, slot: int) -> tuple[int, bytes]:
        """``(card, blinding)`` of ``slot``: what opening it publishes."""
        return self.cards[slot], _bytes(self.blinds[slot])

    def prove(self, context: bytes) -> bytes:
        """The proof that the commitments are the references shuffled and blinded again, bound
        to ``context``.

        ``context`` names the game, the seat and the deck, so a proof cannot be used again for
        another deck."""
        n = len(self.cards)
        commitments = self.commitments
        rounds = []
        copies: list[bytes] = []
        for j in range(ROUNDS):
            seed = _hash(self.secret, b"round", j.to_bytes(2, "big"))[:32]
            order, moves = _moves(seed, n)
            copies += [_add(commitments[order[k]], _base(_bytes(moves[k]))) for k in range(n)]
            rounds.append((order, moves, seed))
        bits = _challenge(context, self.references, commitments, copies)
        answers: list[Value] = []
        for (order, moves, seed), bit in zip(rounds, bits, strict=True):
            if bit:
                answers.append(seed)
            else:
                answers.append([bytes(self.origin[p] for p in order),
                                b"".join(_bytes((self.offsets[p] + m) % ORDER)
                                         for p, m in zip(order, moves, strict=True))])
        return codec.pack(answers)


def _card_list(cards: Sequence[int]) -> bytes:
    return b"".join(c.to_bytes(2, "big") for c in cards)


def list_points(cards: Sequence[int]) -> tuple[bytes, ...]:
    """The references of a deck dealt from the public list ``cards``: ``card * H`` each."""
    return tuple(_card_point(c) for c in cards)


def check_commitments(commitments: Sequence[bytes]) -> str | None:
    """None when every commitment is a point of the group, else what is wrong."""
    for i, c in enumerate(commitments):
        if not isinstance(c, bytes) or len(c) != 32 or not _valid(c):
            return f"slot {i}: expected a point of ed25519's prime-order group, 32 bytes"
    return None


def check_deck(commitments: Sequence[bytes], cards: Sequence[int], proof: bytes,
               context: bytes) -> str | None:
    """None when ``proof`` shows that ``commitments`` hold exactly ``cards`` in some order, else
    the reason it does not."""
    if not 0 < len(cards) < 256 or any(not 0 < c < 2**16 for c in cards):
        return "expected a deck of 1 to 255 cards, each numbered 1 to 65535"
    return check_shuffle(list_points(cards), commitments, proof, context)


def check_shuffle(references: Sequence[bytes], commitments: Sequence[bytes], proof: bytes,
                  context: bytes) -> str | None:
    """None when ``proof`` shows that ``commitments`` are ``references`` in some order, each
    blinded again, else the reason it does not. ``references`` were checked before."""
    problem = check_commitments(commitments)
    if problem is not None:
        return problem
    n = len(references)
    if len(commitments) != n:
        return f"expected {n} slots, one per card of the deck, not {len(commitments)}"
    try:
        answers = codec.unpack(proof)
    except CodecError as exc:
        return f"the deck proof: {exc}"
    if not isinstance(answers, list) or len(answers) != ROUNDS:
        return f"expected a deck proof of {ROUNDS} answers"
    copies: list[bytes] = []
    shown: list[int] = []
    everyone = list(range(n))
    try:
        for j, answer in enumerate(answers):
            if isinstance(answer, bytes) and len(answer) == 32:
                order, moves = _moves(answer, n)
                copies += [_add(commitments[order[k]], _base(_bytes(moves[k]))) for k in range(n)]
                shown.append(1)
                continue
            if not (isinstance(answer, list) and len(answer) == 2
                    and isinstance(answer[0], bytes) and len(answer[0]) == n
                    and isinstance(answer[1], bytes) and len(answer[1]) == 32 * n):
                return (f"round {j}: expected a 32-byte seed, or an order of {n} bytes and {n} "
                        "scalars")
            origin = list(answer[0])
            if sorted(origin) != everyone:
                return f"round {j}: the shuffled copy is not the deck's cards in some order"
            moves = [int.from_bytes(answer[1][32 * k:32 * k + 32], "little") for k in range(n)]
            if any(m >= ORDER for m in moves):
                return f"round {j}: expected scalars below the group order"
            copies += [_add(references[o], _base(_bytes(m))) for o, m in zip(origin, moves,
                                                                           strict=True)]
            shown.append(0)
    except SodiumError:
        return "the deck proof makes a point at infinity"
    if _challenge(context, references, commitments, copies) != shown:
        return "the deck proof does not answer the questions its own copies ask"
    return None


def check_slot(commitment: bytes, card: int, blind: bytes) -> str | None:
    """None when ``(card, blind)`` opens ``commitment``, else the reason it does not."""
    if len(blind) != 32 or int.from_bytes(blind, "little") >= ORDER:
        return "expected a blinding scalar of 32 bytes, below the group order"
    if not 0 < card < 2**16:
        return "expected a card number from 1 to 65535"
    try:
        made = _commit(card, int.from_bytes(blind, "little"))
    except SodiumError:
        return "the opening makes a point at infinity"
    if made != commitment:
        return "the card and blinding do not open the slot's commitment"
    return None
