"""Events: what happened inside one ``apply``, in order, as small frozen values.

``rules.apply(state, action, events=lst)`` appends to ``lst`` one event per thing that happened.
Without ``events``, nothing is recorded and nothing is built. The emitting code tests
``s.sink is not None`` first. Seats are seat numbers. Cards are card ids, with 0 for no card.
Places are ``CITY`` or ``BAY``. :func:`kotp2p.rules.describe_event` says an event in plain words.

Where an event has a ``card``, that card caused it. A ``card`` of 0 means the base rules did.
``why`` names the base-rule cause of a ★ or ⚡ change. ``"dice"`` is the dice. ``"tokyo"`` is the
start of a turn in Tokyo. ``"enter"`` is entering Tokyo. ``"card"`` is the event's card. ⚡ spent to
buy or sweep is in :class:`CardBought` and :class:`MarketSwept`, not in an :class:`EnergyChanged`.

Minor events: :func:`is_minor` is true for an event a person reading the game can do without. Such
an event repeats what the events around it say. One is an :class:`AutoDecision`: a decision
with one legal answer, which the engine took. Examples are "no re-roll left" and "cannot buy
anything". What the answer did follows as its own events. The other is the :class:`CardEffect` of
Jets holding a smash back: whether Jets saved anything is known only at the yield decision, whose
words tell it. Minor events are still reported, since tests, ``verify`` and statistics read them.
:func:`~kotp2p.rules.describe_event` still says them. Views hide them unless asked:
``kotp2p replay --verbose`` shows them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import get_args

from kotp2p.rules.actions import Action
from kotp2p.rules.cardindex import BY_SLUG

WHY_DICE = "dice"
WHY_TOKYO = "tokyo"
WHY_ENTER = "enter"
WHY_CARD = "card"


@dataclass(frozen=True, slots=True)
class RolledOff:
    """The roll-off for the first player: each contender's dice.

    ``first`` is -1 on a tie. The tied seats then roll again."""

    seats: tuple[int, ...]
    dice: tuple[tuple[int, ...], ...]
    first: int


@dataclass(frozen=True, slots=True)
class TurnBegan:
    """``seat``'s turn ``turn`` begins.

    ``extra`` marks a turn out of the rotation, such as one from Frenzy."""

    seat: int
    turn: int
    extra: bool = False


@dataclass(frozen=True, slots=True)
class DiceRolled:
    """``seat`` rolled.

    ``dice`` are all its dice now. ``rolled`` are the indices that got new values. For the first
    roll, that is every die."""

    seat: int
    dice: tuple[int, ...]
    rolled: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DiceKept:
    """``seat`` stopped rolling: ``dice`` are its final roll. Cards may still change a die."""

    seat: int
    dice: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DiceChanged:
    """``card`` changed a die of ``seat``'s: ``dice`` are its dice now."""

    seat: int
    dice: tuple[int, ...]
    card: int


@dataclass(frozen=True, slots=True)
class StarsChanged:
    """``seat`` gained or lost stars, after the 0..20 limits. A gain has ``delta`` > 0."""

    seat: int
    delta: int
    why: str
    card: int = 0


@dataclass(frozen=True, slots=True)
class EnergyChanged:
    """``seat`` gained or lost energy. A gain has ``delta`` > 0."""

    seat: int
    delta: int
    why: str
    card: int = 0


@dataclass(frozen=True, slots=True)
class Damaged:
    """``seat`` lost ``amount`` health from ``dealer``.

    ``dealer`` is -1 for nobody, as for poison. ``smash`` marks damage from smashes. Such damage
    may make a monster in Tokyo yield."""

    seat: int
    amount: int
    dealer: int
    smash: bool


@dataclass(frozen=True, slots=True)
class Healed:
    """``seat`` gained ``amount`` health, after its maximum."""

    seat: int
    amount: int
    card: int = 0


@dataclass(frozen=True, slots=True)
class EnteredTokyo:
    """``seat`` took ``place``, ``CITY`` or ``BAY``."""

    seat: int
    place: int
    card: int = 0


@dataclass(frozen=True, slots=True)
class StayedInTokyo:
    """``seat``, smashed in ``place``, stays."""

    seat: int
    place: int


@dataclass(frozen=True, slots=True)
class YieldedTokyo:
    """``seat``, smashed in ``place``, yields it."""

    seat: int
    place: int


@dataclass(frozen=True, slots=True)
class LeftTokyo:
    """``seat`` was put out of ``place`` by a card. It is not a yield, nor an elimination."""

    seat: int
    place: int
    card: int


@dataclass(frozen=True, slots=True)
class BayClosed:
    """Fewer than five monsters live, so Tokyo Bay closes.

    Its occupant ``seat`` moves to the empty City when ``to_city`` is true, or leaves Tokyo.
    ``seat`` is -1 when nobody was there."""

    seat: int
    to_city: bool


@dataclass(frozen=True, slots=True)
class CardRevealed:
    """``card`` was drawn into market ``slot``."""

    card: int
    slot: int


@dataclass(frozen=True, slots=True)
class CardBought:
    """``seat`` paid ``price`` energy for ``card``."""

    seat: int
    card: int
    price: int


@dataclass(frozen=True, slots=True)
class MarketSwept:
    """``seat`` paid ``price`` energy to discard the market. The discards and reveals follow."""

    seat: int
    price: int


@dataclass(frozen=True, slots=True)
class CardDiscarded:
    """``card`` went to the discard pile from ``seat``'s cards. A ``seat`` of -1 is the market."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class TokensChanged:
    """Tokens on ``seat``.

    ``kind`` is ``"poison"``, ``"shrink"`` or ``"card"``. ``"card"`` is for the tokens on ``card``
    itself, like Battery Monster's energy. A positive ``delta`` is added, a negative one spent."""

    seat: int
    kind: str
    delta: int
    card: int = 0


@dataclass(frozen=True, slots=True)
class CardEffect:
    """The effect of ``seat``'s ``card`` fires. What it does follows as its own events."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class Copied:
    """``seat``'s copier ``card``, such as Mimic, copies ``target`` now."""

    seat: int
    card: int
    target: int


@dataclass(frozen=True, slots=True)
class AutoDecision:
    """``seat``'s ``kind`` decision had one legal answer: the engine applied ``action``."""

    seat: int
    kind: str
    action: Action


@dataclass(frozen=True, slots=True)
class ExtraTurn:
    """``seat`` will take another turn after this one, thanks to ``card``."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class CostumeKept:
    """At the start of a Halloween game, ``seat`` kept ``card`` of the two costumes it drew.

    The other one goes back among the costumes. Only ``seat`` knows which it was."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class CostumeTaken:
    """``seat`` took the costume ``card`` from ``owner`` and paid it ``price`` energy."""

    seat: int
    owner: int
    card: int
    price: int


@dataclass(frozen=True, slots=True)
class EvolutionsDrawn:
    """Power Up!: ``seat`` drew the Evolution deck slots ``slots``. Only it learns their cards."""

    seat: int
    slots: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class EvolutionKept:
    """Power Up!: ``seat`` kept the card of ``slot`` in its hand, closed.

    The other slot it drew goes back into its deck when ``back`` is set, as at the start, and
    to its discard, closed, otherwise."""

    seat: int
    slot: int
    back: bool


@dataclass(frozen=True, slots=True)
class EvolutionPlayed:
    """Power Up!: ``seat`` played the Evolution ``card`` from its hand's ``slot``."""

    seat: int
    slot: int
    card: int


@dataclass(frozen=True, slots=True)
class GiftGiven:
    """Power Up!: ``seat`` put its Gift ``card`` in front of ``target``, a monster it wounded."""

    seat: int
    target: int
    card: int


@dataclass(frozen=True, slots=True)
class BeautyTaken:
    """Power Up!: ``seat`` holds King Kong's Beauty now, It Was Beauty Killed the Beast's card."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class EvolutionsShuffled:
    """Power Up!: ``seat``'s deck was empty, so its discarded ``slots`` were shuffled back in.

    They are in its deck again as the slots numbered from ``first`` on, in an order nobody else
    knows."""

    seat: int
    slots: tuple[int, ...]
    first: int


@dataclass(frozen=True, slots=True)
class Eliminated:
    """``seat``'s monster is out. Its cards go to the discard pile."""

    seat: int


@dataclass(frozen=True, slots=True, repr=False)
class GameOver:
    """The game ended.

    ``winners`` is empty when everybody lost. ``by_stars`` says a winner reached ``goal``★: 20,
    or fewer with a card such as Halloween's Astronaut."""

    winners: tuple[int, ...]
    by_stars: bool
    goal: int = 20

    def __repr__(self) -> str:
        # The goal shows only when a card changed it, so a base game's events read as before.
        goal = "" if self.goal == 20 else f", goal={self.goal}"
        return f"GameOver(winners={self.winners!r}, by_stars={self.by_stars!r}{goal})"


Event = (
    RolledOff
    | TurnBegan
    | DiceRolled
    | DiceKept
    | DiceChanged
    | StarsChanged
    | EnergyChanged
    | Damaged
    | Healed
    | EnteredTokyo
    | StayedInTokyo
    | YieldedTokyo
    | LeftTokyo
    | BayClosed
    | CardRevealed
    | CardBought
    | MarketSwept
    | CardDiscarded
    | TokensChanged
    | CardEffect
    | Copied
    | AutoDecision
    | ExtraTurn
    | CostumeKept
    | CostumeTaken
    | EvolutionsDrawn
    | EvolutionKept
    | EvolutionPlayed
    | GiftGiven
    | BeautyTaken
    | EvolutionsShuffled
    | Eliminated
    | GameOver
)

EVENT_TYPES: tuple[type, ...] = get_args(Event)

MINOR_EVENT_TYPES: tuple[type, ...] = (AutoDecision,)
"""The event types that are always minor. A Jets :class:`CardEffect` is minor too."""

HOLDS_BACK = "jets"
"""The notation name of the card whose effect only holds a smash back until a yield decision."""


def is_minor(event: Event) -> bool:
    """True for an event views hide unless asked for every detail. The module docstring says why."""
    if isinstance(event, CardEffect):
        return event.card == BY_SLUG.get(HOLDS_BACK)
    return isinstance(event, MINOR_EVENT_TYPES)
