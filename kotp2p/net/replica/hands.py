"""Hidden decks: every seat's committed slots, what the openings showed, and the checks of both.

Power Up!'s Evolutions are such a deck. The engine asks for them through its interface: a
``Turn`` with a ``DeckCall`` commits slots, a ``Chance`` with ``deck_slots`` tells the owner what
slots hold, and ``played_slots`` names the slots a move shows face up.

Theory of operation
-------------------
* A deck is committed by the MOVE that answers its ``DeckCall``. The MOVE carries
  ``['deck', [commitment, ...], proof]`` after its action: one Pedersen commitment per new slot,
  and the proof of :mod:`kotp2p.net.trust.deck` that they hold the public list, or, for a
  reshuffle, exactly the cards of the slots it takes back. A replica checks the proof before
  the engine sees the action. A forged deck is a ``bad-opening`` of that MOVE: it never reaches
  a draw. The proof is bound to the game, the seat and the first slot number, so it cannot be
  used again elsewhere.
* The draw that picks slots is public. The private event that follows tells the owner what the
  picked slots hold. No randomness decides it: the owner's replica reads its own deck, and every
  other replica holds the slots hidden. So the owner cannot choose its cards, and nobody else
  learns them.
* A MOVE that shows slots face up, such as playing an Evolution, carries each slot's opening
  ``['evo', slot, card, blinding]``. A replica checks it against the slot's commitment, fills the
  slot, and only then applies the action. The engine refuses a move naming another card than the
  slot holds, which is ``illegal-move``. A wrong or missing opening is ``bad-opening``.
* The owner opens every slot still closed with an OPEN of the same form: at the game's end, and
  as soon as its monster is out. Until it has, the record is not complete. ``verify`` names
  what is missing. A seat ejected or convicted is excused: nothing public depends on it.
* The owner's secrets come from one 32-byte secret, the slot numbers and the cards. A restarted
  process replays its own MOVEs and makes exactly the same decks again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import lru_cache

from kotp2p.net.trust import (
    Chance,
    Deck,
    DeckCall,
    GameEngine,
    Genesis,
    State,
    Turn,
    check_deck,
    check_shuffle,
    check_slot,
)
from kotp2p.net.wire import DECK_ITEM, SLOT_ITEM, Value

Commit = tuple[DeckCall, tuple[bytes, ...]]
"""A deck a MOVE commits: the engine's call and the commitments."""


@lru_cache(maxsize=64)
def _checked(commitments: tuple[bytes, ...], cards: tuple[int, ...],
             references: tuple[bytes, ...], proof: bytes, context: bytes) -> str | None:
    """A deck proof's check, made once per process: the replicas of the seats one process
    plays, and ``verify``, each check every deck, and a check costs tens of milliseconds."""
    if cards:
        return check_deck(commitments, cards, proof, context)
    return check_shuffle(references, commitments, proof, context)


def deck_secret(chain_secret: bytes, game_id: bytes) -> bytes:
    """The secret a seat's hidden decks in this game come from."""
    return hashlib.sha256(b"kotp2p hidden deck\x00" + chain_secret + game_id).digest()


class Hands:
    """Every seat's hidden deck as one replica knows it, and the checks of its commitments and
    openings.

    Nothing here convicts anyone: a check returns why a MOVE or an OPEN is wrong, and the
    replica turns that into a violation of its envelope.
    """

    def __init__(self, genesis: Genesis, engine: GameEngine, local_seat: int | None,
                 secret: bytes | None) -> None:
        self.engine = engine
        self.game_id = genesis.game_id
        self.local_seat = local_seat
        self.secret = secret if local_seat is not None else None
        self.commitments: list[list[bytes]] = [[] for _ in range(genesis.n)]
        """Seat -> the commitment of each of its slots, by slot number."""
        self.opened: list[dict[int, int]] = [{} for _ in range(genesis.n)]
        """Seat -> slot -> the card its checked opening showed."""
        self.shown_at: list[dict[int, tuple[int, bool]]] = [{} for _ in range(genesis.n)]
        """Seat -> slot -> the step its card became known at, and True if it was played there
        rather than opened in an OPEN."""
        self._cards: list[int] = []
        self._blinds: list[int] = []
        """The local seat's cards and blinding scalars, by slot number."""

    # -- the local seat -------------------------------------------------------------------------

    def _own_deck(self, call: DeckCall) -> Deck:
        assert self.secret is not None
        if call.cards:
            return Deck.deal(call.cards, self.secret, generation=call.first)
        dealt = Deck(tuple(self._cards), tuple(self._blinds), (), (), (), self.secret)
        return dealt.reshuffle(call.slots, call.first)

    def own_items(self, state: State, seat: int, pending: object, action: Value) -> list[Value]:
        """What a MOVE of ``action`` by the local seat carries: its deck's commitment when the
        decision commits one, and the opening of each slot it shows face up."""
        items: list[Value] = []
        if isinstance(pending, Turn) and pending.deck is not None and self.secret is not None:
            deck = self._own_deck(pending.deck)
            proof = deck.prove(self.context(seat, pending.deck.first))
            items.append([DECK_ITEM, list(deck.commitments), proof])
        for j in self.engine.played_slots(state, action):
            if j not in self.opened[seat] and self.knows(j):
                items.append(self.own_opening(j))
        return items

    def own_opening(self, slot: int) -> list[Value]:
        """The local seat's opening of ``slot``: ``['evo', slot, card, blinding]``."""
        return [SLOT_ITEM, slot, self._cards[slot], self._blinds[slot].to_bytes(32, "little")]

    def knows(self, slot: int) -> bool:
        """True when the local seat can open ``slot``."""
        return slot < len(self._cards) and self._cards[slot] > 0

    # -- every seat -----------------------------------------------------------------------------

    def context(self, seat: int, first: int) -> bytes:
        """What a deck's proof is bound to: this game, the seat and the deck's first slot."""
        return (b"kotp2p hidden deck\x00" + self.game_id + seat.to_bytes(1, "big")
                + first.to_bytes(4, "big"))

    def check_move(self, a: int, state: State, pending: object, action: Value,
                   items: Sequence[Value]) -> tuple[State, Commit | None, dict[int, int]] | str:
        """Check the deck items a MOVE by seat ``a`` carries, recording nothing.

        :returns: ``state`` with the slots it opens filled, the deck it commits, and the slots it
            opens with their cards. :meth:`commit` takes the last two. Or it returns why the
            MOVE is wrong."""
        call = pending.deck if isinstance(pending, Turn) else None
        decks = [o for o in items if isinstance(o, list) and o[0] == DECK_ITEM]
        openings = [o for o in items if isinstance(o, list) and o[0] == SLOT_ITEM]
        commit: Commit | None = None
        if call is not None:
            if len(decks) != 1:
                return (f"a MOVE that commits seat {a}'s deck carries one ['deck', commitments, "
                        f"proof], found {len(decks)}")
            _, commitments, proof = decks[0]
            assert isinstance(commitments, list) and isinstance(proof, bytes)  # the schema's
            problem = self._check_deck(a, call, tuple(commitments), proof)
            if problem:
                return f"its deck commitment: {problem}"
            commit = (call, tuple(commitments))
        elif decks:
            return "a deck commitment where the game asks for none"
        need = [j for j in self.engine.played_slots(state, action) if j not in self.opened[a]]
        shown: dict[int, int] = {}
        for o in openings:
            _, j, card, blind = o
            assert isinstance(j, int) and isinstance(card, int) and isinstance(blind, bytes)
            if j not in need or j in shown:
                return f"an opening of slot {j}, which this MOVE does not show face up"
            if j >= len(self.commitments[a]):
                return f"an opening of slot {j}, which seat {a} never committed"
            problem = check_slot(self.commitments[a][j], card, blind)
            if problem:
                return f"its opening of slot {j}: {problem}"
            shown[j] = card
        missing = [j for j in need if j not in shown]
        if missing:
            return (f"shows slot {missing[0]} face up without its opening ['evo', slot, card, "
                    "blinding]")
        for j, card in shown.items():
            state = self.engine.fill_deck(state, a, j, card)
        return state, commit, shown

    def _check_deck(self, a: int, call: DeckCall, commitments: tuple[bytes, ...],
                    proof: bytes) -> str | None:
        context = self.context(a, call.first)
        if call.cards:
            return _checked(commitments, call.cards, (), proof, context)
        held = self.commitments[a]
        if any(j >= len(held) for j in call.slots):
            return f"it takes back slots {list(call.slots)}, and seat {a} has {len(held)}"
        return _checked(commitments, (), tuple(held[j] for j in call.slots), proof, context)

    def commit(self, a: int, commit: Commit | None, shown: dict[int, int], step: int) -> None:
        """Record what :meth:`check_move` accepted of a MOVE, or an answer, by seat ``a`` at
        ``step``."""
        if commit is not None:
            call, commitments = commit
            assert call.first == len(self.commitments[a]), "the engine numbers slots as committed"
            if a == self.local_seat and self.secret is not None:
                deck = self._own_deck(call)  # the same again, after a restart too
                same = deck.commitments == commitments
                self._cards.extend(deck.cards if same else (0,) * len(commitments))
                self._blinds.extend(deck.blinds if same else (0,) * len(commitments))
            self.commitments[a].extend(commitments)
        self.opened[a].update(shown)
        for j in shown:
            self.shown_at[a].setdefault(j, (step, True))

    def resolve(self, state: State, chance: Chance) -> State:
        """Answer a private event that tells its owner the cards of some of its slots.

        Every replica applies it hidden. The owner's replica then fills the slots from its own
        deck."""
        state = self.engine.apply_hidden(state)
        if chance.private_to == self.local_seat and self.secret is not None:
            for j in chance.deck_slots:
                if self.knows(j):
                    state = self.engine.fill_deck(state, chance.private_to, j, self._cards[j])
        return state

    def open(self, a: int, payload: Sequence[Value], step: int) -> str | None:
        """Check and record an OPEN of one of seat ``a``'s slots, at ``step``; None when it is
        right."""
        _, j, card, blind = payload
        assert isinstance(j, int) and isinstance(card, int) and isinstance(blind, bytes)
        if j >= len(self.commitments[a]):
            return f"an opening of slot {j}, which seat {a} never committed"
        if j in self.opened[a]:
            return f"slot {j} was already opened"
        problem = check_slot(self.commitments[a][j], card, blind)
        if problem:
            return f"its opening of slot {j}: {problem}"
        self.opened[a][j] = card
        self.shown_at[a][j] = (step, False)
        return None

    def unopened(self, seat: int) -> list[int]:
        """The slots of ``seat`` committed and not opened yet, in order."""
        opened = self.opened[seat]
        return [j for j in range(len(self.commitments[seat])) if j not in opened]
