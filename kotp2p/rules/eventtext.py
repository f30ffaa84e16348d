"""Events in plain words, one line per event.

Monsters and cards are named by name. Dice and amounts are written with symbols.

An amount that stopped at a limit says so, since the rules cut it there and a reader would
otherwise see wrong arithmetic: stars reaching 20★, health reaching its maximum or 0, stars or
energy lost down to 0.

:func:`describe_events` tells the events of one input in order. It starts from the amounts of
the state the input was applied to and follows each change, so a heal then a hit in one input
is judged right. :func:`describe_event` alone judges from the state it is given."""

from __future__ import annotations

from kotp2p.rules.actions import Done, Stop, UseCard
from kotp2p.rules.actiontext import format_action
from kotp2p.rules.basics import CITY
from kotp2p.rules.cardindex import CARDS
from kotp2p.rules.effects import MAX_STARS, max_hp
from kotp2p.rules.events import (
    WHY_DICE,
    WHY_ENTER,
    WHY_TOKYO,
    AutoDecision,
    BayClosed,
    BeautyTaken,
    CardBought,
    CardDiscarded,
    CardEffect,
    CardRevealed,
    Copied,
    CostumeKept,
    CostumeTaken,
    Damaged,
    DiceChanged,
    DiceKept,
    DiceRolled,
    Eliminated,
    EnergyChanged,
    EnteredTokyo,
    Event,
    EvolutionKept,
    EvolutionPlayed,
    EvolutionsDrawn,
    EvolutionsShuffled,
    ExtraTurn,
    GameOver,
    GiftGiven,
    Healed,
    LeftTokyo,
    MarketSwept,
    RolledOff,
    StarsChanged,
    StayedInTokyo,
    TokensChanged,
    TurnBegan,
    YieldedTokyo,
    is_minor,
)
from kotp2p.rules.glyphs import SYMBOLS
from kotp2p.rules.state import State

_WHY = {WHY_DICE: "dice", WHY_TOKYO: "in Tokyo", WHY_ENTER: "entering Tokyo"}


def _place(place: int) -> str:
    return "Tokyo City" if place == CITY else "Tokyo Bay"


def _because(why: str, card: int, limit: str = "") -> str:
    """The cause in parentheses, followed there by ``limit``, what stopped the amount."""
    cause = CARDS[card].name if card else _WHY.get(why, "")
    text = ", ".join(x for x in (cause, limit) if x)
    return f" ({text})" if text else ""


def _seat_of(state: State, seat: int) -> bool:
    """True if ``seat`` is a seat of ``state``."""
    return 0 <= seat < state.n


class Amounts:
    """Each monster's stars, energy, health and life, followed through a list of events."""

    __slots__ = ("alive", "energy", "hp", "stars")

    def __init__(self, state: State) -> None:
        self.stars = list(state.stars)
        self.energy = list(state.energy)
        self.hp = list(state.hp)
        self.alive = list(state.alive)

    def take(self, e: Event) -> None:
        """Follow the change ``e`` makes, if any."""
        if isinstance(e, StarsChanged) and 0 <= e.seat < len(self.stars):
            self.stars[e.seat] += e.delta
        elif isinstance(e, EnergyChanged) and 0 <= e.seat < len(self.energy):
            self.energy[e.seat] += e.delta
        elif isinstance(e, Damaged) and 0 <= e.seat < len(self.hp):
            self.hp[e.seat] -= e.amount
        elif isinstance(e, Healed) and 0 <= e.seat < len(self.hp):
            self.hp[e.seat] += e.amount
        elif isinstance(e, Eliminated) and 0 <= e.seat < len(self.alive):
            self.alive[e.seat] = False


def _stars_limit(e: StarsChanged, state: State, now: Amounts) -> str:
    """What stopped a change of stars, told from the amounts before it."""
    if not _seat_of(state, e.seat):
        return ""
    before = now.stars[e.seat]
    if e.delta > 0 and before + e.delta == MAX_STARS:
        return f"up to the {SYMBOLS.stars(MAX_STARS)} limit"
    if e.delta < 0 and before + e.delta == 0:
        return "all it had"
    return ""


def _energy_limit(e: EnergyChanged, state: State, now: Amounts) -> str:
    """What stopped a loss of energy, told from the amounts before it. A gain has no limit.

    A cost paid for one's own card is never cut, so it is left unmarked."""
    seat = e.seat
    if not _seat_of(state, seat) or e.delta >= 0 or e.card in state.cards[seat]:
        return ""
    return "all it had" if now.energy[seat] + e.delta == 0 else ""


def _heal_limit(e: Healed, state: State, now: Amounts) -> str:
    """What stopped a heal, told from the amounts before it.

    A card raising the maximum as it heals, like Even Bigger, is left unmarked: the maximum before
    it is not the one it heals up to."""
    if not _seat_of(state, e.seat) or (e.card and "max_hp" in CARDS[e.card].hooks):
        return ""
    most = max_hp(state, e.seat)
    if now.hp[e.seat] + e.amount == most:  # True whether or not the maximum cut the heal.
        return f"now at its {SYMBOLS.hearts(most)} maximum"
    return ""


def _damage_limit(e: Damaged, state: State, now: Amounts) -> str:
    """`` (all it had left)`` for damage that took the last of a monster's health."""
    if _seat_of(state, e.seat) and now.alive[e.seat] and now.hp[e.seat] == e.amount:
        return " (all it had left)"
    return ""


def held_back(state: State, seat: int) -> int:
    """The smash damage Jets holds back for ``seat`` while it decides to yield, or 0."""
    return state.flags.get(f"t.jets.{seat}", 0)


def yield_words(state: State, seat: int, place: str) -> str:
    """``seat`` yields ``place``, in the words of the event and of the action.

    ``state`` is the state before the yield. If Jets held the smash back, the words say what the
    yield saves."""
    saved = held_back(state, seat)
    jets = f", and Jets saves it {SYMBOLS.hearts(saved)}" if saved else ""
    return f"{state.monsters[seat]} yields {place}{jets}"


def _change(delta: int, amount: str) -> str:
    return f"gains {amount}" if delta > 0 else f"loses {amount}"


def _auto(e: AutoDecision, state: State, who: str) -> str:
    if e.kind == "buy" and isinstance(e.action, Done):
        return f"{who} cannot buy anything"
    if e.kind == "roll" and isinstance(e.action, Stop):
        return f"{who} has no re-roll left"
    if isinstance(e.action, UseCard):
        return f"{who} uses {CARDS[e.action.card].name} (the only choice)"
    return f"{who}: {format_action(state, e.action)} (the only choice)"


def describe_events(events: list[Event], state: State) -> list[str]:
    """Each of ``events`` in plain words, in order: the events of one input applied to ``state``.

    Each amount that stopped at a limit is judged after the changes before it in the list."""
    now = Amounts(state)
    out = []
    for e in events:
        out.append(describe_event(e, state, now))
        now.take(e)
    return out


def describe_event(event: Event, state: State, now: Amounts | None = None) -> str:
    """One line saying ``event`` in plain words.

    ``state`` is the state the input that caused ``event`` was applied to. It gives the monsters'
    names, and tells an amount that stopped at a limit and what a yield saved with Jets. Dice and
    amounts are written with symbols. A view may hide the :func:`~kotp2p.rules.is_minor` events.
    ``now`` holds the amounts before ``event`` when it follows others of the same input; by
    default they are the state's."""
    names = state.monsters
    g = SYMBOLS

    def who(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else "nobody"

    e = event
    if isinstance(e, RolledOff):
        rolls = ", ".join(f"{who(t)} {g.dice(d)}" for t, d in zip(e.seats, e.dice, strict=True))
        result = f"{who(e.first)} plays first" if e.first >= 0 else "a tie: the tied monsters roll again"
        return f"roll-off: {rolls}; {result}"
    if isinstance(e, TurnBegan):
        extra = " (an extra turn)" if e.extra else ""
        return f"turn {e.turn}: {who(e.seat)}{extra}"
    if isinstance(e, DiceRolled):
        n = len(e.rolled)
        if n == len(e.dice):
            return f"{who(e.seat)} rolls {g.dice(e.dice)}"
        new = g.dice(tuple(e.dice[i] for i in e.rolled))
        return f"{who(e.seat)} re-rolls {n} {'die' if n == 1 else 'dice'}: {new}"
    if isinstance(e, DiceKept):
        return f"{who(e.seat)} resolves {g.dice(e.dice)}"
    if isinstance(e, DiceChanged):
        return f"{who(e.seat)}'s dice become {g.dice(e.dice)}{_because('', e.card)}"
    if isinstance(e, StarsChanged):
        amount = g.stars(abs(e.delta))
        because = _because(e.why, e.card, _stars_limit(e, state, now or Amounts(state)))
        return f"{who(e.seat)} {_change(e.delta, amount)}{because}"
    if isinstance(e, EnergyChanged):
        amount = g.energies(abs(e.delta))
        because = _because(e.why, e.card, _energy_limit(e, state, now or Amounts(state)))
        return f"{who(e.seat)} {_change(e.delta, amount)}{because}"
    if isinstance(e, Damaged):
        left = _damage_limit(e, state, now or Amounts(state))
        if e.dealer < 0:
            return f"{who(e.seat)} loses {g.hearts(e.amount)}{left}"
        verb = "smashes" if e.smash else "hits"
        target = "itself" if e.dealer == e.seat else who(e.seat)
        return f"{who(e.dealer)} {verb} {target} for {g.hearts(e.amount)}{left}"
    if isinstance(e, Healed):
        because = _because("", e.card, _heal_limit(e, state, now or Amounts(state)))
        return f"{who(e.seat)} heals {g.hearts(e.amount)}{because}"
    if isinstance(e, EnteredTokyo):
        return f"{who(e.seat)} enters {_place(e.place)}{_because('', e.card)}"
    if isinstance(e, StayedInTokyo):
        return f"{who(e.seat)} stays in {_place(e.place)}"
    if isinstance(e, YieldedTokyo):
        if _seat_of(state, e.seat):
            return yield_words(state, e.seat, _place(e.place))
        return f"{who(e.seat)} yields {_place(e.place)}"
    if isinstance(e, LeftTokyo):
        return f"{who(e.seat)} is put out of {_place(e.place)}{_because('', e.card)}"
    if isinstance(e, BayClosed):
        if e.seat < 0:
            return "Tokyo Bay closes"
        where = "moves to Tokyo City" if e.to_city else "leaves Tokyo"
        return f"Tokyo Bay closes: {who(e.seat)} {where}"
    if isinstance(e, CardRevealed):
        return f"{CARDS[e.card].name} is revealed"
    if isinstance(e, CardBought):
        return f"{who(e.seat)} buys {CARDS[e.card].name} for {g.energies(e.price)}"
    if isinstance(e, MarketSwept):
        return f"{who(e.seat)} pays {g.energies(e.price)} to sweep the market"
    if isinstance(e, CardDiscarded):
        if e.seat < 0:
            return f"{CARDS[e.card].name} is discarded from the market"
        return f"{who(e.seat)} discards {CARDS[e.card].name}"
    if isinstance(e, TokensChanged):
        kind = f"{CARDS[e.card].name} token" if e.kind == "card" else f"{e.kind} token"
        n = abs(e.delta)
        plural = "s" if n != 1 else ""
        if e.delta > 0:
            source = _because("", e.card) if e.kind != "card" else ""
            return f"{who(e.seat)} gets {n} {kind}{plural}{source}"
        return f"{who(e.seat)} spends {n} {kind}{plural}"
    if isinstance(e, CardEffect):
        if is_minor(e):  # Jets: the yield decision tells whether it saved anything
            return f"{who(e.seat)}'s {CARDS[e.card].name} holds the smash back until it stays or yields"
        return f"{who(e.seat)}'s {CARDS[e.card].name} takes effect"
    if isinstance(e, Copied):
        return f"{who(e.seat)}'s {CARDS[e.card].name} copies {CARDS[e.target].name}"
    if isinstance(e, AutoDecision):
        return _auto(e, state, who(e.seat))
    if isinstance(e, ExtraTurn):
        return f"{who(e.seat)} will take another turn{_because('', e.card)}"
    if isinstance(e, CostumeKept):
        return f"{who(e.seat)} dresses up: it keeps {CARDS[e.card].name} of the two costumes it drew"
    if isinstance(e, CostumeTaken):
        return (f"{who(e.seat)} takes {CARDS[e.card].name} from {who(e.owner)} and pays "
                f"{g.energies(e.price)}")
    if isinstance(e, EvolutionsDrawn):
        count = len(e.slots)
        return f"{who(e.seat)} draws {count} Evolution{'s' if count != 1 else ''}"
    if isinstance(e, EvolutionKept):
        where = "back into its deck" if e.back else "into its discard"
        return f"{who(e.seat)} keeps one Evolution and puts the other {where}"
    if isinstance(e, EvolutionPlayed):
        return f"{who(e.seat)} plays {CARDS[e.card].name}"
    if isinstance(e, BeautyTaken):
        return f"{who(e.seat)} takes the Beauty ({CARDS[e.card].name})"
    if isinstance(e, GiftGiven):
        return f"{who(e.seat)} gives {CARDS[e.card].name} to {who(e.target)}"
    if isinstance(e, EvolutionsShuffled):
        return f"{who(e.seat)} shuffles its {len(e.slots)} discarded Evolutions into its deck"
    if isinstance(e, Eliminated):
        return f"{who(e.seat)} is eliminated"
    if isinstance(e, GameOver):
        if not e.winners:
            return "game over: every monster is out, nobody wins"
        how = f" with {g.stars(e.goal)}" if e.by_stars else ""
        if e.by_stars and e.goal < 20:
            how = f" with at least {g.stars(e.goal)}, thanks to a card"
        verb = "wins" if len(e.winners) == 1 else "win"
        return f"game over: {' and '.join(who(t) for t in e.winners)} {verb}{how}"
    return repr(e)
