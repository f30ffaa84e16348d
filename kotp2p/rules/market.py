"""The market: entering Tokyo, buying, refills, the windows for revealed cards, the after-buy step.

Entering Tokyo comes before the buy step. Buying covers the market, sweeping and card actions.
Slots are refilled by random draws.

A purchase pays and takes the card out of its slot. Then it pushes its frames above what is on the
stack. The refill draw comes first, then the card's own effect, ``bought``. The windows for the
revealed card come last.
"""

from __future__ import annotations

from kotp2p.rules.actions import DONE, SWEEP, Action, Buy, Done, Sweep, UseCard
from kotp2p.rules.basics import BAY, CITY, MARKET_SLOTS, MAX_PLAYERS, NOBODY, POWER_UP_FLAG, Frame
from kotp2p.rules.cardindex import CARDS
from kotp2p.rules.effects import (
    card_actions,
    card_cost,
    discard_card,
    enter_tokyo,
    is_discard_card,
    remove_card,
    take_card,
    turn_flag,
    use_card,
)
from kotp2p.rules.events import CardBought, CardEffect, CardRevealed, MarketSwept
from kotp2p.rules.halloween import steal_frame
from kotp2p.rules.powerup import (
    BOOZLED,
    BOUGHT,
    BUYING,
    ENTERED,
    FORBIDDEN,
    USURPED,
    before_entering,
    dealt_window,
    discard_actions,
    free_place,
    open_window,
)
from kotp2p.rules.registry import (
    DecisionKind,
    Frames,
    RandomKind,
    anyone_has,
    has_hook,
    hooked,
    seats_from,
)
from kotp2p.rules.state import DRAW, State

SWEEP_COST = 2
ASK_BUY = tuple(("ask", seat, "buy") for seat in range(MAX_PLAYERS))


# ---------------------------------------------------------------------------------------------
# Buying


class _BuyMemo(dict[int, Buy]):
    """Card id -> its ``Buy`` action, made once."""

    def __missing__(self, card: int) -> Buy:
        found = self[card] = Buy(card)
        return found


_BUY = _BuyMemo()


def enter_and_buy(s: State) -> None:
    """Entering Tokyo, then stealing costumes in a Halloween game, then the buy decision.

    The ``entered`` hooks push no frames."""
    seat = s.active
    if not s.alive[seat]:
        return
    if (s.flags and POWER_UP_FLAG in s.flags and not s.in_tokyo(seat)
            and free_place(s) != NOBODY):
        s.stack.append(_ENTER_STEP)
        if before_entering(s):
            return
        s.stack.pop()
    _enter_then_buy(s)


_ENTER_STEP = ("enter",)


def _enter_step(s: State, frame: Frame) -> None:
    _enter_then_buy(s)


def _enter_then_buy(s: State) -> None:
    seat = s.active
    if not s.alive[seat]:
        return
    entered = False
    if seat != s.city and seat != s.bay and not (s.flags and turn_flag(s, USURPED)):
        if s.city == NOBODY:
            enter_tokyo(s, seat, CITY)
            entered = True
        elif s.bay == NOBODY and s.bay_in_use():
            enter_tokyo(s, seat, BAY)
            entered = True
    s.stack.append(ASK_BUY[seat])
    if s.flags:
        if POWER_UP_FLAG in s.flags:
            dealt_window(s)
        steal = steal_frame(s, seat)
        if steal is not None:
            s.stack.append(steal)
        if entered and POWER_UP_FLAG in s.flags:
            open_window(s, ENTERED, (seat,))


def _buy_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    seat = frame[1]
    energy = s.energy[seat]
    if s.cards[seat] and has_hook(s, seat, "cost"):
        out: list[Action] = [_BUY[c] for c in s.market if c and card_cost(s, seat, c) <= energy]
    else:
        out = []
        for c in s.market:
            if c and CARDS[c].cost <= energy:
                out.append(_BUY[c])
    if energy >= SWEEP_COST:
        out.append(SWEEP)
    if s.cards[seat]:
        out.extend(card_actions(s, seat, "buy_actions"))
    if s.flags and POWER_UP_FLAG in s.flags:
        forbidden = turn_flag(s, FORBIDDEN)  # Bam-Boozle's card, plus one
        if forbidden:
            out = [a for a in out if not (type(a) is Buy and a.card == forbidden - 1)]
        out.extend(discard_actions(s, seat))
    out.append(DONE)
    return tuple(out)


def buy_card(s: State, seat: int, card: int, price: int) -> None:
    """``seat`` pays ``price`` and takes ``card`` out of the market.

    The slot is refilled. Then the card's own effect runs. Then others may react to the revealed
    card. The frames that follow the purchase are pushed above whatever is on the stack now."""
    s.energy[seat] -= price
    if s.sink is not None:
        s.sink.append(CardBought(seat, card, price))
    slot = s.market.index(card) if card in s.market else -1
    take_card(s, seat, card)
    push = s.stack.append
    if slot >= 0:
        market = list(s.market)
        market[slot] = 0
        s.market = tuple(market)
        push(("reveal_windows", 1 << slot))
    push(("bought", seat, card))
    if slot >= 0:
        push(("rand", "draw", slot))


def _bought(s: State, frame: Frame) -> None:
    _, seat, card = frame
    effect = CARDS[card].hooks.get("bought")
    if effect is not None:
        if s.sink is not None and is_discard_card(card):
            s.sink.append(CardEffect(seat, card))
        effect(s, seat, card)
    if is_discard_card(card) and card in s.cards[seat]:
        # Its effect is done, and damage it queued resolves next. Off to the discard pile.
        remove_card(s, seat, card)
    elif s.flags and POWER_UP_FLAG in s.flags and card in s.cards[seat]:
        open_window(s, BOUGHT, (seat,))  # right after its buyer bought a Keep card


def _buy_handle(s: State, frame: Frame, action: Action) -> None:
    seat = frame[1]
    t = type(action)
    if type(action) is Buy:
        s.stack.append(frame)
        if s.flags and POWER_UP_FLAG in s.flags and before_buying(s, seat, action.card):
            return
        buy_card(s, seat, action.card, card_cost(s, seat, action.card))
    elif t is Sweep:
        s.stack.append(frame)
        sweep_market(s, seat, SWEEP_COST)
    elif isinstance(action, UseCard):
        use_card(s, frame, action)


def before_buying(s: State, seat: int, card: int) -> bool:
    """In Power Up!, the other monsters' window before ``seat`` buys ``card`` from the market.
    True if it opened: the purchase then waits for it."""
    depth = len(s.stack)
    s.stack.append(("buying", seat, card))
    open_window(s, BUYING, [t for t in range(s.n) if t != seat])
    if len(s.stack) == depth + 1:
        s.stack.pop()
        return False
    return True


def _buying(s: State, frame: Frame) -> None:
    """The purchase the window was about, unless a card in it took its place."""
    _, seat, card = frame
    if s.flags.pop("t." + BOOZLED, None) or not s.alive[seat] or card not in s.market:
        return
    price = card_cost(s, seat, card)
    if price <= s.energy[seat]:
        buy_card(s, seat, card, price)


def sweep_market(s: State, seat: int, price: int) -> None:
    """``seat`` pays ``price`` to send the market's cards to the discard pile; three new ones
    are revealed."""
    s.energy[seat] -= price
    if s.sink is not None:
        s.sink.append(MarketSwept(seat, price))
    for c in s.market:
        if c:
            discard_card(s, c)
    s.market = (0,) * MARKET_SLOTS
    s.stack.append(("reveal_windows", (1 << MARKET_SLOTS) - 1))
    for slot in reversed(range(MARKET_SLOTS)):
        s.stack.append(("rand", "draw", slot))


def _buy_check(s: State, frame: Frame, action: Action) -> bool:
    seat = frame[1]
    if isinstance(action, Buy):
        c = action.card
        return (type(c) is int and c != 0 and c in s.market and card_cost(s, seat, c) <= s.energy[seat]
                and not (s.flags and turn_flag(s, FORBIDDEN) == c + 1))
    t = type(action)
    if t is Done:
        return True
    if t is Sweep:
        return s.energy[seat] >= SWEEP_COST
    return action in card_actions(s, seat, "buy_actions") or (
        POWER_UP_FLAG in s.flags and action in discard_actions(s, seat))


def _draw_bounds(s: State, frame: Frame) -> tuple[int, ...]:
    if not s.deck and s.discard:
        s.deck = tuple(sorted(s.discard))
        s.discard = ()
    return (len(s.deck),) if s.deck else ()


def _draw(s: State, frame: Frame, values: tuple[int, ...]) -> None:
    slot = frame[2]
    deck = s.deck
    i = values[0]
    card = deck[i]
    s.deck = deck[:i] + deck[i + 1 :]
    market = list(s.market)
    market[slot] = card
    s.market = tuple(market)
    if s.sink is not None:
        s.sink.append(CardRevealed(card, slot))


def _reveal_windows(s: State, frame: Frame) -> None:
    """Windows for the cards just revealed in the market, for each seat clockwise from the
    active monster.

    The revealed slots are given as a bitmask."""
    if not anyone_has(s, "revealed"):
        return
    mask = frame[1]
    frames: list[Frame] = []
    for slot in range(MARKET_SLOTS):
        card = s.market[slot]
        if not (mask >> slot & 1) or not card:
            continue
        for seat in seats_from(s, s.active):
            for c, fn in hooked(s, seat, "revealed"):
                f = fn(s, seat, c, card)
                if f is not None and f not in frames:
                    frames.append(f)
    s.stack.extend(reversed(frames))


def after_buy(s: State) -> None:
    """The after-buy phase: steps the active monster's cards add after buying, like Metamorph's sale."""
    seat = s.active
    if not s.alive[seat] or not s.cards[seat] or not has_hook(s, seat, "after_buy"):
        return
    frames: list[Frame] = []
    for c, fn in hooked(s, seat, "after_buy"):
        f = fn(s, seat, c)
        if f is not None and f not in frames:
            frames.append(f)
    s.stack.extend(reversed(frames))


FRAMES: Frames = Frames(
    steps={"bought": _bought, "reveal_windows": _reveal_windows},
    decisions={
        "buy": DecisionKind(_buy_legal, _buy_handle, _buy_check, light=(Done,)),
    },
    randoms={
        "draw": RandomKind(_draw_bounds, _draw, light=True, purpose=DRAW),
    },
)

POWER_UP_FRAMES: Frames = Frames(steps={"enter": _enter_step, "buying": _buying})
"""The steps only a Power Up! game takes: entering Tokyo and buying, each after its window."""
