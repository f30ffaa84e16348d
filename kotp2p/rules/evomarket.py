"""The effects of Power Up!'s Evolutions that buy, reveal or take Power cards.

Miraculous Catch reveals a card of the discard pile at random: a public random event, since the
pile is face up and the pick is uniform. Superior Alien Technology buys Keep cards for half their
cost, and each card bought so carries a UFO token, kept in the flag ``ufo.<seat>.<card>``: at the
start of its owner's turn one die is rolled for each, and a ✸ discards that card. Bobbing for
Apples buys for 2⚡ less, and a step beneath the purchase looks at the card that refilled the
market: an odd cost sends the card bought back to the discard pile and refunds its price.
Play with Your Food holds back a smash on a monster in Tokyo until its owner chose to soften it.

Deep Dive looks at 3 cards of the deck, as Made in a Lab looks at one: the deck has no order, so
each look is a private random draw among the cards not yet looked at, which only the diver's
replica learns, in the hidden slot of that event. The diver then names the slot it puts in play,
and the net layer opens the looks its MOVE needs. The other two stay in the deck.
"""

from __future__ import annotations

from kotp2p.rules.actions import PASS, Action, UseCard
from kotp2p.rules.card import KEEP
from kotp2p.rules.cardindex import CARDS
from kotp2p.rules.dice import FACES, SMASH
from kotp2p.rules.effects import (
    card_cost,
    deal_damage,
    gain_energy,
    gain_stars,
    lose_energy,
    lose_stars,
    note,
    remove_card,
    set_turn_flag,
    take_card,
    turn_flag,
)
from kotp2p.rules.events import CardEffect, CardRevealed
from kotp2p.rules.market import buy_card
from kotp2p.rules.registry import DecisionKind, Frames, RandomKind, frame_seat
from kotp2p.rules.state import CARD_ROLL, DRAW, HIDDEN, Frame, State

MIRACULOUS_CATCH = 1012
SUPERIOR_ALIEN_TECHNOLOGY = 1028
PLAY_WITH_YOUR_FOOD = 1035
BOBBING_FOR_APPLES = 1085
UFO_MAX = 3
"""The UFO tokens Superior Alien Technology may have out at a time."""


def _once(s: State, c: int) -> bool:
    return not turn_flag(s, f"used.{c}")


# --- Miraculous Catch ---------------------------------------------------------------------------


def catch_offer(s: State, seat: int, c: int) -> tuple[Action, ...]:
    """Miraculous Catch in the buy step: once a turn, while the discard pile holds a card."""
    return (UseCard(c),) if s.discard and _once(s, c) else ()


def catch(s: State, seat: int, c: int, frame: Frame, action: UseCard) -> None:
    """Reveal a card of the discard pile at random; its owner may buy it for 1⚡ less."""
    set_turn_flag(s, f"used.{c}", 1)
    s.stack.append(frame)
    s.stack.append(("rand", "catch", seat))


def _catch_bounds(s: State, frame: Frame) -> tuple[int, ...]:
    return (len(s.discard),) if s.discard else ()


def _caught(s: State, frame: Frame, values: tuple[int, ...]) -> None:
    seat, card = frame[2], s.discard[values[0]]
    note(s, CardRevealed(card, -1))
    s.stack.append(("ask", seat, "catch", card))


def _catch_price(s: State, seat: int, card: int) -> int:
    return max(0, card_cost(s, seat, card) - 1)


def _catch_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    seat, card = frame_seat(frame), frame[3]
    if _catch_price(s, seat, card) > s.energy[seat]:
        return ()
    return (UseCard(MIRACULOUS_CATCH, (card,)), PASS)


def _catch_handle(s: State, frame: Frame, action: Action) -> None:
    if type(action) is UseCard:
        seat, card = frame_seat(frame), frame[3]
        i = s.discard.index(card)
        s.discard = s.discard[:i] + s.discard[i + 1:]
        buy_card(s, seat, card, _catch_price(s, seat, card))


# --- Superior Alien Technology ------------------------------------------------------------------


def _ufo_key(seat: int, card: int) -> str:
    return f"ufo.{seat}.{card}"


def _ufo_cards(s: State, seat: int) -> list[int]:
    return sorted(c for c in s.cards[seat] if _ufo_key(seat, c) in s.flags)


def _half_price(s: State, seat: int, card: int) -> int:
    return (card_cost(s, seat, card) + 1) // 2


def ufo_offer(s: State, seat: int, c: int) -> tuple[Action, ...]:
    """The Keep cards of the market ``seat`` may buy at half their cost, while it has a UFO
    token left."""
    if len(_ufo_cards(s, seat)) >= UFO_MAX:
        return ()
    return tuple(UseCard(c, (m,)) for m in s.market
                 if m and CARDS[m].kind == KEEP and _half_price(s, seat, m) <= s.energy[seat])


def ufo_buy(s: State, seat: int, c: int, frame: Frame, action: UseCard) -> None:
    """Buy a Keep card at half its cost, with a UFO token on it."""
    card = action.args[0]
    s.flags[_ufo_key(seat, card)] = 1
    s.stack.append(frame)
    buy_card(s, seat, card, _half_price(s, seat, card))


def ufo_check(s: State, seat: int, c: int) -> None:
    """At the start of its owner's turn, one die for each card with a UFO token."""
    for key in [k for k in s.flags if k.startswith(f"ufo.{seat}.")]:
        if int(key.rsplit(".", 1)[1]) not in s.cards[seat]:
            del s.flags[key]  # the card left its owner some other way
    if _ufo_cards(s, seat):
        s.stack.append(("rand", "ufo", seat))


def _ufo_bounds(s: State, frame: Frame) -> tuple[int, ...]:
    return (FACES,) * len(_ufo_cards(s, frame[2]))


def _ufo_roll(s: State, frame: Frame, values: tuple[int, ...]) -> None:
    seat = frame[2]
    for card, face in zip(_ufo_cards(s, seat), values, strict=True):
        if face == SMASH:
            del s.flags[_ufo_key(seat, card)]
            note(s, CardEffect(seat, SUPERIOR_ALIEN_TECHNOLOGY))
            remove_card(s, seat, card)


# --- Bobbing for Apples -------------------------------------------------------------------------


def _apples_price(s: State, seat: int, card: int) -> int:
    return max(0, card_cost(s, seat, card) - 2)


def apples_offer(s: State, seat: int, c: int) -> tuple[Action, ...]:
    """Once a turn, any card of the market for 2⚡ less."""
    if not _once(s, c):
        return ()
    return tuple(UseCard(c, (m,)) for m in s.market
                 if m and _apples_price(s, seat, m) <= s.energy[seat])


def apples_buy(s: State, seat: int, c: int, frame: Frame, action: UseCard) -> None:
    """Buy for 2⚡ less; the card that refills its place decides whether the purchase holds."""
    set_turn_flag(s, f"used.{c}", 1)
    card = action.args[0]
    price = _apples_price(s, seat, card)
    s.stack.append(frame)
    s.stack.append(("apples", seat, card, s.market.index(card), price))
    buy_card(s, seat, card, price)


def _apples_check(s: State, frame: Frame) -> None:
    _, seat, card, slot, price = frame
    refill = s.market[slot]
    if refill and CARDS[refill].cost % 2 and card in s.cards[seat]:
        note(s, CardEffect(seat, BOBBING_FOR_APPLES))
        remove_card(s, seat, card)
        gain_energy(s, seat, price, bonus=False, card=BOBBING_FOR_APPLES)


def purchase_price(s: State, seat: int, action: UseCard) -> int | None:
    """What ``seat`` pays for the card ``action`` buys through one of these Evolutions; None if
    it buys nothing."""
    if not action.args:
        return None
    prices = {MIRACULOUS_CATCH: _catch_price, SUPERIOR_ALIEN_TECHNOLOGY: _half_price,
              BOBBING_FOR_APPLES: _apples_price}
    price = prices.get(action.card)
    return None if price is None else price(s, seat, action.args[0])


# --- Deep Dive ---------------------------------------------------------------------------------

DEEP_DIVE = 1013
DIVE_CARDS = 3
"""The cards of the deck Deep Dive looks at."""


def _viewer(frame: Frame) -> int:
    seat: int = frame[2]
    return seat


def dive_wanted(s: State, seat: int, c: int) -> bool:
    """Deep Dive needs a card to look at."""
    return bool(s.deck or s.discard)


def deep_dive(s: State, seat: int, c: int) -> None:
    """Look at cards of the deck, each a private draw only ``seat`` learns; put one in play."""
    if not s.deck and s.discard:
        s.deck = tuple(sorted(s.discard))
        s.discard = ()
    count = min(DIVE_CARDS, len(s.deck))
    if count:
        s.stack.append(("ask", seat, "dive", s.k + 1, count))
        s.stack.extend(("rand", "dive", seat, i) for i in reversed(range(count)))


def _dive_bounds(s: State, frame: Frame) -> tuple[int, ...]:
    return (len(s.deck) - frame[3],)


def _dive_look(s: State, frame: Frame, values: tuple[int, ...]) -> None:
    """One card looked at: it stays in the deck, in a slot only its viewer's replica fills."""
    i = frame[3]
    if values[0] == HIDDEN:
        s.slots[s.k] = HIDDEN
        return
    seen = {s.slots.get(s.k - j, HIDDEN) for j in range(1, i + 1)}
    rest = list(s.deck)
    for c in seen:
        if c in rest:
            rest.remove(c)
    s.slots[s.k] = rest[values[0]]


def _dive_keys(frame: Frame) -> range:
    return range(frame[3], frame[3] + frame[4])


def _dive_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    return tuple(UseCard(DEEP_DIVE, (k,)) for k in _dive_keys(frame))


def _dive_check(s: State, frame: Frame, action: Action) -> bool:
    # Putting a card in play needs its face: a replica that holds it hidden needs it opened.
    return (action in _dive_legal(s, frame) and isinstance(action, UseCard)
            and s.slots.get(action.args[0], HIDDEN) != HIDDEN)


def _dive_handle(s: State, frame: Frame, action: Action) -> None:
    assert isinstance(action, UseCard)
    seat = frame_seat(frame)
    card = s.slots.get(action.args[0], HIDDEN)
    for k in _dive_keys(frame):
        s.slots.pop(k, None)  # the others stay in the deck, which has no order
    if card == HIDDEN or card not in s.deck:
        return
    i = s.deck.index(card)
    s.deck = s.deck[:i] + s.deck[i + 1:]
    note(s, CardRevealed(card, -1))
    take_card(s, seat, card, bought=False)
    s.stack.append(("bought", seat, card))


# --- Play with Your Food ------------------------------------------------------------------------


def food_offer(s: State, seat: int, c: int, smashes: int, hits: dict[int, int],
               extra: dict[int, int]) -> None:
    """Hold back each smash of 2♥ or more on a monster in Tokyo: its owner chooses first."""
    for t in sorted(hits, reverse=True):
        if hits[t] >= 2 and s.in_tokyo(t):
            s.stack.append(("ask", seat, "food", t, hits.pop(t)))


def _food_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    return (UseCard(PLAY_WITH_YOUR_FOOD, (frame[3],)), PASS) if s.alive[frame[3]] else ()


def _food_handle(s: State, frame: Frame, action: Action) -> None:
    seat, target, amount = frame_seat(frame), frame[3], frame[4]
    if type(action) is UseCard:
        amount -= 2
        if s.stars[target]:
            lose_stars(s, target, 1, card=PLAY_WITH_YOUR_FOOD)
            gain_stars(s, seat, 1, card=PLAY_WITH_YOUR_FOOD)
        if s.energy[target]:
            lose_energy(s, target, 1, card=PLAY_WITH_YOUR_FOOD)
            gain_energy(s, seat, 1, bonus=False, card=PLAY_WITH_YOUR_FOOD)
    if amount > 0 and s.alive[target]:
        deal_damage(s, seat, {target: amount}, smash=True)


FRAMES: Frames = Frames(
    steps={"apples": _apples_check},
    decisions={
        "catch": DecisionKind(_catch_legal, _catch_handle),
        "food": DecisionKind(_food_legal, _food_handle),
        "dive": DecisionKind(_dive_legal, _dive_handle, _dive_check),
    },
    randoms={
        "catch": RandomKind(_catch_bounds, _caught, purpose=DRAW),
        "ufo": RandomKind(_ufo_bounds, _ufo_roll, purpose=CARD_ROLL),
        "dive": RandomKind(_dive_bounds, _dive_look, private=lambda s, frame: _viewer(frame),
                           purpose=DRAW),
    },
)
"""Miraculous Catch's pick and question, Superior Alien Technology's roll, Bobbing for Apples'
look at the refill and Play with Your Food's question."""
