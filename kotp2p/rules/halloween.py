"""Halloween's rules: each monster's first costume, and stealing costumes.

Theory of operation
-------------------
A Halloween game has the flag ``halloween`` and starts with one costume pick per seat, in seat
order, before the roll-off. A pick is a *private* random event, ``("rand", "costume", seat)``:
its two values choose two different costumes among those nobody keeps yet, and only ``seat``'s
replica learns which. It holds them in the hidden slot numbered by the event, as a bit mask of
costume ids, and every other replica holds ``HIDDEN`` there. Then ``seat`` decides which one to
keep, ``UseCard(costume)``. Its replica offers the two it drew. A replica that holds the slot
hidden offers every costume still free, since it cannot know which two were drawn, and notes
the claim in the flag ``kept.<k>``. The costume not kept goes back among the free ones, so the
next seat draws from costumes everyone can name. The slot stays hidden until the game ends.
Then its owner opens it, and :func:`check_kept` refuses an opening that does not hold the kept
costume: the seat lied about its draw.

The rulebook puts the costumes nobody keeps into the Power deck. That happens once every seat
has picked, in the ``costumes_in`` step. The deck has no order, so every later draw is a fresh
uniform pick among them and the base cards.

Stealing: after entering Tokyo, a monster whose resolved roll had at least 3 smashes, cheers
and cards counting, may take costumes from the monsters its smashes made lose ♥ this turn. Each
costume costs its price after the thief's discounts, paid to its owner. The ``steal`` decision
comes back after each theft, until ``Done``.
"""

from __future__ import annotations

from kotp2p.rules.actions import DONE, Action, Buy, UseCard
from kotp2p.rules.basics import HALLOWEEN_FLAG, HIDDEN, MAX_PLAYERS, Frame
from kotp2p.rules.card import COSTUME
from kotp2p.rules.cardindex import CARDS, costume_ids
from kotp2p.rules.effects import (
    bit,
    card_cost,
    gain_energy,
    move_card,
    note,
    take_card,
    turn_flag,
)
from kotp2p.rules.errors import IllegalAction
from kotp2p.rules.events import CostumeKept, CostumeTaken
from kotp2p.rules.registry import DecisionKind, Frames, RandomKind, fire, frame_seat, seats_from
from kotp2p.rules.state import DRAW, State

STEAL_SMASHES = 3
"""The smashes a resolved roll needs before its monster may steal costumes."""
_FIRST = 200
"""Costume ``c`` is bit ``c - _FIRST`` of a pick's slot."""


def is_halloween(s: State) -> bool:
    """True in a Halloween game."""
    return bool(s.flags) and HALLOWEEN_FLAG in s.flags


def free_costumes(s: State) -> tuple[int, ...]:
    """The costumes no monster holds, in id order. They are where the next pick draws from."""
    held = {c for hand in s.cards for c in hand}
    return tuple(c for c in costume_ids() if c not in held)


def setup_frames(n: int) -> list[Frame]:
    """The frames of the picks and the costumes going into the deck, to go above ``start``."""
    return [("costumes_in",), *(("rand", "costume", seat) for seat in reversed(range(n)))]


def _pick_seat(frame: Frame) -> int:
    seat = frame[2]
    assert isinstance(seat, int)
    return seat


def _pick_bounds(s: State, frame: Frame) -> tuple[int, ...]:
    free = len(free_costumes(s))
    return (free, free - 1) if free >= 2 else ()


def _pick_draw(s: State, frame: Frame, values: tuple[int, ...]) -> None:
    seat, k = _pick_seat(frame), s.k
    if values and values[0] != HIDDEN:
        free = list(free_costumes(s))
        first = free.pop(values[0])
        second = free[values[1]]
        s.slots[k] = bit(first - _FIRST) | bit(second - _FIRST)
    else:
        s.slots[k] = HIDDEN
    s.stack.append(("ask", seat, "costume", k))


def drawn(mask: int) -> tuple[int, ...]:
    """The costumes a pick's slot holds, in id order."""
    return tuple(c for c in costume_ids() if mask >> (c - _FIRST) & 1)


def _pick_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    k = frame[3]
    mask = s.slots.get(k, HIDDEN) if isinstance(k, int) else HIDDEN
    choices = drawn(mask) if mask != HIDDEN else free_costumes(s)
    return tuple(UseCard(c) for c in choices)


def _pick_handle(s: State, frame: Frame, action: Action) -> None:
    assert isinstance(action, UseCard)
    seat, k, card = frame_seat(frame), frame[3], action.card
    s.flags[f"kept.{k}"] = card
    note(s, CostumeKept(seat, card))
    take_card(s, seat, card, bought=False)


def check_kept(s: State, slot: int, value: int) -> None:
    """Refuse the opening ``value`` of pick ``slot`` if it does not hold the costume kept there.

    :raises IllegalAction: saying what the seat kept and what it drew.
    """
    kept = s.flags.get(f"kept.{slot}")
    if kept is None:
        return
    cards = drawn(value)
    if len(cards) != 2 or value != bit(cards[0] - _FIRST) | bit(cards[1] - _FIRST):
        raise IllegalAction(f"expected two costumes in the opening of pick {slot}, found {value}")
    if kept not in cards:
        names = " and ".join(CARDS[c].name for c in cards)
        raise IllegalAction(f"the seat kept {CARDS[kept].name} at pick {slot}, but it drew "
                            f"{names}")


def _costumes_in(s: State, frame: Frame) -> None:
    s.deck = tuple(sorted((*s.deck, *free_costumes(s))))


END_ANY_TURN = ("end_any_turn",)
"""The step of the ``end_any_turn`` hooks, which only costumes have."""


def _end_any_turn(s: State, frame: Frame) -> None:
    """The effects at the end of every monster's turn, clockwise from the active monster."""
    for seat in seats_from(s, s.active):
        if s.cards[seat]:
            fire(s, seat, "end_any_turn")


# --- stealing ---------------------------------------------------------------------------------


def steal_choices(s: State, seat: int) -> tuple[Action, ...]:
    """The costumes ``seat`` may take now, as ``Buy`` actions, in owner then id order."""
    if turn_flag(s, "smashes") < STEAL_SMASHES:
        return ()
    wounded = turn_flag(s, "smashhurt")
    energy = s.energy[seat]
    return tuple(
        Buy(c)
        for owner in range(s.n)
        if owner != seat and wounded >> owner & 1 and s.alive[owner]
        for c in sorted(s.cards[owner])
        if CARDS[c].kind == COSTUME and card_cost(s, seat, c) <= energy
    )


def steal_frame(s: State, seat: int) -> Frame | None:
    """The ``steal`` decision, if ``seat`` may take a costume now."""
    return _ASK_STEAL[seat] if is_halloween(s) and steal_choices(s, seat) else None


_ASK_STEAL = tuple(("ask", seat, "steal") for seat in range(MAX_PLAYERS))


def _steal_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    return (*steal_choices(s, frame_seat(frame)), DONE)


def _steal_handle(s: State, frame: Frame, action: Action) -> None:
    if type(action) is not Buy:
        return
    assert isinstance(action, Buy)
    seat, card = frame_seat(frame), action.card
    owner = next(t for t in range(s.n) if card in s.cards[t])
    price = card_cost(s, seat, card)
    s.energy[seat] -= price
    note(s, CostumeTaken(seat, owner, card, price))
    gain_energy(s, owner, price, bonus=False, card=card)
    s.stack.append(frame)
    move_card(s, owner, seat, card, bought=False)  # taking is not buying


FRAMES: Frames = Frames(
    steps={"costumes_in": _costumes_in, "end_any_turn": _end_any_turn},
    decisions={
        "costume": DecisionKind(_pick_legal, _pick_handle),
        "steal": DecisionKind(_steal_legal, _steal_handle),
    },
    randoms={
        "costume": RandomKind(_pick_bounds, _pick_draw, private=lambda s, frame: _pick_seat(frame),
                              purpose=DRAW),
    },
)
