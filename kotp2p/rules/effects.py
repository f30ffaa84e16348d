"""Primitive effects on a private, mutable copy of a state: the vocabulary of steps and cards.

Every function here takes the state being built by ``apply``. It never takes a state already
returned to a caller. Limits live here, once: stars 0..20, health 0..max, energy >= 0. The maximum
health is 10, up to 12 with cards. Damage is not applied directly. :func:`deal_damage` pushes one
``hit`` frame per target, in seat order after the dealer, with the dealer last. One ``deaths``
frame follows. So reaction windows can interrupt each hit, and simultaneous deaths share one
resolution.
"""

from __future__ import annotations

from kotp2p.rules.actions import Action, UseCard
from kotp2p.rules.basics import BAY, CITY, NOBODY, POWER_UP_FLAG, Frame
from kotp2p.rules.card import PERMANENT
from kotp2p.rules.dice import HEART
from kotp2p.rules.events import (
    WHY_CARD,
    WHY_ENTER,
    BayClosed,
    CardDiscarded,
    CardEffect,
    Eliminated,
    EnergyChanged,
    EnteredTokyo,
    Event,
    ExtraTurn,
    GameOver,
    Healed,
    LeftTokyo,
    StarsChanged,
    TokensChanged,
)
from kotp2p.rules.evoslots import discard_hand, evolution_owner, is_evolution, retire, take_back
from kotp2p.rules.registry import (
    CARDS,
    COPIERS,
    DISCARD,
    fire,
    has_hook,
    hook_sum,
    hooked,
    seats_from,
    use_hook,
)
from kotp2p.rules.state import State

MAX_STARS = 20
BASE_HP = 10
MAX_HP_CAP = 12
NO_DEALER = -1


def set_hand(s: State, seat: int, hand: tuple[int, ...]) -> None:
    """``seat`` now holds the cards ``hand``, in the order gained."""
    cards = s.cards
    s.cards = (*cards[:seat], hand, *cards[seat + 1 :])


def bit(seat: int) -> int:
    """The bitmask with only ``seat`` set."""
    return 1 << seat


def tally(s: State, what: str, seat: int, n: int) -> None:
    """Add ``n`` to what ``seat`` has ``what`` this turn, a per-turn count that only Power Up!
    keeps: ``lost`` ♥, ``energy`` gained, ``healed`` ♥. :func:`turn_flag` reads it back as
    ``what.seat``."""
    key = f"t.{what}.{seat}"
    s.flags[key] = s.flags.get(key, 0) + n


SMASH_BONUS = "smash_bonus"
"""A :func:`tally`: the ♥ more each monster ``seat``'s smashes hit loses this turn."""
MARKED = "evo.mark."
"""``evo.mark.<seat>``: 1 + the seat ``seat`` marked, which loses 1♥ more each time ``seat``
makes it lose ♥ (Target Acquired)."""
DOUBLED = "doubled"
"""The per-turn flag of the seats, as bits, whose roll counts double: one roll, and twice its
★ from numbers, ♥, ⚡ and ✸."""
MORE_HEARTS = "more_hearts"
"""A :func:`tally`: the ♥ a card added to ``seat``'s roll this turn."""
UNHARMED = "unharmed"
"""The per-turn flag of the seats, as bits, that lose no ♥ for the rest of the turn."""


def hearts_rolled(s: State, seat: int) -> int:
    """The ♥ of ``seat``'s roll: its dice's, and those a card added."""
    hearts = s.dice.count(HEART)
    if s.flags:
        hearts += turn_flag(s, f"{MORE_HEARTS}.{seat}")
        hearts *= doubled(s, seat)
    return hearts


def doubled(s: State, seat: int) -> int:
    """2 when ``seat``'s roll counts double this turn, else 1."""
    return 2 if s.flags and turn_bit(s, DOUBLED, seat) else 1


def turn_flag(s: State, key: str) -> int:
    """A per-turn flag, cleared when a turn starts. It is 0 when unset."""
    return s.flags.get("t." + key, 0)


def turn_bit(s: State, key: str, seat: int) -> bool:
    """True when ``seat``'s bit is set in the per-turn flag ``key``."""
    return bool(s.flags.get("t." + key, 0) >> seat & 1)


def set_turn_bit(s: State, key: str, seat: int) -> None:
    """Set ``seat``'s bit in the per-turn flag ``key``."""
    set_turn_flag(s, key, turn_flag(s, key) | bit(seat))


def set_turn_flag(s: State, key: str, value: int) -> None:
    """Set a per-turn flag. Setting 0 removes it."""
    if value:
        s.flags["t." + key] = value
    else:
        s.flags.pop("t." + key, None)


def gain_stars(s: State, seat: int, n: int, *, card: int = 0, why: str = WHY_CARD) -> None:
    """``seat`` gains ``n`` stars, capped at 20, because of ``card`` or ``why``."""
    if n > 0 and s.alive[seat]:
        before = s.stars[seat]
        s.stars[seat] = min(MAX_STARS, before + n)
        if s.sink is not None and s.stars[seat] != before:
            s.sink.append(StarsChanged(seat, s.stars[seat] - before, why, card))


def lose_stars(s: State, seat: int, n: int, *, card: int = 0, why: str = WHY_CARD) -> None:
    """``seat`` loses ``n`` stars, never below 0, because of ``card`` or ``why``."""
    if n > 0:
        before = s.stars[seat]
        s.stars[seat] = max(0, before - n)
        if s.sink is not None and s.stars[seat] != before:
            s.sink.append(StarsChanged(seat, s.stars[seat] - before, why, card))


def gain_energy(
    s: State, seat: int, n: int, *, bonus: bool = True, card: int = 0, why: str = WHY_CARD
) -> None:
    """``seat`` gains ``n`` energy because of ``card`` or ``why``.

    Cards that add to every energy gain apply unless ``bonus`` is false. It is false for energy
    moved from a card, like Battery Monster's."""
    if n > 0 and s.alive[seat]:
        if bonus and s.cards[seat]:
            n += hook_sum(s, seat, "energy_bonus")
        s.energy[seat] += n
        if s.sink is not None:
            s.sink.append(EnergyChanged(seat, n, why, card))
        if s.flags and POWER_UP_FLAG in s.flags:
            tally(s, "energy", seat, n)  # for Stroke of Genius


def lose_energy(s: State, seat: int, n: int, *, card: int = 0, why: str = WHY_CARD) -> int:
    """``seat`` loses up to ``n`` energy, never below 0, because of ``card`` or ``why``.

    Returns what it lost."""
    lost = min(max(n, 0), s.energy[seat])
    s.energy[seat] -= lost
    if lost and s.sink is not None:
        s.sink.append(EnergyChanged(seat, -lost, why, card))
    return lost


def max_hp(s: State, seat: int) -> int:
    """The seat's maximum health: 10, raised by cards, never above 12."""
    if not s.cards[seat]:
        return BASE_HP
    return min(MAX_HP_CAP, BASE_HP + hook_sum(s, seat, "max_hp"))


def heal(s: State, seat: int, n: int, *, card: int = 0) -> int:
    """``seat`` heals ``n``, up to its maximum, because of ``card``.

    Cards that add to every heal add to ``n``. ``card`` 0 means heart dice. Returns the health
    actually gained."""
    if n <= 0 or not s.alive[seat]:
        return 0
    if s.cards[seat]:
        n += hook_sum(s, seat, "heal_bonus")
    before = s.hp[seat]
    s.hp[seat] = min(max_hp(s, seat), before + n)
    gained = s.hp[seat] - before
    if gained and s.flags and POWER_UP_FLAG in s.flags:
        tally(s, "healed", seat, gained)  # for Cult Worshippers
    if gained and s.sink is not None:
        s.sink.append(Healed(seat, gained, card))
    return gained


def damage_order(s: State, dealer: int, amounts: dict[int, int]) -> list[int]:
    """The targets with a positive amount, in resolution order.

    That is seat order after the dealer, with the dealer last. A resolution with no dealer starts
    at the active monster."""
    if dealer < 0:
        return [t for t in seats_from(s, s.active) if amounts.get(t, 0) > 0]
    # Live seats clockwise from the one after the dealer end with the dealer itself.
    order = [t for t in seats_from(s, (dealer + 1) % s.n) if amounts.get(t, 0) > 0]
    if not s.alive[dealer] and amounts.get(dealer, 0) > 0:
        order.append(dealer)
    return order


BEAST = "beast"
"""The turn flag set when the active monster started its turn without its Beauty: it rerolls no
✸ and wounds only the Beauty's holder, that monster plus one."""


def only_the_beauty(s: State, dealer: int, hits: dict[int, int]) -> dict[int, int]:
    """``hits`` of ``dealer`` but on the Beauty's holder, when ``dealer`` must win its Beauty
    back this turn: It Was Beauty Killed the Beast."""
    holder = turn_flag(s, BEAST) - 1
    if holder < 0 or dealer != s.active:
        return hits
    return {t: a for t, a in hits.items() if t in (holder, dealer)}


def deal_damage(
    s: State,
    dealer: int,
    hits: dict[int, int],
    *,
    smash: bool = False,
    then: Frame | None = None,
    plain: dict[int, int] | None = None,
) -> None:
    """Queue ``hits`` from ``dealer`` as one resolution.

    ``hits`` maps a target seat to an amount. ``plain`` adds non-smash hits to the same
    resolution, for targets not in ``hits``. On its own turn, the dealer's ``deal_bonus`` cards
    add to each hit on another monster.
    ``then``, if given, runs after the deaths of this resolution are settled.
    """
    amounts = {**plain, **hits} if plain else hits
    if dealer == s.active and s.cards[dealer] and has_hook(s, dealer, "deal_bonus"):
        amounts = {t: a + (hook_sum(s, dealer, "deal_bonus", t, a) if t != dealer else 0)
                   for t, a in amounts.items()}
    if dealer >= 0 and s.flags and POWER_UP_FLAG in s.flags and MARKED + str(dealer) in s.flags:
        marked = s.flags[MARKED + str(dealer)] - 1  # it loses 1♥ more from ``dealer``
        amounts = {t: a + (t == marked) for t, a in amounts.items()}
    if dealer >= 0 and s.flags and POWER_UP_FLAG in s.flags:
        amounts = only_the_beauty(s, dealer, amounts)
        amounts = {t: a + (hook_sum(s, t, "taken_bonus", dealer)
                           if t != dealer and s.cards[t] and has_hook(s, t, "taken_bonus") else 0)
                   for t, a in amounts.items()}
    order = damage_order(s, dealer, amounts)
    if not order:
        if then is not None:
            s.stack.append(then)
        return
    push = s.stack.append
    if then is not None:
        push(then)
    push(("deaths",))
    for t in reversed(order):
        push(("hit", t, amounts[t], dealer, 1 if smash and t in hits else 0, 0))


def enter_tokyo(s: State, seat: int, place: int, *, card: int = 0) -> None:
    """``seat`` takes ``place``, CITY or BAY, and gets the entry bonus.

    ``card`` is the card that put it there, or 0 for the base rules."""
    if place == CITY:
        s.city = seat
    else:
        s.bay = seat
    if s.sink is not None:
        s.sink.append(EnteredTokyo(seat, place, card))
    if s.two_player:
        gain_energy(s, seat, 1, why=WHY_ENTER)
    else:
        gain_stars(s, seat, 1, why=WHY_ENTER)
    fire(s, seat, "entered")
    if s.flags and POWER_UP_FLAG in s.flags:
        back = s.flags.pop(f"evo.back.{seat}", 0)  # Heart of the Rabbit
        if back:
            take_back(s, seat, back)


def leave_tokyo(s: State, seat: int, *, card: int = 0) -> None:
    """``seat`` leaves Tokyo. Nothing happens if it is outside.

    With ``card``, that card put it out. A yield or an elimination says so itself."""
    if s.city == seat:
        s.city = NOBODY
        place = CITY
    elif s.bay == seat:
        s.bay = NOBODY
        place = BAY
    else:
        return
    if s.flags and POWER_UP_FLAG in s.flags:
        s.flags["t.vacated"] = 1  # for Monkey Rush
    if card and s.sink is not None:
        s.sink.append(LeftTokyo(seat, place, card))
    if s.alive[seat] and s.cards[seat]:
        fire(s, seat, "left_tokyo")


def close_bay_if_needed(s: State) -> None:
    """Tokyo Bay closes when fewer than 5 monsters live.

    Its occupant moves to an empty City, with no stars for that, or leaves Tokyo."""
    if s.bay != NOBODY and not s.bay_in_use():
        occupant = s.bay
        s.bay = NOBODY
        to_city = s.city == NOBODY
        if to_city:
            s.city = occupant
        if s.sink is not None:
            s.sink.append(BayClosed(occupant, to_city))


def discard_card(s: State, card: int, owner: int = NOBODY) -> None:
    """Put a card on the discard pile, from ``owner``'s cards. With NOBODY, from the market."""
    s.discard = (*s.discard, card)
    if s.sink is not None:
        s.sink.append(CardDiscarded(owner, card))


def add_tokens(s: State, seat: int, kind: str, n: int, *, card: int = 0) -> None:
    """``seat`` gets ``n`` Poison or Shrink tokens, as ``kind`` says, because of ``card``.

    A negative ``n`` takes ``-n`` tokens away."""
    if not n:
        return
    if kind == "poison":
        s.poison[seat] += n
    else:
        s.shrink[seat] += n
    if s.sink is not None:
        s.sink.append(TokensChanged(seat, kind, n, card))


def set_card_tokens(s: State, seat: int, card: int, n: int) -> None:
    """``card``, owned by ``seat``, now carries ``n`` tokens of its own."""
    before = s.tokens.get(card, 0)
    s.tokens[card] = n
    if n != before and s.sink is not None:
        s.sink.append(TokensChanged(seat, "card", n - before, card))


def note(s: State, event: Event) -> None:
    """Record ``event`` if somebody asked for events. It serves effects with no primitive here."""
    if s.sink is not None:
        s.sink.append(event)


def remove_card(s: State, seat: int, card: int, *, to_discard: bool = True) -> None:
    """Take a card out of ``seat``'s play area. Its ``lost`` hook runs."""
    cards = s.cards[seat]
    if card not in cards:
        return
    set_hand(s, seat, tuple(c for c in cards if c != card))
    s.tokens.pop(card, None)
    hooks = CARDS[card].hooks
    lost = hooks.get("lost")
    if lost is not None:
        lost(s, seat, card)
    forget_card(s, card)
    clamp_health(s)
    if is_evolution(card):
        retire(s, evolution_owner(s, card), card)
    elif to_discard:
        discard_card(s, card, seat)


def undying(s: State, seat: int) -> bool:
    """True if ``seat``'s cards keep its monster in the game at 0♥, as Halloween's Zombie does.

    Such a monster is not dying at 0♥: it is not eliminated, and "instead of dying" cards wait."""
    return bool(s.cards[seat]) and any(fn(s, seat, c) for c, fn in hooked(s, seat, "undying"))


def take_card(s: State, seat: int, card: int, *, bought: bool = True) -> None:
    """``card`` comes into ``seat``'s hands.

    For a ``bought`` card the buyer's buying bonuses come first. Then the card is placed in front
    of its new owner, and its ``gained`` hook runs. A Discard card stays there only until its
    effect has run."""
    if bought:
        fire(s, seat, "on_buy", card)
    set_hand(s, seat, (*s.cards[seat], card))
    gained = CARDS[card].hooks.get("gained")
    if gained is not None:
        gained(s, seat, card)


def move_card(s: State, owner: int, taker: int, card: int, *, bought: bool) -> None:
    """``card`` goes from ``owner``'s hands to ``taker``'s: its ``lost`` hook, then
    :func:`take_card`. Tokens on it and a copier's mark on it stay with it."""
    set_hand(s, owner, tuple(x for x in s.cards[owner] if x != card))
    lost = CARDS[card].hooks.get("lost")
    if lost is not None:
        lost(s, owner, card)
    take_card(s, taker, card, bought=bought)
    clamp_health(s)


def forget_card(s: State, card: int) -> None:
    """``card`` left play.

    Copiers that copied it copy nothing now; an Evolution that copied it leaves play too. A copier
    itself forgets its target. Every monster's health drops to its maximum, which may now be
    lower."""
    if not COPIERS or not s.flags:
        return
    changed = False
    gone: list[int] = []
    for copier, key in COPIERS.items():
        target = s.flags.get(key)
        if target is not None and (target == card or copier == card):
            del s.flags[key]
            if copier != card:
                s.tokens.pop(copier, None)
                if is_evolution(copier):
                    gone.append(copier)
            changed = True
    for copier in gone:  # Icy Reflection's printed text: it goes with the card it copies
        for t in range(s.n):
            if copier in s.cards[t]:
                _drop_evolution(s, t, copier)
    if changed:
        clamp_health(s)  # a copy of a card raising the maximum may be gone


def clamp_health(s: State) -> None:
    """Lower every live monster's health to its maximum, after a card raising it is gone."""
    for seat in range(s.n):
        if s.alive[seat] and s.hp[seat] > BASE_HP:
            s.hp[seat] = min(s.hp[seat], max_hp(s, seat))


def eliminate(s: State, seat: int, batch: int) -> None:
    """``seat``'s monster is eliminated: cards discarded, energy and tokens gone, out of Tokyo."""
    if s.sink is not None:
        s.sink.append(Eliminated(seat))
    s.alive = (*s.alive[:seat], False, *s.alive[seat + 1:])
    s.hp[seat] = 0
    s.elim = (*s.elim[:seat], batch, *s.elim[seat + 1:])
    s.stars[seat] = 0
    cards = sorted(s.cards[seat])  # onto the discard pile in card id order, not the order gained
    set_hand(s, seat, ())
    for c in cards:
        owner = evolution_owner(s, c) if is_evolution(c) else seat
        if owner != seat and s.alive[owner] and CARDS[c].kind == PERMANENT:
            take_card(s, owner, c, bought=False)  # Freeze Ray goes back to its owner
            continue
        s.tokens.pop(c, None)
        if is_evolution(c):
            retire(s, owner, c)
        else:
            discard_card(s, c, seat)
        forget_card(s, c)
    if s.flags and POWER_UP_FLAG in s.flags:
        discard_hand(s, seat)
        _discard_gifts(s, seat)
    s.energy[seat] = 0
    s.poison[seat] = 0
    s.shrink[seat] = 0
    leave_tokyo(s, seat)


def _discard_gifts(s: State, seat: int) -> None:
    """Every card of an eliminated monster goes, its Gifts in front of others too."""
    for t in range(s.n):
        for c in s.cards[t]:
            if t != seat and is_evolution(c) and evolution_owner(s, c) == seat:
                _drop_evolution(s, t, c)


def _drop_evolution(s: State, holder: int, card: int) -> None:
    """The Evolution ``card`` in front of ``holder`` leaves play, to its owner's discard, with
    no effect of its own."""
    set_hand(s, holder, tuple(x for x in s.cards[holder] if x != card))
    s.tokens.pop(card, None)
    retire(s, evolution_owner(s, card), card)
    forget_card(s, card)


def start_over(s: State, seat: int, card: int, hp: int) -> None:
    """``card`` keeps ``seat`` in the game at 0♥: it discards its Power cards, loses all its ★,
    leaves Tokyo, and goes on with ``hp``♥. "Your cards" names no Evolution."""
    note(s, CardEffect(seat, card))
    for c in sorted(s.cards[seat]):  # card id order: never the order gained
        if not is_evolution(c):
            remove_card(s, seat, c)
    lose_stars(s, seat, s.stars[seat], card=card)
    note(s, Healed(seat, hp - s.hp[seat], card))
    s.hp[seat] = hp
    leave_tokyo(s, seat, card=card)
    set_turn_flag(s, "smashed", turn_flag(s, "smashed") & ~bit(seat))
    set_turn_flag(s, f"jets.{seat}", 0)


def end_game(
    s: State, winners: tuple[int, ...], *, by_stars: bool = False, goal: int = MAX_STARS
) -> None:
    """The game is over: nothing is pending any more.

    ``goal`` is the stars the winners needed, when they won by stars."""
    if s.sink is not None:
        s.sink.append(GameOver(winners, by_stars) if goal == MAX_STARS
                      else GameOver(winners, by_stars, goal))
    s.over = True
    s.winners = winners
    s.stack.clear()
    s.pending = None


def card_cost(s: State, seat: int, card: int) -> int:
    """What ``seat`` pays for ``card``: the printed cost changed by its cards, at least 0."""
    cost = CARDS[card].cost
    if s.cards[seat]:
        cost = max(0, cost + hook_sum(s, seat, "cost", card))
    return cost


def is_discard_card(card: int) -> bool:
    """True for a Discard card. Its effect happens once, then it is discarded."""
    return CARDS[card].kind == DISCARD


def grant_extra_turn(s: State, seat: int, *, card: int = 0) -> None:
    """``seat`` takes another turn after the current one, thanks to ``card``.

    The turn is queued behind earlier grants."""
    s.extra = (*s.extra, seat)
    if s.sink is not None:
        s.sink.append(ExtraTurn(seat, card))


def card_actions(s: State, seat: int, hook: str) -> tuple[Action, ...]:
    """The extra actions ``seat``'s cards offer in a decision, through hooks like ``roll_actions``."""
    if not s.cards[seat] or not has_hook(s, seat, hook):
        return ()
    out: list[Action] = []
    for c, fn in hooked(s, seat, hook):
        out.extend(fn(s, seat, c))
    return tuple(out)



def use_card(s: State, frame: Frame, action: UseCard) -> None:
    """Run the ``use`` hook of the card named by a ``UseCard`` action."""
    seat = frame[1]
    if s.sink is not None:
        s.sink.append(CardEffect(seat, action.card))
    use_hook(s, action.card)(s, seat, action.card, frame, action)


