"""Keep cards about buying and selling.

They are the discounts, the purchase bonuses, Opportunist, Parasitic Tentacles, Made in a Lab and
Metamorph.

Theory of operation
-------------------
Opportunist answers the machine's ``revealed`` windows. Each owner other than the active monster
gets an ``opportunist`` decision, clockwise from the active monster. The active monster can buy the
card in its own buy step. Parasitic Tentacles and Made in a Lab add ``UseCard`` choices to the buy
decision. Metamorph adds a ``sell`` step after buying, in ``after_buy``.

Parasitic Tentacles says "Power cards", so it can buy Halloween's costumes too. BGA lets it buy
Keep cards only. We follow the printed card.

Made in a Lab and hidden information: our deck has no order. Every draw picks uniformly among the
unrevealed cards. So "look at the top card" is a *private* random draw, ``peek``. Its
``RandomRequest.private_to`` is the peeker. Only the peeker's replica learns which card it is. It
keeps it in the hidden slot numbered by the event, ``s.slots[k]``. Every other replica answers with
``HIDDEN`` and holds ``HIDDEN`` there until the slot is opened with ``rules.open_slot``. The card
stays in the deck, whose composition is public and unchanged. The peek lasts for one
``("ask", seat, "lab", slot, card)`` decision, right after it. Its two options do not depend on
the hidden card, so every replica agrees that it is asked. ``UseCard(card, (slot,))`` buys the
peeked card if the peeker can pay for it. The card then becomes public and leaves the deck through
a normal purchase. If the peeker cannot pay, nothing happens. ``Pass`` leaves the card where it
is. Either way the slot is then dropped. The peek is offered only when some card left in the deck
is affordable.

What the other replicas may rely on: ``Pass`` is legal and gives the same state whatever the slot
holds, so it needs no opening. A replica that holds the slot as ``HIDDEN`` refuses ``UseCard`` with
``IllegalAction``. It must open the slot first. In a networked game the MOVE that buys carries the
opening, as ``kotp2p.net.replica.replica`` describes. A passed peek never reaches the public state
again, since a later draw is a fresh uniform pick among the unrevealed cards. So it is opened only
when the game ends.
"""

from __future__ import annotations

from kotp2p.rules.actions import DONE, PASS, Action, Buy, UseCard
from kotp2p.rules.card import COSTUME, KEEP, Card
from kotp2p.rules.cardindex import CARDS as BY_ID
from kotp2p.rules.effects import (
    card_cost,
    gain_energy,
    gain_stars,
    move_card,
    note,
    remove_card,
    set_turn_flag,
    turn_flag,
)
from kotp2p.rules.events import CardBought
from kotp2p.rules.market import buy_card
from kotp2p.rules.registry import DecisionKind, Frames, RandomKind, copies_of, frame_seat
from kotp2p.rules.state import DRAW, HIDDEN, Frame, State

ALIEN_ORIGIN = 2
MEDIA_FRIENDLY = 9
MADE_IN_A_LAB = 25
METAMORPH = 26
OPPORTUNIST = 31
PARASITIC_TENTACLES = 32


def _alien_origin(s: State, seat: int, c: int, bought: int) -> int:
    return -1


def _media_friendly(s: State, seat: int, c: int, bought: int) -> None:
    gain_stars(s, seat, 1, card=c)


# --- Opportunist --------------------------------------------------------------------------------


def _opportunist_window(s: State, seat: int, c: int, revealed: int) -> Frame | None:
    return None if seat == s.active else ("ask", seat, "opportunist", revealed)


def _opportunist_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    seat, card = frame_seat(frame), frame[3]
    assert isinstance(card, int)
    if card in s.market and copies_of(s, seat, OPPORTUNIST) and card_cost(s, seat, card) <= s.energy[seat]:
        return (Buy(card), PASS)
    return ()


def _opportunist_handle(s: State, frame: Frame, action: Action) -> None:
    if type(action) is Buy:
        assert isinstance(action, Buy)
        seat = frame_seat(frame)
        buy_card(s, seat, action.card, card_cost(s, seat, action.card))


# --- Parasitic Tentacles --------------------------------------------------------------------------


def _tentacles_offer(s: State, seat: int, c: int) -> tuple[Action, ...]:
    if c != copies_of(s, seat, PARASITIC_TENTACLES)[0]:
        return ()
    energy = s.energy[seat]
    return tuple(
        UseCard(c, (card,))
        for owner in range(s.n)
        if owner != seat and s.alive[owner]
        for card in sorted(s.cards[owner])
        if BY_ID[card].kind in (KEEP, COSTUME) and card_cost(s, seat, card) <= energy
    )


def _tentacles(s: State, seat: int, c: int, frame: Frame, action: UseCard) -> None:
    card = action.args[0]
    owner = next(t for t in range(s.n) if card in s.cards[t])
    price = card_cost(s, seat, card)
    s.energy[seat] -= price
    note(s, CardBought(seat, card, price))
    gain_energy(s, owner, price, card=c)
    move_card(s, owner, seat, card, bought=True)
    s.stack.append(frame)
    s.stack.append(("bought", seat, card))


# --- Made in a Lab --------------------------------------------------------------------------------


def _printed_cost(card: int) -> int:
    return BY_ID[card].cost


_CHEAPEST: dict[tuple[int, ...], int] = {}  # a pile of cards -> its first cheapest card


def _cheapest(pool: tuple[int, ...]) -> int:
    found = _CHEAPEST.get(pool)
    if found is None:
        if len(_CHEAPEST) >= 256:  # a key is a whole deck: a few hundred bytes each
            _CHEAPEST.clear()
        found = _CHEAPEST[pool] = min(pool, key=_printed_cost)
    return found


def _lab_offer(s: State, seat: int, c: int) -> tuple[Action, ...]:
    if turn_flag(s, f"used.{c}"):
        return ()
    pool = s.deck or s.discard
    if not pool or card_cost(s, seat, _cheapest(pool)) > s.energy[seat]:
        return ()
    return (UseCard(c),)


def _lab(s: State, seat: int, c: int, frame: Frame, action: UseCard) -> None:
    set_turn_flag(s, f"used.{c}", 1)
    s.stack.append(frame)
    s.stack.append(("rand", "peek", seat, c))


def _peek_bounds(s: State, frame: Frame) -> tuple[int, ...]:
    if not s.deck and s.discard:
        s.deck = tuple(sorted(s.discard))
        s.discard = ()
    return (len(s.deck),) if s.deck and s.alive[_peek_seat(frame)] else ()


def _peek_seat(frame: Frame) -> int:
    seat: int = frame[2]
    return seat


def _peek(s: State, frame: Frame, values: tuple[int, ...]) -> None:
    slot = s.k
    s.slots[slot] = HIDDEN if values[0] == HIDDEN else s.deck[values[0]]
    s.stack.append(("ask", _peek_seat(frame), "lab", slot, frame[3]))


def _lab_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    _, _, _, slot, c = frame
    if slot not in s.slots:
        return ()
    return (UseCard(c, (slot,)), PASS)


def _lab_check(s: State, frame: Frame, action: Action) -> bool:
    if action == PASS:
        return True
    slot = frame[3]
    # Buying needs the peeked card: a replica that holds it hidden must open the slot first.
    return action in _lab_legal(s, frame) and s.slots.get(slot, HIDDEN) != HIDDEN


def _lab_handle(s: State, frame: Frame, action: Action) -> None:
    seat, slot = frame_seat(frame), frame[3]
    card = s.slots.pop(slot, HIDDEN)
    if type(action) is UseCard and card != HIDDEN:
        price = card_cost(s, seat, card)
        if price <= s.energy[seat]:
            s.deck = tuple(x for x in s.deck if x != card)
            buy_card(s, seat, card, price)


# --- Metamorph -------------------------------------------------------------------------------------


def _metamorph_window(s: State, seat: int, c: int) -> Frame | None:
    return ("ask", seat, "sell")


def _sell_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    seat = frame_seat(frame)
    mine = copies_of(s, seat, METAMORPH)
    if not mine:
        return ()
    keep = sorted(card for card in s.cards[seat] if BY_ID[card].kind == KEEP)
    return (*(UseCard(mine[0], (card,)) for card in keep), DONE)


def _sell_handle(s: State, frame: Frame, action: Action) -> None:
    if type(action) is UseCard:
        assert isinstance(action, UseCard)
        seat, card = frame_seat(frame), action.args[0]
        remove_card(s, seat, card)
        gain_energy(s, seat, BY_ID[card].cost, card=action.card)
        s.stack.append(frame)


FRAMES: Frames = Frames(
    decisions={
        "opportunist": DecisionKind(_opportunist_legal, _opportunist_handle),
        "lab": DecisionKind(_lab_legal, _lab_handle, _lab_check),
        "sell": DecisionKind(_sell_legal, _sell_handle),
    },
    randoms={
        "peek": RandomKind(_peek_bounds, _peek, private=lambda s, frame: _peek_seat(frame), purpose=DRAW),
    },
)


CARDS: tuple[Card, ...] = (
    Card(
        ALIEN_ORIGIN, "Alien Origin", 3, KEEP, "when buying",
        text="Power cards cost you 1⚡ less.",
        hooks={"cost": _alien_origin},
        worth=4,
    ),
    Card(
        MEDIA_FRIENDLY, "Media-Friendly", 3, KEEP, "when you buy",
        text="Gain 1★ each time you buy a Power card.",
        hooks={"on_buy": _media_friendly},
        worth=4,
    ),
    Card(
        MADE_IN_A_LAB, "Made in a Lab", 2, KEEP, "buy phase",
        text="You may look at the top card of the deck and buy it, or leave it there.",
        hooks={"buy_actions": _lab_offer, "use": _lab},
        worth=2,
    ),
    Card(
        METAMORPH, "Metamorph", 3, KEEP, "end of your turn, after buying",
        text="You may discard any of your Keep cards to gain their full printed cost in ⚡.",
        hooks={"after_buy": _metamorph_window},
        worth=2,
    ),
    Card(
        OPPORTUNIST, "Opportunist", 3, KEEP, "whenever a card is revealed",
        text="Whenever a new Power card is turned face up, you may buy it at once.",
        hooks={"revealed": _opportunist_window},
        worth=3,
    ),
    Card(
        PARASITIC_TENTACLES, "Parasitic Tentacles", 4, KEEP, "buy phase",
        text="You can buy other monsters' Power cards, paying the owner the cost.",
        hooks={"buy_actions": _tentacles_offer, "use": _tentacles},
        worth=4,
    ),
)
